// SPDX-License-Identifier: MIT
#include "core/insight/quirk_table.hpp"

#include <array>
#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <ostream>
#include <tuple>

#include "core/report/plural.hpp"
#include "core/report/table.hpp"

namespace bwlab {

namespace {

using Key = std::tuple<std::string, int, int, int, std::string,                        // cpu
                       std::string, std::string, std::string, std::string, std::string,  // source..placement
                       std::string, std::string, std::string, std::string>;               // membind, pages, wa, nt

std::string short_crossover(const ThreadsVerdict& t) {
  switch (t.crossover) {
    case CrossoverKind::interpolated: return fmt::format("~{}", format_bytes_approx(t.crossover_bytes));
    case CrossoverKind::below_range: return fmt::format("<={}", format_bytes(t.bracket_hi));
    case CrossoverKind::none_in_range: return "none up to " + format_bytes(t.largest);
    case CrossoverKind::not_computed: return "not judged";
  }
  return "?";
}

}  // namespace

std::vector<QuirkRow> quirk_table(std::span<const FleetRow> rows, const VerdictOptions& o) {
  // host -> its points and CPU (a host has one CPU identity per merged run)
  std::map<std::string, std::vector<Point>> by_host;
  std::map<std::string, CpuIdentity> host_cpu;
  std::vector<std::string> host_order;
  for (const FleetRow& r : rows) {
    if (!by_host.count(r.point.host)) host_order.push_back(r.point.host);
    by_host[r.point.host].push_back(r.point);
    host_cpu[r.point.host] = r.cpu;
  }
  std::map<Key, QuirkRow> table;
  std::vector<Key> order;
  for (const std::string& host : host_order) {
    const CpuIdentity& cpu = host_cpu[host];
    // A host whose run recorded its caches is judged by them: with this machine's only, two hosts of
    // identical figures read "mixed" (one's rows fit in the cache, the other's LLC was unknown).
    const VerdictOptions ho = cpu.llc_bytes > 0 ? judged_by_llc_of(o, host, cpu.llc_bytes, cpu.llc_count) : o;
    for (const PairVerdict& v : compute_verdicts(by_host[host], ho)) {
      const Key k{cpu.vendor,  cpu.family,    cpu.model,  cpu.stepping, cpu.microcode, v.source,    v.scenario,
                  v.fill,      v.placement,   v.membind,  v.pages,      v.wa_kernel,   v.nt_kernel, ""};
      auto [it, fresh] = table.try_emplace(k);
      QuirkRow& q = it->second;
      if (fresh) {
        order.push_back(k);
        q.cpu = cpu;
        q.cpu_model_name = v.cpu_model;
        q.wa_kernel = v.wa_kernel, q.nt_kernel = v.nt_kernel;
        q.source = v.source, q.scenario = v.scenario, q.fill = v.fill, q.placement = v.placement;
        q.membind = v.membind, q.pages = v.pages;
        q.predicted = v.predicted;
      }
      q.hosts.push_back(host);
      const ThreadsVerdict* one = nullptr;
      for (const ThreadsVerdict& t : v.rows)
        if (t.threads == 1) one = &t;
      q.crossover_1t.push_back(fmt::format("{}: {}", host, one ? short_crossover(*one) : "not measured"));
      q.crossover_max.push_back(
          fmt::format("{}: {} at {}T", host, short_crossover(v.rows.back()), v.rows.back().threads));
      q.per_host.push_back(v.recommendation);
      q.per_host_label.push_back(recommendation_label(v, ho));
    }
  }
  std::vector<QuirkRow> out;
  for (const Key& k : order) {
    QuirkRow q = table[k];
    std::map<std::string, int> counts;
    for (const std::string& r : q.per_host_label) ++counts[r];
    if (counts.size() == 1) {
      q.recommendation = counts.begin()->first;
    } else {
      std::vector<std::string> parts;
      for (const auto& [r, n] : counts) {
        const auto comma = r.find(", ");  // "NT slow (for clears that fit in the cache only) on 1 host"
        const std::string said = comma == std::string::npos
                                     ? r
                                     : fmt::format("{} ({})", std::string_view(r).substr(0, comma),
                                                   std::string_view(r).substr(comma + 2));
        parts.push_back(fmt::format("{} on {}", said, count_of(n, "host")));
      }
      q.recommendation = fmt::format("mixed: {}", fmt::join(parts, ", "));
    }
    out.push_back(std::move(q));
  }
  return out;
}

void print_quirk_table(std::ostream& out, std::span<const QuirkRow> rows, const VerdictOptions& o) {
  std::string s = fmt::format(
      "bwlab verdict --by cpu: one row per CPU (vendor family/model/stepping, microcode) and kernel pair; each "
      "host is judged on its own points (sides called only when min..max ranges do not overlap; spread limit "
      "{:.0f}%), crossovers are per-thread buffer sizes where NT overtakes by medians.\n",
      o.max_spread_pct);
  const bool any_predicted = std::any_of(rows.begin(), rows.end(), [](const QuirkRow& q) { return q.predicted; });
  if (any_predicted)
    s += fmt::format("Lines marked {}are the analytical model's predictions for simulated points, not measurements: "
                     "there are no repetitions, and a side is called by the model's band instead of min..max.\n",
                     kPredictionTag);
  if (rows.empty()) {
    s += "No host has a write-allocate and a non-temporal kernel measured at the same thread count.\n";
    out << s;
    return;
  }
  const std::string_view tag(kPredictionTag);
  const auto tag_of = [&](const QuirkRow& q) {
    return q.predicted ? std::string(tag) : std::string(any_predicted ? tag.size() : 0, ' ');
  };
  for (const QuirkRow& q : rows) {
    const std::string t = q.predicted ? std::string(tag) : "";
    s += fmt::format("\n{}{} \"{}\" microcode {}: {} vs {} ({} {}, fill {}, {} {} {})\n", t, cpu_label(q.cpu),
                     q.cpu_model_name, q.cpu.microcode.empty() ? "unknown" : q.cpu.microcode, q.wa_kernel, q.nt_kernel,
                     q.source, q.scenario, q.fill, q.placement, q.membind, q.pages);
    s += fmt::format("{}  hosts ({}): {}\n", t, q.hosts.size(), fmt::join(q.hosts, ", "));
    s += fmt::format("{}  crossover at 1 thread:     {}\n", t, fmt::join(q.crossover_1t, "; "));
    s += fmt::format("{}  crossover at most threads: {}\n", t, fmt::join(q.crossover_max, "; "));
    s += fmt::format("{}  recommendation: {}\n", t, q.recommendation);
  }
  s += "\nQuirk table (one line per CPU and pair):\n";
  // Columns aligned to their widest cell (the last one, free text, is not padded).
  std::vector<std::array<std::string, 6>> table{
      {"vendor family/model/stepping", "microcode", "pair", "fill", "hosts", "recommendation"}};
  for (const QuirkRow& q : rows)
    table.push_back({cpu_label(q.cpu), q.cpu.microcode.empty() ? "unknown" : q.cpu.microcode,
                     q.wa_kernel + "/" + q.nt_kernel, q.fill, std::to_string(q.hosts.size()), q.recommendation});
  std::array<std::size_t, 6> width{};
  for (const auto& r : table)
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto& r = table[i];
    s += i == 0 ? std::string(any_predicted ? tag.size() : 0, ' ') : tag_of(rows[i - 1]);
    s += fmt::format("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", r[0], width[0], r[1], width[1], r[2], width[2],
                     r[3], width[3], r[4], width[4], r[5]);
  }
  out << s;
}

}  // namespace bwlab
