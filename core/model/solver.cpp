// SPDX-License-Identifier: MIT
// The contention model's fixed point (docs/model.md, "Shared limits" and "Solving").
#include "core/model/solver.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/model/uarch.hpp"
#include "core/report/plural.hpp"

namespace bwlab::model {
namespace {

constexpr double kLineBytes = 64;     // lines x 64 B / ns = GB/s
constexpr double kUmax = 1 - 1e-12;   // utilisation stays below 1: latency is finite
constexpr double kHitExponent = 3;    // hit = min(1, usable / footprint)^3, see docs/model.md

// Resource indices: nodes, then links (from * P + to), then one LLC per package.
struct Layout {
  int nodes = 0, packages = 0;
  int link(int from, int to) const { return nodes + from * packages + to; }
  int llc(int pkg) const { return nodes + packages * packages + pkg; }
  int size() const { return nodes + packages * packages + packages; }
};

struct Evaluator {
  const std::vector<LoadGroup>& groups;
  const Shape& shape;
  const MachineParams& m;
  Layout lay;
  std::vector<double> hit;                // per group, independent of load
  std::vector<double> demand, capacity;   // per resource
  std::vector<double> reads, writes;      // per node
  std::vector<GroupRate> rates;
  std::vector<std::vector<int>> users;    // per resource: groups whose rate depends on it

  Evaluator(const std::vector<LoadGroup>& g, const Shape& s, const MachineParams& mp) : groups(g), shape(s), m(mp) {
    lay.nodes = static_cast<int>(shape.node_package.size());
    lay.packages = shape.packages;
    const auto n = static_cast<std::size_t>(lay.size());
    demand.assign(n, 0);
    capacity.assign(n, 0);
    users.resize(n);
    reads.assign(static_cast<std::size_t>(lay.nodes), 0);
    writes.assign(static_cast<std::size_t>(lay.nodes), 0);
    rates.resize(groups.size());
    // LLC footprint of the cacheable threads of each LLC domain: they compete for its share of
    // the package's LLC. Intel parts have one domain per package; AMD's CCX/CCD each have their
    // own L3 (llc_domain_cores), and place_threads says which domain each group caches in
    // (docs/model.md, "LLC domains").
    int domain_slots = 1;
    for (const auto& gr : groups) domain_slots = std::max(domain_slots, gr.llc_domain + 1);
    auto slot = [&](const LoadGroup& gr) {
      return static_cast<std::size_t>(gr.package) * static_cast<std::size_t>(domain_slots) +
             static_cast<std::size_t>(gr.llc_domain);
    };
    std::vector<double> footprint(static_cast<std::size_t>(lay.packages * domain_slots), 0);  // bytes per domain
    for (const auto& gr : groups)
      if (gr.traffic == Traffic::write_allocate) footprint[slot(gr)] += static_cast<double>(gr.size_bytes) * gr.count;
    for (std::size_t i = 0; i < groups.size(); ++i) {
      const auto& gr = groups[i];
      double h = 0;
      if (gr.traffic == Traffic::write_allocate) {
        const auto p = static_cast<std::size_t>(gr.package);
        const double domains = llc_domains(shape.cores_per_package[p], m);
        const double usable = m.llc_usable_fraction * static_cast<double>(m.llc_bytes_per_package) / domains;
        const double f = footprint[slot(gr)];
        h = f <= 0 ? 1 : std::pow(std::min(1.0, usable / f), kHitExponent);
      }
      hit.push_back(h);
      if (h > 0) users[static_cast<std::size_t>(lay.llc(gr.package))].push_back(static_cast<int>(i));
      if (h < 1)
        for (int node = 0; node < lay.nodes; ++node) {
          if (gr.mem_weights[static_cast<std::size_t>(node)] <= 0) continue;
          users[static_cast<std::size_t>(node)].push_back(static_cast<int>(i));
          const int mp2 = shape.node_package[static_cast<std::size_t>(node)];
          if (mp2 != gr.package) {
            users[static_cast<std::size_t>(lay.link(gr.package, mp2))].push_back(static_cast<int>(i));
            users[static_cast<std::size_t>(lay.link(mp2, gr.package))].push_back(static_cast<int>(i));
          }
        }
    }
    for (auto& u : users) {
      std::sort(u.begin(), u.end());
      u.erase(std::unique(u.begin(), u.end()), u.end());
    }
  }

  // Fraction of a write-allocate group's RFO reads evaded at memory-node utilisation u.
  double evaded_fraction(const LoadGroup& g, double u) const {
    if (g.traffic != Traffic::write_allocate) return 0;
    double e = 0;
    if (stos_evasion_applies(g, m))
      e = std::clamp(m.stos_evasion * (1 - m.stos_evasion_load_drop * u) * (g.zero_fill ? 1 : m.stos_evasion_nonzero),
                     0.0, 1.0);
    return std::max(e, std::clamp(m.speci2m_max_fraction * u, 0.0, 1.0));
  }

  double class_lines(const LoadGroup& g) const {
    const double base = g.traffic == Traffic::write_allocate ? m.mlp_wa_lines : m.mlp_nt_lines;
    return base * g.kernel_scale * g.core_share * m.clock_scale();
  }

  // Rates of every group and the demand and capacity of every resource at utilisations u.
  void evaluate(const std::vector<double>& u) {
    std::fill(demand.begin(), demand.end(), 0.0);
    std::fill(reads.begin(), reads.end(), 0.0);
    std::fill(writes.begin(), writes.end(), 0.0);
    for (std::size_t i = 0; i < groups.size(); ++i) {
      const LoadGroup& g = groups[i];
      GroupRate& r = rates[i];
      const double lines = class_lines(g);
      const double h = hit[i];
      r.hit = h;
      r.llc_gbps = lines * kLineBytes /
                   (m.llc_latency_ns * queue_factor(m.queue_k, u[static_cast<std::size_t>(lay.llc(g.package))]));
      double lat = 0;
      r.remote = false;
      for (int node = 0; node < lay.nodes; ++node) {
        const auto ni = static_cast<std::size_t>(node);
        const double w = g.mem_weights[ni];
        if (w <= 0) continue;
        double l = m.dram_latency_ns * queue_factor(m.queue_k, u[ni]);
        const int mp2 = shape.node_package[ni];
        if (mp2 != g.package) {
          r.remote = true;
          const double ul = std::max(u[static_cast<std::size_t>(lay.link(g.package, mp2))],
                                     u[static_cast<std::size_t>(lay.link(mp2, g.package))]);
          l += m.remote_extra_ns * queue_factor(m.queue_k, ul);
        }
        // A line written without its data (evaded RFO: fast-string or SpecI2M ownership) waits
        // only for the home's coherence answer. On one socket where the LLC's snoop filter gives
        // it (own_latency_ns; with probability u the write-back queue is busy and the line waits the
        // full loaded latency, so stosb meets NT at saturation); on several sockets it needs the
        // memory directory in DRAM or a snoop of the others: a memory latency (docs/model.md,
        // "Ownership without data").
        const double e = evaded_fraction(g, u[ni]);
        if (e > 0 && fast_ownership(shape, m)) {
          const double own = (1 - u[ni]) * m.own_latency_ns + u[ni] * l;
          l = (1 - e) * l + e * own;
        }
        lat += w * l;
      }
      r.dram_gbps = lat > 0 ? lines * kLineBytes / lat : 0;
      const double t = (h > 0 ? h / r.llc_gbps : 0) + (h < 1 ? (1 - h) / r.dram_gbps : 0);
      r.gbps = t > 0 ? 1 / t : 0;
      // Traffic this group puts on each resource (GB/s, all its threads).
      const double cleared = r.gbps * g.count;
      if (h > 0) demand[static_cast<std::size_t>(lay.llc(g.package))] += h * cleared;
      const double mem = (1 - h) * cleared;
      double evaded_sum = 0;
      for (int node = 0; node < lay.nodes && mem > 0; ++node) {
        const double w = g.mem_weights[static_cast<std::size_t>(node)];
        if (w <= 0) continue;
        const auto ni = static_cast<std::size_t>(node);
        const double e = g.traffic == Traffic::write_allocate ? evaded_fraction(g, u[ni]) : 1;  // NT, clzero: no read
        evaded_sum += w * e;
        const double wr = w * mem, rd = w * mem * (1 - e);
        writes[ni] += wr;
        reads[ni] += rd;
        const int mp2 = shape.node_package[ni];
        if (mp2 != g.package) {
          demand[static_cast<std::size_t>(lay.link(g.package, mp2))] += wr;
          demand[static_cast<std::size_t>(lay.link(mp2, g.package))] += rd;
        }
      }
      r.rfo_evaded = g.traffic == Traffic::write_allocate ? evaded_sum : 0;
    }
    for (int node = 0; node < lay.nodes; ++node) {
      const auto ni = static_cast<std::size_t>(node);
      const double total = reads[ni] + writes[ni];
      const double rf = total > 0 ? reads[ni] / total : 0;
      demand[ni] = total;
      capacity[ni] = m.dram_peak_gbps_per_node * m.dram_efficiency * (1 - m.rw_mix_penalty * 4 * rf * (1 - rf));
    }
    for (int a = 0; a < lay.packages; ++a)
      for (int b = 0; b < lay.packages; ++b) capacity[static_cast<std::size_t>(lay.link(a, b))] = m.link_gbps;
    for (int p = 0; p < lay.packages; ++p)
      capacity[static_cast<std::size_t>(lay.llc(p))] =
          m.llc_gbps_per_core * std::max(1, shape.cores_per_package[static_cast<std::size_t>(p)]);
  }

  double excess(std::vector<double>& u, std::size_t j, double x) {
    u[j] = x;
    evaluate(u);
    return demand[j] / capacity[j] - x;
  }
};

}  // namespace

double llc_domains(int cores_per_package, const MachineParams& m) {
  if (!(m.llc_domain_cores > 0)) return 1;
  return std::max(1.0, std::floor(static_cast<double>(cores_per_package) / m.llc_domain_cores));
}

bool stos_evasion_applies(const LoadGroup& g, const MachineParams& m) {
  return g.traffic == Traffic::write_allocate && g.rep_stos && m.stos_no_rfo_min_bytes > 0 &&
         g.size_bytes >= m.stos_no_rfo_min_bytes;
}

bool fast_ownership(const Shape& shape, const MachineParams& m) { return shape.packages == 1 && m.own_latency_ns > 0; }

double queue_factor(double k, double u) {
  u = std::clamp(u, 0.0, kUmax);
  return 1 + k * u / (1 - u);
}

Shape shape_of(const Topology& topo) {
  Shape s;
  s.packages = std::max(1, topo.packages());
  s.node_package.assign(static_cast<std::size_t>(std::max(1, topo.numa_nodes())), 0);
  s.cores_per_package.assign(static_cast<std::size_t>(s.packages), 0);
  std::map<int, int> core_pkg;
  for (const auto& pu : topo.pus()) {
    if (pu.numa_node >= 0 && static_cast<std::size_t>(pu.numa_node) < s.node_package.size())
      s.node_package[static_cast<std::size_t>(pu.numa_node)] = pu.package;
    core_pkg[pu.core] = pu.package;
  }
  for (auto [core, pkg] : core_pkg)
    if (pkg >= 0 && pkg < s.packages) ++s.cores_per_package[static_cast<std::size_t>(pkg)];
  return s;
}

void check_nodes_within_packages(const Topology& topo) {
  std::map<int, std::set<int>> packages_of_node;
  for (const auto& pu : topo.pus()) packages_of_node[pu.numa_node].insert(pu.package);
  for (const auto& [node, pkgs] : packages_of_node) {
    if (pkgs.size() < 2) continue;
    std::string hint;
    const std::string& o = topo.origin();
    if (const auto at = o.find("package:"); at != std::string::npos && o.find("numa") == std::string::npos) {
      const auto end = o.find(' ', at);
      hint = fmt::format("; give each package its memory with a numa level, e.g. '{} numa:1{}'",
                         o.substr(0, end), end == std::string::npos ? "" : o.substr(end));
    }
    throw InputError(fmt::format("topology {}: NUMA node {} spans {} packages; the simulator attaches each node's "
                                 "memory to one package{}",
                                 o, node, pkgs.size(), hint));
  }
}

Solution solve_groups(const std::vector<LoadGroup>& groups, const Shape& shape, const MachineParams& m) {
  Evaluator ev(groups, shape, m);
  const auto n = static_cast<std::size_t>(ev.lay.size());
  std::vector<double> u(n, 0.0);
  std::vector<std::size_t> active;
  for (std::size_t j = 0; j < n; ++j)
    if (!ev.users[j].empty()) active.push_back(j);

  Solution sol;
  for (int sweep = 1; sweep <= 200; ++sweep) {
    double change = 0;
    for (std::size_t j : active) {
      // Root of demand/capacity - u in [0, 1): decreasing in u (latency grows, rates fall).
      const double old = u[j];
      double a = 0, fa = ev.excess(u, j, 0.0);
      double x = 0;
      if (fa > 0) {
        double b = kUmax, fb = ev.excess(u, j, b);
        int side = 0;
        for (int it = 0; it < 100 && b - a > 1e-13; ++it) {  // Illinois (regula falsi)
          x = (a * fb - b * fa) / (fb - fa);
          if (!(x > a && x < b)) x = 0.5 * (a + b);
          const double fx = ev.excess(u, j, x);
          if (std::abs(fx) < 1e-12) break;
          if ((fx > 0) == (fa > 0)) {
            a = x, fa = fx;
            if (side == -1) fb *= 0.5;
            side = -1;
          } else {
            b = x, fb = fx;
            if (side == 1) fa *= 0.5;
            side = 1;
          }
        }
      }
      u[j] = x;
      change = std::max(change, std::abs(x - old));
    }
    sol.sweeps = sweep;
    if (change < 1e-10 || active.size() <= 1) {
      sol.converged = true;
      break;
    }
  }
  ev.evaluate(u);
  sol.groups = ev.rates;
  const auto nodes = static_cast<std::size_t>(ev.lay.nodes);
  sol.node_util.assign(u.begin(), u.begin() + static_cast<std::ptrdiff_t>(nodes));
  sol.node_dram_gbps.assign(ev.demand.begin(), ev.demand.begin() + static_cast<std::ptrdiff_t>(nodes));
  sol.node_capacity_gbps.assign(ev.capacity.begin(), ev.capacity.begin() + static_cast<std::ptrdiff_t>(nodes));
  const auto links = static_cast<std::size_t>(ev.lay.packages * ev.lay.packages);
  sol.link_util.assign(u.begin() + static_cast<std::ptrdiff_t>(nodes),
                       u.begin() + static_cast<std::ptrdiff_t>(nodes + links));
  sol.llc_util.assign(u.begin() + static_cast<std::ptrdiff_t>(nodes + links), u.end());
  return sol;
}

double single_pass_gbps(const GroupRate& g, std::uint64_t size, const MachineParams& m) {
  const double s = static_cast<double>(size);  // bytes; rates in bytes/ns
  double t = g.hit > 0 ? s * g.hit / g.llc_gbps : 0;
  const double sd = s * (1 - g.hit);
  if (sd > 0) {
    const double tau = m.warmup_us * 1e3;  // ns
    const double slow = g.dram_gbps * m.warmup_ratio;
    if (tau <= 0 || m.warmup_ratio >= 1 || sd <= slow * tau)
      t += tau > 0 && m.warmup_ratio < 1 ? sd / slow : sd / g.dram_gbps;
    else
      t += tau + (sd - slow * tau) / g.dram_gbps;
  }
  return t > 0 ? s / t : 0;
}

Traffic traffic_of(std::string_view kernel) {
  const KernelInfo* k = find_kernel(kernel);
  if (!k) throw InputError(fmt::format("unknown kernel '{}'; kernels are: {}", kernel, kernel_names()));
  switch (k->traffic) {
    case TrafficClass::write_allocate: return Traffic::write_allocate;
    case TrafficClass::non_temporal: return Traffic::non_temporal;
    case TrafficClass::zeroing_without_fetch: return Traffic::zero_no_fetch;
  }
  return Traffic::write_allocate;
}

bool is_rep_stos(std::string_view kernel) {
  const KernelInfo* k = find_kernel(kernel);
  if (!k) return false;
  return k->name == "stosb" || k->name == "stosq" || k->name == "memset";
}

void set_kernel(LoadGroup& g, std::string_view kernel, std::uint64_t size, const MachineParams& m) {
  const KernelInfo* k = find_kernel(kernel);
  if (!k) throw InputError(fmt::format("unknown kernel '{}'; kernels are: {}", kernel, kernel_names()));
  g.traffic = traffic_of(k->name);
  g.rep_stos = is_rep_stos(k->name);
  g.kernel_scale = m.scale_for(k->name);
  g.size_bytes = size;
  g.core_share = smt_share(g.traffic == Traffic::write_allocate ? m.smt_gain : m.smt_gain_nt, g.smt_busy);
}

double smt_share(double gain, int k) { return (1 + gain * (k - 1)) / std::max(1, k); }

namespace {
// Each package's cores in logical order (a core's rank there sets its LLC domain).
std::map<int, std::vector<int>> cores_by_package(const Topology& topo) {
  std::map<int, std::vector<int>> cores_of;
  for (const auto& pu : topo.pus()) cores_of[pu.package].push_back(pu.core);
  for (auto& [pkg, cores] : cores_of) {
    std::sort(cores.begin(), cores.end());
    cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
  }
  return cores_of;
}

int domains_of(int package, const Shape& shape, const MachineParams& m) {
  return static_cast<int>(
      llc_domains(package >= 0 && static_cast<std::size_t>(package) < shape.cores_per_package.size()
                      ? shape.cores_per_package[static_cast<std::size_t>(package)]
                      : 1,
                  m));
}

int domain_of_rank(int rank, int domains, const MachineParams& m) {
  return domains > 1 ? std::min(domains - 1, static_cast<int>(rank / m.llc_domain_cores)) : 0;
}
}  // namespace

std::vector<int> os_placed_pus(const std::vector<int>& plan, const Topology& topo, const MachineParams& m) {
  const Shape shape = shape_of(topo);
  const auto cores_of = cores_by_package(topo);
  std::map<int, std::vector<int>> pus_of_core;  // core -> its allowed PUs' os indexes, by SMT rank
  for (const auto& pu : topo.pus())
    if (pu.allowed) pus_of_core[pu.core].push_back(pu.os_index);
  std::map<int, int> used;               // threads on each core so far
  std::map<int, int> placed_in_package;  // threads placed so far per package
  std::vector<int> out;
  out.reserve(plan.size());
  for (int pu : plan) {
    const Topology::Pu* p = topo.find_pu(pu);
    if (!p) throw InputError(fmt::format("PU {} does not exist on topology {}", pu, topo.origin()));
    const int domains = domains_of(p->package, shape, m);
    const auto cores = cores_of.find(p->package);
    if (domains <= 1 || cores == cores_of.end()) {  // one LLC per package: the plan stands
      out.push_back(pu);
      ++used[p->core];
      continue;
    }
    const int target = placed_in_package[p->package]++ % domains;
    // Idle cores per domain; the core taken: an idle one of the target domain, else of the domain with
    // the most idle cores, else (every core busy) the least-loaded core of the target domain.
    std::vector<int> idle(static_cast<std::size_t>(domains), 0);
    const std::vector<int>& list = cores->second;
    for (std::size_t r = 0; r < list.size(); ++r)
      if (used[list[r]] == 0 && !pus_of_core[list[r]].empty())
        ++idle[static_cast<std::size_t>(domain_of_rank(static_cast<int>(r), domains, m))];
    int want = target;
    if (idle[static_cast<std::size_t>(target)] == 0) {
      const auto most = std::max_element(idle.begin(), idle.end());
      if (*most > 0) want = static_cast<int>(most - idle.begin());
    }
    int best = -1;
    for (std::size_t r = 0; r < list.size(); ++r) {
      const int core = list[r];
      if (domain_of_rank(static_cast<int>(r), domains, m) != want) continue;
      if (static_cast<std::size_t>(used[core]) >= pus_of_core[core].size()) continue;  // every PU of it taken
      if (best < 0 || used[core] < used[best]) best = core;
    }
    if (best < 0) {  // the plan's own PU (a cpuset that leaves the domain without a free PU)
      out.push_back(pu);
      ++used[p->core];
      continue;
    }
    out.push_back(pus_of_core[best][static_cast<std::size_t>(used[best]++)]);
  }
  return out;
}

Placed place_threads(const std::vector<int>& pus, const std::vector<MemBind>& membind, const Topology& topo,
                     const Shape& shape, const MachineParams& m) {
  const auto nodes = shape.node_package.size();
  // Rank of each core within its package (logical order), for its LLC domain.
  std::map<int, int> core_rank;
  for (const auto& [pkg, cores] : cores_by_package(topo))
    for (std::size_t r = 0; r < cores.size(); ++r) core_rank[cores[r]] = static_cast<int>(r);
  std::map<int, int> per_core;
  std::vector<const Topology::Pu*> where;
  for (int pu : pus) {
    const Topology::Pu* p = topo.find_pu(pu);
    if (!p) throw InputError(fmt::format("PU {} does not exist on topology {}", pu, topo.origin()));
    where.push_back(p);
    ++per_core[p->core];
  }
  Placed out;
  LoadGroup g;
  for (std::size_t i = 0; i < pus.size(); ++i) {
    const auto* p = where[i];
    const MemBind& mb = membind[std::min(i, membind.size() - 1)];
    g.package = p->package;
    g.node = p->numa_node;
    g.mem_weights.assign(nodes, 0.0);
    switch (mb.kind) {
      case MemBind::Kind::local: g.mem_weights[static_cast<std::size_t>(p->numa_node)] = 1; break;
      case MemBind::Kind::remote:  // the next node after the thread's own, as the engine binds it
        if (nodes < 2)
          throw InputError(fmt::format("--membind remote needs two or more NUMA nodes; topology {} has one",
                                       topo.origin()));
        g.mem_weights[static_cast<std::size_t>(planned_mem_node(topo, mb, p->os_index))] = 1;
        break;
      case MemBind::Kind::interleave:
        for (auto& w : g.mem_weights) w = 1.0 / static_cast<double>(nodes);
        break;
      case MemBind::Kind::node:
        if (mb.node < 0 || static_cast<std::size_t>(mb.node) >= nodes)
          throw InputError(fmt::format("--membind {}: NUMA node {} does not exist on topology {}", mb.label(),
                                       mb.node, topo.origin()));
        g.mem_weights[static_cast<std::size_t>(mb.node)] = 1;
        break;
    }
    g.llc_domain = domain_of_rank(core_rank[p->core], domains_of(p->package, shape, m), m);
    const int k = per_core[p->core];
    g.smt_busy = k;
    g.core_share = smt_share(m.smt_gain, k);
    out.smt_shared.push_back(k > 1);
    int found = -1;
    for (std::size_t j = 0; j < out.groups.size() && found < 0; ++j) {
      const auto& o = out.groups[j];
      if (o.package == g.package && o.node == g.node && o.smt_busy == g.smt_busy && o.llc_domain == g.llc_domain &&
          o.mem_weights == g.mem_weights)
        found = static_cast<int>(j);
    }
    if (found < 0) {
      found = static_cast<int>(out.groups.size());
      g.count = 0;
      out.groups.push_back(g);
    }
    ++out.groups[static_cast<std::size_t>(found)].count;
    out.group_of.push_back(found);
  }
  return out;
}

namespace {
// NUMA nodes per package, or 0 when the nodes do not split the packages evenly (a synthetic
// string without a numa level has one node for the whole machine).
int nodes_per_package(const Topology& t) {
  const int packages = std::max(1, t.packages()), nodes = t.numa_nodes();
  return nodes >= packages && nodes % packages == 0 ? nodes / packages : 0;
}
}  // namespace

MachineParams on_topology(const MachineParams& m, const Topology& topo) {
  check_sockets_for(m, topo);
  const std::string own = m.topology.empty() ? "local" : m.topology;
  if (topo.origin() == own) return m;
  const int target = nodes_per_package(topo);
  int mine = 0;
  try {
    mine = nodes_per_package(Topology::from_spec(own));
  } catch (const std::exception&) {
    return m;  // its own topology is not readable here (an XML file elsewhere): figures as they are
  }
  if (target == 0 || mine == 0 || target == mine) return m;
  MachineParams out = m;
  out.dram_peak_gbps_per_node = m.dram_peak_gbps_per_node * mine / target;
  out.origins["dram_peak_gbps_per_node"] =
      fmt::format("{} on {}: the package's peak shared by its {} nodes", m.origin_of("dram_peak_gbps_per_node"),
                  topo.origin(), target);
  return out;
}

bool sockets_fit(const MachineParams& m, const Topology& topo) {
  const Uarch* u = m.uarch.empty() ? nullptr : find_uarch(m.uarch);
  return !u || topo.packages() <= u->max_sockets;
}

void check_sockets_for(const MachineParams& m, const Topology& topo) {
  if (sockets_fit(m, topo)) return;
  const Uarch* u = find_uarch(m.uarch);
  // A server part: more sockets than its family is built for (a skylake-sp of 9 packages was
  // refused as a part "which has no inter-socket link").
  if (u->max_sockets > 1)
    throw InputError(fmt::format("machine {} is a {} part, which is built for at most {} sockets, and topology {} has "
                                 "{}: simulate it on {} packages or fewer (e.g. --topology 'package:{} numa:1 core:{} "
                                 "pu:2')",
                                 m.name, u->name, u->max_sockets, topo.origin(), count_of(topo.packages(), "package"),
                                 u->max_sockets, u->max_sockets,
                                 std::max(1, topo.cores() / std::max(1, topo.packages()))));
  // Its link figures are placeholders (link_gbps 1, no remote latency): memory on the other
  // package was predicted at 34 GB/s "bound by a 1.0 GB/s link".
  throw InputError(fmt::format("machine {} is a {} part, which has no inter-socket link, and topology {} has {}: "
                               "simulate it on one package (e.g. --topology 'package:1 core:{} pu:2'), or write a "
                               "multi-socket machine of a server microarchitecture (bwlab machine spec --uarch ... "
                               "--sockets {})",
                               m.name, u->name, topo.origin(), count_of(topo.packages(), "package"),
                               std::max(1, topo.cores() / std::max(1, topo.packages())), topo.packages()));
}

std::vector<ThreadResult> simulate_threads(const std::vector<ThreadSpec>& threads, const Topology& topo,
                                           const MachineParams& machine, Solution* solution) {
  check_nodes_within_packages(topo);
  const MachineParams m = on_topology(machine, topo);
  const Shape shape = shape_of(topo);
  std::vector<int> pus;
  std::vector<MemBind> binds;
  for (const auto& t : threads) pus.push_back(t.pu), binds.push_back(t.membind);
  // Place each thread alone, then merge threads of the same place, kernel and size.
  std::vector<LoadGroup> groups;
  std::vector<int> group_of;
  const Placed placed = place_threads(pus, binds, topo, shape, m);
  for (std::size_t i = 0; i < threads.size(); ++i) {
    LoadGroup g = placed.groups[static_cast<std::size_t>(placed.group_of[i])];
    set_kernel(g, threads[i].kernel, threads[i].size_bytes, m);
    g.zero_fill = threads[i].zero_fill;
    int found = -1;
    for (std::size_t j = 0; j < groups.size() && found < 0; ++j) {
      const auto& o = groups[j];
      if (o.traffic == g.traffic && o.rep_stos == g.rep_stos && o.zero_fill == g.zero_fill &&
          o.kernel_scale == g.kernel_scale &&
          o.size_bytes == g.size_bytes && o.package == g.package && o.node == g.node && o.core_share == g.core_share &&
          o.llc_domain == g.llc_domain && o.mem_weights == g.mem_weights)
        found = static_cast<int>(j);
    }
    if (found < 0) {
      found = static_cast<int>(groups.size());
      g.count = 0;
      groups.push_back(std::move(g));
    }
    ++groups[static_cast<std::size_t>(found)].count;
    group_of.push_back(found);
  }
  Solution sol = solve_groups(groups, shape, m);
  std::vector<ThreadResult> out;
  for (std::size_t i = 0; i < threads.size(); ++i) {
    const auto gi = static_cast<std::size_t>(group_of[i]);
    const GroupRate& r = sol.groups[gi];
    ThreadResult tr;
    tr.gbps = r.gbps;
    tr.hit = r.hit;
    tr.llc_gbps = r.llc_gbps;
    tr.dram_gbps = r.dram_gbps;
    tr.rfo_evaded = r.rfo_evaded;
    tr.remote = r.remote;
    tr.smt_shared = placed.smt_shared[i];
    const auto& w = groups[gi].mem_weights;
    tr.mem_weights = w;
    for (std::size_t node = 0; node < w.size(); ++node)
      if (shape.node_package[node] != groups[gi].package) tr.remote_share += w[node];
    tr.mem_node = static_cast<int>(std::max_element(w.begin(), w.end()) - w.begin());
    out.push_back(tr);
  }
  if (solution) *solution = std::move(sol);
  return out;
}

double band_top(double gbps, double band, double dram, double peak) {
  const double top = gbps * (1 + band);
  return dram > 0 && peak > 0 ? std::max(gbps, std::min(top, gbps * peak / dram)) : top;
}

double band_top_of(double gbps, const MachineParams& m, const Solution& sol,
                   const std::vector<ThreadResult>& r, const std::vector<std::size_t>& threads) {
  double dram = 0, peak = 0;
  for (std::size_t node = 0; node < sol.node_dram_gbps.size(); ++node)
    if (std::any_of(threads.begin(), threads.end(), [&](std::size_t t) { return r[t].mem_weights[node] > 0; })) {
      dram += sol.node_dram_gbps[node];
      peak += m.dram_peak_gbps_per_node;
    }
  return band_top(gbps, m.band, dram, peak);
}

}  // namespace bwlab::model
