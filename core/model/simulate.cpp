// SPDX-License-Identifier: MIT
#include "core/model/simulate.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <cctype>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/model/explain.hpp"
#include "core/model/machine.hpp"
#include "core/model/solver.hpp"
#include "core/report/plural.hpp"
#include "core/report/units.hpp"
#include "core/sweep/parse.hpp"
#include "core/sweep/suggest.hpp"
#include "core/topology/placement.hpp"

namespace bwlab {

bool is_machine_preset(std::string_view name) {
  const auto& table = preset_table();
  return std::any_of(table.begin(), table.end(), [&](const MachineParams& m) { return m.name == name; });
}

std::vector<std::string> machine_presets() {
  std::vector<std::string> names;
  for (const auto& m : preset_table()) names.push_back(m.name);
  return names;
}

MachinePtr load_machine(std::string_view preset_or_path) {
  for (const auto& m : preset_table())
    if (m.name == preset_or_path) return std::make_shared<const MachineParams>(m);
  const std::string path(preset_or_path);
  std::error_code ec;
  const bool exists = std::filesystem::exists(path, ec);
  // No preset name has a '/' or a '.': a value with one ("m.json", a mistyped "icx2.jsn") is a file.
  const bool looks_like_file = path.find_first_of("/.") != std::string::npos || exists;
  const std::string presets = fmt::format("{}", fmt::join(machine_presets(), ", "));
  const std::string either = "(or a machine file: `bwlab machine spec ... --out FILE` from a spec sheet, `bwlab "
                             "calibrate --out FILE` on the machine)";
  if (path == "local")  // calibrate's --base for this host's machine
    throw InputError("unknown machine 'local': 'local' is `bwlab calibrate --base`'s name for this host before "
                     "the fit; pass the file it wrote (--machine FILE.json)");
  if (!looks_like_file) {
    const std::string near = nearest_name(path, machine_presets());
    throw InputError(fmt::format("unknown machine '{}'; {}presets are: {} {}", path,
                                 near.empty() ? "" : fmt::format("did you mean {}? ", near), presets, either));
  }
  if (!exists)
    throw InputError(fmt::format("machine file {} does not exist; presets are: {} {}", path, presets, either));
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot read machine file {}", path));
  return std::make_shared<const MachineParams>(read_machine_json(in, path));
}

std::string machine_topology(const MachineParams& m) { return m.topology.empty() ? "local" : m.topology; }

std::string llc_note(const Topology& topo, const MachineParams& m) {
  if (topo.llc_bytes() == 0 || topo.packages() <= 0) return {};
  const double per_package = double(topo.llc_bytes()) * topo.llc_count() / topo.packages();
  const int domains = std::max(1, topo.llc_count() / topo.packages());
  const int cores = topo.cores() / topo.packages();
  const int machine_domains = m.llc_domain_cores > 0 ? std::max(1, static_cast<int>(cores / m.llc_domain_cores)) : 1;
  if (std::abs(per_package - double(m.llc_bytes_per_package)) <= 0.01 * double(m.llc_bytes_per_package) &&
      domains == machine_domains)
    return {};
  // A synthetic L3 without size=... gets hwloc's default size: not the user's figure.
  const std::string& origin = topo.origin();
  const bool sized = origin.find("size=") != std::string::npos || origin.find(".xml") != std::string::npos ||
                     topo.is_this_system();
  // hwloc reads a synthetic "size=16MB" as 16,000,000 bytes; --llc and bwlab's sizes read MB as 2^20.
  static const std::regex decimal(R"(size=[0-9]+([kmgt])b(?![a-z]))", std::regex::icase);
  std::smatch unit;
  const bool decimal_unit = std::regex_search(origin, unit, decimal);
  return fmt::format("the model takes the LLC from machine {}: {} per package{}, not the topology's {} x{}{}{}; a "
                     "machine file from `bwlab machine spec --llc` sets another",
                     m.name, format_bytes(m.llc_bytes_per_package),
                     machine_domains > 1 ? fmt::format(" in {} domains", machine_domains) : std::string(),
                     format_bytes(topo.llc_bytes()), topo.llc_count(), sized ? "" : " (no size given: hwloc's default)",
                     decimal_unit ? fmt::format(" (hwloc reads {0}B as powers of 1000; {0}iB is powers of 1024)",
                                                std::string(1, static_cast<char>(std::toupper(unit[1].str()[0]))))
                                  : std::string());
}

std::string shape_note(const Topology& topo, const MachineParams& m) {
  if (m.topology.empty() || m.topology == "local") return {};
  int packages = 0, cores = 0;
  try {
    const Topology own = Topology::from_spec(m.topology);
    packages = own.packages(), cores = own.cores();
  } catch (const std::exception&) {
    return {};
  }
  if (packages <= 0 || topo.packages() <= 0) return {};
  const int per = cores / packages, topo_per = topo.cores() / topo.packages();
  if (packages == topo.packages() && per == topo_per) return {};
  const MachineParams used = model::on_topology(m, topo);
  return fmt::format("machine {} has {} x {} cores, the topology {} x {}: each of its packages gets the machine's "
                     "per-socket figures (DRAM {:.1f} GB/s a socket, {:.1f} GB/s in all{}), so this predicts another machine "
                     "under {}'s name; `bwlab machine spec` describes that one",
                     m.name, count_of(packages, "socket"), per, count_of(topo.packages(), "package"), topo_per,
                     m.dram_peak_gbps_per_node,
                     used.dram_peak_gbps_per_node * std::max(1, topo.numa_nodes()),
                     topo.packages() > 1 ? fmt::format(", link {:.1f} GB/s", m.link_gbps) : std::string(), m.name);
}

std::string simulated_machine_json(const MachineParams& m, const Topology& topo) {
  MachineParams used = model::on_topology(m, topo);
  used.topology = topo.origin();
  std::ostringstream text;
  write_machine_json(text, used);
  return text.str();
}

std::vector<int> placed_by_model(const Topology& topo, const Placement& placement, int threads, const MachineParams& m) {
  std::vector<int> pus = plan_pus(topo, placement, threads);  // throws if it cannot host them
  return placement.kind == Placement::Kind::none ? model::os_placed_pus(pus, topo, m) : pus;
}

namespace {

// The kernels a simulation names, checked against the machine (what it runs) and the fills.
std::vector<const KernelInfo*> checked_kernels(const std::vector<std::string>& names, const MachineParams& m,
                                               const std::vector<Fill>& fills) {
  std::vector<const KernelInfo*> kernels;
  for (const auto& name : names) {
    const KernelInfo* k = find_kernel(name);
    if (!k) throw InputError(fmt::format("unknown kernel '{}'; kernels are: {}", name, kernel_names()));
    if (const std::string why = m.kernel_unavailable(k->name); !why.empty()) throw InputError(why);
    if (k->zero_only)
      for (const Fill& f : fills)
        if (!f.zero_only())
          throw InputError(fmt::format("kernel {} can only write zeros; drop --fill {}", k->name, f.label()));
    kernels.push_back(k);
  }
  return kernels;
}

// The checks every simulated sweep shares: something to simulate, a memory binding the topology has.
void check_spec(const SweepSpec& spec, const Topology& topo) {
  model::check_nodes_within_packages(topo);
  if (spec.sizes.empty()) throw InputError("no size to simulate");
  if (spec.threads.empty()) throw InputError("no thread count to simulate");
  if (spec.fills.empty()) throw InputError("no fill to simulate");
  if (spec.membind.kind == MemBind::Kind::node && spec.membind.node >= topo.numa_nodes())
    throw InputError(fmt::format("--membind {}: NUMA node {} does not exist; topology {} has {} node(s)",
                                 spec.membind.label(), spec.membind.node, topo.origin(), topo.numa_nodes()));
  check_placement_membind(spec.placement, spec.membind);
}

// A simulated point's fields that do not depend on the solution.
Point simulated_point(const SweepSpec& spec, const MachineParams& m, const KernelInfo& k, std::uint64_t size,
                      int threads, const Fill& fill) {
  Point p;
  p.source = "simulated";
  p.host = fmt::format("model:{}", m.name);
  p.cpu_model = m.cpu.empty() ? m.name : m.cpu;
  p.kernel = std::string(k.name);
  p.traffic_class = std::string(to_string(k.traffic));
  p.fill = fill.label();
  p.threads = threads;
  p.placement = spec.placement.label();
  p.membind = spec.membind.label();
  p.pages = std::string(to_string(spec.pages));
  p.size_bytes = size;
  p.reps = 0;
  p.duration_ms = spec_duration_ms(spec);
  return p;
}

// The flags that say what the model left out or assumed for `kernel` (fill, page size, memset)
// and where its bytes went (the LLC-served share `hit`, the RFO reads `evaded`).
void add_model_flags(Point& p, const SweepSpec& spec, const KernelInfo& k, const Fill& fill,
                     const model::LoadGroup& group, const model::Shape& shape, const MachineParams& m, double hit,
                     double evaded) {
  if (!fill.zero_only())
    p.flags.push_back(model::stos_evasion_applies(group, m)
                          ? fmt::format("simulated: fill {} keeps {:.0f}% of rep stos's RFO evasion on machine {} "
                                        "(stos_evasion_nonzero); the fill's other effects are not modelled",
                                        fill.label(), 100 * m.stos_evasion_nonzero, m.name)
                          : fmt::format("simulated: fill {} not modelled (predicted as zero)", fill.label()));
  if (spec.pages != Pages::small4k) p.flags.push_back("simulated: page size not modelled (predicted as 4k)");
  if (k.name == "memset")
    p.flags.push_back("simulated: memset modelled as rep stosb (glibc 2.36 uses rep stosb for large sizes)");
  if (hit > 0.01 && hit < 0.99)
    p.flags.push_back(fmt::format("simulated: {:.0f}% of the buffer served from the LLC", 100 * hit));
  else if (hit >= 0.99)
    p.flags.push_back(kLlcResidentFlag);
  if (evaded > 0.005)
    p.flags.push_back(fmt::format("simulated: {:.0f}% of RFO reads evaded ({})", 100 * evaded,
                                  model::fast_ownership(shape, m)
                                      ? fmt::format("one socket: owned in {:.0f} ns", m.own_latency_ns)
                                      : std::string("ownership still waits for memory")));
}

using model::band_top;
using model::band_top_of;

// The remote-memory flag of some threads of a mixed solve, by their cleared bytes (as the scaling
// points say it): `who` names them ("the victim's memory", "memory").
std::string remote_flag(const std::vector<model::ThreadResult>& r, const std::vector<std::size_t>& threads,
                        const std::string& who) {
  double far = 0, all = 0;
  for (std::size_t t : threads) {
    far += r[t].gbps * r[t].remote_share;
    all += r[t].gbps;
  }
  const double pct = all > 0 ? 100 * far / all : 0;
  if (pct < 0.5) return {};
  return pct > 99.5 ? fmt::format("simulated: {} on another package, through the inter-socket link", who)
                    : fmt::format("simulated: {:.0f}% of the bytes cleared go to memory on another package, through "
                                  "the inter-socket link",
                                  pct);
}

}  // namespace

std::vector<Point> simulate_sweep(const SweepSpec& spec, const Topology& topo, const MachineParams& machine,
                                  std::vector<std::string>* explain) {
  check_spec(spec, topo);
  const MachineParams m = model::on_topology(machine, topo);
  if (spec.kernels.empty()) throw InputError("no kernel to simulate");
  const std::vector<const KernelInfo*> kernels = checked_kernels(spec.kernels, m, spec.fills);
  std::map<int, std::vector<int>> plans;
  for (int t : spec.threads) plans[t] = placed_by_model(topo, spec.placement, t, m);  // throws if it cannot host t

  const double window_ns = spec_duration_ms(spec) * 1e6;
  std::vector<Point> points;
  points.reserve(spec.sizes.size() * spec.threads.size() * spec.fills.size() * kernels.size());
  const model::Shape shape = model::shape_of(topo);
  std::map<int, model::Placed> placed;
  for (int n : spec.threads) placed.emplace(n, model::place_threads(plans[n], {spec.membind}, topo, shape, m));
  for (std::uint64_t size : spec.sizes) {
    for (int n : spec.threads) {
      const std::vector<int>& pus = plans[n];
      const model::Placed& place = placed.at(n);
      for (const Fill& fill : spec.fills) {
        for (const KernelInfo* k : kernels) {
          std::vector<model::LoadGroup> groups = place.groups;
          for (auto& g : groups) {
            model::set_kernel(g, k->name, size, m);
            g.zero_fill = fill.zero_only();
          }
          const model::Solution sol = model::solve_groups(groups, shape, m);
          Point p = simulated_point(spec, m, *k, size, n, fill);
          double sum = 0, lo = sol.groups.front().gbps, hi = lo;
          bool remote = false, smt = false;
          double hit = 0, evaded = 0;
          // Per-thread median from the groups' counts (threads of a group share a rate).
          std::vector<std::pair<double, int>> rates;
          for (std::size_t gi = 0; gi < groups.size(); ++gi) {
            const auto& r = sol.groups[gi];
            sum += r.gbps * groups[gi].count;
            lo = std::min(lo, r.gbps);
            hi = std::max(hi, r.gbps);
            remote |= r.remote;
            smt |= groups[gi].core_share < 1;
            hit = std::max(hit, r.hit);
            evaded = std::max(evaded, r.rfo_evaded);
            rates.emplace_back(r.gbps, groups[gi].count);
          }
          std::sort(rates.begin(), rates.end());
          auto nth = [&](int i) {
            for (const auto& [v, c] : rates) {
              if (i < c) return v;
              i -= c;
            }
            return rates.back().first;
          };
          const double med = n % 2 ? nth(n / 2) : 0.5 * (nth(n / 2 - 1) + nth(n / 2));
          // The uncertainty band. Its top never asks the DRAM of the nodes the point's memory is on
          // (not the whole machine's) for more than their peak: the rate may rise only as far as
          // its DRAM traffic (reads and writes, the LLC-served share excluded) stays within it.
          p.gbps_median = sum;
          p.gbps_min = sum / (1 + m.band);
          double dram = 0, peak = 0;
          for (std::size_t node = 0; node < sol.node_dram_gbps.size(); ++node) {
            dram += sol.node_dram_gbps[node];
            if (std::any_of(groups.begin(), groups.end(),
                            [&](const model::LoadGroup& g) { return g.mem_weights[node] > 0; }))
              peak += m.dram_peak_gbps_per_node;
          }
          p.gbps_max = band_top(sum, m.band, dram, peak);
          p.gbps_pstdev_pct = Point::kNone;  // no repetitions: no spread (an empty cell), not a 0% one
          p.gbps_per_thread_median = med;
          p.thread_fairness = hi > 0 ? lo / hi : 0;
          p.elapsed_ns_median = window_ns;
          p.bytes_median = sum * window_ns;  // GB/s x ns = bytes
          p.pus_planned = pus;  // planned; nothing observed, so `pus` (observed PUs) stays empty
          add_model_flags(p, spec, *k, fill, groups.front(), shape, m, hit, evaded);
          // The shares of the point's memory, by cleared bytes, on another package than its threads'
          // (through the link) and on another node of their own package (sub-NUMA clustering, a
          // 'numa' level below the package: no cost in the model, so remote, node:N and local gave
          // the same figures without a word).
          double far = 0, near = 0, all = 0;
          for (std::size_t gi = 0; gi < groups.size(); ++gi) {
            const auto& g = groups[gi];
            const double c = sol.groups[gi].gbps * g.count;
            all += c;
            for (std::size_t node = 0; node < g.mem_weights.size(); ++node) {
              if (shape.node_package[node] != g.package) far += c * g.mem_weights[node];
              else if (static_cast<int>(node) != g.node) near += c * g.mem_weights[node];
            }
          }
          if (remote) {
            const double pct = all > 0 ? 100 * far / all : 100;
            p.flags.push_back(pct > 99.5 ? std::string("simulated: memory on another package, through the inter-socket link")
                                         : fmt::format("simulated: {:.0f}% of the bytes cleared go to memory on another "
                                                       "package, through the inter-socket link",
                                                       pct));
          }
          if (all > 0 && near / all >= 0.005)
            p.flags.push_back(fmt::format("simulated: {} on another NUMA node of the threads' own package, modelled as "
                                          "local (the model has no cost for a node within a package, e.g. sub-NUMA "
                                          "clustering)",
                                          near / all > 0.995 ? std::string("memory")
                                                             : fmt::format("{:.0f}% of the memory", 100 * near / all)));
          if (smt) p.flags.push_back("simulated: SMT siblings share a core");
          if (explain)
            explain->push_back(model::explain_point(
                fmt::format("{} {} x {}/thread, {}", p.kernel, p.fill, size_label(size), count_of(n, "thread")), groups, sol, shape, m));
          points.push_back(std::move(p));
        }
      }
    }
  }
  return points;
}

std::vector<Point> simulate_victim(const SweepSpec& spec, const std::vector<std::string>& victims,
                                   const std::vector<std::string>& aggressors, const Topology& topo,
                                   const MachineParams& machine) {
  check_spec(spec, topo);
  const MachineParams m = model::on_topology(machine, topo);
  if (victims.empty() || aggressors.empty())
    throw InputError("--scenario victim needs victim and aggressor kernels (--victim, --aggressor)");
  const std::vector<const KernelInfo*> vk = checked_kernels(victims, m, spec.fills);
  const std::vector<const KernelInfo*> ak = checked_kernels(aggressors, m, spec.fills);
  std::vector<int> counts = spec.threads;  // 1 victim + k aggressors; k = 0 is the baseline
  counts.push_back(1);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  // The victim on the plan's first PU, aggressors on the next ones, as run_victim places them.
  const std::vector<int> pus = placed_by_model(topo, spec.placement, counts.back(), m);  // throws if it cannot host them
  const model::Shape shape = model::shape_of(topo);
  const double window_ns = spec_duration_ms(spec) * 1e6;

  std::vector<Point> points;
  for (std::uint64_t size : spec.sizes)
    for (const Fill& fill : spec.fills)
      for (const KernelInfo* v : vk) {
        double baseline = 0;
        for (const KernelInfo* a : ak)
          for (int n : counts) {
            std::vector<model::ThreadSpec> threads(static_cast<std::size_t>(n),
                                                   model::ThreadSpec{std::string(a->name), size, 0, spec.membind,
                                                                     fill.zero_only()});
            threads[0].kernel = std::string(v->name);
            const std::vector<int> planned(pus.begin(), pus.begin() + n);
            for (int i = 0; i < n; ++i) threads[static_cast<std::size_t>(i)].pu = planned[static_cast<std::size_t>(i)];
            model::Solution sol;
            // `machine`, not `m`: simulate_threads puts it on the topology itself (twice would split a
            // package's DRAM peak twice on a Sub-NUMA topology).
            const std::vector<model::ThreadResult> r = model::simulate_threads(threads, topo, machine, &sol);
            const double gbps = r.front().gbps;
            if (n == 1) baseline = gbps;

            Point p = simulated_point(spec, m, *v, size, n, fill);
            p.scenario = "victim";
            p.role = "victim";
            p.peer_kernel = std::string(a->name);
            p.peer_threads = n - 1;
            p.gbps_median = gbps;
            p.gbps_min = gbps / (1 + m.band);
            p.gbps_max = band_top_of(gbps, m, sol, r, {0});
            p.gbps_pstdev_pct = Point::kNone;  // no repetitions: no spread (an empty cell), not a 0% one
            p.gbps_per_thread_median = gbps;
            p.thread_fairness = 1;
            p.elapsed_ns_median = window_ns;
            p.bytes_median = gbps * window_ns;
            p.pus_planned = planned;
            double others = 0;
            for (std::size_t i = 1; i < r.size(); ++i) others += r[i].gbps;
            p.peer_gbps_median = others;
            p.baseline_gbps = baseline;
            p.slowdown_pct = baseline > 0 ? (1.0 - gbps / baseline) * 100.0 : Point::kNone;
            model::LoadGroup g;
            model::set_kernel(g, v->name, size, m);
            add_model_flags(p, spec, *v, fill, g, shape, m, r.front().hit, r.front().rfo_evaded);
            if (std::string f = remote_flag(r, {0}, "the victim's memory"); !f.empty()) p.flags.push_back(std::move(f));
            if (r.front().smt_shared) p.flags.push_back("simulated: the victim shares its core with an aggressor (SMT siblings)");
            points.push_back(std::move(p));
          }
      }
  return points;
}

std::vector<Point> simulate_mix(const SweepSpec& spec, const std::vector<std::pair<std::string, int>>& mix,
                                const Topology& topo, const MachineParams& machine) {
  SweepSpec checked = spec;
  checked.threads = {1};  // the mix sets the threads
  check_spec(checked, topo);
  const MachineParams m = model::on_topology(machine, topo);
  if (mix.empty()) throw InputError("--scenario mix needs --mix, e.g. --mix stosb:1,avx512-nt:1");
  std::vector<std::string> names;
  int total = 0;
  for (const auto& [kernel, threads] : mix) {
    if (threads < 1) throw InputError(fmt::format("--mix {}:{}: each kernel needs 1 thread or more", kernel, threads));
    names.push_back(kernel);
    total += threads;
  }
  const std::vector<const KernelInfo*> kernels = checked_kernels(names, m, spec.fills);
  // Slots in mix order, as run_mix: the first part's threads on the plan's first PUs, then the next part's.
  if (const std::size_t have = topo.allowed_pus().size(); static_cast<std::size_t>(total) > have)
    throw InputError(fmt::format("--mix asks for {} threads, but topology {} has only {}", total, topo.origin(),
                                 count_of(have, "PU")));
  const std::vector<int> pus = placed_by_model(topo, spec.placement, total, m);  // throws if the placement cannot host them
  std::vector<std::vector<std::size_t>> slots(mix.size());
  for (std::size_t g = 0, next = 0; g < mix.size(); ++g)
    for (int i = 0; i < mix[g].second; ++i) slots[g].push_back(next++);
  const model::Shape shape = model::shape_of(topo);
  const double window_ns = spec_duration_ms(spec) * 1e6;

  std::vector<Point> points;
  for (std::uint64_t size : spec.sizes)
    for (const Fill& fill : spec.fills) {
      std::vector<model::ThreadSpec> threads;
      for (std::size_t g = 0; g < mix.size(); ++g)
        for (std::size_t slot : slots[g])
          threads.push_back({std::string(kernels[g]->name), size, pus[slot], spec.membind, fill.zero_only()});
      model::Solution sol;
      const std::vector<model::ThreadResult> r = model::simulate_threads(threads, topo, machine, &sol);
      for (std::size_t g = 0; g < mix.size(); ++g) {
        const KernelInfo& k = *kernels[g];
        Point p = simulated_point(spec, m, k, size, mix[g].second, fill);
        p.scenario = "mix";
        p.role = "mix";
        double sum = 0, lo = r[slots[g].front()].gbps, hi = lo, hit = 0, evaded = 0;
        bool smt = false;
        std::vector<double> rates;
        for (std::size_t slot : slots[g]) {
          const model::ThreadResult& t = r[slot];
          sum += t.gbps;
          lo = std::min(lo, t.gbps), hi = std::max(hi, t.gbps);
          hit = std::max(hit, t.hit), evaded = std::max(evaded, t.rfo_evaded);
          smt |= t.smt_shared;
          rates.push_back(t.gbps);
          p.pus_planned.push_back(pus[slot]);
        }
        std::sort(rates.begin(), rates.end());
        const std::size_t n = rates.size();
        p.gbps_median = sum;
        p.gbps_min = sum / (1 + m.band);
        p.gbps_max = band_top_of(sum, m, sol, r, slots[g]);
        p.gbps_pstdev_pct = Point::kNone;  // no repetitions: no spread (an empty cell), not a 0% one
        p.gbps_per_thread_median = n % 2 ? rates[n / 2] : 0.5 * (rates[n / 2 - 1] + rates[n / 2]);
        p.thread_fairness = hi > 0 ? lo / hi : 0;
        p.elapsed_ns_median = window_ns;
        p.bytes_median = sum * window_ns;
        double others = 0;
        int other_threads = 0;
        for (std::size_t h = 0; h < mix.size(); ++h) {
          if (h == g) continue;
          p.peer_kernel += (p.peer_kernel.empty() ? "" : "+") + std::string(kernels[h]->name);
          for (std::size_t slot : slots[h]) others += r[slot].gbps, ++other_threads;
        }
        p.peer_threads = other_threads;
        p.peer_gbps_median = other_threads > 0 ? others : Point::kNone;
        model::LoadGroup lg;
        model::set_kernel(lg, k.name, size, m);
        add_model_flags(p, spec, k, fill, lg, shape, m, hit, evaded);
        if (std::string f = remote_flag(r, slots[g], "memory"); !f.empty()) p.flags.push_back(std::move(f));
        if (smt) p.flags.push_back("simulated: SMT siblings share a core");
        points.push_back(std::move(p));
      }
    }
  return points;
}

std::string explain_simulated_point(const Point& p, const Topology& topo, const MachineParams& m) {
  if (p.source != "simulated") throw InputError(fmt::format("a {} point has no model explanation", p.source));
  // A victim or mix point re-solved as a scaling one would explain other threads than its own.
  if (p.scenario != "scaling")
    throw InputError(fmt::format("the model explains scaling points; a {} point has no explanation yet", p.scenario));
  SweepSpec spec;
  spec.kernels = {p.kernel};
  spec.sizes = {p.size_bytes};
  spec.threads = {p.threads};
  spec.fills = parse_fills(p.fill);
  spec.placement = parse_placement(p.placement);  // none plans as scatter
  spec.membind = parse_membind(p.membind);
  std::vector<std::string> why;
  simulate_sweep(spec, topo, m, &why);
  return why.front();
}

}  // namespace bwlab
