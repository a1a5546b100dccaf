// SPDX-License-Identifier: MIT
#include "core/report/plural.hpp"
#include "core/topology/placement.hpp"

#include <algorithm>
#include <charconv>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/sweep/suggest.hpp"

namespace bwlab {
namespace {

constexpr int kMaxPu = 65535;  // beyond any machine hwloc describes; bounds what a list can cost

int parse_int(std::string_view s, std::string_view whole) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < 0)
    throw InputError(fmt::format("bad placement '{}': use compact, scatter, none, or a PU list such as 0,2,4 or 0-3", whole));
  if (v > kMaxPu) throw InputError(fmt::format("bad placement '{}': PU {} is above {}", whole, v, kMaxPu));
  return v;
}

// Allowed PUs ordered "one per core first, then siblings", cores in the given order.
std::vector<int> by_smt_rank(const std::vector<const Topology::Pu*>& pus) {
  std::vector<const Topology::Pu*> v = pus;
  std::stable_sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->smt_rank < b->smt_rank; });
  std::vector<int> out;
  for (auto* p : v) out.push_back(p->os_index);
  return out;
}

}  // namespace

std::string Placement::label() const {
  switch (kind) {
    case Kind::compact: return "compact";
    case Kind::scatter: return "scatter";
    case Kind::list: return "list:" + format_pu_list(list);
    case Kind::none: return "none";
  }
  return "?";
}

const std::vector<std::string>& placement_words() {
  static const std::vector<std::string> words{"compact", "scatter", "none"};
  return words;
}

Placement parse_placement(std::string_view text) {
  const std::string word = lower_case(text);  // "COMPACT" is compact, as --kernels STOSB is stosb
  if (word == "compact") return {Placement::Kind::compact, {}};
  if (word == "scatter") return {Placement::Kind::scatter, {}};
  if (word == "none") return {Placement::Kind::none, {}};
  const std::string near = nearest_name(text, placement_words());
  if (!near.empty()) throw InputError(fmt::format("bad placement '{}'; did you mean {}?", text, near));
  std::string_view rest = text;
  if (lower_case(rest.substr(0, 5)) == "list:") rest.remove_prefix(5);
  Placement p{Placement::Kind::list, {}};
  while (true) {
    const auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const auto dash = item.find('-');
    if (dash == std::string_view::npos) {
      p.list.push_back(parse_int(item, text));
    } else {
      const int a = parse_int(item.substr(0, dash), text), b = parse_int(item.substr(dash + 1), text);
      if (b < a) throw InputError(fmt::format("bad placement '{}': range {} goes backwards", text, item));
      for (int i = a; i <= b; ++i) p.list.push_back(i);
    }
    if (p.list.size() > static_cast<std::size_t>(kMaxPu) + 1)
      throw InputError(fmt::format("bad placement '{}': a PU is listed twice", text));
    if (comma == std::string_view::npos) break;
  }
  auto sorted = p.list;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw InputError(fmt::format("bad placement '{}': a PU is listed twice", text));
  return p;
}

int max_threads_for(const Topology& topo, const Placement& placement) {
  const std::size_t pus = topo.allowed_pus().size();
  return static_cast<int>(placement.kind == Placement::Kind::list ? std::min(placement.list.size(), pus) : pus);
}

std::vector<int> plan_pus(const Topology& topo, const Placement& placement, int threads) {
  const auto allowed = topo.allowed_pus();
  if (threads < 1) throw InputError("thread count must be at least 1");
  std::vector<int> order;
  if (placement.kind == Placement::Kind::list) {
    for (int pu : placement.list) {
      const Topology::Pu* p = topo.find_pu(pu);
      if (!p) throw InputError(fmt::format("PU {} does not exist on this topology; PUs are {}", pu, format_pu_list(allowed)));
      if (!p->allowed)
        throw InputError(fmt::format("PU {} is outside this process's allowed PUs ({})", pu, format_pu_list(allowed)));
    }
    order = placement.list;
  } else {
    std::vector<const Topology::Pu*> pus;
    for (const auto& p : topo.pus())
      if (p.allowed) pus.push_back(&p);
    if (placement.kind == Placement::Kind::compact) {  // none plans as scatter (see the header)
      std::stable_sort(pus.begin(), pus.end(), [](auto* a, auto* b) { return a->core < b->core; });
      order = by_smt_rank(pus);
    } else {
      // Round-robin over NUMA nodes, or packages when NUMA nodes do not split the machine further.
      const bool use_numa = topo.numa_nodes() > 1;
      auto domain = [&](const Topology::Pu* p) { return use_numa ? p->numa_node : p->package; };
      // Rank of each core within its domain: k-th core of every domain comes before the (k+1)-th.
      std::map<int, std::map<int, int>> core_rank;  // domain -> core -> rank
      for (auto* p : pus) core_rank[domain(p)].emplace(p->core, 0);
      for (auto& [d, cores] : core_rank) {
        int r = 0;
        for (auto& [c, rank] : cores) rank = r++;
      }
      std::stable_sort(pus.begin(), pus.end(), [&](auto* a, auto* b) {
        const int ra = core_rank[domain(a)][a->core], rb = core_rank[domain(b)][b->core];
        if (ra != rb) return ra < rb;
        return domain(a) < domain(b);
      });
      order = by_smt_rank(pus);
    }
  }
  if (static_cast<int>(order.size()) < threads) {
    throw InputError(fmt::format("{} asked for, but placement {} has only {} ({}){}", count_of(threads, "thread"),
                                 placement.label(), count_of(order.size(), "PU"), format_pu_list(order),
                                 allowed.size() < topo.pus().size() ? " within this process's allowed PUs" : ""));
  }
  order.resize(static_cast<std::size_t>(threads));
  return order;
}

std::string format_pu_list(const std::vector<int>& pus) {
  std::string out;
  for (std::size_t i = 0; i < pus.size();) {
    std::size_t j = i;
    while (j + 1 < pus.size() && pus[j + 1] == pus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j >= i + 2 ? fmt::format("{}-{}", pus[i], pus[j]) : fmt::format("{}", pus[i]);
    if (j == i + 1) out += fmt::format(",{}", pus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace bwlab
