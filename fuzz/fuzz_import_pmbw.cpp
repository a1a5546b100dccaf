// SPDX-License-Identifier: MIT
// Fuzz target: the pmbw importer must turn any input into points or an InputError, nothing else.
#include <string>

#include "core/errors.hpp"
#include "core/import/import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  bwlab::import::Options o;
  o.file = "fuzz";
  try {
    (void)bwlab::import::import_text("pmbw", std::string(reinterpret_cast<const char*>(data), size), o);
  } catch (const bwlab::InputError&) {
  }
  return 0;
}
