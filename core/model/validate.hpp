// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <string>
#include <vector>

#include "core/engine/buffer.hpp"
#include "core/model/machine.hpp"
#include "core/report/record.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"

namespace bwlab::model {

// One measured figure the model can be compared with (or fitted to).
struct Observation {
  std::string label;          // "Oracle X8-2 stosb 16MiB 1T" or "stosb 16MiB 2T zero"
  std::string cpu;            // CPU model of the row (matches MachineParams::cpu for the seeds)
  std::string host;           // where it was measured (bwlab CSV); empty for seed rows
  std::string kernel;         // bwlab kernel name
  std::uint64_t size_bytes = 0;  // per thread
  int threads = 1;
  Placement placement;
  MemBind membind;
  std::vector<int> pus;       // planned PUs when the file says (bwlab CSV), else planned here
  bool single_pass = false;   // timed as one pass (perf bench mem memset -l 1)
  bool zero_fill = true;      // the kernel wrote zeros (bwlab CSV fill "zero"; seed rows: perf bench, not zero)
  // A relative figure, not GB/s: the mean time of the kernels measured at this point over this
  // kernel's time (a flag "relative figure ..." says so; tests/data/public/goldsteinn_relative.py).
  // validate() normalises the predictions of such a point the same way, so only ratios count.
  bool relative = false;
  double gbps = 0;            // measured aggregate, GB = 1e9 bytes (or the relative figure)
  // The spread behind it, for the fit's table (bwlab CSV rows; 0 / NaN where a file has none).
  int reps = 0;
  double pstdev_pct = std::numeric_limits<double>::quiet_NaN();
  bool unsteady = false;      // its run flagged it unstable or noisy (flagged_unsteady)
};

struct SkippedRow {
  std::string label;
  std::string reason;
};

struct ObservationSet {
  std::string format;  // "bwlab" (our CSV), "imported" (ours, every point source=imported) or "seed" (seed-memset.csv)
  std::vector<Observation> rows;
  std::vector<SkippedRow> skipped;
};

// Reads our CSV (core/report/csv.hpp) or the seed CSV (header "source,system,cpu,..."),
// detected by the header. Seed figures are perf bench "GB/sec", which perf computes with
// 1024^3 (GiB/s): they are converted to GB/s (x 1.073741824); seed sizes are MiB.
// Throws InputError naming the file's problem.
ObservationSet read_observations(std::istream& in, const std::string& origin);

// Our measured and imported points as observations (simulated points are skipped with the reason;
// imported perf bench figures use the single-pass protocol).
ObservationSet observations_from(const std::vector<Point>& points);

// The PUs a row's file planned name CPUs of the host it was measured on: they are kept only for a
// model of this host's own topology ("local") and rows measured here (`here`, the host name);
// every other row is planned by its placement on the model's topology. Two threads on PUs 0 and 1
// of a 2-core guest were SMT siblings of one core on a synthetic 2-socket topology.
void plan_rows_for(std::vector<Observation>& rows, const std::string& topology, const std::string& here);

// Predicted aggregate GB/s for one observation (single-pass protocol when it says so); with
// `top`, the top of its band as simulate writes it (gbps_max: band_top_of). Throws InputError
// when the topology cannot host it.
double predict(const Observation& o, const Topology& topo, const MachineParams& m, double* top = nullptr);

struct PointError {
  Observation obs;
  double predicted = 0;
  double error = 0;  // predicted / measured - 1
  // The prediction's band, as simulate's gbps_min..gbps_max (and compare's): predicted / (1 +
  // band) .. x (1 + band) lowered to the DRAM peak of the nodes its memory is on. Relative points
  // keep 0 (their figures are ratios).
  double band_lo = 0, band_hi = 0;
};

// Error of the ratios between kernels, levels taken out: repeated rows of a point merged (median
// measured), then at each point (same CPU, size, threads, placement, binding, fill) with two or
// more kernels, e_k = ln(predicted_k / measured_k) minus the mean of e over the point's kernels;
// log_rms = sqrt(mean(e^2)) over those kernel figures. A prediction off by one factor for every
// kernel of a point (a host running slower that day) gives 0 there. Relative points are left out
// (validate() already compares them as ratios). Computed for a report, not by validate(): the
// fitter calls validate() thousands of times (split_validate), and this is quadratic in the rows.
struct RatioError {
  double log_rms = 0;
  int figures = 0;  // kernel figures counted (one per kernel and point, runs merged)
  int points = 0;   // points with two or more kernels
};
RatioError ratio_error(const std::vector<PointError>& points);

struct ValidationReport {
  std::vector<PointError> points;
  std::vector<SkippedRow> skipped;
  double max_abs_error = 0;  // max |predicted / measured - 1|
  double log_rms = 0;        // sqrt(mean(ln(predicted / measured)^2))
  int relative_points = 0;   // points whose figures are relative (their error is an error of ratios)
};

// Compares predictions with observations; rows the topology cannot host are skipped. A relative
// observation's prediction is normalised like its figure: the mean over the point's kernels of
// 1 / predicted rate, times its predicted rate (a point with a single kernel is skipped).
ValidationReport validate(const std::vector<Observation>& obs, const Topology& topo, const MachineParams& m);

// Winner accuracy: pairs of compared points on the same CPU, size and thread count, one
// write-allocate kernel (stosb, ...) and one non-temporal (movnti, ...), whose measured rates
// differ by more than `margin` (relative to the slower): does the model pick the faster one?
struct WinnerScore {
  int pairs = 0;  // pairs that differ by more than the margin
  int right = 0;  // of those, the model's faster kernel is the measured faster one
};
WinnerScore winner_accuracy(const std::vector<PointError>& points, double margin = 0.10);

// The issue-12 goals for one rep stos kernel against one NT kernel over thread counts (same CPU
// and size): the winner at every thread count where the measured rates differ by more than
// `margin`, and the thread count where the winner first changes from the one at the fewest
// threads (no margin), measured and predicted. "Within one doubling": both change within a
// factor of 2 of each other's thread count, or neither changes.
struct StosNtScore {
  std::string cpu, stos_kernel, nt_kernel;
  std::uint64_t size_bytes = 0;
  bool zero_fill = true;
  int thread_counts = 0;      // distinct thread counts with both kernels measured
  int pairs = 0, right = 0;   // thread counts > margin apart, and of those the model picks the faster
  std::string first_winner;   // measured winner at the fewest threads
  std::string predicted_first_winner;  // the model's winner there
  int measured_change = 0;    // first thread count whose measured winner differs (0: never)
  int predicted_change = 0;   // the same for the model's winner (from the model's own first winner)
  // After the change: the first thread count where the first winner leads again (0: never), and
  // whether the two stay within `margin` of each other from the change on (a tie, not a win).
  int measured_back = 0, predicted_back = 0;
  bool measured_tie_after = false, predicted_tie_after = false;
  bool change_within_one_doubling() const;
  // Whether there is a measured crossover to score: not when the measured change is to a tie (no
  // new winner; a 1..2-thread run's 2T within 10% read "changes at 2 threads measured, never
  // predicted (NOT within one doubling)"). The prediction is judged by its sign, as the winner is.
  bool crossover_scored() const { return !measured_tie_after; }
};
std::vector<StosNtScore> stos_nt_scores(const std::vector<PointError>& points, double margin = 0.10);

// The preset whose CPU is `cpu`, or nullptr.
const MachineParams* preset_for_cpu(const std::string& cpu);

// Whether machine m may describe the CPU that measured rows name (`cpu`: a CPU model string, as
// `bwlab run` records it). same: m names that CPU (a preset, a calibration there) or cpu is empty;
// different: m names another CPU, or its microarchitecture's vendor (Intel, AMD) is not the one
// the string names; unknown: m names no CPU (a spec sheet) and the vendors do not contradict.
// `text` (empty for same) says so, e.g. "m.csv was measured on AMD EPYC 9554P; machine
// skylake-sp-1s-18c-6x2666-llc24.75m-3.7ghz is a skylake-sp spec sheet (Intel): the error includes the difference
// between the two machines".
struct CpuMatch {
  enum class Kind { same, unknown, different };
  Kind kind = Kind::same;
  std::string text;
};
CpuMatch match_cpu(const MachineParams& m, const std::string& cpu, const std::string& file);

// For `compare` (command and GUI) of a prediction against a measurement: match_cpu's text when the
// `simulated` run's machine is a spec sheet of another vendor than the CPU of the first measured
// point of `other` (the other file, `file`); else "" (also when `simulated` holds no prediction).
// The machine is the run's recorded machine file (`machine_json`, a JSON run's); for a file that
// carries none (a CSV), the sheet's name in the points' host ("model:skylake-sp-2s-26c-..." is a
// skylake-sp sheet, so Intel). A spec sheet names no CPU, so only its microarchitecture can say (a
// cascadelake-sp sheet against an AMD host read as the model's error); a machine that names its CPU
// (a preset) is matched point by point by compare itself.
std::string other_vendor_sheet(const std::string& machine_json, const std::vector<Point>& simulated,
                               const std::vector<Point>& other, const std::string& file);

}  // namespace bwlab::model
