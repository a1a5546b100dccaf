// SPDX-License-Identifier: MIT
#include "core/insight/load.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "core/errors.hpp"
#include "core/report/csv.hpp"
#include "core/report/input_file.hpp"
#include "core/report/json.hpp"

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
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  LoadedPoints out;
  try {
    std::istringstream s(text);
    const bool named_json = path.extension() == ".json";
    if (named_json && (first == std::string::npos || text[first] != '{'))
      throw InputError(kNotJsonFile);
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
      out.kind = PointFileKind::csv;
      out.points = read_csv(s);
    }
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", path.string(), e.what()));
  }
  refuse_relative_figures(out.points, path.string());
  return out;
}

std::string partial_run_warning(const LoadedPoints& file, const std::string& name) {
  if (!file.run || !file.run->partial) return {};
  return fmt::format("{} is a partial run ({}): only its finished points are here", name,
                     file.run->partial_reason.empty() ? "interrupted" : file.run->partial_reason);
}

}  // namespace bwlab
