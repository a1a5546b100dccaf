// SPDX-License-Identifier: MIT
#include <iostream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/insight/fleet.hpp"
#include "core/insight/load.hpp"
#include "core/insight/merge.hpp"
#include "core/report/atomic_file.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

int merge_command(const MergeArgs& o) {
  if (o.out.empty()) throw InputError("merge needs --out FILE.csv");
  check_writable(o.out);
  std::vector<NamedRun> runs;
  for (const std::string& f : o.files) {
    LoadedPoints in = load_points(f);
    if (in.kind != PointFileKind::json)
      throw InputError(fmt::format("{} is a {}: merge takes bwlab JSON files (they carry the host and CPU identity)",
                                   f, to_string(in.kind)));
    runs.push_back(NamedRun{f, JsonDocument{std::move(*in.run), std::move(in.points)}});
  }
  const MergeResult m = merge_runs(runs);
  for (const std::string& w : m.warnings) fmt::print(stderr, "warning: {}\n", w);
  std::ostringstream s;
  write_fleet_csv(s, m.rows);
  write_file_atomically(o.out, s.str());
  std::set<std::string> hosts, cpus;
  for (const FleetRow& r : m.rows) {
    hosts.insert(r.point.host);
    cpus.insert(cpu_label(r.cpu) + " " + r.cpu.microcode);
  }
  fmt::print("merged {} points from {} file{} ({} host{}, {} CPU/microcode combination{}) into {}\n", m.rows.size(),
             runs.size(), runs.size() == 1 ? "" : "s", hosts.size(), hosts.size() == 1 ? "" : "s", cpus.size(),
             cpus.size() == 1 ? "" : "s", o.out);
  return 0;
}

}  // namespace bwlab::cli
