// SPDX-License-Identifier: MIT
#include "core/model/explain.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/report/plural.hpp"

namespace bwlab::model {

std::string explain_point(const std::string& title, const std::vector<LoadGroup>& groups, const Solution& sol,
                          const Shape& shape, const MachineParams& m) {
  double cleared = 0, read = 0, write = 0, llc = 0, lines = 0, core_share = 1;
  int threads = 0;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const auto& g = groups[i];
    const auto& r = sol.groups[i];
    const double c = r.gbps * g.count;
    cleared += c;
    llc += c * r.hit;
    write += c * (1 - r.hit);
    const double e = g.traffic == Traffic::write_allocate ? r.rfo_evaded : 1.0;
    read += c * (1 - r.hit) * (1 - e);
    const double base = g.traffic == Traffic::write_allocate ? m.mlp_wa_lines : m.mlp_nt_lines;
    lines += base * g.kernel_scale * g.core_share * m.clock_scale() * g.count;
    threads += g.count;
    core_share = std::min(core_share, g.core_share);
  }
  std::string out = fmt::format("{}: {:.1f} GB/s\n", title, cleared);
  if (cleared <= 0) return out + "  nothing cleared\n";
  const double rd = read / cleared, wr = write / cleared;
  out += fmt::format("  per byte cleared: {:.2f} B read + {:.2f} B written in DRAM, {:.2f} B in the LLC", rd, wr,
                     llc / cleared);
  if (wr > 0) {
    const double evaded = 1 - rd / wr;
    out += groups.front().traffic == Traffic::write_allocate
               ? fmt::format(" (write-allocate, {:.0f}% of RFO reads evaded)\n", 100 * evaded)
               : std::string(" (non-temporal: no read)\n");
  } else {
    out += " (LLC-resident)\n";
  }
  // Write-allocate lines written without their data: owned through the LLC on one socket
  // (fast_ownership), else after a memory latency.
  const bool evades = wr > 0 && rd < wr && groups.front().traffic == Traffic::write_allocate;
  if (evades) {
    if (fast_ownership(shape, m))
      out += fmt::format("  ownership: one socket, so evaded lines are owned in {:.0f} ns idle (own_latency_ns), not a "
                         "DRAM latency; under load they wait behind the write-backs\n",
                         m.own_latency_ns);
    else
      out += fmt::format("  ownership: evaded lines still wait a memory latency ({}); evasion saves reads, not time\n",
                         shape.packages > 1 ? "several sockets: the other sockets must agree, by the memory directory "
                                              "or a snoop (Intel; assumed the same on AMD)"
                                            : "no fast ownership path on this machine: own_latency_ns 0");
  }
  // The binding limit: the busiest shared resource when its queueing dominates, else the cores' concurrency.
  std::string limit = "none (no traffic on a shared resource";  // each form below leaves its parenthesis open
  // What the busiest shared resource is: the "why" line names it (a link-bound point read "DRAM-bound").
  enum class Busiest { dram, link, llc } busiest = Busiest::dram;
  double top = 0;
  for (std::size_t n = 0; n < sol.node_util.size(); ++n)
    if (sol.node_util[n] > top) {
      top = sol.node_util[n];
      busiest = Busiest::dram;
      // The capacity says where it comes from: "105.8 GB/s" beside the sheet's 128.0 read as a contradiction.
      const double one_way = m.dram_peak_gbps_per_node * m.dram_efficiency;
      const double mix_loss = one_way > 0 ? 1 - sol.node_capacity_gbps[n] / one_way : 0;
      // Per node: beside a total over two nodes, "88.9 of 108.8" read as the whole machine's figure.
      limit = fmt::format("DRAM node {} ({:.1f} of {:.1f} GB/s usable: peak {:.1f} x efficiency {:.2f}{}{}", n,
                          sol.node_dram_gbps[n], sol.node_capacity_gbps[n], m.dram_peak_gbps_per_node,
                          m.dram_efficiency,
                          mix_loss > 0.005 ? fmt::format(", less {:.0f}% for the read/write mix", 100 * mix_loss) : "",
                          sol.node_util.size() > 1 ? fmt::format("; the busiest of {} nodes", sol.node_util.size()) : "");
    }
  for (std::size_t l = 0; l < sol.link_util.size(); ++l)
    if (sol.link_util[l] > top) {
      top = sol.link_util[l];
      busiest = Busiest::link;
      // Its traffic beside its capacity, as the DRAM line gives them (utilisation = traffic / capacity).
      limit = fmt::format("inter-socket link {} -> {} ({:.1f} of {:.1f} GB/s in that direction",
                          l / static_cast<std::size_t>(shape.packages), l % static_cast<std::size_t>(shape.packages),
                          top * m.link_gbps, m.link_gbps);
    }
  for (std::size_t p = 0; p < sol.llc_util.size(); ++p)
    if (sol.llc_util[p] > top) {
      top = sol.llc_util[p];
      busiest = Busiest::llc;
      const double llc_cap = m.llc_gbps_per_core * std::max(1, shape.cores_per_package.at(p));
      limit = fmt::format("LLC of package {} ({:.1f} of {:.1f} GB/s", p, top * llc_cap, llc_cap);
    }
  const double u_node = sol.node_util.empty() ? 0 : *std::max_element(sol.node_util.begin(), sol.node_util.end());
  // Bound: the busiest resource's queueing at least 1.5x its idle latency (u >= 0.71 at queue_k 0.2).
  constexpr double kBinds = 1.5;  // the queueing factor from which a shared resource binds
  const bool bound = queue_factor(m.queue_k, top) >= kBinds;
  // Where that starts (queue_factor 1 + k u / (1 - u) = kBinds), said on the line: "binds" at 0.72
  // beside "busiest shared resource" at 0.70 read as a contradiction without the rule.
  const double from = (kBinds - 1) / (m.queue_k + kBinds - 1);
  // The utilisation belongs to the shared resource: unbound, it goes beside the busiest one (it read
  // "core concurrency (utilisation 0.09)", as if the cores were 9% busy).
  out += bound ? fmt::format("  binds: {}; utilisation {:.2f}: a shared resource binds from {:.2f}, where queueing "
                             "holds each line 1.5x its idle latency)\n",
                             limit, top, from)
               : fmt::format("  binds: core concurrency (lines in flight per thread); busiest shared resource: {}; "
                             "utilisation {:.2f}, below the {:.2f} from which it would bind)\n",
                             limit, top, from);
  // A point served from the LLC waits an LLC latency, not a DRAM one (it quoted 90 ns of DRAM for a
  // 2 MiB buffer whose every line came from the cache).
  const bool in_llc = llc > 0.5 * cleared;
  // SMT siblings share their core's lines in flight: why 72 threads can clear slower than 36.
  const std::string smt =
      core_share < 0.999 ? fmt::format(", SMT siblings sharing a core: x{:.2f} of a core's lines each", core_share) : "";
  if (in_llc)
    out += fmt::format("  concurrency: {:.1f} lines in flight over {} (clock x{:.2f}{}); LLC latency {:.0f} ns idle "
                       "(llc_latency_ns), each line held {:.0f} ns on average here\n",
                       lines, count_of(threads, "thread"), m.clock_scale(), smt, m.llc_latency_ns, lines * 64 / cleared);
  else
    out += fmt::format("  concurrency: {:.1f} lines in flight over {} (clock x{:.2f}{}); loaded DRAM latency "
                       "{:.0f} ns (idle {:.0f} ns)\n",
                       lines, count_of(threads, "thread"), m.clock_scale(), smt,
                       m.dram_latency_ns * queue_factor(m.queue_k, u_node), m.dram_latency_ns);
  if (wr <= 0)
    out += "  why: LLC-resident: the buffer stays in the cache from pass to pass, so no store reaches DRAM and the "
           "cache's latency and bandwidth set the rate; a first clear of fresh memory is not this case\n";
  if (wr > 0) {
    const char* what = busiest == Busiest::link ? "link-bound (the traffic crosses the inter-socket link)"
                       : busiest == Busiest::llc ? "LLC-bound"
                                                 : "DRAM-bound";
    const char* capacity = busiest == Busiest::link ? "the link's" : busiest == Busiest::llc ? "the LLC's" : "the memory's";
    if (bound && rd > 0.05)
      out += fmt::format("  why: {} with {:.2f} B of traffic per byte; NT stores move 1 B and win here\n", what,
                         rd + wr);
    else if (bound)
      out += fmt::format(
          "  why: {} with {:.2f} B read per byte: writes fill {} capacity, so rep stos with RFO "
          "evasion and NT stores approach one ceiling; how close each comes depends on its lines in flight and "
          "the reads it still makes\n",
          what, rd, capacity);
    else
      out += fmt::format(
          "  why: concurrency-bound: rate = lines in flight x 64 B / how long each line is held ({:.0f} ns on "
          "average here{}); more lines or a shorter hold wins, traffic matters little\n",
          lines * 64 / cleared,
          evades && fast_ownership(shape, m) ? ": evaded lines are owned without a DRAM round trip"
              : "");
  }
  return out;
}

}  // namespace bwlab::model
