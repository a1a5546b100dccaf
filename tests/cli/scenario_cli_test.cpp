// SPDX-License-Identifier: MIT
// `bwlab run --scenario ...` as a separate process: bad arguments (exit 2, one clear line), a tiny
// real run of every scenario whose CSV and JSON are read back, and hugetlb pages reserved in the
// set-up where root allows (restored afterwards; skipped with the reason otherwise).
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/report/csv.hpp"
#include "core/report/json.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "tests/cli/cli_driver.hpp"

namespace bwlab::clitest {
namespace {

using namespace std::chrono_literals;

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// `bwlab run --scenario <s>` with tiny defaults for what `args` does not set.
std::vector<std::string> scenario_run(const std::string& scenario, std::vector<std::string> args) {
  std::vector<std::pair<std::string, std::string>> defaults = {{"--reps", "1"}, {"--duration", "2ms"}};
  if (scenario != "mix") defaults.push_back({"--threads", "1"});
  if (scenario != "tlbflush") defaults.push_back({"--sizes", "1M"});
  for (const auto& [opt, value] : defaults)
    if (std::find(args.begin(), args.end(), opt) == args.end()) {
      args.push_back(opt);
      args.push_back(value);
    }
  args.insert(args.begin(), {"run", "--scenario", scenario});
  return args;
}

struct BadRow {
  std::string name;
  std::vector<std::string> args;
  std::vector<std::string> expect;
};
void PrintTo(const BadRow& r, std::ostream* os) { *os << r.name; }

class ScenarioBadArgs : public ::testing::TestWithParam<BadRow> {};

TEST_P(ScenarioBadArgs, ExitTwoWithOneClearLine) {
  const BadRow& row = GetParam();
  const CliResult r = run_cli(row.args, 60s);
  ASSERT_FALSE(r.timed_out) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_TRUE(r.out.empty()) << r.describe();
  const auto lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_EQ(lines[0].rfind("bwlab: error: ", 0), 0u) << r.describe();
  for (const auto& e : row.expect) EXPECT_TRUE(contains(r.err, e)) << "expected '" << e << "'\n" << r.describe();
}

INSTANTIATE_TEST_SUITE_P(
    Cli, ScenarioBadArgs,
    ::testing::Values(
        BadRow{"unknown_scenario", scenario_run("stampede", {}), {"unknown --scenario 'stampede'", "tlbflush"}},
        BadRow{"mix_without_mix", scenario_run("mix", {}), {"--scenario mix needs --mix"}},
        BadRow{"mix_zero_threads", scenario_run("mix", {"--mix", "stosb:0"}), {"stosb:0", "1 thread or more (got 0)"}},
        BadRow{"mix_no_count", scenario_run("mix", {"--mix", "stosb"}), {"kernel:threads"}},
        BadRow{"mix_twice", scenario_run("mix", {"--mix", "stosb:1,stosb:1"}), {"appears twice"}},
        BadRow{"mix_too_many", scenario_run("mix", {"--mix", "stosb:4096"}), {"4096 threads"}},
        BadRow{"mix_with_threads", scenario_run("mix", {"--mix", "stosb:1", "--threads", "2"}), {"--threads"}},
        BadRow{"victim_unknown_kernel", scenario_run("victim", {"--victim", "bogus"}), {"unknown kernel 'bogus'"}},
        BadRow{"victim_option_elsewhere", {"run", "--victim", "stosb"}, {"--victim does not apply", "scaling"}},
        BadRow{"aggressor_option_elsewhere", scenario_run("mix", {"--mix", "stosb:1", "--aggressor", "stosb"}),
               {"--aggressor does not apply"}},
        BadRow{"entries_elsewhere", scenario_run("pagefault", {"--entries", "1"}), {"--entries does not apply"}},
        BadRow{"entries_zero", scenario_run("tlbflush", {"--entries", "0"}), {"bad --entries '0'"}},
        BadRow{"entries_backwards", scenario_run("tlbflush", {"--entries", "8..2"}), {"below the start"}},
        BadRow{"tlbflush_huge_pages", scenario_run("tlbflush", {"--pages", "thp"}), {"4 KiB pages", "thp"}},
        BadRow{"tlbflush_reader_size", scenario_run("tlbflush", {"--sizes", "5000"}), {"whole 4 KiB pages; 5000B is not"}},
        BadRow{"pagefault_partial_page", scenario_run("pagefault", {"--sizes", "5000"}), {"not a multiple"}},
        BadRow{"pagefault_kernels", scenario_run("pagefault", {"--kernels", "stosb"}), {"--kernels does not apply"}},
        BadRow{"pagefault_fill", scenario_run("pagefault", {"--fill", "0xff"}), {"--fill does not apply"}},
        BadRow{"reject_noisy_elsewhere", scenario_run("victim", {"--reject-noisy"}),
               {"--reject-noisy does not apply to --scenario victim", "scaling"}},
        BadRow{"membind_remote_one_node", scenario_run("victim", {"--membind", "remote"}),
               {"--membind remote", "one NUMA node"}},
        BadRow{"hugetlb_not_enough", scenario_run("pagefault", {"--pages", "hugetlb2m", "--sizes", "64G"}),
               {"needs 32768 free 2 MiB huge pages", "nr_hugepages", "does not change system settings"}}),
    [](const auto& info) { return info.param.name; });

// ---- tiny real runs ---------------------------------------------------------------------------

struct Run {
  TempDir dir;
  CliResult result;
  std::vector<Point> csv;
  JsonDocument json;
};

std::unique_ptr<Run> run_with_files(std::vector<std::string> args, std::chrono::milliseconds timeout = 60s) {
  auto r = std::make_unique<Run>();
  const std::string csv = (r->dir.path() / "out.csv").string(), json = (r->dir.path() / "out.json").string();
  args.insert(args.end(), {"--csv", csv, "--json", json});
  r->result = run_cli(args, timeout);
  if (r->result.exit_code == 0) {
    std::ifstream c(csv), j(json);
    r->csv = read_csv(c);
    r->json = read_json(j);
  }
  return r;
}

// `bwlab report` of a run's JSON: the HTML page.
std::string report_of(const Run& r) {
  const std::string html = (r.dir.path() / "report.html").string();
  const CliResult rep = run_cli({"report", (r.dir.path() / "out.json").string(), "--out", html});
  EXPECT_EQ(rep.exit_code, 0) << rep.describe();
  return read_text(html);
}

TEST(ScenarioCli, VictimRunWritesBaselineFirst) {
  auto r = run_with_files(scenario_run("victim", {"--victim", "stosb", "--aggressor", "movnti", "--threads", "1..max"}));
  ASSERT_EQ(r->result.exit_code, 0) << r->result.describe();
  ASSERT_FALSE(r->csv.empty());
  EXPECT_EQ(r->csv.front().scenario, "victim");
  EXPECT_EQ(r->csv.front().peer_threads, 0);
  EXPECT_EQ(r->csv.front().slowdown_pct, 0);
  EXPECT_EQ(r->json.points.size(), r->csv.size());
  EXPECT_TRUE(contains(r->result.out, "bwlab victim: measured")) << r->result.describe();
  EXPECT_TRUE(contains(r->result.out, "slowdown")) << r->result.describe();
  // The HTML report carries the scenario's columns: the aggressors' kernel, k, the slowdown.
  const std::string page = report_of(*r);
  for (const char* head : {"<th>aggressor</th>", "<th>k</th>", "<th>slowdown</th>", "<th>aggressors GB/s</th>"})
    EXPECT_TRUE(contains(page, head)) << head;
}

TEST(ScenarioCli, MixRunWritesOneRowPerKernel) {
  auto r = run_with_files(scenario_run("mix", {"--mix", "stosb:1"}));
  ASSERT_EQ(r->result.exit_code, 0) << r->result.describe();
  ASSERT_EQ(r->csv.size(), 1u);
  EXPECT_EQ(r->csv[0].role, "mix");
  EXPECT_EQ(r->csv[0].threads, 1);
  EXPECT_TRUE(contains(r->result.out, "bwlab mix: measured")) << r->result.describe();
}

TEST(ScenarioCli, PagefaultRunReportsFaultsAndHugePages) {
  auto r = run_with_files(scenario_run("pagefault", {"--pages", "thp", "--sizes", "4M"}));
  ASSERT_EQ(r->result.exit_code, 0) << r->result.describe();
  ASSERT_EQ(r->csv.size(), 1u);
  const Point& p = r->csv[0];
  EXPECT_EQ(p.pages, "thp");
  EXPECT_EQ(p.pages_touched_median, p.bytes_median / 4096);
  ASSERT_FALSE(std::isnan(p.huge_pct));
  // What can fail: the outcome matches the kernel's THP setting. Under always/madvise the kernel
  // may still refuse (fragmentation), and then the point must say so.
  const bool flagged = std::any_of(p.flags.begin(), p.flags.end(),
                                   [](const std::string& f) { return contains(f, "thp asked for"); });
  EXPECT_EQ(flagged, p.huge_pct < 50) << "huge_pct " << p.huge_pct;
  const std::string thp = thp_setting();
  if (thp == "never") {
    EXPECT_EQ(p.huge_pct, 0) << "THP is off, yet huge pages were found";
    EXPECT_TRUE(flagged);
  } else if (!thp.empty()) {
    EXPECT_TRUE(p.huge_pct > 0 || flagged) << "THP " << thp;
  }
  EXPECT_GT(p.faults_median, 0);
  EXPECT_TRUE(contains(r->result.out, "GB/s made ready")) << r->result.describe();
  EXPECT_TRUE(contains(r->result.out, "faults/s")) << r->result.describe();
}

TEST(ScenarioCli, TlbflushRunReportsEveryEntryCount) {
  auto r = run_with_files(scenario_run("tlbflush", {"--entries", "1..4", "--sizes", "64K"}));
  ASSERT_EQ(r->result.exit_code, 0) << r->result.describe();
  ASSERT_EQ(r->csv.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(r->csv[i].entries, 1 << i);
  EXPECT_TRUE(contains(r->result.out, "munmap ns/call")) << r->result.describe();
  // The HTML report shows the run's own figures (ns per call and per read), never a GB/s of nan.
  const std::string page = report_of(*r);
  EXPECT_TRUE(contains(page, "<th>munmap ns/call (+- pstdev)</th>")) << page;
  EXPECT_TRUE(contains(page, "<th>reader ns/read (+- pstdev)</th>")) << page;
  EXPECT_FALSE(contains(page, ">nan<")) << page;
}

// ---- hugetlb: reserve in the set-up where root allows, restore afterwards -------------------------

class HugeReservation {
 public:
  HugeReservation(const std::string& size_dir, long extra) {
    path_ = "/sys/kernel/mm/hugepages/" + size_dir + "/nr_hugepages";
    if (::geteuid() != 0) {
      skip_ = "needs root to reserve huge pages in " + path_ + " (bwlab itself never does)";
      return;
    }
    std::ifstream in(path_);
    if (!(in >> old_)) {
      skip_ = "cannot read " + path_ + " (this kernel offers no such pages)";
      return;
    }
    const long free_now = read_long(free_path());
    if (free_now >= extra) return;  // enough already: nothing to change
    write(old_ + extra - free_now);
    changed_ = true;
    if (read_long(free_path()) < extra)
      skip_ = "asked the kernel for " + std::to_string(extra) + " free pages in " + path_ + ", got " +
              std::to_string(read_long(free_path())) + " (memory too fragmented?)";
  }
  ~HugeReservation() {
    if (changed_) write(old_);
  }
  const std::string& skip_reason() const { return skip_; }

 private:
  std::string free_path() const { return path_.substr(0, path_.rfind('/')) + "/free_hugepages"; }
  static long read_long(const std::string& p) {
    std::ifstream in(p);
    long v = 0;
    in >> v;
    return v;
  }
  void write(long v) const { std::ofstream(path_) << v << '\n'; }
  std::string path_, skip_;
  long old_ = 0;
  bool changed_ = false;
};

// tlbflush stopped within a size keeps that size's finished reps as points; the table's last line
// says they have fewer reps than asked ("after 12 of 12 points" alone read as a whole sweep).
TEST(ScenarioCli, TlbflushInterruptedWithinASizeSaysItsPointsAreCutShort) {
  TempDir dir;
  const fs::path csv = dir.path() / "t.csv";
  // Three sizes of 40 reps of 10 ms windows, measured in turn. The time the second size took
  // (between the CSV's first and second size) sets when to stop the third: 40% into it, reps of
  // fixed-length windows away from either end (no timing is asserted).
  CliProcess proc({"run", "--scenario", "tlbflush", "--entries", "1..2", "--threads", "1", "--sizes", "64K,128K,256K",
                   "--reps", "40", "--duration", "10ms", "--csv", csv.string()});
  const std::size_t per_size = 2;  // E = 1 and 2 at 1 thread
  const auto rows = [&] { return fs::exists(csv) ? read_csv_file(csv).size() : 0u; };
  while (rows() < per_size && proc.age() < 120s && !proc.poll()) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(rows(), per_size) << "the first size did not finish (hang guard): " << proc.wait(1s).describe();
  const auto first = proc.age();
  while (rows() < 2 * per_size && proc.age() < 240s && !proc.poll()) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(rows(), 2 * per_size) << "the second size did not finish (hang guard)";
  std::this_thread::sleep_for((proc.age() - first) * 2 / 5);
  ASSERT_FALSE(proc.poll()) << "the run ended before the signal: " << proc.wait(1s).describe();
  ASSERT_TRUE(proc.send(SIGINT));
  const CliResult r = proc.wait(60s);  // hang guard only
  ASSERT_FALSE(r.timed_out) << r.describe();
  EXPECT_EQ(r.exit_code, 130) << r.describe();
  // "after 6 of 6 points" alone read as a whole sweep: the points stopped within their reps say so.
  EXPECT_TRUE(contains(r.out, fmt::format("partial: interrupted by SIGINT after {} of {} points, {} of them stopped "
                                          "short of --reps 40 at ",
                                          3 * per_size, 3 * per_size, per_size)))
      << r.describe();
  EXPECT_TRUE(contains(r.out, " reps each; the finished reps are kept (each point's flag says how many)\n"))
      << r.describe();

  const std::vector<Point> kept = read_csv_file(csv);
  ASSERT_EQ(kept.size(), 3 * per_size);
  for (std::size_t i = 2 * per_size; i < kept.size(); ++i) {
    EXPECT_LT(kept[i].reps, 40) << i;
    EXPECT_GE(kept[i].reps, 1) << i;
  }
}

TEST(ScenarioCli, Hugetlb2mScalingAndPagefault) {
  HugeReservation pool("hugepages-2048kB", 4);
  if (!pool.skip_reason().empty()) GTEST_SKIP() << pool.skip_reason();
  auto s = run_with_files({"run", "--kernels", "stosb", "--pages", "hugetlb2m", "--sizes", "4M", "--threads", "1",
                           "--reps", "1", "--duration", "2ms"});
  ASSERT_EQ(s->result.exit_code, 0) << s->result.describe();
  ASSERT_EQ(s->csv.size(), 1u);
  EXPECT_EQ(s->csv[0].pages, "hugetlb2m");
  EXPECT_EQ(s->csv[0].huge_pct, 100);  // smaps: Private_Hugetlb covers the buffer
  auto p = run_with_files(scenario_run("pagefault", {"--pages", "hugetlb2m", "--sizes", "4M"}));
  ASSERT_EQ(p->result.exit_code, 0) << p->result.describe();
  ASSERT_EQ(p->csv.size(), 1u);
  EXPECT_EQ(p->csv[0].pages_touched_median, p->csv[0].bytes_median / (2 << 20));  // one touch per huge page
  EXPECT_EQ(p->csv[0].huge_pct, 100);
}

// A page size the kernel does not offer is said before any --sizes complaint (a 64 MiB region on
// hugetlb1g was first refused as "not a multiple of the 1073741824-byte pages"): no size helps then.
TEST(ScenarioCli, PagefaultSaysAMissingPageSizeBeforeTheRegionSize) {
  const bool offered = std::filesystem::is_directory("/sys/kernel/mm/hugepages/hugepages-1048576kB");
  const CliResult r = run_cli(scenario_run("pagefault", {"--pages", "hugetlb1g", "--sizes", "64M"}), 60s);
  ASSERT_FALSE(r.timed_out) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  if (offered) {
    EXPECT_TRUE(contains(r.err, "--sizes 64MiB is not a multiple of the 1 GiB pages of --pages hugetlb1g")) << r.describe();
  } else {
    EXPECT_TRUE(contains(r.err, "--pages hugetlb1g: this kernel offers no 1 GiB huge pages")) << r.describe();
    EXPECT_FALSE(contains(r.err, "multiple")) << r.describe();
  }
}

TEST(ScenarioCli, Hugetlb1gPagefault) {
  HugeReservation pool("hugepages-1048576kB", 1);
  if (!pool.skip_reason().empty()) GTEST_SKIP() << pool.skip_reason();
  auto p = run_with_files(scenario_run("pagefault", {"--pages", "hugetlb1g", "--sizes", "1G", "--duration", "1ms"}),
                          60s);
  ASSERT_EQ(p->result.exit_code, 0) << p->result.describe();
  ASSERT_EQ(p->csv.size(), 1u);
  EXPECT_EQ(p->csv[0].pages_touched_median, p->csv[0].bytes_median / (1 << 30));
  EXPECT_EQ(p->csv[0].huge_pct, 100);
}

}  // namespace
}  // namespace bwlab::clitest
