// SPDX-License-Identifier: MIT
// `bwlab verdict / compare / merge / report` as a separate process, on files built from Point
// records with write_csv/write_json (never hand-written CSV). Exit codes, messages and files.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/insight/fleet.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/report/csv.hpp"
#include "core/report/json.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/topology/topology.hpp"
#include "tests/cli/cli_driver.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab::clitest {
namespace {

using namespace std::chrono_literals;
using bwlab::testing::add_pair;
using bwlab::testing::make_point;
using bwlab::testing::make_run;
using bwlab::testing::MiB;

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

class InsightCli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(bwlab_bin().empty()) << "BWLAB_BIN is not set";
  }
  std::string path(const std::string& name) const { return (dir_.path() / name).string(); }
  std::string csv(const std::string& name, const std::vector<Point>& pts) const {
    std::ofstream out(path(name));
    write_csv(out, pts);
    return path(name);
  }
  std::string json(const std::string& name, const std::string& host, const std::vector<Point>& pts, int model = 207) const {
    std::vector<Point> q = pts;
    for (Point& p : q) p.host = host;
    std::ofstream out(path(name));
    write_json(out, make_run(host, model), q);
    return path(name);
  }
  static std::vector<Point> good_pair() {
    std::vector<Point> pts;
    add_pair(pts, "stosb", {10, 10, 10}, "movnti", {8, 12, 12}, 1);
    add_pair(pts, "stosb", {18, 18, 18}, "movnti", {16, 22, 22}, 2);
    return pts;
  }
  TempDir dir_;
};

TEST_F(InsightCli, VerdictOnAKnownCrossover) {
  const CliResult r = run_cli({"verdict", csv("v.csv", good_pair())});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "stosb (write-allocate) vs movnti (non-temporal)")) << r.out;
  EXPECT_TRUE(has(r.out, "between 4MiB and 8MiB")) << r.out;
  EXPECT_TRUE(has(r.out, "Recommendation: NT good.")) << r.out;
  EXPECT_TRUE(has(r.out, "== glibc on this machine")) << r.out;
  EXPECT_TRUE(has(r.out, "x86_non_temporal_threshold")) << r.out;
}

// A file saved by Excel or PowerShell starts with a UTF-8 byte-order mark: it read as "unknown
// column 'source'" (the mark invisible in the quotes) and a JSON file as "not JSON". Every reader
// skips it: a CSV, a JSON run and a machine file.
TEST_F(InsightCli, AUtf8ByteOrderMarkIsSkippedAndBinaryIsSaid) {
  const auto with_bom = [&](const std::string& from, const std::string& name) {
    std::ifstream in(from, std::ios::binary);
    std::ofstream out(path(name), std::ios::binary);
    out << "\xEF\xBB\xBF" << in.rdbuf();
    return path(name);
  };
  const std::string plain = csv("v.csv", good_pair());
  const CliResult c = run_cli({"compare", plain, with_bom(plain, "bom.csv")});
  EXPECT_EQ(c.exit_code, 0) << c.describe();
  EXPECT_TRUE(has(c.out, "points matched")) << c.out;
  const std::string run = json("v.json", "nodeA", good_pair());
  const CliResult j = run_cli({"verdict", with_bom(run, "bom.json")});
  EXPECT_EQ(j.exit_code, 0) << j.describe();
  EXPECT_TRUE(has(j.out, "Recommendation: NT good")) << j.out;
  ASSERT_EQ(run_cli({"machine", "spec", "--uarch", "skylake-sp", "--sockets", "1", "--cores", "8", "--smt", "2",
                     "--channels", "6", "--mts", "2666", "--llc", "11M", "--out", path("m.json")})
                .exit_code,
            0);
  const CliResult m = run_cli({"machine", "show", with_bom(path("m.json"), "bom-machine.json")});
  EXPECT_EQ(m.exit_code, 0) << m.describe();
  // A PNG under a .csv name is said to be binary, not "unknown column '\x89PNG'" in raw bytes.
  std::ofstream(path("image.csv"), std::ios::binary) << std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  expect_refused(run_cli({"verdict", path("image.csv")}),
                 path("image.csv") + ": not a bwlab CSV or JSON: it holds binary data (an image, an archive?)");
}

TEST_F(InsightCli, VerdictSaysWhenItCannotTell) {
  std::vector<Point> pts;
  add_pair(pts, "stosb", {10, 10, 10}, "movnti", {9, 11, 12}, 1, 30.0, 5, 25.0);
  const CliResult r = run_cli({"verdict", csv("noisy.csv", pts)});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "Recommendation: cannot tell.")) << r.out;
  EXPECT_TRUE(has(r.out, "too noisy to tell")) << r.out;
  EXPECT_TRUE(has(r.out, "no GLIBC_TUNABLES line")) << r.out;
}

TEST_F(InsightCli, VerdictRefusesUnusableInput) {
  expect_refused(run_cli({"verdict", path("missing.csv")}), "cannot read");
  std::vector<Point> wa_only;
  for (int i = 0; i < 3; ++i) wa_only.push_back(make_point("stosb", 1, (4 * MiB) << i, 10));
  expect_refused(run_cli({"verdict", csv("wa.csv", wa_only)}),
                 "no write-allocate and non-temporal kernel measured at the same thread count; nothing to decide");
  for (Point& p : wa_only) p.source = "imported";  // another tool's figures: not "measured" by bwlab
  expect_refused(run_cli({"verdict", csv("wa.csv", wa_only)}),
                 "no write-allocate and non-temporal kernel in the imported figures at the same thread count");
  expect_refused(run_cli({"verdict", csv("v.csv", good_pair()), "--by", "cpu"}), "plain bwlab CSV");
  expect_refused(run_cli({"verdict", csv("v.csv", good_pair()), "--by", "socket"}), "--by");
  expect_refused(run_cli({"verdict", csv("v.csv", good_pair()), "--max-spread", "lots"}), "--max-spread");
  {
    std::ofstream out(path("junk.csv"));
    out << "a,b,c\n1,2,3\n";
  }
  expect_refused(run_cli({"verdict", path("junk.csv")}), "not a bwlab CSV header");
  // A hand-edited kernel name was judged, plotted and compared as a kernel of its own.
  std::vector<Point> typo = good_pair();
  typo[1].kernel = "stosbx";
  const std::string bad = csv("typo.csv", typo);
  for (const auto& args : {std::vector<std::string>{"verdict", bad}, std::vector<std::string>{"plot", bad, "-o", path("t.png")},
                           std::vector<std::string>{"compare", csv("v.csv", good_pair()), bad}})
    expect_refused(run_cli(args), bad + ": point 2: unknown kernel 'stosbx' (did you mean stosb?); bwlab's kernels are: stosb");
  typo[1].kernel = "stosb", typo[1].scenario = "victim", typo[1].peer_kernel = "movntix";
  expect_refused(run_cli({"verdict", csv("peer.csv", typo)}), "point 2: unknown peer kernel 'movntix' (did you mean movnti?)");
  // Imported rows keep the other tool's names.
  std::vector<Point> imported = good_pair();
  for (Point& p : imported) p.source = "imported", p.kernel = p.kernel == "stosb" ? "memset/x86-64-stosb" : p.kernel;
  EXPECT_EQ(run_cli({"plot", csv("imported.csv", imported), "-o", path("i.png")}).exit_code, 0);
}

// An empty or non-CSV file is named in one short line with a few of the expected columns, not
// the whole 60-column header (which made one line of over a thousand characters).
TEST_F(InsightCli, NotACsvSaysSoInOneShortLine) {
  std::ofstream(path("empty.csv")).close();
  std::ofstream(path("text.csv")) << "hello world\n";
  const std::string good = csv("good.csv", good_pair());
  // A text without a comma on its first line is no table at all (a README, perf's output): said
  // so, with where other tools' results go (it said "unknown column '# bwlab: a memory-...'").
  const std::string no_commas =
      fmt::format("{}: not a bwlab CSV or JSON points file: its first line ('hello world') has no commas (a bwlab "
                  "CSV starts with the header source,scenario,host,..., a JSON file with '{{'); other tools' results "
                  "are read by 'bwlab import'",
                  path("text.csv"));
  // Blank lines only read as empty too (they were "unknown column ''").
  std::ofstream(path("blank.csv")) << "\n\n";
  const auto empty = [&](const char* file, const char* blank) {
    return fmt::format("{}: the file is empty{} (a run cut off before it wrote anything?); bwlab reads its CSV and "
                       "JSON points files (bwlab run --csv/--json)",
                       path(file), blank);
  };
  for (const auto& [file, expect] :
       {std::pair<std::string, std::string>{"empty.csv", empty("empty.csv", "")},
        {"blank.csv", empty("blank.csv", " (blank lines only)")}, {"text.csv", no_commas}}) {
    for (const auto& args : {std::vector<std::string>{"compare", path(file), good},
                             std::vector<std::string>{"plot", path(file), "-o", path("x.png")}}) {
      const CliResult r = run_cli(args);
      expect_refused(r, expect);
      EXPECT_EQ(r.err, "bwlab: error: " + expect + "\n") << r.describe();
    }
  }
}

// A .json file that is not JSON was judged as a CSV ("not a bwlab CSV header"); Google Benchmark
// JSON (bwlab export -f gbench) is pointed to `bwlab import gbench`.
TEST_F(InsightCli, JsonFilesGetJsonMessages) {
  std::ofstream(path("text.json")) << "not json\n";
  const CliResult r = run_cli({"verdict", path("text.json")});
  expect_refused(r, path("text.json") + ": not JSON (a .json file that does not start with '{')");
  const std::string good = csv("good.csv", good_pair());
  // A bwlab CSV under a .json name is named as one (it read as any text that is not JSON).
  std::filesystem::copy_file(good, path("csvnamed.json"));
  expect_refused(run_cli({"verdict", path("csvnamed.json")}),
                 path("csvnamed.json") + ": named .json but it holds a bwlab CSV (its header starts source,scenario,host): "
                                         "rename it to .csv");
  ASSERT_EQ(run_cli({"export", "-f", "gbench", good, "-o", path("gb.json")}).exit_code, 0);
  for (const auto& args : {std::vector<std::string>{"verdict", path("gb.json")},
                           std::vector<std::string>{"compare", good, path("gb.json")}})
    expect_refused(run_cli(args), "it looks like Google Benchmark JSON: read it with 'bwlab import gbench FILE'");
  // A machine file (machine spec, calibrate) given where points go: what to do with it instead.
  ASSERT_EQ(run_cli({"machine", "spec", "--uarch", "zen4", "--sockets", "1", "--cores", "8", "--smt", "2", "--channels",
                     "2", "--mts", "4800", "--llc", "32M", "--out", path("m.json")})
                .exit_code,
            0);
  expect_refused(run_cli({"verdict", path("m.json")}),
                 "it is a machine file (bwlab machine spec, calibrate): predict with it, `bwlab simulate --machine FILE");
}

TEST_F(InsightCli, CompareExitCodes) {
  const std::vector<Point> base = good_pair();
  std::vector<Point> same = base;
  std::vector<Point> regressed = base;
  regressed[0].gbps_median *= 0.7, regressed[0].gbps_min *= 0.7, regressed[0].gbps_max *= 0.7;
  std::vector<Point> noisy = base;  // a 30% drop, but a range wide enough to overlap BASE's
  noisy[0].gbps_median *= 0.7, noisy[0].gbps_min *= 0.5, noisy[0].gbps_max *= 1.1;
  const std::string b = csv("base.csv", base);

  CliResult r = run_cli({"compare", b, csv("same.csv", same)});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "0 regressed")) << r.out;

  r = run_cli({"compare", b, csv("regressed.csv", regressed), "--tolerance", "5%"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();  // a regression: not 1 (a failure) nor 2 (bad input)
  EXPECT_TRUE(has(r.out, "REGRESSED")) << r.out;
  EXPECT_TRUE(has(r.out, "-30.0%")) << r.out;

  r = run_cli({"compare", b, csv("regressed.csv", regressed), "--tolerance", "40%"});
  EXPECT_EQ(r.exit_code, 0) << r.describe();

  r = run_cli({"compare", b, csv("noisy.csv", noisy)});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "within noise")) << r.out;

  // Another window length: matched and judged as before (exit 3), with a warning naming both windows.
  std::vector<Point> short_windows = regressed;
  for (Point& p : short_windows) p.duration_ms = 20;
  std::vector<Point> long_windows = base;
  for (Point& p : long_windows) p.duration_ms = 100;
  r = run_cli({"compare", csv("long.csv", long_windows), csv("short.csv", short_windows)});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_TRUE(has(r.out, "\nwarning: windows differ: base 100 ms, new 20 ms; figures from different window lengths "
                         "are not like for like\n"))
      << r.out;
  r = run_cli({"compare", b, csv("same.csv", same)});
  EXPECT_FALSE(has(r.out, "windows differ")) << r.out;

  // JSON against CSV: the same points, so they match.
  r = run_cli({"compare", json("base.json", "testhost", base), csv("regressed.csv", regressed)});
  EXPECT_EQ(r.exit_code, 3) << r.describe();

  // A measurement against a prediction 30% below it: apart from the model, not a regression (exit 0).
  std::vector<Point> predicted = regressed;
  for (Point& p : predicted) p.source = "simulated", p.reps = 0, p.host = "model:skylake-x-8270cl";
  r = run_cli({"compare", b, csv("predicted.csv", predicted), "--tolerance", "5%"});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_FALSE(has(r.out, "REGRESSED")) << r.out;
  EXPECT_TRUE(has(r.out, "NEW lower, beyond the band (model vs measurement)")) << r.out;
}

// An interrupted run (its JSON marked partial) compared or judged: its missing points showed as
// "only in BASE" with exit 0 and no word of why. Both commands warn, naming the file and the reason.
TEST_F(InsightCli, PartialRunIsNamedByCompareAndVerdict) {
  const std::vector<Point> all = good_pair();
  const std::vector<Point> half(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(all.size() / 2));
  const std::string base = json("base.json", "h", all);
  RunInfo run = make_run("h", 207);
  run.partial = true, run.partial_reason = "interrupted by SIGINT after 6 points";
  {
    std::vector<Point> q = half;
    for (Point& p : q) p.host = "h";
    std::ofstream out(path("p.json"));
    write_json(out, run, q);
  }
  const std::string warning = "warning: " + path("p.json") + " is a partial run (interrupted by SIGINT after 6 points)";
  const CliResult c = run_cli({"compare", base, path("p.json")});
  ASSERT_EQ(c.exit_code, 0) << c.describe();
  // On stdout, with the comparison's other warnings ("windows differ"): a CI log of stdout kept them all.
  EXPECT_TRUE(has(c.out, warning + ": only its finished points are here; points it did not finish are not compared"))
      << c.describe();
  const CliResult v = run_cli({"verdict", path("p.json")});
  EXPECT_TRUE(has(v.err, warning)) << v.describe();
  // The points it lacks are counted (exit 0), and fail the comparison with --require-all (exit 4).
  EXPECT_TRUE(has(c.err, "note: NEW lacks " + std::to_string(all.size() - half.size()) + " of BASE's " +
                             std::to_string(all.size()) + " points: not compared; --require-all makes that fail"))
      << c.describe();
  const CliResult strict = run_cli({"compare", base, path("p.json"), "--require-all"});
  EXPECT_EQ(strict.exit_code, 4) << strict.describe();
  EXPECT_TRUE(has(strict.err, "exit 4 (--require-all)")) << strict.describe();
  // A NEW with more points than BASE lacks none of them.
  EXPECT_EQ(run_cli({"compare", path("p.json"), base, "--require-all"}).exit_code, 0);
  // A whole run: no such line; the files are named; the same figures twice are said to be.
  const CliResult whole = run_cli({"compare", base, base, "--require-all"});
  EXPECT_EQ(whole.exit_code, 0) << whole.describe();
  EXPECT_FALSE(has(whole.err, "partial run")) << whole.describe();
  EXPECT_FALSE(has(whole.err, "lacks")) << whole.describe();
  EXPECT_TRUE(has(whole.out, "BASE " + base + ": " + std::to_string(all.size()) +
                                 " points (measured), host h, windows of 5 ms, run "))
      << whole.out;
  EXPECT_TRUE(has(whole.err, "note: BASE and NEW hold the same figures at every point: the same run twice?"))
      << whole.describe();
  EXPECT_FALSE(has(c.err, "the same run twice")) << c.describe();
  // Its CSV has no run record: the flag `run` puts on the last finished point says it (verdict
  // printed a whole recommendation from a partial CSV, without a word).
  std::vector<Point> q = half;
  for (Point& p : q) p.host = "h";
  q.back().flags.push_back("run interrupted by SIGINT after this point: 6 of 12 finished, the sweep is incomplete");
  const std::string part_csv = csv("p.csv", q);
  const std::string csv_warning = "warning: " + part_csv +
                                  " is a partial run (interrupted by SIGINT: 6 of 12 finished, the sweep is "
                                  "incomplete): only its finished points are here";
  const CliResult vc = run_cli({"verdict", part_csv});
  EXPECT_TRUE(has(vc.err, csv_warning)) << vc.describe();
  const CliResult cc = run_cli({"compare", base, part_csv});
  EXPECT_TRUE(has(cc.out, csv_warning)) << cc.describe();
  // The flag on another point than the last is no interruption of this file (a merged or edited file).
  std::vector<Point> moved = q;
  std::swap(moved.front().flags, moved.back().flags);
  EXPECT_FALSE(has(run_cli({"verdict", csv("moved.csv", moved)}).err, "partial run"));
}

// A fleet CSV of two other hosts whose rows fit in their caches: each host's call said "keep the
// cacheable stosb for large clears" (only this machine's cache was known; --by cpu knew theirs).
TEST_F(InsightCli, FleetHostsAreJudgedByTheCachesTheirRunsRecorded) {
  std::vector<std::string> jsons;
  for (const char* host : {"nodeA", "nodeB"}) {
    RunInfo run = make_run(host);
    run.llc_bytes = 64 * MiB, run.llc_count = 1;
    std::vector<Point> pts = good_pair();
    for (Point& p : pts) p.host = host;
    jsons.push_back(path(std::string(host) + ".json"));
    std::ofstream out(jsons.back());
    write_json(out, run, pts);
  }
  const CliResult m = run_cli({"merge", jsons[0], jsons[1], "-o", path("fleet.csv")});
  ASSERT_EQ(m.exit_code, 0) << m.describe();
  const CliResult v = run_cli({"verdict", path("fleet.csv")});
  ASSERT_EQ(v.exit_code, 0) << v.describe();
  for (const char* host : {"nodeA", "nodeB"})
    EXPECT_TRUE(has(v.out, fmt::format("for clears that fit in the cache only: every row judged fits in {}'s last-level "
                                       "cache (64MiB, as its run recorded it)",
                                       host)))
        << v.out;
  EXPECT_FALSE(has(v.out, "for large clears")) << v.out;
}

// A run of another host (a fleet's file, or `run --host nodeA` on a clone) whose rows all fit in
// its LLC: the verdict said "keep the cacheable stosb for large clears" without a word, because only
// this machine's LLC was known. The JSON records the measuring machine's LLC; verdict and report
// judge by it, naming whose it is, and leave this machine's glibc out.
TEST_F(InsightCli, AnotherHostsRunIsJudgedByItsOwnLlc) {
  RunInfo run = make_run("nodeA");
  run.llc_bytes = 64 * MiB, run.llc_count = 1;
  std::vector<Point> pts = good_pair();
  for (Point& p : pts) p.host = "nodeA";
  {
    std::ofstream out(path("nodeA.json"));
    write_json(out, run, pts);
  }
  const CliResult v = run_cli({"verdict", path("nodeA.json")});
  ASSERT_EQ(v.exit_code, 0) << v.describe();
  EXPECT_TRUE(has(v.out, "for clears that fit in the cache only: every row judged fits in nodeA's last-level cache"))
      << v.out;
  EXPECT_TRUE(has(v.out, "fit in nodeA's last-level cache (64MiB, as the CPU reports it)")) << v.out;
  EXPECT_TRUE(has(v.out, "(glibc's threshold is not shown: the run was measured on nodeA")) << v.out;
  EXPECT_FALSE(has(v.out, "x86_non_temporal_threshold")) << v.out;
  // Beside the model's calls too (--against-model dropped the caveat: the call read as a large-clear one).
  const CliResult am = run_cli({"verdict", path("nodeA.json"), "--against-model", "icelake-x-8358"});
  ASSERT_EQ(am.exit_code, 0) << am.describe();
  EXPECT_TRUE(has(am.out, "for clears that fit in the cache only: every row judged fits in nodeA's last-level cache"))
      << am.out;
  const CliResult r = run_cli({"report", path("nodeA.json"), "--out", path("r.html")});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::ifstream html(path("r.html"));
  const std::string text{std::istreambuf_iterator<char>(html), std::istreambuf_iterator<char>()};
  EXPECT_TRUE(has(text, "every row judged fits in nodeA&#39;s last-level cache") ||
              has(text, "every row judged fits in nodeA's last-level cache"))
      << "the report's verdict";
  // A file of an older bwlab (no LLC recorded) is judged as before: no cache call for another host.
  run.llc_bytes = 0, run.llc_count = 0;
  {
    std::ofstream out(path("old.json"));
    write_json(out, run, pts);
  }
  EXPECT_FALSE(has(run_cli({"verdict", path("old.json")}).out, "fit in the cache only"));
}

// The same host after a microcode or kernel update, or on another CPU: compare says what changed
// besides the points (the JSON runs carry it); the same system says nothing.
TEST_F(InsightCli, CompareNamesWhatChangedInTheSystem) {
  const std::string base = json("base.json", "h", good_pair());
  const std::string cpu = json("cpu.json", "h", good_pair(), 85);
  RunInfo run = make_run("h", 207, "0xd0003e7");
  run.kernel_release = "6.1.0-99-amd64";
  {
    const std::string host = run.host;
    std::vector<Point> q = good_pair();
    for (Point& p : q) p.host = host;
    std::ofstream out(path("updated.json"));
    write_json(out, run, q);
  }
  const CliResult updated = run_cli({"compare", base, path("updated.json")});
  ASSERT_EQ(updated.exit_code, 0) << updated.describe();
  EXPECT_TRUE(has(updated.err, "note: the systems differ besides the points: microcode 0x21000290 -> 0xd0003e7, "
                               "kernel 6.1.0 -> 6.1.0-99-amd64 (a change of the figures may come from them)"))
      << updated.describe();
  const CliResult other = run_cli({"compare", base, cpu});
  EXPECT_TRUE(has(other.err, "note: the systems differ besides the points: CPU ")) << other.describe();
  EXPECT_TRUE(has(other.err, "CPU GenuineIntel 6/207/2 (Test CPU) -> GenuineIntel 6/85/2 (Test CPU)"))
      << other.describe();
  EXPECT_FALSE(has(run_cli({"compare", base, base}).err, "systems differ"));
  // A prediction ran on no system: no "CPU ... -> 0/0/0 ()" note against it.
  RunInfo model;
  model.host = "model:zen3-1s-8c-2x3200";
  {
    std::vector<Point> q = good_pair();
    for (Point& p : q) p.host = model.host, p.source = "simulated";
    std::ofstream out(path("model.json"));
    write_json(out, model, q);
  }
  const CliResult predicted = run_cli({"compare", base, path("model.json")});
  EXPECT_FALSE(has(predicted.err, "systems differ")) << predicted.describe();
  EXPECT_FALSE(has(predicted.err, "0/0/0")) << predicted.describe();
}

// A regression beats missing points (exit 3, not 4); matched points the run flagged unstable are
// counted and their rows marked (a REGRESSED row read as sure as a quiet one); a flagged point only
// one side has is not counted ("BASE holds 8" beside 4 matched rows).
TEST_F(InsightCli, CompareSaysWhatItCannotVouchFor) {
  std::vector<Point> base = good_pair();
  std::vector<Point> now(base.begin(), base.end() - 1);
  base.back().flags.push_back("noisy: 3 of 3 windows disturbed (worst: thread 1 got only 30% of the window's CPU time)");
  now[0].gbps_median *= 0.5, now[0].gbps_min *= 0.5, now[0].gbps_max *= 0.5;
  now[0].flags.push_back("unstable: 25.7% pstdev of GB/s over 3 reps, try --reps 7 or a longer --duration");
  const CliResult r = run_cli({"compare", csv("base.csv", base), csv("now.csv", now), "--require-all"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_TRUE(has(r.err, "note: 1 of the " + std::to_string(now.size()) +
                             " matched points is flagged unstable or noisy in NEW"))
      << r.describe();
  EXPECT_FALSE(has(r.err, "in BASE (")) << r.describe();
  EXPECT_TRUE(has(r.out, "REGRESSED [flagged: NEW]")) << r.describe();
  EXPECT_TRUE(has(r.out, "note: [flagged: ...] marks a row whose point its run flagged unstable or noisy")) << r.describe();
  // A NEW with no point at all (a run interrupted before its first point): said as such, exit 2.
  expect_refused(run_cli({"compare", path("base.csv"), csv("empty.csv", {})}),
                 "NEW (" + path("empty.csv") + ") holds no points: a run interrupted before its first point?");
}

TEST_F(InsightCli, CompareRefusesUnusableInput) {
  const std::string b = csv("base.csv", good_pair());
  std::vector<Point> other = good_pair();
  for (Point& p : other) p.scenario = "victim";
  expect_refused(run_cli({"compare", b, csv("other.csv", other)}), "no point of NEW matches");
  expect_refused(run_cli({"compare", b, b, "--tolerance", "-3%"}), "--tolerance");
  // Above 100% no drop can exceed it; a bare fraction reads like 5% but would be 0.05%.
  expect_refused(run_cli({"compare", b, b, "--tolerance", "150%"}),
                 "bad --tolerance 150%: at most 100% (a median cannot drop by more than 100%");
  expect_refused(run_cli({"compare", b, b, "--tolerance", "0.05"}),
                 "bad --tolerance '0.05': the value is a percentage; did you mean 5%? (write 0.05% to mean 0.05 "
                 "percent)");
  for (const char* fine : {"100%", "0.05%", "5", "0"})
    EXPECT_EQ(run_cli({"compare", b, b, "--tolerance", fine}).exit_code, 0) << fine;
  expect_refused(run_cli({"compare", b, path("nope.csv")}), "cannot read");
  const CliResult m = run_cli({"merge", json("a.json", "a", good_pair()), "--out", path("fleet.csv")});
  ASSERT_EQ(m.exit_code, 0) << m.describe();
  expect_refused(run_cli({"compare", b, path("fleet.csv")}), "fleet CSV");
}

TEST_F(InsightCli, MergeKeepsEveryHostAndVerdictByCpu) {
  std::vector<Point> slow;
  add_pair(slow, "stosb", {10, 10, 10}, "movnti", {7, 8, 9}, 1);
  const std::string fleet = path("fleet.csv");
  const CliResult r = run_cli({"merge", json("a.json", "hosta", good_pair()), json("b.json", "hostb", good_pair()),
                               json("c.json", "hostc", slow, 85), "--out", fleet});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(has(r.out, "merged 30 points from 3 files (3 hosts, 2 CPU/microcode combinations)")) << r.out;
  std::ifstream in(fleet);
  const std::vector<FleetRow> rows = read_fleet_csv(in);
  ASSERT_EQ(rows.size(), 30u);
  int per_host[3] = {0, 0, 0};
  for (const FleetRow& row : rows) ++per_host[row.point.host == "hosta" ? 0 : row.point.host == "hostb" ? 1 : 2];
  EXPECT_EQ(per_host[0], 12);
  EXPECT_EQ(per_host[1], 12);
  EXPECT_EQ(per_host[2], 6);

  const CliResult v = run_cli({"verdict", fleet, "--by", "cpu"});
  ASSERT_EQ(v.exit_code, 0) << v.describe();
  EXPECT_TRUE(has(v.out, "GenuineIntel 6/207/2")) << v.out;
  EXPECT_TRUE(has(v.out, "hosts (2): hosta, hostb")) << v.out;
  EXPECT_TRUE(has(v.out, "GenuineIntel 6/85/2")) << v.out;
  EXPECT_TRUE(has(v.out, "recommendation: NT slow")) << v.out;

  // The fleet drawn: one curve per kernel and host (plot read it as "not a bwlab CSV header").
  const CliResult plot = run_cli({"plot", fleet, "--kind", "size", "--out", path("fleet.png")});
  ASSERT_EQ(plot.exit_code, 0) << plot.describe();
  // 2 kernels x 2 thread counts on hosta and hostb, 2 kernels x 1 thread count on hostc
  EXPECT_TRUE(has(plot.err, "10 curves, 30 points from 1 file")) << plot.describe();
}

TEST_F(InsightCli, MergeRefusesMismatchedInput) {
  const std::string out = path("fleet.csv");
  expect_refused(run_cli({"merge", csv("a.csv", good_pair()), "--out", out}), "merge takes bwlab JSON files");
  // Another schema version.
  const std::string a = json("a.json", "a", good_pair());
  std::ifstream in(a);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  s.replace(s.find("\"schema_version\": 1"), 19, "\"schema_version\": 2");
  std::ofstream(path("v2.json")) << s;
  expect_refused(run_cli({"merge", a, path("v2.json"), "--out", out}), "schema_version");
  expect_refused(run_cli({"merge", a, json("a2.json", "a", good_pair()), "--out", out}), "keep one run per host");
  // A simulated run (bwlab simulate --json) is a prediction, not one more host.
  std::vector<Point> predicted = good_pair();
  for (Point& p : predicted) p.source = "simulated";
  const CliResult sim = run_cli({"merge", a, json("s.json", "model:skylake-x-8270cl", predicted), "--out", out});
  expect_refused(sim, path("s.json") + ": 12 of its 12 points are simulated (a model's prediction for host "
                                       "'model:skylake-x-8270cl'); a fleet merges measured runs (bwlab run --json)");
  EXPECT_EQ(split_lines(sim.err).size(), 1u) << sim.describe();
  EXPECT_FALSE(fs::exists(out));
}

// A fleet's merge job: one host's file cut short stopped the whole merge (no fleet CSV, no quirk
// table); with --keep-going it is named and left out. One file given twice was "a and a both hold
// ...: keep one run per host"; runs of two bwlab versions merged without a word.
TEST_F(InsightCli, MergeKeepGoingLeavesOutABrokenHostAndSaysSo) {
  const std::string out = path("fleet.csv");
  const std::string a = json("a.json", "hosta", good_pair()), b = json("b.json", "hostb", good_pair());
  std::ifstream whole(b);
  std::stringstream text;
  text << whole.rdbuf();
  std::ofstream(path("cut.json")) << text.str().substr(0, text.str().size() / 2);
  std::ofstream(path("empty.json")).flush();

  expect_refused(run_cli({"merge", a, path("cut.json"), "--out", out}), "cut.json: JSON: parse error");
  EXPECT_FALSE(fs::exists(out));
  const CliResult k = run_cli({"merge", "--keep-going", a, path("cut.json"), b, path("empty.json"), "--out", out});
  ASSERT_EQ(k.exit_code, 0) << k.describe();
  EXPECT_TRUE(has(k.err, "warning: left out: " + path("cut.json") + ": JSON: parse error")) << k.err;
  // An empty file is called empty, not "not JSON".
  EXPECT_TRUE(has(k.err, "warning: left out: " + path("empty.json") + ": the file is empty")) << k.err;
  EXPECT_TRUE(has(k.out, "merged 24 points from 2 files (2 hosts")) << k.out;
  EXPECT_TRUE(has(k.out, "left out 2 files that could not be merged: " + path("cut.json") + ", " + path("empty.json")))
      << k.out;
  std::ifstream in(out);
  EXPECT_EQ(read_fleet_csv(in).size(), 24u);
  // Nothing left: refused, and a point conflict between two good files is still refused.
  const CliResult none = run_cli({"merge", "-k", path("cut.json"), path("empty.json"), "--out", path("none.csv")});
  EXPECT_EQ(none.exit_code, 2) << none.describe();
  EXPECT_TRUE(has(none.err, "bwlab: error: none of the 2 files could be merged (each is named above)")) << none.err;
  EXPECT_FALSE(fs::exists(path("none.csv")));
  const CliResult one = run_cli({"merge", "-k", path("cut.json"), "--out", path("none.csv")});
  EXPECT_EQ(one.exit_code, 2) << one.describe();
  EXPECT_TRUE(has(one.err, "bwlab: error: the file could not be merged (said above)")) << one.err;  // "none of the 1 file"
  expect_refused(run_cli({"merge", "-k", a, json("a2.json", "hosta", good_pair()), "--out", path("c.csv")}),
                 "keep one run per host");

  expect_refused(run_cli({"merge", a, a, "--out", path("t.csv")}), a + " is listed twice: give each file once");
  const std::string dotted = dir_.path().string() + "/./a.json";
  expect_refused(run_cli({"merge", a, dotted, "--out", path("t.csv")}), "are the same file");

  std::string old = text.str();
  const std::string version = "\"bwlab_version\": \"";
  ASSERT_NE(old.find(version), std::string::npos) << old.substr(0, 400);
  old.insert(old.find(version) + version.size(), "0.0.9-");
  std::ofstream(path("old.json")) << old;
  const CliResult v = run_cli({"merge", a, path("old.json"), "--out", path("v.csv")});
  ASSERT_EQ(v.exit_code, 0) << v.describe();
  EXPECT_TRUE(has(v.err, "warning: the runs come from 2 bwlab versions: ")) << v.err;
  EXPECT_TRUE(has(v.err, "(" + path("old.json") + ")")) << v.err;
}

TEST_F(InsightCli, ReportWritesOneSelfContainedPage) {
  const std::string html = path("report.html");
  const CliResult r = run_cli({"report", json("run.json", "somehost<&>", good_pair()), "--out", html});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string page = read_text(html);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(has(page, "somehost&lt;&amp;&gt;"));
  // The charts: drawn by the GUI's plot (QCustomPlot through QSvgGenerator), one standalone SVG
  // document each: 2 thread counts -> 2 against size, 2 against threads (smallest, largest size).
  const std::string prefix = "src=\"data:image/svg+xml;base64,";
  int charts = 0;
  for (std::size_t pos = 0; (pos = page.find(prefix, pos)) != std::string::npos; ++charts) {
    pos += prefix.size();
    const std::string svg = testing::base64_decode(page.substr(pos, page.find('"', pos) - pos));
    EXPECT_EQ(svg.rfind("<?xml", 0), 0u) << svg.substr(0, 200);
    EXPECT_TRUE(has(svg, "<svg ")) << svg.substr(0, 400);
    EXPECT_TRUE(has(svg, "xmlns=\"http://www.w3.org/2000/svg\"")) << svg.substr(0, 400);
    EXPECT_EQ(testing::check_balanced(svg), "");
    EXPECT_TRUE(has(svg, "stosb")) << "legend";
    EXPECT_TRUE(has(svg, "movnti")) << "legend";
    EXPECT_TRUE(has(svg, "GB/s")) << "axis label";
  }
  EXPECT_EQ(charts, 4);
  EXPECT_TRUE(has(r.out, "4 charts")) << r.out;
  EXPECT_FALSE(has(page, "<polyline"));  // the hand-drawn SVG is gone
  EXPECT_TRUE(has(page, "Recommendation: NT good."));
  EXPECT_FALSE(has(page, "href="));
  expect_refused(run_cli({"report", csv("run.csv", good_pair()), "--out", html}), "report takes a bwlab JSON file");
}

// A report of a run measured here says, as `bwlab verdict` does, that a call made from rows that
// all fit in this machine's LLC is not the large-clear call its flag names (the page said "keep
// the cacheable stosb for large clears" from buffers that never left the cache).
TEST_F(InsightCli, ReportOfInCacheRowsSaysTheCallIsForCachedClears) {
  const Topology here = Topology::local();
  if (here.llc_bytes() < 512 * 1024) GTEST_SKIP() << "no L3 of 512 KiB or more seen here";
  std::vector<Point> pts;
  for (int threads : {1, 2})
    for (int i = 0; i < 3; ++i) {  // 64..256 KiB per thread: in any L3 of 512 KiB or more
      pts.push_back(make_point("stosb", threads, (64 * 1024) << i, 10.0 * threads));
      pts.push_back(make_point("movnti", threads, (64 * 1024) << i, 5.0 * threads));
    }
  // Measured here: this host name and this CPU (the same name on another CPU is another machine).
  const std::string cpu = detect_cpu_features().model_name;
  for (Point& p : pts) p.cpu_model = cpu;
  RunInfo run = make_run(host_name());
  run.cpu_model_name = cpu;
  const std::string file = path("cached.json");
  {
    for (Point& p : pts) p.host = host_name();
    std::ofstream out(file);
    write_json(out, run, pts);
  }
  const CliResult v = run_cli({"verdict", file});
  ASSERT_EQ(v.exit_code, 0) << v.describe();
  ASSERT_TRUE(has(v.out, "Recommendation: NT slow, for clears that fit in the cache only")) << v.out;
  const CliResult am = run_cli({"verdict", file, "--against-model", "skylake-x-8270cl"});
  ASSERT_EQ(am.exit_code, 0) << am.describe();
  EXPECT_TRUE(has(am.out, "Recommendation: NT slow, for clears that fit in the cache only")) << am.out;
  EXPECT_TRUE(has(am.out, "buffers together fit in")) << am.out;
  const std::string html = path("cached.html");
  const CliResult r = run_cli({"report", file, "--out", html});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string page = read_text(html);
  EXPECT_TRUE(has(page, "Recommendation: NT slow, for clears that fit in the cache only")) << page;
  EXPECT_FALSE(has(page, "for large clears")) << page;
  EXPECT_TRUE(has(page, "buffers together fit in")) << page;  // llc_resident_note, as verdict prints it
  // The page is HTML: another file name is refused, not written as HTML under .png.
  expect_refused(run_cli({"report", file, "--out", path("r.png")}), "the report is an HTML page; use a .html file name");
  expect_refused(run_cli({"report", file, "--out", path(".html")}), "'.html' is only an extension");
  EXPECT_FALSE(std::filesystem::exists(path("r.png")));
  EXPECT_FALSE(std::filesystem::exists(path(".html")));  // no hidden page left behind
  // The same host name on another CPU (a guest moved to another host, a default host name): another
  // machine, not judged by this machine's LLC, and the glibc note says whose the points are.
  const std::string other = json("other-cpu.json", host_name(), good_pair());  // "Test CPU"
  const CliResult o = run_cli({"verdict", other});
  ASSERT_EQ(o.exit_code, 0) << o.describe();
  EXPECT_FALSE(has(o.out, "fit in the cache only")) << o.out;
  EXPECT_TRUE(has(o.out, "Note: the points come from host " + host_name() + " with another CPU (Test CPU; this "
                         "machine's is " + cpu + ")"))
      << o.out;
}

TEST_F(InsightCli, HelpExplainsTheRules) {
  CliResult r = run_cli({"compare", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(has(r.out, "do not overlap")) << r.out;
  EXPECT_TRUE(has(r.out, "the row says \"a prediction for another CPU\" instead")) << r.out;  // as compare does
  EXPECT_TRUE(has(r.out, "Exit codes: 0 no regression, 3 at least one point regressed (measured vs measured, or predicted vs\npredicted; it wins over 4), 4 NEW lacks points of BASE (with --require-all only), 1 run-time failure"))
      << r.out;
  r = run_cli({"verdict", "--help"});
  EXPECT_TRUE(has(r.out, "depends on load")) << r.out;
  // NT good is the README's and the code's rule (it said "ahead at every judged thread count").
  EXPECT_TRUE(has(r.out, "NT good (ahead at some\njudged thread count, behind at none)")) << r.out;
  r = run_cli({"merge", "--help"});
  EXPECT_TRUE(has(r.out, "cpu_vendor,cpu_family,cpu_model_number,cpu_stepping,microcode")) << r.out;
  r = run_cli({"--help"});
  for (const char* c : {"verdict", "compare", "merge", "report"}) EXPECT_TRUE(has(r.out, c)) << r.out;
}

}  // namespace
}  // namespace bwlab::clitest
