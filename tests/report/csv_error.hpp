// SPDX-License-Identifier: MIT
#pragma once
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/report/csv.hpp"

namespace bwlab {

// The InputError message read_csv gives for `csv`, or "(no error)".
inline std::string csv_error_of(const std::string& csv) {
  std::istringstream in(csv);
  try {
    (void)read_csv(in);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace bwlab
