// SPDX-License-Identifier: MIT
// The write-path table, machines from spec sheets, bands and explanations: what the model
// computes from them (deterministic model output, no measurement).
#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <tuple>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <set>

#include "core/errors.hpp"
#include "core/model/explain.hpp"
#include "core/model/fit.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/model/solver.hpp"
#include "core/model/uarch.hpp"
#include "core/model/validate.hpp"
#include "core/sweep/parse.hpp"

namespace bwlab {
namespace {

model::SpecSheet skx18() {
  model::SpecSheet s;
  s.uarch = "cascadelake-sp";
  s.sockets = 1, s.cores = 18, s.smt = 2, s.channels = 6, s.mts = 2666;
  s.llc_bytes = static_cast<std::uint64_t>(24.75 * (1 << 20));
  return s;
}

// One kernel, one size, one thread count, a zero fill: a sweep of one point.
SweepSpec one_point(const char* kernel, std::uint64_t size, int threads, const char* placement = "compact",
                    const char* membind = "local") {
  SweepSpec spec;
  spec.kernels = {kernel};
  spec.sizes = {size};
  spec.threads = {threads};
  spec.fills = {Fill{}};
  spec.placement = parse_placement(placement);
  spec.membind = parse_membind(membind);
  return spec;
}

double aggregate(const std::vector<model::ThreadResult>& r) {
  double s = 0;
  for (const auto& t : r) s += t.gbps;
  return s;
}

double run(const MachineParams& m, const char* kernel, int n) {
  const Topology topo = Topology::from_synthetic(m.topology);
  std::vector<model::ThreadSpec> t;
  for (int pu : plan_pus(topo, parse_placement("scatter"), n)) t.push_back({kernel, 256ull << 20, pu, {}});
  return aggregate(model::simulate_threads(t, topo, m));
}

TEST(UarchTable, CoversTheIssuesMicroarchitectures) {
  for (const char* name : {"broadwell", "skylake-sp", "cascadelake-sp", "icelake-sp", "sapphirerapids", "emeraldrapids",
                           "tigerlake", "zen2", "zen3", "zen4", "zen5", "turin"})
    EXPECT_NE(model::find_uarch(name), nullptr) << name;
  EXPECT_EQ(model::find_uarch("pentium-4"), nullptr);
  for (const auto& u : model::uarch_table()) {
    EXPECT_GT(u.ref_ghz, 0) << u.name;
    EXPECT_GE(u.stos_evasion, 0) << u.name;
    EXPECT_LE(u.stos_evasion, 1) << u.name;
    EXPECT_GT(u.smt_gain_nt, -1) << u.name;
    EXPECT_NE(model::uarch_names().find(u.name), std::string::npos);
  }
  EXPECT_GT(model::find_uarch("icelake-sp")->speci2m_max_fraction, 0) << "SpecI2M from Ice Lake-SP on";
  EXPECT_EQ(model::find_uarch("skylake-sp")->speci2m_max_fraction, 0);
}

TEST(UarchTable, CpuidFamilyAndModelPickTheRow) {
  auto name = [](const char* vendor, int family, int model) {
    const model::Uarch* u = model::uarch_for_cpu(vendor, family, model);
    return u ? u->name : std::string("-");
  };
  EXPECT_EQ(name("GenuineIntel", 6, 79), "broadwell");
  EXPECT_EQ(name("GenuineIntel", 6, 85), "skylake-sp");
  EXPECT_EQ(name("GenuineIntel", 6, 106), "icelake-sp");
  EXPECT_EQ(name("GenuineIntel", 6, 207), "sapphirerapids") << "Emerald Rapids shares the row";
  EXPECT_EQ(name("GenuineIntel", 6, 140), "tigerlake");
  EXPECT_EQ(name("AuthenticAMD", 23, 49), "zen2");
  EXPECT_EQ(name("AuthenticAMD", 25, 1), "zen3");
  EXPECT_EQ(name("AuthenticAMD", 25, 17), "zen4");
  EXPECT_EQ(name("AuthenticAMD", 26, 2), "zen5") << "Turin";
  EXPECT_EQ(name("AuthenticAMD", 26, 17), "zen5") << "Turin Dense";
  EXPECT_EQ(name("AuthenticAMD", 26, 68), "-") << "a Zen 5 desktop part (Granite Ridge) is not the server row";
  EXPECT_EQ(name("GenuineIntel", 6, 151), "-") << "Alder Lake has no row";
  EXPECT_EQ(name("AuthenticAMD", 6, 85), "-") << "vendor and family both count";
}

// `machine show` agrees with what the solver does: a threshold of 0 is "never", and the evasion
// figures beside it say they are unused (a Zen 5 file showed stos_evasion 1 while its simulation
// evaded nothing).
TEST(MachineShow, ZeroStosThresholdReadsNeverAndMarksTheEvasionFiguresUnused) {
  const auto line_of = [](const MachineParams& m, const std::string& name) {
    for (const auto& l : describe_params(m))
      if (l.name == name) return l;
    ADD_FAILURE() << name;
    return ParamLine{};
  };
  MachineParams m = *load_machine("skylake-x-8270cl");
  // Every line says its unit ("band 0.6" was a figure without a meaning).
  for (const auto& l : describe_params(m)) EXPECT_FALSE(l.unit.empty()) << l.name;
  EXPECT_EQ(line_of(m, "dram_latency_ns").unit, "ns");
  EXPECT_EQ(line_of(m, "mlp_nt_lines").unit, "lines/core");
  EXPECT_EQ(line_of(m, "band").unit, "x/(1+band)");
  // A clock of 0 is unset (rates not scaled): "core_ghz 0 GHz" in a calibrated file read as a bug.
  EXPECT_EQ(line_of(m, "core_ghz").value, fmt::format("{:g}", m.core_ghz));
  MachineParams unclocked = m;
  unclocked.core_ghz = 0;
  EXPECT_EQ(line_of(unclocked, "core_ghz").value, "0 (unset)");
  EXPECT_NE(line_of(unclocked, "core_ghz").origin.find("rates are not scaled by core_ghz / ref_ghz"), std::string::npos);
  ASSERT_GT(m.stos_no_rfo_min_bytes, 0u);
  EXPECT_EQ(line_of(m, "stos_no_rfo_min_bytes").value, std::to_string(m.stos_no_rfo_min_bytes));
  EXPECT_EQ(line_of(m, "stos_evasion").origin.find("unused"), std::string::npos);
  m.stos_no_rfo_min_bytes = 0;
  EXPECT_EQ(line_of(m, "stos_no_rfo_min_bytes").value, "0 (never)");
  for (const char* name : {"stos_evasion", "stos_evasion_load_drop", "stos_evasion_nonzero"})
    EXPECT_NE(line_of(m, name).origin.find("unused: stos_no_rfo_min_bytes is 0, rep stos never evades"),
              std::string::npos)
        << name;
  EXPECT_EQ(line_of(m, "speci2m_max_fraction").origin.find("unused"), std::string::npos);
}

TEST(MachineSpec, SpecSheetFieldsBecomeTopologyPeakAndLlc) {
  model::SpecSheet s = skx18();
  s.turbo_ghz = 3.7;
  const MachineParams m = model::machine_from_spec(s);
  EXPECT_EQ(m.topology, "package:1 numa:1 core:18 pu:2");
  EXPECT_DOUBLE_EQ(m.dram_peak_gbps_per_node, 6 * 2666 * 8 / 1000.0);
  EXPECT_EQ(m.llc_bytes_per_package, 25952256u);
  EXPECT_DOUBLE_EQ(m.core_ghz, 3.7);
  EXPECT_EQ(m.uarch, "skylake-sp");
  EXPECT_EQ(m.origin_of("dram_peak_gbps_per_node"), "spec sheet");
  // Each figure of the row says whether it was fitted, and to what, or is sourced or assumed.
  EXPECT_EQ(m.origin_of("mlp_wa_lines"),
            "microarchitecture default (skylake-sp); fitted to seed 000 (Platinum 8270CL, turbo off)");
  EXPECT_EQ(m.origin_of("dram_latency_ns"), "microarchitecture default (skylake-sp); sourced or assumed (docs/model.md)");
  EXPECT_GT(m.stos_no_rfo_min_bytes, 0u);
  EXPECT_GT(m.band, load_machine("skylake-x-8270cl")->band) << "spec-only machines carry a wider band than presets";

  // A file round trip keeps the uarch, the origins and the new parameters.
  std::stringstream io;
  write_machine_json(io, m);
  const MachineParams back = read_machine_json(io, "mem");
  EXPECT_EQ(back.uarch, m.uarch);
  EXPECT_EQ(back.origins, m.origins);
  EXPECT_EQ(back.topology, m.topology);
  EXPECT_DOUBLE_EQ(back.core_ghz, m.core_ghz);
  EXPECT_DOUBLE_EQ(back.stos_evasion, m.stos_evasion);
  EXPECT_EQ(back.stos_no_rfo_min_bytes, m.stos_no_rfo_min_bytes);
}

// A machine file is read by people: a figure of the table (62.4 GB/s of UPI) is written as the
// table gives it, not as floating-point arithmetic left it (3 * 20.8 = 62.400000000000006).
TEST(MachineSpec, EveryRowAndPresetWritesItsFiguresWithoutFloatingPointTails) {
  const std::regex tail(R"([0-9]+\.[0-9]*(0000000|9999999)[0-9]*)");
  auto check = [&](const MachineParams& m, const std::string& what) {
    std::stringstream io;
    write_machine_json(io, m);
    const std::string text = io.str();
    std::smatch hit;
    EXPECT_FALSE(std::regex_search(text, hit, tail)) << what << " writes " << hit.str();
  };
  for (const auto& u : model::uarch_table()) {
    model::SpecSheet s = skx18();
    s.uarch = u.name;
    s.sockets = u.link_gbps > 1 ? 2 : 1;  // the link figure of a server row, with two sockets
    check(model::machine_from_spec(s), "machine spec --uarch " + u.name);
  }
  for (const auto& p : preset_table()) check(p, "preset " + p.name);
}

TEST(MachineSpec, BadFieldsAreNamed) {
  auto fails_with = [](model::SpecSheet s, const char* what) {
    try {
      model::machine_from_spec(s);
      ADD_FAILURE() << "no error for " << what;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  model::SpecSheet s = skx18();
  s.uarch = "pentium-4";
  fails_with(s, "zen4");  // the message lists the names
  s = skx18(), s.cores = 0, fails_with(s, "--cores");
  s = skx18(), s.mts = 26, fails_with(s, "--mts");
  s = skx18(), s.llc_bytes = 1, fails_with(s, "--llc");
  s = skx18(), s.smt = 9, fails_with(s, "--smt");
  s = skx18(), s.base_ghz = 3.0, s.turbo_ghz = 2.0, fails_with(s, "is below --base-ghz");
  // A 1 MHz clock was taken (its prediction printed a band that missed its figure).
  s = skx18(), s.base_ghz = 0.001, fails_with(s, "--base-ghz must be 0.5..7 GHz, got 0.001");
  s = skx18(), s.turbo_ghz = 0.4, fails_with(s, "--turbo-ghz must be 0.5..7 GHz, got 0.4");
  s = skx18(), s.cores = 1;
  EXPECT_NE(model::machine_from_spec(s).description.find(", 1 core, "), std::string::npos)
      << model::machine_from_spec(s).description;  // it said "1 cores"
  s = skx18(), s.uarch = "tigerlake", s.sockets = 2, fails_with(s, "use --sockets 1");
  // SMT beyond the family's (every row of the table: 2 threads per core).
  s = skx18(), s.uarch = "zen3", s.smt = 4, fails_with(s, "--smt 4: --uarch zen3 cores run 1 or 2 hardware threads per core");
  for (const auto& u : model::uarch_table()) EXPECT_EQ(u.max_smt, 2) << u.name;
  // The name's case does not matter.
  s = skx18(), s.uarch = "CascadeLake-SP";
  EXPECT_EQ(model::machine_from_spec(s).uarch, "skylake-sp");
}

TEST(WritePath, StosEvadesRfoAndMeetsNtAtSaturationButVectorStoresDoNot) {
  const MachineParams m = model::machine_from_spec(skx18());
  const double stos = run(m, "stosb", 18), nt = run(m, "avx2-nt", 18), store = run(m, "avx2-store", 18);
  EXPECT_NEAR(stos / nt, 1.0, 0.10) << "stosb and NT converge at saturation";
  EXPECT_GT(stos, 1.5 * store) << "cacheable vector stores read every line";
  // Without the fast-string protocol stosb is a write-allocate store like any other.
  MachineParams no_evasion = m;
  no_evasion.stos_no_rfo_min_bytes = 0;
  EXPECT_NEAR(run(no_evasion, "stosb", 18) / store, 1.0, 0.02);
}

TEST(WritePath, OwnershipWithoutDataIsAnLlcRoundTripOnOneSocketAndAMemoryOneOnTwo) {
  // One socket: the snoop filter grants an evaded line at LLC latency, so one thread of stosb
  // runs well above NT (which waits for memory). Two sockets: the home must read the memory
  // directory or snoop the other socket first, so evasion saves traffic but not latency.
  const MachineParams one = model::machine_from_spec(skx18());
  model::SpecSheet s2 = skx18();
  s2.sockets = 2;
  const MachineParams two = model::machine_from_spec(s2);
  EXPECT_GT(run(one, "stosb", 1), 1.5 * run(one, "avx2-nt", 1));
  EXPECT_NEAR(run(two, "stosb", 1) / run(two, "avx2-store", 1), 1.0, 0.05);  // less traffic, less queueing
  EXPECT_GT(run(one, "stosb", 1), 1.5 * run(two, "stosb", 1));
  // Cacheable vector stores read every line: the socket count does not change their one-thread rate.
  EXPECT_NEAR(run(one, "avx2-store", 1) / run(two, "avx2-store", 1), 1.0, 0.02);
  // Under load the owned lines wait behind the write-backs: on the saturated socket stosb (5% of
  // its RFOs still read) does not pass NT, so the winner changes from stosb to NT as threads grow.
  EXPECT_LE(run(one, "stosb", 18), run(one, "avx2-nt", 18) * 1.001);
  // A machine without the fast path (own_latency_ns 0, as the AMD rows) owns lines at memory latency on one socket too.
  MachineParams slow = one;
  slow.own_latency_ns = 0;
  EXPECT_NEAR(run(slow, "stosb", 1) / run(two, "stosb", 1), 1.0, 0.02);
  EXPECT_DOUBLE_EQ(one.own_latency_ns, one.llc_latency_ns)
      << "Intel rows: the snoop filter in the LLC slices grants ownership at LLC latency";
  EXPECT_EQ(model::machine_from_spec([] {
              model::SpecSheet z;
              z.uarch = "zen2", z.sockets = 1, z.cores = 8, z.channels = 8, z.mts = 3200, z.llc_bytes = 32u << 20;
              return z;
            }()).own_latency_ns,
            0)
      << "Zen 2: rep stos does not evade (goldsteinn's EPYC 7662 sheet), so no fast ownership figure";
  // Without evasion the socket count makes no difference to rep stos either.
  MachineParams plain = one;
  plain.stos_no_rfo_min_bytes = 0;
  EXPECT_NEAR(run(plain, "stosb", 1) / run(one, "avx2-store", 1), 1.0, 0.02);
}

TEST(LlcDomains, AnAmdThreadCachesInItsOwnCcxNotTheWholeL3) {
  // EPYC 7662: 64 cores, 256 MB of L3 as 16 CCXs of 4 cores and 16 MB. One thread clearing 64 MiB
  // cannot keep it in its CCX's 16 MB, although it would fit in the package's 256 MB.
  model::SpecSheet s;
  s.uarch = "zen2", s.sockets = 1, s.cores = 64, s.smt = 2, s.channels = 8, s.mts = 3200, s.llc_bytes = 256ull << 20;
  const MachineParams ccx = model::machine_from_spec(s);
  ASSERT_EQ(ccx.llc_domain_cores, 4);
  EXPECT_EQ(model::llc_domains(64, ccx), 16);
  EXPECT_EQ(model::llc_domains(2, ccx), 1) << "fewer cores than a domain: one domain";
  MachineParams whole = ccx;
  whole.llc_domain_cores = 0;
  EXPECT_EQ(model::llc_domains(64, whole), 1);
  const Topology topo = Topology::from_synthetic(ccx.topology);
  // Placement none: the OS spreads the threads over the CCXs; a pinned placement caches each
  // thread in its own core's CCX (the package's cores in order, four to a CCX).
  auto hit = [&](const MachineParams& m, int threads, std::uint64_t size, const char* placement = "none") {
    std::vector<model::ThreadSpec> t;
    std::vector<int> pus = plan_pus(topo, parse_placement(placement), threads);
    if (std::string_view(placement) == "none") pus = model::os_placed_pus(pus, topo, m);
    for (int pu : pus) t.push_back({"avx2-store", size, pu, {}});
    return model::simulate_threads(t, topo, m, nullptr).at(0).hit;
  };
  EXPECT_LT(hit(ccx, 1, 64u << 20), 0.05);
  EXPECT_DOUBLE_EQ(hit(whole, 1, 64u << 20), 1.0);
  // Spread over the CCXs: 16 threads of 8 MiB have a CCX each and stay cached; 64 share four to a CCX.
  EXPECT_DOUBLE_EQ(hit(ccx, 16, 8u << 20), 1.0);
  EXPECT_LT(hit(ccx, 64, 8u << 20), 0.15);
  // Pinned compact, four threads of 8 MiB fill one CCX's 16 MB twice over; spread by the OS, each
  // has a CCX of its own.
  EXPECT_LT(hit(ccx, 4, 8u << 20, "compact"), 0.15);
  EXPECT_DOUBLE_EQ(hit(ccx, 4, 8u << 20, "none"), 1.0);
  // Pinned on cores 0 and 4 (PUs 0 and 8 on this core:64 pu:2 topology): two CCXs, cached again.
  {
    std::vector<model::ThreadSpec> t{{"avx2-store", 8u << 20, 0, {}}, {"avx2-store", 8u << 20, 8, {}}};
    const auto r = model::simulate_threads(t, topo, ccx);
    EXPECT_DOUBLE_EQ(r.at(0).hit, 1.0);
    EXPECT_DOUBLE_EQ(r.at(1).hit, 1.0);
  }
  // Where the OS puts them (os_placed_pus): one thread per CCX before a second in any, then SMT
  // siblings only when every core of the package is busy.
  {
    const std::vector<int> plan = plan_pus(topo, parse_placement("none"), 16);
    const std::vector<int> placed = model::os_placed_pus(plan, topo, ccx);
    std::set<int> ccxs, cores;
    for (int pu : placed) ccxs.insert(topo.find_pu(pu)->core / 4), cores.insert(topo.find_pu(pu)->core);
    EXPECT_EQ(ccxs.size(), 16u);
    EXPECT_EQ(cores.size(), 16u);
    const std::vector<int> all = model::os_placed_pus(plan_pus(topo, parse_placement("none"), 128), topo, ccx);
    EXPECT_EQ(std::set<int>(all.begin(), all.end()).size(), 128u) << "every PU once";
    const std::vector<int> cores64 = model::os_placed_pus(plan_pus(topo, parse_placement("none"), 64), topo, ccx);
    for (int pu : cores64) EXPECT_EQ(topo.find_pu(pu)->smt_rank, 0) << "a sibling taken before every core was busy";
    // One domain per package (Intel): the plan stands.
    EXPECT_EQ(model::os_placed_pus(plan, topo, whole), plan);
  }
  // A simulated none point records the PUs it was solved on: pinned to that list, the same figure
  // (none and scatter named the same PUs and differed 3x on a 2-socket Genoa).
  {
    SweepSpec spec = one_point("avx2-store", 8u << 20, 16, "none");
    const auto none = simulate_sweep(spec, topo, ccx);
    ASSERT_EQ(none.size(), 1u);
    ASSERT_EQ(none[0].pus_planned.size(), 16u);
    std::string list;
    for (int pu : none[0].pus_planned) list += (list.empty() ? "" : ",") + std::to_string(pu);
    spec.placement = parse_placement(list);
    const auto pinned = simulate_sweep(spec, topo, ccx);
    ASSERT_EQ(pinned.size(), 1u);
    EXPECT_DOUBLE_EQ(pinned[0].gbps_median, none[0].gbps_median);
  }
  // Intel rows keep one LLC per package.
  for (const char* u : {"broadwell", "skylake-sp", "icelake-sp", "sapphirerapids", "tigerlake"})
    EXPECT_EQ(model::find_uarch(u)->llc_domain_cores, 0) << u;
}

TEST(WritePath, Zen4RepStosOfALargeExtentWritesWithoutReading) {
  // As measured on a Zen 4 guest (docs/model.md, "Zen 4 measured here"): above the threshold
  // stosb runs near NT and well above cacheable stores; below it, stosb is a cacheable store.
  model::SpecSheet s;
  s.uarch = "genoa", s.sockets = 1, s.cores = 96, s.smt = 2, s.channels = 12, s.mts = 4800;
  s.llc_bytes = 64u << 10;  // tiny, so that an 8 MiB buffer is served from memory
  const MachineParams m = model::machine_from_spec(s);
  ASSERT_GT(m.stos_no_rfo_min_bytes, 4u << 20) << "4 MiB calls were measured to read each line";
  ASSERT_LE(m.stos_no_rfo_min_bytes, 64u << 20) << "64 MiB buffers were measured not to";
  const Topology topo = Topology::from_synthetic(m.topology);
  auto one = [&](const char* k, std::uint64_t size) {
    return model::simulate_threads({{k, size, plan_pus(topo, parse_placement("scatter"), 1)[0], {}}}, topo, m)[0].gbps;
  };
  EXPECT_GT(one("stosb", 1ull << 30), 2 * one("avx2-store", 1ull << 30));
  EXPECT_NEAR(one("stosb", 1ull << 30) / one("avx2-nt", 1ull << 30), 0.9, 0.1);
  EXPECT_NEAR(one("stosb", 8u << 20) / one("avx2-store", 8u << 20), 1.0, 1e-9) << "below the threshold";
  EXPECT_GT(one("stosb", 64u << 20), 2 * one("avx2-store", 64u << 20)) << "at 64 MiB, as measured";
}

TEST(WritePath, OnZen3AndZen4OnlyZeroFillsWriteWithoutReading) {
  // goldsteinn's EPYC 7713 and 9554P sheets: with a byte of 1, rep stosb loses its lead over the
  // cacheable store (the Intel sheets show no such difference). A non-zero fill keeps
  // stos_evasion_nonzero of the evasion: 0 on zen3 and zen4, 1 on every Intel row. zen5 assumes
  // the same as zen4 (its guest cannot tell: docs/model.md, "Zen 5 measured here").
  // Zero fills: stosb at 2.9x (Zen 3 sheet), 1.8x (Zen 4 sheet) and 1.8x (Zen 5 guest) the cacheable store.
  for (const auto& [u, lead] : std::vector<std::pair<const char*, double>>{{"zen3", 2}, {"zen4", 2}, {"zen5", 1.5}}) {
    model::SpecSheet s;
    s.uarch = u, s.sockets = 1, s.cores = 64, s.smt = 2, s.channels = 12, s.mts = 4800, s.llc_bytes = 256ull << 20;
    const MachineParams m = model::machine_from_spec(s);
    ASSERT_EQ(m.stos_evasion_nonzero, 0) << u;
    const Topology topo = Topology::from_synthetic(m.topology);
    auto one = [&](const char* k, bool zero) {
      model::ThreadSpec t{k, 1ull << 30, plan_pus(topo, parse_placement("scatter"), 1)[0], {}, zero};
      return model::simulate_threads({t}, topo, m)[0];
    };
    EXPECT_GT(one("stosb", true).gbps, lead * one("avx2-store", true).gbps) << u;
    EXPECT_GT(one("stosb", true).rfo_evaded, 0.9) << u;
    EXPECT_EQ(one("stosb", false).rfo_evaded, 0) << u;
    EXPECT_NEAR(one("stosb", false).gbps / one("avx2-store", false).gbps, 1.0, 1e-9) << u << ": a cacheable store";
    EXPECT_DOUBLE_EQ(one("avx2-nt", false).gbps, one("avx2-nt", true).gbps) << u << ": NT does not depend on the fill";
  }
  for (const char* u : {"broadwell", "skylake-sp", "icelake-sp", "sapphirerapids", "tigerlake"})
    EXPECT_EQ(model::find_uarch(u)->stos_evasion_nonzero, 1) << u;
}

// A guest of this project's (tests/data/measured/README.md): a 1-socket 2-core sheet of its
// microarchitecture, 12 channels at `mts`, 32 MiB L3, and the rows of its runs.
struct Guest {
  MachineParams machine;
  std::vector<model::Observation> rows;
};
Guest measured_guest(const char* uarch, int mts, const std::string& file) {
  model::SpecSheet s;
  s.uarch = uarch, s.sockets = 1, s.cores = 2, s.smt = 1, s.channels = 12, s.mts = mts;
  s.llc_bytes = 32u << 20;
  std::ifstream in(std::string(BWLAB_MEASURED_DATA) + "/" + file);
  EXPECT_TRUE(in) << file;
  return {model::machine_from_spec(s), model::read_observations(in, file).rows};
}

bool fit_kernel(const model::Observation& o) {
  return o.kernel == "stosb" || o.kernel == "avx2-store" || o.kernel == "avx2-nt" || o.kernel == "avx512-nt";
}

TEST(WritePath, Zen4RowAgainstTheGuestItWasFittedOnAndItsHeldOutRows) {
  // Three runs on a 2-vCPU Zen 4 guest. The zen4 row was fitted to the one-thread 256 MiB..1 GiB
  // rows of stosb, avx2-store and the NT kernels; the two-thread rows were held out. Bounds:
  // today's computed log-RMS + 0.02 (a deterministic computation).
  const Guest g = measured_guest("zen4", 4800, "zen4-guest-2026-12-01.csv");
  ASSERT_EQ(g.rows.size(), 120u);
  std::vector<model::Observation> fitted, held_out;
  for (const auto& o : g.rows) {
    if (o.threads == 1 && o.size_bytes >= (256u << 20) && fit_kernel(o)) fitted.push_back(o);
    if (o.threads == 2) held_out.push_back(o);
  }
  const Topology topo = Topology::from_synthetic(g.machine.topology);
  const auto fit = model::validate(fitted, topo, g.machine), out = model::validate(held_out, topo, g.machine);
  ASSERT_EQ(fit.points.size(), 24u);
  ASSERT_EQ(out.points.size(), 60u);
  EXPECT_LE(fit.log_rms, 0.147 + 0.02);
  EXPECT_LE(out.log_rms, 0.305 + 0.02);
}

TEST(WritePath, Zen4RowOnAnotherDayOfTheGuestRatiosHoldWhereLevelsDoNot) {
  // The same command on a Zen 4 guest two days later (2026-12-03): every row held out. That
  // host ran every kernel at about 0.65x the fitted day's rate, in-cache 16 MiB points too, so
  // the levels are off; the ratios between kernels, which decide the winner, are not. Bounds:
  // the computed log-RMS + 0.02 (a deterministic computation on committed rows).
  const Guest g = measured_guest("zen4", 4800, "zen4-guest-2026-12-03.csv");
  ASSERT_EQ(g.rows.size(), 120u);
  const auto rep = model::validate(g.rows, Topology::from_synthetic(g.machine.topology), g.machine);
  ASSERT_EQ(rep.points.size(), 120u);
  EXPECT_LE(rep.log_rms, 0.406 + 0.02);
  EXPECT_EQ(model::ratio_error(rep.points).figures, 40) << "5 kernels x 8 points, three runs merged";
  EXPECT_LE(model::ratio_error(rep.points).log_rms, 0.137 + 0.02);
  EXPECT_LT(model::ratio_error(rep.points).log_rms, rep.log_rms / 2) << "most of the error is the day's level";
  int over = 0;
  for (const auto& p : rep.points) over += p.error > 0;
  EXPECT_GT(over, 90) << "the model is above the slower day at most points";
}

TEST(WritePath, Zen5RowAgainstTheGuestItWasFittedOnAndItsHeldOutRows) {
  // Three runs on a 2-vCPU Zen 5 guest whose host halved every kernel's rate in some runs. Per
  // point the best of the three runs' medians (STREAM's convention); the zen5 row was fitted to
  // the one-thread 16 MiB, 256 MiB and 1 GiB points of stosb, avx2-store and the NT kernels; the
  // two-thread points were held out. Bounds: today's computed log-RMS + 0.02.
  const Guest g = measured_guest("zen5", 6000, "zen5-guest-2026-12-03.csv");
  ASSERT_EQ(g.rows.size(), 120u);
  std::map<std::tuple<std::string, std::uint64_t, int>, model::Observation> best;
  for (const auto& o : g.rows) {
    auto [it, fresh] = best.try_emplace({o.kernel, o.size_bytes, o.threads}, o);
    if (!fresh && o.gbps > it->second.gbps) it->second = o;
  }
  ASSERT_EQ(best.size(), 40u);
  std::vector<model::Observation> fitted, held_out;
  for (const auto& [key, o] : best) {
    const bool fit_size = o.size_bytes == (16u << 20) || o.size_bytes >= (256u << 20);
    if (o.threads == 1 && fit_kernel(o) && fit_size) fitted.push_back(o);
    if (o.threads == 2) held_out.push_back(o);
  }
  const Topology topo = Topology::from_synthetic(g.machine.topology);
  const auto fit = model::validate(fitted, topo, g.machine), out = model::validate(held_out, topo, g.machine);
  ASSERT_EQ(fit.points.size(), 12u);
  ASSERT_EQ(out.points.size(), 20u);
  EXPECT_NE(g.machine.origin_of("own_latency_ns").find("fitted to this project's Zen 5 guest"), std::string::npos);
  EXPECT_NE(g.machine.origin_of("llc_latency_ns").find("sourced or assumed"), std::string::npos) << "Zen 4's, assumed";
  EXPECT_LE(fit.log_rms, 0.063 + 0.02);
  EXPECT_LE(out.log_rms, 0.194 + 0.02);
}

TEST(WritePath, ConcurrencyBoundRatesScaleWithTheCoreClock) {
  MachineParams m = model::machine_from_spec(skx18());
  m.core_ghz = m.ref_ghz;
  const double base = run(m, "avx2-nt", 1);
  m.core_ghz = 2 * m.ref_ghz;
  const double fast = run(m, "avx2-nt", 1);
  EXPECT_GT(fast / base, 1.8);  // one thread: twice the lines per second, a little more queueing
  EXPECT_LE(fast / base, 2.0 + 1e-9);
}

TEST(WritePath, SmtSiblingsCanDipTheNtCurve) {
  const MachineParams m = model::machine_from_spec(skx18());
  ASSERT_LT(m.smt_gain_nt, 0);
  const Topology topo = Topology::from_synthetic(m.topology);
  // 18 threads on 18 cores, then 36 on their siblings: the NT aggregate may fall, by at most the SMT loss.
  const double cores = run(m, "avx2-nt", 18), siblings = run(m, "avx2-nt", 36);
  EXPECT_LT(siblings, cores);
  EXPECT_GE(siblings, cores * (1 + m.smt_gain_nt));
}

TEST(Bands, WideForSpecSheetsNarrowerForPresetsAndNeverAboveThePeak) {
  SweepSpec spec;
  spec.kernels = {"stosb", "avx2-nt"};
  spec.sizes = {256ull << 20};
  spec.threads = {1, 18, 36};
  spec.fills = {Fill{}};
  const MachineParams m = model::machine_from_spec(skx18());
  const Topology topo = Topology::from_synthetic(m.topology);
  std::vector<std::string> why;
  const auto points = simulate_sweep(spec, topo, m, &why);
  ASSERT_EQ(why.size(), points.size());
  for (const auto& p : points) {
    EXPECT_LT(p.gbps_min, p.gbps_median);
    EXPECT_GE(p.gbps_max, p.gbps_median);
    EXPECT_LE(p.gbps_max, m.dram_peak_gbps_per_node * (1 + 1e-9));
    EXPECT_NEAR(p.gbps_median / p.gbps_min, 1 + m.band, 1e-9);
  }
  // Explanations: one thread is concurrency-bound, 36 threads bind on the DRAM node; stosb evades RFOs.
  EXPECT_NE(why[0].find("binds: core concurrency"), std::string::npos) << why[0];
  EXPECT_NE(why[0].find("RFO reads evaded"), std::string::npos) << why[0];
  EXPECT_NE(why[0].find("ownership: one socket"), std::string::npos) << why[0];
  EXPECT_NE(why[0].find("owned without a DRAM round trip"), std::string::npos) << why[0];
  EXPECT_EQ(why[1].find("owned without"), std::string::npos) << "NT at one thread: " << why[1];
  EXPECT_EQ(why.back().find("ownership"), std::string::npos) << "NT stores own nothing: " << why.back();
  EXPECT_NE(why.back().find("binds: DRAM node 0"), std::string::npos) << why.back();
  EXPECT_NE(why.back().find("non-temporal: no read"), std::string::npos) << why.back();
}

TEST(SpecSheet, EverySheetFieldThatChangesAPredictionIsInTheName) {
  // The name is the simulated points' host: sheets that differed only in SMT, LLC or clock shared it,
  // and compare set their curves side by side as one machine ("45% lower ... unchanged").
  const model::SpecSheet base = skx18();
  EXPECT_EQ(model::machine_from_spec(base).name, "cascadelake-sp-1s-18c-6x2666-llc24.75m-3.7ghz");
  std::set<std::string> names{model::machine_from_spec(base).name};
  model::SpecSheet s = base;
  s.smt = 1;
  names.insert(model::machine_from_spec(s).name);
  s = base, s.turbo_ghz = 2.0;
  names.insert(model::machine_from_spec(s).name);
  s = base, s.llc_bytes = 30ull << 20;
  names.insert(model::machine_from_spec(s).name);
  s = base, s.channels = 4;
  names.insert(model::machine_from_spec(s).name);
  EXPECT_EQ(names.size(), 5u) << fmt::format("{}", fmt::join(names, " "));
}

TEST(Explain, ALinkBoundPointSaysLinkBoundNotDramBound) {
  // Two sockets, every thread's memory on the other socket: the link binds, and the "why" line
  // names it (it read "DRAM-bound ... writes fill the memory's capacity" under "binds: inter-socket link").
  model::SpecSheet s = skx18();
  s.sockets = 2;
  const MachineParams m = model::machine_from_spec(s);
  const Topology topo = Topology::from_synthetic(m.topology);
  SweepSpec spec = one_point("avx2-nt", 1ull << 30, 36, "compact", "remote");
  std::vector<std::string> why;
  simulate_sweep(spec, topo, m, &why);
  ASSERT_EQ(why.size(), 1u);
  ASSERT_NE(why[0].find("binds: inter-socket link"), std::string::npos) << why[0];
  EXPECT_NE(why[0].find("why: link-bound"), std::string::npos) << why[0];
  EXPECT_NE(why[0].find("the link's capacity"), std::string::npos) << why[0];
  EXPECT_EQ(why[0].find("DRAM-bound"), std::string::npos) << why[0];
  // The link's traffic beside its capacity, and the rule that makes it bind (a point at 0.72 read
  // "binds" beside another at 0.70 read "busiest shared resource", without a word why).
  EXPECT_NE(why[0].find(" of 62.4 GB/s in that direction; utilisation "), std::string::npos) << why[0];
  EXPECT_NE(why[0].find("a shared resource binds from 0.71, where queueing holds each line 1.5x its idle latency)"),
            std::string::npos)
      << why[0];
  // Local memory: the DRAM node binds and is named, as one of two.
  spec.membind = parse_membind("local");
  why.clear();
  simulate_sweep(spec, topo, m, &why);
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("binds: DRAM node"), std::string::npos) << why[0];
  EXPECT_NE(why[0].find("the busiest of 2 nodes"), std::string::npos) << why[0];
  EXPECT_NE(why[0].find("why: DRAM-bound"), std::string::npos) << why[0];
  EXPECT_EQ(why[0].find("SMT"), std::string::npos) << "36 threads on 36 cores: " << why[0];
  // SMT siblings: said where the lines in flight are counted (72 threads clear slower than 36).
  spec.threads = {72};
  why.clear();
  simulate_sweep(spec, topo, m, &why);
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("SMT siblings sharing a core: x0."), std::string::npos) << why[0];
}

TEST(Bands, CappedAtThePeakOfTheNodesInUse) {
  // Two sockets, 16 threads pinned compact on socket 0 with local memory: the band's top is one
  // node's peak, not the machine's; interleaved over both nodes it may reach both.
  model::SpecSheet s = skx18();
  s.sockets = 2;
  const MachineParams m = model::machine_from_spec(s);
  const Topology topo = Topology::from_synthetic(m.topology);
  ASSERT_EQ(topo.numa_nodes(), 2);
  SweepSpec spec = one_point("avx2-nt", 256ull << 20, 16);
  const auto local = simulate_sweep(spec, topo, m);
  ASSERT_EQ(local.size(), 1u);
  ASSERT_GT(local[0].gbps_median * (1 + m.band), m.dram_peak_gbps_per_node) << "the cap must matter here";
  EXPECT_LE(local[0].gbps_max, m.dram_peak_gbps_per_node * (1 + 1e-9));
  spec.membind = parse_membind("interleave");
  const auto both = simulate_sweep(spec, topo, m);
  EXPECT_GT(both[0].gbps_max, m.dram_peak_gbps_per_node);
  EXPECT_LE(both[0].gbps_max, 2 * m.dram_peak_gbps_per_node * (1 + 1e-9));
}

TEST(Bands, CalibrationNarrowsTheBandAndRecordsTheOrigin) {
  // Observations predicted by the spec-sheet machine with a different concurrency: the fit
  // recovers them and says where the parameter now comes from.
  const MachineParams spec_machine = model::machine_from_spec(skx18());
  MachineParams truth = spec_machine;
  truth.mlp_nt_lines *= 1.3;
  const Topology topo = Topology::from_synthetic(spec_machine.topology);
  std::vector<model::Observation> obs;
  for (int n : {1, 2, 4}) {
    model::Observation o;
    o.kernel = "avx2-nt", o.size_bytes = 256ull << 20, o.threads = n, o.placement = parse_placement("scatter");
    o.label = fmt::format("nt {}T", n);
    o.gbps = model::predict(o, topo, truth);
    obs.push_back(o);
  }
  const auto fit = model::fit_machine(spec_machine, {"mlp_nt_lines"}, obs, topo);
  EXPECT_NEAR(fit.machine.mlp_nt_lines / truth.mlp_nt_lines, 1.0, 0.01);
  EXPECT_NE(fit.machine.origin_of("mlp_nt_lines").find("calibrated here"), std::string::npos);
  EXPECT_LT(fit.machine.band, spec_machine.band);
  EXPECT_NEAR(fit.machine.band, 2 * fit.report.log_rms + 0.05, 1e-12);
  EXPECT_NE(fit.machine.origin_of("band").find("calibrated here (2 x fit log-RMS"), std::string::npos);

  // Points the model cannot follow (one thread count 3x off the others): the band widens to the
  // fit's own error instead of keeping the narrower one it had (a 220% fit was labelled +-25%).
  auto bad = obs;
  bad[1].gbps *= 3;
  const auto poor = model::fit_machine(spec_machine, {"mlp_nt_lines"}, bad, topo);
  EXPECT_GT(poor.report.log_rms, 0.3);
  EXPECT_NEAR(poor.machine.band, 2 * poor.report.log_rms + 0.05, 1e-12);
  EXPECT_GT(poor.machine.band, spec_machine.band);
  EXPECT_NE(poor.machine.origin_of("band").find(fmt::format("{:.3f}", poor.report.log_rms)), std::string::npos);

  // As many points as parameters: a fit through every point says nothing of the model; no narrower band.
  const auto exact = model::fit_machine(spec_machine, {"mlp_nt_lines"}, {obs[0]}, topo);
  EXPECT_EQ(exact.machine.band, spec_machine.band);
  EXPECT_NE(exact.machine.origin_of("band").find("kept (1 point for 1 parameter"), std::string::npos);
}

}  // namespace
}  // namespace bwlab
