// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>
#include <sstream>
#include <streambuf>

namespace bwlab::cli {

// While alive, what goes to std::cout is gathered; when it goes (an exception too), the text is
// written with its prose lines wrapped at the terminal's width (wrap_prose): verdict's
// Recommendation and notes ran 200+ columns on an 80-column terminal. When stdout is not a
// terminal (a file, a pipe) nothing is gathered and the output stays byte for byte.
class WrappedStdout {
 public:
  WrappedStdout();
  ~WrappedStdout();
  WrappedStdout(const WrappedStdout&) = delete;
  WrappedStdout& operator=(const WrappedStdout&) = delete;

 private:
  std::size_t width_ = 0;
  std::ostringstream gathered_;
  std::streambuf* saved_ = nullptr;
};

}  // namespace bwlab::cli
