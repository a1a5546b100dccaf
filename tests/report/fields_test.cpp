// SPDX-License-Identifier: MIT
// The field table (core/report/fields.hpp) and the formats it drives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "core/report/csv.hpp"
#include "core/report/fields.hpp"
#include "core/report/json.hpp"
#include "tests/report/csv_error.hpp"

namespace bwlab {
namespace {

// A point where every field holds a value unlike its default, set through the table, so a row
// added to the table is covered without touching this test.
Point every_field_set() {
  Point p;
  int n = 1;
  for (const PointField& f : point_fields()) {
    ++n;
    std::visit(Overloaded{
                   [&](std::string Point::*m) { p.*m = "v" + std::to_string(n); },
                   [&](int Point::*m) { p.*m = n; },
                   [&](std::uint64_t Point::*m) { p.*m = 1000u + static_cast<std::uint64_t>(n); },
                   [&](double Point::*m) { p.*m = n + 0.25; },
                   [&](std::vector<int> Point::*m) { p.*m = {n, n + 1}; },
                   [&](std::vector<std::string> Point::*m) { p.*m = {"a" + std::to_string(n), "b"}; },
                   [&](std::vector<double> Point::*m) { p.*m = {n + 0.5, n + 1.5}; },
                   [&](std::vector<ThreadFigures> Point::*m) {
                     ThreadFigures t;
                     t.slot = n;
                     (p.*m).push_back(t);
                   },
               },
               f.member);
  }
  // Read back only as a figure would be: a known source, and the spread holding its median.
  p.source = "imported";
  p.scenario = "victim", p.placement = "scatter", p.membind = "node:3", p.pages = "thp";  // the values a run writes
  p.traffic_class = "non-temporal";
  p.gbps_min = p.gbps_median - 0.5;
  p.gbps_max = p.gbps_median + 0.5;
  return p;
}

// True when field f of a and b hold the same value (per_thread compared by slot).
bool same_field(const PointField& f, const Point& a, const Point& b) {
  return std::visit(Overloaded{
                        [&](std::vector<ThreadFigures> Point::*m) {
                          if ((a.*m).size() != (b.*m).size()) return false;
                          for (std::size_t i = 0; i < (a.*m).size(); ++i)
                            if ((a.*m)[i].slot != (b.*m)[i].slot) return false;
                          return true;
                        },
                        [&](auto m) { return a.*m == b.*m; },
                    },
                    f.member);
}

std::vector<Point> csv_round_trip(const Point& p) {
  std::ostringstream out;
  write_csv(out, std::vector<Point>{p});
  std::istringstream in(out.str());
  return read_csv(in);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + v[i];
  return s;
}

TEST(Fields, NamesAreUniqueAndDescribed) {
  std::set<std::string_view> names;
  for (const PointField& f : point_fields()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_FALSE(f.description.empty()) << f.name;
    EXPECT_EQ(find_point_field(f.name), &f);
  }
  EXPECT_EQ(find_point_field("no_such_field"), nullptr);
}

TEST(Fields, CsvHeaderIsTheTablesCsvFields) {
  std::vector<std::string> names;
  for (const PointField& f : point_fields())
    if (f.in_csv()) names.emplace_back(f.name);
  EXPECT_EQ(std::string(csv_header()), join(names));
}

TEST(Fields, EveryCsvFieldRoundTripsThroughCsv) {
  const Point p = every_field_set();
  const std::vector<Point> back = csv_round_trip(p);
  ASSERT_EQ(back.size(), 1u);
  for (const PointField& f : point_fields())
    if (f.in_csv()) {
      EXPECT_TRUE(same_field(f, p, back[0])) << f.name;
    }
}

TEST(Fields, EveryFieldRoundTripsThroughJson) {
  const Point p = every_field_set();
  std::ostringstream out;
  write_json(out, RunInfo{}, std::vector<Point>{p});
  std::istringstream in(out.str());
  const JsonDocument doc = read_json(in);
  ASSERT_EQ(doc.points.size(), 1u);
  for (const PointField& f : point_fields()) EXPECT_TRUE(same_field(f, p, doc.points[0])) << f.name;
}

// The keys of a point object, in order: pinned, so a change is deliberate (downstream reads them).
TEST(Fields, JsonPointKeysArePinned) {
  std::ostringstream out;
  write_json(out, RunInfo{}, std::vector<Point>{Point{}});
  const auto doc = nlohmann::ordered_json::parse(out.str());
  std::vector<std::string> keys;
  for (const auto& item : doc.at("points").at(0).items()) keys.push_back(item.key());
  EXPECT_EQ(join(keys),
            "source,scenario,host,cpu_model,kernel,traffic_class,fill,threads,placement,membind,"
            "pages,size_bytes,reps,duration_ms,bytes_median,elapsed_ns_median,gbps_median,"
            "gbps_min,gbps_max,gbps_pstdev_pct,gbps_per_thread_median,thread_fairness,pus,"
            "pus_planned,flags,gbps_reps,per_thread,role,peer_kernel,peer_threads,"
            "peer_gbps_median,baseline_gbps,slowdown_pct,huge_pct,pages_touched_median,"
            "faults_median,faults_per_s,entries,munmap_ns_median,munmap_ns_pstdev_pct,"
            "munmap_calls_median,reader_ns_median,reader_ns_pstdev_pct,reader_alone_ns,"
            "origin_tool,origin_format,origin_file,origin_line,origin_function,origin_unit,"
            "origin_to_gbps,origin_spread_unit,origin_spread,origin_microcode,origin_turbo,origin_note,"
            "steal_pct_max,invol_ctx_switches,cpu_mhz_median,noisy_windows,dram_read_per_byte,dram_write_per_byte");
  // Not applicable: null for numbers, -1 for counts (as before the table existed).
  EXPECT_TRUE(doc.at("points").at(0).at("slowdown_pct").is_null());
  EXPECT_EQ(doc.at("points").at(0).at("entries"), -1);
}

TEST(Fields, JsonWithoutOptionalFieldsReads) {
  // A point as written before the scenario fields existed.
  std::ostringstream out;
  write_json(out, RunInfo{}, std::vector<Point>{every_field_set()});
  auto doc = nlohmann::ordered_json::parse(out.str());
  for (const PointField& f : point_fields())
    if (f.optional()) doc["points"][0].erase(std::string(f.name));
  std::istringstream in(doc.dump());
  const Point back = read_json(in).points.at(0);
  EXPECT_EQ(back.peer_threads, -1);
  EXPECT_TRUE(std::isnan(back.slowdown_pct));
  EXPECT_EQ(back.role, "");
  EXPECT_EQ(back.kernel, every_field_set().kernel);
  // A required field missing is an error.
  doc["points"][0].erase("gbps_median");
  std::istringstream bad(doc.dump());
  EXPECT_THROW((void)read_json(bad), InputError);
}

// A CSV without quoted fields, as header and row cells.
struct Cells {
  std::vector<std::string> header, row;
  std::string text() const { return join(header) + "\n" + join(row) + "\n"; }
};

Cells simple_csv() {
  Point p = every_field_set();
  std::ostringstream out;
  write_csv(out, std::vector<Point>{p});
  const std::vector<std::string> lines = split(out.str(), '\n');
  return Cells{split(lines.at(0), ','), split(lines.at(1), ',')};
}

TEST(Fields, CsvColumnsAreFoundByName) {
  Cells c = simple_csv();
  ASSERT_EQ(c.header.size(), c.row.size());
  std::reverse(c.header.begin(), c.header.end());
  std::reverse(c.row.begin(), c.row.end());
  std::istringstream in(c.text());
  const std::vector<Point> back = read_csv(in);
  ASSERT_EQ(back.size(), 1u);
  const Point p = every_field_set();
  for (const PointField& f : point_fields())
    if (f.in_csv()) {
      EXPECT_TRUE(same_field(f, p, back[0])) << f.name;
    }
  // Errors still name the line and the column, wherever it is.
  c.row[c.header.size() - 1 - 16] = "abc";  // gbps_median, reversed
  ASSERT_EQ(c.header[c.header.size() - 1 - 16], "gbps_median");
  EXPECT_EQ(csv_error_of(c.text()), "line 2: column gbps_median: 'abc' is not a number");
}

TEST(Fields, CsvWithoutOptionalColumnsReads) {
  // A file of the previous version: the columns up to `flags`, no scenario columns.
  Cells c = simple_csv();
  Cells old;
  for (std::size_t i = 0; i < c.header.size(); ++i) {
    if (find_point_field(c.header[i])->optional()) continue;
    old.header.push_back(c.header[i]);
    old.row.push_back(c.row[i]);
  }
  ASSERT_EQ(old.header.back(), "flags");
  std::istringstream in(old.text());
  const Point back = read_csv(in).at(0);
  EXPECT_EQ(back.kernel, every_field_set().kernel);
  EXPECT_EQ(back.peer_threads, -1);
  EXPECT_EQ(back.entries, -1);
  EXPECT_TRUE(std::isnan(back.reader_alone_ns));
  EXPECT_EQ(back.peer_kernel, "");
  // Rows must match the header they come with.
  EXPECT_EQ(csv_error_of(join(old.header) + "\n" + join(c.row) + "\n"),
            "line 2: expected 25 fields, found 60");
}

TEST(Fields, CsvHeaderErrorsSayWhy) {
  Cells c = simple_csv();
  // A few columns, not the whole header: one short line.
  const std::string prefix = "line 1: not a bwlab CSV header (first columns: source,scenario,host,cpu_model,kernel,...): ";
  Cells unknown = c;
  unknown.header[3] = "bogus";
  EXPECT_EQ(csv_error_of(unknown.text()), prefix + "unknown column 'bogus'");
  Cells twice = c;
  twice.header[3] = "source";
  EXPECT_EQ(csv_error_of(twice.text()), prefix + "column 'source' appears twice");
  Cells missing = c;
  missing.header.erase(missing.header.begin() + 16);
  missing.row.erase(missing.row.begin() + 16);
  EXPECT_EQ(csv_error_of(missing.text()), prefix + "missing column 'gbps_median'");
  Cells json_only = c;
  json_only.header[3] = "gbps_reps";
  EXPECT_EQ(csv_error_of(json_only.text()), prefix + "unknown column 'gbps_reps'");
  // Another tool's output, or the seed table: the command that reads it.
  EXPECT_EQ(csv_error_of("$ perf bench mem memset -s 64MB\n"),
            prefix + "unknown column '$ perf bench mem memset -s 64MB'; it looks like perf-bench output: read it with "
                     "'bwlab import perf-bench FILE --csv out.csv'");
  EXPECT_NE(csv_error_of("RESULT\tdatetime=2024-03-01\tfuncname=ScanWrite64PtrSimpleLoop\n").find("'bwlab import pmbw FILE"),
            std::string::npos);
  EXPECT_NE(csv_error_of("------\nLIKWID MICRO BENCHMARK\n").find("'bwlab import likwid-bench FILE"), std::string::npos);
  EXPECT_EQ(csv_error_of("source,system,cpu,microarch,nodes\n"),
            prefix + "unknown column 'system'; it is the seed table of perf bench figures (seed-memset.csv): 'bwlab "
                     "simulate --validate FILE' and 'bwlab calibrate --from FILE' read it");
}

// The README's column list is generated from the table; this keeps it from drifting.
TEST(Fields, ReadmeColumnListIsTheTable) {
  std::ifstream in(BWLAB_README);
  ASSERT_TRUE(in) << BWLAB_README;
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::string begin = "<!-- point-fields:begin";
  const std::string end = "<!-- point-fields:end -->";
  const std::size_t b = text.find(begin);
  ASSERT_NE(b, std::string::npos) << "README.md lacks the marker " << begin;
  const std::size_t body = text.find('\n', b) + 1;
  const std::size_t e = text.find(end, body);
  ASSERT_NE(e, std::string::npos) << "README.md lacks the marker " << end;
  EXPECT_EQ(text.substr(body, e - body), fields_markdown())
      << "Paste this between the point-fields markers of README.md:\n"
      << fields_markdown();
}

}  // namespace
}  // namespace bwlab
