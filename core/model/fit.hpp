// SPDX-License-Identifier: MIT
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "core/model/machine.hpp"
#include "core/model/validate.hpp"
#include "core/topology/topology.hpp"

namespace bwlab::model {

// Minimises f over x with Nelder-Mead (restarted until it stops improving). `step` is the
// initial simplex size per coordinate. Returns the best x found.
std::vector<double> nelder_mead(const std::function<double(const std::vector<double>&)>& f, std::vector<double> x0,
                                double step = 0.3, int max_evaluations = 4000);

struct FitResult {
  MachineParams machine;      // `start` with the fitted parameters
  ValidationReport report;    // per-point error of the fitted machine on the fit data
  double objective = 0;       // sum of ln(predicted / measured)^2
  int evaluations = 0;
};

// Refuses (InputError) a parameter fit_machine cannot vary: an unknown name (with the nearest valid
// one and the list), a scale: of an unknown kernel, or smt_gain_nt, band, core_ghz, ref_ghz. Cheap:
// `bwlab calibrate` calls it before it measures anything.
void check_fit_params(const MachineParams& start, const std::vector<std::string>& params);

// Least squares in log space: finds the `params` (names accepted by param_ref, e.g.
// "mlp_wa_lines", "scale:avx512-nt") of `start` that minimise sum ln(predicted/measured)^2
// over `obs` (plus 1e-6 x sum ln(param/start)^2, a weak prior that keeps parameters the data
// cannot determine near their starting values; each stays within start x/ 30). Parameters are varied in log space, so they stay positive; warmup_ratio,
// dram_efficiency, llc_usable_fraction and the RFO-evasion fractions are kept at most 1; smt_gain_nt
// (signed), band, core_ghz and ref_ghz cannot be fitted (InputError). Throws InputError for an unknown parameter
// or no usable observation. Nelder-Mead runs from `start` and from each parameter halved and
// doubled (the objective is not convex); the best end point wins.
FitResult fit_machine(const MachineParams& start, const std::vector<std::string>& params,
                      const std::vector<Observation>& obs, const Topology& topo);

// Out-of-sample check: the observations sorted by (kernel, size, threads) are split
// alternately, rows 0, 2, 4, ... fit `params` of `start` (fit_machine) and rows 1, 3, 5, ...
// are only predicted. A fit too good to be true on its own rows shows as a gap between the two.
struct SplitReport {
  ValidationReport in_sample;      // the fitted machine on the rows it was fitted to
  ValidationReport out_of_sample;  // the same machine on the held-out rows
};
SplitReport split_validate(const MachineParams& start, const std::vector<std::string>& params,
                           const std::vector<Observation>& obs, const Topology& topo);

// The parameters of m whose origin says they were fitted (to seeds or calibrated), e.g. the
// single-thread concurrency of a preset.
std::vector<std::string> fitted_params(const MachineParams& m);

// Of `params` (names as for fit_machine), those whose value in m lies outside what hardware
// gives, one line each: "llc_latency_ns = 1109 ns is outside 5..150 ns (...)". A fit lands there
// when the points were disturbed (a shared host) or cannot determine the parameter. Ranges:
// effective lines in flight 1..200 (miss queues hold 10..48 lines; the figure is at an assumed idle
// latency, and the Tiger Lake seed fits 69), LLC latency 5..150 ns,
// usable LLC share 0.2..1, a kernel's scale 0.1..10, DRAM peak per node 1..2000 GB/s and, for a
// machine from a spec sheet, at most the sheet's channels x MT/s x 8 B; with `start` (the machine
// the fit began from), at most its DRAM peak when that is a spec-sheet figure (a preset's).
std::vector<std::string> implausible_fits(const MachineParams& m, const std::vector<std::string>& params,
                                          const MachineParams* start = nullptr);

// Whether the points reach far enough towards the fitted DRAM peak to tell it: some point's DRAM
// traffic (its GB/s, twice that for a write-allocate kernel, which reads each line first) is at
// least half the peak per node. Two threads of a 2-vCPU guest moved 120 GB/s at most, and the fit
// left the peak at 1798 GB/s per node: the points did not say it.
bool dram_peak_determined(const MachineParams& fitted, const std::vector<Observation>& rows);

// The least DRAM peak per node the points show: the highest GB/s of a point whose buffers (size x
// threads) are at least twice the LLC of the machine's `packages` packages, divided by those
// packages (every cleared byte of such a point reaches DRAM). 0 without such a point. A peak kept
// at its starting figure must not sit below it: a 2-vCPU guest's file that cleared 2 x 256 MiB at
// 137 GB/s kept 60 GB/s, and its 1 GiB predictions came out at half the measured rate.
struct DramFloor {
  double gbps_per_node = 0;
  std::string label;  // the point that shows it
};
DramFloor dram_write_floor(const MachineParams& m, const std::vector<Observation>& rows, int packages);

}  // namespace bwlab::model
