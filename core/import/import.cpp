// SPDX-License-Identifier: MIT
#include "core/import/import.hpp"

#include <fmt/format.h>

#include <array>
#include <map>

#include "core/errors.hpp"
#include "core/import/text.hpp"
#include "core/insight/point_key.hpp"
#include "core/report/csv.hpp"
#include "core/report/fields.hpp"

namespace bwlab::import {

namespace {

// Far above any memory a machine has (HBM nodes reach a few TB/s), far below what a parser error
// makes of a figure; gbench's own bound is 1e18 B/s.
constexpr double kMaxGbps = 1e6;

using Parser = std::vector<Point> (*)(std::string_view, const Options&);

struct Format {
  std::string_view name;
  Parser parse;
};

constexpr std::array<Format, 5> kFormats = {{
    {"perf-bench", &import_perf_bench},
    {"lkml-table", &import_lkml_table},
    {"likwid-bench", &import_likwid_bench},
    {"pmbw", &import_pmbw},
    {"gbench", &import_gbench},
}};

constexpr std::array<std::string_view, 5> kNames = {kFormats[0].name, kFormats[1].name, kFormats[2].name,
                                                    kFormats[3].name, kFormats[4].name};

}  // namespace

std::span<const std::string_view> formats() { return kNames; }

void refuse_repeated_points(std::span<const Point> points) {
  std::map<std::string, const Point*> first;  // host, CPU and point_key -> its first figure
  const auto where = [](const Point& p) {
    return p.origin_line > 0 ? fmt::format("{} line {}", p.origin_file, p.origin_line) : p.origin_file;
  };
  for (const Point& p : points) {
    const auto [it, is_first] = first.emplace(p.host + '\n' + p.cpu_model + '\n' + point_key(p), &p);
    if (is_first) continue;
    const Point& q = *it->second;
    throw InputError(fmt::format(
        "{}: a second figure for {} (the first at {}): bwlab keeps one figure per point; import each run with its "
        "own --csv or --json",
        where(p), point_label(p), q.origin_file == p.origin_file ? fmt::format("line {}", q.origin_line) : where(q)));
  }
}

namespace {

// bwlab's own CSV or JSON, "" for anything else: such a file needs no import ("no perf-bench result
// found" and "not a Google Benchmark JSON" did not say what it was).
std::string_view bwlab_file_kind(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  if (text[first] == '{' && text.find("\"schema_version\"") != std::string_view::npos &&
      text.find("\"points\"") != std::string_view::npos)
    return "JSON";
  return begins_like_csv_header(text) ? "CSV" : "";
}

}  // namespace

std::vector<Point> import_text(std::string_view format, std::string_view text, const Options& o) {
  for (const Format& f : kFormats) {
    if (f.name != format) continue;
    if (const std::string_view kind = bwlab_file_kind(text); !kind.empty())
      fail(o, 0, fmt::format("this is a bwlab {} file: bwlab's commands (verdict, compare, plot, ...) read it as it is; "
                             "import reads other tools' results",
                             kind));
    std::vector<Point> points = f.parse(text, o);
    if (points.empty()) fail(o, 0, fmt::format("no {} result found", format));
    for (Point& p : points) {
      if (!o.cpu.empty()) p.cpu_model = o.cpu;
      finish(p);
      // What every bwlab reader refuses is refused here, at its line: a "-5.0 GB/sec" was written,
      // and verdict, plot and --validate then refused the file.
      if (const std::string why = implausible_value(p); !why.empty()) fail(o, p.origin_line, why);
      // A figure no memory reaches: "1e308 GB/sec" was written, and compare printed "+inf%".
      if (p.gbps_median > kMaxGbps)
        fail(o, p.origin_line, fmt::format("{} GB/s is beyond any memory's bandwidth (at most {:g} GB/s)",
                                           p.gbps_median, kMaxGbps));
    }
    refuse_repeated_points(points);
    return points;
  }
  throw InputError(fmt::format("unknown import format '{}'; formats are {}", format, fmt::join(kNames, ", ")));
}

}  // namespace bwlab::import
