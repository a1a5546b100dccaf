// SPDX-License-Identifier: MIT
#include "gui/app/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/json.hpp"
#include "core/version.hpp"
#include "gui/app/cli_options.hpp"

namespace bwlab::gui {
namespace {

using json = nlohmann::json;
constexpr int kSessionVersion = 1;

}  // namespace

std::string session_to_json(const Session& s) {
  json doc;
  doc["bwlab_gui_session"] = kSessionVersion;
  doc["bwlab_version"] = kVersion;
  doc["view"] = s.view;
  doc["rows"] = s.rows;
  doc["per_thread"] = s.per_thread;
  doc["log_y"] = s.log_y;
  // Bytes and thread counts are whole numbers: written as such (1073741824, not 1073741824.0).
  const auto only = [](const std::optional<double>& v) {
    return !v ? json(nullptr) : *v == std::floor(*v) ? json(static_cast<std::int64_t>(*v)) : json(*v);
  };
  doc["threads_plot_size"] = only(s.threads_plot_size);
  doc["size_plot_threads"] = only(s.size_plot_threads);
  doc["runs"] = json::array();
  for (const KeptRun& r : s.runs) {
    RunInfo info;
    info.bwlab_version = kVersion;
    info.command_line = "bwlab-gui session";
    info.machine = r.data.machine;  // a simulated file's machine stays with its points
    info.partial = !r.data.partial.empty();  // an interrupted run stays marked ("Partial run" in the subtitle)
    info.partial_reason = r.data.partial;
    std::ostringstream points;
    write_json(points, info, r.data.points);
    json run;
    run["name"] = r.data.name;
    run["origin"] = r.origin;
    run["checked"] = r.checked;
    run["labelled"] = r.data.from_file;
    run["points"] = json::parse(points.str());
    // The caches a fleet file's hosts recorded: the verdict judges them by these after a restore too.
    if (!r.data.recorded_llc.empty()) {
      json llc = json::object();
      for (const auto& [host, cache] : r.data.recorded_llc) llc[host] = {cache.first, cache.second};
      run["recorded_llc"] = std::move(llc);
    }
    doc["runs"].push_back(std::move(run));
  }
  return doc.dump(1) + "\n";
}

Session session_from_json(const std::string& text) {
  Session s;
  try {
    const json doc = json::parse(text);
    if (!doc.is_object() || !doc.contains("bwlab_gui_session"))
      throw InputError(std::string("not a bwlab-gui session (no \"bwlab_gui_session\" key)") +
                       (doc.is_object() && doc.contains("schema_version") && doc.contains("points")
                            ? "; it is a points file (bwlab run/simulate --json): open it as a file, 'bwlab-gui FILE' "
                              "or File > Open CSV/JSON..."
                            : ""));
    if (doc.at("bwlab_gui_session") != kSessionVersion)
      throw InputError(fmt::format("unsupported session version {} (expected {})", doc.at("bwlab_gui_session").dump(),
                                   kSessionVersion));
    s.view = doc.value("view", "threads");
    // As --view takes it: an unknown one loaded, exit 0, and showed the threads plot.
    if (const auto& views = gui_views(); std::find(views.begin(), views.end(), s.view) == views.end())
      throw InputError(fmt::format("\"view\": '{}' is not a view (one of {})", s.view, fmt::join(views, ", ")));
    s.rows = doc.value("rows", "scaling");
    s.per_thread = doc.value("per_thread", false);
    s.log_y = doc.value("log_y", false);  // absent in sessions saved before it existed
    // Absent or null (sessions saved before the box existed, or every curve drawn): no choice.
    const auto only = [&](const char* key) -> std::optional<double> {
      if (!doc.contains(key) || doc.at(key).is_null()) return std::nullopt;
      if (!doc.at(key).is_number()) throw InputError(fmt::format("\"{}\" is not a number or null", key));
      return doc.at(key).get<double>();
    };
    s.threads_plot_size = only("threads_plot_size");
    s.size_plot_threads = only("size_plot_threads");
    for (const json& run : doc.at("runs")) {
      KeptRun r;
      r.data.name = run.at("name").get<std::string>();
      r.origin = run.value("origin", "file");
      r.checked = run.value("checked", true);
      r.data.from_file = run.value("labelled", r.origin == "file");
      std::istringstream points(run.at("points").dump());
      try {
        JsonDocument doc = read_json(points);
        r.data.points = std::move(doc.points);
        r.data.machine = std::move(doc.run.machine);
        if (doc.run.partial) r.data.partial = doc.run.partial_reason.empty() ? "interrupted" : doc.run.partial_reason;
        if (run.contains("recorded_llc"))
          for (const auto& [host, cache] : run.at("recorded_llc").items())
            r.data.recorded_llc[host] = {cache.at(0).get<std::uint64_t>(), cache.at(1).get<int>()};
      } catch (const std::exception& e) {
        throw InputError(fmt::format("run '{}': {}", r.data.name, e.what()));
      }
      s.runs.push_back(std::move(r));
    }
  } catch (const json::exception& e) {  // said without the library's "[json.exception.out_of_range.403]" tag
    throw InputError(fmt::format("not a valid session: {}", text.find_first_not_of(" \t\r\n") == std::string::npos
                                                                ? std::string("the file is empty")
                                                                : json_error_reason(e)));
  }
  return s;
}

void save_session(const std::string& path, const Session& s) { write_file_atomically(path, session_to_json(s)); }

Session load_session(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot open {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return session_from_json(text.str());
  } catch (const std::exception& e) {
    throw InputError(fmt::format("{}: {}", path, e.what()));
  }
}

}  // namespace bwlab::gui
