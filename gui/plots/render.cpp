// SPDX-License-Identifier: MIT
#include "gui/plots/render.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

#include <QFileInfo>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/report/units.hpp"
#include "core/sweep/suggest.hpp"
#include "gui/plots/offscreen_app.hpp"
#include "gui/plots/plot_marks.hpp"
#include "gui/plots/plot_panel.hpp"

namespace bwlab::gui {

const std::vector<std::string>& plot_kinds() {
  static const std::vector<std::string> kinds{"threads", "size", "auto"};
  return kinds;
}

std::string auto_plot_kind(const std::vector<Dataset>& datasets, std::string scenario) {
  if (scenario.empty()) scenario = default_plot_scenario(datasets);
  // Points per curve: a sweep of 16 sizes at 4 thread counts draws curves of 16 points against size
  // and of 4 against threads. Counting distinct sizes and thread counts instead, three files of
  // working sets split over the threads (a size per thread count) drew 71 one-dot curves against size.
  const auto per_curve = [&](PlotKind kind) {
    const std::vector<Series> series = build_series(datasets, kind, false, scenario);
    std::size_t points = 0;
    for (const Series& s : series) points += s.x.size();
    return series.empty() ? 0.0 : static_cast<double>(points) / static_cast<double>(series.size());
  };
  return per_curve(PlotKind::size) > per_curve(PlotKind::threads) ? "size" : "threads";
}

std::string render_plot_file(const PlotFileOptions& o) {
  if (o.inputs.empty()) throw InputError("plot: no input file");
  const QString suffix = QFileInfo(QString::fromStdString(o.out)).suffix().toLower();
  if (suffix != "png" && suffix != "pdf" && suffix != "svg")
    throw InputError(fmt::format("--out {}: use a .png, .pdf or .svg file name", o.out));
  if (std::find(plot_kinds().begin(), plot_kinds().end(), o.kind) == plot_kinds().end()) {
    const std::string near = nearest_name(o.kind, plot_kinds());
    throw InputError(fmt::format("--kind {}: {}use threads, size or auto", o.kind,
                                 near.empty() ? "" : fmt::format("did you mean {}? ", near)));
  }
  if (o.width < 200 || o.height < 150 || o.width > 10000 || o.height > 10000)
    throw InputError("plot size: use 200..10000 x 150..10000 pixels");
  std::vector<Dataset> datasets;
  std::size_t points = 0;
  for (const auto& path : o.inputs) {
    datasets.push_back(load_dataset(path));
    datasets.back().from_file = o.inputs.size() > 1;  // name files in the legend only when comparing
    points += datasets.back().points.size();
  }
  if (points == 0) throw InputError("plot: the input files hold no points");
  const std::vector<std::string> present = scenarios_present(datasets);
  std::string rows = o.rows;  // "Victim" as "victim"
  std::transform(rows.begin(), rows.end(), rows.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (rows != "auto" && std::find(present.begin(), present.end(), rows) == present.end()) {
    const std::vector<std::string> known = {"auto", "scaling", "victim", "mix", "pagefault", "tlbflush"};
    const bool is_known = std::find(known.begin(), known.end(), rows) != known.end();
    const std::string near = is_known ? std::string() : nearest_name(rows, known);
    throw InputError(fmt::format("--rows {}: {}the files hold {} rows", rows,
                                 !is_known ? (near.empty() ? "use auto, scaling, victim, mix or pagefault; "
                                                           : fmt::format("did you mean {}? ", near))
                                           : fmt::format("no {} rows; ", rows),
                                 fmt::join(present, ", ")));
  }
  const std::string scenario = rows == "auto" ? default_plot_scenario(datasets) : rows;
  if (scenario == "tlbflush")  // the GUI says "see the Table tab"; a file has none
    throw InputError("plot: tlbflush rows hold ns per munmap call and per read, not GB/s: their figures are in the "
                     "table `bwlab run --scenario tlbflush` prints and in the CSV columns munmap_ns_median, "
                     "reader_ns_median");
  const std::string kind = o.kind == "auto" ? auto_plot_kind(datasets, scenario) : o.kind;
  if (kind == "size" && scenario == "victim")  // the GUI's size tab says so; a file would be an empty chart
    if (const std::vector<std::uint64_t> one = victim_rows_of_one_size(datasets); !one.empty()) {
      std::vector<std::string> sizes;
      for (const std::uint64_t b : one) sizes.push_back(format_bytes(b, " "));
      throw InputError(fmt::format("plot --kind size: the victim rows hold one buffer size{}, {}: a sweep of aggressor "
                                   "counts k, not of sizes; draw them with --kind threads (x = k)",
                                   one.size() > 1 ? " per file" : "", fmt::join(sizes, ", ")));
    }

  OffscreenApp app;
  PlotPanel panel(kind == "size" ? PlotKind::size : PlotKind::threads);
  panel.resize(o.width, o.height);
  panel.set_interactive(false);  // a file: nothing to click
  panel.set_per_thread(o.per_thread);
  panel.set_log_y(o.log_y);
  if (kind == "size") panel.set_llc(o.llc_bytes, QString::fromStdString(o.llc_origin));
  std::optional<Topology> topology;  // the machine's, for where its threads reach socket 2 and SMT siblings
  if (!o.marks_topology.empty()) topology = Topology::from_spec(o.marks_topology);
  const PlotMarks marks = plot_marks(datasets, o.ceilings, topology ? &*topology : nullptr, o.marks_host, scenario, o.other_machines);
  panel.set_ceilings(kind == "size" ? marks.size : marks.threads);
  panel.set_scenario(scenario);
  panel.set_datasets(datasets);
  QString error;
  if (!panel.save(QString::fromStdString(o.out), o.width, o.height, &error)) throw std::runtime_error(error.toStdString());
  std::string ceilings;
  // Curves left out, or drawn as markers only: said in the subtitle, and here too (the line read as
  // if every point were drawn: "45 curves, 45 points" of 63, one size drawn against size).
  for (QString note : panel.drawing_notes()) {
    note.replace("the table has every point", "the files hold every point");  // bwlab plot draws no table
    if (note.endsWith('.')) note.chop(1);
    if (note.isEmpty()) continue;
    note[0] = note[0].toLower();  // after "; "
    ceilings += "; " + note.toStdString();
  }
  // Ceilings and marks (crossovers, socket and SMT marks) alike: "ceilings: stosb vs avx2-nt ..." misnamed them.
  if (!panel.drawn_ceilings().isEmpty()) ceilings += "; lines and marks: " + panel.drawn_ceilings().join(", ").toStdString();
  if (!panel.off_range_note().isEmpty()) ceilings += "; " + panel.off_range_note().toStdString();
  // No room for them at this size (each would have met another label or run off the plot).
  if (const QStringList hidden = panel.hidden_labels(); !hidden.isEmpty())
    ceilings += "; " + PlotPanel::left_out_sentence(hidden, "a larger --width/--height").toStdString();
  // One plot draws one scenario: the rows of the others are named, with the option that draws them
  // (a victim file beside a scaling file lost its rows without a word).
  for (const std::string& other : present) {
    if (other == scenario) continue;
    std::size_t n = 0;
    for (const auto& d : datasets)
      n += static_cast<std::size_t>(std::count_if(d.points.begin(), d.points.end(), [&](const Point& p) { return p.scenario == other; }));
    ceilings += fmt::format("; not drawn: {} {} row{}{}", n, other, n == 1 ? "" : "s",
                            other == "tlbflush" ? " (ns, not GB/s)" : fmt::format(" (--rows {} draws them)", other));
  }
  // Said here too: the summary line is what a script's log keeps.
  const std::string flagged =
      panel.flagged_count() > 0 ? fmt::format(" ({} flagged unstable or noisy, ringed in red)", panel.flagged_count()) : "";
  return fmt::format("{}{} GB/s{} against {}: {} curve{}, {} point{}{} from {} file{}{}",
                     scenario == "scaling" ? "" : scenario + " rows: ",
                     scenario == "victim" ? "the victim's" : o.per_thread ? "per-thread" : "aggregate",
                     panel.log_y() ? " (log10 axis)" : "",
                     kind == "size" ? "size" : scenario == "victim" ? "aggressor threads" : "threads", panel.curve_count(), panel.curve_count() == 1 ? "" : "s",
                     panel.data_point_count(), panel.data_point_count() == 1 ? "" : "s", flagged, o.inputs.size(),
                     o.inputs.size() == 1 ? "" : "s", ceilings);
}

}  // namespace bwlab::gui
