// SPDX-License-Identifier: MIT
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/report/record.hpp"

namespace bwlab {

// The one table of a Point's fields. It drives the CSV header, writer and reader (csv.cpp), the
// JSON writer and reader of a point (json.cpp) and the README's column list (a test compares
// them, see fields_markdown). The row order is the CSV column order and the JSON key order.
//
// To add a field: add the member to Point (record.hpp), add ONE row below where the column
// belongs (new columns go at the end: downstream parsers rely on the order), mark it `optional`
// so files written before it existed still read, then update the pinned header / JSON key tests
// in tests/report and paste the new fields_markdown() block into README.md (the failing test
// prints it). The member's C++ type picks the encoding:
//   std::string               text (CSV quoted when needed)
//   int                       integer; an optional field writes -1 as an empty CSV cell
//   std::uint64_t             unsigned integer
//   double                    number; NaN is an empty CSV cell and JSON null
//   std::vector<int>          integers, ';'-separated in the CSV, an array in JSON
//   std::vector<std::string>  texts, ';'-separated in the CSV (';' inside becomes ','), an array in JSON
//   std::vector<double>       numbers, JSON only (NaN -> null)
//   std::vector<ThreadFigures> per-thread objects, JSON only
using PointMember =
    std::variant<std::string Point::*, int Point::*, std::uint64_t Point::*, double Point::*,
                 std::vector<int> Point::*, std::vector<std::string> Point::*,
                 std::vector<double> Point::*, std::vector<ThreadFigures> Point::*>;

enum class FieldUse {
  required,   // CSV and JSON; readers refuse a file without it
  optional,   // CSV and JSON; absent in files of older versions: then Point's default (n/a)
  json_only,  // JSON only (lists of numbers or objects); required there
};

struct PointField {
  std::string_view name;         // CSV column and JSON key
  PointMember member;            // the Point member it reads and writes
  std::string_view unit;         // empty if none
  std::string_view description;  // one line, as in the README
  FieldUse use = FieldUse::required;

  bool in_csv() const { return use != FieldUse::json_only; }
  bool optional() const { return use == FieldUse::optional; }
};

// Visits a PointField's member with one lambda per type:
// std::visit(Overloaded{[&](double Point::*m) {...}, [&](auto m) {...}}, field.member).
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// All fields, in CSV / JSON order.
std::span<const PointField> point_fields();

// The field named `name`, or nullptr.
const PointField* find_point_field(std::string_view name);

// "text", "integer", "number", "integers", "texts", "numbers" or "objects".
std::string_view field_type_name(const PointField& f);

// Why a read point cannot be a bwlab figure, or empty: a thread count below 1, a GB/s field
// (every number whose name holds "gbps") that is infinite or negative, a source other than
// measured, simulated or imported, a gbps_min above the median (or a gbps_max below it), a
// missing or zero median (tlbflush rows have none), a measured row without its spread or range, a
// measured or simulated buffer under 4096 bytes, a traffic_class other than its kernel's. Other
// missing figures (NaN, an empty cell) are allowed. Readers name the line or point with it (a
// hand-edited -5 or nan once turned a whole verdict row into "no usable figure").
std::string implausible_value(const Point& p);

// Writes a read point's fill as run writes it ("0x00" and "0" are "zero", "0xFF" is "0xff"): a
// hand-edited or other tool's spelling made compare say two files "share no fill" and verdict judge
// "0x00" apart from "zero". A fill that is no fill is left for implausible_value to name.
void canonical_fill(Point& p);

// Why the number `d`, read where a count of type T belongs, is not one, or empty: "is negative"
// (an unsigned count), "is not a whole number" (2.5, or out of T's range). 2.0 is a count. JSON
// and CSV readers say it alike, each with its own place ("line 2: column threads: '2.5' ...").
template <typename T>
std::string not_a_count(double d) {
  if (std::is_unsigned_v<T> && d < 0) return "is negative";
  if (!std::isfinite(d) || d != std::floor(d) || d < double(std::numeric_limits<T>::min()) ||
      d >= double(std::numeric_limits<T>::max()))
    return "is not a whole number";
  return {};
}

// The README's column list, generated from the table: a Markdown table
// (| column | type | unit | description |), one row per field, ending with a newline.
std::string fields_markdown();

}  // namespace bwlab
