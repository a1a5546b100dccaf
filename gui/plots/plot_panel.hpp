// SPDX-License-Identifier: MIT
#pragma once
#include <optional>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <QByteArray>
#include <QPointF>
#include <QVector>
#include <QString>
#include <QWidget>

#include "gui/plots/ceilings.hpp"
#include "gui/plots/series.hpp"

class QCustomPlot;
class QCPAbstractPlottable;
class QCPColorScale;
class QCPGraph;
class QCPTextElement;
class QCPItemText;
class QIODevice;

namespace bwlab::gui {

// The legend's last entry when it lists a page of the curves: "+7 more curves: click here for the
// next 5", "+1 more curve: click here to list it"; `brief` ("+7 more: click") where the sentence
// would cost curves; not `interactive` (an image): "... not listed (a taller image lists more)".
QString more_curves_text(int rest, int next, bool brief, bool interactive);

// Word-wraps each line of `text` to `width` pixels, a number and its unit kept on one line ("633.6
// KiB", "140.8 GB/s"); a single word wider than that is elided. The title, subtitle and notes.
QString wrap_text(const QString& text, const QFont& font, int width);

// One plot (QCustomPlot inside; this is the only place that includes qcustomplot.h):
// GB/s against threads or size, or the victim heat map. Used live by the GUI and offscreen
// by `bwlab plot`. Setting data rebuilds the plot and queues one replot. Colours and line
// styles come from style.hpp; the title wraps to the width and the legend sits below the plot
// in as many columns as fit, at most a third of the height, less in a short panel (more curves:
// it lists them a page at a time); clicking a legend entry hides or shows its curve.
class PlotPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PlotPanel(PlotKind kind, QWidget* parent = nullptr);
  ~PlotPanel() override;

  PlotKind kind() const { return kind_; }
  void set_per_thread(bool per_thread);  // threads/size plots: per-thread median instead of aggregate
  bool per_thread() const { return per_thread_; }
  // Threads/size plots: GB/s on a log10 axis (from 1.4x below the lowest point), for sweeps whose
  // in-cache points run 100x the DRAM-bound ones; linear by default. The axis title says which.
  void set_log_y(bool log);
  bool log_y() const { return log_y_; }
  // The LLC size to mark on the size plot (0: none) and where it comes from ("this machine").
  // With `only_host` (this machine's LLC, this machine's host name) it is marked only while every
  // point shown was measured on that host (all_measured_on): never on another machine's curves.
  // `count` LLCs of that size on the machine: with one, a size plot of n threads also marks LLC / n,
  // where n buffers fill it (with several, where threads land decides; 0, unknown: no such line).
  // `only_cpu`: that machine's CPU model name (a point of that host name on another CPU is not its).
  void set_llc(std::uint64_t bytes, const QString& origin, const std::string& only_host = {}, int count = 0,
               const std::string& only_cpu = {});
  // Roofline-style labelled lines (machine_ceilings() computes them for a model machine): y
  // ceilings on the aggregate GB/s plots, x ceilings on the size plot. A ceiling far outside the
  // data (y above 1.6 x the highest point, x beyond 4x the sizes) is not drawn but named in a
  // note, so it never squashes the curves.
  // redraw false: kept for the next rebuild (e.g. set_datasets right after).
  void set_ceilings(const std::vector<Ceiling>& ceilings, bool redraw = true);
  const std::vector<Ceiling>& ceilings() const { return ceilings_; }
  // On screen (default) the subtitle says that legend entries toggle their curves; files written
  // without a display (`bwlab plot`, reports) pass false.
  void set_interactive(bool interactive);
  // Heat map: draw the k = 0 column (the victim alone, always 0%); off by default.
  void set_show_baseline(bool show);
  bool show_baseline() const { return show_baseline_; }
  void set_datasets(const std::vector<Dataset>& datasets);
  // Every text of the plot (titles, axes, legend, labels) at `scale` x its size (1: 10 pt axes and
  // legend, 12 pt title): the GUI's View > Larger text, for a projector.
  void set_text_scale(double scale);
  double text_scale() const { return text_scale_; }
  // Threads/size plots: which scenario's rows to draw (see build_series); "scaling" by default.
  void set_scenario(const std::string& scenario);
  const std::string& scenario() const { return scenario_; }
  // Threads/size plots: draw only the curves of one buffer size (threads plot) or thread count
  // (size plot), curve_filter_value; nullopt (default) draws every curve. A value no curve has
  // draws every curve, and victim rows are never filtered. The subtitle says when curves are left
  // out this way.
  void set_only(std::optional<double> value);
  // Runs are kept but none is checked: the empty plot says so ("No run is checked: tick one in the
  // Runs list"), not "No points yet: press Run" or "No victim rows yet" over a victim run unticked.
  // Read at the next set_datasets / set_heat_cells, which the caller makes anyway (a rebuild here
  // drew each plot twice, hidden ones too).
  void set_none_checked(bool none_checked);
  // The words an empty plot shows in its middle; empty while something is drawn.
  QString empty_message() const { return empty_message_; }
  std::optional<double> only() const { return only_; }
  QString title() const;  // the title and subtitle in full
  // The subtitle as drawn: wrapped, and cut to its share of the panel (ending "(hover here for the
  // rest)"; details_at over it gives the whole text). Empty when there is none.
  QString shown_subtitle() const;
  QRect subtitle_rect() const;  // where it is drawn, in the pixels details_at takes
  QString x_label() const;  // the x axis's label as drawn
  void set_heat_cells(const std::vector<HeatCell>& cells, const QString& subtitle);

  // What is drawn, for tests and the status bar.
  int curve_count() const;
  // Simulated curves' uncertainty bands drawn: they are drawn only while at most
  // kMaxBandCurves simulated curves are shown (more stack into an opaque block); the subtitle
  // says when they are hidden, and hiding curves in the legend brings them back.
  static constexpr int kMaxBandCurves = 4;
  int band_count() const;
  int data_point_count() const;
  // Measured points ringed in red: their run flagged them unstable or noisy (flagged_unsteady);
  // the subtitle says what the rings mean.
  int flagged_count() const;
  QStringList legend_labels() const;  // the curves the legend lists now (one page of them)
  // Their names as drawn after the last replot: a name wider than the panel is elided in its middle.
  QStringList legend_drawn_names() const;
  // The legend's last entry when it lists only a page of the curves ("+7 more curves: click
  // here for the next 7"), else empty. Clicking it shows the next page (after the last: the first).
  QString legend_more_text() const;
  // The exact figures of the point under `pixel` (within 12 px), or empty.
  QString details_at(QPoint pixel) const;
  // More text for a point's tooltip (the what-if panel: the model's explanation of a simulated
  // point), appended under its figures by details_at; an empty string adds nothing.
  void set_point_tooltip_provider(std::function<QString(const Point&)> provider) { tooltip_more_ = std::move(provider); }
  // The markers curve `curve` drew at the last replot, in the plot's pixels: every point's while they
  // are at least 14 px apart, fewer where they crowd (thinned_markers); the line joins every point.
  QVector<QPointF> marker_pixels(int curve) const;
  // Where point `index` of curve `curve` is drawn (after replot_now()), in widget pixels.
  QPoint pixel_of(int curve, int index) const;
  void replot_now();

  // Legend toggling: hides or shows curve `curve` (its band and error bars too) and greys its
  // legend entry, as a click on the entry does. Kept across rebuilds by label.
  void toggle_curve(int curve);
  bool curve_visible(int curve) const;
  // Drawn beneath the other curves: a curve equal to an earlier one (its label says "(= ...)").
  bool curve_beneath(int curve) const;
  // Geometry after replot_now(), for tests: the title's and the legend's rectangles, legend entry
  // `i`'s rectangle and whether its text fits in it, the ceilings drawn and named off-range.
  QRect title_rect() const;
  QRect legend_rect() const;
  bool color_scale_visible() const;  // heat map: its colour scale (hidden while there are no cells)
  int heat_labels_shown() const;     // heat map: cells whose % label is drawn (after replot_now())
  QStringList heat_label_texts() const;  // heat map: every cell's label ("+27.1%", "(-22.0%)" within the spread)
  double heat_span() const { return heat_span_; }  // heat map: the colour scale runs -span..+span %
  int heat_tick_step() const { return heat_tick_step_; }  // heat map: every n-th aggressor count ticked
  // Heat map: the colour scale's caption and how far it reaches past the bar it is centred under
  // (px, 0 when it fits; after replot_now()).
  QString color_scale_caption() const;
  int color_scale_caption_overflow() const;
  QRect legend_item_rect(int i) const;
  bool legend_item_fits(int i) const;
  QStringList drawn_ceilings() const;
  QStringList x_tick_labels() const;  // the x axis's tick labels as drawn (after replot_now())
  // Threads plot: a log2 axis (ticked 1, 2, 4, ...) when the thread counts span more than this
  // factor (1..104 threads), else linear; the victim scenario (k from 0) stays linear.
  static constexpr double kLogThreadsSpan = 16;
  bool threads_axis_log() const { return threads_log_; }
  double y_axis_upper() const;  // the top of the GB/s axis, for tests
  QString off_range_note() const;
  // What the subtitle says of curves left out or drawn as markers only ("5 of 7 thread counts
  // drawn (1, 2, 8, 16, 36); the table has every point", "One buffer size only: ..."), for `bwlab
  // plot`'s line; empty: none.
  QStringList drawing_notes() const;
  // The boxes of the ceilings' and marks' labels and of the off-the-plot note, in widget pixels
  // (after replot_now()): no two meet (separate_labels).
  QList<QRect> label_rects() const;  // the drawn labels' boxes (the note first), on the panel
  // Per drawn label (the order of label_rects, without the note): whether its background lets the
  // curves show through (it covers a curve wherever it could go).
  QList<bool> labels_see_through() const;
  // Labels left out because they met another or ran off the plot (a small plot, large text).
  QStringList hidden_labels() const;
  // "2 labels left out for room (HOW shows them): a; b", said by the GUI and by `bwlab plot`.
  static QString left_out_sentence(const QStringList& hidden, const QString& how_to_show);

 signals:
  // The labels left out changed (after a layout); empty when every label is drawn again.
  void labels_left_out(const QStringList& texts);
  // The one curve value drawn (set_only) changed; emitted before the plot redraws, so marks set
  // in response (set_ceilings without a redraw) are drawn with it.
  void only_changed();

 public:
  // Heat map: the colour of a cell showing `slowdown_pct` on the current scale.
  QColor heat_color(double slowdown_pct) const;

  // Writes the plot as PNG, PDF or SVG (by suffix) at width x height pixels, atomically (drawn in
  // memory, written to a temporary file beside `path` and renamed over it: write_file_atomically).
  // Returns false and sets *error ("cannot write PATH: REASON") when the file cannot be written;
  // `path` is then as it was.
  bool save(const QString& path, int width, int height, QString* error) const;
  // The plot encoded as "png", "pdf" or "svg" at width x height pixels; empty when Qt cannot draw it.
  QByteArray encode(const QString& suffix, int width, int height) const;
  // Writes the plot as an SVG document to `device` (open for writing); false when Qt cannot paint.
  bool write_svg(QIODevice* device, int width, int height) const;
  // Writes the plot as a one-page PDF to `device` (open for writing); false when Qt cannot paint.
  bool write_pdf(QIODevice* device, int width, int height) const;

 private:
  void rebuild();
  QFont scaled_font(double points) const;  // the widget's font at points x text_scale_
  int shown_simulated_curves() const;  // simulated curves not hidden in the legend
  bool bands_wanted() const;  // at most kMaxBandCurves simulated curves shown
  void show_empty(const QString& message);
  // `brief`: the subtitle with less detail (two simulated machines counted, not named), drawn
  // where the whole one would be cut (fit_layout); empty: none.
  void set_title(const QString& title, const QString& subtitle, const QString& brief = {});
  QString single_x_note() const;  // " One buffer size only: ..." when every point shares one x
  // Wraps the title; lays the legend out in as many columns as fit, at most a third of `height`
  // high: when the curves' entries do not fit, it lists a page of them and a last entry
  // "+N more curves" that shows the next page when clicked.
  void fit_layout(int width, int height);
  // `wrapped` (the subtitle wrapped to `width`) cut to at most a quarter of `height`, at least two
  // lines, the last elided and saying where the rest is; sets subtitle_cut_.
  QString cap_lines(const QString& wrapped, const QFont& font, int width, int height);
  // The legend's last entry when it cannot list every curve; `brief` where the full sentence would
  // take a column of its own (a 1024 px window at 1.5x text listed 1 curve of 9 beside it).
  QString more_text(int rest, int next, bool brief = false) const;
  static constexpr double kMinAxesShare = 0.45;  // of the panel's height, kept for the axes by fit_layout
  void draw_ceilings(double* ymax, double* xlo, double* xhi);
  void set_threads_axis_log(bool log, std::vector<double> ticks = {});
  void separate_labels();  // after each layout: moves labels off each other
  void fit_y_label();      // after each layout: the GB/s axis title shortened to the axis's height
  // Heat map, after each layout: the cells' % labels only where a cell is wide enough for one, and
  // every n-th aggressor count ticked so the tick labels do not run together (104 counts: 7 px each).
  void fit_heat_labels();
  void set_heat_ticks();
  void on_mouse_move(QPoint pos);
  void resizeEvent(QResizeEvent* e) override;

  PlotKind kind_;
  QCustomPlot* plot_;
  QCPTextElement* title_ = nullptr;
  QCPTextElement* subtitle_ = nullptr;
  QCPColorScale* scale_ = nullptr;
  QString title_text_, subtitle_text_;
  QString subtitle_brief_;  // set_title's brief; empty: none
  bool subtitle_cut_ = false;  // drawn cut or brief (fit_layout); details_at over it shows it whole
  std::vector<Ceiling> ceilings_;
  QStringList drawn_ceilings_;
  struct PlacedLabel {
    QCPItemText* item;
    double home;  // where draw_ceilings put it: a ceiling's y (GB/s), a mark's y (axis rect ratio)
    bool mark;    // a vertical line's label (else a ceiling's, on its horizontal line)
    QString text = {};  // a mark's text as draw_ceilings broke it, before separate_labels fits it to the room
    bool right = false;  // a mark's label goes right of its line (draw_ceilings' choice; separate_labels may flip it)
    QString short_text = {};  // Ceiling::short_label, broken as `text` (a ceiling's: as drawn); empty: none
  };
  std::vector<PlacedLabel> labels_;  // drawn by draw_ceilings, in its order
  QCPItemText* note_ = nullptr;      // the off-the-plot note, if any
  QStringList left_out_;             // hidden_labels() as last announced
  void announce_left_out();          // emits labels_left_out when hidden_labels() changed
  QString off_note_;
  QString thinned_note_;  // thin_series' note of the last rebuild
  QString off_note_short_;  // the note with the machine's name left out of each line (Ceiling::short_label)
  int off_count_ = 0;       // lines in the note
  int note_form_ = 0;       // as drawn: 0 whole, 1 short, 2 the count of lines only, 3 left out
  bool show_baseline_ = false;
  bool interactive_ = true;
  double heat_span_ = 10;
  std::vector<int> heat_counts_;             // the aggressor counts drawn, one column each
  std::vector<QCPItemText*> heat_labels_;    // the cells' % labels
  QStringList heat_label_full_;              // their texts with one decimal ("+27.1%"), as made
  int heat_tick_step_ = 1;                   // every n-th count ticked
  std::vector<QCPGraph*> graphs_;                          // one per series_
  std::vector<std::vector<QCPAbstractPlottable*>> extras_;  // its band and error bars
  QStringList hidden_;                                     // labels of hidden curves
  bool bands_ = true;                                      // rebuild() drew the bands
  int legend_first_ = 0;                                   // the first curve the legend lists
  int legend_listed_ = 0;                                  // how many it lists (fit_layout)
  bool per_thread_ = false;
  double text_scale_ = 1;
  bool log_y_ = false;
  QString y_label_;  // the GB/s axis title in full (rebuild), before fit_y_label shortens it
  bool threads_log_ = false;  // the threads plot's x axis is log2 (set_threads_axis_log)
  std::string scenario_ = "scaling";
  std::optional<double> only_;  // set_only
  bool none_checked_ = false;    // set_none_checked
  QString empty_message_;        // show_empty's, until the next rebuild
  std::uint64_t llc_bytes_ = 0;
  QString llc_origin_;
  std::string llc_host_;  // set_llc's only_host
  std::string llc_cpu_;   // set_llc's only_cpu
  int llc_count_ = 0;     // set_llc's count
  std::vector<Dataset> datasets_;
  std::vector<Series> series_;
  std::vector<HeatCell> cells_;
  QString heat_subtitle_;
  int data_points_ = 0;
  int flagged_ = 0;  // flagged_count
  std::function<QString(const Point&)> tooltip_more_;
};

}  // namespace bwlab::gui
