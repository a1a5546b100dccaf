// SPDX-License-Identifier: MIT
#include <algorithm>
#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <limits>
#include <locale>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/report/csv.hpp"
#include "core/report/json.hpp"
#include "core/kernels/kernels.hpp"
#include "tests/report/csv_error.hpp"

namespace bwlab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Point sample_point(std::string kernel, double gbps) {
  Point p;
  p.source = "measured";
  p.scenario = "scaling";
  p.host = "lab1";
  p.cpu_model = "Intel(R) Xeon(R) Gold 6230, \"2.1GHz\"";
  p.kernel = std::move(kernel);
  const KernelInfo* k = find_kernel(p.kernel);  // the class follows the kernel (implausible_value)
  p.traffic_class = k ? std::string(to_string(k->traffic)) : "write-allocate";
  p.fill = "zero";
  p.threads = 2;
  p.placement = "list:0,2";
  p.membind = "local";
  p.pages = "thp";
  p.size_bytes = 16ull << 20;
  p.reps = 5;
  p.duration_ms = 200;
  p.bytes_median = 3.5e9;
  p.elapsed_ns_median = 200000123.5;
  p.gbps_median = gbps;
  p.gbps_min = gbps * 0.9;
  p.gbps_max = gbps * 1.1;
  p.gbps_pstdev_pct = 1.5;
  p.gbps_per_thread_median = gbps / 2;
  p.thread_fairness = 0.97;
  p.pus = {0, 2};
  p.pus_planned = {0, 2};
  p.flags = {"unstable: 7.3% pstdev over 5 reps; try --reps 11", "throttled, \"maybe\""};
  p.role = "victim";
  p.peer_kernel = "avx512-nt";
  p.peer_threads = 3;
  p.peer_gbps_median = 40.25;
  p.baseline_gbps = gbps * 1.25;
  p.slowdown_pct = 20;
  p.huge_pct = 99.5;
  p.entries = 512;
  p.munmap_ns_median = 14889.5;
  p.reader_alone_ns = 2.5;
  return p;
}

void expect_same_csv_fields(const Point& a, const Point& b) {
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.scenario, b.scenario);
  EXPECT_EQ(a.host, b.host);
  EXPECT_EQ(a.cpu_model, b.cpu_model);
  EXPECT_EQ(a.kernel, b.kernel);
  EXPECT_EQ(a.traffic_class, b.traffic_class);
  EXPECT_EQ(a.fill, b.fill);
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_EQ(a.placement, b.placement);
  EXPECT_EQ(a.membind, b.membind);
  EXPECT_EQ(a.pages, b.pages);
  EXPECT_EQ(a.size_bytes, b.size_bytes);
  EXPECT_EQ(a.reps, b.reps);
  const auto same = [](double x, double y) {
    return (std::isnan(x) && std::isnan(y)) || x == y;
  };
  EXPECT_PRED2(same, a.duration_ms, b.duration_ms);
  EXPECT_PRED2(same, a.bytes_median, b.bytes_median);
  EXPECT_PRED2(same, a.elapsed_ns_median, b.elapsed_ns_median);
  EXPECT_PRED2(same, a.gbps_median, b.gbps_median);
  EXPECT_PRED2(same, a.gbps_min, b.gbps_min);
  EXPECT_PRED2(same, a.gbps_max, b.gbps_max);
  EXPECT_PRED2(same, a.gbps_pstdev_pct, b.gbps_pstdev_pct);
  EXPECT_PRED2(same, a.gbps_per_thread_median, b.gbps_per_thread_median);
  EXPECT_PRED2(same, a.thread_fairness, b.thread_fairness);
  EXPECT_EQ(a.pus, b.pus);
  EXPECT_EQ(a.pus_planned, b.pus_planned);
  EXPECT_EQ(a.role, b.role);
  EXPECT_EQ(a.peer_kernel, b.peer_kernel);
  EXPECT_EQ(a.peer_threads, b.peer_threads);
  EXPECT_EQ(a.entries, b.entries);
  for (auto field : {&Point::peer_gbps_median, &Point::baseline_gbps, &Point::slowdown_pct, &Point::huge_pct,
                     &Point::pages_touched_median, &Point::faults_median, &Point::faults_per_s,
                     &Point::munmap_ns_median, &Point::munmap_ns_pstdev_pct, &Point::munmap_calls_median,
                     &Point::reader_ns_median, &Point::reader_ns_pstdev_pct, &Point::reader_alone_ns})
    EXPECT_PRED2(same, a.*field, b.*field);
}

std::string row_with(std::size_t column, const std::string& value) {
  std::vector<std::string> f = {"measured", "scaling", "h", "cpu", "stosb", "write-allocate", "zero", "1",
                                "compact", "local", "4k", "4096", "5", "200", "1", "2", "4",
                                "3", "5", "6", "7", "1", "0", "0", "",
                                "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", ""};
  // The imported-origin columns after the scenario ones: empty for a measured point.
  const std::string_view header = csv_header();
  f.resize(static_cast<std::size_t>(std::count(header.begin(), header.end(), ',')) + 1, "");
  f.at(column) = value;
  std::string s;
  for (std::size_t i = 0; i < f.size(); ++i) s += (i ? "," : "") + f[i];
  return s + "\n";
}

// ---- CSV ----------------------------------------------------------------------------------

TEST(Csv, HeaderIsPinned) {
  EXPECT_EQ(csv_header(),
            "source,scenario,host,cpu_model,kernel,traffic_class,fill,threads,placement,membind,"
            "pages,size_bytes,reps,duration_ms,bytes_median,elapsed_ns_median,gbps_median,"
            "gbps_min,gbps_max,gbps_pstdev_pct,gbps_per_thread_median,thread_fairness,pus,"
            "pus_planned,flags,role,peer_kernel,peer_threads,peer_gbps_median,baseline_gbps,"
            "slowdown_pct,huge_pct,pages_touched_median,faults_median,faults_per_s,entries,"
            "munmap_ns_median,munmap_ns_pstdev_pct,munmap_calls_median,reader_ns_median,"
            "reader_ns_pstdev_pct,reader_alone_ns,"
            "origin_tool,origin_format,origin_file,origin_line,origin_function,origin_unit,"
            "origin_to_gbps,origin_spread_unit,origin_spread,origin_microcode,origin_turbo,origin_note,"
            "steal_pct_max,invol_ctx_switches,cpu_mhz_median,noisy_windows,dram_read_per_byte,dram_write_per_byte");
}

TEST(Csv, ScenarioColumnsAreEmptyWhenNotApplicable) {
  Point p;  // a scaling point: no scenario figure applies
  p.threads = 1, p.size_bytes = 4096, p.reps = 1, p.kernel = "stosb", p.traffic_class = "write-allocate";
  p.gbps_median = p.gbps_min = p.gbps_max = 1;
  std::ostringstream out;
  write_csv(out, std::vector<Point>{p});
  const std::string row = out.str().substr(csv_header().size() + 1);
  EXPECT_EQ(row.substr(row.size() - 18), ",,,,,,,,,,,,,,,,,\n") << row;  // 17 empty scenario columns
  std::istringstream in(out.str());
  const Point back = read_csv(in).at(0);
  EXPECT_EQ(back.peer_threads, -1);
  EXPECT_EQ(back.entries, -1);
  EXPECT_TRUE(std::isnan(back.slowdown_pct));
}

TEST(Csv, BadScenarioNumberNamesColumn) {
  EXPECT_NE(csv_error_of(std::string(csv_header()) + "\n" + row_with(27, "x")).find("column peer_threads"),
            std::string::npos);
  EXPECT_NE(csv_error_of(std::string(csv_header()) + "\n" + row_with(30, "1.2.3")).find("column slowdown_pct"),
            std::string::npos);
}

// A hand-edited file: a thread count below 1 or a negative or infinite GB/s is refused with its
// line and column (they were read, and -5 turned a whole verdict row into "no usable figure");
// an empty cell (missing) still reads as NaN. JSON names the point.
TEST(Csv, ImplausibleValuesAreRefusedWithLineAndColumn) {
  const auto error_with = [](auto edit) {
    Point p = sample_point("stosb", 17.35);
    edit(p);
    std::ostringstream out;
    write_csv(out, std::vector<Point>{p});
    return csv_error_of(out.str());
  };
  EXPECT_EQ(error_with([](Point& p) { p.threads = 0; }), "line 2: column threads: 0 (at least 1 thread)");
  EXPECT_EQ(error_with([](Point& p) { p.gbps_median = -5; }),
            "line 2: column gbps_median: -5 is not a GB/s figure (0 or more; an empty cell when missing)");
  EXPECT_NE(error_with([](Point& p) { p.gbps_max = std::numeric_limits<double>::infinity(); }).find("column gbps_max: inf"),
            std::string::npos);
  // A missing median was read, then verdict gave up its thread count while compare and plot refused
  // the file: every reader now refuses it here, naming the line. tlbflush points have none by design.
  EXPECT_EQ(error_with([](Point& p) { p.gbps_median = kNaN; }),
            "line 2: column gbps_median: nan (a rate above 0 GB/s; only tlbflush points have none)");
  EXPECT_EQ(error_with([](Point& p) { p.gbps_median = p.gbps_min = 0; }),
            "line 2: column gbps_median: 0 (a rate above 0 GB/s; only tlbflush points have none)");
  EXPECT_EQ(error_with([](Point& p) { p.gbps_pstdev_pct = kNaN; }),
            "line 2: column gbps_pstdev_pct: nan (a measured point's spread over its repetitions, 0 for one)");
  EXPECT_EQ(error_with([](Point& p) { p.gbps_min = kNaN; }),
            "line 2: column gbps_min: nan (a measured point's range over its repetitions, above 0)");
  EXPECT_EQ(error_with([](Point& p) { p.source = "simulated", p.reps = 0, p.gbps_pstdev_pct = kNaN; }), "(no error)");
  EXPECT_EQ(error_with([](Point& p) { p.size_bytes = 100; }),
            "line 2: column size_bytes: 100 (bwlab measures and simulates buffers of 4096 bytes or more per thread)");
  // The class follows the kernel: verdict sides by it.
  EXPECT_EQ(error_with([](Point& p) { p.traffic_class = "non-temporal"; }),
            "line 2: column traffic_class: 'non-temporal' (kernel stosb: write-allocate)");
  EXPECT_EQ(error_with([](Point& p) { p.scenario = "pagefault", p.traffic_class = "write-allocate"; }),
            "line 2: column traffic_class: 'write-allocate' (scenario pagefault: os)");
  EXPECT_EQ(error_with([](Point& p) { p.source = "imported", p.traffic_class = "bogus"; }),
            "line 2: column traffic_class: 'bogus' (write-allocate, non-temporal or zeroing-without-fetch)");
  EXPECT_EQ(error_with([](Point& p) { p.source = "imported", p.traffic_class = "unknown", p.size_bytes = 100; }),
            "(no error)");
  // Context columns hold what a run writes (a point of scenario "bogus" vanished from the verdict
  // without a word), and a measured point has a buffer, a window and a repetition.
  EXPECT_EQ(error_with([](Point& p) { p.scenario = "bogus"; }),
            "line 2: column scenario: 'bogus' (scaling, victim, mix, pagefault or tlbflush)");
  EXPECT_EQ(error_with([](Point& p) { p.placement = "weird"; }),
            "line 2: column placement: 'weird' (compact, scatter, none or a PU list list:0,2,...)");
  EXPECT_EQ(error_with([](Point& p) { p.membind = "node:x"; }),
            "line 2: column membind: 'node:x' (local, remote, interleave or node:N)");
  EXPECT_EQ(error_with([](Point& p) { p.pages = "8k"; }), "line 2: column pages: '8k' (4k, thp, hugetlb2m or hugetlb1g)");
  EXPECT_EQ(error_with([](Point& p) { p.size_bytes = 0; }),
            "line 2: column size_bytes: 0 (a buffer of at least one byte per thread)");
  EXPECT_EQ(error_with([](Point& p) { p.duration_ms = -5; }),
            "line 2: column duration_ms: -5 (a window of 0 ms or more; an empty cell when missing)");
  EXPECT_EQ(error_with([](Point& p) { p.reps = 0; }), "line 2: column reps: 0 (a measured point has at least 1 repetition)");
  for (const char* fine : {"list:0,2", "0,1", "none", "scatter"})
    EXPECT_EQ(error_with([&](Point& p) { p.placement = fine; }), "(no error)") << fine;
  EXPECT_EQ(error_with([](Point& p) { p.membind = "node:1", p.pages = "hugetlb1g", p.scenario = "victim"; }),
            "(no error)");
  EXPECT_EQ(error_with([](Point& p) { p.source = "imported", p.placement = "unknown", p.size_bytes = 0; }),
            "(no error)");  // not stated by the source
  {  // JSON: a count beyond int (it read as -727379968 threads)
    Point q = sample_point("stosb", 17.35);
    std::ostringstream out;
    write_json(out, RunInfo{}, std::vector<Point>{q});
    std::string text = out.str();
    const std::string key = fmt::format("\"threads\": {}", q.threads);
    const std::size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, key.size(), "\"threads\": 1000000000000");
    std::istringstream in(text);
    try {
      read_json(in);
      ADD_FAILURE() << "read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("'threads': 1000000000000 is out of range"), std::string::npos) << e.what();
    }
  }
  Point p = sample_point("stosb", 17.35);
  p.gbps_per_thread_median = -1;
  std::ostringstream json_out;
  write_json(json_out, RunInfo{}, std::vector<Point>{p});
  std::istringstream json_in(json_out.str());
  try {
    read_json(json_in);
    ADD_FAILURE() << "read";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("JSON: point 1: 'gbps_per_thread_median': -1", 0), 0u) << e.what();
  }
}

// A fill spelled another way reads as run writes it: compare refused "0x00" against "zero" as
// "they share no fill", and verdict judged them apart.
TEST(Csv, FillsReadAsRunWritesThem) {
  for (const auto& [typed, read] : {std::pair{"0x00", "zero"}, std::pair{"0", "zero"}, std::pair{"ZERO", "zero"},
                                    std::pair{"0xFF", "0xff"}, std::pair{"0x7", "0x07"}, std::pair{"Perf", "perf"}}) {
    Point p = sample_point("stosb", 17.35);
    p.fill = typed;
    std::ostringstream csv, json;
    write_csv(csv, std::vector<Point>{p});
    write_json(json, RunInfo{}, std::vector<Point>{p});
    std::istringstream csv_in(csv.str()), json_in(json.str());
    EXPECT_EQ(read_csv(csv_in).at(0).fill, read) << typed;
    EXPECT_EQ(read_json(json_in).points.at(0).fill, read) << typed;
  }
  EXPECT_EQ(csv_error_of([] {
              Point p = sample_point("stosb", 17.35);
              p.fill = "0x1ff";
              std::ostringstream out;
              write_csv(out, std::vector<Point>{p});
              return out.str();
            }()),
            "line 2: column fill: '0x1ff' (zero, 0xNN or perf: the byte a kernel wrote)");
}

TEST(Csv, RoundTripWithQuotingAndNaN) {
  std::vector<Point> points = {sample_point("stosb", 17.35), sample_point("movnti", 11.83)};
  points[1].source = "simulated", points[1].gbps_pstdev_pct = kNaN;  // a prediction has no spread over repetitions
  points[1].flags = {"a;b"};
  points[1].pus = {};
  points[1].cpu_model = "line\nbreak";
  std::ostringstream out;
  write_csv(out, points);
  const std::string text = out.str();
  EXPECT_EQ(text.substr(0, csv_header().size() + 1), std::string(csv_header()) + "\n");
  EXPECT_NE(text.find("\"Intel(R) Xeon(R) Gold 6230, \"\"2.1GHz\"\"\""), std::string::npos)
      << text;
  EXPECT_NE(text.find(",0;2,0;2,"), std::string::npos) << text;
  EXPECT_NE(text.find("16777216"), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);

  std::istringstream in(text);
  const std::vector<Point> back = read_csv(in);
  ASSERT_EQ(back.size(), 2u);
  expect_same_csv_fields(points[0], back[0]);
  expect_same_csv_fields(points[1], back[1]);
  EXPECT_TRUE(std::isnan(back[1].gbps_pstdev_pct));
  // ';' separates flags in the CSV, so a ';' inside a flag is written as ','.
  EXPECT_EQ(back[0].flags, (std::vector<std::string>{
                               "unstable: 7.3% pstdev over 5 reps, try --reps 11",
                               "throttled, \"maybe\""}));
  EXPECT_EQ(back[1].flags, (std::vector<std::string>{"a,b"}));
  EXPECT_TRUE(back[0].gbps_reps.empty());
  EXPECT_TRUE(back[0].per_thread.empty());
}

TEST(Csv, EmptyPointsGiveHeaderOnly) {
  std::ostringstream out;
  write_csv(out, {});
  EXPECT_EQ(out.str(), std::string(csv_header()) + "\n");
  std::istringstream in(out.str());
  EXPECT_TRUE(read_csv(in).empty());
}

TEST(Csv, ToleratesCrLfAndTrailingEmptyLine) {
  std::ostringstream out;
  const std::vector<Point> points = {sample_point("stosb", 1.5)};
  write_csv(out, points);
  std::string crlf;
  for (char c : out.str()) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  crlf += "\r\n";
  std::istringstream in(crlf);
  const auto back = read_csv(in);
  ASSERT_EQ(back.size(), 1u);
  expect_same_csv_fields(points[0], back[0]);
}

TEST(Csv, WrongHeaderNamesLineOne) {
  const std::string e = csv_error_of("a,b,c\n1,2,3\n");
  EXPECT_EQ(e, "line 1: not a bwlab CSV header (first columns: source,scenario,host,cpu_model,kernel,...): unknown "
               "column 'a'");
  EXPECT_EQ(csv_error_of(""),
            "line 1: not a bwlab CSV header (first columns: source,scenario,host,cpu_model,kernel,...): the file is empty");
}

TEST(Csv, ShortRowNamesLineAndCount) {
  const std::string csv = std::string(csv_header()) + "\n" + row_with(0, "measured") +
                          "measured,scaling,h\n";
  EXPECT_EQ(csv_error_of(csv), "line 3: expected 60 fields, found 3");
}

TEST(Csv, BadNumberNamesLineAndColumn) {
  const std::string csv = std::string(csv_header()) + "\n" + row_with(16, "abc");
  EXPECT_EQ(csv_error_of(csv), "line 2: column gbps_median: 'abc' is not a number");
  EXPECT_NE(csv_error_of(std::string(csv_header()) + "\n" + row_with(7, "2x")).find(
                "line 2: column threads: '2x' is not a number"),
            std::string::npos);
  EXPECT_NE(csv_error_of(std::string(csv_header()) + "\n" + row_with(11, "-1")).find("size_bytes"),
            std::string::npos);
  EXPECT_NE(csv_error_of(std::string(csv_header()) + "\n" + row_with(22, "1;x")).find("column pus:"),
            std::string::npos);
}

TEST(Csv, LineNumbersCountLinesInsideQuotedFields) {
  const std::string csv = std::string(csv_header()) + "\n" + row_with(3, "\"two\nlines\"") +
                          row_with(17, "zz");
  EXPECT_EQ(csv_error_of(csv), "line 4: column gbps_min: 'zz' is not a number");
}

TEST(Csv, EmptyDoubleIsNaN) {
  const std::string csv = std::string(csv_header()) + "\n" + row_with(21, "");
  std::istringstream in(csv);
  const auto pts = read_csv(in);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_TRUE(std::isnan(pts[0].thread_fairness));
}

// ---- JSON ---------------------------------------------------------------------------------

RunInfo sample_run() {
  RunInfo r;
  r.bwlab_version = "0.1.0";
  r.date = "2024-05-01T12:00:00Z";
  r.command_line = "bwlab run --kernels stosb,movnti";
  r.host = "lab1";
  r.cpu_vendor = "GenuineIntel";
  r.cpu_model_name = "Intel(R) Xeon(R)";
  r.cpu_family = 6;
  r.cpu_model = 85;
  r.cpu_stepping = 7;
  r.cpu_flags_used = {"erms", "fsrm"};
  r.microcode = "0x5003604";
  r.kernel_release = "6.1.0";
  r.thp = "madvise";
  r.glibc_version = "2.36";
  r.topology = "1 package, 2 cores";
  r.warnings = {"governor is powersave"};
  r.partial = true;
  r.partial_reason = "SIGINT";
  return r;
}

TEST(Json, RoundTrip) {
  std::vector<Point> points = {sample_point("stosb", 17.35), sample_point("movnti", 11.83)};
  points[0].gbps_reps = {points[0].gbps_min, 17.0, 17.35, kNaN, points[0].gbps_max};  // one per repetition
  ThreadFigures t;
  t.slot = 1;
  t.pu_planned = 2;
  t.pu_observed = 2;
  t.pinned = true;
  t.mem_node = 0;
  t.gbps_median = kNaN;
  t.gbps_reps = {8.5, 8.75};
  t.bytes_total = 123456789012345ull;
  t.passes_total = 42;
  t.kernel = "avx512-nt";
  t.ops_total = 7;
  points[0].per_thread = {ThreadFigures{}, t};
  points[1].thread_fairness = std::numeric_limits<double>::infinity();
  const RunInfo run = sample_run();

  std::ostringstream out;
  write_json(out, run, points);
  const std::string text = out.str();
  EXPECT_NE(text.find("\"schema_version\": 1"), std::string::npos) << text;
  EXPECT_NE(text.find("\"units\""), std::string::npos);
  EXPECT_NE(text.find("\n  \"points\""), std::string::npos);  // indent 2
  EXPECT_NE(text.find("null"), std::string::npos);
  EXPECT_EQ(text.find(": nan"), std::string::npos);
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  EXPECT_EQ(text.find(": inf"), std::string::npos);
  EXPECT_EQ(text.find("Infinity"), std::string::npos);
  // Keys keep the documented order: schema_version, run, units, points.
  EXPECT_LT(text.find("\"schema_version\""), text.find("\"run\""));
  EXPECT_LT(text.find("\"run\""), text.find("\"units\""));
  EXPECT_LT(text.find("\"units\""), text.find("\"points\""));

  std::istringstream in(text);
  const JsonDocument doc = read_json(in);
  EXPECT_EQ(doc.run.bwlab_version, run.bwlab_version);
  EXPECT_EQ(doc.run.date, run.date);
  EXPECT_EQ(doc.run.command_line, run.command_line);
  EXPECT_EQ(doc.run.cpu_model, 85);
  EXPECT_EQ(doc.run.cpu_flags_used, run.cpu_flags_used);
  EXPECT_EQ(doc.run.warnings, run.warnings);
  EXPECT_TRUE(doc.run.partial);
  EXPECT_EQ(doc.run.partial_reason, "SIGINT");
  ASSERT_EQ(doc.points.size(), 2u);
  expect_same_csv_fields(points[0], doc.points[0]);
  EXPECT_EQ(doc.points[0].flags, points[0].flags);  // JSON keeps ';' inside flags
  EXPECT_TRUE(std::isnan(doc.points[1].thread_fairness));  // inf -> null -> NaN
  ASSERT_EQ(doc.points[0].gbps_reps.size(), 5u);
  EXPECT_TRUE(std::isnan(doc.points[0].gbps_reps[3]));
  EXPECT_EQ(doc.points[0].gbps_reps[2], 17.35);
  ASSERT_EQ(doc.points[0].per_thread.size(), 2u);
  const ThreadFigures& b = doc.points[0].per_thread[1];
  EXPECT_EQ(b.slot, 1);
  EXPECT_EQ(b.pu_planned, 2);
  EXPECT_EQ(b.pu_observed, 2);
  EXPECT_TRUE(b.pinned);
  EXPECT_EQ(b.mem_node, 0);
  EXPECT_TRUE(std::isnan(b.gbps_median));
  EXPECT_EQ(b.gbps_reps, (std::vector<double>{8.5, 8.75}));
  EXPECT_EQ(b.bytes_total, 123456789012345ull);
  EXPECT_EQ(b.passes_total, 42u);
  EXPECT_EQ(b.kernel, "avx512-nt");
  EXPECT_EQ(b.ops_total, 7u);
  EXPECT_EQ(doc.points[0].per_thread[0].pu_observed, -1);
}

std::string json_error(const std::string& text) {
  std::istringstream in(text);
  try {
    (void)read_json(in);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Json, WrongSchemaVersion) {
  std::ostringstream out;
  write_json(out, sample_run(), {});
  std::string text = out.str();
  const auto pos = text.find("\"schema_version\": 1");  // the top-level one comes first
  ASSERT_EQ(pos, 4u) << text;
  text.replace(pos, 19, "\"schema_version\": 2");
  const std::string e = json_error(text);
  EXPECT_EQ(e.rfind("JSON: ", 0), 0u) << e;
  EXPECT_NE(e.find("schema_version"), std::string::npos) << e;
}

// gbps_min/max mean a model band in simulated rows and min..max over repetitions in measured ones:
// the units say both, and what a simulated row's bytes and elapsed time are (none was defined).
TEST(Json, UnitsSayWhatTheRangeAndASimulatedRowsFiguresAre) {
  std::ostringstream out;
  write_json(out, sample_run(), {});
  const nlohmann::json units = nlohmann::json::parse(out.str()).at("units");
  EXPECT_NE(units.value("gbps_min", "").find("bottom of the model's uncertainty band"), std::string::npos) << units;
  EXPECT_NE(units.value("gbps_max", "").find("fastest repetition"), std::string::npos) << units;
  EXPECT_NE(units.value("simulated", "").find("nominal window of duration_ms"), std::string::npos) << units;
}

TEST(Json, SimulatedRunCarriesItsMachineAsAnObject) {
  RunInfo run = sample_run();
  std::ostringstream plain;
  write_json(plain, run, {});
  EXPECT_EQ(plain.str().find("\"machine\""), std::string::npos) << "measured runs carry no machine";
  std::istringstream plain_in(plain.str());
  EXPECT_EQ(read_json(plain_in).run.machine, "");
  run.machine = R"({"bwlab_machine": 1, "name": "m", "params": {"dram_peak_gbps_per_node": 128.0}})";
  std::ostringstream out;
  write_json(out, run, {});
  EXPECT_NE(out.str().find("\"machine\": {"), std::string::npos) << out.str();  // an object, not a string
  std::istringstream in(out.str());
  const std::string back = read_json(in).run.machine;
  EXPECT_EQ(nlohmann::json::parse(back), nlohmann::json::parse(run.machine)) << back;
  std::string text = out.str();
  text.replace(text.find("\"machine\": {"), 12, "\"machine\": 7, \"x\": {");
  const std::string e = json_error(text);
  EXPECT_NE(e.find("'run.machine' is not an object"), std::string::npos) << e;
}

TEST(Json, MalformedIsInputError) {
  EXPECT_EQ(json_error("{ not json").rfind("JSON: ", 0), 0u);
  EXPECT_EQ(json_error("").rfind("JSON: ", 0), 0u);
  EXPECT_EQ(json_error("[1,2]").rfind("JSON: ", 0), 0u);
  const std::string type_error =
      json_error(R"({"schema_version":1,"run":{"schema_version":"one"},"points":[]})");
  EXPECT_EQ(type_error.rfind("JSON: ", 0), 0u) << type_error;
  // Another program's JSON: said in words, not as a library exception.
  const std::string foreign = json_error(R"({"a": 1})");
  EXPECT_EQ(foreign.rfind("JSON: not a bwlab points file", 0), 0u) << foreign;
  EXPECT_EQ(foreign.find("json.exception"), std::string::npos) << foreign;
}

// A hand-edited field names itself and its point (it said "[json.exception.type_error.302] type
// must be number, but is string": which of 40 fields of which point?).
TEST(Json, AWrongFieldIsNamedWithItsPoint) {
  std::ostringstream out;
  Point first = sample_point("stosb", 1.5);
  first.per_thread = {ThreadFigures{}};
  first.per_thread[0].kernel = "stosb", first.per_thread[0].gbps_median = 0.75;
  write_json(out, sample_run(), std::vector<Point>{first, sample_point("movnti", 2.5)});
  nlohmann::json doc = nlohmann::json::parse(out.str());
  const auto error_with = [&](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json d = doc;
    edit(d);
    return json_error(d.dump());
  };
  std::string e = error_with([](nlohmann::json& d) { d["points"][1]["threads"] = "two"; });
  EXPECT_EQ(e, "JSON: point 2: 'threads': type must be number, but is string");
  e = error_with([](nlohmann::json& d) { d["points"][0].erase("kernel"); });
  EXPECT_EQ(e, "JSON: point 1: 'kernel' is missing");
  e = error_with([](nlohmann::json& d) { d["points"][1]["gbps_reps"] = "1,2"; });
  EXPECT_EQ(e, "JSON: point 2: 'gbps_reps' is not an array");
  e = error_with([](nlohmann::json& d) { d["points"][0]["gbps_median"] = "fast"; });
  EXPECT_EQ(e, "JSON: point 1: 'gbps_median': type must be number, but is string");
  e = error_with([](nlohmann::json& d) { d["run"]["host"] = 7; });
  EXPECT_EQ(e, "JSON: run: 'host': type must be string, but is number");
  e = error_with([](nlohmann::json& d) { d.erase("run"); });
  EXPECT_EQ(e.rfind("JSON: 'run' is missing", 0), 0u) << e;
  // A thread's field is named with its place in per_thread (it read as the point's own field).
  ASSERT_EQ(doc["points"][0]["per_thread"].size(), 1u) << doc.dump();
  e = error_with([](nlohmann::json& d) { d["points"][0]["per_thread"][0]["gbps_median"] = "x"; });
  EXPECT_EQ(e, "JSON: point 1: per_thread[0]: 'gbps_median': type must be number, but is string");
  e = error_with([](nlohmann::json& d) { d["points"][0]["per_thread"][0]["kernel"] = nullptr; });
  EXPECT_EQ(e, "JSON: point 1: per_thread[0]: type must be string, but is null");
}

// Values of the right JSON type that no bwlab run writes were read: "threads": 2.5 became 2
// threads, a source "guessed" passed as a figure, a gbps_min above the median drew a band that
// missed its own curve. Each is refused with its point and field; CSV says the same with its line.
TEST(Json, ValuesNoRunWritesAreRefused) {
  std::ostringstream out;
  write_json(out, sample_run(), std::vector<Point>{sample_point("stosb", 1.5), sample_point("movnti", 2.5)});
  nlohmann::json doc = nlohmann::json::parse(out.str());
  const auto error_with = [&](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json d = doc;
    edit(d);
    return json_error(d.dump());
  };
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][1]["threads"] = 2.5; }),
            "JSON: point 2: 'threads': 2.5 is not a whole number");
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][0]["size_bytes"] = -4096; }),
            "JSON: point 1: 'size_bytes': -4096 is negative");
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["run"]["cpu_family"] = 6.5; }),
            "JSON: run: 'cpu_family': 6.5 is not a whole number");
  // A whole number written as 2.0 (another tool's JSON writer) is that number.
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][1]["threads"] = 2.0; }), "(no error)");
  // The windows a measured point keeps are its figures' source: export writes them, compare reads the
  // summary, so they must agree ([1,2,3] beside a median of 1.5 exported 1..3 GB/s iterations).
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][0]["gbps_reps"] = {1.35, 1.5, 1.65}; }),
            "JSON: point 1: 'gbps_reps': 3 windows for reps 5 (one GB/s per repetition)");
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][0]["gbps_reps"] = {1, 2, 3, 1.5, 1.5}; }),
            fmt::format("JSON: point 1: 'gbps_reps': 1..3 GB/s, but gbps_min..gbps_max is {}..{} (the range is "
                        "over these repetitions)",
                        doc["points"][0]["gbps_min"].get<double>(), doc["points"][0]["gbps_max"].get<double>()));
  EXPECT_EQ(error_with([](nlohmann::json& d) { 
              d["points"][0]["gbps_reps"] = {d["points"][0]["gbps_min"], 1.5, 1.5, 1.6, d["points"][0]["gbps_max"]};
            }),
            "(no error)");
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][0]["source"] = "guessed"; }),
            "JSON: point 1: 'source': 'guessed' (measured, simulated or imported: a figure must say where it "
            "came from)");
  const double median = doc["points"][1]["gbps_median"].get<double>();
  EXPECT_EQ(error_with([&](nlohmann::json& d) { d["points"][1]["gbps_min"] = median + 1; }),
            fmt::format("JSON: point 2: 'gbps_min': {} is above gbps_median {} (min <= median <= max)",
                        median + 1, median));
  EXPECT_EQ(error_with([&](nlohmann::json& d) { d["points"][1]["gbps_max"] = median / 2; }),
            fmt::format("JSON: point 2: 'gbps_max': {} is below gbps_median {} (min <= median <= max)",
                        median / 2, median));
  // The file as written still reads; a measured point without its range over repetitions does not
  // (verdict gave up its thread count), a prediction without a spread does.
  EXPECT_EQ(error_with([](nlohmann::json&) {}), "(no error)");
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][0]["gbps_min"] = nullptr; }),
            "JSON: point 1: 'gbps_min': nan (a measured point's range over its repetitions, above 0)");
  EXPECT_EQ(error_with([](nlohmann::json& d) {
              d["points"][0]["source"] = "simulated", d["points"][0]["gbps_pstdev_pct"] = nullptr;
            }),
            "(no error)");
  // CSV: the same rule with the line.
  Point p = sample_point("stosb", 17.35);
  p.source = "guessed";
  std::ostringstream csv;
  write_csv(csv, std::vector<Point>{p});
  EXPECT_EQ(csv_error_of(csv.str()).rfind("line 2: column source: 'guessed'", 0), 0u) << csv_error_of(csv.str());
  // A count that is a number but not a count says so (it said "'2.5' is not a number"); 2.0 is 2.
  EXPECT_EQ(csv_error_of(std::string(csv_header()) + "\n" + row_with(7, "2.5")),
            "line 2: column threads: '2.5' is not a whole number");
  EXPECT_EQ(csv_error_of(std::string(csv_header()) + "\n" + row_with(11, "-4096")),
            "line 2: column size_bytes: '-4096' is negative");
  EXPECT_EQ(csv_error_of(std::string(csv_header()) + "\n" + row_with(7, "2.0")), "(no error)");
  // Repetitions are never negative (compare printed "(-2 reps)"); a fill is what run's --fill
  // takes (0x1ff is no byte); a spread is no GB/s figure, and never negative.
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][0]["reps"] = -2; }),
            "JSON: point 1: 'reps': -2 (0 or more repetitions; a simulated point has 0)");
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][0]["fill"] = "0x1ff"; }),
            "JSON: point 1: 'fill': '0x1ff' (zero, 0xNN or perf: the byte a kernel wrote)");
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][0]["gbps_pstdev_pct"] = -5; }),
            "JSON: point 1: 'gbps_pstdev_pct': -5 is not a spread (0 or more; an empty cell when missing)");
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][0]["slowdown_pct"] = -4.0; }), "(no error)");  // sped up
  EXPECT_EQ(error_with([](nlohmann::json& d) { d["points"][0]["fill"] = "0xff"; }), "(no error)");
  Point unknown = sample_point("stosb", 17.35);  // an imported row's fill may be unknown
  unknown.source = "imported", unknown.fill = "unknown";
  std::ostringstream imported;
  write_csv(imported, std::vector<Point>{unknown});
  EXPECT_EQ(csv_error_of(imported.str()), "(no error)");
}

// ---- locale -------------------------------------------------------------------------------

struct CommaDecimal : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
  char do_thousands_sep() const override { return '.'; }
  std::string do_grouping() const override { return "\3"; }
};

void expect_locale_independent_output() {
  const std::vector<Point> points = {sample_point("stosb", 1.5)};
  std::ostringstream out;  // constructed under the current global locale
  write_csv(out, points);
  EXPECT_NE(out.str().find(",1.5,"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("1,5"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(",16777216,"), std::string::npos) << out.str();
  std::istringstream in(out.str());
  const auto back = read_csv(in);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].gbps_median, 1.5);

  std::ostringstream js;
  write_json(js, sample_run(), points);
  EXPECT_NE(js.str().find("\"gbps_median\": 1.5"), std::string::npos);
  std::istringstream jin(js.str());
  EXPECT_EQ(read_json(jin).points.at(0).gbps_median, 1.5);
}

TEST(Locale, CustomCommaDecimalGlobalLocale) {
  const std::locale old = std::locale::global(std::locale(std::locale::classic(), new CommaDecimal));
  expect_locale_independent_output();
  std::locale::global(old);
}

TEST(Locale, GermanLocale) {
  std::locale de;
  try {
    de = std::locale("de_DE.UTF-8");
  } catch (const std::runtime_error&) {
    GTEST_SKIP() << "de_DE.UTF-8 locale not installed";
  }
  const std::locale old = std::locale::global(de);
  const char* c_old = std::setlocale(LC_ALL, nullptr);
  const std::string c_saved = c_old ? c_old : "C";
  ASSERT_NE(std::setlocale(LC_ALL, "de_DE.UTF-8"), nullptr);
  expect_locale_independent_output();
  std::setlocale(LC_ALL, c_saved.c_str());
  std::locale::global(old);
}

}  // namespace
}  // namespace bwlab
