// SPDX-License-Identifier: MIT
#include "core/insight/compare.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <iterator>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "core/insight/point_key.hpp"
#include "core/insight/usable_median.hpp"
#include "core/insight/verdict.hpp"
#include "core/report/plural.hpp"
#include "core/report/table.hpp"
#include "core/report/units.hpp"

namespace bwlab {

namespace {

// The one source every point of `points` has ("measured", "simulated", ...); "" when they differ.
std::string only_source(std::span<const Point> points) {
  std::string s;
  for (const Point& p : points) {
    if (!s.empty() && p.source != s) return {};
    s = p.source;
  }
  return s;
}

// point_key, with the source replaced by `source` when it is not empty (a measured run against a
// simulated one is matched on every other parameter).
std::string key_of(const Point& p, const std::string& source) {
  if (source.empty()) return point_key(p);
  Point q = p;
  q.source = source;
  return point_key(q);
}

std::map<std::string, const Point*> index_points(std::span<const Point> points, const char* which,
                                                 const std::string& source) {
  std::map<std::string, const Point*> out;
  for (const Point& p : points) {
    if (!out.emplace(key_of(p, source), &p).second)
      throw InputError(fmt::format("{} holds two points for {} (hosts '{}'): compare needs one run per file",
                                   which, point_label(p), p.host));
  }
  return out;
}

// A measured figure with its range, spread and repetitions; a prediction with the model band it
// is judged by (it has no repetitions).
std::string spread(const Point& p, const CompareOptions& o) {
  if (is_prediction(p)) {
    VerdictOptions vo;
    vo.model_band_pct = o.model_band_pct;
    const Band b = band_of(p, vo);
    return fmt::format("{:.2f} [model band {:.2f}..{:.2f}]", p.gbps_median, b.lo, b.hi);
  }
  // One repetition has no spread: "[x..x] +-0.0%" read as a perfectly steady figure.
  if (p.reps == 1 && p.gbps_min == p.gbps_max) return fmt::format("{:.2f} (1 rep)", p.gbps_median);
  // An imported figure may lack a range or a pstdev (a mailing-list table, perf bench): "-", not "nan".
  const std::string range = std::isfinite(p.gbps_min) && std::isfinite(p.gbps_max)
                                ? fmt::format("[{:.2f}..{:.2f}]", p.gbps_min, p.gbps_max)
                                : std::string("[no range]");
  const std::string pstdev =
      std::isfinite(p.gbps_pstdev_pct) ? fmt::format("+-{:.1f}%", p.gbps_pstdev_pct) : std::string("+-?");
  return fmt::format("{:.2f} {} {} ({})", p.gbps_median, range, pstdev, count_of(p.reps, "rep"));
}

// Matched points measured with different windows (--duration): still matched, but said once, e.g.
// "windows differ: base 100 ms, new 20 ms; ...". Points without a window (imported) and predictions
// (steady state: their duration_ms only scales the predicted bytes) are left out.
std::string window_warning(const std::vector<ComparedPoint>& matched) {
  std::set<double> base_ms, now_ms;
  std::size_t differ = 0;
  for (const ComparedPoint& cp : matched) {
    const double b = cp.base.duration_ms, n = cp.now.duration_ms;
    if (!(b > 0) || !(n > 0) || b == n) continue;
    if (is_prediction(cp.base) || is_prediction(cp.now)) continue;  // steady state: a prediction has no window
    ++differ;
    base_ms.insert(b);
    now_ms.insert(n);
  }
  if (differ == 0) return {};
  return fmt::format("windows differ{}: base {:g} ms, new {:g} ms; figures from different window lengths are not "
                     "like for like",
                     differ == matched.size() ? std::string() : fmt::format(" on {} of {} matched points", differ,
                                                                            matched.size()),
                     fmt::join(base_ms, ","), fmt::join(now_ms, ","));
}

// "; they share no placement (BASE compact, NEW none)": the parameters whose values in the two
// files do not meet, which is why no point matches (a measured compact run against a published
// `--placement none` prediction said only "no point of NEW matches").
std::string disjoint_parameters(std::span<const Point> base, std::span<const Point> now, bool with_source) {
  // Each value with its order: thread counts and sizes by number ("1,104,16,2" read as text order).
  using Value = std::pair<double, std::string>;
  const std::vector<std::pair<const char*, Value (*)(const Point&)>> fields = {
      {"source", [](const Point& p) { return Value{0, p.source}; }},
      {"scenario", [](const Point& p) { return Value{0, p.scenario}; }},
      {"kernel", [](const Point& p) { return Value{0, p.kernel}; }},
      {"fill", [](const Point& p) { return Value{0, p.fill}; }},
      {"threads", [](const Point& p) { return Value{double(p.threads), fmt::format("{}", p.threads)}; }},
      {"placement", [](const Point& p) { return Value{0, p.placement}; }},
      {"membind", [](const Point& p) { return Value{0, p.membind}; }},
      {"pages", [](const Point& p) { return Value{0, p.pages}; }},
      {"size", [](const Point& p) { return Value{double(p.size_bytes), format_bytes(p.size_bytes)}; }},
  };
  const auto texts = [](const std::set<Value>& values) {
    std::vector<std::string> out;
    for (const Value& v : values) out.push_back(v.second.empty() ? "unknown" : v.second);  // an imported file's blank
    return fmt::format("{}", fmt::join(out, ","));
  };
  std::vector<std::string> parts;
  for (const auto& [name, get] : fields) {
    if (!with_source && std::string_view(name) == "source") continue;
    std::set<Value> b, n;
    for (const Point& p : base) b.insert(get(p));
    for (const Point& p : now) n.insert(get(p));
    if (std::none_of(b.begin(), b.end(), [&](const Value& v) { return n.count(v) > 0; }))
      parts.push_back(fmt::format("{} (BASE {}, NEW {})", name, texts(b), texts(n)));
  }
  return parts.empty() ? std::string() : fmt::format("; they share no {}", fmt::join(parts, ", no "));
}

std::string pad_right(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

}  // namespace

const char* to_string(Change c) {
  switch (c) {
    case Change::regressed: return "REGRESSED";
    case Change::improved: return "improved";
    case Change::within_noise: return "within noise";
    case Change::within_tolerance: return "within tolerance";
  }
  return "?";
}

std::string change_words(const ComparedPoint& cp) {
  // Within another CPU's prediction's band is no agreement of the model with this machine.
  if (cp.change == Change::within_noise && cp.other_cpu) return "within the band of a prediction for another CPU";
  if (cp.change == Change::within_noise && (is_prediction(cp.base) || is_prediction(cp.now)))
    return "within the model bands";
  if (cp.other_cpu && cp.change == Change::regressed) return "NEW lower, beyond the band (a prediction for another CPU)";
  if (cp.other_cpu && cp.change == Change::improved) return "NEW higher, beyond the band (a prediction for another CPU)";
  if (cp.against_model && cp.change == Change::regressed) return "NEW lower, beyond the band (model vs measurement)";
  if (cp.against_model && cp.change == Change::improved) return "NEW higher, beyond the band (model vs measurement)";
  return to_string(cp.change);
}

std::string flagged_sides(const ComparedPoint& cp) {
  const bool base = flagged_unsteady(cp.base), now = flagged_unsteady(cp.now);
  return base && now ? " [flagged: BASE and NEW]" : base ? " [flagged: BASE]" : now ? " [flagged: NEW]" : "";
}

namespace {
// A CPU name without its trademarks, "CPU", "Processor", core count and clock, lower case:
// "Intel(R) Xeon(R) Platinum 8270CL CPU @ 2.70GHz" and the preset's "Intel Xeon Platinum 8270CL"
// both give "intel xeon platinum 8270cl".
std::string cpu_words(std::string s) {
  for (const char* noise : {"(R)", "(r)", "(TM)", "(tm)"})
    for (auto at = s.find(noise); at != std::string::npos; at = s.find(noise)) s.erase(at, std::string(noise).size());
  if (const auto at = s.find('@'); at != std::string::npos) s.erase(at);
  std::string out;
  std::istringstream words(s);
  for (std::string w; words >> w;) {
    std::string low;
    for (char ch : w) low += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (low == "cpu" || low == "processor" || (low.size() > 5 && low.ends_with("-core"))) continue;
    out += (out.empty() ? "" : " ") + low;
  }
  return out;
}

// The prediction names a CPU (not only its machine's name: a spec-sheet file has none) other
// than the measurement's. One name within the other ("AMD EPYC" and "AMD EPYC 7763") is not another CPU.
bool predicted_for_another_cpu(const Point& predicted, const Point& measured) {
  if (predicted.cpu_model.empty() || measured.cpu_model.empty() || predicted.host == "model:" + predicted.cpu_model)
    return false;
  const std::string a = cpu_words(predicted.cpu_model), b = cpu_words(measured.cpu_model);
  return a.find(b) == std::string::npos && b.find(a) == std::string::npos;
}
}  // namespace

Comparison compare_points(std::span<const Point> base_in, std::span<const Point> now_in, const CompareOptions& o) {
  if (!(o.tolerance_pct >= 0)) throw InputError("--tolerance must be 0% or more");
  if (o.tolerance_pct > 100)
    throw InputError(fmt::format("bad --tolerance {:g}%: at most 100% (a median cannot drop by more than 100%, so a "
                                 "larger tolerance never flags a regression)",
                                 o.tolerance_pct));
  // tlbflush rows hold ns per munmap call and per read, not GB/s: set aside with a note; a file of
  // nothing else is refused (it said "munmap 1MiB 1T ? E=1 [...]: no usable median GB/s in BASE").
  auto gbps_rows = [](std::span<const Point> points) {
    std::vector<Point> kept;
    std::copy_if(points.begin(), points.end(), std::back_inserter(kept),
                 [](const Point& p) { return p.scenario != "tlbflush"; });
    return kept;
  };
  const std::vector<Point> base_kept = gbps_rows(base_in), now_kept = gbps_rows(now_in);
  const std::size_t set_aside = base_in.size() - base_kept.size() + now_in.size() - now_kept.size();
  if (set_aside > 0 && (base_kept.empty() || now_kept.empty()))
    throw InputError(fmt::format("compare judges GB/s, and {} holds only tlbflush rows, whose figures are ns per "
                                 "munmap call and per read: see the CSV columns munmap_ns_median and reader_ns_median "
                                 "(or the table `bwlab run --scenario tlbflush` prints)",
                                 base_kept.empty() ? "BASE" : "NEW"));
  const std::span<const Point> base = base_kept, now = now_kept;
  // A run of one source against a run of another (measured against simulated): matched on every
  // parameter but the source, as the GUI's Runs > Compare; each point keeps its own range or band.
  const std::string base_source = only_source(base), now_source = only_source(now);
  const std::string across =
      !base_source.empty() && !now_source.empty() && base_source != now_source ? base_source : std::string();
  const auto base_ix = index_points(base, "BASE", across);
  const auto now_ix = index_points(now, "NEW", across);
  Comparison c;
  if (set_aside > 0)
    c.notes.push_back(fmt::format("{} not compared: ns per munmap call and per read, not GB/s",
                                  count_of(set_aside, "tlbflush row")));
  for (const Point& b : base) {
    const auto it = now_ix.find(key_of(b, across));
    if (it == now_ix.end()) {
      c.only_base.push_back(b);
      continue;
    }
    const Point& n = *it->second;
    if (!usable_gbps(b.gbps_median) || !usable_gbps(n.gbps_median))
      throw InputError(
          fmt::format("{}: no usable median GB/s in {}", point_label(b), usable_gbps(b.gbps_median) ? "NEW" : "BASE"));
    ComparedPoint cp{b, n, (n.gbps_median / b.gbps_median - 1) * 100, Change::within_tolerance};
    VerdictOptions vo;
    vo.model_band_pct = o.model_band_pct;
    const Band bb = band_of(b, vo), bn = band_of(n, vo);  // min..max, or the model band of a prediction
    if (cp.change_pct < -o.tolerance_pct)
      cp.change = bn.hi < bb.lo ? Change::regressed : Change::within_noise;
    else if (cp.change_pct > o.tolerance_pct)
      cp.change = bn.lo > bb.hi ? Change::improved : Change::within_noise;
    cp.against_model = is_prediction(b) != is_prediction(n);
    cp.other_cpu = cp.against_model && (!o.other_cpu_note.empty() || (is_prediction(b) ? predicted_for_another_cpu(b, n)
                                                                                      : predicted_for_another_cpu(n, b)));
    if (cp.other_cpu) {
      c.other_below += cp.change == Change::regressed;
      c.other_above += cp.change == Change::improved;
    } else if (cp.against_model) {  // a model's error is not a regression: `compare measured.csv sim.csv` exited 3
      c.model_below += cp.change == Change::regressed;
      c.model_above += cp.change == Change::improved;
    } else {
      c.regressions += cp.change == Change::regressed;
      c.improvements += cp.change == Change::improved;
    }
    c.matched.push_back(std::move(cp));
  }
  for (const Point& n : now)
    if (!base_ix.count(key_of(n, across))) c.only_new.push_back(n);
  if (c.matched.empty())
    throw InputError(fmt::format("no point of NEW matches a point of BASE by its parameters ({}scenario, "
                                 "kernel, fill, threads, placement, membind, pages, size, and a victim's aggressors, a mix's partners): "
                                 "{} vs {}{}",
                                 across.empty() ? "source, " : "every one but the source: ", count_of(base.size(), "point"),
                                 count_of(now.size(), "point"), disjoint_parameters(base, now, across.empty())));
  // Hosts of measurements; a run of predictions only ("model:<machine>") is another host only
  // beside another run of predictions: beside a measurement its machine is the model's business
  // (a note said "different hosts (vm vs model:vm-calibrated): the change includes the machine"
  // where the prediction was of this very host).
  const auto hosts_of = [](std::span<const Point> points) {
    std::set<std::string> measured, all;
    for (const Point& p : points) {
      all.insert(p.host);
      if (!is_prediction(p)) measured.insert(p.host);
    }
    return std::pair{measured, all};
  };
  const auto [base_measured, base_all] = hosts_of(base);
  const auto [now_measured, now_all] = hosts_of(now);
  const bool one_side_predicted = base_measured.empty() != now_measured.empty();
  const std::set<std::string>& base_hosts = base_measured.empty() ? base_all : base_measured;
  const std::set<std::string>& now_hosts = now_measured.empty() ? now_all : now_measured;
  c.different_hosts = !one_side_predicted && base_hosts != now_hosts;
  if (!across.empty())
    c.notes.push_back(fmt::format("NEW is {}, BASE {}: points matched on every parameter but the source", now_source,
                                  base_source));
  // A prediction for another CPU than the measurement's: one note names both CPUs and says whose
  // the gap is (the demo's VM sample against a simulated Xeon read as the model's error).
  const auto other = std::find_if(c.matched.begin(), c.matched.end(), [](const ComparedPoint& cp) { return cp.other_cpu; });
  std::string cpus;
  if (other != c.matched.end() && !o.other_cpu_note.empty()) {
    c.notes.push_back(o.other_cpu_note);  // it names both and says whose the gap is
  } else if (other != c.matched.end()) {
    const bool base_predicted = is_prediction(other->base);
    cpus = fmt::format("predicted for {}, measured on {}",
                       (base_predicted ? other->base : other->now).cpu_model,
                       (base_predicted ? other->now : other->base).cpu_model);
  }
  if (c.different_hosts || !cpus.empty())
    c.notes.push_back(cpus.empty()
                          ? fmt::format("the runs come from different hosts ({} vs {}): the change includes the machine",
                                        fmt::join(base_hosts, ","), fmt::join(now_hosts, ","))
                          : fmt::format("{}: their gap is the machines', not the model's error (a machine file of "
                                        "this one, from `bwlab calibrate` or its spec sheet, predicts it)",
                                        cpus));
  for (const ComparedPoint& cp : c.matched)
    if (cp.base.source != "measured" || cp.now.source != "measured") {
      const std::string& other = cp.base.source != "measured" ? cp.base.source : cp.now.source;
      c.notes.push_back(
          is_prediction(cp.base) || is_prediction(cp.now)
              ? fmt::format("simulated points are compared too: model predictions, not measurements, judged by the "
                            "model's band (+-{:g}% when a point carries none); their lines are marked [prediction]",
                            o.model_band_pct)
              : fmt::format("points with source '{}' are compared too (not measured)", other));
      break;
    }
  if (std::string w = window_warning(c.matched); !w.empty()) c.warnings.push_back(std::move(w));
  return c;
}

void print_comparison(std::ostream& out, const Comparison& c, const CompareOptions& o) {
  // The header names the figures the rows hold: measured ones, predictions, or both.
  bool predictions = false, others = false, victim = false;
  for (const ComparedPoint& cp : c.matched)
    for (const Point* p : {&cp.base, &cp.now}) {
      (is_prediction(*p) ? predictions : others) = true;
      victim |= p->scenario == "victim";
    }
  const std::string figures =
      !predictions ? "median GB/s [min..max over repetitions] +-pstdev"
      : !others    ? "predicted GB/s [model band] (simulated: no repetitions)"
                   : "median GB/s [min..max over repetitions] +-pstdev when measured, predicted GB/s [model band] "
                     "when simulated";
  const std::string rule = !predictions ? "NEW's fastest repetition is below BASE's slowest (the ranges do not overlap)"
                                        : "NEW's range (max, or band top) is below BASE's (min, or band bottom): the "
                                          "ranges do not overlap";
  std::string s = fmt::format(
      "bwlab compare: {}, GB = 1e9 bytes, {}. A point regressed when its {} dropped by more than {:g}% AND {}.\n",
      figures, gbps_meaning(victim), predictions ? "figure" : "median", o.tolerance_pct, rule);
  for (const std::string& n : c.notes) s += fmt::format("note: {}\n", n);
  for (const std::string& w : c.warnings) s += fmt::format("warning: {}\n", w);
  // A REGRESSED row whose points were measured while a thread lost CPU time read as sure as a
  // quiet one: only a count on stderr said any point was flagged.
  if (std::any_of(c.matched.begin(), c.matched.end(), [](const ComparedPoint& cp) { return !flagged_sides(cp).empty(); }))
    s += "note: [flagged: ...] marks a row whose point its run flagged unstable or noisy (spread between repetitions, "
         "disturbed windows; its flags say which): a change there may be the host's, not the code's\n";
  std::vector<std::array<std::string, 5>> rows;
  rows.push_back({"point", "BASE", "NEW", "change", "verdict"});
  for (const ComparedPoint& cp : c.matched) {
    Point label = cp.base;  // across sources, the label's source is both ("[measured vs simulated ...]")
    if (cp.base.source != cp.now.source) label.source = cp.base.source + " vs " + cp.now.source;
    rows.push_back({point_label(label), spread(cp.base, o), spread(cp.now, o), signed_pct(cp.change_pct),
                    change_words(cp) + flagged_sides(cp)});
  }
  std::array<std::size_t, 5> w{};
  for (const auto& r : rows)
    for (std::size_t i = 0; i < 5; ++i) w[i] = std::max(w[i], r[i].size());
  // Rows of predictions start with the tag; the header and the other rows are indented as far, so
  // the columns line up.
  const std::string indent(predictions ? std::string_view(kPredictionTag).size() : 0, ' ');
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const bool predicted = i > 0 && (is_prediction(c.matched[i - 1].base) || is_prediction(c.matched[i - 1].now));
    s += fmt::format("{}{}  {}  {}  {}  {}\n", predicted ? std::string(kPredictionTag) : indent, pad_right(r[0], w[0]),
                     pad_right(r[1], w[1]), pad_right(r[2], w[2]), pad_right(r[3], w[3]), r[4]);
  }
  for (const Point& p : c.only_base) s += fmt::format("only in BASE: {}\n", point_label(p));
  // Points NEW adds are not compared: a wider sweep listed 76 of them, one per line. BASE's
  // missing points are all listed (a CI job fails on them with --require-all).
  constexpr std::size_t kNewListed = 8;
  for (std::size_t i = 0; i < c.only_new.size(); ++i) {
    if (i == kNewListed && c.only_new.size() > kNewListed + 1) {
      s += fmt::format("only in NEW:  ... and {} more (points NEW adds are not compared)\n", c.only_new.size() - i);
      break;
    }
    s += fmt::format("only in NEW:  {}\n", point_label(c.only_new[i]));
  }
  const int apart = c.model_below + c.model_above, other = c.other_below + c.other_above;
  s += fmt::format("{} matched: {} regressed, {} improved, {}{}{} unchanged within tolerance or noise; {} only in "
                   "BASE, {} only in NEW.\n",
                   count_of(c.matched.size(), "point"), c.regressions, c.improvements,
                   apart ? fmt::format("{} apart from the model beyond its band ({} NEW lower, {} higher: a measurement "
                                       "against a prediction, not counted as a regression), ",
                                       apart, c.model_below, c.model_above)
                         : std::string(),
                   other ? fmt::format("{} beyond the band of a prediction for another CPU ({} NEW lower, {} higher: "
                                       "the machines differ, not counted), ",
                                       other, c.other_below, c.other_above)
                         : std::string(),
                   c.matched.size() - static_cast<std::size_t>(c.regressions + c.improvements + apart + other),
                   c.only_base.size(), c.only_new.size());
  out << s;
}

}  // namespace bwlab
