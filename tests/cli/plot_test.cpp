// SPDX-License-Identifier: MIT
// `bwlab plot`: renders CSV files to PNG/PDF/SVG without a display; bad input exits 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cli_driver.hpp"
#include "core/report/csv.hpp"
#include "tests/support/sample_point.hpp"

namespace bwlab::clitest {
namespace {

// `from`'s text with the first `was` replaced by `now`, written to `to`; false when `was` is not in it.
bool copy_replacing(const fs::path& from, const fs::path& to, const std::string& was, const std::string& now) {
  std::ifstream in(from);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find(was);
  if (at == std::string::npos) return false;
  text.replace(at, was.size(), now);
  std::ofstream(to) << text;
  return true;
}

// A measured point of `t` threads: 10 GB/s per thread (figures are made up: they test drawing).
Point sample_point(const std::string& kernel, std::uint64_t size, int t) {
  return testsupport::sample_point(kernel, size, t, 10.0 * t, 1.0 * t);
}

fs::path write_points(const fs::path& dir, const std::string& name, const std::vector<Point>& points) {
  std::ostringstream s;
  write_csv(s, points);
  const fs::path path = dir / name;
  std::ofstream(path) << s.str();
  return path;
}

// A small CSV: 2 kernels x 2 sizes x 2 thread counts.
fs::path write_sample(const fs::path& dir, const std::string& name, const std::string& source = "measured",
                      const std::string& host = "") {
  std::vector<Point> points;
  for (const char* k : {"stosb", "movnti"})
    for (std::uint64_t size : {1u << 20, 1u << 24})
      for (int t : {1, 2}) {
        Point p = sample_point(k, size, t);
        p.source = source;
        if (!host.empty()) p.host = host;
        points.push_back(p);
      }
  return write_points(dir, name, points);
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// The spec sheet: a 1-socket 18-core Cascade Lake with 6 x DDR4-2666.
const std::vector<std::string> kCascadeLake1s = {"--uarch", "cascadelake-sp", "--sockets", "1", "--cores", "18", "--smt",
                                                 "2", "--channels", "6", "--mts", "2666", "--llc", "24.75M"};

// `bwlab machine spec SPEC... --out M` then `bwlab simulate --machine M SIM...`: the two steps of a
// spec-sheet prediction, each expected to succeed.
void spec_and_simulate(const fs::path& machine, const std::vector<std::string>& spec,
                       const std::vector<std::string>& simulate) {
  std::vector<std::string> a = {"machine", "spec"};
  a.insert(a.end(), spec.begin(), spec.end());
  a.insert(a.end(), {"--out", machine.string()});
  CliResult r = run_cli(a);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::vector<std::string> b = {"simulate", "--machine", machine.string()};
  b.insert(b.end(), simulate.begin(), simulate.end());
  r = run_cli(b);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
}

TEST(PlotCommand, TlbflushRowsAreRefusedNotDrawnEmpty) {
  TempDir dir;
  std::vector<Point> points;
  for (int e : {1, 8}) {
    Point p = sample_point("munmap", 1u << 20, 1);
    p.scenario = "tlbflush", p.entries = e, p.munmap_ns_median = 1000.0 * e;
    p.gbps_median = p.gbps_min = p.gbps_max = Point::kNone;
    points.push_back(p);
  }
  const fs::path csv = write_points(dir.path(), "t.csv", points), png = dir.path() / "t.png";
  const CliResult r = run_cli({"plot", csv.string(), "--out", png.string()});
  expect_refused(r, "tlbflush rows hold ns per munmap call and per read, not GB/s");
  EXPECT_FALSE(fs::exists(png));
}

// Points their run flagged (disturbed windows, a wide spread) are ringed on the picture; the
// summary line a script's log keeps counts them too, and a clean file says nothing of flags.
TEST(PlotCommand, SummaryCountsTheFlaggedPoints) {
  TempDir dir;
  std::vector<Point> points;
  for (int t : {1, 2}) points.push_back(sample_point("stosb", 1u << 24, t));
  const fs::path clean = write_points(dir.path(), "clean.csv", points);
  points[1].flags = {"noisy: 3 of 3 windows disturbed (worst: thread 1 got only 30% of the window's CPU time)"};
  const fs::path noisy = write_points(dir.path(), "noisy.csv", points);
  CliResult r = run_cli({"plot", noisy.string(), "--out", (dir.path() / "n.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("2 points (1 flagged unstable or noisy, ringed in red) from 1 file"), std::string::npos)
      << r.describe();
  r = run_cli({"plot", clean.string(), "--out", (dir.path() / "c.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("2 points from 1 file"), std::string::npos) << r.describe();
  EXPECT_EQ(r.err.find("flagged"), std::string::npos) << r.describe();
}

// A file holding two runs of every point (appended CSVs) was drawn as zig-zags without a word,
// where verdict, compare and export refuse it: the plot draws it and says so.
TEST(PlotCommand, AFileOfSeveralRunsIsDrawnAndNamed) {
  TempDir dir;
  std::vector<Point> points;
  for (int run = 0; run < 2; ++run)
    for (int t : {1, 2}) points.push_back(sample_point("stosb", 1u << 24, t));
  const fs::path twice = write_points(dir.path(), "twice.csv", points);
  CliResult r = run_cli({"plot", twice.string(), "--out", (dir.path() / "t.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("note: " + twice.string() + " holds several runs of the same set-up (two points for stosb"),
            std::string::npos)
      << r.describe();
  points.resize(2);
  r = run_cli({"plot", write_points(dir.path(), "once.csv", points).string(), "--out", (dir.path() / "o.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("several runs"), std::string::npos) << r.describe();
}

// "--width 1200 px": FILES took "px" and the message was "cannot read px: No such file or directory".
TEST(PlotCommand, APixelUnitAsItsOwnWordIsNamed) {
  TempDir dir;
  const fs::path sample = write_sample(dir.path(), "s.csv");
  const CliResult r =
      run_cli({"plot", sample.string(), "--out", (dir.path() / "p.png").string(), "--width", "1000", "px"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("'px' was not expected: --width takes the number alone, in the unit its name says (--width "
                       "1000)"),
            std::string::npos)
      << r.describe();
  EXPECT_FALSE(fs::exists(dir.path() / "p.png"));
}

TEST(PlotCommand, WritesPngPdfAndSvg) {
  TempDir dir;
  const fs::path csv = write_sample(dir.path(), "a.csv");
  const fs::path png = dir.path() / "plot.png", pdf = dir.path() / "plot.pdf", svg = dir.path() / "plot.svg";
  CliResult r = run_cli({"plot", csv.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("8 points from 1 file"), std::string::npos) << r.describe();
  EXPECT_TRUE(starts_with(read_text(png), "\x89PNG"));
  r = run_cli({"plot", csv.string(), "--kind", "size", "--out", pdf.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(starts_with(read_text(pdf), "%PDF"));
  r = run_cli({"plot", csv.string(), write_sample(dir.path(), "b.csv").string(), "--out", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("16 points from 2 files"), std::string::npos) << r.describe();
  EXPECT_NE(read_text(svg).find("<svg"), std::string::npos);
}

TEST(PlotCommand, LogYSaysSoAndDrawsTheSameCurves) {
  TempDir dir;
  const fs::path csv = write_sample(dir.path(), "a.csv");
  const fs::path png = dir.path() / "log.svg";
  const CliResult r = run_cli({"plot", csv.string(), "--kind", "size", "--log-y", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("aggregate GB/s (log10 axis) against size: 4 curves, 8 points from 1 file"), std::string::npos)
      << r.describe();
  EXPECT_NE(read_text(png).find("log10 scale"), std::string::npos) << "the axis title says the scale";
  const CliResult lin = run_cli({"plot", csv.string(), "--kind", "size", "--out", (dir.path() / "lin.svg").string()});
  ASSERT_EQ(lin.exit_code, 0) << lin.describe();
  EXPECT_EQ(lin.err.find("log10"), std::string::npos) << lin.describe();
}

// A disk that fills while the image is written (RLIMIT_FSIZE in the child: writes past 8 KiB fail
// with EFBIG; every format of this plot is larger): the command fails with the reason, an
// existing file keeps its old bytes, a new one is not created, and no temporary file is left.
TEST(PlotCommand, AFullDiskLeavesNoPartialImageAndFails) {
  TempDir dir;
  const fs::path csv = write_sample(dir.path(), "a.csv");
  for (const char* name : {"kept.png", "kept.pdf", "kept.svg", "new.png"}) {
    const fs::path out = dir.path() / name;
    const bool existed = starts_with(name, "kept");
    if (existed) std::ofstream(out) << "the old plot";
    const CliResult r = run_cli_with_file_limit({"plot", csv.string(), "--out", out.string()}, 8192);
    EXPECT_EQ(r.exit_code, 1) << name << "\n" << r.describe();
    EXPECT_EQ(r.err, "bwlab: failed: cannot write " + out.string() + ": " + std::strerror(EFBIG) + "\n") << r.describe();
    if (existed) EXPECT_TRUE(read_text(out) == "the old plot") << name << ": " << fs::file_size(out) << " bytes";
    else EXPECT_FALSE(fs::exists(out)) << name;
  }
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir.path())) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"a.csv", "kept.pdf", "kept.png", "kept.svg"}));
  // The same command without the limit writes the file (so the limit, not the input, failed it).
  const CliResult r = run_cli({"plot", csv.string(), "--out", (dir.path() / "new.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_GT(fs::file_size(dir.path() / "new.png"), 8192u);
}

TEST(PlotCommand, BadInputExits2WithOneClearLine) {
  TempDir dir;
  const fs::path bad = dir.path() / "bad.csv";
  std::ofstream(bad) << csv_header() << "\nmeasured,scaling,too,few\n";
  CliResult r = run_cli({"plot", bad.string(), "--out", (dir.path() / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.describe();
  EXPECT_FALSE(fs::exists(dir.path() / "x.png"));

  r = run_cli({"plot", write_sample(dir.path(), "a.csv").string(), "--out", (dir.path() / "x.gif").string()});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find(".png, .pdf or .svg"), std::string::npos) << r.describe();

  r = run_cli({"plot", (dir.path() / "missing.csv").string(), "--out", (dir.path() / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.describe();

  r = run_cli({"plot", write_sample(dir.path(), "a.csv").string(), "--kind", "thread", "--out",
               (dir.path() / "x.png").string()});
  expect_refused(r, "--kind thread: did you mean threads? use threads, size or auto");
  EXPECT_FALSE(fs::exists(dir.path() / "x.png"));

  // One file twice drew its curves twice, one set "(= ...)" the other, and counted its points twice
  // (merge refused the same mistake).
  const std::string a = write_sample(dir.path(), "a.csv").string();
  r = run_cli({"plot", a, a, "--out", (dir.path() / "x.png").string()});
  expect_refused(r, a + " is listed twice: give each file once");
  EXPECT_FALSE(fs::exists(dir.path() / "x.png"));
  // A hard link is the same file under another name.
  const fs::path link = dir.path() / "hl.csv";
  fs::create_hard_link(a, link);
  r = run_cli({"plot", a, link.string(), "--out", (dir.path() / "x.png").string()});
  expect_refused(r, a + " and " + link.string() + " are the same file: give each file once");
}

// A point whose median GB/s is -5, 0 or nan is refused as it is read, with its line, as compare
// and verdict read it (it used to give an empty chart and exit 0); per-thread medians are checked
// when they are drawn.
TEST(PlotCommand, UnusableMedianIsRefused) {
  TempDir dir;
  const fs::path png = dir.path() / "x.png";
  for (const auto& [bad, said] : {std::pair{-5.0, "line 2: column gbps_median: -5 is not a GB/s figure"},
                                  std::pair{0.0, "line 2: column gbps_median: 0 (a rate above 0 GB/s"},
                                  std::pair{std::nan(""), "line 2: column gbps_median: nan (a rate above 0 GB/s"}}) {
    Point p = sample_point("stosb", 1u << 28, 1);
    p.gbps_median = p.gbps_min = bad;
    const fs::path csv = write_points(dir.path(), "bad.csv", {p});
    expect_refused(run_cli({"plot", csv.string(), "--out", png.string()}), said);
    EXPECT_FALSE(fs::exists(png));
  }
  Point p = sample_point("stosb", 1u << 28, 1);
  p.gbps_per_thread_median = std::nan("");
  const fs::path csv = write_points(dir.path(), "per_thread.csv", {p});
  EXPECT_EQ(run_cli({"plot", csv.string(), "--out", png.string()}).exit_code, 0);
  fs::remove(png);
  expect_refused(run_cli({"plot", csv.string(), "--per-thread", "--out", png.string()}),
                 csv.string() + ": stosb 256MiB 1T zero [measured scaling compact local 4k]: no usable median per-thread GB/s (nan)");
  EXPECT_FALSE(fs::exists(png));
}

// --llc takes the cache sizes of `machine spec --llc` (it used to refuse 24.75M as "bytes per thread").
TEST(PlotCommand, LlcTakesTheMachineSpecSyntax) {
  TempDir dir;
  const fs::path csv = write_sample(dir.path(), "a.csv");
  const fs::path svg = dir.path() / "plot.svg";
  CliResult r = run_cli({"plot", csv.string(), "--kind", "size", "--llc", "24.75M", "--out", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("LLC 24.75 MiB"), std::string::npos) << r.describe();
  r = run_cli({"plot", csv.string(), "--kind", "size", "--llc", "24.75MiB", "--out", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("LLC 24.75 MiB"), std::string::npos) << r.describe();
  r = run_cli({"plot", csv.string(), "--kind", "size", "--llc", "24.75", "--out", (dir.path() / "x.svg").string()});
  expect_refused(r, "--llc 24.75: no unit; did you mean 24.75M?");
  EXPECT_FALSE(fs::exists(dir.path() / "x.svg"));
}

TEST(PlotCommand, AutoCeilingsOfAMachineFileComeWithItsJsonNotItsCsv) {
  TempDir dir;
  const fs::path m = dir.path() / "m.json", csv = dir.path() / "s.csv", json = dir.path() / "s.json";
  spec_and_simulate(m,
                    {"--uarch", "skylake-sp", "--sockets", "2", "--cores", "18", "--smt", "2", "--channels", "6", "--mts",
                     "2666", "--llc", "24.75M"},
                    {"--kernels", "stosb,avx2-nt", "--sizes", "256M", "--threads", "1,18,36", "--csv", csv.string(),
                     "--json", json.string(), "-q"});
  const fs::path png = dir.path() / "plot.png";
  // The JSON carries the machine (2 sockets x 6 x 2666: 128.0 GB/s a node, 255.9 for both).
  CliResult r = run_cli({"plot", json.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("; lines and marks: DRAM peak per node 128.0 GB/s"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("DRAM peak, 2 nodes 255.9 GB/s"), std::string::npos) << r.describe();
  EXPECT_EQ(r.err.find("ceilings: "), std::string::npos) << r.describe();  // crossovers and socket marks are no ceilings
  EXPECT_EQ(r.err.find("left out for room"), std::string::npos) << r.describe();
  // The smallest image has no room for every label: those left out are named, not drawn over each other.
  r = run_cli({"plot", json.string(), "--width", "200", "--height", "150", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("left out for room (a larger --width/--height shows"), std::string::npos) << r.describe();
  // The CSV names the machine but does not hold it, and its name is no preset: no ceilings.
  r = run_cli({"plot", csv.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("DRAM peak"), std::string::npos) << r.describe();
  // ... and says why, and what to do.
  EXPECT_NE(r.err.find("note: no machine ceilings (DRAM, link): s.csv was simulated for 'skylake-sp-2s-18c-6x2666-llc24.75m-3.7ghz', not a "
                       "preset, and a CSV does not carry its machine: open the JSON file"),
            std::string::npos)
      << r.describe();
  // A JSON without its machine (imported, or written by hand) is not called a CSV.
  const fs::path bare = dir.path() / "bare.json";
  ASSERT_TRUE(copy_replacing(json, bare, "\"machine\"", "\"machine_gone\""));  // an unknown key, ignored
  r = run_cli({"plot", bare.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("DRAM peak"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("bare.json was simulated for 'skylake-sp-2s-18c-6x2666-llc24.75m-3.7ghz', not a preset, and it carries no machine: "
                       "open the JSON file"),
            std::string::npos)
      << r.describe();
  // ... unless the machine file is given.
  r = run_cli({"plot", csv.string(), "--machine", m.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("DRAM peak, 2 nodes 255.9 GB/s"), std::string::npos) << r.describe();
  // The same sheet at another clock is another machine, by name ...
  const fs::path m4 = dir.path() / "m4.json", json4 = dir.path() / "s4.json";
  r = run_cli({"machine", "spec", "--uarch", "skylake-sp", "--sockets", "2", "--cores", "18", "--smt", "2",
               "--channels", "6", "--mts", "2666", "--llc", "24.75M", "--turbo-ghz", "3.0", "--out", m4.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("skylake-sp-2s-18c-6x2666-llc24.75m-3ghz"), std::string::npos) << r.describe();
  // ... and two files that carry different machines under one name (a machine file renamed by hand):
  // none is guessed.
  ASSERT_TRUE(copy_replacing(m4, m4, "skylake-sp-2s-18c-6x2666-llc24.75m-3ghz",
                             "skylake-sp-2s-18c-6x2666-llc24.75m-3.7ghz"));
  r = run_cli({"simulate", "--machine", m4.string(), "--kernels", "movnti", "--sizes", "256M", "--threads", "1,18",
               "--json", json4.string(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  r = run_cli({"plot", json.string(), json4.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("DRAM peak"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("note: no machine ceilings (DRAM, link): the files carry different machines under the one name"), std::string::npos)
      << r.describe();
  // A preset's JSON and CSV together: the CSV is explained by the preset the JSON carries unchanged
  // (skylake-x-8270cl: 6 x 2933 = 140.8 GB/s a node) ...
  const fs::path pcsv = dir.path() / "p.csv", pjson = dir.path() / "p.json";
  r = run_cli({"simulate", "--machine", "skylake-x-8270cl", "--kernels", "movnti", "--sizes", "1G", "--threads",
               "1,26", "--csv", pcsv.string(), "--json", pjson.string(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  r = run_cli({"plot", pjson.string(), pcsv.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("DRAM peak per node 140.8 GB/s"), std::string::npos) << r.describe();
  // ... but not when the JSON's preset ran on another topology (the CSV may not have).
  const fs::path tjson = dir.path() / "t.json";
  r = run_cli({"simulate", "--machine", "skylake-x-8270cl", "--topology", "package:1 numa:1 core:26 pu:2",
               "--kernels", "movnti", "--sizes", "1G", "--threads", "1,26", "--json", tjson.string(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  r = run_cli({"plot", tjson.string(), pcsv.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("DRAM peak"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("p.csv was simulated for 'skylake-x-8270cl', a preset, and a CSV does not carry its machine; "
                       "t.json carries a machine of that name, which is not assumed to be the CSV's"),
            std::string::npos)
      << r.describe();
  // The machine file's CSV beside its own JSON: the same, said of the open JSON, not "open the JSON".
  r = run_cli({"plot", csv.string(), json.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("s.csv was simulated for 'skylake-sp-2s-18c-6x2666-llc24.75m-3.7ghz', not a preset, and a CSV does not carry its "
                       "machine; s.json carries a machine of that name"),
            std::string::npos)
      << r.describe();
  // With ceilings found, no note.
  r = run_cli({"plot", pjson.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("no ceilings"), std::string::npos) << r.describe();
}

TEST(PlotCommand, CeilingsOfTheSimulatedMachineOrOfMachine) {
  TempDir dir;
  const fs::path sim = write_sample(dir.path(), "sim.csv", "simulated", "model:skylake-x-8270cl");
  const fs::path png = dir.path() / "plot.png";
  // auto: the preset the simulated points name (its DRAM peak is far above these figures: named, not drawn)
  CliResult r = run_cli({"plot", sim.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("DRAM peak per node"), std::string::npos) << r.describe();
  r = run_cli({"plot", sim.string(), "--machine", "none", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("DRAM peak"), std::string::npos) << r.describe();
  // Points of two machines: auto finds no one machine, yet each machine's DRAM peaks are drawn, named
  // (no line at all was drawn; the GUI drew the first machine's only).
  const fs::path bdw = write_sample(dir.path(), "bdw.csv", "simulated", "model:broadwell-x-e5-2630v4");
  r = run_cli({"plot", sim.string(), bdw.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("DRAM peak per node 140.8 GB/s (skylake-x-8270cl)"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("GB/s (broadwell-x-e5-2630v4)"), std::string::npos) << r.describe();
  EXPECT_EQ(r.err.find("inter-socket link"), std::string::npos) << r.describe();
  // measured points name no model machine: none unless asked for
  const fs::path measured = write_sample(dir.path(), "m.csv");
  r = run_cli({"plot", measured.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("DRAM peak"), std::string::npos) << r.describe();
  r = run_cli({"plot", measured.string(), "--machine", "skylake-x-8270cl", "--kind", "size", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("LLC "), std::string::npos) << r.describe();
  const fs::path out = dir.path() / "x.png";
  r = run_cli({"plot", measured.string(), "--machine", "no-such-machine", "--out", out.string()});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("no-such-machine"), std::string::npos) << r.describe();
  EXPECT_FALSE(fs::exists(out));
}

// The marks the GUI's threads plot draws, `bwlab plot` draws too: where the simulated machine's
// threads reach socket 2 and SMT siblings (with its machine) and where the stosb-vs-NT winner
// changes (from the points alone); the size plot gets none of them.
TEST(PlotCommand, ThreadsPlotMarksPlacementAndCrossoverAsTheGuiDoes) {
  TempDir dir;
  const fs::path m = dir.path() / "m.json", json = dir.path() / "s.json", csv = dir.path() / "s.csv";
  spec_and_simulate(m,
                    {"--uarch", "cascadelake-sp", "--sockets", "2", "--cores", "8", "--smt", "2", "--channels", "6",
                     "--mts", "2666", "--llc", "11M"},
                    {"--kernels", "stosb,avx2-nt,avx2-store", "--sizes", "256M", "--threads", "1,2,4,8,12,16,24,32",
                     "--membind", "node:0", "--json", json.string(), "--csv", csv.string()});
  const fs::path png = dir.path() / "t.png";
  CliResult r = run_cli({"plot", json.string(), "--kind", "threads", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("note: the ceilings are of"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("first point on socket 2: 12T"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("first point with SMT siblings: 24T"), std::string::npos) << r.describe();
  // avx2-store vs avx2-nt, all memory on node 0: NT pulls ahead on the way to saturation (a prediction).
  EXPECT_NE(r.err.find("avx2-store vs avx2-nt 256 MiB: NT pulls ahead "), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find(", predicted)"), std::string::npos) << r.describe();
  // The CSV holds no machine: no placement marks, but the crossover still shows.
  r = run_cli({"plot", csv.string(), "--kind", "threads", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("first point on socket 2"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("NT pulls ahead "), std::string::npos) << r.describe();
  r = run_cli({"plot", json.string(), "--kind", "size", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err.find("first point"), std::string::npos) << r.describe();
  EXPECT_EQ(r.err.find("pulls ahead"), std::string::npos) << r.describe();
  // Another machine's file given: drawn, its name in each label, and said in a note.
  r = run_cli({"plot", csv.string(), "--machine", "skylake-x-8270cl", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("DRAM peak per node 140.8 GB/s (skylake-x-8270cl)"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("note: the ceilings are of skylake-x-8270cl (--machine), the points were simulated for "
                       "cascadelake-sp-2s-8c-6x2666"),
            std::string::npos)
      << r.describe();
}

// One plot draws one scenario's rows: the others are named with the --rows that draws them (a
// victim file beside a scaling file lost its rows without a word); --rows picks them.
TEST(PlotCommand, RowsOfAnotherScenarioAreNamedAndRowsDrawsThem) {
  TempDir dir;
  const fs::path scaling = write_sample(dir.path(), "s.csv");
  std::vector<Point> victims;
  for (int k : {0, 1, 3}) {
    Point p = sample_point("stosb", 1u << 24, k + 1);
    p.scenario = "victim", p.role = "victim", p.peer_kernel = "movnti", p.peer_threads = k;
    victims.push_back(p);
  }
  const fs::path victim = write_points(dir.path(), "v.csv", victims), png = dir.path() / "p.png";
  CliResult r = run_cli({"plot", scaling.string(), victim.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("8 points from 2 files"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("; not drawn: 3 victim rows (--rows victim draws them)"), std::string::npos) << r.describe();
  r = run_cli({"plot", scaling.string(), victim.string(), "--rows", "victim", "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("victim rows: the victim's GB/s against aggressor threads: 1 curve, 3 points"), std::string::npos)
      << r.describe();
  EXPECT_NE(r.err.find("; not drawn: 8 scaling rows (--rows scaling draws them)"), std::string::npos) << r.describe();
  expect_refused(run_cli({"plot", scaling.string(), "--rows", "victim", "--out", png.string()}),
                 "--rows victim: no victim rows; the files hold scaling rows");
  // Victim rows of one size against size: one column of stacked one-point curves was written, exit 0.
  expect_refused(run_cli({"plot", victim.string(), "--kind", "size", "--out", png.string()}),
                 "plot --kind size: the victim rows hold one buffer size, 16 MiB: a sweep of aggressor counts k, not "
                 "of sizes; draw them with --kind threads (x = k)");
  // Two files of one size each: one-point curves too.
  std::vector<Point> other = victims;
  for (Point& p : other) p.size_bytes = 1u << 25;
  const fs::path victim2 = write_points(dir.path(), "v2.csv", other);
  expect_refused(run_cli({"plot", victim.string(), victim2.string(), "--kind", "size", "--out", png.string()}),
                 "plot --kind size: the victim rows hold one buffer size per file, 16 MiB, 32 MiB: a sweep of");
  expect_refused(run_cli({"plot", victim.string(), "--rows", "vicitm", "--out", png.string()}),
                 "did you mean victim?");
  r = run_cli({"plot", scaling.string(), victim.string(), "--rows", "Victim", "--out", png.string()});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
}

// Two machines with the same memory (6 x DDR4-2666, one socket) on two microarchitectures: one
// DRAM line names both; two labels on one line read as a line drawn twice.
TEST(PlotCommand, TwoMachinesWithTheSameDramPeakShareOneNamedLine) {
  TempDir dir;
  const fs::path a = dir.path() / "a.json", b = dir.path() / "b.json", sa = dir.path() / "sa.json",
                 sb = dir.path() / "sb.json", c = dir.path() / "c.json", sc = dir.path() / "sc.json";
  // The sheet with another microarchitecture or transfer rate.
  const auto spec = [](const std::string& uarch, const std::string& mts) {
    std::vector<std::string> v = kCascadeLake1s;
    *(std::find(v.begin(), v.end(), "--uarch") + 1) = uarch;
    *(std::find(v.begin(), v.end(), "--mts") + 1) = mts;
    return v;
  };
  const std::vector<std::string> sim = {"--kernels", "stosb,avx2-nt", "--sizes", "256M", "--threads", "1,18", "-q"};
  const auto with_json = [&](const fs::path& out) {
    std::vector<std::string> v = sim;
    v.insert(v.end(), {"--json", out.string()});
    return v;
  };
  spec_and_simulate(a, spec("cascadelake-sp", "2666"), with_json(sa));
  spec_and_simulate(b, spec("skylake-sp", "2666"), with_json(sb));
  spec_and_simulate(c, spec("skylake-sp", "2933"), with_json(sc));
  const fs::path png = dir.path() / "t.png";
  CliResult r = run_cli({"plot", sa.string(), sb.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("DRAM peak per node 128.0 GB/s (cascadelake-sp-1s-18c-6x2666-llc24.75m-3.7ghz, "
                       "skylake-sp-1s-18c-6x2666-llc24.75m-3.7ghz)"),
            std::string::npos)
      << r.describe();
  EXPECT_EQ(r.err.find("128.0 GB/s (skylake-sp"), std::string::npos) << r.describe();
  // Another peak keeps its own line.
  r = run_cli({"plot", sa.string(), sc.string(), "--out", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find("DRAM peak per node 128.0 GB/s (cascadelake-sp-1s-18c-6x2666-llc24.75m-3.7ghz)"), std::string::npos)
      << r.describe();
  EXPECT_NE(r.err.find("GB/s (skylake-sp-1s-18c-6x2933-llc24.75m-3.7ghz)"), std::string::npos) << r.describe();
}

// The line printed says what the image leaves out or draws as markers only (it read "108 curves,
// 108 points" of more, one size drawn against size, with that said only in the image).
TEST(PlotCommand, TheLineSaysWhatTheImageLeavesOut) {
  TempDir dir;
  const fs::path m = dir.path() / "m.json", json = dir.path() / "s.json";
  spec_and_simulate(m,
                    kCascadeLake1s,
                    {"--kernels", "stosb,avx2-nt,avx2-store", "--sizes", "256M", "--threads", "1..36", "--json",
                     json.string(), "-q"});
  const CliResult r = run_cli({"plot", json.string(), "--kind", "size", "--out", (dir.path() / "s.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.err.find(" of 36 thread counts drawn (1, 2, "), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("; the files hold every point; one buffer size only: against threads (GB/s vs threads; bwlab "
                       "plot --kind threads) they make curves"),
            std::string::npos)
      << r.describe();
  EXPECT_EQ(r.err.find("the table"), std::string::npos) << r.describe();  // bwlab plot draws none
}

// A predicted "is level" over a visible gap says the gap is within the model's error.
TEST(PlotCommand, APredictedLevelSaysItIsWithinTheModelsError) {
  TempDir dir;
  const fs::path m = dir.path() / "m.json", json = dir.path() / "s.json";
  spec_and_simulate(m,
                    kCascadeLake1s,
                    {"--kernels", "stosb,avx2-nt", "--sizes", "256M", "--threads", "1,2,4,8,16,32,36", "--placement",
                     "none", "--json", json.string()});
  const CliResult r = run_cli({"plot", json.string(), "--out", (dir.path() / "t.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  // NT 31% behind is "level" by the model's band: not called level over a gap that wide, the mark
  // says the gap is within the model's error.
  const std::size_t at = r.err.find("stosb vs avx2-nt 256 MiB: no sure winner from ");
  ASSERT_NE(at, std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("T, NT -", at), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("% is within the model's error (predicted)", at), std::string::npos) << r.describe();
}

}  // namespace
}  // namespace bwlab::clitest
