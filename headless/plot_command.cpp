// SPDX-License-Identifier: MIT
#include <cstdio>

#include <fmt/format.h>

#include "core/report/table.hpp"
#include "core/sweep/parse.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/topology/topology.hpp"
#include "gui/plots/render.hpp"
#include "gui/plots/series.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

int plot_command(const PlotOptions& o) {
  gui::PlotFileOptions r;
  r.inputs = o.files;
  r.out = o.out;
  r.kind = o.kind;
  r.per_thread = o.per_thread;
  r.width = o.width;
  r.height = o.height;
  if (o.llc == "auto") {
    // Mark this machine's LLC only when every point was measured here.
    bool here = true;
    const std::string host = host_name();
    for (const auto& f : o.files)
      for (const auto& p : gui::load_dataset(f).points) here = here && p.source == "measured" && p.host == host;
    if (here) {
      r.llc_bytes = Topology::local().llc_bytes();
      r.llc_origin = "this machine";
    }
  } else if (o.llc != "none") {
    r.llc_bytes = parse_size(o.llc);
  }
  const std::string what = gui::render_plot_file(r);
  fmt::print(stderr, "wrote {}: {}\n", o.out, what);
  return 0;
}

}  // namespace bwlab::cli
