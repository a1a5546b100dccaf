// SPDX-License-Identifier: MIT
#include <sstream>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/insight/fleet.hpp"
#include "core/insight/merge.hpp"
#include "core/insight/quirk_table.hpp"
#include "core/report/csv.hpp"
#include "tests/insight/fixtures.hpp"

namespace bwlab {
namespace {

using testing::add_pair;
using testing::make_run;

JsonDocument host_run(const std::string& host, const std::vector<double>& nt, int model = 207,
                      const std::string& microcode = "0x21000290") {
  JsonDocument d;
  d.run = make_run(host, model, microcode);
  add_pair(d.points, "stosb", {10, 10, 10}, "movnti", nt, 1);
  for (Point& p : d.points) p.host = host;
  return d;
}

TEST(Merge, KeepsEveryHostsRowsWithCpuIdentity) {
  std::vector<NamedRun> runs = {{"a.json", host_run("a", {8, 12, 12})}, {"b.json", host_run("b", {8, 8, 12})},
                                {"c.json", host_run("c", {7, 8, 9}, 85, "0x5003604")}};
  const MergeResult m = merge_runs(runs);
  ASSERT_EQ(m.rows.size(), 18u);
  EXPECT_EQ(m.rows[0].point.host, "a");
  EXPECT_EQ(m.rows[17].point.host, "c");
  EXPECT_EQ(m.rows[17].cpu.model, 85);
  EXPECT_EQ(m.rows[17].cpu.microcode, "0x5003604");

  // Round trip through the fleet CSV, a flag with a comma and a quote included.
  std::vector<FleetRow> rows = m.rows;
  rows[3].point.flags = {"unstable: 7.3% pstdev, \"try\" --reps 11"};
  std::ostringstream out;
  write_fleet_csv(out, rows);
  const std::string text = out.str();
  EXPECT_EQ(text.rfind(std::string(fleet_leading_header()) + "," + std::string(csv_header()) + "\n", 0), 0u);
  std::istringstream in(text);
  const std::vector<FleetRow> back = read_fleet_csv(in);
  ASSERT_EQ(back.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(back[i].cpu, rows[i].cpu);
    EXPECT_EQ(back[i].point.host, rows[i].point.host);
    EXPECT_EQ(back[i].point.kernel, rows[i].point.kernel);
    EXPECT_EQ(back[i].point.size_bytes, rows[i].point.size_bytes);
    EXPECT_EQ(back[i].point.gbps_median, rows[i].point.gbps_median);
    EXPECT_EQ(back[i].point.flags, rows[i].point.flags);
  }
}

TEST(Merge, RefusesTheSameHostTwiceAndEmptyInput) {
  std::vector<NamedRun> runs = {{"a.json", host_run("a", {8, 12, 12})}, {"a2.json", host_run("a", {8, 12, 12})}};
  EXPECT_THROW(merge_runs(runs), InputError);
  EXPECT_THROW(merge_runs({}), InputError);
  JsonDocument nameless = host_run("", {8, 12, 12});
  EXPECT_THROW(merge_runs({{"x.json", nameless}}), InputError);
  // Runs without points: nothing to merge (a header-only fleet file passed, and verdict failed on it).
  JsonDocument empty = host_run("a", {8, 12, 12});
  empty.points.clear();
  try {
    merge_runs({{"a.json", empty}});
    ADD_FAILURE() << "merged no points";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "the file holds no points: nothing to merge");
  }
  // Two runs of one host with no point in common: merged, with a warning naming both files.
  JsonDocument other_threads = host_run("a", {8, 12, 12});
  for (Point& p : other_threads.points) p.threads = 2;
  const MergeResult m = merge_runs({{"a.json", host_run("a", {8, 12, 12})}, {"a2.json", other_threads}});
  EXPECT_EQ(m.rows.size(), 12u);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0].rfind("host 'a' has 2 runs (a.json, a2.json): their points are merged as one host's", 0), 0u)
      << m.warnings[0];
  EXPECT_TRUE(merge_runs({{"a.json", host_run("a", {8, 12, 12})}, {"b.json", host_run("b", {8, 12, 12})}})
                  .warnings.empty());
}

// A fleet merges measured runs: a simulated run (host "model:NAME", no CPU identity) would count
// as one more host, an imported one as a host with no CPU; both are refused, naming the file.
TEST(Merge, RefusesSimulatedAndImportedPoints) {
  for (const std::string source : {"simulated", "imported"}) {
    SCOPED_TRACE(source);
    JsonDocument other = host_run("model:skylake-x-8270cl", {8, 12, 12});
    other.points.back().source = source;
    try {
      merge_runs({{"a.json", host_run("a", {8, 12, 12})}, {"s.json", other}});
      ADD_FAILURE() << "merged";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("s.json: 1 of its 6 points is " + source), std::string::npos) << what;
      EXPECT_NE(what.find("a fleet merges measured runs"), std::string::npos) << what;
    }
  }
}

TEST(FleetCsv, RefusesAPlainCsvAndABrokenPointHeader) {
  std::istringstream plain(std::string(csv_header()) + "\n");
  EXPECT_THROW(read_fleet_csv(plain), InputError);
  std::istringstream broken(std::string(fleet_leading_header()) + ",source,scenario\n");
  EXPECT_THROW(read_fleet_csv(broken), InputError);
}

TEST(QuirkTable, OneRowPerCpuAndMicrocode) {
  std::vector<NamedRun> runs = {{"a.json", host_run("a", {8, 12, 12})},
                                {"b.json", host_run("b", {8, 8, 12})},
                                {"c.json", host_run("c", {7, 8, 9}, 85, "0x5003604")}};
  const auto rows = quirk_table(merge_runs(runs).rows);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].cpu.model, 207);
  EXPECT_EQ(rows[0].hosts, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(rows[0].recommendation, "NT good");
  ASSERT_EQ(rows[0].crossover_1t.size(), 2u);
  EXPECT_NE(rows[0].crossover_1t[0].find("a: ~"), std::string::npos) << rows[0].crossover_1t[0];
  EXPECT_EQ(rows[1].cpu.model, 85);
  EXPECT_EQ(rows[1].recommendation, "NT slow");
  EXPECT_NE(rows[1].crossover_max[0].find("none"), std::string::npos);
  std::ostringstream out;
  print_quirk_table(out, rows);
  EXPECT_NE(out.str().find("GenuineIntel 6/207/2"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("0x5003604"), std::string::npos) << out.str();
  // The table's columns line up (the file a fleet keeps as quirk-table.txt): every row's
  // recommendation starts where the header's does.
  const std::string text = out.str();
  std::istringstream lines(text.substr(text.find("\nvendor family/model/stepping") + 1));
  std::string line;
  std::getline(lines, line);
  const std::size_t column = line.find("recommendation");
  int rows_seen = 0;
  while (std::getline(lines, line) && !line.empty()) {
    ++rows_seen;
    EXPECT_EQ(line.find("NT "), column) << text;
  }
  EXPECT_EQ(rows_seen, 2) << text;
}

TEST(QuirkTable, HostsThatDisagreeAreShownAsMixed) {
  std::vector<NamedRun> runs = {{"a.json", host_run("a", {8, 12, 12})}, {"b.json", host_run("b", {7, 8, 9})}};
  const auto rows = quirk_table(merge_runs(runs).rows);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].recommendation, "mixed: NT good on 1 host, NT slow on 1 host");
}

// Each host's run records its LLC, and the fleet CSV carries it: two hosts of identical figures
// whose clears fit in their caches get the same call. With this machine's LLC only, a read "NT good,
// for clears that fit in the cache only" and b plain "NT good": "mixed" for the same data.
TEST(QuirkTable, EachHostIsJudgedByTheCachesItsRunRecorded) {
  std::vector<NamedRun> runs = {{"a.json", host_run("a", {8, 12, 12})}, {"b.json", host_run("b", {8, 12, 12})}};
  for (NamedRun& r : runs) r.doc.run.llc_bytes = 32ull << 20, r.doc.run.llc_count = 1;
  std::ostringstream csv;
  write_fleet_csv(csv, merge_runs(runs).rows);
  std::istringstream in(csv.str());
  const std::vector<FleetRow> back = read_fleet_csv(in);
  ASSERT_EQ(back.size(), 12u);
  EXPECT_EQ(back[11].cpu.llc_bytes, 32ull << 20);
  EXPECT_EQ(back[11].cpu.llc_count, 1);
  VerdictOptions o;
  o.this_host = "elsewhere", o.llc_bytes = 1ull << 20;  // this machine's LLC judges none of them
  const auto rows = quirk_table(back, o);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].recommendation, "NT good, for clears that fit in the cache only");
  // A fleet CSV written before the llc columns still reads, its caches unknown.
  std::string old = csv.str();
  for (std::size_t at = 0; (at = old.find(",llc_bytes,llc_count", at)) != std::string::npos;) old.erase(at, 20);
  for (std::size_t at = 0; (at = old.find(",33554432,1,", at)) != std::string::npos;) old.erase(at, 11);
  std::istringstream old_in(old);
  const std::vector<FleetRow> old_rows = read_fleet_csv(old_in);
  ASSERT_EQ(old_rows.size(), 12u);
  EXPECT_EQ(old_rows[0].cpu.llc_bytes, 0u);
  EXPECT_EQ(old_rows[0].point.kernel, back[0].point.kernel);
  EXPECT_EQ(quirk_table(old_rows, o)[0].recommendation, "NT good");
}

TEST(QuirkTable, ACallFromCachedClearsSaysSoAsTheVerdictDoes) {
  // Host a's rows (4..16 MiB at 1 thread) fit in its 32 MiB LLC: its NT good is a call for cached
  // clears only, as the plain verdict says; b's LLC is not known, so b's call stands unqualified.
  std::vector<NamedRun> runs = {{"a.json", host_run("a", {8, 12, 12})}, {"b.json", host_run("b", {8, 8, 12})}};
  VerdictOptions o;
  o.this_host = "a", o.llc_bytes = 32ull << 20, o.llc_count = 1;
  auto rows = quirk_table(merge_runs(runs).rows, o);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].per_host_label,
            (std::vector<std::string>{"NT good, for clears that fit in the cache only", "NT good"}));
  EXPECT_EQ(rows[0].recommendation, "mixed: NT good on 1 host, NT good (for clears that fit in the cache only) on 1 host");
  std::ostringstream out;
  print_quirk_table(out, rows, o);
  EXPECT_NE(out.str().find("  recommendation: mixed: NT good on 1 host, NT good (for clears that fit in the cache only)"),
            std::string::npos)
      << out.str();
  // An LLC smaller than the largest clear: the call rests on DRAM-sized clears too.
  o.llc_bytes = 8ull << 20;
  rows = quirk_table(merge_runs(runs).rows, o);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].recommendation, "NT good");
}

TEST(QuirkTable, PredictionsAreTaggedAndANameWithoutIdentitySaysSo) {
  // A JSON from 'bwlab simulate' carries no CPUID: its block and table line say [prediction],
  // and the CPU reads "not recorded" rather than "unknown-vendor 0/0/0".
  JsonDocument d = host_run("model:preset", {8, 12, 12});
  std::vector<FleetRow> rows;
  for (Point p : d.points) {
    p.source = "simulated", p.gbps_min = p.gbps_median / 1.2, p.gbps_max = p.gbps_median * 1.2;
    rows.push_back(FleetRow{CpuIdentity{}, p});
  }
  for (Point p : host_run("a", {8, 12, 12}).points) rows.push_back(FleetRow{cpu_identity(d.run), p});
  const auto table = quirk_table(rows);
  ASSERT_EQ(table.size(), 2u);
  EXPECT_TRUE(table[0].predicted);
  EXPECT_FALSE(table[1].predicted);
  std::ostringstream out;
  print_quirk_table(out, table);
  const std::string text = out.str();
  EXPECT_NE(text.find("Lines marked [prediction] are the analytical model's predictions"), std::string::npos) << text;
  EXPECT_NE(text.find("\n[prediction] CPU identity not recorded"), std::string::npos) << text;
  EXPECT_NE(text.find("\n[prediction]   recommendation: " + table[0].recommendation), std::string::npos) << text;
  EXPECT_NE(text.find("\nGenuineIntel 6/207/2"), std::string::npos) << text;  // measured: untagged
  // The table lines up with the tag: the measured row is indented by the tag's width.
  const std::size_t head = text.find("vendor family/model/stepping  microcode");
  ASSERT_NE(head, std::string::npos) << text;
  std::istringstream lines(text.substr(text.rfind('\n', head) + 1));
  std::string header, predicted, measured;
  std::getline(lines, header), std::getline(lines, predicted), std::getline(lines, measured);
  EXPECT_EQ(predicted.rfind("[prediction] CPU identity not recorded", 0), 0u) << text;
  EXPECT_EQ(measured.find("GenuineIntel"), header.find("vendor")) << text;
  EXPECT_EQ(predicted.find(table[0].recommendation), header.find("recommendation")) << text;
  EXPECT_EQ(measured.find("NT good"), header.find("recommendation")) << text;
}

}  // namespace
}  // namespace bwlab
