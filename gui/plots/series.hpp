// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/report/record.hpp"

// Turning Points into plottable series. No Qt, no QCustomPlot: shared by the GUI and `bwlab plot`.
namespace bwlab::gui {

// A named set of points: one run (live or finished) or one opened file.
struct Dataset {
  std::string name;  // "this run", "latest.csv", ...
  std::vector<Point> points;
  bool from_file = false;  // opened file: its name goes into the legend
  std::string machine = {};  // a simulated JSON file's run.machine (machine file text), else empty
  std::string partial = {};  // a partial run (JSON marked partial, CSV flagged): why, else empty
  // Per host, the LLC (bytes, count) the file recorded (recorded_llcs): the verdict judges another
  // host's in-cache rows by its own cache, as `bwlab verdict` does.
  std::map<std::string, std::pair<std::uint64_t, int>> recorded_llc = {};
};

enum class PlotKind {
  threads,  // GB/s against thread count, a curve per kernel (and size, fill, ... when they vary)
  size,     // GB/s against bytes per thread (log2), a curve per kernel (and thread count, ...)
  heatmap,  // victim kernel x aggressor count -> slowdown (HeatCell, not series)
};

// One curve. Its style comes from style.hpp's assign_styles over (kernel, variant, simulated):
// measured and simulated curves of the same configuration share kernel and variant.
struct Series {
  std::string label;      // legend entry
  bool simulated = false; // drawn dashed, with its band (min..max)
  bool imported = false;  // source=imported (bwlab import): drawn like measured, said in the label and title
  std::string kernel;     // the colour key: the kernel (victim: the victim's), pagefault: "pagefault <pages>"
  std::string variant;    // the rest that tells curves of one kernel apart (" 16 MiB", " 4T [a.csv]")
  std::string setup;      // the variant without its run's file name (" 16 MiB", " 4T")
  std::string tag;        // the label's source and file tail (" (simulated) [b.csv]"), may be empty
  std::vector<double> x, y;
  std::vector<double> err_minus, err_plus;  // distance from y to min and max (aggregate only)
  std::vector<Point> points;                // the record of each (x, y), for hovering
  std::string dataset;                      // the file it came from, empty for a live run
  bool twin = false;  // the same points as an earlier curve (note_identical_series): drawn beneath it
  // Threads plot: one working set split over the threads (likwid-bench, kerncraft: total / n bytes
  // each), labelled with the total; its points each have their own size per thread.
  bool split_total = false;
};

// Groups the points of one scenario (the `scenario` field; other rows are left out, never mixed
// in) of every dataset into series for `kind`, sorted by x. With per_thread y is the median
// per-thread GB/s and the error bars are empty (the files hold no per-thread spread); otherwise
// y is the aggregate median with min..max as error bars. What x and y are per scenario:
//  scaling    GB/s (all threads) against threads or size, a curve per kernel (and size, fill...);
//             on the threads plot, points whose size x threads is one total (a working set split
//             over the threads, as likwid-bench and kerncraft measure) make one curve, split_total
//  victim     the victim's GB/s against aggressor threads k (threads plot) or size, a curve per
//             victim kernel beside aggressor kernel
//  mix        each kernel's GB/s (the sum of its threads) against its threads or size
//  pagefault  GB/s made ready against threads or size, a curve per page kind
//  tlbflush   nothing (its figures are ns per munmap and per read, not GB/s: see the table)
std::vector<Series> build_series(const std::vector<Dataset>& datasets, PlotKind kind, bool per_thread,
                                 const std::string& scenario = "scaling");

// Whether rows of `scenario` split one working set over the threads (the threads plot's
// split_total curves): the size plot, a curve per thread count, then holds one point per curve.
bool splits_a_working_set(const std::vector<Dataset>& datasets, const std::string& scenario);

// Too many curves to read: the size plot of a 1..256 thread sweep has one per kernel and thread
// count (768 for 3 kernels). When `series` holds more than `max_curves`, keeps the curves whose
// thread count (size plot; victim: aggressor count) or buffer size (threads plot) is the smallest,
// the largest or a power of two, thinned further on a log scale while still too many, and always
// those of measured or imported curves (not simulated); every point
// stays in the table. `note` says what was left out ("9 of 256 thread counts drawn (1, 2, 4, ...,
// 256); the table has every point"), empty when nothing was.
struct ThinnedSeries {
  std::vector<Series> series;
  std::string note;
};
ThinnedSeries thin_series(std::vector<Series> series, PlotKind kind, std::size_t max_curves = 48);

// True when every point of the datasets was measured (source=measured) on `host` (none: true),
// with the CPU `cpu` when both the point and `cpu` name one (same_machine: a host name on another
// CPU is another machine). Only then does a machine's own LLC belong on the size plot: `bwlab plot
// --llc auto` and the GUI's "LLC (this machine)" marker both follow this rule.
bool all_measured_on(const std::vector<Dataset>& datasets, const std::string& host, const std::string& cpu = {});

// A curve whose points (x and y) are exactly those of an earlier one is drawn right over it and
// hides it: its label says so, "avx2-nt 1 GiB (= movnti 1 GiB)" (the first such earlier curve),
// without the earlier curve's source and file when they are this curve's too, and it is marked
// `twin`: drawn beneath the curve it equals, so the first kernel of the legend stays visible.
void note_identical_series(std::vector<Series>& series);

// What one curve of `kind` holds fixed, to draw only some curves: the buffer size (bytes per
// thread) of a threads plot's curve, the thread count of a size plot's. The distinct values among
// the `scenario` rows, ascending (the GUI's Size / Threads box above a crowded plot); none for
// victim rows, whose curves hold one victim beside a range of aggressor counts
// (curve_filter_applies).
bool curve_filter_applies(const std::string& scenario);
// The buffer sizes of the victim rows of `datasets`, ascending, when each file's rows hold one
// size (two rows or more in all): such rows are a sweep of aggressor counts k, not of sizes, so a
// size plot of them would be one-point curves (a column of stacked markers); empty otherwise.
std::vector<std::uint64_t> victim_rows_of_one_size(const std::vector<Dataset>& datasets);
std::vector<double> curve_filter_values(const std::vector<Dataset>& datasets, PlotKind kind, const std::string& scenario);
double curve_filter_value(const Point& p, PlotKind kind);
// A plot too crowded to read under "all" (more than `max_curves` curves; a 2-socket sheet's size
// plot of 4 kernels x 8 thread counts held 32): the value its Size / Threads box starts at, so the
// first picture is readable. The value the most datasets hold (like against like: a measured VM's
// 2 threads beside a simulated server's 2..104), a measured run's first, then the largest: the most
// threads on the size plot, the biggest buffer on the threads plot, the contended DRAM-bound case.
// nullopt when the plot is readable as it is.
std::optional<double> crowded_plot_start(const std::vector<Dataset>& datasets, PlotKind kind,
                                         const std::string& scenario, std::size_t max_curves = 12);

// The scenarios present in the datasets, in the order scaling, victim, mix, pagefault, tlbflush.
std::vector<std::string> scenarios_present(const std::vector<Dataset>& datasets);
// What to plot by default: scaling when present, else the first scenario present ("scaling" when none).
std::string default_plot_scenario(const std::vector<Dataset>& datasets);

// One cell of the victim heat map: the slowdown of `victim` when `aggressors` threads run
// another kernel beside it (victim rows: slowdown_pct; k = 0 is the baseline, 0%).
struct HeatCell {
  std::string victim;
  int aggressors = 0;
  double slowdown_pct = 0;  // % below the victim alone, > 0 = slower
  double gbps = 0;          // the victim's GB/s (median), for the tooltip; 0 = not given
  double baseline_gbps = 0; // the victim alone (k = 0), same run
  double gbps_min = 0, gbps_max = 0;  // the victim's measured range (or the model's band)
  // Measured: this cell's min..max overlaps the victim alone's (k = 0) in the same map, so its
  // slowdown is within the run's spread (noise on a shared host read as a strong "-22%").
  bool within_spread = false;
  // Measured: its run flagged it unstable or noisy (flagged_unsteady): the label ends in " !".
  bool flagged = false;
};

// One heat map: the victim rows of one dataset with one aggressor kernel, size, fill, placement,
// membind and pages.
struct HeatMap {
  std::string label;     // "aggressor avx512-nt, 256 MiB, fill zero [file.csv]"
  std::string subtitle;  // what was measured: repetitions, window, the meaning of slowdown
  std::vector<HeatCell> cells;
};
// Every heat map the victim rows of the datasets make, in the order they first appear.
std::vector<HeatMap> build_heat_maps(const std::vector<Dataset>& datasets);

// "16 MiB", "1 GiB", "1.5 MiB": byte counts for axis labels and tooltips.
std::string size_text(double bytes);

// The exact figures of a point, several lines, for tooltips.
std::string point_details(const Point& p, const std::string& dataset);

// Loads a CSV (or a JSON written by bwlab, by its .json suffix). Throws InputError naming the
// file and the line of the first problem.
Dataset load_dataset(const std::string& path);

}  // namespace bwlab::gui
