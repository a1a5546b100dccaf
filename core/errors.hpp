// SPDX-License-Identifier: MIT
#pragma once
#include <stdexcept>
#include <string>

namespace bwlab {

// Bad input from the user (arguments, files): the CLI prints what() and exits 2.
// Everything else that goes wrong at run time is a std::runtime_error (exit 1).
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace bwlab
