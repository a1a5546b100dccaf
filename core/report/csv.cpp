// SPDX-License-Identifier: MIT
#include "core/report/csv.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <istream>
#include <iterator>
#include <limits>
#include <ostream>
#include <string>
#include <system_error>

#include "core/errors.hpp"

namespace bwlab {

namespace {

constexpr std::string_view kHeader =
    "source,scenario,host,cpu_model,kernel,traffic_class,fill,threads,placement,membind,pages,"
    "size_bytes,reps,duration_ms,bytes_median,elapsed_ns_median,gbps_median,gbps_min,gbps_max,"
    "gbps_pstdev_pct,gbps_per_thread_median,thread_fairness,pus,pus_planned,flags,"
    "role,peer_kernel,peer_threads,peer_gbps_median,baseline_gbps,slowdown_pct,huge_pct,"
    "pages_touched_median,faults_median,faults_per_s,entries,munmap_ns_median,munmap_ns_pstdev_pct,"
    "munmap_calls_median,reader_ns_median,reader_ns_pstdev_pct,reader_alone_ns";

constexpr std::size_t kColumns = 42;

constexpr std::string_view kColumnNames[kColumns] = {
    "source",          "scenario",        "host",
    "cpu_model",       "kernel",          "traffic_class",
    "fill",            "threads",         "placement",
    "membind",         "pages",           "size_bytes",
    "reps",            "duration_ms",     "bytes_median",
    "elapsed_ns_median", "gbps_median",   "gbps_min",
    "gbps_max",        "gbps_pstdev_pct", "gbps_per_thread_median",
    "thread_fairness", "pus",             "pus_planned",
    "flags",           "role",            "peer_kernel",
    "peer_threads",    "peer_gbps_median", "baseline_gbps",
    "slowdown_pct",    "huge_pct",        "pages_touched_median",
    "faults_median",   "faults_per_s",    "entries",
    "munmap_ns_median", "munmap_ns_pstdev_pct", "munmap_calls_median",
    "reader_ns_median", "reader_ns_pstdev_pct", "reader_alone_ns"};

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

[[noreturn]] void bad_number(std::size_t line, std::size_t col, std::string_view text) {
  throw InputError(
      fmt::format("line {}: column {}: '{}' is not a number", line, kColumnNames[col], text));
}

template <typename T>
T parse_int(std::string_view s, std::size_t line, std::size_t col) {
  T v{};
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size()) bad_number(line, col, s);
  return v;
}

double parse_double(std::string_view s, std::size_t line, std::size_t col) {
  if (s.empty()) return std::numeric_limits<double>::quiet_NaN();
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) bad_number(line, col, s);
  return v;
}

std::vector<int> parse_int_list(std::string_view s, std::size_t line, std::size_t col) {
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

}  // namespace

std::string_view csv_header() { return kHeader; }

void write_csv(std::ostream& out, std::span<const Point> points) {
  std::string text(kHeader);
  text.push_back('\n');
  for (const Point& p : points) {
    const std::string fields[kColumns] = {
        quote_if_needed(p.source),
        quote_if_needed(p.scenario),
        quote_if_needed(p.host),
        quote_if_needed(p.cpu_model),
        quote_if_needed(p.kernel),
        quote_if_needed(p.traffic_class),
        quote_if_needed(p.fill),
        fmt::format("{}", p.threads),
        quote_if_needed(p.placement),
        quote_if_needed(p.membind),
        quote_if_needed(p.pages),
        fmt::format("{}", p.size_bytes),
        fmt::format("{}", p.reps),
        format_double(p.duration_ms),
        format_double(p.bytes_median),
        format_double(p.elapsed_ns_median),
        format_double(p.gbps_median),
        format_double(p.gbps_min),
        format_double(p.gbps_max),
        format_double(p.gbps_pstdev_pct),
        format_double(p.gbps_per_thread_median),
        format_double(p.thread_fairness),
        join_ints(p.pus),
        join_ints(p.pus_planned),
        quote_if_needed(join_flags(p.flags)),
        quote_if_needed(p.role),
        quote_if_needed(p.peer_kernel),
        format_optional_int(p.peer_threads),
        format_double(p.peer_gbps_median),
        format_double(p.baseline_gbps),
        format_double(p.slowdown_pct),
        format_double(p.huge_pct),
        format_double(p.pages_touched_median),
        format_double(p.faults_median),
        format_double(p.faults_per_s),
        format_optional_int(p.entries),
        format_double(p.munmap_ns_median),
        format_double(p.munmap_ns_pstdev_pct),
        format_double(p.munmap_calls_median),
        format_double(p.reader_ns_median),
        format_double(p.reader_ns_pstdev_pct),
        format_double(p.reader_alone_ns),
    };
    for (std::size_t i = 0; i < kColumns; ++i) {
      if (i) text.push_back(',');
      text += fields[i];
    }
    text.push_back('\n');
  }
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::vector<Point> read_csv(std::istream& in) {
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  Reader reader(std::move(text));
  Record rec;

  // Header: compared field by field, so "\r\n" line endings are tolerated.
  bool header_ok = reader.next(rec) && rec.fields.size() == kColumns;
  for (std::size_t i = 0; header_ok && i < kColumns; ++i)
    header_ok = rec.fields[i] == kColumnNames[i];
  if (!header_ok)
    throw InputError(fmt::format("line 1: not a bwlab CSV header; expected: {}", kHeader));

  std::vector<Point> points;
  std::size_t pending_blank_line = 0;  // blank lines are only allowed at the end
  while (reader.next(rec)) {
    if (rec.blank) {
      if (!pending_blank_line) pending_blank_line = rec.line;
      continue;
    }
    if (pending_blank_line)
      throw InputError(
          fmt::format("line {}: expected {} fields, found 1", pending_blank_line, kColumns));
    if (rec.fields.size() != kColumns)
      throw InputError(fmt::format("line {}: expected {} fields, found {}", rec.line, kColumns,
                                   rec.fields.size()));
    const auto& f = rec.fields;
    const std::size_t ln = rec.line;
    Point p;
    p.source = f[0];
    p.scenario = f[1];
    p.host = f[2];
    p.cpu_model = f[3];
    p.kernel = f[4];
    p.traffic_class = f[5];
    p.fill = f[6];
    p.threads = parse_int<int>(f[7], ln, 7);
    p.placement = f[8];
    p.membind = f[9];
    p.pages = f[10];
    p.size_bytes = parse_int<std::uint64_t>(f[11], ln, 11);
    p.reps = parse_int<int>(f[12], ln, 12);
    p.duration_ms = parse_double(f[13], ln, 13);
    p.bytes_median = parse_double(f[14], ln, 14);
    p.elapsed_ns_median = parse_double(f[15], ln, 15);
    p.gbps_median = parse_double(f[16], ln, 16);
    p.gbps_min = parse_double(f[17], ln, 17);
    p.gbps_max = parse_double(f[18], ln, 18);
    p.gbps_pstdev_pct = parse_double(f[19], ln, 19);
    p.gbps_per_thread_median = parse_double(f[20], ln, 20);
    p.thread_fairness = parse_double(f[21], ln, 21);
    p.pus = parse_int_list(f[22], ln, 22);
    p.pus_planned = parse_int_list(f[23], ln, 23);
    p.flags = split_flags(f[24]);
    p.role = f[25];
    p.peer_kernel = f[26];
    p.peer_threads = f[27].empty() ? -1 : parse_int<int>(f[27], ln, 27);
    p.peer_gbps_median = parse_double(f[28], ln, 28);
    p.baseline_gbps = parse_double(f[29], ln, 29);
    p.slowdown_pct = parse_double(f[30], ln, 30);
    p.huge_pct = parse_double(f[31], ln, 31);
    p.pages_touched_median = parse_double(f[32], ln, 32);
    p.faults_median = parse_double(f[33], ln, 33);
    p.faults_per_s = parse_double(f[34], ln, 34);
    p.entries = f[35].empty() ? -1 : parse_int<int>(f[35], ln, 35);
    p.munmap_ns_median = parse_double(f[36], ln, 36);
    p.munmap_ns_pstdev_pct = parse_double(f[37], ln, 37);
    p.munmap_calls_median = parse_double(f[38], ln, 38);
    p.reader_ns_median = parse_double(f[39], ln, 39);
    p.reader_ns_pstdev_pct = parse_double(f[40], ln, 40);
    p.reader_alone_ns = parse_double(f[41], ln, 41);
    points.push_back(std::move(p));
  }
  return points;
}

}  // namespace bwlab
