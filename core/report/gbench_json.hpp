// SPDX-License-Identifier: MIT
// bwlab points as Google Benchmark JSON (the format of --benchmark_format=json), so that
// Google Benchmark's tools/compare.py (Debian: libbenchmark-tools) compares two bwlab runs.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string_view>
#include <span>
#include <string>

#include "core/report/record.hpp"

namespace bwlab {

// The benchmark name of a point: "stosb/1GiB/threads:2/fill:zero", then what differs from a
// plain scaling run, in this order: "/scenario:S" (victim adds "/aggressor:K/k:N", mix
// "/others:K+K"), "/placement:P" unless compact, "/membind:M" unless local, "/pages:X" unless 4k.
std::string gbench_name(const Point& p);

struct GbenchExport {
  std::size_t written = 0;  // points written as benchmarks
  std::size_t skipped = 0;  // points without a GB/s figure (tlbflush), left out
};

// Writes {"context": {...}, "benchmarks": [...]}. Per point, in order:
//  - one "run_type": "iteration" entry per repetition when the point keeps its per-repetition
//    GB/s (gbps_reps: bwlab JSON; a CSV does not keep them), then the "mean", "median", "stddev"
//    (sample, n-1, as Google Benchmark computes it) and "cv" aggregates over those repetitions;
//  - without per-repetition figures, only the "median" aggregate from gbps_median.
// real_time (ns) is the time of one iteration = one pass over every counted thread's buffer
// (size_bytes x threads, the victim alone for victim points) at that repetition's aggregate rate;
// bytes_per_second is the aggregate rate (GB/s x 1e9); cpu_time is not measured and repeats
// real_time; iterations is the median number of such passes per repetition (at least 1).
// `run` (a bwlab JSON's metadata) fills the context; without it the host and CPU model come from
// the points, and `partial` (why a run without metadata, a CSV, is partial; empty: whole) becomes
// the context's bwlab_partial as a partial JSON run's reason does. Throws InputError when two points
// would get the same name.
GbenchExport write_gbench_json(std::ostream& out, const std::optional<RunInfo>& run, std::span<const Point> points,
                               std::string_view partial = {});

}  // namespace bwlab
