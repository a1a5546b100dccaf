// SPDX-License-Identifier: MIT
#include "core/insight/load.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/report/plural.hpp"
#include "core/report/csv.hpp"
#include "core/report/input_file.hpp"
#include "core/report/json.hpp"
#include "core/sweep/suggest.hpp"

namespace bwlab {

const char* to_string(PointFileKind k) {
  switch (k) {
    case PointFileKind::csv: return "bwlab CSV";
    case PointFileKind::json: return "bwlab JSON";
    case PointFileKind::fleet_csv: return "bwlab fleet CSV";
  }
  return "?";
}

LoadedPoints load_points(const std::filesystem::path& path) {
  check_input_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
  const std::string text(without_bom(std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()}));
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  // An image or archive under a .csv name: said so, not "unknown column '\x89PNG'" in raw bytes.
  if (const std::string_view head = std::string_view(text).substr(0, 4096);
      std::any_of(head.begin(), head.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u == 0 || (u < 0x20 && c != '\t' && c != '\r' && c != '\n');
      }))
    throw InputError(fmt::format("{}: not a bwlab CSV or JSON: it holds binary data (an image, an archive?)", path.string()));
  LoadedPoints out;
  try {
    std::istringstream s(text);
    const bool named_json = path.extension() == ".json";
    // Empty or blank lines only, under any name: "line 1: ... unknown column ''" named nothing useful.
    if (first == std::string::npos)
      throw InputError(fmt::format("the file is empty{} (a run cut off before it wrote anything?); bwlab reads its CSV "
                                   "and JSON points files (bwlab run --csv/--json)",
                                   text.empty() ? "" : " (blank lines only)"));
    // A bwlab CSV under a .json name: said so (it read as any text that is not JSON).
    if (named_json && begins_like_csv_header(text))
      throw InputError("named .json but it holds a bwlab CSV (its header starts source,scenario,host): rename it to "
                       ".csv");
    if (named_json && text[first] != '{') throw InputError(kNotJsonFile);
    if (first != std::string::npos && text[first] == '{') {
      out.kind = PointFileKind::json;
      JsonDocument doc = read_json(s);
      out.points = std::move(doc.points);
      out.cpus.assign(out.points.size(), cpu_identity(doc.run));
      out.run = std::move(doc.run);
    } else if (is_fleet_csv(text)) {
      out.kind = PointFileKind::fleet_csv;
      for (FleetRow& r : read_fleet_csv(s)) {
        out.cpus.push_back(std::move(r.cpu));
        out.points.push_back(std::move(r.point));
      }
    } else {
      // A text of no columns (a README, a log, perf's output): said so, not "not a bwlab CSV
      // header ...: unknown column '# bwlab: a memory-bandwidth contention lab'".
      if (first != std::string::npos) {
        std::string_view line = std::string_view(text).substr(first, text.find('\n', first) - first);
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (line.find(',') == std::string_view::npos)
          throw InputError(fmt::format("not a bwlab CSV or JSON points file: its first line ('{}') has no commas "
                                       "(a bwlab CSV starts with the header source,scenario,host,..., a JSON file "
                                       "with '{{'); other tools' results are read by 'bwlab import'",
                                       line.substr(0, 40)));
      }
      out.kind = PointFileKind::csv;
      out.points = read_csv(s);
    }
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", path.string(), e.what()));
  }
  refuse_relative_figures(out.points, path.string());
  refuse_unknown_kernels(out.points, path.string());
  return out;
}

void refuse_unknown_kernels(std::span<const Point> points, std::string_view origin) {
  static const std::set<std::string_view> by_kernel = {"scaling", "victim", "mix"};
  std::vector<std::string> names;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    // Imported rows keep the other tool's names (perf bench's "memset/x86-64-unrolled", ...).
    if ((p.source != "measured" && p.source != "simulated") || !by_kernel.contains(p.scenario)) continue;
    for (const std::string* k : {&p.kernel, &p.peer_kernel}) {
      if ((k == &p.peer_kernel && k->empty()) || find_kernel(*k)) continue;
      if (names.empty())
        for (const KernelInfo& info : kernel_table()) names.emplace_back(info.name);
      const std::string near = nearest_name(*k, names);
      throw InputError(fmt::format("{}: point {}: unknown {}kernel '{}'{}; bwlab's kernels are: {}", origin, i + 1,
                                   k == &p.peer_kernel ? "peer " : "", *k,
                                   near.empty() ? "" : " (did you mean " + near + "?)", kernel_names()));
    }
  }
}

std::string partial_reason(const LoadedPoints& file) {
  if (file.run) return !file.run->partial ? "" : file.run->partial_reason.empty() ? "interrupted" : file.run->partial_reason;
  if (file.points.empty()) return {};
  static constexpr std::string_view kAfter = " after this point:";
  const auto reason_of = [](const Point& p) -> std::string {
    for (const std::string& flag : p.flags) {
      if (!is_interrupted_flag(flag)) continue;
      const std::string why = flag.substr(4);  // "interrupted by ..."
      const auto at = why.find(kAfter);
      return at == std::string::npos ? why : why.substr(0, at) + ":" + why.substr(at + kAfter.size());
    }
    return {};
  };
  if (file.kind == PointFileKind::csv) return reason_of(file.points.back());
  // A fleet CSV (merge) holds several hosts' runs: each partial one's flag is on its last row.
  std::vector<std::string> hosts;
  for (const Point& p : file.points)
    if (const std::string why = reason_of(p); !why.empty()) hosts.push_back(fmt::format("host {}'s run {}", p.host, why));
  return fmt::format("{}", fmt::join(hosts, "; "));
}

std::string interrupted_flag(std::string_view signal_name, std::size_t finished, std::size_t planned) {
  return fmt::format("run interrupted by {} after this point: {} of {} finished, the sweep is incomplete", signal_name,
                     finished, count_of(planned, "point"));
}

bool is_interrupted_flag(std::string_view flag) { return flag.starts_with("run interrupted"); }

std::map<std::string, std::pair<std::uint64_t, int>> recorded_llcs(const LoadedPoints& file) {
  std::map<std::string, std::pair<std::uint64_t, int>> out;
  if (file.run && file.run->llc_bytes > 0) out[file.run->host] = {file.run->llc_bytes, std::max(1, file.run->llc_count)};
  if (file.kind == PointFileKind::fleet_csv)
    for (std::size_t i = 0; i < file.points.size() && i < file.cpus.size(); ++i)
      if (file.cpus[i].llc_bytes > 0) out[file.points[i].host] = {file.cpus[i].llc_bytes, std::max(1, file.cpus[i].llc_count)};
  return out;
}

std::string partial_run_warning(const LoadedPoints& file, const std::string& name) {
  const std::string why = partial_reason(file);
  if (why.empty()) return {};
  return fmt::format("{} {} ({}): only its finished points are here", name,
                     file.kind == PointFileKind::fleet_csv ? "holds a partial run" : "is a partial run", why);
}

}  // namespace bwlab
