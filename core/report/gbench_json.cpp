// SPDX-License-Identifier: MIT
// Google Benchmark's JSON as its json_reporter.cc writes it and tools/gbench/report.py reads it:
// entries with the same "name" are the repetitions of one benchmark (compare.py's U test runs over
// their real_time and cpu_time); aggregates are named "<run_name>_<aggregate>".
#include "core/report/gbench_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/report/units.hpp"
#include "core/stats/stats.hpp"

namespace bwlab {

namespace {

using json = nlohmann::ordered_json;

constexpr const char* kSimulatedLabel = "simulated: a model prediction, not a measurement";

bool has_rate(const Point& p) { return std::isfinite(p.gbps_median) && p.gbps_median > 0; }

// Bytes one iteration (one pass) clears: every counted thread's buffer once.
double bytes_per_pass(const Point& p) {
  const int counted = p.scenario == "victim" ? 1 : std::max(1, p.threads);
  return static_cast<double>(p.size_bytes) * counted;
}

double ns_per_pass(const Point& p, double gbps) { return bytes_per_pass(p) / gbps; }  // GB/s = bytes/ns

// The PU count of a run's topology summary ("1 package, 1 NUMA node, 2 cores, 2 PUs, ..."), 0 if absent.
int pus_of(const std::string& topology) {
  const std::size_t at = topology.find(" PU");
  if (at == std::string::npos) return 0;
  std::size_t start = at;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(topology[start - 1]))) --start;
  return start == at ? 0 : std::stoi(topology.substr(start, at - start));
}

json context(const std::optional<RunInfo>& run, std::span<const Point> points, std::string_view partial) {
  json c;
  std::string host, cpu;
  for (const Point& p : points) {
    if (host.empty()) host = p.host;
    if (cpu.empty()) cpu = p.cpu_model;
  }
  if (run) {
    c["date"] = run->date;
    c["host_name"] = run->host.empty() ? host : run->host;  // an imported run names its host in its points
    c["executable"] = run->command_line;
    c["library_version"] = "bwlab " + run->bwlab_version;
    c["library_build_type"] = "unknown";  // the measuring binary's build type is not recorded in the run
    c["bwlab_cpu"] = run->cpu_model_name.empty() ? cpu : run->cpu_model_name;
    if (!run->cpu_vendor.empty()) {  // CPUID read: an imported run's unknown identity is no family 0
      c["bwlab_cpu_vendor"] = run->cpu_vendor;
      c["bwlab_cpu_family"] = run->cpu_family;
      c["bwlab_cpu_model"] = run->cpu_model;
      c["bwlab_cpu_stepping"] = run->cpu_stepping;
    }
    c["bwlab_microcode"] = run->microcode;
    c["bwlab_kernel_release"] = run->kernel_release;
    c["bwlab_topology"] = run->topology;
    if (const int pus = pus_of(run->topology); pus > 0) c["num_cpus"] = pus;
    if (run->partial) c["bwlab_partial"] = run->partial_reason;
  } else {
    c["host_name"] = host;
    c["library_build_type"] = "unknown";
    c["bwlab_cpu"] = cpu;
    if (!partial.empty()) c["bwlab_partial"] = std::string(partial);  // a CSV's interrupted-run flag
  }
  const auto simulated = static_cast<std::size_t>(
      std::count_if(points.begin(), points.end(), [](const Point& p) { return p.source == "simulated"; }));
  // Predictions must not pass for measurements once they leave bwlab: said first, and per entry.
  const std::string predicted =
      simulated == 0 ? std::string()
      : simulated == points.size()
          ? fmt::format("PREDICTED, NOT MEASURED: every point was simulated by bwlab's analytical model (bwlab "
                        "simulate{}), each entry labelled \"{}\"; ",
                        run && !run->host.empty() ? ", " + run->host : std::string(), kSimulatedLabel)
          : fmt::format("{} of {} points are PREDICTED, NOT MEASURED (simulated by bwlab's model), their entries "
                        "labelled \"{}\"; ",
                        simulated, points.size(), kSimulatedLabel);
  const auto imported = static_cast<std::size_t>(
      std::count_if(points.begin(), points.end(), [](const Point& p) { return p.source == "imported"; }));
  const std::string foreign =
      imported == 0 ? std::string()
                    : fmt::format("{} of {} points are IMPORTED, NOT MEASURED BY BWLAB (read from another tool's "
                                  "output by bwlab import), their entries labelled \"imported from ...\"; ",
                                  imported, points.size());
  c["bwlab_note"] =
      predicted + foreign +
      "exported by bwlab: one benchmark per point; an iteration is one pass over every counted thread's buffer "
      "(size x threads bytes); iterations = the passes of the median repetition, the same in each entry of a point "
      "(bwlab keeps each repetition's rate, not its byte count); real_time = that pass at the repetition's aggregate rate (bytes per pass / "
      "bytes_per_second), not a timer reading; cpu_time is not measured and repeats real_time; bytes_per_second = "
      "aggregate GB/s x 1e9 (sum of per-thread rates)";
  return c;
}

json entry(const Point& p, const std::string& name, std::size_t family, int repetitions, double iterations,
           double ns, double bps) {
  json b;
  b["name"] = name;
  b["family_index"] = family;
  b["per_family_instance_index"] = 0;
  b["run_name"] = gbench_name(p);
  b["run_type"] = "iteration";
  b["repetitions"] = repetitions;
  b["threads"] = p.threads;
  b["iterations"] = static_cast<long long>(iterations);
  b["real_time"] = ns;
  b["cpu_time"] = ns;
  b["time_unit"] = "ns";
  b["bytes_per_second"] = bps;
  // User counters Google Benchmark's tools carry along: the window each repetition timed (what
  // compare's "windows differ" needs after a round trip).
  if (p.duration_ms > 0) b["bwlab_window_ms"] = p.duration_ms;
  if (p.source == "simulated") b["label"] = kSimulatedLabel;  // compare.py and gbench tools show a run's label
  if (p.source == "imported")
    b["label"] = fmt::format("imported from {}: another tool's figure, not measured by bwlab",
                             p.origin_tool.empty() ? p.origin_format : p.origin_tool);
  return b;
}

double sample_stddev(std::span<const double> v) {
  const double n = static_cast<double>(v.size());
  return v.size() < 2 ? 0.0 : pstdev(v) * std::sqrt(n / (n - 1));
}

}  // namespace

std::string gbench_name(const Point& p) {
  std::string n = fmt::format("{}/{}/threads:{}/fill:{}", p.kernel, size_label(p.size_bytes), p.threads, p.fill);
  if (!p.scenario.empty() && p.scenario != "scaling") {
    n += "/scenario:" + p.scenario;
    if (p.scenario == "victim") n += fmt::format("/aggressor:{}/k:{}", p.peer_kernel, p.peer_threads);
    if (p.scenario == "mix" && !p.peer_kernel.empty()) n += "/others:" + p.peer_kernel;
  }
  if (!p.placement.empty() && p.placement != "compact") n += "/placement:" + p.placement;
  if (!p.membind.empty() && p.membind != "local") n += "/membind:" + p.membind;
  if (!p.pages.empty() && p.pages != "4k") n += "/pages:" + p.pages;
  return n;
}

GbenchExport write_gbench_json(std::ostream& out, const std::optional<RunInfo>& run, std::span<const Point> points,
                               std::string_view partial) {
  GbenchExport result;
  json benchmarks = json::array();
  std::map<std::string, std::string> names;  // Google Benchmark name -> the host of its point
  for (const Point& p : points) {
    if (!has_rate(p)) {
      ++result.skipped;
      continue;
    }
    const std::string name = gbench_name(p);
    // One host's file that holds a command's points twice (runs appended) was told to export "a
    // fleet's hosts one file each".
    if (const auto [it, is_new] = names.emplace(name, p.host); !is_new)
      throw InputError(
          it->second == p.host
              ? fmt::format("two points export to the same Google Benchmark name '{}' (host '{}' twice: the file holds "
                            "more than one run of it; export one run per file)",
                            name, p.host)
              : fmt::format("two points export to the same Google Benchmark name '{}' (hosts '{}' and '{}'): export a "
                            "fleet's hosts one file each",
                            name, it->second, p.host));
    const std::size_t family = result.written++;
    const double iterations = std::max(1.0, std::round(p.bytes_median / bytes_per_pass(p)));
    std::vector<double> rates;  // GB/s per repetition, finite and positive
    for (double g : p.gbps_reps)
      if (std::isfinite(g) && g > 0) rates.push_back(g);
    if (rates.empty()) {
      json b = entry(p, name + "_median", family, std::max(1, p.reps), iterations, ns_per_pass(p, p.gbps_median),
                     p.gbps_median * 1e9);
      b["run_type"] = "aggregate";
      b["aggregate_name"] = "median";
      b["aggregate_unit"] = "time";
      // No repetitions to aggregate (a CSV): the range and spread they had, as counters, so a round
      // trip keeps them (they came back as "[no range] +-?").
      for (const auto& [key, v] : {std::pair{"bwlab_gbps_min", p.gbps_min}, std::pair{"bwlab_gbps_max", p.gbps_max},
                                   std::pair{"bwlab_gbps_pstdev_pct", p.gbps_pstdev_pct}})
        if (std::isfinite(v) && v >= 0) b[key] = v;
      benchmarks.push_back(std::move(b));
      continue;
    }
    const int reps = static_cast<int>(rates.size());
    std::vector<double> times;
    for (std::size_t i = 0; i < rates.size(); ++i) {
      times.push_back(ns_per_pass(p, rates[i]));
      json b = entry(p, name, family, reps, iterations, times.back(), rates[i] * 1e9);
      b["repetition_index"] = i;
      benchmarks.push_back(std::move(b));
    }
    auto aggregate = [&](const char* what, double ns, double bps, const char* unit) {
      json b = entry(p, name + "_" + what, family, reps, iterations, ns, bps);
      b["run_type"] = "aggregate";
      b["aggregate_name"] = what;
      b["aggregate_unit"] = unit;
      benchmarks.push_back(std::move(b));
    };
    const double t_mean = mean(times), r_mean = mean(rates) * 1e9;
    const double t_sd = sample_stddev(times), r_sd = sample_stddev(rates) * 1e9;
    aggregate("mean", t_mean, r_mean, "time");
    aggregate("median", median(times), median(rates) * 1e9, "time");
    aggregate("stddev", t_sd, r_sd, "time");
    aggregate("cv", t_mean > 0 ? t_sd / t_mean : 0.0, r_mean > 0 ? r_sd / r_mean : 0.0, "percentage");
  }
  json doc;
  doc["context"] = context(run, points, partial);
  doc["benchmarks"] = std::move(benchmarks);
  out << doc.dump(2) << '\n';
  return result;
}

}  // namespace bwlab
