// SPDX-License-Identifier: MIT
#include "core/report/csv.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <type_traits>
#include <cstdint>
#include <istream>
#include <iterator>
#include <limits>
#include <ostream>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "core/report/fields.hpp"
#include "core/report/plural.hpp"

namespace bwlab {

namespace {

// Fields that are CSV columns, in column order.
std::vector<const PointField*> csv_fields() {
  std::vector<const PointField*> out;
  for (const PointField& f : point_fields())
    if (f.in_csv()) out.push_back(&f);
  return out;
}

const std::string& header_text() {
  static const std::string text = [] {
    std::string h;
    for (const PointField* f : csv_fields()) {
      if (!h.empty()) h.push_back(',');
      h += f->name;
    }
    return h;
  }();
  return text;
}

// "line 1: not a bwlab CSV header (first columns: source,scenario,host,cpu_model,kernel,...): WHY":
// a few columns say what a bwlab CSV looks like; the whole header (60 columns) is too long a line.
[[noreturn]] void refuse_header(const std::string& why) {
  std::string first;
  const auto fields = csv_fields();
  for (std::size_t i = 0; i < fields.size() && i < 5; ++i) {
    first += fields[i]->name;
    first += ',';
  }
  throw InputError(fmt::format("line 1: not a bwlab CSV header (first columns: {}...): {}", first, why));
}

// ---- writing ------------------------------------------------------------------------------

std::string quote_if_needed(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string out;
  out.reserve(field.size() + 2);
  out.push_back('"');
  for (char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string format_double(double v) {
  if (std::isnan(v)) return {};
  return fmt::format("{}", v);  // shortest round-trip, locale-independent
}

// -1 means "not applicable": an empty field.
std::string format_optional_int(int v) { return v < 0 ? std::string() : fmt::format("{}", v); }

std::string join_ints(const std::vector<int>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out.push_back(';');
    out += fmt::format("{}", v[i]);
  }
  return out;
}

std::string join_flags(const std::vector<std::string>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out.push_back(';');
    for (char c : v[i]) out.push_back(c == ';' ? ',' : c);
  }
  return out;
}

// ---- reading ------------------------------------------------------------------------------

struct Record {
  std::size_t line = 0;  // 1-based line where the record starts
  std::vector<std::string> fields;
  bool blank = false;  // an empty line (one empty, unquoted field)
};

// RFC 4180 reader over the whole text; tolerates "\r\n" and a bare "\n".
class Reader {
 public:
  explicit Reader(std::string text) : text_(std::move(text)) {}

  bool next(Record& rec) {
    if (pos_ >= text_.size()) return false;
    rec.line = line_;
    rec.fields.clear();
    rec.blank = false;
    std::string field;
    bool any_quoted = false;
    for (;;) {
      field.clear();
      bool quoted = false;
      if (pos_ < text_.size() && text_[pos_] == '"') {
        quoted = any_quoted = true;
        ++pos_;
        for (;;) {
          if (pos_ >= text_.size())
            throw InputError(fmt::format("line {}: unterminated quoted field", rec.line));
          const char c = text_[pos_++];
          if (c == '"') {
            if (pos_ < text_.size() && text_[pos_] == '"') {
              field.push_back('"');
              ++pos_;
            } else {
              break;
            }
          } else {
            if (c == '\n') ++line_;
            field.push_back(c);
          }
        }
      }
      // Unquoted part (or what follows a closing quote, which must be a delimiter).
      while (pos_ < text_.size()) {
        const char c = text_[pos_];
        if (c == ',' || c == '\n') break;
        if (c == '\r' && (pos_ + 1 >= text_.size() || text_[pos_ + 1] == '\n')) break;
        if (quoted || c == '"')
          throw InputError(fmt::format("line {}: stray quote in field {}", line_,
                                       rec.fields.size() + 1));
        field.push_back(c);
        ++pos_;
      }
      rec.fields.push_back(field);
      if (pos_ >= text_.size()) break;
      const char c = text_[pos_];
      if (c == ',') {
        ++pos_;
        continue;
      }
      if (c == '\r') ++pos_;
      if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
      ++line_;
      break;
    }
    rec.blank = rec.fields.size() == 1 && rec.fields[0].empty() && !any_quoted;
    return true;
  }

 private:
  std::string text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

[[noreturn]] void bad_number(std::size_t line, std::string_view col, std::string_view text) {
  throw InputError(fmt::format("line {}: column {}: '{}' is not a number", line, col, text));
}

template <typename T>
T parse_int(std::string_view s, std::size_t line, std::string_view col) {
  T v{};
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (!s.empty() && ec == std::errc{} && p == s.data() + s.size()) return v;
  // A number, but not a count of this column: said as JSON says it ("'2.5' is not a number" was
  // wrong); a whole number written 2.0 (another tool's writer) is that number, as in JSON.
  double d = 0;
  const auto [q, dec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (s.empty() || dec != std::errc{} || q != s.data() + s.size() || !std::isfinite(d)) bad_number(line, col, s);
  if (const std::string why = not_a_count<T>(d); !why.empty())
    throw InputError(fmt::format("line {}: column {}: '{}' {}", line, col, s, why));
  return static_cast<T>(d);
}

double parse_double(std::string_view s, std::size_t line, std::string_view col) {
  if (s.empty()) return std::numeric_limits<double>::quiet_NaN();
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) bad_number(line, col, s);
  return v;
}

std::vector<int> parse_int_list(std::string_view s, std::size_t line, std::string_view col) {
  std::vector<int> out;
  if (s.empty()) return out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = s.find(';', start);
    out.push_back(parse_int<int>(s.substr(start, end - start), line, col));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

std::vector<std::string> split_flags(std::string_view s) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = s.find(';', start);
    out.emplace_back(s.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

// One CSV cell of field f of p.
std::string format_field(const PointField& f, const Point& p) {
  return std::visit(
      Overloaded{
          [&](std::string Point::*m) { return quote_if_needed(p.*m); },
          [&](int Point::*m) { return f.optional() ? format_optional_int(p.*m) : fmt::format("{}", p.*m); },
          [&](std::uint64_t Point::*m) { return fmt::format("{}", p.*m); },
          [&](double Point::*m) { return format_double(p.*m); },
          [&](std::vector<int> Point::*m) { return join_ints(p.*m); },
          [&](std::vector<std::string> Point::*m) { return quote_if_needed(join_flags(p.*m)); },
          [&](auto) { return std::string(); },  // JSON-only types never reach the CSV
      },
      f.member);
}

// Parses one CSV cell into field f of p; errors name the line and the column.
void parse_field(const PointField& f, std::string_view s, std::size_t line, Point& p) {
  std::visit(Overloaded{
                 [&](std::string Point::*m) { p.*m = std::string(s); },
                 [&](int Point::*m) { p.*m = f.optional() && s.empty() ? -1 : parse_int<int>(s, line, f.name); },
                 [&](std::uint64_t Point::*m) { p.*m = parse_int<std::uint64_t>(s, line, f.name); },
                 [&](double Point::*m) { p.*m = parse_double(s, line, f.name); },
                 [&](std::vector<int> Point::*m) { p.*m = parse_int_list(s, line, f.name); },
                 [&](std::vector<std::string> Point::*m) { p.*m = split_flags(s); },
                 [&](auto) {},
             },
             f.member);
}

// Another tool's output given where a bwlab CSV is read (the GUI, verdict, ...): the command that
// reads it, or "" ("unknown column '$ perf bench mem memset ...'" said nothing of `bwlab import`).
std::string other_tool_hint(const Record& header) {
  std::string line;
  for (const std::string& f : header.fields) line += (line.empty() ? "" : ",") + f;
  const auto has = [&](std::string_view s) { return line.find(s) != std::string::npos; };
  const char* format = has("perf bench") || line.rfind("# Running", 0) == 0 ? "perf-bench"
                       : line.rfind("RESULT\t", 0) == 0                       ? "pmbw"
                       : has("LIKWID") || line.rfind("-----", 0) == 0          ? "likwid-bench"
                                                                               : nullptr;
  if (format) return fmt::format("; it looks like {} output: read it with 'bwlab import {} FILE --csv out.csv'", format, format);
  if (line.rfind("source,system,cpu,", 0) == 0)
    return "; it is the seed table of perf bench figures (seed-memset.csv): 'bwlab simulate --validate FILE' and "
           "'bwlab calibrate --from FILE' read it";
  return "";
}

// Maps the header's columns to fields. Columns are found by name, so their order is free;
// optional columns may be missing (files of older versions), required ones may not.
std::vector<const PointField*> columns_of(const Record& header) {
  std::vector<const PointField*> columns;
  for (const std::string& name : header.fields) {
    const PointField* f = find_point_field(name);
    if (!f || !f->in_csv()) refuse_header(fmt::format("unknown column '{}'{}", name, other_tool_hint(header)));
    for (const PointField* seen : columns)
      if (seen == f) refuse_header(fmt::format("column '{}' appears twice", name));
    columns.push_back(f);
  }
  for (const PointField* f : csv_fields()) {
    if (f->optional()) continue;
    bool present = false;
    for (const PointField* c : columns) present |= c == f;
    if (!present) refuse_header(fmt::format("missing column '{}'", f->name));
  }
  return columns;
}

}  // namespace

std::string_view csv_header() { return header_text(); }

std::string csv_text(std::span<const Point> points) {
  const std::vector<const PointField*> fields = csv_fields();
  std::string text = header_text();
  text.push_back('\n');
  text.reserve(text.size() + points.size() * 768);  // a simulated row is ~600-800 bytes: few regrowths
  for (const Point& p : points) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) text.push_back(',');
      text += format_field(*fields[i], p);
    }
    text.push_back('\n');
  }
  return text;
}

bool begins_like_csv_header(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  const std::string_view header = csv_header();
  return first != std::string_view::npos && text.substr(first).starts_with(header.substr(0, header.find(",kernel,")));
}

void write_csv(std::ostream& out, std::span<const Point> points) {
  const std::string text = csv_text(points);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::vector<Point> read_csv(std::istream& in) {
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  Reader reader(std::move(text));
  Record rec;

  // Header: compared field by field, so "\r\n" line endings are tolerated.
  if (!reader.next(rec)) refuse_header("the file is empty");
  const std::vector<const PointField*> columns = columns_of(rec);

  std::vector<Point> points;
  std::size_t pending_blank_line = 0;  // blank lines are only allowed at the end
  while (reader.next(rec)) {
    if (rec.blank) {
      if (!pending_blank_line) pending_blank_line = rec.line;
      continue;
    }
    if (pending_blank_line)
      throw InputError(
          fmt::format("line {}: expected {} fields, found 1", pending_blank_line, columns.size()));
    if (rec.fields.size() != columns.size())
      throw InputError(fmt::format("line {}: expected {} fields, found {}", rec.line, columns.size(),
                                   rec.fields.size()));
    Point p;
    for (std::size_t i = 0; i < columns.size(); ++i) parse_field(*columns[i], rec.fields[i], rec.line, p);
    canonical_fill(p);
    if (const std::string why = implausible_value(p); !why.empty())
      throw InputError(fmt::format("line {}: {}", rec.line, why));
    points.push_back(std::move(p));
  }
  return points;
}

bool is_relative_figure(const Point& p) {
  for (const std::string& f : p.flags)
    if (f.rfind(kRelativeFigureFlag, 0) == 0) return true;
  return false;
}

void refuse_relative_figures(std::span<const Point> points, std::string_view origin) {
  std::size_t n = 0;
  for (const Point& p : points) n += is_relative_figure(p) ? 1 : 0;
  if (n > 0)
    throw InputError(fmt::format("{}: {} of its {} {} (ratios between the kernels of a point, "
                                 "not GB/s); only `bwlab simulate --validate` reads them",
                                 origin, n, count_of(points.size(), "point"), noun(n, "is a relative figure", "are relative figures")));
}

}  // namespace bwlab
