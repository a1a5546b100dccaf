// SPDX-License-Identifier: MIT
#include "gui/plots/series.hpp"

#include "core/insight/load.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/insight/verdict.hpp"
#include "core/report/csv.hpp"
#include "core/report/input_file.hpp"
#include "core/report/json.hpp"
#include "core/report/plural.hpp"
#include "core/report/point_flags.hpp"
#include "core/report/units.hpp"
#include "core/report/scenario_table.hpp"
#include "core/topology/placement.hpp"

namespace bwlab::gui {
namespace {

// Everything that identifies a curve except its x dimension and its source.
struct CurveKey {
  std::size_t dataset;
  std::string kernel, fill, placement, membind, pages, scenario, peer;
  std::uint64_t size = 0;   // threads plot only
  int threads = 0;          // size plot only
  std::string host;         // a fleet CSV holds many hosts' runs: a curve per host
  std::uint64_t total = 0;  // threads plot of a fixed total working set (fixed_totals): size is 0
  auto tie() const {
    return std::tie(dataset, kernel, fill, placement, membind, pages, scenario, peer, size, threads, host, total);
  }
  bool operator<(const CurveKey& o) const { return tie() < o.tie(); }
};

template <class F>
bool varies(const std::vector<CurveKey>& keys, F field) {
  for (const auto& k : keys)
    if (field(k) != field(keys.front())) return true;
  return false;
}

// A placement that lists PUs ("0,1,2,3", "list:0,1"): one list per thread count in a file of SMT
// rows. Read by the run's own parser; a placement it refuses is no list.
bool is_pu_list(const std::string& placement) {
  if (placement.empty()) return false;  // not stated (imported)
  try {
    return parse_placement(placement).kind == Placement::Kind::list;
  } catch (const InputError&) {
    return false;
  }
}

// Points of the threads plot whose thread counts split one working set: likwid-bench and
// kerncraft's machine files fix the total (420 MB) and give each of n threads total / n, so every
// thread count has its own size per thread and each point was a curve of one dot. Per dataset,
// kernel and set-up (a PU list per thread count counts as one placement), at least two points of
// distinct thread counts and two sizes whose size x threads agree within 0.1% (sizes rounded to
// 10 kB: 420 MB / 9 = 46.67 MB) are such a split: it maps them to their total.
std::map<const Point*, std::uint64_t> fixed_totals(const std::vector<Dataset>& datasets, const std::string& scenario) {
  std::map<std::pair<CurveKey, bool>, std::vector<const Point*>> bases;  // bool: simulated
  for (std::size_t d = 0; d < datasets.size(); ++d)
    for (const Point& p : datasets[d].points)
      if (p.scenario == scenario && std::isfinite(p.gbps_median))
        bases[{CurveKey{d, p.kernel, p.fill, is_pu_list(p.placement) ? std::string("PU list") : p.placement,
                        p.membind, p.pages, p.scenario, "", 0, 0, p.host, 0},
               p.source == "simulated"}]
            .push_back(&p);
  std::map<const Point*, std::uint64_t> out;
  for (const auto& [key, pts] : bases) {
    std::set<int> threads;
    std::set<std::uint64_t> sizes;
    std::vector<double> products;
    for (const Point* p : pts) {
      threads.insert(p->threads);
      sizes.insert(p->size_bytes);
      products.push_back(double(p->size_bytes) * p->threads);
    }
    if (pts.size() < 2 || threads.size() != pts.size() || sizes.size() < 2) continue;
    std::sort(products.begin(), products.end());
    const double mid = products[products.size() / 2];
    if (mid <= 0 || products.front() < mid * 0.999 || products.back() > mid * 1.001) continue;
    for (const Point* p : pts) out[p] = static_cast<std::uint64_t>(std::llround(mid));
  }
  return out;
}

}  // namespace

bool splits_a_working_set(const std::vector<Dataset>& datasets, const std::string& scenario) {
  return !fixed_totals(datasets, scenario).empty();
}

std::string size_text(double bytes) {
  return format_bytes(bytes > 0 ? static_cast<std::uint64_t>(std::llround(bytes)) : 0, " ");
}

std::string point_details(const Point& p, const std::string& dataset) {
  std::string s = fmt::format("{} ({}{})\n", p.kernel, p.source, dataset.empty() ? "" : ", " + dataset);
  if (p.scenario != "scaling") s += point_summary(p) + "\n";
  s += fmt::format("{} per thread, {} thread{}, fill {}, {}, membind {}, pages {}\n", size_text(double(p.size_bytes)),
                   p.threads, p.threads == 1 ? "" : "s", p.fill, p.placement, p.membind, p.pages);
  if (!std::isnan(p.gbps_median) && p.source == "simulated") {
    s += fmt::format("aggregate {:.2f} GB/s (model band {:.2f} .. {:.2f})\n", p.gbps_median, p.gbps_min, p.gbps_max);
  } else if (!std::isnan(p.gbps_median)) {  // tlbflush rows hold ns, not GB/s
    s += fmt::format("aggregate {:.2f} GB/s (median; min {:.2f}, max {:.2f}, pstdev {:.1f}%)\n", p.gbps_median,
                     p.gbps_min, p.gbps_max, p.gbps_pstdev_pct);
    s += fmt::format("per thread {:.2f} GB/s (median), fairness {:.2f}\n", p.gbps_per_thread_median, p.thread_fairness);
  }
  if (p.source == "simulated")
    s += "predicted by the model (no repetitions)";
  else
    s += fmt::format("{} reps of {:g} ms; {:.3g} bytes in {:.3g} ms per rep (median)", p.reps, p.duration_ms,
                     p.bytes_median, p.elapsed_ns_median / 1e6);
  if (!p.pus.empty())
    s += fmt::format("\nPUs {}", fmt::join(p.pus, ","));
  else if (!p.pus_planned.empty() && p.pus_planned.front() >= 0)
    s += fmt::format("\nPUs planned {}", fmt::join(p.pus_planned, ","));
  for (const auto& f : p.flags) s += "\n! " + f;
  s += "\nGB = 1e9 bytes";
  return s;
}

const char* const kScenarioOrder[] = {"scaling", "victim", "mix", "pagefault", "tlbflush"};

void note_identical_series(std::vector<Series>& series) {
  std::vector<std::string> labels;
  for (const auto& s : series) labels.push_back(s.label);
  for (std::size_t i = 0; i < series.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (!series[i].x.empty() && series[j].x == series[i].x && series[j].y == series[i].y) {
        std::string twin = labels[j];
        const std::string& tag = series[j].tag;
        if (tag == series[i].tag && twin.size() > tag.size()) twin.resize(twin.size() - tag.size());
        // The same size, threads and run after the kernel's name: the kernel alone says which
        // ("avx512-store 1 GiB (= avx2-store 1 GiB)" was 443 px of legend at 1.5x text).
        const std::string& ki = series[i].kernel;
        const std::string& kj = series[j].kernel;
        if (!kj.empty() && twin.starts_with(kj) && labels[i].starts_with(ki) &&
            twin.substr(kj.size()) == labels[i].substr(ki.size(), twin.size() - kj.size()))
          twin = kj;
        series[i].label += " (= " + twin + ")";
        series[i].twin = true;
        break;
      }
}

bool all_measured_on(const std::vector<Dataset>& datasets, const std::string& host, const std::string& cpu) {
  for (const auto& d : datasets)
    for (const auto& p : d.points)
      if (p.source != "measured" || !same_machine(p.host, p.cpu_model, host, cpu)) return false;
  return true;
}

double curve_filter_value(const Point& p, PlotKind kind) {
  return kind == PlotKind::size ? static_cast<double>(p.threads) : static_cast<double>(p.size_bytes);
}

bool curve_filter_applies(const std::string& scenario) { return scenario != "victim"; }

std::vector<std::uint64_t> victim_rows_of_one_size(const std::vector<Dataset>& datasets) {
  std::set<std::uint64_t> all;
  std::size_t rows = 0;
  for (const Dataset& d : datasets) {
    std::set<std::uint64_t> sizes;  // this file's: two files of one size each are no sweep either
    for (const Point& p : d.points)
      if (p.scenario == "victim") sizes.insert(p.size_bytes), ++rows;
    if (sizes.size() > 1) return {};
    all.insert(sizes.begin(), sizes.end());
  }
  if (rows < 2) return {};
  return {all.begin(), all.end()};
}

std::vector<double> curve_filter_values(const std::vector<Dataset>& datasets, PlotKind kind, const std::string& scenario) {
  std::set<double> values;
  if (kind != PlotKind::heatmap && curve_filter_applies(scenario))
    for (const auto& d : datasets)
      for (const auto& p : d.points)
        if (p.scenario == scenario) values.insert(curve_filter_value(p, kind));
  return {values.begin(), values.end()};
}

std::optional<double> crowded_plot_start(const std::vector<Dataset>& datasets, PlotKind kind,
                                         const std::string& scenario, std::size_t max_curves) {
  const std::vector<double> values = curve_filter_values(datasets, kind, scenario);
  if (values.size() < 2 || build_series(datasets, kind, false, scenario).size() <= max_curves) return std::nullopt;
  // The value the most datasets hold (like against like: a measured VM's 2 threads beside a
  // simulated server's 2..104; a value every dataset holds has the most), a measured run's first,
  // then the largest. Without a value in every dataset (an imported table beside a run and a
  // simulation) it started at the simulation's biggest buffer, and the measured curves were hidden.
  double best = values.back();
  int best_count = -1;
  bool best_measured = false;
  for (double v : values) {  // ascending: of equals, the later is the larger
    int count = 0;
    bool measured = false;
    for (const Dataset& d : datasets) {
      const bool holds = std::any_of(d.points.begin(), d.points.end(), [&](const Point& p) {
        return p.scenario == scenario && curve_filter_value(p, kind) == v;
      });
      if (!holds) continue;
      ++count;
      measured = measured || std::any_of(d.points.begin(), d.points.end(), [](const Point& p) { return p.source == "measured"; });
    }
    if (count > best_count || (count == best_count && measured >= best_measured))
      best = v, best_count = count, best_measured = measured;
  }
  return best;
}

std::vector<std::string> scenarios_present(const std::vector<Dataset>& datasets) {
  std::vector<std::string> out;
  for (const char* s : kScenarioOrder) {
    bool found = false;
    for (const auto& d : datasets)
      for (const auto& p : d.points) found = found || p.scenario == s;
    if (found) out.push_back(s);
  }
  return out;
}

std::string default_plot_scenario(const std::vector<Dataset>& datasets) {
  const auto present = scenarios_present(datasets);
  return present.empty() ? "scaling" : present.front();
}

std::vector<HeatMap> build_heat_maps(const std::vector<Dataset>& datasets) {
  std::vector<HeatMap> maps;
  std::map<std::string, std::size_t> index;
  std::map<std::size_t, bool> measured;  // per map
  std::map<std::size_t, std::pair<int, int>> reps;  // per map: the fewest and most reps of its cells
  std::map<std::size_t, std::string> partial;       // per map: its file's partial run, why
  for (const auto& d : datasets) {
    for (const Point& p : d.points) {
      if (p.scenario != "victim" || p.peer_threads < 0) continue;
      std::string label = fmt::format("aggressor {}, {}, fill {}", p.peer_kernel, size_text(double(p.size_bytes)), p.fill);
      if (p.placement != "compact") label += ", " + p.placement;
      if (p.membind != "local") label += ", mem " + p.membind;
      if (p.pages != "4k") label += ", " + p.pages;
      if (p.source != "measured") label += " (" + p.source + ")";
      if (d.from_file) label += " [" + d.name + "]";
      auto [it, fresh] = index.try_emplace(label, maps.size());
      if (fresh) {
        HeatMap m;
        m.label = label;
        m.subtitle = p.source == "simulated"
                         ? fmt::format("{}\npredicted by the analytical model (no repetitions); slowdown = % below the "
                                       "victim alone (k = 0, same model)",
                                       label)
                         : fmt::format("{}\n{}, {{reps}} of {:g} ms per cell; slowdown = % below the victim alone "
                                       "(k = 0, same run)",
                                       label, p.source, p.duration_ms);
        maps.push_back(std::move(m));
        reps[it->second] = {p.reps, p.reps};
      }
      HeatMap& m = maps[it->second];
      reps[it->second].first = std::min(reps[it->second].first, p.reps);
      reps[it->second].second = std::max(reps[it->second].second, p.reps);
      if (!d.partial.empty()) partial[it->second] = d.partial;
      const double slowdown = std::isnan(p.slowdown_pct) ? 0.0 : p.slowdown_pct;
      HeatCell cell{p.kernel, p.peer_threads, slowdown, p.gbps_median,
                    std::isnan(p.baseline_gbps) ? 0.0 : p.baseline_gbps, p.gbps_min, p.gbps_max};
      cell.flagged = flagged_unsteady(p);
      auto same = std::find_if(m.cells.begin(), m.cells.end(), [&](const HeatCell& c) {
        return c.victim == cell.victim && c.aggressors == cell.aggressors;
      });
      if (same != m.cells.end()) *same = cell;  // the later row of the same cell wins
      else m.cells.push_back(cell);
      measured[it->second] = p.source == "measured";
    }
  }
  // A measured cell whose range overlaps the victim alone's: a slowdown within the run's spread.
  for (std::size_t i = 0; i < maps.size(); ++i) {
    if (!measured[i]) continue;  // a model's bands move together: not a spread
    bool any = false;
    for (HeatCell& c : maps[i].cells) {
      if (c.aggressors == 0) continue;
      const auto alone = std::find_if(maps[i].cells.begin(), maps[i].cells.end(), [&](const HeatCell& b) {
        return b.aggressors == 0 && b.victim == c.victim;
      });
      if (alone == maps[i].cells.end() || std::isnan(c.gbps_min) || std::isnan(c.gbps_max) ||
          std::isnan(alone->gbps_min) || std::isnan(alone->gbps_max))
        continue;
      c.within_spread = c.gbps_min <= alone->gbps_max && alone->gbps_min <= c.gbps_max;
      any = any || c.within_spread;
    }
    if (any)
      maps[i].subtitle += "; hatched, in brackets: within the run's spread (its min..max overlaps the victim alone's)";
  }
  // What a measured map's cells rest on, said in its subtitle: the reps each cell got (an
  // interrupted run's cells stopped short), a partial run, and the cells their run flagged (a
  // partial victim run of 8 flagged cells read "2 reps of 100 ms per cell" and nothing else).
  for (std::size_t i = 0; i < maps.size(); ++i) {
    HeatMap& m = maps[i];
    if (const auto at = m.subtitle.find("{reps}"); at != std::string::npos) {
      const auto [lo, hi] = reps[i];
      m.subtitle.replace(at, 6, lo == hi ? count_of(lo, "rep") : fmt::format("{}..{} reps", lo, hi));
    }
    // The k = 0 column is hidden until its box is ticked: its flagged cells are counted apart ("!
    // marks the 4 cells" over a map that showed 2).
    const auto flagged_where = [&](bool alone) {
      return std::count_if(m.cells.begin(), m.cells.end(),
                           [&](const HeatCell& c) { return c.flagged && (c.aggressors == 0) == alone; });
    };
    const auto flagged = flagged_where(false), flagged_alone = flagged_where(true);
    const std::string in_k0 = flagged_alone == 0 ? std::string()
                              : fmt::format("{} in the k = 0 column (its box above shows it)",
                                            flagged_alone == 1 ? std::string("1 cell") : fmt::format("{} cells", flagged_alone));
    if (flagged > 0)
      m.subtitle += fmt::format("; ! marks {} the run flagged unstable or noisy (hover it, or see the Table's flags){}",
                                flagged == 1 ? std::string("the cell") : fmt::format("the {} cells", flagged),
                                in_k0.empty() ? std::string() : ", and " + in_k0);
    else if (flagged_alone > 0)
      m.subtitle += "; ! marks what the run flagged unstable or noisy: " + in_k0;
    if (const auto why = partial.find(i); why != partial.end())
      m.subtitle += fmt::format("; partial run ({}): only its finished cells", why->second);
  }
  return maps;
}

std::vector<Series> build_series(const std::vector<Dataset>& datasets, PlotKind kind, bool per_thread,
                                 const std::string& scenario) {
  struct Group {
    CurveKey key;
    bool simulated;
    std::vector<const Point*> points;
  };
  std::vector<Group> groups;
  if (kind == PlotKind::heatmap || scenario == "tlbflush") return {};
  const bool victim = scenario == "victim";
  const std::map<const Point*, std::uint64_t> totals =
      kind == PlotKind::threads && !victim ? fixed_totals(datasets, scenario) : std::map<const Point*, std::uint64_t>{};
  std::map<std::pair<CurveKey, bool>, std::size_t> index;
  for (std::size_t d = 0; d < datasets.size(); ++d) {
    for (const Point& p : datasets[d].points) {
      if (p.scenario != scenario) continue;  // one scenario per plot, never mixed into another's curves
      CurveKey key{d, p.kernel, p.fill, p.placement, p.membind, p.pages, p.scenario, victim ? p.peer_kernel : "",
                   0, 0, p.host, 0};
      if (kind == PlotKind::threads) key.size = p.size_bytes;
      else key.threads = victim ? p.peer_threads : p.threads;
      if (const auto t = totals.find(&p); t != totals.end()) {
        key.size = 0, key.total = t->second;
        if (is_pu_list(p.placement)) key.placement = "PU list";
      }
      const bool sim = p.source == "simulated";
      auto [it, fresh] = index.try_emplace({key, sim}, groups.size());
      if (fresh) groups.push_back({key, sim, {}});
      groups[it->second].points.push_back(&p);
    }
  }
  // Label parts: the kernel always, other fields only when they differ between curves.
  std::vector<CurveKey> keys;
  for (const auto& g : groups) keys.push_back(g.key);
  const bool v_dataset = varies(keys, [&](const CurveKey& k) { return datasets[k.dataset].from_file ? k.dataset : 0; });
  const bool v_size = varies(keys, [](const CurveKey& k) { return k.size; });
  const bool v_threads = varies(keys, [](const CurveKey& k) { return k.threads; });
  const bool v_fill = varies(keys, [](const CurveKey& k) { return k.fill; });
  const bool v_place = varies(keys, [](const CurveKey& k) { return k.placement; });
  const bool v_bind = varies(keys, [](const CurveKey& k) { return k.membind; });
  const bool v_pages = varies(keys, [](const CurveKey& k) { return k.pages; });
  const bool v_scen = varies(keys, [](const CurveKey& k) { return k.scenario; });
  // Hosts are named only where one file holds several (a fleet CSV): files of different hosts
  // are told apart by their names already.
  bool v_host = false;
  for (const auto& a : keys)
    for (const auto& b : keys) v_host = v_host || (a.dataset == b.dataset && a.host != b.host);
  bool any_sim = false, any_measured = false;
  for (const auto& g : groups) (g.simulated ? any_sim : any_measured) = true;

  std::vector<Series> out;
  std::vector<std::string> pair_keys;  // kernel and variant, without the source and run: a measured curve's pair
  for (const auto& g : groups) {
    Series s;
    s.simulated = g.simulated;
    s.split_total = g.key.total > 0;
    s.imported = !g.points.empty() && std::all_of(g.points.begin(), g.points.end(),
                                                  [](const Point* p) { return p->source == "imported"; });
    const CurveKey& k = g.key;
    s.kernel = scenario == "pagefault" ? "pagefault " + k.pages : k.kernel;
    std::string v;  // the variant: every part of the label but the kernel and the source
    if (victim) v += " beside " + k.peer;
    if (k.total > 0) v += " " + size_text(double(k.total)) + " total";
    else if (v_size) v += " " + size_text(double(k.size));
    if (v_threads) v += victim ? fmt::format(" k={}", k.threads) : fmt::format(" {}T", k.threads);
    // Imported points leave what their source did not state empty: say nothing rather than a blank.
    // A value a source left "unknown" is named with its field ("357.63 MiB total unknown" did not
    // say what was unknown).
    const auto value = [](const char* field, const std::string& x) {
      return x == "unknown" ? fmt::format(" {} unknown", field) : " " + x;
    };
    if (v_fill && !k.fill.empty()) v += value("fill", k.fill);
    if (v_place && !k.placement.empty()) v += k.placement == "PU list" ? " on PU lists" : value("placement", k.placement);
    if (v_bind && !k.membind.empty()) v += " mem " + k.membind;
    if (v_pages && !k.pages.empty() && scenario != "pagefault") v += value("pages", k.pages);
    if (v_scen) v += " " + k.scenario;
    if (v_host) v += " on " + (k.host.empty() ? std::string("?") : k.host);
    const bool named_run = v_dataset && datasets[k.dataset].from_file;
    // The source, unless the run's name beside it says it ("stosb 32 MiB (measured) [vm measured
    // (sample, AMD EPYC)]" ran past a 1024 px legend): the line style tells them apart too.
    const auto said = [&](const char* word) {
      return named_run && datasets[k.dataset].name.find(word) != std::string::npos;
    };
    if (g.simulated && any_measured && !said("simulated")) s.tag = " (simulated)";
    else if (!g.simulated && any_sim && !said(s.imported ? "imported" : "measured"))
      s.tag = s.imported ? " (imported)" : " (measured)";
    if (datasets[k.dataset].from_file) s.dataset = datasets[k.dataset].name;
    if (named_run) s.tag += " [" + datasets[k.dataset].name + "]";
    s.label = s.kernel + v + s.tag;
    pair_keys.push_back(s.kernel + v);
    s.setup = v;
    if (v_dataset && datasets[k.dataset].from_file) v += " [" + datasets[k.dataset].name + "]";
    s.variant = v;

    std::vector<const Point*> pts = g.points;
    auto xof = [&](const Point* p) {
      if (kind != PlotKind::threads) return double(p->size_bytes);
      return victim ? double(p->peer_threads) : double(p->threads);
    };
    std::stable_sort(pts.begin(), pts.end(), [&](const Point* a, const Point* b) { return xof(a) < xof(b); });
    for (const Point* p : pts) {
      s.x.push_back(xof(p));
      s.y.push_back(per_thread ? p->gbps_per_thread_median : p->gbps_median);
      if (!per_thread) {
        s.err_minus.push_back(std::max(0.0, p->gbps_median - p->gbps_min));
        s.err_plus.push_back(std::max(0.0, p->gbps_max - p->gbps_median));
      }
      s.points.push_back(*p);
    }
    out.push_back(std::move(s));
  }
  // A curve's measured and simulated versions side by side, in the order the first of them came:
  // the demo's legend listed four measured curves, then four simulated ones, so at larger text its
  // first page held no prediction to compare with.
  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < pair_keys.size(); ++i) first.try_emplace(pair_keys[i], i);
  // The style's variant names the run only where it must: a measured curve and the simulated one of
  // the same kernel and set-up share colour and marker (style.hpp), which the runs' names in the
  // variant had kept apart in the demo (stosb 256 MiB measured and simulated in two shades).
  std::map<std::pair<std::string, bool>, int> same;  // curves of one kernel, set-up and source (several runs)
  for (std::size_t i = 0; i < out.size(); ++i) ++same[{pair_keys[i], out[i].simulated}];
  for (std::size_t i = 0; i < out.size(); ++i)
    if (same[{pair_keys[i], out[i].simulated}] == 1) out[i].variant = pair_keys[i].substr(out[i].kernel.size());
  std::vector<std::size_t> order(out.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return first[pair_keys[a]] < first[pair_keys[b]]; });
  std::vector<Series> sorted;
  sorted.reserve(out.size());
  for (std::size_t i : order) sorted.push_back(std::move(out[i]));
  return sorted;
}

ThinnedSeries thin_series(std::vector<Series> series, PlotKind kind, std::size_t max_curves) {
  ThinnedSeries out;
  if (series.size() <= max_curves || kind == PlotKind::heatmap) {
    out.series = std::move(series);
    return out;
  }
  // The value that tells a kernel's curves apart on this plot (curves without points keep 0).
  auto value_of = [&](const Series& s) -> double {
    if (s.points.empty()) return 0;
    const Point& p = s.points.front();
    if (kind == PlotKind::threads) return double(p.size_bytes);
    return p.scenario == "victim" ? double(p.peer_threads) : double(p.threads);
  };
  std::vector<double> values;
  for (const auto& s : series) values.push_back(value_of(s));
  std::vector<double> all = values;
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  if (all.size() < 3) {  // nothing to thin by: these curves differ in something else
    out.series = std::move(series);
    return out;
  }
  auto pow2 = [](double v) { return v >= 1 && std::fabs(std::exp2(std::round(std::log2(v))) - v) < 1e-9 * v; };
  // Values of measured (or imported) curves are always drawn: a run's few figures beside a big
  // simulated sweep are what the plot is for; the thinning is for the sweep.
  std::vector<double> measured;
  for (std::size_t i = 0; i < series.size(); ++i)
    if (!series[i].simulated) measured.push_back(values[i]);
  auto is_measured = [&](double v) { return std::find(measured.begin(), measured.end(), v) != measured.end(); };
  std::vector<double> keep;
  for (double v : all)
    if (v == all.front() || v == all.back() || pow2(v) || is_measured(v)) keep.push_back(v);
  const double per_value = double(series.size()) / double(all.size());  // curves per value, about
  const auto fits = static_cast<std::size_t>(std::max(2.0, std::floor(double(max_curves) / per_value)));
  if (keep.size() > fits) {  // still too many: log-spaced picks among them, ends and measured values kept
    std::vector<double> picked;
    for (double v : keep)
      if (is_measured(v)) picked.push_back(v);
    const double lo = std::log(std::max(keep.front(), 1e-9)), hi = std::log(std::max(keep.back(), 1e-9));
    for (std::size_t i = 0; i < fits; ++i) {
      const double target = lo + (hi - lo) * double(i) / double(fits - 1);
      auto best = std::min_element(keep.begin(), keep.end(), [&](double a, double b) {
        return std::fabs(std::log(std::max(a, 1e-9)) - target) < std::fabs(std::log(std::max(b, 1e-9)) - target);
      });
      if (std::find(picked.begin(), picked.end(), *best) == picked.end()) picked.push_back(*best);
    }
    std::sort(picked.begin(), picked.end());
    keep = picked;
  }
  for (std::size_t i = 0; i < series.size(); ++i)
    if (std::find(keep.begin(), keep.end(), values[i]) != keep.end()) out.series.push_back(std::move(series[i]));
  const bool threads_axis = kind == PlotKind::threads;
  // A victim size plot's curves are one per aggressor count k, not per thread count.
  const bool victim = !out.series.empty() && !out.series.front().points.empty() &&
                      out.series.front().points.front().scenario == "victim";
  std::vector<std::string> shown;
  for (double v : keep) shown.push_back(threads_axis ? size_text(v) : fmt::format("{:g}", v));
  std::string list = shown.size() <= 6 ? fmt::format("{}", fmt::join(shown, ", "))
                                       : fmt::format("{}, {}, {}, ..., {}", shown[0], shown[1], shown[2], shown.back());
  out.note = fmt::format("{} of {} {} drawn ({}{}); the table has every point", keep.size(), all.size(),
                         threads_axis ? "buffer sizes"
                         : victim     ? "aggressor counts"
                                      : "thread counts",
                         victim ? "k = " : "", list);
  return out;
}

Dataset load_dataset(const std::string& path) {
  // core's reader, as every CLI command's: a bwlab CSV, JSON or fleet CSV (its hosts' curves are
  // told apart by build_series), with the same messages.
  LoadedPoints f = load_points(path);
  Dataset d;
  d.name = std::filesystem::path(path).filename().string();
  d.from_file = true;
  d.partial = partial_reason(f);  // a JSON run's, or the flag on a CSV's last point (before the move)
  // Nothing to draw: refused as plot and verdict refuse it (a header-only CSV opened as "0 points"
  // beside "No scaling rows to plot", exit 0 for a screenshot).
  if (f.points.empty())
    throw InputError(d.partial.empty() ? fmt::format("{}: no points", path)
                                       : fmt::format("{}: no points (a partial run: {})", path, d.partial));
  d.recorded_llc = recorded_llcs(f);
  d.points = std::move(f.points);
  if (f.run) d.machine = std::move(f.run->machine);
  return d;
}

}  // namespace bwlab::gui
