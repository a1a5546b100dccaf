// SPDX-License-Identifier: MIT
#include "core/import/import.hpp"

#include <fmt/format.h>

#include <array>

#include "core/errors.hpp"
#include "core/import/text.hpp"

namespace bwlab::import {

namespace {

using Parser = std::vector<Point> (*)(std::string_view, const Options&);

struct Format {
  std::string_view name;
  Parser parse;
};

constexpr std::array<Format, 2> kFormats = {{
    {"perf-bench", &import_perf_bench},
    {"lkml-table", &import_lkml_table},
}};

constexpr std::array<std::string_view, 2> kNames = {kFormats[0].name, kFormats[1].name};

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
    }
    return points;
  }
  throw InputError(fmt::format("unknown import format '{}'; formats are {}", format, fmt::join(kNames, ", ")));
}

}  // namespace bwlab::import
