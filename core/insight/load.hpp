// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "core/insight/fleet.hpp"
#include "core/report/record.hpp"

namespace bwlab {

enum class PointFileKind { csv, json, fleet_csv };
const char* to_string(PointFileKind k);

// Points read from a bwlab file, whichever of the three kinds it is (told by its content:
// '{' starts a JSON document, the fleet header a fleet CSV, anything else must be a bwlab CSV).
struct LoadedPoints {
  PointFileKind kind = PointFileKind::csv;
  std::vector<Point> points;
  std::optional<RunInfo> run;                // JSON only
  std::vector<CpuIdentity> cpus;             // fleet CSV only: one per point; JSON: one per point too
};

// Throws InputError (exit 2) when the file cannot be read or is not a bwlab file; the
// message names the file.
LoadedPoints load_points(const std::filesystem::path& path);

// Refuses (InputError naming `origin` and the point's number, with the nearest name) a measured or
// simulated scaling, victim or mix point whose kernel or peer kernel bwlab does not have: a
// hand-edited "stosbx" was judged, plotted and compared as a kernel. Imported rows keep the other
// tool's names.
void refuse_unknown_kernels(std::span<const Point> points, std::string_view origin);

// Why a file named .json that does not start with '{' is refused (load_points and the GUI's reader).
inline constexpr const char* kNotJsonFile =
    "not JSON (a .json file that does not start with '{'); bwlab reads its CSV and JSON points files (bwlab run "
    "--csv/--json)";

// Per host, the last-level cache (bytes, count) its run recorded: a JSON run's host, each fleet CSV
// row's host (the CSV of `bwlab merge`); hosts that recorded none, and plain CSVs, are absent.
// Verdicts judge another host's in-cache rows by it (VerdictOptions::recorded_llc).
std::map<std::string, std::pair<std::uint64_t, int>> recorded_llcs(const LoadedPoints& file);

// "NAME is a partial run (interrupted by SIGINT after 8 points): only its finished points are here",
// for a JSON run marked partial by an interrupted `bwlab run`; empty otherwise. Commands that read
// a run print it as a warning (a CSV does not carry the mark).
std::string partial_run_warning(const LoadedPoints& file, const std::string& name);
// Why the file's run is partial, empty when it is whole: a JSON run's partial_reason, or in a CSV
// the flag `run` puts on the last point it finished ("run interrupted by SIGINT after this
// point: 4 of 6 finished, ..."), said as "interrupted by SIGINT: 4 of 6 finished, ...".
std::string partial_reason(const LoadedPoints& file);
// That flag, as `run` and `calibrate` put it on the last point they finished when interrupted.
std::string interrupted_flag(std::string_view signal_name, std::size_t finished, std::size_t planned);
// Whether a point's flag is that mark (of run, calibrate, or merge carrying a partial run's).
bool is_interrupted_flag(std::string_view flag);

}  // namespace bwlab
