// SPDX-License-Identifier: MIT
#include "core/report/json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <istream>
#include <limits>
#include <utility>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <type_traits>
#include <variant>

#include "core/errors.hpp"
#include "core/report/fields.hpp"

namespace bwlab {

std::string json_error_reason(const std::exception& e) {
  const std::string what = e.what();
  const auto tag_end = what.rfind("] ", what.find(' ') == std::string::npos ? 0 : what.find(' ') + 1);
  return what.rfind("[json.exception.", 0) == 0 && tag_end != std::string::npos ? what.substr(tag_end + 2) : what;
}

namespace {

// Ordered, so the file reads in the documented order (schema_version, run, units, points).
using json = nlohmann::ordered_json;

json num(double v) {
  if (!std::isfinite(v)) return nullptr;
  return v;
}

json nums(const std::vector<double>& v) {
  json a = json::array();
  for (double x : v) a.push_back(num(x));
  return a;
}

std::string reason(const json::exception& e) { return json_error_reason(e); }

// `e` said at `where` ("point 3", "per_thread[1]"): "JSON: point 3: 'threads': ...".
InputError within(const std::string& where, const InputError& e) {
  const std::string what = e.what();
  return InputError("JSON: " + where + ": " + (what.rfind("JSON: ", 0) == 0 ? what.substr(6) : what));
}

// Reads obj[key] with `read`, naming the key in any error (a hand-edited "threads": "two" said
// only "type must be number, but is string", not which field of which point).
template <typename F>
auto field(const json& obj, const std::string& key, F read) {
  if (!obj.contains(key)) throw InputError(fmt::format("JSON: '{}' is missing", key));
  try {
    return read(obj.at(key));
  } catch (const json::exception& e) {
    throw InputError(fmt::format("JSON: '{}': {}", key, reason(e)));
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.rfind("JSON: ", 0) == 0) throw;  // already says where
    throw InputError(fmt::format("JSON: '{}': {}", key, what));
  }
}

double get_num(const json& j) {
  if (j.is_null()) return std::numeric_limits<double>::quiet_NaN();
  return j.get<double>();
}

double get_num(const json& obj, const char* key) {
  return field(obj, key, [](const json& v) { return get_num(v); });
}

std::vector<double> get_nums(const json& j) {
  std::vector<double> out;
  for (const json& x : j) out.push_back(get_num(x));
  return out;
}

std::vector<double> get_nums(const json& obj, const char* key) {
  return field(obj, key, [&](const json& a) {
    if (!a.is_array()) throw InputError(std::string("JSON: '") + key + "' is not an array");
    return get_nums(a);
  });
}

// v as a T, where nlohmann would truncate 2.5 to a whole 2 (a hand-edited "threads": 2.5 read as 2
// threads) or wrap -1 to a huge unsigned count.
template <typename T>
T as(const json& v) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (v.is_number_float()) {  // 2.0 (another tool's writer) is 2; 2.5 is no count
      const double d = v.get<double>();
      if (const std::string why = not_a_count<T>(d); !why.empty())
        throw InputError(fmt::format("{} {}", v.dump(), why));
      return static_cast<T>(d);
    }
    if (std::is_unsigned_v<T> && v.is_number_integer() && !v.is_number_unsigned())
      throw InputError(fmt::format("{} is negative", v.dump()));
    // 1000000000000 threads read as -727379968: a count beyond the type's range is refused as such.
    if (v.is_number_unsigned() ? !std::in_range<T>(v.get<std::uint64_t>())
                               : v.is_number_integer() && !std::in_range<T>(v.get<std::int64_t>()))
      throw InputError(fmt::format("{} is out of range", v.dump()));
  }
  return v.get<T>();
}

template <typename T>
T get(const json& obj, const char* key) {
  return field(obj, key, [](const json& v) { return as<T>(v); });
}

json run_to_json(const RunInfo& r) {
  json out{
      {"schema_version", r.schema_version},
      {"bwlab_version", r.bwlab_version},
      {"date", r.date},
      {"command_line", r.command_line},
      {"host", r.host},
      {"cpu_vendor", r.cpu_vendor},
      {"cpu_model_name", r.cpu_model_name},
      {"cpu_family", r.cpu_family},
      {"cpu_model", r.cpu_model},
      {"cpu_stepping", r.cpu_stepping},
      {"cpu_flags_used", r.cpu_flags_used},
      {"microcode", r.microcode},
      {"kernel_release", r.kernel_release},
      {"thp", r.thp},
      {"glibc_version", r.glibc_version},
      {"topology", r.topology},
      {"warnings", r.warnings},
      {"partial", r.partial},
      {"partial_reason", r.partial_reason},
  };
  if (!r.machine.empty()) out["machine"] = json::parse(r.machine);  // an object, not a string in a string
  if (r.llc_bytes > 0) out["llc_bytes"] = r.llc_bytes, out["llc_count"] = r.llc_count;  // measured runs
  return out;
}

RunInfo run_from_json(const json& j) {
  RunInfo r;
  r.schema_version = get<int>(j, "schema_version");
  r.bwlab_version = get<std::string>(j, "bwlab_version");
  r.date = get<std::string>(j, "date");
  r.command_line = get<std::string>(j, "command_line");
  r.host = get<std::string>(j, "host");
  r.cpu_vendor = get<std::string>(j, "cpu_vendor");
  r.cpu_model_name = get<std::string>(j, "cpu_model_name");
  r.cpu_family = get<int>(j, "cpu_family");
  r.cpu_model = get<int>(j, "cpu_model");
  r.cpu_stepping = get<int>(j, "cpu_stepping");
  r.cpu_flags_used = get<std::vector<std::string>>(j, "cpu_flags_used");
  r.microcode = get<std::string>(j, "microcode");
  r.kernel_release = get<std::string>(j, "kernel_release");
  r.thp = get<std::string>(j, "thp");
  r.glibc_version = get<std::string>(j, "glibc_version");
  r.topology = get<std::string>(j, "topology");
  r.warnings = get<std::vector<std::string>>(j, "warnings");
  r.partial = get<bool>(j, "partial");
  r.partial_reason = get<std::string>(j, "partial_reason");
  if (j.contains("llc_bytes")) {  // optional: measured runs of bwlab 2026-12-04 and later
    r.llc_bytes = get<std::uint64_t>(j, "llc_bytes");
    r.llc_count = get<int>(j, "llc_count");
  }
  if (const auto m = j.find("machine"); m != j.end()) {  // optional: simulated runs only
    if (!m->is_object()) throw InputError("JSON: 'run.machine' is not an object");
    r.machine = m->dump(2);
  }
  return r;
}

json thread_to_json(const ThreadFigures& t) {
  return json{
      {"slot", t.slot},
      {"pu_planned", t.pu_planned},
      {"pu_observed", t.pu_observed},
      {"pinned", t.pinned},
      {"mem_node", t.mem_node},
      {"gbps_median", num(t.gbps_median)},
      {"gbps_reps", nums(t.gbps_reps)},
      {"bytes_total", t.bytes_total},
      {"passes_total", t.passes_total},
      {"kernel", t.kernel},
      {"ops_total", t.ops_total},
  };
}

ThreadFigures thread_from_json(const json& j) {
  ThreadFigures t;
  t.slot = get<int>(j, "slot");
  t.pu_planned = get<int>(j, "pu_planned");
  t.pu_observed = get<int>(j, "pu_observed");
  t.pinned = get<bool>(j, "pinned");
  t.mem_node = get<int>(j, "mem_node");
  t.gbps_median = get_num(j, "gbps_median");
  t.gbps_reps = get_nums(j, "gbps_reps");
  t.bytes_total = get<std::uint64_t>(j, "bytes_total");
  t.passes_total = get<std::uint64_t>(j, "passes_total");
  // Absent in files written before the scenarios existed.
  t.kernel = j.value("kernel", std::string());
  t.ops_total = j.value("ops_total", std::uint64_t{0});
  return t;
}

// Keys and their order come from the field table (fields.hpp).
json point_to_json(const Point& p) {
  json out = json::object();
  for (const PointField& f : point_fields()) {
    out[std::string(f.name)] = std::visit(
        Overloaded{
            [&](double Point::*m) { return num(p.*m); },
            [&](std::vector<double> Point::*m) { return nums(p.*m); },
            [&](std::vector<ThreadFigures> Point::*m) {
              json threads = json::array();
              for (const ThreadFigures& t : p.*m) threads.push_back(thread_to_json(t));
              return threads;
            },
            [&](auto m) { return json(p.*m); },  // text, integers and their lists as they are
        },
        f.member);
  }
  return out;
}

Point point_from_json(const json& j) {
  Point p;
  for (const PointField& f : point_fields()) {
    const std::string key(f.name);
    // Optional fields are absent in files written before they existed: then "not applicable".
    if (f.optional() && !j.contains(key)) continue;
    std::visit(Overloaded{
                   [&](double Point::*m) { p.*m = get_num(j, key.c_str()); },
                   [&](std::vector<double> Point::*m) { p.*m = get_nums(j, key.c_str()); },
                   [&](std::vector<ThreadFigures> Point::*m) {
                     if (!j.contains(key)) throw InputError(fmt::format("JSON: '{}' is missing", key));
                     const json& threads = j.at(key);
                     if (!threads.is_array()) throw InputError("JSON: '" + key + "' is not an array");
                     for (std::size_t i = 0; i < threads.size(); ++i) {
                       const json& t = threads[i];
                       if (!t.is_object()) throw InputError("JSON: '" + key + "' entries must be objects");
                       // "per_thread[1]: 'gbps_median': ..." (it named the point's own field).
                       const std::string where = fmt::format("{}[{}]", key, i);
                       try {
                         (p.*m).push_back(thread_from_json(t));
                       } catch (const InputError& e) {
                         throw within(where, e);
                       } catch (const json::exception& e) {
                         throw within(where, InputError(reason(e)));
                       }
                     }
                   },
                   [&](auto m) {
                     p.*m = field(j, key, [](const json& v) { return as<std::remove_reference_t<decltype(p.*m)>>(v); });
                   },
               },
               f.member);
  }
  return p;
}

}  // namespace

void write_json(std::ostream& out, const RunInfo& run, std::span<const Point> points) {
  json doc;
  doc["schema_version"] = 1;
  doc["run"] = run_to_json(run);
  doc["units"] = json{
      {"gbps", "1e9 bytes per second, aggregate = sum of per-thread rates"},
      {"size_bytes", "bytes per thread"},
      {"elapsed_ns", "nanoseconds"},
      {"slowdown_pct", "victim: percent below the victim alone (k = 0) in the same run"},
      {"huge_pct", "percent of buffer bytes backed by huge pages, from /proc/self/smaps"},
      {"faults_per_s", "page faults per second counted by the kernel (getrusage minflt), sum over threads"},
      {"munmap_ns", "nanoseconds per munmap call"},
      {"reader_ns", "nanoseconds per read access of a reader thread"},
      {"gbps_min", "measured: slowest repetition; simulated (source simulated): bottom of the model's uncertainty "
                   "band"},
      {"gbps_max", "measured: fastest repetition; simulated: top of the model's uncertainty band, held to the DRAM "
                   "peak of the nodes the point's memory is on"},
      {"simulated", "source simulated: a prediction, no clear ran (reps 0); bytes_median and elapsed_ns_median are "
                    "the predicted rate over a nominal window of duration_ms"},
  };
  json arr = json::array();
  for (const Point& p : points) arr.push_back(point_to_json(p));
  doc["points"] = std::move(arr);
  // Invalid UTF-8 (e.g. odd bytes in a command line) is replaced instead of throwing.
  const std::string text = doc.dump(2, ' ', false, json::error_handler_t::replace);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.put('\n');
}

JsonDocument read_json(std::istream& in) {
  try {
    const json doc = json::parse(in);
    if (!doc.is_object()) throw InputError("JSON: top level is not an object");
    if (!doc.contains("schema_version") || !doc.contains("points"))
      throw InputError(std::string("JSON: not a bwlab points file (no \"schema_version\" and \"points\"; bwlab run "
                                   "--json and bwlab simulate --json write one)") +
                       (doc.contains("benchmarks") && doc.contains("context")
                            ? "; it looks like Google Benchmark JSON: read it with 'bwlab import gbench FILE'"
                        : doc.contains("bwlab_gui_session")
                            ? "; it is a bwlab-gui session: open it with 'bwlab-gui --session FILE' or File > Open "
                              "session..."
                        : doc.contains("bwlab_machine")
                            ? "; it is a machine file (bwlab machine spec, calibrate): predict with it, `bwlab simulate "
                              "--machine FILE --json s.json`, or in the GUI choose Simulate, give it as the Simulated "
                              "machine (its ... button) and press Run"
                            : ""));
    const json& version = doc.at("schema_version");
    if (!version.is_number_integer() || version.get<long long>() != 1)
      throw InputError("JSON: unsupported schema_version " + version.dump() + " (expected 1)");
    JsonDocument result;
    if (!doc.contains("run")) throw InputError("JSON: 'run' is missing (bwlab run --json and bwlab simulate --json write it)");
    const json& run = doc.at("run");
    if (!run.is_object()) throw InputError("JSON: 'run' is not an object");
    // Where a field is wrong: "JSON: point 3: 'threads': type must be number, but is string".
    try {
      result.run = run_from_json(run);
    } catch (const InputError& e) {
      throw within("run", e);
    }
    const json& points = doc.at("points");
    if (!points.is_array()) throw InputError("JSON: 'points' is not an array");
    for (const json& p : points) {
      if (!p.is_object()) throw InputError("JSON: 'points' entries must be objects");
      try {
        result.points.push_back(point_from_json(p));
        canonical_fill(result.points.back());
      } catch (const InputError& e) {
        throw within(fmt::format("point {}", result.points.size() + 1), e);
      }
      if (std::string why = implausible_value(result.points.back()); !why.empty()) {
        // A JSON point has fields, not columns: "'source': ..." as its other errors say.
        if (const auto colon = why.find(": "); why.rfind("column ", 0) == 0 && colon != std::string::npos)
          why = "'" + why.substr(7, colon - 7) + "'" + why.substr(colon);
        throw InputError(fmt::format("JSON: point {}: {}", result.points.size(), why));
      }
    }
    return result;
  } catch (const json::exception& e) {
    throw InputError(std::string("JSON: ") + reason(e));
  }
}

}  // namespace bwlab
