// SPDX-License-Identifier: MIT
#include "core/model/validate.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <istream>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/model/solver.hpp"
#include "core/report/csv.hpp"
#include "core/report/table.hpp"

namespace bwlab::model {
namespace {

constexpr double kGiBToGB = 1073741824.0 / 1e9;
constexpr std::string_view kSeedHeader = "source,system,cpu,microarch";

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cur += '"', ++i;
      else if (c == '"') quoted = false;
      else cur += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

double to_double(const std::string& s, const std::string& where) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size())
    throw InputError(fmt::format("{}: '{}' is not a number", where, s));
  return v;
}

ObservationSet read_seed(std::istream& in, const std::string& origin, const std::string& header_line) {
  ObservationSet set;
  set.format = "seed";
  const auto header = split_csv(header_line);
  auto col = [&](const char* name) {
    auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw InputError(fmt::format("{}: seed CSV has no column '{}'", origin, name));
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t c_system = col("system"), c_cpu = col("cpu"), c_kernel = col("kernel"), c_size = col("size_mb"),
                    c_threads = col("threads"), c_gbps = col("gbps"), c_tool = col("tool");
  int line_no = 1;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.empty() || line == "\r") continue;
    const auto f = split_csv(line);
    const std::string where = fmt::format("{} line {}", origin, line_no);
    if (f.size() != header.size())
      throw InputError(fmt::format("{}: {} fields, the header has {}", where, f.size(), header.size()));
    Observation o;
    o.cpu = f[c_cpu];
    const double mib = to_double(f[c_size], where);
    o.size_bytes = static_cast<std::uint64_t>(mib * (1 << 20));
    o.threads = static_cast<int>(to_double(f[c_threads], where));
    o.gbps = to_double(f[c_gbps], where) * kGiBToGB;
    o.single_pass = f[c_tool].find("perf bench") != std::string::npos;
    o.label = fmt::format("{} {} {} {}T", f[c_system], f[c_kernel], format_bytes(o.size_bytes), o.threads);
    const KernelInfo* k = find_kernel(f[c_kernel]);
    if (!k) {
      set.skipped.push_back({o.label, f[c_kernel].rfind("pagefault", 0) == 0
                                          ? "page-fault clearing path (kernel clear_page) is not modelled"
                                          : "kernel not known to bwlab"});
      continue;
    }
    o.kernel = std::string(k->name);
    if (o.threads < 1 || !(o.gbps > 0) || o.size_bytes == 0)
      throw InputError(fmt::format("{}: threads, size_mb and gbps must be positive", where));
    set.rows.push_back(std::move(o));
  }
  return set;
}

ObservationSet read_ours(std::istream& in, const std::string& origin) {
  std::vector<Point> points;
  try {
    points = read_csv(in);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", origin, e.what()));
  }
  return observations_from(points);
}

}  // namespace

ObservationSet observations_from(const std::vector<Point>& points) {
  ObservationSet set;
  set.format = "bwlab";
  for (const Point& p : points) {
    Observation o;
    o.label = fmt::format("{} {} {}T {}", p.kernel, format_bytes(p.size_bytes), p.threads, p.fill);
    const bool imported = p.source == "imported";
    if (p.source != "measured" && !imported) {
      set.skipped.push_back({o.label, fmt::format("source is {}, not measured or imported", p.source)});
      continue;
    }
    o.cpu = p.cpu_model;
    o.kernel = p.kernel;
    o.size_bytes = p.size_bytes;
    o.threads = p.threads;
    o.gbps = p.gbps_median;
    // perf bench mem times one pass per loop (-l 1 in the seeds): the single-pass protocol. The
    // origin is in Point::origin, or only in the "imported from ..." flag after a CSV round trip.
    if (imported) {
      bool perf = p.origin_tool.rfind("perf bench", 0) == 0 || p.origin_tool.find(" perf bench ") != std::string::npos;
      for (const std::string& f : p.flags) perf = perf || f.rfind("imported from perf bench", 0) == 0 ||
                                                  (f.rfind("imported from ", 0) == 0 && f.find(" perf bench mem ") != std::string::npos);
      o.single_pass = perf;
    }
    try {
      // An imported point states no placement or binding (one unpinned thread): compact, local.
      o.placement = imported && p.placement.empty() ? Placement{} : parse_placement(p.placement);
      o.membind = imported && p.membind.empty() ? MemBind{} : parse_membind(p.membind);
    } catch (const InputError& e) {
      set.skipped.push_back({o.label, e.what()});
      continue;
    }
    // Pinned runs: the PUs planned. Placement none plans no PU (-1): the model's plan for it.
    if (static_cast<int>(p.pus_planned.size()) == p.threads) o.pus = p.pus_planned;
    if (std::find(o.pus.begin(), o.pus.end(), kAnyPu) != o.pus.end()) o.pus.clear();
    if (!find_kernel(o.kernel) || !(o.gbps > 0)) {
      set.skipped.push_back({o.label, "unknown kernel or no figure"});
      continue;
    }
    set.rows.push_back(std::move(o));
  }
  if (!points.empty() &&
      std::all_of(points.begin(), points.end(), [](const Point& p) { return p.source == "imported"; }))
    set.format = "imported";
  return set;
}

ObservationSet read_observations(std::istream& in, const std::string& origin) {
  std::string first;
  if (!std::getline(in, first)) throw InputError(fmt::format("{}: empty file", origin));
  if (!first.empty() && first.back() == '\r') first.pop_back();
  if (first.rfind(kSeedHeader, 0) == 0) return read_seed(in, origin, first);
  // bwlab's own CSV, of this or an older version (columns are found by name: read_csv says what is wrong).
  if (first.rfind("source,", 0) == 0) {
    std::stringstream whole;
    whole << first << '\n' << in.rdbuf();
    return read_ours(whole, origin);
  }
  throw InputError(fmt::format("{}: unknown CSV header; expected bwlab's ({}...) or the seed's ({}...)", origin,
                               csv_header().substr(0, 30), kSeedHeader));
}

double predict(const Observation& o, const Topology& topo, const MachineParams& m) {
  const std::vector<int> pus = o.pus.empty() ? plan_pus(topo, o.placement, o.threads) : o.pus;
  std::vector<ThreadSpec> threads(pus.size(), ThreadSpec{o.kernel, o.size_bytes, 0, o.membind});
  for (std::size_t i = 0; i < pus.size(); ++i) threads[i].pu = pus[i];
  const auto r = simulate_threads(threads, topo, m);
  double sum = 0;
  if (o.single_pass) {
    // Each thread's single pass, from the steady-state rates of its two paths.
    for (const auto& t : r) {
      GroupRate g;
      g.gbps = t.gbps;
      g.hit = t.hit;
      g.llc_gbps = t.llc_gbps;
      g.dram_gbps = t.dram_gbps;
      sum += single_pass_gbps(g, o.size_bytes, m);
    }
  } else {
    for (const auto& t : r) sum += t.gbps;
  }
  return sum;
}

ValidationReport validate(const std::vector<Observation>& obs, const Topology& topo, const MachineParams& m) {
  ValidationReport rep;
  double sq = 0;
  for (const auto& o : obs) {
    double pred = 0;
    try {
      pred = predict(o, topo, m);
    } catch (const InputError& e) {
      rep.skipped.push_back({o.label, e.what()});
      continue;
    }
    PointError pe{o, pred, pred / o.gbps - 1};
    rep.max_abs_error = std::max(rep.max_abs_error, std::abs(pe.error));
    const double l = std::log(pred / o.gbps);
    sq += l * l;
    rep.points.push_back(std::move(pe));
  }
  if (!rep.points.empty()) rep.log_rms = std::sqrt(sq / static_cast<double>(rep.points.size()));
  return rep;
}

const MachineParams* preset_for_cpu(const std::string& cpu) {
  for (const auto& m : preset_table())
    if (!m.cpu.empty() && m.cpu == cpu) return &m;
  return nullptr;
}

namespace {

// Repeated measurements of one point (several runs in one file) as one: the median measured
// rate (the prediction is the same for all), so that pairs and winners count each point once.
std::vector<PointError> merge_repeats(const std::vector<PointError>& points) {
  std::vector<PointError> out;
  std::vector<std::vector<double>> measured;
  for (const auto& p : points) {
    std::size_t i = 0;
    for (; i < out.size(); ++i) {
      const auto& o = out[i].obs;
      if (o.cpu == p.obs.cpu && o.kernel == p.obs.kernel && o.size_bytes == p.obs.size_bytes &&
          o.threads == p.obs.threads && o.single_pass == p.obs.single_pass &&
          o.placement.label() == p.obs.placement.label() &&
          o.membind.label() == p.obs.membind.label())
        break;
    }
    if (i == out.size()) {
      out.push_back(p);
      measured.emplace_back();
    }
    measured[i].push_back(p.obs.gbps);
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto& v = measured[i];
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    out[i].obs.gbps = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    out[i].error = out[i].predicted / out[i].obs.gbps - 1;
  }
  return out;
}

}  // namespace

WinnerScore winner_accuracy(const std::vector<PointError>& all, double margin) {
  const std::vector<PointError> points = merge_repeats(all);
  WinnerScore w;
  for (const auto& a : points) {
    if (traffic_of(a.obs.kernel) != Traffic::write_allocate) continue;
    for (const auto& b : points) {
      if (traffic_of(b.obs.kernel) != Traffic::non_temporal) continue;
      if (a.obs.cpu != b.obs.cpu || a.obs.size_bytes != b.obs.size_bytes || a.obs.threads != b.obs.threads ||
          a.obs.single_pass != b.obs.single_pass)
        continue;
      const double lo = std::min(a.obs.gbps, b.obs.gbps), hi = std::max(a.obs.gbps, b.obs.gbps);
      if (!(lo > 0) || hi / lo - 1 <= margin) continue;
      ++w.pairs;
      if ((a.obs.gbps > b.obs.gbps) == (a.predicted > b.predicted)) ++w.right;
    }
  }
  return w;
}

bool StosNtScore::change_within_one_doubling() const {
  if (measured_change == 0 || predicted_change == 0) return measured_change == predicted_change;
  return std::abs(std::log2(static_cast<double>(predicted_change) / measured_change)) <= 1 + 1e-9;
}

std::vector<StosNtScore> stos_nt_scores(const std::vector<PointError>& all, double margin) {
  const std::vector<PointError> points = merge_repeats(all);
  std::vector<StosNtScore> out;
  for (const auto& s : points) {
    if (!is_rep_stos(s.obs.kernel)) continue;
    for (const auto& n : points) {
      if (traffic_of(n.obs.kernel) != Traffic::non_temporal) continue;
      if (s.obs.cpu != n.obs.cpu || s.obs.size_bytes != n.obs.size_bytes || s.obs.threads != n.obs.threads ||
          s.obs.single_pass != n.obs.single_pass)
        continue;
      auto it = std::find_if(out.begin(), out.end(), [&](const StosNtScore& x) {
        return x.cpu == s.obs.cpu && x.stos_kernel == s.obs.kernel && x.nt_kernel == n.obs.kernel &&
               x.size_bytes == s.obs.size_bytes;
      });
      if (it == out.end()) {
        out.push_back({});
        it = out.end() - 1;
        it->cpu = s.obs.cpu, it->stos_kernel = s.obs.kernel, it->nt_kernel = n.obs.kernel;
        it->size_bytes = s.obs.size_bytes;
      }
      const double lo = std::min(s.obs.gbps, n.obs.gbps), hi = std::max(s.obs.gbps, n.obs.gbps);
      if (lo > 0 && hi / lo - 1 > margin) {
        ++it->pairs;
        if ((s.obs.gbps > n.obs.gbps) == (s.predicted > n.predicted)) ++it->right;
      }
    }
  }
  // Winner changes, scanning thread counts in ascending order.
  for (auto& sc : out) {
    std::vector<std::pair<int, std::pair<bool, bool>>> by_threads;  // threads -> (stos ahead measured, predicted)
    for (const auto& s : points) {
      if (s.obs.cpu != sc.cpu || s.obs.kernel != sc.stos_kernel || s.obs.size_bytes != sc.size_bytes) continue;
      for (const auto& n : points)
        if (n.obs.cpu == sc.cpu && n.obs.kernel == sc.nt_kernel && n.obs.size_bytes == sc.size_bytes &&
            n.obs.threads == s.obs.threads && n.obs.single_pass == s.obs.single_pass)
          by_threads.push_back({s.obs.threads, {s.obs.gbps > n.obs.gbps, s.predicted > n.predicted}});
    }
    std::sort(by_threads.begin(), by_threads.end());
    if (by_threads.empty()) continue;
    for (std::size_t i = 0; i < by_threads.size(); ++i)
      if (i == 0 || by_threads[i].first != by_threads[i - 1].first) ++sc.thread_counts;
    const bool m0 = by_threads.front().second.first, p0 = by_threads.front().second.second;
    sc.first_winner = m0 ? sc.stos_kernel : sc.nt_kernel;
    for (const auto& [t, w] : by_threads) {
      if (sc.measured_change == 0 && w.first != m0) sc.measured_change = t;
      if (sc.predicted_change == 0 && w.second != p0) sc.predicted_change = t;
    }
  }
  return out;
}

}  // namespace bwlab::model
