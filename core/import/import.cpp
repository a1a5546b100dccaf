// SPDX-License-Identifier: MIT
#include "core/import/import.hpp"

#include <fmt/format.h>

#include <array>

#include "core/errors.hpp"
#include "core/import/text.hpp"
#include "core/report/fields.hpp"

namespace bwlab::import {

namespace {

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

std::vector<Point> import_text(std::string_view format, std::string_view text, const Options& o) {
  for (const Format& f : kFormats) {
    if (f.name != format) continue;
    std::vector<Point> points = f.parse(text, o);
    if (points.empty()) fail(o, 0, fmt::format("no {} result found", format));
    for (Point& p : points) {
      if (!o.cpu.empty()) p.cpu_model = o.cpu;
      finish(p);
      // What every bwlab reader refuses is refused here, at its line: a "-5.0 GB/sec" was written,
      // and verdict, plot and --validate then refused the file.
      if (const std::string why = implausible_value(p); !why.empty()) fail(o, p.origin_line, why);
    }
    return points;
  }
  throw InputError(fmt::format("unknown import format '{}'; formats are {}", format, fmt::join(kNames, ", ")));
}

}  // namespace bwlab::import
