// SPDX-License-Identifier: MIT
// Google Benchmark's JSON (--benchmark_format=json / --benchmark_out; src/json_reporter.cc):
//   {"context": {"host_name": ..., "num_cpus": ..., ...},
//    "benchmarks": [{"name": "BM_memset/16777216", "run_name": "BM_memset/16777216",
//                    "run_type": "iteration" | "aggregate", "aggregate_name": "mean" | "median" | "stddev" | "cv",
//                    "repetitions": 5, "threads": 1, "bytes_per_second": 1.2e10, ...}, ...]}
// bytes_per_second is the rate counter of SetBytesProcessed, bytes per second (1e9 per GB/s).
// One point per run_name: its "median" aggregate when there is one, else "mean", else the median
// of its iterations; the spread is the "stddev" aggregate over the "mean" in percent. The size is
// the first numeric argument of the name (bytes, or whole KiB/MiB/GiB/TiB as `bwlab export` writes
// it; stated in the flag), the kernel the name without "BM_". Names as `bwlab export --format gbench`
// writes them also give back what the point was: fill:, placement:, membind: and pages: arguments,
// the CPU from the context's bwlab_cpu, and every entry's "label" as a flag; a name without one of
// the three means bwlab's default (compact, local, 4k), which its export leaves out. Where the repetitions'
// iterations are in the file, min and max are theirs.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "core/errors.hpp"
#include "core/report/json.hpp"
#include "core/import/text.hpp"
#include "core/kernels/fill.hpp"

namespace bwlab::import {

namespace {

struct Group {
  std::vector<double> iterations;
  std::map<std::string, double> aggregates;  // aggregate_name -> bytes_per_second
  int repetitions = 0;
  int threads = 1;
  std::size_t order = 0;
  std::string label;  // the entries' "label" (bwlab's export labels predictions and imports)
  double window_ms = 0;  // bwlab's export: bwlab_window_ms, the window each repetition timed
  // bwlab's export of a CSV point (no repetitions): its range and spread, counters of its median
  double gbps_min = Point::kNone, gbps_max = Point::kNone, pstdev_pct = Point::kNone;
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// A size argument: bytes ("16777216"), or whole binary units as bwlab's export names them ("1GiB").
std::optional<double> size_argument(const std::string& a) {
  static const std::pair<const char*, double> units[] = {
      {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
  for (const auto& [unit, factor] : units)
    if (a.size() > 3 && a.compare(a.size() - 3, 3, unit) == 0) {
      const std::string digits = a.substr(0, a.size() - 3);
      if (digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
      const auto v = to_number(digits);
      return v ? std::optional<double>(*v * factor) : std::nullopt;
    }
  return to_number(a);
}

}  // namespace

std::vector<Point> import_gbench(std::string_view text, const Options& o) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for a number like 1e999
    fail(o, 0, fmt::format("not JSON: {}", json_error_reason(e)));
  }
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array())
    fail(o, 0, "not a Google Benchmark JSON: no \"benchmarks\" array");
  std::string host, cpu, partial;
  bool from_bwlab = false;  // bwlab's export leaves default arguments out of the names
  if (doc.contains("context") && doc["context"].is_object()) {
    const auto& c = doc["context"];
    from_bwlab = c.contains("bwlab_note");
    if (c.contains("host_name") && c["host_name"].is_string()) host = c["host_name"].get<std::string>();
    if (c.contains("bwlab_cpu") && c["bwlab_cpu"].is_string()) cpu = c["bwlab_cpu"].get<std::string>();
    if (c.contains("bwlab_partial")) partial = c["bwlab_partial"].is_string() ? c["bwlab_partial"].get<std::string>() : "";
    if (c.contains("bwlab_partial") && partial.empty()) partial = "interrupted";
  }
  std::map<std::string, Group> groups;
  std::size_t order = 0;
  for (const auto& b : doc["benchmarks"]) {
    if (!b.is_object() || !b.contains("name") || !b["name"].is_string())
      fail(o, 0, "a benchmark entry without a \"name\"");
    const std::string name = b["name"].get<std::string>();
    auto str = [&](const char* key) {
      return b.contains(key) && b[key].is_string() ? b[key].get<std::string>() : std::string();
    };
    if (b.contains("error_occurred") && b["error_occurred"].is_boolean() && b["error_occurred"].get<bool>())
      fail(o, 0, fmt::format("benchmark '{}' reported an error: {}", name, str("error_message")));
    if (!b.contains("bytes_per_second") || !b["bytes_per_second"].is_number())
      fail(o, 0, fmt::format("benchmark '{}' has no bytes_per_second (the benchmark calls no SetBytesProcessed)", name));
    const double bps = b["bytes_per_second"].get<double>();
    if (!(bps >= 0) || bps > 1e18)
      fail(o, 0, fmt::format("benchmark '{}': bytes_per_second {} is not a bandwidth", name, bps));
    const std::string run_name = str("run_name").empty() ? name : str("run_name");
    Group& g = groups[run_name];
    if (g.iterations.empty() && g.aggregates.empty()) g.order = order++;
    if (b.contains("repetitions") && b["repetitions"].is_number_integer()) g.repetitions = b["repetitions"].get<int>();
    if (b.contains("threads") && b["threads"].is_number_integer()) g.threads = b["threads"].get<int>();
    else if (b.contains("threads"))  // 1.5 became the default, 1 thread
      fail(o, 0, fmt::format("benchmark '{}': threads {} is not a thread count", name, b["threads"].dump()));
    if (!str("label").empty()) g.label = str("label");
    if (from_bwlab) {
      const auto counter = [&](const char* key) {
        return b.contains(key) && b[key].is_number() && b[key].get<double>() >= 0 ? b[key].get<double>() : Point::kNone;
      };
      if (const double w = counter("bwlab_window_ms"); std::isfinite(w)) g.window_ms = w;
      if (str("aggregate_name") == "median")
        g.gbps_min = counter("bwlab_gbps_min"), g.gbps_max = counter("bwlab_gbps_max"),
        g.pstdev_pct = counter("bwlab_gbps_pstdev_pct");
    }
    if (str("run_type") == "aggregate") g.aggregates[str("aggregate_name")] = bps;
    else g.iterations.push_back(bps);
  }
  std::vector<std::pair<std::size_t, Point>> points;
  for (const auto& [run_name, g] : groups) {
    // "BM_memset/16777216/threads:2": the function, then its arguments.
    std::vector<std::string> parts;
    for (std::size_t s = 0;;) {
      const std::size_t e = run_name.find('/', s);
      parts.push_back(run_name.substr(s, e == std::string::npos ? std::string::npos : e - s));
      if (e == std::string::npos) break;
      s = e + 1;
    }
    std::string base = parts[0];
    if (starts_with(base, "BM_")) base.erase(0, 3);
    std::optional<double> size;
    std::map<std::string, std::string> named;  // "fill:zero" -> fill = zero
    for (std::size_t i = 1; i < parts.size(); ++i) {
      std::string a = parts[i];
      if (const auto colon = a.find(':'); colon != std::string::npos) {
        const std::string key = a.substr(0, colon);
        named.emplace(key, a.substr(colon + 1));
        if (key != "size" && key != "bytes") continue;
        a = a.substr(colon + 1);
      }
      if (size) continue;
      if (const auto v = size_argument(a); v && *v >= 1 && *v <= 1e18 && *v == static_cast<double>(static_cast<std::uint64_t>(*v)))
        size = v;
    }
    if (!size) fail(o, 0, fmt::format("benchmark '{}': no size argument (BM_x/BYTES or size:BYTES) in its name", run_name));
    if (g.threads < 1) fail(o, 0, fmt::format("benchmark '{}': threads {} is not a thread count", run_name, g.threads));
    Point p = imported_point(o, "gbench", 0);
    p.origin_function = parts[0];
    p.origin_tool = "Google Benchmark " + run_name;
    const std::string k = kernel_for(base);
    p.kernel = k.empty() ? base : k;
    p.host = host;
    if (p.cpu_model.empty()) p.cpu_model = cpu;  // --cpu wins
    p.threads = g.threads;
    if (const auto f = named.find("fill"); f != named.end() && f->second != "unknown") {  // unknown: as exported
      try {
        p.fill = parse_fill(f->second).label();
      } catch (const InputError&) {
        fail(o, 0, fmt::format("benchmark '{}': fill '{}' in its name is not a fill (zero, 0xNN or perf)", run_name,
                               f->second));
      }
    }
    // bwlab's own points leave the defaults out of their names; points bwlab had imported (labelled
    // so) had none to leave out: theirs stay unknown.
    if (from_bwlab && g.label.rfind("imported from ", 0) != 0)
      p.placement = "compact", p.membind = "local", p.pages = "4k";  // unless the name says
    for (auto [key, field] : {std::pair{"placement", &p.placement}, {"membind", &p.membind}, {"pages", &p.pages}})
      if (const auto v = named.find(key); v != named.end() && !v->second.empty()) *field = v->second;
    // A victim or mix point is a figure beside its peers (a victim's k aggressors, a mix's other
    // kernels) that Google Benchmark's JSON has no columns for: imported as a plain scaling point,
    // a victim's k = 0 and k = 1 became two runs of one point and a mix's two kernels, clearing at
    // once, got an NT-slow verdict. Refused, naming the file that keeps them.
    // A pagefault point is the OS clearing on the fault, a figure of its own threads like a scaling
    // point's: it comes back as one (it was refused as depending on peers, which it has none of).
    if (const auto sc = named.find("scenario"); sc != named.end() && sc->second == "pagefault") {
      p.scenario = "pagefault";
      p.kernel = "pagefault";
      p.traffic_class = "os";
    } else if (sc != named.end() && sc->second != "scaling")
      fail(o, 0, fmt::format("benchmark '{}': scenario {}: its figure depends on peers Google Benchmark's JSON has no "
                             "columns for; read the bwlab JSON or CSV the run wrote instead (bwlab export keeps "
                             "scenario points for other tools, not for a round trip)",
                             run_name, sc->second));
    // A prediction bwlab exported (labelled so) is no measurement: imported, it lost its model band
    // and machine and came back as a measured-like figure ("imported", 1 rep), and compare called the
    // model's error against a real run nine REGRESSED rows. Refused, naming the file that keeps it.
    if (from_bwlab && g.label.rfind("simulated", 0) == 0)
      fail(o, 0, fmt::format("benchmark '{}' is a bwlab prediction (label '{}'): Google Benchmark's JSON has no "
                             "columns for its model band and machine, and a prediction is not imported as a "
                             "figure; read the bwlab JSON or CSV `bwlab simulate` wrote instead",
                             run_name, g.label));
    if (!g.label.empty()) p.flags.push_back("label: " + g.label);
    p.size_bytes = static_cast<std::uint64_t>(*size);
    double value = 0;
    if (g.aggregates.count("median")) {
      value = g.aggregates.at("median");
      p.reps = std::max(1, g.repetitions);
    } else if (g.aggregates.count("mean")) {
      value = g.aggregates.at("mean");
      p.reps = std::max(1, g.repetitions);
    } else if (!g.iterations.empty()) {
      value = median_of(g.iterations);
      p.reps = static_cast<int>(g.iterations.size());
    } else {
      fail(o, 0, fmt::format("benchmark '{}': only aggregates other than mean and median", run_name));
    }
    set_figure(p, value, "bytes_per_second", 1e-9);
    p.duration_ms = g.window_ms;
    if (g.iterations.size() > 1) {  // the repetitions themselves: their range
      p.gbps_min = *std::min_element(g.iterations.begin(), g.iterations.end()) * 1e-9;
      p.gbps_max = *std::max_element(g.iterations.begin(), g.iterations.end()) * 1e-9;
    } else if (std::isfinite(g.gbps_min) && std::isfinite(g.gbps_max)) {  // bwlab's export of a CSV point
      p.gbps_min = g.gbps_min, p.gbps_max = g.gbps_max;
    }
    if (g.iterations.size() <= 1 && std::isfinite(g.pstdev_pct) && !g.aggregates.count("stddev"))
      p.gbps_pstdev_pct = g.pstdev_pct;
    if (g.aggregates.count("stddev") && g.aggregates.count("mean") && g.aggregates.at("mean") > 0) {
      // Google Benchmark's stddev is the sample one (n - 1); bwlab's pstdev is the population one
      // (n): a round trip through `bwlab export --format gbench` read 15.2% back as 18.7% at 3
      // repetitions and turned a "level" verdict into "too noisy".
      const double sample_pct = 100 * g.aggregates.at("stddev") / g.aggregates.at("mean");
      const int n = g.iterations.size() > 1 ? static_cast<int>(g.iterations.size()) : g.repetitions;
      p.gbps_pstdev_pct = n > 1 ? sample_pct * std::sqrt((n - 1.0) / n) : sample_pct;
      p.origin_spread = sample_pct;
      p.origin_spread_unit = "percent";
      p.flags.push_back(n > 1 ? fmt::format("spread: Google Benchmark's stddev aggregate (sample stddev, {:.2f}%) over "
                                            "its mean, as a population stddev of {} repetitions (x sqrt({}/{}))",
                                            sample_pct, n, n - 1, n)
                              : std::string("spread: Google Benchmark's stddev aggregate over its mean, in % "
                                            "(repetitions not stated: taken as it is)"));
    }
    p.flags.push_back(fmt::format("size {} bytes: the first numeric argument of '{}'", p.size_bytes, run_name));
    points.emplace_back(g.order, std::move(p));
  }
  std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Point> out;
  for (auto& [_, p] : points) out.push_back(std::move(p));
  // A partial run's export says so in its context: its last point carries the flag `run` puts there,
  // so verdict, compare and plot of the imported file warn of it as of the run's own files.
  if (!partial.empty() && !out.empty())
    out.back().flags.push_back(partial.rfind("interrupted by ", 0) == 0
                                   ? fmt::format("run {} (the exported run was partial)", partial)
                                   : fmt::format("run interrupted by an unknown cause ({}): the exported run was partial",
                                                 partial));
  return out;
}

}  // namespace bwlab::import
