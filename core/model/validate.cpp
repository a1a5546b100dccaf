// SPDX-License-Identifier: MIT
#include "core/model/validate.hpp"

#include <algorithm>
#include <map>
#include <charconv>
#include <cmath>
#include <istream>
#include <numeric>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/insight/fleet.hpp"
#include "core/kernels/fill.hpp"
#include "core/kernels/kernels.hpp"
#include "core/model/solver.hpp"
#include "core/model/uarch.hpp"
#include "core/report/cpu_name.hpp"
#include "core/report/csv.hpp"
#include "core/report/point_flags.hpp"
#include "core/report/table.hpp"
#include "core/topology/placement.hpp"

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

// What a point wrote, as the kernels parse it; a file without the column (or with a fill this
// version does not know) counts as zero, the default of every run.
bool zero_fill_of(const std::string& fill) {
  if (fill.empty()) return true;
  try {
    return parse_fill(fill).zero_only();
  } catch (const InputError&) {
    return true;
  }
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
    // A victim row's GB/s is the victim thread's own beside aggressors, a mix row's a kernel's
    // beside other kernels: compared as a scaling point they were predicted alone (stosb 32MiB 2T:
    // 42.8 GB/s of the victim against 53.3 for two stosb threads). `simulate --scenario` predicts them.
    if (p.scenario != "scaling" && !p.scenario.empty()) {
      const bool modelled = p.scenario == "victim" || p.scenario == "mix";
      set.skipped.push_back({o.label, fmt::format("a {} row: the model fits and validates scaling points only{}", p.scenario,
                                                  modelled ? fmt::format(" (simulate --scenario {} predicts these)",
                                                                         p.scenario)
                                                           : std::string(" (the model has no such scenario)"))});
      continue;
    }
    o.cpu = p.cpu_model;
    o.host = p.host;
    o.kernel = p.kernel;
    o.size_bytes = p.size_bytes;
    o.threads = p.threads;
    o.gbps = p.gbps_median;
    o.reps = p.reps, o.pstdev_pct = p.gbps_pstdev_pct, o.unsteady = flagged_unsteady(p);
    o.relative = is_relative_figure(p);
    o.zero_fill = zero_fill_of(p.fill);
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
  // Rows of one label that differ in placement are different configurations, not runs of one
  // point: their labels name the placement (kerncraft's compact and SMT rows read "#1", "#2" as
  // repeated runs). A PU list reads as format_pu_list writes it: "PUs 0-19".
  const auto placement_text = [](const Placement& pl) {
    return pl.kind == Placement::Kind::list ? "PUs " + format_pu_list(pl.list) : pl.label();
  };
  std::map<std::string, std::set<std::string>> placements;
  for (const Observation& o : set.rows) placements[o.label].insert(placement_text(o.placement));
  for (Observation& o : set.rows)
    if (placements[o.label].size() > 1) o.label += " " + placement_text(o.placement);
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
  // A fleet CSV (bwlab merge) holds several hosts' runs: it said "unknown CSV header".
  if (is_fleet_csv(first))
    throw InputError(fmt::format("{} is a fleet CSV (bwlab merge): give one host's run (its bwlab CSV, as `bwlab run "
                                 "--csv` wrote it)",
                                 origin));
  if (first.find_first_not_of(" \t") != std::string::npos && first[first.find_first_not_of(" \t")] == '{')
    // Read for simulate --validate and calibrate --from alike: the text names both options.
    throw InputError(fmt::format("{}: JSON, not CSV: measured rows are read from a CSV (bwlab run --csv, or the "
                                 "seed's); a machine file (bwlab machine spec, calibrate) goes to --machine "
                                 "(simulate) or --base (calibrate)",
                                 origin));
  throw InputError(fmt::format("{}: unknown CSV header; expected bwlab's ({}...) or the seed's ({}...)", origin,
                               csv_header().substr(0, 30), kSeedHeader));
}

void plan_rows_for(std::vector<Observation>& rows, const std::string& topology, const std::string& here) {
  for (Observation& o : rows)
    if (topology != "local" || o.host != here) o.pus.clear();
}

double predict(const Observation& o, const Topology& topo, const MachineParams& m, double* top) {
  // Unpinned (placement none): where the OS puts them, spread over the LLC domains (os_placed_pus).
  const std::vector<int> pus = !o.pus.empty() ? o.pus
                               : o.placement.kind == Placement::Kind::none
                                   ? os_placed_pus(plan_pus(topo, o.placement, o.threads), topo, m)
                                   : plan_pus(topo, o.placement, o.threads);
  std::vector<ThreadSpec> threads(pus.size(), ThreadSpec{o.kernel, o.size_bytes, 0, o.membind, o.zero_fill});
  for (std::size_t i = 0; i < pus.size(); ++i) threads[i].pu = pus[i];
  Solution sol;
  const auto r = simulate_threads(threads, topo, m, top ? &sol : nullptr);
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
  if (top) {
    std::vector<std::size_t> all(r.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    *top = band_top_of(sum, m, sol, r, all);
  }
  return sum;
}

namespace {

// Two observations of the same point but for the kernel (the pairs the winner scores compare).
bool same_point(const Observation& a, const Observation& b) {
  return a.cpu == b.cpu && a.size_bytes == b.size_bytes && a.threads == b.threads && a.single_pass == b.single_pass &&
         a.relative == b.relative && a.zero_fill == b.zero_fill && a.placement.label() == b.placement.label() &&
         a.membind.label() == b.membind.label();
}

// Relative points: each prediction becomes mean_j(1 / P_j) x P_k over the kernels of its point,
// as the figure is mean_j(t_j) / t_k (times ~ 1 / rates); a point with one kernel has no ratio.
// Each kernel counts once however many runs of it the file holds (their prediction is the same).
void normalise_relative(std::vector<PointError>& points, std::vector<SkippedRow>& skipped) {
  std::vector<double> mean_inv(points.size(), 0);
  std::vector<int> kernels(points.size(), 0);
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].obs.relative) continue;
    std::set<std::string> seen;
    for (const auto& q : points)
      if (same_point(points[i].obs, q.obs) && seen.insert(q.obs.kernel).second)
        mean_inv[i] += 1 / q.predicted, ++kernels[i];
  }
  std::vector<PointError> kept;
  for (std::size_t i = 0; i < points.size(); ++i) {
    PointError p = points[i];
    if (p.obs.relative) {
      if (kernels[i] < 2) {
        skipped.push_back({p.obs.label, "a relative figure needs another kernel at the same point"});
        continue;
      }
      p.predicted *= mean_inv[i] / kernels[i];
      p.error = p.predicted / p.obs.gbps - 1;
    }
    kept.push_back(std::move(p));
  }
  points = std::move(kept);
}

}  // namespace

ValidationReport validate(const std::vector<Observation>& obs, const Topology& topo, const MachineParams& m) {
  ValidationReport rep;
  for (const auto& o : obs) {
    // A kernel the machine cannot run has no prediction (simulate refuses it; it is not scored).
    if (std::string why = m.kernel_unavailable(o.kernel); !why.empty()) {
      rep.skipped.push_back({o.label, std::move(why)});
      continue;
    }
    double pred = 0, top = 0;
    try {
      pred = predict(o, topo, m, o.relative ? nullptr : &top);
    } catch (const InputError& e) {
      rep.skipped.push_back({o.label, e.what()});
      continue;
    }
    rep.points.push_back(PointError{o, pred, pred / o.gbps - 1, o.relative ? 0 : pred / (1 + m.band), top});
  }
  normalise_relative(rep.points, rep.skipped);
  double sq = 0;
  for (const auto& p : rep.points) {
    rep.max_abs_error = std::max(rep.max_abs_error, std::abs(p.error));
    const double l = std::log(p.predicted / p.obs.gbps);
    sq += l * l;
    if (p.obs.relative) ++rep.relative_points;
  }
  if (!rep.points.empty()) rep.log_rms = std::sqrt(sq / static_cast<double>(rep.points.size()));
  return rep;
}

namespace {

// "Intel" or "AMD" when the text names one or a product line of one, else "". A guest's CPU
// name may carry no vendor ("Oxide Virtual Turin-like Processor": Turin is AMD's Zen 5 EPYC).
std::string vendor_named(std::string_view text) {
  for (const char* v : {"Intel", "AMD"})
    if (text.find(v) != std::string_view::npos) return v;
  for (const char* v : {"EPYC", "Ryzen", "Threadripper", "Opteron", "Turin", "Genoa", "Bergamo", "Milan", "Rome"})
    if (text.find(v) != std::string_view::npos) return "AMD";
  for (const char* v : {"Xeon", "Core(TM)", "Pentium", "Celeron"})
    if (text.find(v) != std::string_view::npos) return "Intel";
  return {};
}

// The microarchitecture as the sheet named it: `machine spec --uarch cascadelake-sp` names the
// machine "cascadelake-sp-1s-..." though its row is skylake-sp.
std::string sheet_uarch_name(const MachineParams& m, const Uarch& u) {
  for (const std::string& a : u.aliases)
    if (m.name.rfind(a + "-", 0) == 0) return a;
  return u.name;
}

}  // namespace

CpuMatch match_cpu(const MachineParams& m, const std::string& cpu, const std::string& file) {
  CpuMatch r;
  if (cpu.empty() || same_cpu(m.cpu, cpu)) return r;
  const Uarch* u = m.uarch.empty() ? nullptr : find_uarch(m.uarch);
  // What the machine is, in words: its CPU, else its sheet's microarchitecture (and so vendor).
  const std::string vendor = !m.cpu.empty() ? vendor_named(m.cpu) : u ? vendor_named(u->description) : std::string();
  const std::string what =
      !m.cpu.empty() ? fmt::format("describes {}", m.cpu)
      : u            ? fmt::format("is a {} spec sheet{}", sheet_uarch_name(m, *u), vendor.empty() ? "" : " (" + vendor + ")")
                     : std::string("names no CPU");
  const std::string measured = vendor_named(cpu);
  if (!m.cpu.empty() || (!vendor.empty() && !measured.empty() && vendor != measured)) {
    r.kind = CpuMatch::Kind::different;
    r.text = fmt::format("{} was measured on {}; machine {} {}: the error includes the difference between the two "
                         "machines",
                         file, cpu, m.name, what);
  } else {
    r.kind = CpuMatch::Kind::unknown;
    r.text = fmt::format("{} was measured on {}; machine {} {}{}: the error is the model's only if that is the "
                         "machine it describes",
                         file, cpu, m.name, what, u ? ", with no CPU name" : "");
  }
  return r;
}

namespace {
// match_cpu's text when spec sheet `m` (no CPU name) is of another vendor than `other`'s first
// measured point's CPU.
std::string other_vendor_text(const MachineParams& m, const std::vector<Point>& other, const std::string& file) {
  const auto measured =
      std::find_if(other.begin(), other.end(), [](const Point& p) { return p.source != "simulated"; });
  if (measured == other.end() || measured->cpu_model.empty() || !m.cpu.empty()) return {};
  const CpuMatch c = match_cpu(m, measured->cpu_model, file);
  return c.kind == CpuMatch::Kind::different ? c.text : std::string();
}
}  // namespace

std::string other_vendor_sheet(const std::string& machine_json, const std::vector<Point>& simulated,
                               const std::vector<Point>& other, const std::string& file) {
  if (simulated.empty() || simulated.front().source != "simulated") return {};
  MachineParams m;
  if (!machine_json.empty()) {
    std::istringstream in(machine_json);
    try {
      m = read_machine_json(in, "the run's machine");
    } catch (const InputError&) {
      return {};  // a machine compare cannot read says nothing either way
    }
  } else {
    // A file without its machine (a CSV): its host names the sheet ("model:<machine name>"), and
    // the name's uarch says the vendor.
    const std::string& host = simulated.front().host;
    if (!host.starts_with("model:")) return {};
    m.name = host.substr(6);
    m.uarch = sheet_uarch_of_name(m.name);
    if (m.uarch.empty()) return {};
  }
  return other_vendor_text(m, other, file);
}

const MachineParams* preset_for_cpu(const std::string& cpu) {
  for (const auto& m : preset_table())
    if (same_cpu(m.cpu, cpu)) return &m;
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
      if (o.kernel == p.obs.kernel && same_point(o, p.obs)) break;
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
      if (!same_point(a.obs, b.obs)) continue;
      const double lo = std::min(a.obs.gbps, b.obs.gbps), hi = std::max(a.obs.gbps, b.obs.gbps);
      if (!(lo > 0) || hi / lo - 1 <= margin) continue;
      ++w.pairs;
      if ((a.obs.gbps > b.obs.gbps) == (a.predicted > b.predicted)) ++w.right;
    }
  }
  return w;
}

RatioError ratio_error(const std::vector<PointError>& all) {
  std::vector<PointError> points;
  for (const auto& p : all)
    if (!p.obs.relative) points.push_back(p);
  points = merge_repeats(points);
  double sq = 0;
  RatioError r;
  std::vector<bool> done(points.size(), false);
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (done[i]) continue;
    std::vector<double> e;
    for (std::size_t j = i; j < points.size(); ++j)
      if (!done[j] && same_point(points[i].obs, points[j].obs)) {
        done[j] = true;
        e.push_back(std::log(points[j].predicted / points[j].obs.gbps));
      }
    if (e.size() < 2) continue;
    const double mean = std::accumulate(e.begin(), e.end(), 0.0) / static_cast<double>(e.size());
    for (const double x : e) sq += (x - mean) * (x - mean);
    r.figures += static_cast<int>(e.size());
    ++r.points;
  }
  if (r.figures > 0) r.log_rms = std::sqrt(sq / r.figures);
  return r;
}

bool StosNtScore::change_within_one_doubling() const {
  if (measured_change == 0 || predicted_change == 0) return measured_change == predicted_change;
  return std::abs(std::log2(static_cast<double>(predicted_change) / measured_change)) <= 1 + 1e-9;
}

std::vector<StosNtScore> stos_nt_scores(const std::vector<PointError>& all, double margin) {
  const std::vector<PointError> points = merge_repeats(all);
  // Every rep stos / NT pair of one point, grouped by CPU, kernels and size, in thread order.
  struct Pair {
    int threads;
    const PointError *s, *n;
  };
  std::vector<StosNtScore> out;
  std::vector<std::vector<Pair>> pairs;
  for (const auto& s : points) {
    if (!is_rep_stos(s.obs.kernel)) continue;
    for (const auto& n : points) {
      if (traffic_of(n.obs.kernel) != Traffic::non_temporal || !same_point(s.obs, n.obs)) continue;
      std::size_t i = 0;
      while (i < out.size() && !(out[i].cpu == s.obs.cpu && out[i].stos_kernel == s.obs.kernel &&
                                 out[i].nt_kernel == n.obs.kernel && out[i].size_bytes == s.obs.size_bytes &&
                                 out[i].zero_fill == s.obs.zero_fill))
        ++i;
      if (i == out.size()) {
        out.push_back({});
        out[i].cpu = s.obs.cpu, out[i].stos_kernel = s.obs.kernel, out[i].nt_kernel = n.obs.kernel;
        out[i].size_bytes = s.obs.size_bytes, out[i].zero_fill = s.obs.zero_fill;
        pairs.emplace_back();
      }
      pairs[i].push_back({s.obs.threads, &s, &n});
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    StosNtScore& sc = out[i];
    auto& ps = pairs[i];
    std::stable_sort(ps.begin(), ps.end(), [](const Pair& a, const Pair& b) { return a.threads < b.threads; });
    const bool m0 = ps.front().s->obs.gbps > ps.front().n->obs.gbps;
    const bool p0 = ps.front().s->predicted > ps.front().n->predicted;
    sc.first_winner = m0 ? sc.stos_kernel : sc.nt_kernel;
    sc.predicted_first_winner = p0 ? sc.stos_kernel : sc.nt_kernel;
    const auto apart = [margin](double a, double b) {
      const double lo = std::min(a, b), hi = std::max(a, b);
      return lo > 0 && hi / lo - 1 > margin;
    };
    bool m_apart_after = false, p_apart_after = false;  // from the change on
    for (std::size_t k = 0; k < ps.size(); ++k) {
      const Pair& p = ps[k];
      if (k == 0 || p.threads != ps[k - 1].threads) ++sc.thread_counts;
      const bool m = p.s->obs.gbps > p.n->obs.gbps, pr = p.s->predicted > p.n->predicted;
      if (apart(p.s->obs.gbps, p.n->obs.gbps)) {
        ++sc.pairs;
        if (m == pr) ++sc.right;
      }
      if (sc.measured_change == 0 && m != m0) sc.measured_change = p.threads;
      if (sc.predicted_change == 0 && pr != p0) sc.predicted_change = p.threads;
      if (sc.measured_change != 0 && sc.measured_back == 0 && m == m0) sc.measured_back = p.threads;
      if (sc.predicted_change != 0 && sc.predicted_back == 0 && pr == p0) sc.predicted_back = p.threads;
      if (sc.measured_change != 0) m_apart_after = m_apart_after || apart(p.s->obs.gbps, p.n->obs.gbps);
      if (sc.predicted_change != 0) p_apart_after = p_apart_after || apart(p.s->predicted, p.n->predicted);
    }
    sc.measured_tie_after = sc.measured_change != 0 && !m_apart_after;
    sc.predicted_tie_after = sc.predicted_change != 0 && !p_apart_after;
  }
  return out;
}

}  // namespace bwlab::model
