// SPDX-License-Identifier: MIT
#include "core/model/fit.hpp"
#include "core/report/plural.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <limits>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/model/solver.hpp"
#include "core/model/uarch.hpp"
#include "core/sweep/suggest.hpp"

namespace bwlab::model {
namespace {
constexpr double kPrior = 1e-6;   // weight of ln(param / start)^2 in the objective
constexpr double kRange = 3.4;    // parameters stay within start x/ e^3.4 (~30)
}  // namespace

std::vector<double> nelder_mead(const std::function<double(const std::vector<double>&)>& f, std::vector<double> x0,
                                double step, int max_evaluations) {
  const std::size_t n = x0.size();
  if (n == 0) return x0;
  int evals = 0;
  auto eval = [&](const std::vector<double>& x) {
    ++evals;
    const double v = f(x);
    return std::isfinite(v) ? v : std::numeric_limits<double>::max();
  };
  double best_prev = std::numeric_limits<double>::max();
  std::vector<double> best = x0;
  for (int restart = 0; restart < 6 && evals < max_evaluations; ++restart) {
    std::vector<std::vector<double>> s(n + 1, best);
    for (std::size_t i = 0; i < n; ++i) s[i + 1][i] += step;
    std::vector<double> fs(n + 1);
    for (std::size_t i = 0; i <= n; ++i) fs[i] = eval(s[i]);
    std::vector<std::size_t> idx(n + 1);
    while (evals < max_evaluations) {
      std::iota(idx.begin(), idx.end(), 0);
      std::sort(idx.begin(), idx.end(), [&](auto a, auto b) { return fs[a] < fs[b]; });
      const std::size_t lo = idx[0], hi = idx[n], second = idx[n - 1];
      if (std::abs(fs[hi] - fs[lo]) <= 1e-14 * (std::abs(fs[lo]) + 1e-14)) {
        double spread = 0;
        for (std::size_t i = 0; i <= n; ++i)
          for (std::size_t k = 0; k < n; ++k) spread = std::max(spread, std::abs(s[i][k] - s[lo][k]));
        if (spread < 1e-9) break;
      }
      std::vector<double> c(n, 0.0);
      for (std::size_t i = 0; i <= n; ++i)
        if (i != hi)
          for (std::size_t k = 0; k < n; ++k) c[k] += s[i][k] / static_cast<double>(n);
      auto along = [&](double t) {
        std::vector<double> x(n);
        for (std::size_t k = 0; k < n; ++k) x[k] = c[k] + t * (s[hi][k] - c[k]);
        return x;
      };
      const auto xr = along(-1);
      const double fr = eval(xr);
      if (fr < fs[lo]) {
        const auto xe = along(-2);
        const double fe = eval(xe);
        if (fe < fr) s[hi] = xe, fs[hi] = fe;
        else s[hi] = xr, fs[hi] = fr;
      } else if (fr < fs[second]) {
        s[hi] = xr, fs[hi] = fr;
      } else {
        const auto xc = fr < fs[hi] ? along(-0.5) : along(0.5);
        const double fc = eval(xc);
        if (fc < std::min(fr, fs[hi])) {
          s[hi] = xc, fs[hi] = fc;
        } else {  // shrink towards the best
          for (std::size_t i = 0; i <= n; ++i) {
            if (i == lo) continue;
            for (std::size_t k = 0; k < n; ++k) s[i][k] = s[lo][k] + 0.5 * (s[i][k] - s[lo][k]);
            fs[i] = eval(s[i]);
          }
        }
      }
      // Simplex collapsed?
      double spread = 0;
      for (std::size_t i = 0; i <= n; ++i)
        for (std::size_t k = 0; k < n; ++k) spread = std::max(spread, std::abs(s[i][k] - s[lo][k]));
      if (spread < 1e-9) break;
    }
    const auto it = std::min_element(fs.begin(), fs.end());
    const double fbest = *it;
    best = s[static_cast<std::size_t>(it - fs.begin())];
    if (best_prev - fbest <= 1e-12 * (std::abs(fbest) + 1e-12)) break;
    best_prev = fbest;
    step *= 0.5;
  }
  return best;
}

namespace {
// Signed, or not a property of the measured points: the log-space fit cannot or should not vary them.
bool fixed_param(const std::string& name) {
  for (const char* fixed : {"smt_gain_nt", "band", "core_ghz", "ref_ghz"})
    if (name == fixed) return true;
  return false;
}
}  // namespace

void check_fit_params(const MachineParams& start, const std::vector<std::string>& params) {
  std::vector<std::string> valid;
  for (const auto& line : describe_params(start)) {
    MachineParams probe = start;
    if (line.name.rfind("scale:", 0) != 0 && param_ref(probe, line.name) && !fixed_param(line.name))
      valid.push_back(line.name);
  }
  for (const auto& name : params) {
    if (name.rfind("scale:", 0) == 0) {
      if (!find_kernel(name.substr(6)))
        throw InputError(fmt::format("{}: unknown kernel '{}'; kernels are: {}", name, name.substr(6), kernel_names()));
      continue;
    }
    if (fixed_param(name))
      throw InputError(fmt::format("cannot fit parameter '{}' (set it in the machine file instead)", name));
    if (std::find(valid.begin(), valid.end(), name) != valid.end()) continue;
    const std::string near = nearest_name(name, valid);
    throw InputError(fmt::format("unknown parameter '{}'; {}parameters are: {}, scale:KERNEL", name,
                                 near.empty() ? "" : fmt::format("did you mean {}? ", near), fmt::join(valid, ", ")));
  }
}

FitResult fit_machine(const MachineParams& start, const std::vector<std::string>& params,
                      const std::vector<Observation>& obs, const Topology& topo) {
  if (obs.empty()) throw InputError("nothing to fit: no usable measured point");
  MachineParams work = start;
  std::vector<double> x0;
  check_fit_params(start, params);
  for (const auto& name : params) {
    double* p = param_ref(work, name);
    if (!(*p > 0)) *p = 1;
    x0.push_back(std::log(*p));
  }
  auto apply = [&](MachineParams& m, const std::vector<double>& x) {
    for (std::size_t i = 0; i < params.size(); ++i) {
      double v = std::exp(std::clamp(x[i], x0[i] - kRange, x0[i] + kRange));
      if (params[i] == "warmup_ratio" || params[i] == "dram_efficiency" || params[i] == "llc_usable_fraction" ||
          params[i] == "stos_evasion" || params[i] == "stos_evasion_load_drop" || params[i] == "speci2m_max_fraction")
        v = std::min(v, 1.0);
      *param_ref(m, params[i]) = v;
    }
  };
  int evaluations = 0;
  auto objective = [&](const std::vector<double>& x) {
    ++evaluations;
    apply(work, x);
    double sum = 0;
    for (const auto& o : obs) {
      double pred = 0;
      try {
        pred = predict(o, topo, work);
      } catch (const InputError&) {
        continue;  // rows the topology cannot host are reported by validate
      }
      if (!(pred > 0)) return std::numeric_limits<double>::max();
      const double l = std::log(pred / o.gbps);
      sum += l * l;
    }
    // A weak prior towards the starting values: parameters the data cannot determine (e.g.
    // the LLC latency when no point is faster in the LLC) stay where they started instead of
    // drifting to absurd values; determined ones move as if it were not there.
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double d = std::clamp(x[i], x0[i] - kRange, x0[i] + kRange) - x0[i];
      sum += kPrior * d * d;
    }
    return sum;
  };
  // Multi-start: the single-pass warm-up term makes the objective non-convex, so Nelder-Mead
  // also starts from each parameter halved and doubled; the best end point wins.
  std::vector<std::vector<double>> starts{x0};
  for (std::size_t i = 0; i < x0.size(); ++i)
    for (double d : {-std::log(2.0), std::log(2.0)}) {
      starts.push_back(x0);
      starts.back()[i] += d;
    }
  std::vector<double> best = x0;
  double best_value = std::numeric_limits<double>::max();
  for (const auto& s : starts) {
    auto x = nelder_mead(objective, s);
    const double v = objective(x);
    if (v < best_value) best_value = v, best = std::move(x);
  }
  FitResult r;
  r.machine = start;
  apply(r.machine, best);
  r.objective = objective(best);
  r.evaluations = evaluations;
  r.report = validate(obs, topo, r.machine);
  if (r.report.points.empty()) throw InputError("nothing to fit: the topology cannot host any measured point");
  // Fitted parameters say so; the uncertainty band becomes the fit's own error (docs/model.md,
  // "Uncertainty"): twice the log-RMS plus 5%, wider than before when the model fits these points
  // badly (it was kept at the previous band, so a fit 220% off was labelled +-25%). With no more
  // points than parameters the fit's error says little: the band is not narrowed then.
  const std::size_t n = r.report.points.size();
  for (const auto& p : params) r.machine.origins[p] = fmt::format("calibrated here (fit to {} points)", n);
  const double own = 2 * r.report.log_rms + 0.05;
  const bool determined = n > params.size();
  r.machine.band = determined ? own : std::max(start.band, own);
  r.machine.origins["band"] =
      determined || own >= start.band
          ? fmt::format("calibrated here (2 x fit log-RMS {:.3f} + 0.05)", r.report.log_rms)
          : fmt::format("kept ({} for {}: the fit's log-RMS {:.3f} says little)", count_of(n, "point"),
                        count_of(params.size(), "parameter"), r.report.log_rms);
  return r;
}

SplitReport split_validate(const MachineParams& start, const std::vector<std::string>& params,
                           const std::vector<Observation>& obs, const Topology& topo) {
  std::vector<Observation> sorted = obs;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Observation& a, const Observation& b) {
    return std::tie(a.kernel, a.size_bytes, a.threads) < std::tie(b.kernel, b.size_bytes, b.threads);
  });
  std::vector<Observation> fit_rows, held;
  for (std::size_t i = 0; i < sorted.size(); ++i) (i % 2 == 0 ? fit_rows : held).push_back(sorted[i]);
  if (fit_rows.empty() || held.empty()) throw InputError("a split needs at least two rows");
  const FitResult f = fit_machine(start, params, fit_rows, topo);
  return {f.report, validate(held, topo, f.machine)};
}

std::vector<std::string> fitted_params(const MachineParams& m) {
  std::vector<std::string> out;
  for (const auto& [name, origin] : m.origins)
    if ((origin.rfind("fitted", 0) == 0 || origin.rfind("calibrated", 0) == 0) && name != "band") out.push_back(name);
  return out;
}

std::vector<std::string> implausible_fits(const MachineParams& m, const std::vector<std::string>& params,
                                          const MachineParams* start) {
  struct Range {
    const char* prefix;
    double lo, hi;
    const char* unit;
  };
  static const Range ranges[] = {
      {"mlp_wa_lines", 1, 200, " lines"},  {"mlp_nt_lines", 1, 200, " lines"},
      {"llc_latency_ns", 5, 150, " ns"},   {"llc_usable_fraction", 0.2, 1, ""},
      {"scale:", 0.1, 10, ""},             {"dram_peak_gbps_per_node", 1, 2000, " GB/s"},
  };
  std::vector<std::string> out;
  for (const std::string& name : params) {
    MachineParams copy = m;
    const double* v = param_ref(copy, name);
    if (!v) continue;
    for (const Range& r : ranges)
      if (name.rfind(r.prefix, 0) == 0 && (*v < r.lo || *v > r.hi))
        out.push_back(fmt::format("{} = {:.4g}{} is outside {:g}..{:g}{}, what hardware gives", name, *v, r.unit, r.lo,
                                  r.hi, r.unit));
    // A machine from a spec sheet knows its DRAM's peak: channels x MT/s x 8 B per socket; a fit
    // above it (147.7 GB/s from a 6 x 2666 sheet's 128.0) is no figure the memory can reach.
    if (name == "dram_peak_gbps_per_node" && m.spec_sheet) {
      const double sheet = spec_dram_peak_gbps(*m.spec_sheet);  // per socket: a node each
      if (*v > sheet * 1.001)
        out.push_back(fmt::format("dram_peak_gbps_per_node = {:.4g} GB/s is above the spec sheet's peak ({} x {} MT/s "
                                  "x 8 B = {:.1f} GB/s per socket): no memory reaches more than its peak",
                                  *v, m.spec_sheet->channels, m.spec_sheet->mts, sheet));
    } else if (name == "dram_peak_gbps_per_node" && start && start->origin_of(name) == "spec sheet" &&
               *v > start->dram_peak_gbps_per_node * 1.001) {
      // A preset's peak is its spec sheet's too (140.6 GB/s per node was fitted onto 4 x DDR4-2133,
      // 68.3 GB/s, without a word).
      out.push_back(fmt::format("dram_peak_gbps_per_node = {:.4g} GB/s is above {}'s spec-sheet peak ({:.1f} GB/s per "
                                "node): no memory reaches more than its peak",
                                *v, start->name, start->dram_peak_gbps_per_node));
    }
  }
  return out;
}

bool dram_peak_determined(const MachineParams& fitted, const std::vector<Observation>& rows) {
  double traffic = 0;
  for (const Observation& r : rows)
    traffic = std::max(traffic, r.gbps * (traffic_of(r.kernel) == Traffic::write_allocate ? 2.0 : 1.0));
  return traffic >= 0.5 * fitted.dram_peak_gbps_per_node;
}

DramFloor dram_write_floor(const MachineParams& m, const std::vector<Observation>& rows, int packages) {
  DramFloor f;
  const int n = std::max(1, packages);
  const double llc = static_cast<double>(m.llc_bytes_per_package) * n;
  for (const Observation& r : rows) {
    if (r.relative || static_cast<double>(r.size_bytes) * r.threads < 2 * llc) continue;
    if (r.gbps / n > f.gbps_per_node) f = {r.gbps / n, r.label};
  }
  return f;
}

}  // namespace bwlab::model
