// SPDX-License-Identifier: MIT
// The one mapping from the user's choices to a ScenarioSpec (core/scenario/choices), used by
// `bwlab run` and by the GUI: defaults, parsing and refusals must not depend on the face.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/kernels/kernels.hpp"
#include "core/scenario/choices.hpp"
#include "core/sweep/parse.hpp"

namespace bwlab {
namespace {

using namespace std::chrono_literals;

const Topology& four_pus() {
  static const Topology t = Topology::from_synthetic("package:1 core:4 pu:1");
  return t;
}
const CpuFeatures& cpu() {
  static const CpuFeatures c = detect_cpu_features();
  return c;
}

constexpr Scenario kScenarios[] = {Scenario::scaling, Scenario::victim, Scenario::mix, Scenario::pagefault,
                                   Scenario::tlbflush};

// A value each scenario-specific option accepts, given to the field the flag names.
struct Given {
  const char* flag;
  std::string RunChoices::*field;
  const char* value;
};
const Given kGiven[] = {
    {"--victim", &RunChoices::victim, "stosb"},   {"--aggressor", &RunChoices::aggressor, "movnti"},
    {"--mix", &RunChoices::mix, "stosb:1,movnti:1"}, {"--entries", &RunChoices::entries, "1,8"},
    {"--threads", &RunChoices::threads, "1,2"},   {"--kernels", &RunChoices::kernels, "stosb,movnti"},
    {"--fill", &RunChoices::fill, "0xff"},
};

std::string error_of(const RunChoices& c) {
  try {
    scenario_spec_from(c, cpu(), four_pus());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Every field of the spec that a face could get wrong.
void expect_same_spec(const ScenarioSpec& a, const ScenarioSpec& b) {
  EXPECT_EQ(a.scenario, b.scenario);
  EXPECT_EQ(a.sweep.kernels, b.sweep.kernels);
  EXPECT_EQ(a.sweep.sizes, b.sweep.sizes);
  EXPECT_EQ(a.sweep.threads, b.sweep.threads);
  EXPECT_EQ(a.sweep.placement.label(), b.sweep.placement.label());
  EXPECT_EQ(a.sweep.membind.label(), b.sweep.membind.label());
  EXPECT_EQ(a.sweep.pages, b.sweep.pages);
  EXPECT_EQ(a.sweep.fills, b.sweep.fills);
  EXPECT_EQ(a.sweep.reps, b.sweep.reps);
  EXPECT_EQ(a.sweep.reps_auto, b.sweep.reps_auto);
  EXPECT_EQ(a.sweep.target_pstdev_pct, b.sweep.target_pstdev_pct);
  EXPECT_EQ(a.sweep.max_reps, b.sweep.max_reps);
  EXPECT_EQ(a.sweep.duration, b.sweep.duration);
  EXPECT_EQ(a.sweep.unstable_pct, b.sweep.unstable_pct);
  EXPECT_EQ(a.victims, b.victims);
  EXPECT_EQ(a.aggressors, b.aggressors);
  ASSERT_EQ(a.mix.size(), b.mix.size());
  for (std::size_t i = 0; i < a.mix.size(); ++i) {
    EXPECT_EQ(a.mix[i].kernel, b.mix[i].kernel);
    EXPECT_EQ(a.mix[i].threads, b.mix[i].threads);
  }
  EXPECT_EQ(a.entries, b.entries);
}

TEST(RunChoices, NothingGivenMeansTheDocumentedDefaults) {
  ASSERT_EQ(four_pus().allowed_pus().size(), 4u);
  const ScenarioSpec s = scenario_spec_from(RunChoices{}, cpu(), four_pus());
  EXPECT_EQ(s.scenario, Scenario::scaling);
  EXPECT_EQ(s.sweep.kernels, parse_kernels(default_kernels(cpu()), cpu()));
  EXPECT_EQ(s.sweep.sizes, (std::vector<std::uint64_t>{16ull << 20, 1ull << 30}));
  EXPECT_EQ(s.sweep.threads, (std::vector<int>{1, 2, 3, 4}));  // 1..max
  EXPECT_EQ(s.sweep.placement.label(), "compact");
  EXPECT_EQ(s.sweep.membind.label(), "local");
  EXPECT_EQ(s.sweep.pages, Pages::small4k);
  EXPECT_EQ(s.sweep.fills, std::vector<Fill>{Fill{}});
  EXPECT_EQ(s.sweep.reps, 5);
  EXPECT_FALSE(s.sweep.reps_auto);
  EXPECT_EQ(s.sweep.duration, 200ms);
  EXPECT_EQ(s.sweep.unstable_pct, 5.0);

  RunChoices tlb;
  tlb.scenario = "tlbflush";
  const ScenarioSpec t = scenario_spec_from(tlb, cpu(), four_pus());
  EXPECT_EQ(t.sweep.sizes, std::vector<std::uint64_t>{1ull << 20});
  EXPECT_EQ(t.entries, (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512}));
  RunChoices victim;
  victim.scenario = "victim";
  victim.kernels = "stosb,movnti";
  const ScenarioSpec v = scenario_spec_from(victim, cpu(), four_pus());
  EXPECT_EQ(v.victims, (std::vector<std::string>{"stosb", "movnti"}));  // --victim defaults to --kernels
  EXPECT_EQ(v.aggressors, v.victims);
}

// A value named twice in a list is measured once, with a note saying which (they were merged
// without a word); lists without repeats get no note.
TEST(RunChoices, AValueNamedTwiceIsMeasuredOnceWithANote) {
  RunChoices c;
  c.sizes = "1M,2M,1024K";
  c.threads = "1..3,2";
  c.kernels = "stosb,STOSB";
  c.fill = "zero,0x00";
  const ScenarioSpec s = scenario_spec_from(c, cpu(), four_pus());
  EXPECT_EQ(s.sweep.sizes, (std::vector<std::uint64_t>{1ull << 20, 2ull << 20}));
  EXPECT_EQ(s.sweep.threads, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(s.sweep.kernels, std::vector<std::string>{"stosb"});
  for (const char* said : {"--sizes 1M,2M,1024K names 1MiB more than once; each is measured once",
                           "--threads 1..3,2 names 2 more than once", "--kernels stosb,STOSB names stosb more than once",
                           "--fill zero,0x00 names zero more than once"})
    EXPECT_TRUE(std::any_of(s.notes.begin(), s.notes.end(), [&](const std::string& n) { return n.starts_with(said); }))
        << said << "\n" << ::testing::PrintToString(s.notes);
  RunChoices plain;
  plain.sizes = "1M,2M";
  plain.threads = "1..3";
  plain.kernels = "stosb";
  for (const std::string& n : scenario_spec_from(plain, cpu(), four_pus()).notes)
    EXPECT_EQ(n.find("more than once"), std::string::npos) << n;
  RunChoices victim;
  victim.scenario = "victim";
  victim.victim = "stosb,stosb";
  victim.aggressor = "stosb";
  const ScenarioSpec v = scenario_spec_from(victim, cpu(), four_pus());
  EXPECT_TRUE(std::any_of(v.notes.begin(), v.notes.end(), [](const std::string& n) {
    return n == "--victim stosb,stosb names stosb more than once; each is measured once";
  })) << ::testing::PrintToString(v.notes);
}

TEST(RunChoices, DefaultKernelsAreStosbMovntiAndTheWidestNtKernelThisCpuRuns) {
  const std::vector<std::string> k = parse_kernels(default_kernels(cpu()), cpu());
  ASSERT_EQ(k.size(), 3u);
  EXPECT_EQ(k[0], "stosb");
  EXPECT_EQ(k[1], "movnti");
  const std::string widest = cpu().avx512f ? "avx512-nt" : cpu().avx2 ? "avx2-nt" : "movntdq";
  EXPECT_EQ(k[2], widest);
  CpuFeatures plain;  // no SIMD extension detected
  EXPECT_EQ(default_kernels(plain), "stosb,movnti,movntdq");
}

// An option is refused exactly where the scenario does not read it, with the same message for
// every face; option_applies (what the GUI enables) agrees with the refusals.
TEST(RunChoices, OptionsThatDoNotApplyAreRefused) {
  for (Scenario s : kScenarios)
    for (const Given& g : kGiven) {
      SCOPED_TRACE(std::string(to_string(s)) + " " + g.flag);
      RunChoices c;
      c.scenario = std::string(to_string(s));
      if (s == Scenario::mix && std::string(g.flag) != "--mix") c.mix = "stosb:1";
      c.*g.field = g.value;
      const std::string error = error_of(c);
      if (option_applies(g.flag, s)) {
        EXPECT_EQ(error, "");
      } else {
        EXPECT_EQ(error.rfind(std::string(g.flag) + " does not apply to --scenario " + std::string(to_string(s)) +
                                  "; it is for ",
                              0),
                  0u)
            << error;
      }
    }
  EXPECT_TRUE(option_applies("--sizes", Scenario::mix));  // not scenario-specific
  EXPECT_FALSE(option_applies("--victim", Scenario::scaling));
  EXPECT_TRUE(option_applies("--victim", Scenario::victim));
  EXPECT_FALSE(option_applies("--kernels", Scenario::pagefault));
}

// The GUI keeps the text of fields it disabled and drops it (drop_unread_choices); the CLI
// user leaves those options out. Both must give the same spec.
TEST(RunChoices, EveryFieldFilledThenDroppedGivesTheSameSpecAsOnlyTheApplicableOnes) {
  for (Scenario s : kScenarios) {
    SCOPED_TRACE(std::string(to_string(s)));
    RunChoices everything;
    everything.scenario = std::string(to_string(s));
    for (const Given& g : kGiven) everything.*g.field = g.value;
    RunChoices applicable;
    applicable.scenario = everything.scenario;
    for (const Given& g : kGiven)
      if (option_applies(g.flag, s)) applicable.*g.field = g.value;
    EXPECT_NE(error_of(everything), "");  // every scenario refuses some of them
    drop_unread_choices(everything);
    expect_same_spec(scenario_spec_from(everything, cpu(), four_pus()),
                     scenario_spec_from(applicable, cpu(), four_pus()));
  }
}

TEST(RunChoices, RepsAutoIsForScalingAndBadValuesSayWhichOption) {
  RunChoices c;
  c.reps = "auto";
  const ScenarioSpec s = scenario_spec_from(c, cpu(), four_pus());
  EXPECT_TRUE(s.sweep.reps_auto);
  c.scenario = "victim";
  EXPECT_EQ(error_of(c), "--reps auto applies to the scaling scenario; give --reps N for --scenario victim");
  c = RunChoices{};
  c.duration = "fast";
  EXPECT_EQ(error_of(c), "bad --duration 'fast': use 1ms to 1h in us, ms, s, min or h, e.g. 200ms, 1.5ms, 1s or 1h");
  // The upper end the message names is accepted in its own unit; a minute too, and no more than 1 h.
  c.duration = "1h";
  c.reps = "1";  // one window of 1 h: a point's windows are capped at 1 h too
  EXPECT_EQ(scenario_spec_from(c, cpu(), four_pus()).sweep.duration, std::chrono::hours(1));
  c.duration = "2min";
  EXPECT_EQ(scenario_spec_from(c, cpu(), four_pus()).sweep.duration, std::chrono::minutes(2));
  c.duration = "1.5h";
  EXPECT_EQ(error_of(c), "bad --duration '1.5h': use 1ms to 1h in us, ms, s, min or h, e.g. 200ms, 1.5ms, 1s or 1h");
  c.reps = "5";
  c.duration = "1.5s";
  EXPECT_EQ(scenario_spec_from(c, cpu(), four_pus()).sweep.duration, 1500ms);
  c.duration = "10";  // ms or s? refused rather than guessed
  EXPECT_EQ(error_of(c), "bad --duration '10': no unit; did you mean 10ms (or 10s)?");
  c = RunChoices{};
  c.scenario = "sideways";
  EXPECT_NE(error_of(c).find("unknown --scenario 'sideways'"), std::string::npos);
  c = RunChoices{};
  c.threads = "5";
  EXPECT_NE(error_of(c), "");  // more than the 4 PUs
}

TEST(RunChoices, NoiseLimitsAndRejectNoisyReachTheSpec) {
  RunChoices c;
  const ScenarioSpec d = scenario_spec_from(c, cpu(), four_pus());
  EXPECT_FALSE(d.sweep.reject_noisy);
  EXPECT_EQ(d.sweep.noise.steal_pct, 2.0);
  EXPECT_EQ(d.sweep.noise.lost_pct, 5.0);
  c.reject_noisy = true;
  c.noisy_steal_pct = 10;
  c.noisy_lost_pct = 20;
  const ScenarioSpec s = scenario_spec_from(c, cpu(), four_pus());
  EXPECT_TRUE(s.sweep.reject_noisy);
  EXPECT_EQ(s.sweep.noise.steal_pct, 10.0);
  EXPECT_EQ(s.sweep.noise.lost_pct, 20.0);
  c.noisy_lost_pct = 150;
  EXPECT_EQ(error_of(c), "bad --noisy-lost-pct 150: use a percentage from 0 to 100, e.g. --noisy-lost-pct 2");
  c.noisy_lost_pct = 5;
  c.scenario = "mix";
  EXPECT_NE(error_of(c).find("--reject-noisy does not apply to --scenario mix"), std::string::npos);
  drop_unread_choices(c);  // the GUI: a disabled field is dropped, not refused
  EXPECT_FALSE(c.reject_noisy);
}

}  // namespace
}  // namespace bwlab
