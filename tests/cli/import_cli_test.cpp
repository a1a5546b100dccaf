// SPDX-License-Identifier: MIT
// `bwlab import`: exit codes, messages, and the imported files read by simulate --validate and compare.
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/cli/cli_driver.hpp"

namespace bwlab::clitest {
namespace {

const std::string kSeeds = std::string(BWLAB_TEST_DATA_FOR_CLI) + "/seeds/";

TEST(ImportCli, SeedTableIsValidatedByTheModelAndCompared) {
  TempDir dir;
  const std::string table = (dir.path() / "table.csv").string();
  const std::string raw = (dir.path() / "raw.json").string();
  const auto t = run_cli({"import", "lkml-table", kSeeds + "000_297e4c94a53ac7ee.txt", "--csv", table});
  ASSERT_EQ(t.exit_code, 0) << t.describe();
  EXPECT_NE(t.out.find("8 points, Intel Xeon Platinum 8270CL; kernels movnti,stosb"), std::string::npos) << t.out;
  EXPECT_EQ(t.err.find("warning: the points come from"), std::string::npos) << t.err;
  // A thread quoting two machines' tables (a server and a laptop): said, since a plot overlays them.
  const auto two = run_cli({"import", "lkml-table", kSeeds + "001_25ff9f400609ee15.txt", "--csv",
                            (dir.path() / "two.csv").string()});
  ASSERT_EQ(two.exit_code, 0) << two.describe();
  EXPECT_NE(two.err.find("warning: the points come from 2 CPUs (Intel Core i7-1165G7, Intel Xeon Platinum 8358)"),
            std::string::npos)
      << two.describe();
  const std::string csv = read_text(table);
  EXPECT_EQ(csv.find("\nimported,scaling,Oracle X8-2,Intel Xeon Platinum 8270CL,stosb,"), csv.find('\n')) << csv;
  EXPECT_NE(csv.find("imported from perf bench mem memset -l 1 -f x86-64-stosb (lkml-table"), std::string::npos);

  const auto v = run_cli({"simulate", "--validate", table});
  ASSERT_EQ(v.exit_code, 0) << v.describe();
  EXPECT_NE(v.out.find("(imported format)"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("skylake-x-8270cl: 8 rows"), std::string::npos) << v.out;

  // The GUI's plot reads the file like a measured one (offscreen, as `bwlab plot`).
  const auto plot = run_cli({"plot", table, "--kind", "size", "--out", (dir.path() / "t.png").string()});
  EXPECT_EQ(plot.exit_code, 0) << plot.describe();
  EXPECT_NE(plot.err.find("2 curves, 8 points from 1 file"), std::string::npos) << plot.describe();

  // The raw perf runs of the same mail share three points with its table (128MiB movnt, and the
  // perf stat runs at 4096MiB): compare matches them.
  const auto r = run_cli({"import", "perf-bench", kSeeds + "000_297e4c94a53ac7ee.txt", "--json", raw, "--note", "seed 000"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(read_text(raw).find("note: seed 000"), std::string::npos);
  const auto c = run_cli({"compare", table, raw});
  EXPECT_EQ(c.exit_code, 0) << c.describe();
  EXPECT_NE(c.out.find("source 'imported'"), std::string::npos) << c.out;
}

TEST(ImportCli, BadInputIsOneLineAndExitTwo) {
  TempDir dir;
  const std::string out = (dir.path() / "o.csv").string();
  const auto partial = dir.path() / "partial.txt";
  std::ofstream(partial) << "System: box\n\n   x86-64-stosb (5 runs)   x86-64-movnt (5 runs)\n"
                            "   size  BW ( pstdev)  BW ( pstdev)\n"
                            "   16MB  20.38 GB/s ( +- 2.58%)  6.25 GB/s ( +- 0.41%)\n"
                            "  128MB   6.52 GB/s ( +- 0.14%)  fast\n";
  struct Case {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"import", "csv", partial.string(), "--csv", out}, "unknown import format 'csv'; formats are perf-bench, lkml-table, likwid-bench, pmbw, gbench"},
      {{"import", "perfbench", partial.string(), "--csv", out},
       "unknown import format 'perfbench'; did you mean perf-bench? formats are perf-bench, lkml-table, likwid-bench, pmbw, gbench"},
      {{"import", "lkml-table", partial.string()}, "give --csv OUT.csv or --json OUT.json"},
      {{"import", "lkml-table", (dir.path() / "missing.txt").string(), "--csv", out},
       "missing.txt: No such file or directory"},
      {{"import", "lkml-table", partial.string(), "--csv", out},
       "partial.txt line 6: row 128MB: column 'x86-64-movnt': expected a bandwidth, found 'fast'"},
      {{"import", "perf-bench", partial.string(), "--csv", out}, "partial.txt: no perf-bench result found"},
      // The same file twice gave every point twice (compare and verdict then refused "two points").
      {{"import", "lkml-table", partial.string(), partial.string(), "--csv", out},
       "partial.txt is given twice: each file is read once"},
  };
  for (const Case& k : cases) {
    const auto r = run_cli(k.args);
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_NE(r.err.find(k.message), std::string::npos) << r.describe();
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.describe();
  }
  EXPECT_FALSE(std::filesystem::exists(out)) << "nothing written on bad input";
}

// perf bench piped in (`- ` reads standard input; it said "cannot read -"), and one point in two
// files of one import refused with both places (each file alone has it once, so only the
// command sees the pair: a zig-zag on the plot, a verdict refused as "mixing runs").
TEST(ImportCli, StandardInputAndOnePointInTwoFiles) {
  TempDir dir;
  const auto path = [&](const char* name) { return (dir.path() / name).string(); };
  const auto block = [](const char* gbps) {
    return std::string("# Running 'mem/memset' benchmark:\n# function 'x86-64-stosb' (x)\n# Copying 64MB bytes ...\n\n  ") +
           gbps + " GB/sec\n";
  };
  std::ofstream(path("a.txt")) << block("10.0");
  std::ofstream(path("b.txt")) << block("12.0");
  testsupport::ChildProcess piped("/bin/sh", {"-c", "exec \"$0\" import perf-bench - --csv \"$1\" < \"$2\"", bwlab_bin(),
                                              path("in.csv"), path("a.txt")});
  const CliResult in = piped.wait(std::chrono::milliseconds(60000));  // hang guard
  ASSERT_EQ(in.exit_code, 0) << in.describe();
  EXPECT_NE(in.out.find("(standard input): 1 point"), std::string::npos) << in.describe();
  EXPECT_NE(read_text(path("in.csv")).find("(perf-bench, (standard input) line 5)"), std::string::npos)
      << read_text(path("in.csv"));
  const CliResult twice = run_cli({"import", "perf-bench", path("a.txt"), path("b.txt"), "--csv", path("o.csv")});
  EXPECT_EQ(twice.exit_code, 2) << twice.describe();
  EXPECT_NE(twice.err.find(path("b.txt") + " line 5: a second figure for stosb 64MiB 1T perf [imported scaling ? ? ?] "
                           "(the first at " + path("a.txt") + " line 5)"),
            std::string::npos)
      << twice.describe();
  EXPECT_FALSE(std::filesystem::exists(path("o.csv")));
  const CliResult dash_twice = run_cli({"import", "perf-bench", "-", "-", "--csv", path("o.csv")});
  EXPECT_EQ(dash_twice.exit_code, 2) << dash_twice.describe();
  EXPECT_NE(dash_twice.err.find("- (standard input) is given twice"), std::string::npos) << dash_twice.describe();
}

// A partial run exported for Google Benchmark and imported back stays partial (the context's
// bwlab_partial was dropped), and compare of the run with its import names no system change: what
// the import does not know (CPUID, kernel, glibc) is unknown, not changed ("CPU AuthenticAMD
// 26/2/1 (...) -> 0/0/0 ()").
TEST(ImportCli, AGbenchRoundTripKeepsPartialAndInventsNoSystemChange) {
  TempDir dir;
  const auto path = [&](const char* name) { return (dir.path() / name).string(); };
  const CliResult run = run_cli({"run", "--kernels", "stosb,movnti", "--sizes", "4M", "--threads", "1", "--reps", "2",
                                 "--duration", "5ms", "--json", path("r.json"), "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  std::string text = read_text(path("r.json"));
  const std::size_t at = text.find("\"partial\": false");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, std::string("\"partial\": false").size(), "\"partial\": true");
  const std::size_t why = text.find("\"partial_reason\": \"\"");
  ASSERT_NE(why, std::string::npos) << text;
  text.replace(why, std::string("\"partial_reason\": \"\"").size(),
               "\"partial_reason\": \"interrupted by SIGINT after 2 finished points\"");
  std::ofstream(path("part.json")) << text;
  ASSERT_EQ(run_cli({"export", path("part.json"), "--out", path("part.gb.json")}).exit_code, 0);
  const CliResult imp = run_cli({"import", "gbench", path("part.gb.json"), "--csv", path("i.csv"), "--json", path("i.json")});
  ASSERT_EQ(imp.exit_code, 0) << imp.describe();
  for (const char* f : {"i.csv", "i.json"}) {
    const CliResult v = run_cli({"verdict", path(f)});
    EXPECT_NE(v.err.find("is a partial run (interrupted by SIGINT after 2 finished points"), std::string::npos)
        << f << "\n" << v.describe();
  }
  // ... also when the partial file is not the last one given (only the last file's mark was seen):
  // a whole run of other points (the same points twice are refused: one figure per point).
  ASSERT_EQ(run_cli({"run", "--kernels", "stosb,movnti", "--sizes", "8M", "--threads", "1", "--reps", "2", "--duration",
                     "5ms", "--json", path("r2.json"), "--quiet"})
                .exit_code,
            0);
  ASSERT_EQ(run_cli({"export", path("r2.json"), "--out", path("whole.gb.json")}).exit_code, 0);
  const CliResult two = run_cli({"import", "gbench", path("part.gb.json"), path("whole.gb.json"), "--json", path("two.json")});
  ASSERT_EQ(two.exit_code, 0) << two.describe();
  EXPECT_NE(read_text(path("two.json")).find("\"partial\": true"), std::string::npos);
  // The mark also survives a CSV's export (its last row's flag) and a merge into a fleet CSV.
  ASSERT_EQ(run_cli({"export", path("i.csv"), "--out", path("csv.gb.json")}).exit_code, 0);
  EXPECT_NE(read_text(path("csv.gb.json")).find("\"bwlab_partial\": \"interrupted by SIGINT after 2 finished points"),
            std::string::npos)
      << read_text(path("csv.gb.json"));
  ASSERT_EQ(run_cli({"merge", path("part.json"), "--out", path("fleet.csv")}).exit_code, 0);
  const CliResult fv = run_cli({"verdict", path("fleet.csv")});
  EXPECT_NE(fv.err.find("fleet.csv holds a partial run (host "), std::string::npos) << fv.describe();
  EXPECT_NE(fv.err.find("'s run interrupted by SIGINT after 2 finished points"), std::string::npos) << fv.describe();
  const CliResult c = run_cli({"compare", path("part.json"), path("i.json")});
  EXPECT_EQ(c.err.find("systems differ"), std::string::npos) << c.describe();
  EXPECT_EQ(c.out.find("systems differ"), std::string::npos) << c.describe();
  EXPECT_EQ(c.out.find("0/0/0"), std::string::npos) << c.describe();
}

TEST(ImportCli, VerdictAndReportOfImportedFiguresSayWhatIsUnknown) {
  // A seed table's figures are a median and a pstdev per point: no min..max, no window, no host of
  // bwlab's own.
  TempDir dir;
  const std::string json = (dir.path() / "seed.json").string();
  const std::string seed = kSeeds + "000_297e4c94a53ac7ee.txt";
  ASSERT_EQ(run_cli({"import", "lkml-table", seed, "--json", json}).exit_code, 0);

  const auto v = run_cli({"verdict", json});
  ASSERT_EQ(v.exit_code, 0) << v.describe();
  // A mean +- x% over 5 runs bounds every run (Samuelson): the seeds' own call, NT slow on Skylake-X
  // (it said "cannot judge" for want of a min..max).
  EXPECT_NE(v.out.find("6.99 [6.99..6.99] +-0.0% bound  6.73 [6.62..6.85] +-0.4% bound  NT behind (ranges apart)"),
            std::string::npos)
      << v.out;
  EXPECT_NE(v.out.find("Recommendation: NT slow."), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("Samuelson's inequality"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("; window unknown\n"), std::string::npos) << v.out;
  EXPECT_EQ(v.out.find("nan"), std::string::npos) << v.out;
  EXPECT_EQ(v.out.find("missing or zero"), std::string::npos) << v.out;

  const std::string html = (dir.path() / "seed.html").string();
  const auto r = run_cli({"report", json, "--out", html});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::string page = read_text(html);
  EXPECT_NE(page.find("<tr><th>host</th><td>Oracle X8-2 (imported from " + seed + ")</td></tr>"), std::string::npos)
      << page.substr(0, 2000);
  EXPECT_EQ(page.find("<tr><th>host</th><td></td></tr>"), std::string::npos);
  EXPECT_EQ(page.find(">nan<"), std::string::npos);
  EXPECT_NE(page.find("the points were imported, not measured by bwlab on this machine"), std::string::npos);
}

// A table that states no thread count (no perf command line above it): bwlab import puts 1 there
// and flags it; the verdict, the report's chart and the plot said "1 thread" as a fact.
TEST(ImportCli, AnAssumedThreadCountIsSaidWhereverItIsNamed) {
  TempDir dir;
  const std::string text = (dir.path() / "table.txt").string(), json = (dir.path() / "t.json").string();
  std::ofstream(text) << "                 x86-64-stosb (5 runs)     x86-64-movnt (5 runs)       speedup\n"
                         "       size            BW        (   pstdev)          BW       (   pstdev)\n"
                         "       16MB      17.35 GB/s   ( +- 13.27%)        11.61 GB/s   ( +-  0.49%)     -33.08%\n"
                         "      128MB       5.31 GB/s   ( +-  0.13%)        11.72 GB/s   ( +-  0.44%)    +120.52%\n"
                         "     1024MB       5.42 GB/s   ( +-  0.13%)        11.78 GB/s   ( +-  0.03%)    +117.34%\n";
  const CliResult i = run_cli({"import", "lkml-table", text, "--json", json});
  ASSERT_EQ(i.exit_code, 0) << i.describe();
  const CliResult v = run_cli({"verdict", json});
  ASSERT_EQ(v.exit_code, 0) << v.describe();
  EXPECT_NE(v.out.find("; window unknown; threads not stated by the source (1 assumed)\n"), std::string::npos)
      << v.out;
  const std::string html = (dir.path() / "t.html").string();
  ASSERT_EQ(run_cli({"report", json, "--out", html}).exit_code, 0);
  EXPECT_NE(read_text(html).find("GB/s against size, 1 thread (assumed: the source states no thread count)"),
            std::string::npos);
  const std::string png = (dir.path() / "t.png").string();
  ASSERT_EQ(run_cli({"plot", json, "-o", png}).exit_code, 0);
  // A perf table's thread count is perf's: 1, stated by the command; nothing assumed.
  const std::string seed_json = (dir.path() / "seed.json").string();
  ASSERT_EQ(run_cli({"import", "lkml-table", kSeeds + "000_297e4c94a53ac7ee.txt", "--json", seed_json}).exit_code, 0);
  EXPECT_EQ(run_cli({"verdict", seed_json}).out.find("1 assumed"), std::string::npos);
}

}  // namespace
}  // namespace bwlab::clitest
