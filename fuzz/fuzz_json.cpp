// SPDX-License-Identifier: MIT
// Fuzz target: the JSON reader must turn any input into a document or an InputError.
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/report/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    (void)bwlab::read_json(in);
  } catch (const bwlab::InputError&) {
  }
  return 0;
}
