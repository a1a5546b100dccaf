// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace bwlab {

// What a kernel writes. What is written changes the figure (zeros can run ~2x faster than
// a non-zero byte on some CPUs), so the fill is recorded with every point.
struct Fill {
  enum class Kind { constant, perf };
  Kind kind = Kind::constant;
  std::uint8_t byte = 0;  // for Kind::constant

  // The byte written in pass number `pass` (0-based). `perf` writes the pass index
  // modulo 256, as `perf bench mem memset` writes its loop index.
  std::uint8_t byte_for_pass(std::uint64_t pass) const {
    return kind == Kind::perf ? static_cast<std::uint8_t>(pass & 0xffu) : byte;
  }
  bool zero_only() const { return kind == Kind::constant && byte == 0; }
  // "zero", "0xNN" (two lowercase hex digits) or "perf".
  std::string label() const;
  bool operator==(const Fill&) const = default;
};

// Parses "zero", "0xNN" / "0xN" (0x00 is the same as zero) or "perf".
// Throws InputError with the accepted forms on anything else.
Fill parse_fill(std::string_view text);

}  // namespace bwlab
