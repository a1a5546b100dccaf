// SPDX-License-Identifier: MIT
#include "core/insight/merge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <vector>

#include "core/errors.hpp"
#include "core/insight/load.hpp"
#include "core/insight/point_key.hpp"
#include "core/report/plural.hpp"

namespace bwlab {
namespace {

// A fleet holds what hosts measured: a simulated point is a model's prediction (its "host" is
// model:NAME, its CPU identity empty) and an imported one came from another tool without a CPU
// identity; either would be counted, and judged, as one more host.
void refuse_unmeasured(const NamedRun& r) {
  std::size_t n = 0;
  std::string source;
  for (const Point& p : r.doc.points)
    if (p.source != "measured") {
      if (n++ == 0) source = p.source;
    }
  if (n == 0) return;
  const std::string what =
      source == "simulated" ? fmt::format("simulated (a model's prediction for host '{}')", r.doc.run.host)
                            : fmt::format("{} (not measured by bwlab run)", source);
  throw InputError(fmt::format("{}: {} of its {} {} {}; a fleet merges measured runs (bwlab run --json)",
                               r.name, n, count_of(r.doc.points.size(), "point"), noun(n, "is", "are"), what));
}

}  // namespace

void check_mergeable(const NamedRun& r) {
  refuse_unmeasured(r);  // first: an imported run names no host either, and this says why
  if (r.doc.run.host.empty()) throw InputError(fmt::format("{}: the run names no host", r.name));
}

MergeResult merge_runs(const std::vector<NamedRun>& runs) {
  if (runs.empty()) throw InputError("merge needs at least one JSON file");
  MergeResult out;
  std::map<std::string, std::string> seen;  // host + point key -> file
  std::map<std::string, std::vector<std::string>> files_of_host, files_of_version;
  for (const NamedRun& r : runs) {
    check_mergeable(r);
    files_of_version[r.doc.run.bwlab_version].push_back(r.name);
    if (r.doc.run.partial)
      out.warnings.push_back(fmt::format("{}: partial run ({}); its finished points are merged", r.name,
                                         r.doc.run.partial_reason));
    if (r.doc.points.empty()) out.warnings.push_back(fmt::format("{}: no points", r.name));
    files_of_host[r.doc.run.host].push_back(r.name);
    const CpuIdentity cpu = cpu_identity(r.doc.run);
    const std::size_t first_row = out.rows.size();
    for (const Point& p : r.doc.points) {
      Point q = p;
      if (q.host.empty()) q.host = r.doc.run.host;
      const std::string key = q.host + '\x1e' + point_key(q);
      const auto [it, fresh] = seen.emplace(key, r.name);
      if (!fresh)
        throw InputError(fmt::format("{} and {} both hold {} for host '{}': keep one run per host (two machines "
                                     "that share a hostname, such as cloned VMs? record each under its own name with "
                                     "bwlab run --host NAME)",
                                     it->second, r.name, point_label(q), q.host));
      out.rows.push_back(FleetRow{cpu, std::move(q)});
    }
    // A partial run's mark travels with its rows (a fleet CSV has no run record): its last row says
    // so, as `run` writes it, unless it already does. Verdict and plot of the fleet read it back.
    if (r.doc.run.partial && out.rows.size() > first_row) {
      auto& flags = out.rows.back().point.flags;
      if (std::none_of(flags.begin(), flags.end(), [](const std::string& f) { return is_interrupted_flag(f); })) {
        const std::string& why = r.doc.run.partial_reason;
        flags.push_back(why.starts_with("interrupted") ? "run " + why
                                                       : fmt::format("run interrupted ({})", why.empty() ? "partial" : why));
      }
    }
  }
  // Two runs of one host with no point in common (another sweep, a rerun of other sizes): merged
  // as one host's points, which verdict --by cpu then judges as one sweep. Said, not refused.
  for (const auto& [host, files] : files_of_host)
    if (files.size() > 1)
      out.warnings.push_back(fmt::format("host '{}' has {} runs ({}): their points are merged as one host's, and "
                                         "judged together by verdict --by cpu (merge one run per host to keep runs apart)",
                                         host, files.size(), fmt::join(files, ", ")));
  // Hosts that ran different bwlab versions (one node kept an old binary): the fleet CSV has no
  // version column, so it is said here or nowhere.
  if (files_of_version.size() > 1) {
    std::vector<std::string> parts;
    for (const auto& [version, files] : files_of_version)
      parts.push_back(fmt::format("{} ({})", version.empty() ? "version not recorded" : version,
                                  files.size() > 3 ? count_of(files.size(), "file") : fmt::format("{}", fmt::join(files, ", "))));
    out.warnings.push_back(fmt::format("the runs come from {} bwlab versions: {}; compare like with like",
                                       files_of_version.size(), fmt::join(parts, "; ")));
  }
  // Nothing to merge: a header-only fleet file passed the pipeline's merge step (exit 0) and failed
  // the verdict after it.
  if (out.rows.empty())
    throw InputError(fmt::format("{} no points: nothing to merge", runs.size() == 1 ? "the file holds" : "the files hold"));
  return out;
}

}  // namespace bwlab
