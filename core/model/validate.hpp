// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <iosfwd>
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
  std::string kernel;         // bwlab kernel name
  std::uint64_t size_bytes = 0;  // per thread
  int threads = 1;
  Placement placement;
  MemBind membind;
  std::vector<int> pus;       // planned PUs when the file says (bwlab CSV), else planned here
  bool single_pass = false;   // timed as one pass (perf bench mem memset -l 1)
  double gbps = 0;            // measured aggregate, GB = 1e9 bytes
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

// Predicted aggregate GB/s for one observation (single-pass protocol when it says so).
// Throws InputError when the topology cannot host it.
double predict(const Observation& o, const Topology& topo, const MachineParams& m);

struct PointError {
  Observation obs;
  double predicted = 0;
  double error = 0;  // predicted / measured - 1
};

struct ValidationReport {
  std::vector<PointError> points;
  std::vector<SkippedRow> skipped;
  double max_abs_error = 0;  // max |predicted / measured - 1|
  double log_rms = 0;        // sqrt(mean(ln(predicted / measured)^2))
};

// Compares predictions with observations; rows the topology cannot host are skipped.
ValidationReport validate(const std::vector<Observation>& obs, const Topology& topo, const MachineParams& m);

// Winner accuracy: pairs of compared points on the same CPU, size and thread count, one
// write-allocate kernel (stosb, ...) and one non-temporal (movnti, ...), whose measured rates
// differ by more than `margin` (relative to the slower): does the model pick the faster one?
struct WinnerScore {
  int pairs = 0;  // pairs that differ by more than the margin
  int right = 0;  // of those, the model's faster kernel is the measured faster one
};
WinnerScore winner_accuracy(const std::vector<PointError>& points, double margin = 0.10);

// The preset whose CPU is `cpu`, or nullptr.
const MachineParams* preset_for_cpu(const std::string& cpu);

}  // namespace bwlab::model
