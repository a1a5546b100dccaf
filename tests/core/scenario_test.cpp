// SPDX-License-Identifier: MIT
// The contention scenarios: parsing, validation, and tiny real runs whose rows are checked for
// structure and exact counts. No bandwidth figure is asserted.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/report/csv.hpp"
#include "core/report/scenario_table.hpp"
#include "core/scenario/scenario.hpp"
#include "core/sysinfo/hugepages.hpp"
#include "core/sysinfo/sysinfo.hpp"

namespace bwlab {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

const Topology& topo() {
  static const Topology t = Topology::local();
  return t;
}
const CpuFeatures& cpu() {
  static const CpuFeatures c = detect_cpu_features();
  return c;
}
int max_threads() { return static_cast<int>(topo().allowed_pus().size()); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// A tiny run: a few milliseconds per window.
ScenarioSpec tiny(Scenario s) {
  ScenarioSpec spec;
  spec.scenario = s;
  spec.sweep.sizes = {64 << 10};
  for (int t = 1; t <= std::min(2, max_threads()); ++t) spec.sweep.threads.push_back(t);
  spec.sweep.reps = 2;
  spec.sweep.duration = 3ms;
  return spec;
}

SweepResult run(ScenarioSpec& spec) {
  validate_scenario(spec, topo(), cpu(), memory_available_bytes());
  SweepObserver quiet;
  return run_scenario(spec, topo(), cpu(), quiet);
}

// ---- parsing ----------------------------------------------------------------------------------

TEST(ScenarioParse, NamesAndErrors) {
  EXPECT_EQ(parse_scenario("victim"), Scenario::victim);
  EXPECT_EQ(parse_scenario("tlbflush"), Scenario::tlbflush);
  EXPECT_EQ(parse_scenario("VICTIM"), Scenario::victim);  // any case, as --kernels STOSB
  EXPECT_EQ(to_string(Scenario::pagefault), "pagefault");
  EXPECT_TRUE(contains(error_of([] { parse_scenario("stampede"); }), "scaling, victim, mix, pagefault, tlbflush"));
  EXPECT_EQ(error_of([] { parse_scenario("victims"); }), "unknown --scenario 'victims'; did you mean victim?");
}

TEST(ScenarioParse, Mix) {
  const auto m = parse_mix("stosb:1, movnt:2", cpu());
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].kernel, "stosb");
  EXPECT_EQ(m[0].threads, 1);
  EXPECT_EQ(m[1].kernel, "movnti");  // alias resolved
  EXPECT_EQ(m[1].threads, 2);
  EXPECT_TRUE(contains(error_of([] { parse_mix("stosb", cpu()); }), "kernel:threads"));
  // A count of 0 is said as such: "use kernel:threads" over "stosb:0" named a form that was right.
  EXPECT_TRUE(contains(error_of([] { parse_mix("stosb:0", cpu()); }), "a kernel runs on 1 thread or more (got 0)"));
  EXPECT_TRUE(contains(error_of([] { parse_mix("stosb:-2", cpu()); }), "(got -2)"));
  EXPECT_TRUE(contains(error_of([] { parse_mix("stosb:x", cpu()); }), "stosb:x"));
  EXPECT_TRUE(contains(error_of([] { parse_mix("bogus:1", cpu()); }), "unknown kernel 'bogus'"));
  EXPECT_TRUE(contains(error_of([] { parse_mix("stosb:1,stosb:2", cpu()); }), "appears twice"));
  // "all:4" ran stosb alone and said nothing.
  EXPECT_TRUE(contains(error_of([] { parse_mix("all:4", cpu()); }), "name one kernel per part"));
}

TEST(ScenarioParse, Entries) {
  EXPECT_EQ(parse_entries("1..512"), (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512}));
  EXPECT_EQ(parse_entries("3,5..20"), (std::vector<int>{3, 5, 10, 20}));
  EXPECT_TRUE(contains(error_of([] { parse_entries("0"); }), "bad --entries '0'"));
  EXPECT_TRUE(contains(error_of([] { parse_entries("300000"); }), "1..262144"));
  EXPECT_TRUE(contains(error_of([] { parse_entries("8..2"); }), "below the start"));
  // An end left out is named as a range, as --threads and --sizes name it (it read "bad --entries ''").
  EXPECT_EQ(error_of([] { parse_entries("1.."); }),
            "bad --entries range '1..': give a start and an end joined by two dots, e.g. 1..512");
}

// ---- huge pages and memory checks -------------------------------------------------------------

struct FakeSysfs {
  fs::path root = fs::temp_directory_path() / ("bwlab-hugepages-" + std::to_string(::getpid()));
  FakeSysfs(long total, long free, long resv) {
    const fs::path d = root / "hugepages-2048kB";
    fs::create_directories(d);
    std::ofstream(d / "nr_hugepages") << total << '\n';
    std::ofstream(d / "free_hugepages") << free << '\n';
    std::ofstream(d / "resv_hugepages") << resv << '\n';
  }
  ~FakeSysfs() { fs::remove_all(root); }
};

TEST(HugePages, PoolIsReadAndShortageSaysHowToReserve) {
  FakeSysfs sys(10, 8, 3);
  const HugePool p = huge_pool(2u << 20, sys.root.string());
  EXPECT_TRUE(p.exists);
  EXPECT_EQ(p.total, 10);
  EXPECT_EQ(p.available(), 5);
  EXPECT_NO_THROW(require_huge_pages(2u << 20, 5, "test", sys.root.string()));
  const std::string e = error_of([&] { require_huge_pages(2u << 20, 8, "--pages hugetlb2m", sys.root.string()); });
  EXPECT_TRUE(contains(e, "needs 8 free 2 MiB huge pages, but 5 are available")) << e;
  EXPECT_TRUE(contains(e, "echo 13 > " + (sys.root / "hugepages-2048kB").string() + "/nr_hugepages")) << e;
  EXPECT_TRUE(contains(e, "bwlab does not change system settings")) << e;
  const std::string none = error_of([&] { require_huge_pages(1u << 30, 1, "--pages hugetlb1g", sys.root.string()); });
  EXPECT_TRUE(contains(none, "offers no 1 GiB huge pages")) << none;
}

TEST(MemoryChecks, RemoteNeedsASecondNodeAndWorksOnSyntheticTwoNodes) {
  const Topology one = Topology::from_synthetic("package:1 core:2 pu:1");
  const Topology two = Topology::from_synthetic("package:2 numa:1 core:2 pu:1");
  const MemBind remote = parse_membind("remote");
  const std::string e = error_of([&] { validate_memory(remote, Pages::small4k, {1 << 20}, {1}, one, 1ull << 34); });
  EXPECT_TRUE(contains(e, "--membind remote needs memory on another NUMA node")) << e;
  EXPECT_TRUE(contains(e, "one NUMA node")) << e;
  EXPECT_TRUE(validate_memory(remote, Pages::small4k, {1 << 20}, {2}, two, 1ull << 34).empty());
  const auto w = validate_memory(parse_membind("interleave"), Pages::small4k, {1 << 20}, {1}, one, 1ull << 34);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_TRUE(contains(w[0], "same as local"));
  EXPECT_TRUE(validate_memory(parse_membind("interleave"), Pages::small4k, {1 << 20}, {1}, two, 1ull << 34).empty());
}

TEST(ScenarioValidate, RefusesWhatDoesNotApply) {
  ScenarioSpec t = tiny(Scenario::tlbflush);
  t.entries = {1};
  t.sweep.pages = Pages::thp;
  EXPECT_TRUE(contains(error_of([&] { validate_scenario(t, topo(), cpu(), 1ull << 34); }), "4 KiB pages"));
  t.sweep.pages = Pages::small4k;
  t.sweep.sizes = {5000};
  EXPECT_TRUE(contains(error_of([&] { validate_scenario(t, topo(), cpu(), 1ull << 34); }), "whole 4 KiB pages"));

  ScenarioSpec pf = tiny(Scenario::pagefault);
  pf.sweep.sizes = {12345};
  EXPECT_TRUE(contains(error_of([&] { validate_scenario(pf, topo(), cpu(), 1ull << 34); }), "not a multiple"));

  ScenarioSpec mix = tiny(Scenario::mix);
  mix.mix = {{"stosb", max_threads()}, {"movnti", 1}};
  EXPECT_TRUE(contains(error_of([&] { validate_scenario(mix, topo(), cpu(), 1ull << 34); }), "--mix asks for"));

  ScenarioSpec v = tiny(Scenario::victim);
  v.victims = {"stosb"};
  v.aggressors = {"movnti"};
  v.sweep.threads = {max_threads()};
  validate_scenario(v, topo(), cpu(), 1ull << 34);
  EXPECT_EQ(v.sweep.threads.front(), 1);  // the k = 0 baseline is always measured

  ScenarioSpec synthetic = tiny(Scenario::pagefault);
  const Topology other = Topology::from_synthetic("package:2 numa:1 core:2 pu:1");
  EXPECT_TRUE(contains(error_of([&] { validate_scenario(synthetic, other, cpu(), 1ull << 34); }), "local machine"));
}

// ---- tiny real runs ---------------------------------------------------------------------------

TEST(ScenarioRun, VictimRowsStartWithTheirBaseline) {
  ScenarioSpec spec = tiny(Scenario::victim);
  spec.victims = {"stosb", "movnti"};
  spec.aggressors = {"movnti"};
  const SweepResult r = run(spec);
  ASSERT_FALSE(r.stopped);
  const std::size_t per_pair = spec.sweep.threads.size();
  ASSERT_EQ(r.points.size(), 2 * per_pair);
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const Point& p = r.points[i];
    const Point& base = r.points[i - i % per_pair];
    EXPECT_EQ(p.scenario, "victim");
    EXPECT_EQ(p.role, "victim");
    EXPECT_EQ(p.kernel, spec.victims[i / per_pair]);
    EXPECT_EQ(p.peer_kernel, "movnti");
    EXPECT_EQ(p.peer_threads, static_cast<int>(i % per_pair));
    EXPECT_EQ(p.threads, p.peer_threads + 1);
    EXPECT_EQ(p.reps, 2);
    EXPECT_EQ(base.peer_threads, 0);  // every series starts at k = 0
    EXPECT_EQ(p.baseline_gbps, base.gbps_median);
    EXPECT_NEAR(p.slowdown_pct, (1 - p.gbps_median / p.baseline_gbps) * 100, 1e-9);
    ASSERT_EQ(p.per_thread.size(), static_cast<std::size_t>(p.threads));
    EXPECT_EQ(p.per_thread[0].kernel, p.kernel);
    for (std::size_t t = 1; t < p.per_thread.size(); ++t) EXPECT_EQ(p.per_thread[t].kernel, "movnti");
    // The row's figures are the victim's alone.
    EXPECT_EQ(p.gbps_reps, p.per_thread[0].gbps_reps);
    if (p.peer_threads == 0) {
      EXPECT_EQ(p.slowdown_pct, 0);
      EXPECT_EQ(p.peer_gbps_median, 0);
    } else {
      EXPECT_GT(p.peer_gbps_median, 0);
    }
  }
  // The table shows every row; the CSV keeps the scenario columns.
  std::ostringstream table, csv;
  print_scenario_tables(table, r.points);
  EXPECT_TRUE(contains(table.str(), "bwlab victim: measured")) << table.str();
  write_csv(csv, r.points);
  std::istringstream in(csv.str());
  const auto back = read_csv(in);
  ASSERT_EQ(back.size(), r.points.size());
  EXPECT_EQ(back.back().peer_kernel, "movnti");
  EXPECT_EQ(back.back().peer_threads, r.points.back().peer_threads);
  EXPECT_EQ(back.back().slowdown_pct, r.points.back().slowdown_pct);
}

TEST(ScenarioRun, MixRowsSumPerKernel) {
  if (max_threads() < 2) GTEST_SKIP() << "a mix of two kernels needs 2 allowed PUs, this process has " << max_threads();
  ScenarioSpec spec = tiny(Scenario::mix);
  spec.mix = {{"stosb", 1}, {"movnti", max_threads() - 1}};
  const SweepResult r = run(spec);
  ASSERT_EQ(r.points.size(), 2u);
  std::set<int> slots;
  for (std::size_t g = 0; g < 2; ++g) {
    const Point& p = r.points[g];
    EXPECT_EQ(p.scenario, "mix");
    EXPECT_EQ(p.role, "mix");
    EXPECT_EQ(p.kernel, spec.mix[g].kernel);
    EXPECT_EQ(p.threads, spec.mix[g].threads);
    EXPECT_EQ(p.peer_kernel, spec.mix[1 - g].kernel);
    EXPECT_EQ(p.peer_threads, spec.mix[1 - g].threads);
    ASSERT_EQ(p.per_thread.size(), static_cast<std::size_t>(p.threads));
    ASSERT_EQ(p.gbps_reps.size(), 2u);
    for (std::size_t rep = 0; rep < 2; ++rep) {
      double sum = 0;
      for (const auto& t : p.per_thread) sum += t.gbps_reps[rep];
      EXPECT_DOUBLE_EQ(p.gbps_reps[rep], sum);  // a kernel's row is the sum of its threads
    }
    for (const auto& t : p.per_thread) {
      EXPECT_EQ(t.kernel, p.kernel);
      slots.insert(t.slot);
    }
  }
  EXPECT_EQ(slots.size(), static_cast<std::size_t>(max_threads()));  // every thread in exactly one row
}

TEST(ScenarioRun, PagefaultCountsThePagesItTouched) {
  ScenarioSpec spec = tiny(Scenario::pagefault);
  spec.sweep.sizes = {1 << 20};
  const SweepResult r = run(spec);
  ASSERT_EQ(r.points.size(), spec.sweep.threads.size());
  for (const Point& p : r.points) {
    EXPECT_EQ(p.scenario, "pagefault");
    EXPECT_EQ(p.kernel, "pagefault");
    EXPECT_EQ(p.size_bytes, 1u << 20);
    EXPECT_EQ(p.huge_pct, 0);  // 4k: MADV_NOHUGEPAGE
    for (const auto& t : p.per_thread) {
      ASSERT_GE(t.passes_total, 2u);  // at least one cycle per repetition
      EXPECT_EQ(t.bytes_total, t.passes_total * (1u << 20));
      EXPECT_EQ(t.ops_total, t.passes_total * 256);  // one touch per 4 KiB page
    }
    EXPECT_EQ(p.pages_touched_median, p.bytes_median / 4096);
    EXPECT_GT(p.faults_median, 0);
    EXPECT_GT(p.faults_per_s, 0);
    EXPECT_GT(p.gbps_median, 0);
  }
}

// Sets its stop flag once `windows` windows are done: a run stopped there, as Ctrl-C would.
struct StopAfter : SweepObserver {
  int windows = 0;
  std::atomic<bool> stop{false};
  void on_progress(const SweepProgress& p) override {
    if (p.windows_done >= windows) stop = true;
  }
};

// Stopped in the middle of a size, tlbflush keeps the reps every configuration finished as that
// size's points, flagged (its configurations are measured in turn, so an interrupt kept none).
TEST(ScenarioRun, TlbflushStoppedKeepsTheRepsEveryConfigurationFinished) {
  ScenarioSpec spec = tiny(Scenario::tlbflush);
  spec.entries = parse_entries("1..2");
  spec.sweep.sizes = {64 << 10, 128 << 10};
  spec.sweep.reps = 5;
  spec.sweep.unstable_pct = 0;  // every spread is flagged: its advice is checked below
  validate_scenario(spec, topo(), cpu(), memory_available_bytes());
  int configs = 0;  // windows per rep: each thread count alone (above 1 thread) and with each entry count
  for (int n : spec.sweep.threads) configs += (n > 1) + static_cast<int>(spec.entries.size());
  StopAfter obs;
  obs.windows = 2 * configs + 1;  // two whole reps and one window of the third
  const SweepResult r = run_scenario(spec, topo(), cpu(), obs, &obs.stop);
  EXPECT_TRUE(r.stopped);
  ASSERT_EQ(r.points.size(), spec.sweep.threads.size() * 2);  // the first size's points only
  for (const Point& p : r.points) {
    EXPECT_EQ(p.size_bytes, 64u << 10);
    EXPECT_EQ(p.reps, 2);
    EXPECT_GT(p.munmap_ns_median, 0);  // a figure was made from the kept windows (not NaN): no bound on it
    EXPECT_NE(std::find(p.flags.begin(), p.flags.end(), "stopped after 2 reps of 5: the figures are of the reps measured"),
              p.flags.end())
        << fmt::format("{}", fmt::join(p.flags, " | "));
    // Its spread's advice names the reps asked for ("try --reps 5" below a run of --reps 5 misled).
    std::size_t unstable = 0;
    for (const std::string& f : p.flags)
      if (f.starts_with("unstable")) {
        ++unstable;
        EXPECT_TRUE(f.ends_with("the run was stopped before its 5 reps: measure again")) << f;
      }
    EXPECT_GE(unstable, 1u) << fmt::format("{}", fmt::join(p.flags, " | "));
  }
  // Stopped before every configuration had a window: nothing to keep.
  obs.windows = configs - 1;
  obs.stop = false;
  const SweepResult none = run_scenario(spec, topo(), cpu(), obs, &obs.stop);
  EXPECT_TRUE(none.stopped);
  EXPECT_TRUE(none.points.empty());
}

// Victim measures its configurations in turn too: stopped at 90% it kept nothing ("no point had
// finished"). It keeps the reps every configuration finished, flagged, as tlbflush does.
TEST(ScenarioRun, VictimStoppedKeepsTheRepsEveryConfigurationFinished) {
  ScenarioSpec spec = tiny(Scenario::victim);
  spec.victims = {"stosb"};
  spec.aggressors = {"movnti"};
  spec.sweep.sizes = {64 << 10, 128 << 10};
  spec.sweep.reps = 5;
  validate_scenario(spec, topo(), cpu(), memory_available_bytes());
  const int configs = static_cast<int>(spec.sweep.threads.size());  // alone, then beside 1 aggressor (2 PUs)
  StopAfter obs;
  obs.windows = 3 * configs + 1;  // three whole reps and one window of the fourth
  const SweepResult r = run_scenario(spec, topo(), cpu(), obs, &obs.stop);
  EXPECT_TRUE(r.stopped);
  ASSERT_EQ(r.points.size(), spec.sweep.threads.size());  // the first size's points only
  for (const Point& p : r.points) {
    EXPECT_EQ(p.size_bytes, 64u << 10);
    EXPECT_EQ(p.reps, 3);
    EXPECT_GT(p.gbps_median, 0);
    EXPECT_EQ(p.baseline_gbps, r.points.front().gbps_median);
    EXPECT_NE(std::find(p.flags.begin(), p.flags.end(), "stopped after 3 reps of 5: the figures are of the reps measured"),
              p.flags.end())
        << fmt::format("{}", fmt::join(p.flags, " | "));
  }
  // Stopped before every configuration had a window: nothing to keep.
  obs.windows = configs - 1;
  obs.stop = false;
  if (obs.windows > 0) {
    const SweepResult none = run_scenario(spec, topo(), cpu(), obs, &obs.stop);
    EXPECT_TRUE(none.stopped);
    EXPECT_TRUE(none.points.empty());
  }
}

TEST(ScenarioRun, TlbflushReportsEveryEntryCount) {
  ScenarioSpec spec = tiny(Scenario::tlbflush);
  spec.entries = parse_entries("1..8");
  spec.sweep.sizes = {64 << 10};
  const SweepResult r = run(spec);
  ASSERT_EQ(r.points.size(), spec.sweep.threads.size() * 4);
  std::size_t i = 0;
  for (int n : spec.sweep.threads)
    for (int e : {1, 2, 4, 8}) {
      const Point& p = r.points[i++];
      EXPECT_EQ(p.scenario, "tlbflush");
      EXPECT_EQ(p.kernel, "munmap");
      EXPECT_EQ(p.entries, e);
      EXPECT_EQ(p.threads, n);
      EXPECT_EQ(p.peer_threads, n - 1);
      EXPECT_GE(p.munmap_calls_median, 1);
      EXPECT_GT(p.munmap_ns_median, 0);
      EXPECT_TRUE(std::isnan(p.gbps_median));  // not a bandwidth scenario
      EXPECT_EQ(p.per_thread.at(0).ops_total, p.per_thread.at(0).passes_total);  // one munmap per cycle
      if (n == 1) {
        EXPECT_TRUE(std::isnan(p.reader_ns_median));
        EXPECT_TRUE(std::isnan(p.reader_alone_ns));
      } else {
        EXPECT_GT(p.reader_ns_median, 0);
        EXPECT_GT(p.reader_alone_ns, 0);
        EXPECT_EQ(p.per_thread.at(1).ops_total % 16, 0u);  // 16 pages read per pass of 64 KiB
      }
    }
}

}  // namespace
}  // namespace bwlab
