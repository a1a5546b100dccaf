// SPDX-License-Identifier: MIT
#include <cstdio>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "core/insight/point_key.hpp"
#include "core/insight/usable_median.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/model/simulate.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/input_file.hpp"
#include "core/report/table.hpp"
#include "core/sweep/parse.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/topology/topology.hpp"
#include "gui/plots/ceilings.hpp"
#include "gui/plots/render.hpp"
#include "gui/plots/series.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

int plot_command(const PlotOptions& o) {
  check_not_an_input({"--out", o.out}, o.files);
  check_writable(o.out);  // before reading and rendering
  for (const auto& f : o.files) check_input_file(f);
  check_listed_once(o.files);
  if (o.machine != "auto" && o.machine != "none") check_input_file(o.machine);
  std::vector<gui::Dataset> sets;  // read once for the checks, the LLC and the ceilings
  for (const auto& f : o.files) {
    sets.push_back(gui::load_dataset(f));
    refuse_unusable_medians(sets.back().points, f, o.per_thread);  // an empty chart tells nothing
    // Several runs of one set-up in one file (appended CSVs): each curve joins them, a zig-zag at
    // each x, drawn without a word where verdict, compare and export refuse the file. As the GUI says it.
    if (const std::string twice = repeated_point_label(sets.back().points); !twice.empty())
      fmt::print(stderr, "note: {} holds several runs of the same set-up (two points for {}): its curves join them at "
                 "each x; keep one run per file (or per host, 'bwlab merge')\n",
                 f, twice);
  }
  gui::PlotFileOptions r;
  r.inputs = o.files;
  r.out = o.out;
  r.kind = o.kind;
  r.rows = o.rows;
  r.per_thread = o.per_thread;
  r.log_y = o.log_y;
  r.width = o.width;
  r.height = o.height;
  if (o.llc == "auto") {
    // Mark this machine's LLC only when every point was measured here.
    if (gui::all_measured_on(sets, host_name(), detect_cpu_features().model_name)) {
      r.llc_bytes = Topology::local().llc_bytes();
      r.llc_origin = "this machine";
    }
  } else if (o.llc != "none") {
    r.llc_bytes = parse_cache_size(o.llc, "--llc");
  }
  // Ceilings (DRAM peak per node and in sum, link peak, LLC): from --machine, or with auto from
  // the model machine every point was simulated on (model_machine_of: the machine a JSON file
  // carries, or the preset the host "model:<preset>" names).
  std::optional<MachineParams> machine;
  std::set<int> thread_counts;
  r.other_machines = o.machine != "none";
  if (o.machine != "none") {
    for (const auto& d : sets)
      for (const auto& p : d.points) thread_counts.insert(p.threads);
    if (o.machine == "auto")
      machine = gui::model_machine_of(sets);
    else
      machine = *load_machine(o.machine);
  }
  if (machine) {
    r.ceilings = gui::machine_ceilings(*machine, thread_counts.size() == 1 ? *thread_counts.begin() : 0,
                                       gui::shared_placement(sets, "model:" + machine->name));
    r.marks_topology = machine_topology(*machine);
    r.marks_host = "model:" + machine->name;
  }
  const std::string no_machine = o.machine == "auto" ? gui::why_no_model_machine(sets) : std::string();
  // A machine given for points predicted on another: drawn (a comparison may want it), named in
  // every label, and said here, as a user who mixed up files would want to know.
  std::set<std::string> other_models;
  if (machine && o.machine != "auto")
    for (const auto& d : sets)
      for (const auto& p : d.points)
        if (p.host.rfind("model:", 0) == 0 && p.host != "model:" + machine->name) other_models.insert(p.host.substr(6));
  const std::string what = gui::render_plot_file(r);
  fmt::print(stderr, "wrote {}: {}\n", o.out, what);
  if (!other_models.empty())
    fmt::print(stderr, "note: the ceilings are of {} (--machine), the points were simulated for {}: the labels name "
               "the machine\n",
               machine->name, fmt::join(other_models, ", "));
  if (!no_machine.empty())
    fmt::print(stderr, "note: no machine ceilings (DRAM, link): {} (or give the machine file: --machine FILE)\n",
               no_machine);
  return 0;
}


Command add_plot_command(CLI::App& app) {
  auto o = std::make_shared<PlotOptions>();
  CLI::App* sub = app.add_subcommand("plot", "draw the GUI's plot of CSV/JSON files as PNG, PDF or SVG, without a display");
  sub->add_option("files", o->files, "CSV or JSON files written by bwlab (several are overlaid)")->required();
  sub->add_option("-o,--out", o->out, "output file: .png, .pdf or .svg")->required();
  sub->add_option("--kind", o->kind,
                       "threads (GB/s against threads), size (GB/s against bytes per thread, log2), or auto "
                       "(size when its curves hold more points each than the threads plot's, e.g. more sizes than thread "
                       "counts, else threads)")
      ->capture_default_str();
  sub->add_option("--rows", o->rows,
                  "which scenario's rows to draw: auto (the first the files hold, in the order scaling, victim, mix, "
                  "pagefault), scaling, victim, mix or pagefault; one plot draws one scenario, and the line printed "
                  "names the rows left out")
      ->capture_default_str();
  sub->add_flag("--per-thread", o->per_thread, "plot the median per-thread GB/s instead of the aggregate");
  sub->add_flag("--log-y", o->log_y,
                "GB/s on a log10 axis (in-cache points at hundreds of GB/s beside DRAM-bound ones at a few: a size "
                "sweep at many threads)");
  sub->add_option("--llc", o->llc,
                       "LLC size marked on the size plot: auto (this machine's, when every point was measured on this "
                       "host), none, or a size such as 24.75M or 32MiB (as machine spec --llc)")
      ->capture_default_str();
  sub->add_option("--machine", o->machine,
                  "ceilings (DRAM peak per node and summed, inter-socket link, LLC) of a model machine: auto (the "
                  "machine simulated points were predicted for: the one a JSON file from bwlab simulate --json "
                  "carries, or the preset named by the host column), none, a preset name or a machine JSON file; every "
                  "other machine simulated points were predicted for adds its DRAM peaks, named (not with none)")
      ->capture_default_str();
  sub->add_option("--width", o->width, "pixels")->capture_default_str();
  sub->add_option("--height", o->height, "pixels")->capture_default_str();
  sub->footer(
      "\nExamples:\n  bwlab plot results/latest.csv --out results/latest.png\n"
      "  bwlab plot hostA.csv hostB.csv --kind size --out compare.pdf\n"
      "  bwlab plot scaling.csv victim.csv --rows victim --out victim.png\n");

  return {sub, [o] { return plot_command(*o); }};
}

}  // namespace bwlab::cli
