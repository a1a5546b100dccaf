// SPDX-License-Identifier: MIT
// Fuzz target: the CSV reader must turn any input into points or an InputError, nothing else.
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/report/csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    (void)bwlab::read_csv(in);
  } catch (const bwlab::InputError&) {
  }
  return 0;
}
