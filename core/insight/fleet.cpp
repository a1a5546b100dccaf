// SPDX-License-Identifier: MIT
#include "core/insight/fleet.hpp"

#include <fmt/format.h>

#include <charconv>
#include <istream>
#include <iterator>
#include <ostream>
#include <sstream>

#include "core/errors.hpp"
#include "core/report/csv.hpp"

namespace bwlab {

namespace {

// The identity columns every fleet CSV starts with; files of this version add the caches.
constexpr std::string_view kLeading = "cpu_vendor,cpu_family,cpu_model_number,cpu_stepping,microcode";
constexpr std::string_view kCaches = "llc_bytes,llc_count";
constexpr std::size_t kIdentityCount = 5, kCachesCount = 2;

std::string quote_if_needed(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

struct Record {
  std::size_t line = 0;
  std::vector<std::string> fields;
};

// RFC 4180 records (quoted fields may hold commas, quotes and newlines).
std::vector<Record> split_records(const std::string& text) {
  std::vector<Record> records;
  std::size_t pos = 0, line = 1;
  while (pos < text.size()) {
    Record rec;
    rec.line = line;
    std::string field;
    bool quoted = false, in_quotes = false;
    for (;;) {
      if (pos >= text.size()) {
        if (in_quotes) throw InputError(fmt::format("line {}: unterminated quoted field", rec.line));
        rec.fields.push_back(field);
        break;
      }
      const char c = text[pos];
      if (in_quotes) {
        if (c == '"') {
          if (pos + 1 < text.size() && text[pos + 1] == '"') {
            field.push_back('"');
            pos += 2;
          } else {
            in_quotes = false;
            ++pos;
          }
        } else {
          if (c == '\n') ++line;
          field.push_back(c);
          ++pos;
        }
        continue;
      }
      if (c == '"' && field.empty() && !quoted) {
        quoted = in_quotes = true;
        ++pos;
      } else if (c == ',') {
        rec.fields.push_back(field);
        field.clear();
        quoted = false;
        ++pos;
      } else if (c == '\n' || c == '\r') {
        rec.fields.push_back(field);
        if (c == '\r') ++pos;
        if (pos < text.size() && text[pos] == '\n') ++pos;
        ++line;
        break;
      } else {
        field.push_back(c);
        ++pos;
      }
    }
    const bool blank = rec.fields.size() == 1 && rec.fields[0].empty();
    if (!blank) records.push_back(std::move(rec));
  }
  return records;
}

template <typename T = int>
T parse_int(const std::string& s, std::size_t line, std::string_view column) {
  T v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size())
    throw InputError(fmt::format("line {}: column {}: '{}' is not a number", line, column, s));
  return v;
}

}  // namespace

CpuIdentity cpu_identity(const RunInfo& run) {
  return CpuIdentity{run.cpu_vendor, run.cpu_family, run.cpu_model, run.cpu_stepping, run.microcode,
                     run.llc_bytes,  run.llc_count};
}

std::string cpu_label(const CpuIdentity& c) {
  if (c.vendor.empty() && c.family == 0 && c.model == 0)
    return "CPU identity not recorded";  // a prediction of a preset or spec sheet, or an imported figure
  return fmt::format("{} {}/{}/{}", c.vendor.empty() ? "unknown-vendor" : c.vendor, c.family, c.model, c.stepping);
}

std::string_view fleet_leading_header() {
  static const std::string header = fmt::format("{},{}", kLeading, kCaches);
  return header;
}

bool is_fleet_csv(std::string_view text) {
  return text.substr(0, kLeading.size() + 1) == std::string(kLeading) + ",";
}

void write_fleet_csv(std::ostream& out, std::span<const FleetRow> rows) {
  std::string text = fmt::format("{},{}\n", fleet_leading_header(), csv_header());
  for (const FleetRow& r : rows) {
    std::ostringstream one;
    write_csv(one, std::span<const Point>(&r.point, 1));
    const std::string s = one.str();
    const std::size_t header_end = s.find('\n');  // the normal header holds no quotes or newlines
    text += fmt::format("{},{},{},{},{},{},{},", quote_if_needed(r.cpu.vendor), r.cpu.family, r.cpu.model,
                        r.cpu.stepping, quote_if_needed(r.cpu.microcode), r.cpu.llc_bytes, r.cpu.llc_count);
    text += s.substr(header_end + 1);
  }
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::vector<FleetRow> read_fleet_csv(std::istream& in) {
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!is_fleet_csv(text))
    throw InputError(fmt::format("line 1: not a bwlab fleet CSV (expected it to start with {})", kLeading));
  const std::vector<Record> records = split_records(text);
  const bool caches = !records.empty() && records[0].fields.size() > kIdentityCount + kCachesCount &&
                      records[0].fields[kIdentityCount] == "llc_bytes" &&
                      records[0].fields[kIdentityCount + 1] == "llc_count";
  const std::size_t leading = kIdentityCount + (caches ? kCachesCount : 0);
  std::vector<CpuIdentity> cpus;
  std::string rest;  // the normal CSV that follows the leading columns, re-encoded
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
    if (r.fields.size() <= leading)
      throw InputError(fmt::format("line {}: expected more than {} fields, found {}", r.line, leading, r.fields.size()));
    if (i > 0) {
      CpuIdentity c;
      c.vendor = r.fields[0];
      c.family = parse_int(r.fields[1], r.line, "cpu_family");
      c.model = parse_int(r.fields[2], r.line, "cpu_model_number");
      c.stepping = parse_int(r.fields[3], r.line, "cpu_stepping");
      c.microcode = r.fields[4];
      if (caches) {
        c.llc_bytes = parse_int<std::uint64_t>(r.fields[5], r.line, "llc_bytes");
        c.llc_count = parse_int(r.fields[6], r.line, "llc_count");
      }
      cpus.push_back(std::move(c));
    }
    for (std::size_t f = leading; f < r.fields.size(); ++f) {
      if (f > leading) rest.push_back(',');
      rest += quote_if_needed(r.fields[f]);
    }
    rest.push_back('\n');
  }
  std::istringstream point_text(rest);
  std::vector<Point> points = read_csv(point_text);  // checks the point header and every field
  std::vector<FleetRow> rows;
  for (std::size_t i = 0; i < points.size(); ++i) rows.push_back(FleetRow{cpus.at(i), std::move(points[i])});
  return rows;
}

}  // namespace bwlab
