// SPDX-License-Identifier: MIT
// The only translation unit that includes qcustomplot.h (it costs ~8 s to compile).
#include "gui/plots/plot_panel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMouseEvent>
#include <QPageLayout>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QSet>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "core/insight/usable_median.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/plural.hpp"
#include "core/report/point_flags.hpp"
#include "core/report/units.hpp"
#include "gui/plots/marker_thinning.hpp"
#include "gui/plots/style.hpp"
#include "gui/plots/told_apart.hpp"

namespace bwlab::gui {
namespace {

// What an empty plot says when runs are kept but none is checked (the Table tab says the same).
const char* const kNoneChecked = "No run is checked: tick one in the Runs list";

// Centre-to-centre pixels between two drawn markers (they are 8 px wide).
constexpr double kMarkerSpacingPx = 14;

// A curve that draws only the markers thinned_markers keeps (all of them where they are apart),
// and remembers where it drew them, for tests.
class ThinnedGraph : public QCPGraph {
 public:
  using QCPGraph::QCPGraph;
  mutable QVector<QPointF> drawn;  // the markers of the last draw, in pixels

 protected:
  void drawScatterPlot(QCPPainter* painter, const QVector<QPointF>& scatters, const QCPScatterStyle& style) const override {
    QVector<QPointF> kept;
    for (int i : thinned_markers(scatters, kMarkerSpacingPx)) kept << scatters[i];
    drawn = kept;
    QCPGraph::drawScatterPlot(painter, kept, style);
  }
};

// The layer beneath "main" where curves equal to an earlier one are drawn.
constexpr const char* kTwinLayer = "twins";
// The layer above "main" of the ceilings' and marks' labels: a mark's line drawn after a ceiling's
// label ran through its text ("first point with SMT siblings: 53T" across "DRAM peak, 2 nodes").
constexpr const char* kLabelLayer = "labels";

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The words of `line` split at spaces, a number and its unit kept as one ("633.6 KiB", "140.8
// GB/s)"): a label broke "633.6" from "KiB" at a line's end.
QStringList words_of(const QString& line, Qt::SplitBehavior empty = Qt::KeepEmptyParts) {
  static const QSet<QString> units = {"B",  "KiB", "MiB", "GiB", "TiB", "KB",  "MB",   "GB", "TB",  "GB/s",
                                      "ns", "ms",  "s",   "GHz", "MT/s", "px", "MB/s", "%",  "KiB/s"};
  QStringList out;
  for (const QString& word : line.split(' ', empty)) {
    QString bare = word;
    while (!bare.isEmpty() && QString(")],;:.").contains(bare.back())) bare.chop(1);
    if (!out.isEmpty() && !out.back().isEmpty() && out.back().back().isDigit() && units.contains(bare))
      out.back() += ' ' + word;
    else
      out << word;
  }
  return out;
}

// `text` with each line broken at spaces so that none is wider than `room` pixels (a word wider
// than that stays whole).
QString wrap_to_width(const QString& text, const QFontMetrics& fm, int room) {
  QStringList out;
  for (const QString& line : text.split('\n')) {
    QString current;
    for (const QString& word : words_of(line)) {
      const QString trial = current.isEmpty() ? word : current + ' ' + word;
      if (!current.isEmpty() && fm.horizontalAdvance(trial) > room) {
        out << current;
        current = word;
      } else {
        current = trial;
      }
    }
    out << current;
  }
  return out.join('\n');
}
QColor qcolor(const std::string& hex) { return QColor(qs(hex)); }

// A curve's pen. Dashes are shorter than their gaps: two simulated curves on the same path, their
// dashes out of phase (they took other paths before), drew Qt's 4-on-2 dashes into one solid
// line, read as measured; 3 on 4 leaves a gap between them.
// "solid", "solid and dotted", "dashed and dash-dot": the lines a subtitle explains.
QString line_words(const std::set<LineStyle>& lines) {
  QStringList words;
  for (const auto& [l, w] : {std::pair{LineStyle::solid, "solid"}, {LineStyle::dashed, "dashed"},
                             {LineStyle::dotted, "dotted"}, {LineStyle::dash_dot, "dash-dot"}})
    if (lines.count(l)) words << w;
  if (words.size() > 1) words.last() = "and " + words.last();
  return words.join(words.size() > 2 ? ", " : " ");
}

QPen line_pen(const QColor& color, double width, LineStyle l) {
  QPen pen(color, width);
  switch (l) {
    case LineStyle::solid: break;
    case LineStyle::dashed: pen.setDashPattern({3.0, 4.0}); break;
    case LineStyle::dotted: pen.setStyle(Qt::DotLine); break;
    case LineStyle::dash_dot: pen.setStyle(Qt::DashDotLine); break;
  }
  return pen;
}

QCPScatterStyle::ScatterShape shape(Marker m) {
  switch (m) {
    case Marker::circle: return QCPScatterStyle::ssCircle;
    case Marker::square: return QCPScatterStyle::ssSquare;
    case Marker::triangle: return QCPScatterStyle::ssTriangle;
    case Marker::diamond: return QCPScatterStyle::ssDiamond;
    case Marker::triangle_down: return QCPScatterStyle::ssTriangleInverted;
    case Marker::cross: return QCPScatterStyle::ssCross;
    case Marker::plus: return QCPScatterStyle::ssPlus;
    case Marker::star: return QCPScatterStyle::ssStar;
    case Marker::plus_circle: return QCPScatterStyle::ssPlusCircle;
    case Marker::none: return QCPScatterStyle::ssNone;
  }
  return QCPScatterStyle::ssCircle;
}

}  // namespace

// Word-wraps each line of `text` to `width` pixels; a single word wider than that is elided.
QString wrap_text(const QString& text, const QFont& font, int width) {
  const QFontMetrics fm(font);
  QStringList out;
  for (const QString& line : text.split('\n')) {
    QString cur;
    for (const QString& word : words_of(line, Qt::SkipEmptyParts)) {
      const QString next = cur.isEmpty() ? word : cur + ' ' + word;
      if (fm.horizontalAdvance(next) <= width || cur.isEmpty()) {
        cur = next;
      } else {
        out << cur;
        cur = word;
      }
      if (fm.horizontalAdvance(cur) > width) cur = fm.elidedText(cur, Qt::ElideRight, width);
    }
    out << cur;
  }
  return out.join('\n');
}

namespace {

// Log2 ticks labelled as byte sizes (4 KiB, 1 MiB, ...).
// The subtitle's last sentence on screen; fit_layout leaves it out where room is short.
// The ring around a point its run flagged unstable or noisy (flagged_unsteady).
const QColor kFlaggedRing(228, 26, 28);
constexpr const char* kClickHint = " Click a legend entry to hide or show its curve.";
constexpr const char* kRingClickHint =
    " Hover a ring for why it is flagged (unstable, noisy); click a legend entry to hide or show its curve.";

// Sizes on a log2 axis. Its labels are wide ("128 MiB"): every power of two ran them together at
// 1024x768 with larger text ("64 MiB128 MiB256 MiB512 MiB"), so ticks are thinned to every 2nd,
// 4th, ... one until a label fits between its neighbours, by the axis's width when the ticks were
// made (the plot lays out again when that width changes: width_used).
class BytesTicker : public QCPAxisTickerLog {
 public:
  explicit BytesTicker(const QCPAxis* axis) : axis_(axis) {}
  int width_used() const { return width_used_; }

 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override { return qs(size_text(tick)); }
  QVector<double> createTickVector(double step, const QCPRange& range) override {
    QVector<double> v = QCPAxisTickerLog::createTickVector(step, range);
    width_used_ = axis_->axisRect()->width();
    if (v.size() < 3 || width_used_ <= 0 || !(range.lower > 0) || !(range.upper > range.lower)) return v;
    const QFontMetrics fm(axis_->tickLabelFont());
    int label = 0;
    for (double t : v) label = std::max(label, fm.horizontalAdvance(qs(size_text(t))));
    const double gap = width_used_ * std::log(v[1] / v[0]) / std::log(range.upper / range.lower);
    const int stride = gap > 0 ? static_cast<int>(std::ceil((label + fm.horizontalAdvance("  ")) / gap)) : 1;
    if (stride <= 1) return v;
    // Counted back from the largest size on the axis, which keeps its label (16 MiB..1 GiB gave
    // 32, 128, 512 MiB: neither end of the data labelled).
    int last = static_cast<int>(v.size()) - 1;
    while (last > 0 && v[last] > range.upper) --last;
    QVector<double> kept;
    for (int i = last % stride; i < v.size(); i += stride) kept << v[i];
    return kept;
  }

 private:
  const QCPAxis* axis_;
  int width_used_ = 0;
};

// Log2 ticks labelled as whole thread counts (1, 2, 4, ... 64); with `data` (a few thread counts,
// not all powers of two, such as 1..32, 48, 96) a tick at each of them instead: 48 and 96 had none.
// The thread counts as log-axis ticks, none closer than a factor `min_ratio` to the one before it
// (64T and 65T, the first SMT sibling, printed "6465"): of two too close, a power of two is kept,
// but never in place of the largest count.
std::vector<double> spaced_ticks(const std::set<double>& xs, double min_ratio) {
  auto pow2 = [](double x) { return x == std::exp2(std::round(std::log2(x))); };
  std::vector<double> out;
  for (double x : xs) {
    if (out.empty() || x >= out.back() * min_ratio) {
      out.push_back(x);
    } else if (pow2(x) && !pow2(out.back())) {
      out.back() = x;
    }
  }
  // The largest count is the machine full: its tick stays, in place of the one too close before it
  // (1..32, 36 on an 18-core SMT sheet: the 36T points sat after "32" with no label). Only a count
  // too close is ever left out here: the loop pushes any other.
  if (!out.empty() && out.back() != *xs.rbegin()) out.back() = *xs.rbegin();
  return out;
}

class ThreadsLogTicker : public QCPAxisTickerLog {
 public:
  // `data`: the thread counts to tick (empty: powers of two), spaced by what the axis's width holds.
  ThreadsLogTicker(std::vector<double> data, QCPAxis* axis) : data_(std::move(data)), axis_(axis) {}

 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override { return QString::number(std::llround(tick)); }
  QVector<double> createTickVector(double step, const QCPRange& range) override {
    if (data_.empty()) return QCPAxisTickerLog::createTickVector(step, range);
    std::set<double> in;
    for (double t : data_)
      if (range.contains(t)) in.insert(t);
    QVector<double> v;
    if (in.empty()) return v;
    // Two ticks stay when their labels do not meet: a factor 1.2 apart left "32" out beside "36"
    // on a 1280 px plot, where both fit with room to spare. The axis's length is the plot's width
    // less its margins (the layout is made after the ticks: the width is the one known now; the
    // viewport, which an export to a file of another size sets).
    double min_ratio = 1.2;
    const double length = axis_->parentPlot()->viewport().width() - 100;
    if (length > 50 && range.lower > 0 && range.upper > range.lower) {
      const QFontMetrics fm(axis_->tickLabelFont());
      const double label = fm.horizontalAdvance(QString::number(std::llround(*in.rbegin()))) + fm.averageCharWidth();
      min_ratio = std::exp2(label / (length / std::log2(range.upper / range.lower)));
    }
    for (double t : spaced_ticks(in, min_ratio)) v << t;
    return v;
  }

 private:
  std::vector<double> data_;
  QCPAxis* axis_;
};

// GB/s on a log10 axis ticked 1, 2, 5 x 10^k while the range spans up to three decades (QCustomPlot's
// log ticker labelled only 10 and 100 for 6..640 GB/s), every decade beyond.
class GbpsLogTicker : public QCPAxisTickerLog {
 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override {
    return tick >= 1 ? QString::number(std::llround(tick)) : QString::number(tick, 'g', 2);
  }
  QVector<double> createTickVector(double, const QCPRange& range) override {
    QVector<double> v;
    if (!(range.lower > 0) || !(range.upper > range.lower)) return v;
    const bool dense = range.upper / range.lower <= 1000;
    for (double decade = std::pow(10, std::floor(std::log10(range.lower))); decade <= range.upper; decade *= 10)
      for (double m : dense ? std::vector<double>{1, 2, 5} : std::vector<double>{1})
        if (range.contains(m * decade)) v << m * decade;
    return v;
  }
};

// A log2 size axis from lo to hi, widened to the powers of two around it when it holds fewer
// than three (one size: QCustomPlot's log ticker then falls back to linear ticks such as
// "166.89 MiB ... 381.47 MiB" that overlap): at least one power of two below and above the data.
QCPRange pow2_ticked_range(double lo, double hi) {
  if (!(lo > 0) || !(hi > lo)) return QCPRange(lo, hi);
  const double first = std::ceil(std::log2(lo)), last = std::floor(std::log2(hi));
  if (last - first >= 2) return QCPRange(lo, hi);
  return QCPRange(std::min(lo, std::exp2(std::floor(std::log2(lo)) - 1)),
                  std::max(hi, std::exp2(std::ceil(std::log2(hi)) + 1)));
}

// The legend's entries (a wrapped legend's grid also holds empty cells: itemCount() counts them).
std::vector<QCPAbstractLegendItem*> legend_items(const QCPLegend* legend) {
  std::vector<QCPAbstractLegendItem*> out;
  for (int i = 0; i < legend->itemCount(); ++i)
    if (auto* item = legend->item(i)) out.push_back(item);
  return out;
}

// The legend's last entry when it lists only some curves (fit_layout): "+7 more curves ...".
// Clicking it shows the next page of entries.
class MoreLegendItem : public QCPAbstractLegendItem {
 public:
  MoreLegendItem(QCPLegend* parent, const QString& text) : QCPAbstractLegendItem(parent), text_(text) {
    mTextColor = QColor(30, 70, 150);
  }
  const QString& text() const { return text_; }
  QSize minimumOuterSizeHint() const override {
    const QFontMetrics fm(mFont);
    return QSize(fm.horizontalAdvance(text_) + mMargins.left() + mMargins.right(),
                 fm.height() + mMargins.top() + mMargins.bottom());
  }

 protected:
  void draw(QCPPainter* painter) override {
    painter->setFont(mFont);
    painter->setPen(QPen(mTextColor));
    painter->drawText(mRect, Qt::AlignLeft | Qt::AlignVCenter, text_);
  }

 private:
  QString text_;
};

// A curve's legend entry no wider than `max_width`: a longer name is elided in its middle (its
// kernel and size first, its file's end last). QCustomPlot's entry drew the whole name and the
// legend's edge cut it mid-word, "[long-named-measureme", with nothing saying it was cut.
// Where the name does not fit, `brief` goes first: the name with its file told apart from the
// others' (told_apart: "[measured…after-the-kernel-upgrade.csv]"; the middle elision kept the
// files' shared start and cut "before" and "after").
class ElidedLegendItem : public QCPPlottableLegendItem {
 public:
  ElidedLegendItem(QCPLegend* parent, QCPAbstractPlottable* plottable, int max_width, QString brief)
      : QCPPlottableLegendItem(parent, plottable), max_width_(max_width), brief_(std::move(brief)) {}
  QSize minimumOuterSizeHint() const override {
    QSize size = QCPPlottableLegendItem::minimumOuterSizeHint();
    size.setWidth(std::min(size.width(), max_width_));
    return size;
  }
  // The name as drawn in a room `width` pixels wide.
  QString shown_name(int width) const {
    const int room = width - mMargins.left() - mMargins.right() - mParentLegend->iconSize().width() -
                     mParentLegend->iconTextPadding();
    // The brief still too long: cut at its end, after where the files part.
    const QFontMetrics fm(getFont());
    if (fm.horizontalAdvance(mPlottable->name()) <= room) return mPlottable->name();
    return fm.elidedText(brief_, brief_ == mPlottable->name() ? Qt::ElideMiddle : Qt::ElideRight, std::max(10, room));
  }

 protected:
  void draw(QCPPainter* painter) override {
    if (!mPlottable) return;
    // The base draws the icon (drawLegendIcon is the plottable's protected friend of the base) and
    // the name: it draws the elided one for the moment. setName only stores the text.
    const QString name = mPlottable->name();
    mPlottable->setName(shown_name(mOuterRect.width()));
    QCPPlottableLegendItem::draw(painter);
    mPlottable->setName(name);
  }

 private:
  int max_width_;
  QString brief_;
};

const char* kUnitsNote = "GB = 10^9 bytes";
const QColor kCeilingColor(80, 80, 80);

}  // namespace

PlotPanel::PlotPanel(PlotKind kind, QWidget* parent) : QWidget(parent), kind_(kind), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  setMinimumSize(320, 240);
  plot_->setAntialiasedElements(QCP::aeAll);
  plot_->setNoAntialiasingOnDrag(true);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->setMouseTracking(true);
  // Curves equal to an earlier one go beneath the others, or the later twin (memset, drawn last)
  // hides the kernel the legend lists first (stosb).
  plot_->addLayer(kTwinLayer, plot_->layer("main"), QCustomPlot::limBelow);
  plot_->addLayer(kLabelLayer, plot_->layer("main"), QCustomPlot::limAbove);

  const QFont base = scaled_font(10);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    axis->setLabelFont(base);
    axis->setTickLabelFont(base);
    axis->grid()->setPen(QPen(QColor(0, 0, 0, 30), 1, Qt::DotLine));
  }

  // Rows: 0 title, 1 subtitle, 2 axis rect, 3 legend (or the heat map's colour scale), all full
  // width so that nothing beside the plot squeezes it or is clipped.
  plot_->plotLayout()->insertRow(0);
  plot_->plotLayout()->insertRow(0);
  // The legend's frame is drawn on its outer edge: without a margin its left, right and bottom
  // sides fell on the image's edges and looked cut off.
  plot_->plotLayout()->setMargins(QMargins(3, 0, 3, 3));
  QFont title_font = scaled_font(12);
  title_font.setBold(true);
  title_ = new QCPTextElement(plot_, "", title_font);
  title_->setObjectName("title");
  plot_->plotLayout()->addElement(0, 0, title_);
  subtitle_ = new QCPTextElement(plot_, "", base);
  subtitle_->setTextColor(QColor(60, 60, 60));
  plot_->plotLayout()->addElement(1, 0, subtitle_);

  if (kind_ == PlotKind::heatmap) {
    scale_ = new QCPColorScale(plot_);
    scale_->setType(QCPAxis::atBottom);
    // Short enough for 1.3x text on 1280 px ("slower than alone (red) ->" ran off the right edge).
    scale_->axis()->setLabel(QString::fromUtf8("\u2190 faster (blue)     slowdown, % below the victim alone     "
                                               "slower (red) \u2192"));
    scale_->axis()->setLabelFont(base);
    scale_->setBarWidth(14);
    QCPColorGradient g;
    g.clearColorStops();
    for (int i = 0; i <= 12; ++i) g.setColorStopAt(i / 12.0, qcolor(diverging_color_hex((i - 6) / 6.0, 1.0)));
    scale_->setGradient(g);
    auto* group = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    scale_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    plot_->plotLayout()->addElement(3, 0, scale_);
    plot_->xAxis->setLabel("aggressor threads k beside the one victim thread");
    plot_->yAxis->setLabel("victim kernel");
  } else {
    plot_->legend->setVisible(true);
    plot_->legend->setFont(base);
    plot_->legend->setBorderPen(QPen(QColor(0, 0, 0, 60)));
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(3, 0, plot_->legend);
    plot_->yAxis->setLabel("GB/s (aggregate, GB = 10^9 bytes)");
    if (kind_ == PlotKind::threads) {
      plot_->xAxis->setLabel("threads (each clearing its own buffer)");
      set_threads_axis_log(false);
      plot_->xAxis->setSubTicks(false);  // threads are whole numbers
    } else {
      plot_->xAxis->setLabel("buffer per thread (bytes, log2 scale)");
      plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
      auto ticker = QSharedPointer<BytesTicker>::create(plot_->xAxis);
      ticker->setLogBase(2);
      ticker->setSubTickCount(0);
      ticker->setTickCount(8);
      plot_->xAxis->setTicker(ticker);
    }
    connect(plot_, &QCustomPlot::legendClick, this, [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
      if (dynamic_cast<MoreLegendItem*>(item)) {  // the next page of entries, then the first again
        legend_first_ += legend_listed_;
        if (legend_first_ >= static_cast<int>(graphs_.size())) legend_first_ = 0;
        fit_layout(width(), height());
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
      }
      auto* pi = qobject_cast<QCPPlottableLegendItem*>(item);
      if (!pi) return;
      for (std::size_t i = 0; i < graphs_.size(); ++i)
        if (graphs_[i] == pi->plottable()) toggle_curve(static_cast<int>(i));
    });
  }
  plot_->plotLayout()->setRowStretchFactors({0.001, 0.001, 1, 0.001});
  plot_->plotLayout()->setRowSpacing(2);
  connect(plot_, &QCustomPlot::afterLayout, this, [this] {
    // The size ticks were thinned for another width (the first layout, a resize): once more.
    if (const auto* t = dynamic_cast<const BytesTicker*>(plot_->xAxis->ticker().data());
        t && t->width_used() != plot_->axisRect()->width())
      plot_->replot(QCustomPlot::rpQueuedReplot);
    fit_y_label();
    fit_heat_labels();
    separate_labels();
  });
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) { on_mouse_move(e->pos()); });
  rebuild();
}

PlotPanel::~PlotPanel() = default;

void PlotPanel::set_per_thread(bool per_thread) {
  if (per_thread == per_thread_) return;
  per_thread_ = per_thread;
  rebuild();
}

void PlotPanel::set_log_y(bool log) {
  if (log == log_y_ || kind_ == PlotKind::heatmap) return;
  log_y_ = log;
  if (log) {
    plot_->yAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<GbpsLogTicker>::create();
    ticker->setLogBase(10);
    ticker->setSubTickCount(0);
    plot_->yAxis->setTicker(ticker);
  } else {
    plot_->yAxis->setScaleType(QCPAxis::stLinear);
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  }
  rebuild();
}

void PlotPanel::set_llc(std::uint64_t bytes, const QString& origin, const std::string& only_host, int count,
                        const std::string& only_cpu) {
  llc_bytes_ = bytes;
  llc_count_ = count;
  llc_origin_ = origin;
  llc_host_ = only_host;
  llc_cpu_ = only_cpu;
  rebuild();
}

void PlotPanel::set_ceilings(const std::vector<Ceiling>& ceilings, bool redraw) {
  if (ceilings == ceilings_) return;  // rebuilding costs a replot
  ceilings_ = ceilings;
  if (redraw) rebuild();
}

void PlotPanel::set_interactive(bool interactive) {
  interactive_ = interactive;
  rebuild();
}

void PlotPanel::set_show_baseline(bool show) {
  if (show == show_baseline_) return;
  show_baseline_ = show;
  rebuild();
}

void PlotPanel::set_datasets(const std::vector<Dataset>& datasets) {
  datasets_ = datasets;
  rebuild();
}

void PlotPanel::set_none_checked(bool none_checked) { none_checked_ = none_checked; }

void PlotPanel::set_only(std::optional<double> value) {
  if (value == only_) return;
  only_ = value;
  emit only_changed();
  rebuild();
}

void PlotPanel::set_scenario(const std::string& scenario) {
  if (scenario == scenario_) return;
  scenario_ = scenario;
  rebuild();
}

QString PlotPanel::title() const {
  return subtitle_text_.isEmpty() ? title_text_ : title_text_ + "\n" + subtitle_text_;
}

QString PlotPanel::shown_subtitle() const { return subtitle_->visible() ? subtitle_->text() : QString(); }
QRect PlotPanel::subtitle_rect() const { return subtitle_->outerRect(); }

QString PlotPanel::x_label() const { return plot_->xAxis->label(); }

void PlotPanel::set_heat_cells(const std::vector<HeatCell>& cells, const QString& subtitle) {
  cells_ = cells;
  heat_subtitle_ = subtitle;
  rebuild();
}

int PlotPanel::curve_count() const { return kind_ == PlotKind::heatmap ? 0 : static_cast<int>(series_.size()); }
int PlotPanel::data_point_count() const { return data_points_; }
int PlotPanel::flagged_count() const { return flagged_; }
int PlotPanel::band_count() const {
  // A simulated curve's extras are its band (an area, or a bar for one point): nothing else.
  int n = 0;
  for (std::size_t i = 0; i < series_.size() && bands_; ++i) n += !extras_[i].empty() && series_[i].simulated && graphs_[i]->visible() ? 1 : 0;
  return n;
}

double PlotPanel::y_axis_upper() const { return plot_->yAxis->range().upper; }

QStringList PlotPanel::legend_labels() const {
  QStringList out;
  for (auto* i : legend_items(plot_->legend))
    if (auto* item = qobject_cast<QCPPlottableLegendItem*>(i)) out << item->plottable()->name();
  return out;
}

void PlotPanel::set_title(const QString& title, const QString& subtitle, const QString& brief) {
  title_text_ = title;
  subtitle_text_ = subtitle;
  subtitle_brief_ = brief == subtitle ? QString() : brief;
  fit_layout(width(), height());
}

QString more_curves_text(int rest, int next, bool brief, bool interactive) {
  if (brief) return interactive ? QString("+%1 more: click").arg(rest) : QString("+%1 not listed").arg(rest);
  // One left: "+1 more curves: click here for the next 1" read badly.
  if (rest == 1)
    return interactive ? QString("+1 more curve: click here to list it")
                       : QString("+1 more curve not listed (a taller image lists it)");
  return interactive ? QString("+%1 more curves: click here for the next %2").arg(rest).arg(next)
                     : QString("+%1 more curves not listed (a taller image lists more)").arg(rest);
}

QString PlotPanel::more_text(int rest, int next, bool brief) const {
  return more_curves_text(rest, next, brief, interactive_);
}

QStringList PlotPanel::legend_drawn_names() const {
  QStringList out;
  for (auto* i : legend_items(plot_->legend))
    if (auto* item = dynamic_cast<ElidedLegendItem*>(i)) out << item->shown_name(item->outerRect().width());
  return out;
}

QString PlotPanel::legend_more_text() const {
  for (auto* i : legend_items(plot_->legend))
    if (auto* more = dynamic_cast<MoreLegendItem*>(i)) return more->text();
  return {};
}

QString PlotPanel::cap_lines(const QString& wrapped, const QFont& font, int width, int height) {
  // Five long file names and their notes wrapped to 11 lines at 1024x768 with 1.5x text and left the
  // axes 110 px: the subtitle keeps at most a quarter of the panel (in a file written too: a third
  // drew over the title and the axes of a 600x240 image), at least two lines, and its last line
  // says where the rest is.
  const QFontMetrics fm(font);
  QStringList lines = wrapped.split('\n');
  const int most = std::max(2, int(height * 0.25) / std::max(1, fm.lineSpacing()));
  subtitle_cut_ = lines.size() > most;
  if (!subtitle_cut_) {
    // A word wider than the panel (a long file name) was elided by wrap_text: the hover names it.
    subtitle_cut_ = wrapped.count(QChar(0x2026)) > subtitle_text_.count(QChar(0x2026)) + subtitle_brief_.count(QChar(0x2026));
    return wrapped;
  }
  const QString rest = interactive_ ? " (hover here for the rest)" : " (a taller image shows the rest)";
  const QString last = lines[most - 1] + ' ' + lines[most];  // ran on, so the elision is mid-sentence
  lines = lines.mid(0, most - 1);
  lines << fm.elidedText(last, Qt::ElideRight, std::max(40, width - fm.horizontalAdvance(rest))) + rest;
  return lines.join('\n');
}

namespace {
// The indices of `keys`, one of each key in turn (keys in order of first appearance, each key's
// indices in their order): {a, a, b, b} gives 0, 2, 1, 3.
std::vector<int> round_robin_order(const std::vector<std::string>& keys) {
  std::vector<std::string> distinct;
  std::vector<std::vector<int>> of;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto at = std::find(distinct.begin(), distinct.end(), keys[i]);
    if (at == distinct.end()) {
      distinct.push_back(keys[i]);
      of.push_back({int(i)});
    } else {
      of[std::size_t(at - distinct.begin())].push_back(int(i));
    }
  }
  std::vector<int> out;
  for (std::size_t round = 0; out.size() < keys.size(); ++round)
    for (const auto& list : of)
      if (round < list.size()) out.push_back(list[round]);
  return out;
}
}  // namespace

void PlotPanel::fit_layout(int width, int height) {
  const int avail = std::max(100, width - 24);
  title_->setText(wrap_text(title_text_, title_->font(), avail));
  // The hint goes first when the subtitle would take more than a sixth of the panel (a small
  // window, larger text): what the curves are stays, how to click them is in the Help.
  // Then, where it would still be cut (cap_lines), the brief subtitle (without the simulated
  // machines' files: the legend names them).
  const auto wrapped = [&](const QString& text) {
    QString subtitle = wrap_text(text, subtitle_->font(), avail);
    for (const char* hint : {kClickHint, kRingClickHint})
      if (text.endsWith(hint) && (subtitle.count('\n') + 1) * QFontMetrics(subtitle_->font()).lineSpacing() > height / 6)
        subtitle = wrap_text(text.chopped(int(std::char_traits<char>::length(hint))), subtitle_->font(), avail);
    return subtitle;
  };
  QString subtitle = cap_lines(wrapped(subtitle_text_), subtitle_->font(), avail, height);
  if (subtitle_cut_ && !subtitle_brief_.isEmpty()) {
    subtitle = cap_lines(wrapped(subtitle_brief_), subtitle_->font(), avail, height);
    subtitle_cut_ = true;  // drawn with less than its whole text: the hover shows it
  }
  subtitle_->setText(subtitle);
  subtitle_->setVisible(!subtitle_text_.isEmpty());
  if (kind_ == PlotKind::heatmap) return;
  // Every curve's entry first, to measure them; then only the page that fits stays.
  QCPLegend* legend = plot_->legend;
  legend->clearItems();
  legend_listed_ = 0;
  const int n = static_cast<int>(graphs_.size());
  // An empty legend's maximum width caps the layout's only column: the axes would take half the
  // panel. It leaves the layout while there is no curve and comes back with the first one.
  if (n == 0) {
    if (legend->layout()) plot_->plotLayout()->take(legend);
    return;
  }
  if (!legend->layout()) plot_->plotLayout()->addElement(3, 0, legend);
  QStringList files;
  for (const Series& s : series_)
    if (!s.dataset.empty() && !files.contains(qs(s.dataset))) files << qs(s.dataset);
  for (std::size_t i = 0; i < graphs_.size(); ++i) {
    const QString file = qs(series_[i].dataset), name = graphs_[i]->name();
    const QString brief = file.isEmpty() ? name : QString(name).replace("[" + file, "[" + told_apart(file, files));
    legend->addItem(new ElidedLegendItem(legend, graphs_[i], avail - 8, brief));
    if (!graphs_[i]->visible())
      if (auto* item = legend->itemWithPlottable(graphs_[i])) item->setTextColor(QColor(170, 170, 170));
  }
  std::vector<int> item_w(std::size_t(n), 0);  // each curve's entry
  int row_h = 0;
  for (int i = 0; i < n; ++i)
    if (const QCPLayoutElement* item = legend->itemWithPlottable(graphs_[std::size_t(i)])) {  // public there
      item_w[std::size_t(i)] = item->minimumOuterSizeHint().width();
      row_h = std::max(row_h, item->minimumOuterSizeHint().height());
    }
  const int spacing = legend->columnSpacing(), row_spacing = legend->rowSpacing();
  const QMargins m = legend->margins();
  // The most columns that lay `widths` out row by row (the legend's fill order) within the panel:
  // each column as wide as its widest entry (the widest entry of all set every column's width, so
  // one "avx512-store 1 GiB (= avx2-store)" kept a 1024 px window's legend to one column).
  const auto fit_columns = [&](const std::vector<int>& widths) {
    for (int c = int(widths.size()); c > 1; --c) {
      int total = -spacing;
      for (int col = 0; col < c; ++col) {
        int w = 0;
        for (std::size_t k = std::size_t(col); k < widths.size(); k += std::size_t(c)) w = std::max(w, widths[k]);
        total += w + spacing;
      }
      if (total <= avail - 8) return c;
    }
    return 1;
  };
  // At most a third of the panel's height (at least one row), and in a short panel (the window
  // at its minimum size) less: the axes keep at least kMinAxesShare of the height beside the
  // title, subtitle and the x axis's labels (the legend took a third of ~200 px, the wrapped
  // subtitle as much, and the axes got 30 px).
  const auto text_height = [](const QCPTextElement* t) {
    return t->visible() ? QFontMetrics(t->font()).lineSpacing() * int(t->text().count('\n') + 1) : 0;
  };
  const int beside = text_height(title_) + text_height(subtitle_) + 60;  // 60: x tick labels and label
  const int max_h = std::max(row_h + m.top() + m.bottom() + 2,
                             std::min(height / 3, height - beside - int(kMinAxesShare * height)));
  const int rows = std::max(1, (max_h - m.top() - m.bottom() - 2 + row_spacing) / std::max(1, row_h + row_spacing));
  int cols = fit_columns(item_w);
  if (n > rows * cols) {
    // A page of the curves and a "more" entry: the most curves whose entries, with it, fit the
    // rows (its sentence, or in brief where the sentence would cost curves).
    if (legend_first_ >= n) legend_first_ = 0;
    // Pages take the curves a kernel at a time in turn: a first page of 4 held the 4 stosb curves
    // and no avx512-nt one, half the comparison without an entry. Listed in the legend's order.
    std::vector<std::string> kernels;
    for (const Series& s : series_) kernels.push_back(s.kernel);
    const std::vector<int> order = round_robin_order(kernels);
    const QFontMetrics fm(legend->font());
    std::vector<bool> listed;
    bool brief = false;
    const int narrowest = *std::min_element(item_w.begin(), item_w.end());
    const int most = rows * std::max(1, (avail - 8 + spacing) / std::max(1, narrowest + spacing));
    for (int count = std::min(n - legend_first_, most); count >= 1; --count) {
      listed.assign(std::size_t(n), false);
      for (int i = legend_first_; i < legend_first_ + count; ++i) listed[std::size_t(order[std::size_t(i)])] = true;
      std::vector<int> page;
      for (int i = 0; i < n; ++i)
        if (listed[std::size_t(i)]) page.push_back(item_w[std::size_t(i)]);
      const int rest = n - count;
      bool fits = false;
      for (bool b : {false, true}) {
        std::vector<int> with_more = page;
        with_more.push_back(fm.horizontalAdvance(more_text(rest, std::min(rest, count), b)) + 2);
        const int c = fit_columns(with_more);
        if ((count + 1 + c - 1) / c <= rows) {
          cols = c, brief = b, fits = true;
          break;
        }
      }
      if (fits || count == 1) {
        legend_listed_ = count;
        brief = brief || !fits;
        break;
      }
    }
    for (int i = 0; i < n; ++i)
      if (!listed[std::size_t(i)]) graphs_[std::size_t(i)]->removeFromLegend(legend);
    const int rest = n - legend_listed_;
    legend->addItem(new MoreLegendItem(legend, more_text(rest, std::min(rest, legend_listed_), brief)));
  } else {
    legend_first_ = 0;
    legend_listed_ = n;
  }
  legend->setWrap(cols);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-flows the items, row by row
}

QFont PlotPanel::scaled_font(double points) const {
  QFont f = font();
  f.setPointSizeF(points * text_scale_);
  return f;
}

void PlotPanel::set_text_scale(double scale) {
  if (!(scale > 0) || scale == text_scale_) return;
  text_scale_ = scale;
  const QFont base = scaled_font(10);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    axis->setLabelFont(base);
    axis->setTickLabelFont(base);
  }
  QFont title_font = scaled_font(12);
  title_font.setBold(true);
  title_->setFont(title_font);
  subtitle_->setFont(base);
  if (scale_) scale_->axis()->setLabelFont(base);
  plot_->legend->setFont(base);
  rebuild();  // the labels and legend entries are made anew in the new size
}

void PlotPanel::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  fit_layout(width(), height());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool PlotPanel::color_scale_visible() const { return scale_ && scale_->visible(); }

QString PlotPanel::color_scale_caption() const { return scale_ ? scale_->axis()->label() : QString(); }

int PlotPanel::color_scale_caption_overflow() const {
  if (!scale_) return 0;
  const int text = QFontMetrics(scale_->axis()->labelFont()).horizontalAdvance(scale_->axis()->label());
  return std::max(0, text - scale_->rect().width());
}

int PlotPanel::heat_labels_shown() const {
  return int(std::count_if(heat_labels_.begin(), heat_labels_.end(), [](const QCPItemText* l) { return l->visible(); }));
}

void PlotPanel::set_heat_ticks() {
  auto xt = QSharedPointer<QCPAxisTickerText>::create();
  for (std::size_t i = 0; i < heat_counts_.size(); i += static_cast<std::size_t>(heat_tick_step_))
    xt->addTick(double(i), QString::number(heat_counts_[i]));
  plot_->xAxis->setTicker(xt);
}

QStringList PlotPanel::heat_label_texts() const {
  QStringList out;
  for (const QCPItemText* label : heat_labels_) out << label->text();
  return out;
}

void PlotPanel::fit_heat_labels() {
  if (kind_ != PlotKind::heatmap || heat_counts_.empty()) return;
  const double cell = double(plot_->axisRect()->width()) / double(heat_counts_.size());
  const QFontMetrics cell_font(scaled_font(10));
  // One decimal where it fits, else whole percents ("+27%", "(-22%)"): at 1024x768 with 1.5x text
  // a map of 7 counts showed colour only, no figure a demo audience could read. None where even
  // those do not fit (103 counts): the hover still gives each cell's figures.
  const auto widest_of = [&](const QStringList& texts) {
    int widest = 0;
    for (const QString& t : texts) widest = std::max(widest, cell_font.horizontalAdvance(t));
    return widest;
  };
  QStringList whole;
  static const QRegularExpression decimal(R"(\.\d%)");
  for (const QString& t : heat_label_full_) whole << QString(t).replace(decimal, "%");
  const QStringList& shown = cell >= widest_of(heat_label_full_) + 4 ? heat_label_full_ : whole;
  const bool room = cell >= widest_of(shown) + 4;
  for (std::size_t i = 0; i < heat_labels_.size(); ++i) {
    heat_labels_[i]->setText(shown[static_cast<qsizetype>(i)]);
    heat_labels_[i]->setVisible(room);
  }
  // The colour scale's caption, shortened to the scale's width (at 1.5x text its arrows ran off).
  if (scale_) {
    const QFontMetrics caption_font(scale_->axis()->labelFont());
    const int width = scale_->rect().width();  // the bar, under which the caption is centred
    const QStringList captions{
        QString::fromUtf8("\u2190 faster (blue)     slowdown, % below the victim alone     slower (red) \u2192"),
        QString::fromUtf8("\u2190 faster   slowdown, % below the victim alone   slower \u2192"),
        QString::fromUtf8("\u2190 faster   slowdown, % below alone   slower \u2192")};
    QString chosen = captions.back();  // the shortest, when none fits
    for (const QString& c : captions)
      if (caption_font.horizontalAdvance(c) <= width) {
        chosen = c;
        break;
      }
    scale_->axis()->setLabel(chosen);
  }
  const QFontMetrics tick_font(plot_->xAxis->tickLabelFont());
  const double widest = tick_font.horizontalAdvance(QString::number(heat_counts_.back()) + "  ");
  const int step = std::max(1, int(std::ceil(widest / std::max(1.0, cell))));
  if (step != heat_tick_step_) {  // the ticks were set up before this layout: the next replot shows them
    heat_tick_step_ = step;
    set_heat_ticks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
}

void PlotPanel::show_empty(const QString& message) {
  empty_message_ = message;
  auto* text = new QCPItemText(plot_);
  text->setPositionAlignment(Qt::AlignCenter);
  text->position->setType(QCPItemPosition::ptAxisRectRatio);
  text->position->setCoords(0.5, 0.5);
  text->setText(message);
  text->setColor(QColor(110, 110, 110));
  text->setFont(scaled_font(11));
}

void PlotPanel::toggle_curve(int curve) {
  const auto i = static_cast<std::size_t>(curve);
  if (i >= graphs_.size()) return;
  const bool show = !graphs_[i]->visible();
  graphs_[i]->setVisible(show);
  for (auto* extra : extras_[i]) extra->setVisible(show);
  const QString label = qs(series_[i].label);
  hidden_.removeAll(label);
  if (!show) hidden_ << label;
  if (series_[i].simulated && bands_wanted() != bands_) return rebuild();  // bands come back (or go)
  if (auto* item = plot_->legend->itemWithPlottable(graphs_[i])) item->setTextColor(show ? Qt::black : QColor(170, 170, 170));
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

int PlotPanel::shown_simulated_curves() const {
  int shown = 0;
  for (const auto& s : series_) shown += s.simulated && !hidden_.contains(qs(s.label)) ? 1 : 0;
  return shown;
}

bool PlotPanel::bands_wanted() const { return shown_simulated_curves() <= kMaxBandCurves; }

bool PlotPanel::curve_beneath(int curve) const {
  return curve >= 0 && curve < static_cast<int>(graphs_.size()) &&
         graphs_[static_cast<std::size_t>(curve)]->layer() == plot_->layer(kTwinLayer);
}

bool PlotPanel::curve_visible(int curve) const {
  const auto i = static_cast<std::size_t>(curve);
  return i < graphs_.size() && graphs_[i]->visible();
}

QRect PlotPanel::title_rect() const { return title_->outerRect().translated(plot_->pos()); }
QRect PlotPanel::legend_rect() const {
  return (kind_ == PlotKind::heatmap ? scale_->outerRect() : plot_->legend->outerRect()).translated(plot_->pos());
}
QRect PlotPanel::legend_item_rect(int i) const {
  const auto items = legend_items(plot_->legend);
  return i >= 0 && i < int(items.size()) ? items[std::size_t(i)]->outerRect().translated(plot_->pos()) : QRect();
}
bool PlotPanel::legend_item_fits(int i) const {
  const auto items = legend_items(plot_->legend);
  if (i < 0 || i >= int(items.size())) return false;
  const auto* item = items[std::size_t(i)];
  return item->minimumOuterSizeHint().width() <= item->outerRect().width() &&
         legend_rect().contains(legend_item_rect(i));
}
QStringList PlotPanel::x_tick_labels() const {
  QStringList out;
  for (const QString& l : plot_->xAxis->tickVectorLabels()) out << l;
  return out;
}
QStringList PlotPanel::drawn_ceilings() const { return drawn_ceilings_; }
QString PlotPanel::off_range_note() const { return off_note_; }

QColor PlotPanel::heat_color(double slowdown_pct) const {
  return qcolor(diverging_color_hex(slowdown_pct, heat_span_));
}

// Draws the ceilings (and the LLC of set_llc) that fall near the data, widening the ranges to
// hold them; names the others in a note.
void PlotPanel::draw_ceilings(double* ymax, double* xlo, double* xhi) {
  std::vector<Ceiling> all = ceilings_;
  // The machine's ceilings may hold this LLC already (a simulated machine's): one line, not two.
  const bool llc_in_ceilings = std::any_of(all.begin(), all.end(), [&](const Ceiling& c) {
    return c.axis == Ceiling::Axis::x && c.value == double(llc_bytes_);
  });
  if (kind_ == PlotKind::size && llc_bytes_ && !llc_in_ceilings &&
      (llc_host_.empty() || all_measured_on(datasets_, llc_host_, llc_cpu_))) {
    all.push_back({Ceiling::Axis::x, double(llc_bytes_),
                   "LLC " + size_text(double(llc_bytes_)) + (llc_origin_.isEmpty() ? "" : " (" + llc_origin_.toStdString() + ")")});
    // n threads' buffers meet one LLC at about LLC / n each: a 2-thread curve dropped well left of
    // the one line drawn, the full LLC. Not with several LLCs (a guest with an L3 per core: each
    // thread has its own), where placement decides. (A simulated machine's ceilings hold its LLC
    // and say "n threads, LLC/n each", per package.)
    if (only_ && *only_ > 1 && llc_count_ == 1) {
      const double share = double(llc_bytes_) / *only_;
      all.push_back({Ceiling::Axis::x, share,
                     "LLC / " + std::to_string(static_cast<int>(*only_)) + " threads " + size_text(share)});
    }
  }
  QStringList off, off_short;
  const double data_ymax = *ymax, data_xlo = *xlo, data_xhi = *xhi;
  double next_label_y = 0.03;  // labels of vertical lines, stacked from the top (axis rect ratio)
  for (const Ceiling& c : all) {
    if (c.axis == Ceiling::Axis::y) {
      if (per_thread_ || series_.empty()) continue;  // ceilings bound aggregates
      if (c.value > data_ymax * 1.6 || c.value <= 0) {
        off << QString("%1 (above)").arg(qs(c.label));
        off_short << QString("%1 (above)").arg(qs(c.short_label.empty() ? c.label : c.short_label));
        continue;
      }
      *ymax = std::max(*ymax, c.value);
      auto* line = new QCPItemStraightLine(plot_);
      line->point1->setCoords(0, c.value);
      line->point2->setCoords(1, c.value);
      line->setPen(QPen(kCeilingColor, 1.4, Qt::DashDotDotLine));
      auto* label = new QCPItemText(plot_);
      label->setLayer(kLabelLayer);
      label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
      label->position->setTypeY(QCPItemPosition::ptPlotCoords);
      label->position->setCoords(0.995, c.value);
      label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
      label->setText(qs(c.label));
      label->setColor(kCeilingColor);
      label->setBrush(QColor(255, 255, 255, 200));
      labels_.push_back({label, c.value, false, qs(c.label), false, qs(c.short_label)});
    } else {
      const bool on_this_plot = (c.axis == Ceiling::Axis::x && kind_ == PlotKind::size) ||
                                (c.axis == Ceiling::Axis::threads && kind_ == PlotKind::threads);
      if (!on_this_plot) continue;
      const bool empty = series_.empty();
      if (!empty && (c.value < data_xlo / 4 || c.value > data_xhi * 4)) {
        for (QStringList* list : {&off, &off_short})
          *list << QString("%1 (%2 of the %3)")
                       .arg(qs(list == &off || c.short_label.empty() ? c.label : c.short_label),
                            c.value < data_xlo ? "left" : "right", c.axis == Ceiling::Axis::x ? "sizes" : "thread counts");
        continue;
      }
      *xlo = std::min(*xlo, c.value / 1.3);
      *xhi = std::max(*xhi, c.value * 1.3);
      auto* line = new QCPItemStraightLine(plot_);
      line->point1->setCoords(c.value, 0);
      line->point2->setCoords(c.value, 1);
      line->setPen(c.unsure ? QPen(kCeilingColor, 1.4, Qt::DotLine) : QPen(kCeilingColor, 1.4, Qt::DashDotLine));
      auto* label = new QCPItemText(plot_);
      label->setLayer(kLabelLayer);
      label->position->setTypeX(QCPItemPosition::ptPlotCoords);
      label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
      label->position->setCoords(c.value, next_label_y);
      // LLC lines sit right of most data: their label goes left of the line; a crossover
      // (threads) goes right of its line when that is in the left half of the thread counts
      // (measured in the axis's own scale: the size axis is log2, the threads axis linear or
      // log2), else left. A long label is broken after its ": " here (by length: the axis rect is
      // laid out only on replot); separate_labels then wraps what is still wider than the room
      // beside its line, after every layout.
      const double frac =
          empty || data_xhi <= data_xlo ? 0
          : kind_ == PlotKind::size || threads_log_ ? std::log(c.value / data_xlo) / std::log(data_xhi / data_xlo)
                                        : (c.value - data_xlo) / (data_xhi - data_xlo);
      const bool label_right = c.axis == Ceiling::Axis::threads && frac <= 0.5;
      label->setPositionAlignment((label_right ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
      label->setPadding(label_right ? QMargins(5, 0, 0, 0) : QMargins(0, 0, 5, 0));
      label->setBrush(QColor(255, 255, 255, 200));
      // A long label is broken after its ": " (see above).
      const auto broken = [](QString text) {
        if (const int cut = text.indexOf(": "); cut > 0 && text.size() > 36)
          text = text.left(cut + 1) + "\n" + text.mid(cut + 2);
        return text;
      };
      const QString text = broken(qs(c.label));
      label->setTextAlignment(label_right ? Qt::AlignLeft : Qt::AlignRight);
      label->setText(text);
      labels_.push_back(
          {label, next_label_y, true, text, label_right, c.short_label.empty() ? QString() : broken(qs(c.short_label))});
      next_label_y += 0.055 * (text.count('\n') + 1) + 0.01;  // the next vertical label goes below this one
      label->setColor(kCeilingColor);
    }
    drawn_ceilings_ << qs(c.label);
  }
  off_note_ = off.isEmpty() ? QString() : "off the plot: " + off.join("; ");
  off_note_short_ = off_short.isEmpty() ? QString() : "off the plot: " + off_short.join("; ");
  off_count_ = static_cast<int>(off.size());
  if (!off_note_.isEmpty()) {
    auto* note = new QCPItemText(plot_);
    note->setLayer(kLabelLayer);
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.01, 0.01);
    note->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    note->setTextAlignment(Qt::AlignLeft);  // its lines wrap (separate_labels)
    note->setText(off_note_);
    note->setColor(kCeilingColor);
    note_ = note;
  }
}

// Runs after every layout (on screen and in exports), when the labels' pixel boxes are known. The
// ceilings' labels sit at the right end of their line, the marks' labels at the top of theirs:
// at the right edge a mark's label met a ceiling's ("first point with SMT siblings: 104T" over
// "DRAM peak, 2 nodes"), and two close ceilings' labels met. The note keeps its corner; a
// ceiling's label that meets one placed before goes under its line instead of above, or, when
// that meets one too, left along its line; a mark's label moves down below what it meets.
void PlotPanel::separate_labels() {
  const QRect area = plot_->axisRect()->rect();
  if (!note_ && labels_.empty()) {  // nothing to place: the curves' ink is not gathered
    if (!left_out_.isEmpty()) emit labels_left_out(left_out_ = {});
    return;
  }
  // The note wraps to the axes ("off the plot: DRAM peak per node ...; DRAM peak, 2 nodes ...;
  // inter-socket link ..." ran past the right edge of the demo's size plot), also when no label
  // is drawn (every ceiling off the plot: it was cut at the right edge).
  // The curves' ink (their points and the lines between them, every 3 px): a label over it hid a
  // curve ("inter-socket link ..." over movnti 16T from 128 MiB to 4 GiB).
  std::vector<QPointF> ink;
  for (std::size_t gi = 0; gi < graphs_.size(); ++gi) {
    const QCPGraph* g = graphs_[gi];
    if (!g->visible()) continue;
    std::optional<QPointF> prev;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
      const QPointF p(plot_->xAxis->coordToPixel(it->key), plot_->yAxis->coordToPixel(it->value));
      if (!std::isfinite(p.x()) || !std::isfinite(p.y())) continue;
      const int steps = prev ? std::clamp(static_cast<int>(QLineF(*prev, p).length() / 3), 1, 2000) : 1;
      for (int k = 1; k <= steps; ++k) ink.push_back(prev ? *prev + (p - *prev) * (double(k) / steps) : p);
      prev = p;
    }
    // Its min..max bars too: the note lay across a 32 MiB point's bar at 2x text.
    if (gi < extras_.size())
      for (const QCPAbstractPlottable* extra : extras_[gi])
        if (const auto* bars = dynamic_cast<const QCPErrorBars*>(extra)) {
          const auto& errors = *bars->data();
          for (int i = 0; i < std::min<int>(errors.size(), g->data()->size()); ++i) {
            const auto point = g->data()->at(i);
            const double x = plot_->xAxis->coordToPixel(point->key);
            const double lo = plot_->yAxis->coordToPixel(point->value - errors[i].errorMinus);
            const double hi = plot_->yAxis->coordToPixel(point->value + errors[i].errorPlus);
            if (!std::isfinite(x) || !std::isfinite(lo) || !std::isfinite(hi)) continue;
            const int steps = std::clamp(static_cast<int>(std::abs(hi - lo) / 3), 1, 2000);
            for (int k = 0; k <= steps; ++k) ink.push_back(QPointF(x, lo + (hi - lo) * k / steps));
          }
        }
  }
  auto covered = [&](const QRectF& r) {
    return std::count_if(ink.begin(), ink.end(), [&](const QPointF& p) { return r.contains(p); });
  };
  auto box = [](const QCPItemText* t) {
    return QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized();
  };
  if (note_) {
    // In the corner it covers least of the curves, top left first (it lay over a 2T point at the
    // top left while the bottom left was empty).
    struct Corner {
      double x, y;
      Qt::Alignment align;
    };
    const Corner corners[] = {{0.01, 0.01, Qt::AlignLeft | Qt::AlignTop},
                              {0.01, 0.99, Qt::AlignLeft | Qt::AlignBottom},
                              {0.99, 0.01, Qt::AlignRight | Qt::AlignTop},
                              {0.99, 0.99, Qt::AlignRight | Qt::AlignBottom}};
    const auto place_note = [&](const QString& text) {
      const QString wrapped = wrap_text(text, note_->font(), std::max(100, area.width() - 12));
      if (note_->text() != wrapped) note_->setText(wrapped);
      const Corner* best = nullptr;
      std::ptrdiff_t least = std::numeric_limits<std::ptrdiff_t>::max();
      for (const Corner& c : corners) {
        note_->position->setCoords(c.x, c.y);
        note_->setPositionAlignment(c.align);
        if (const auto n = covered(box(note_)); n < least) best = &c, least = n;
        if (least == 0) break;
      }
      note_->position->setCoords(best->x, best->y);
      note_->setPositionAlignment(best->align);
      return least;
    };
    // Where the whole note covers curves in every corner (a small plot, larger text: at 2x its five
    // lines lay across the demo's size plot), shorter forms: without the machine's name, then
    // the count alone; where even that covers a curve, none (hidden_labels lists it).
    const QString count =
        QString("%1 line%2 off the plot").arg(off_count_).arg(off_count_ == 1 ? "" : "s");
    note_->setVisible(true);
    const QString forms[] = {off_note_, off_note_short_, count};
    note_form_ = 3;
    for (int f = 0; f < 3; ++f)
      if ((f != 1 || forms[1] != forms[0]) && place_note(forms[f]) == 0) {
        note_form_ = f;
        break;
      }
    if (note_form_ == 3) note_->setVisible(false);
  }
  if (labels_.empty()) {  // the note alone: shortened or left out, it is announced as a label would be
    announce_left_out();
    return;
  }
  std::vector<QRectF> placed;
  if (note_ && note_->visible()) placed.push_back(box(note_));
  auto first_hit = [&](const QRectF& r) {
    const QRectF grown = r.adjusted(-2, -2, 2, 2);
    return std::find_if(placed.begin(), placed.end(), [&](const QRectF& p) { return p.intersects(grown); });
  };
  // Labels are clipped to the axes (QCustomPlot's items are): one reaching past them is cut
  // ("ocket link 62.4 GB/s" at 1.5x text).
  const QRectF inside_axes = QRectF(area).adjusted(-1, -1, 1, 1);
  // Places every ceiling's label; false when one could not be placed apart from the others and
  // inside the axes. avoid_ink: a spot that covers a curve is passed over for one that does not.
  const std::vector<QRectF> before_ceilings = placed;
  // Labels in their short form (without the machine's or run's name, which the legend gives) from
  // the start: a crossover's label (the answer the plot is for) was left out for room while the
  // ceilings and the sockets' marks kept a 41-character machine name. 0: whole labels first; 1:
  // the ceilings' short forms; 2: the marks' too.
  int shorten = 0;
  auto place_ceilings = [&](bool avoid_ink) {
    placed = before_ceilings;
    bool ok = true;
    for (PlacedLabel& l : labels_) {
      if (l.mark) continue;
      // The whole label again (an earlier layout may have shortened it), unless shortened on purpose.
      l.item->setText(shorten > 0 && !l.short_text.isEmpty() ? l.short_text : l.text);
      // Above its line at the right end, else under it, else (avoiding ink) at the left end above
      // or under it: the first spot that meets no label placed before and covers no curve (else the
      // one covering least).
      struct Spot {
        double x;
        Qt::Alignment align;
      };
      const Spot spots[] = {{0.995, Qt::AlignRight | Qt::AlignBottom},
                            {0.995, Qt::AlignRight | Qt::AlignTop},
                            {0.005, Qt::AlignLeft | Qt::AlignBottom},
                            {0.005, Qt::AlignLeft | Qt::AlignTop}};
      const Spot* best = nullptr;
      std::ptrdiff_t best_cover = std::numeric_limits<std::ptrdiff_t>::max();
      for (const Spot& s : avoid_ink ? std::span<const Spot>(spots) : std::span<const Spot>(spots, 2)) {
        l.item->position->setCoords(s.x, l.home);
        l.item->setPositionAlignment(s.align);
        const QRectF b = box(l.item);
        if (first_hit(b) != placed.end() || !inside_axes.contains(b)) continue;
        const auto c = avoid_ink ? covered(b) : 0;
        if (c < best_cover) best = &s, best_cover = c;
        if (best_cover == 0) break;
      }
      // Where every spot covers a curve (flat curves all across), the curve shows through the label.
      l.item->setBrush(QColor(255, 255, 255, avoid_ink && best_cover > 0 ? 120 : 200));
      if (best) {
        l.item->position->setCoords(best->x, l.home);
        l.item->setPositionAlignment(best->align);
      } else {
        // Slid along its line, from the right end leftwards past what it meets, else from the left
        // end rightwards, until it meets nothing and stays inside the axes.
        const QRectF bounds = inside_axes;
        auto slide = [&](bool from_right) {
          l.item->setPositionAlignment((from_right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
          l.item->position->setCoords(from_right ? 0.995 : 0.005, l.home);
          for (int guard = 0; guard < 16; ++guard) {
            const QRectF b = box(l.item);
            if (b.left() < bounds.left() || b.right() > bounds.right() + 1) return false;
            const auto hit = first_hit(b);
            if (hit == placed.end()) return true;
            l.item->position->setCoords(
                ((from_right ? hit->left() - 6 : hit->right() + 6) - area.left()) / std::max(1, area.width()), l.home);
          }
          return false;
        };
        // Shorter (without the machine's name) when the whole label finds no room.
        const bool slid = slide(true) || slide(false) ||
                          (!l.short_text.isEmpty() && (l.item->setText(l.short_text), slide(true) || slide(false)));
        if (!slid) {
          l.item->setText(l.text);
          slide(true);
          ok = false;
        }
      }
      placed.push_back(box(l.item));
    }
    return ok;
  };
  // The marks' labels below the ceilings' ones; how many of them could not be placed inside the axes.
  auto place_marks = [&](bool avoid_ink, bool scan_down) {
    int outside = 0;
    for (PlacedLabel& l : labels_) {
      if (!l.mark) continue;
      const double x = l.item->position->coords().x();
      // On one side of its line, below the labels placed before: whether it fits there (120 px of
      // room at least, the wrapped text inside the axes) and the curve ink it covers.
      struct Fit {
        bool fits;
        std::ptrdiff_t cover;
      };
      auto place = [&](bool right) -> Fit {
        l.item->setPositionAlignment((right ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
        l.item->setPadding(right ? QMargins(5, 0, 0, 0) : QMargins(0, 0, 5, 0));
        l.item->setTextAlignment(right ? Qt::AlignLeft : Qt::AlignRight);
        l.item->position->setCoords(x, l.home);
        // Wider than the room on its side of the line (a narrow window): wrapped at spaces to fit,
        // instead of running off the plot's edge.
        const double line_px = l.item->position->pixelPosition().x();
        const int room = static_cast<int>(right ? area.right() - line_px : line_px - area.left()) - 12;
        // Down from y (axis rect ratio) past every label it meets.
        auto settle = [&](double y) {
          l.item->position->setCoords(x, y);
          for (int guard = 0; guard < 64; ++guard) {
            const auto hit = first_hit(box(l.item));
            if (hit == placed.end()) break;
            l.item->position->setCoords(x, (hit->bottom() + 3 - area.top()) / std::max(1, area.height()));
          }
          const QRectF b = box(l.item);
          return b.bottom() <= area.bottom() && b.left() >= area.left() && b.right() <= area.right() + 1;
        };
        // Below the labels above its home, else in the first free room down from the top of the
        // axes; else in its short form (without the run's or machine's name, which the legend
        // gives). Larger text on a projector pushed the demo's second crossover label past the axes.
        bool inside = false;
        // Short first once a mark's label was left out with the whole ones (see `shorten`).
        for (const QString& text : shorten > 1 ? std::array{l.short_text, l.text} : std::array{l.text, l.short_text}) {
          if (inside || text.isEmpty()) continue;
          l.item->setText(wrap_to_width(text, QFontMetrics(l.item->font()), room));
          inside = settle(l.home) || settle(0);
        }
        if (!inside) {
          // Nowhere free: over the labels above rather than over the thread counts under the axes.
          const QRectF b = box(l.item);
          if (b.bottom() > area.bottom())
            l.item->position->setCoords(
                x, std::max(0.0, (area.bottom() - b.height() - area.top()) / std::max(1, area.height())));
        }
        std::ptrdiff_t cover = covered(box(l.item));
        if (inside && avoid_ink && scan_down && cover > 0) {
          // Over a curve where it settled: further down its line, in steps of a quarter of its
          // height, the free spot inside the axes that covers the least ink (the demo's "from 2T
          // the gap ..." hid the server's curve at 8T, with empty room under the curves).
          const double from = l.item->position->coords().y();
          const double step = std::max(4.0, box(l.item).height() / 4) / std::max(1, area.height());
          double best_y = from;
          for (double y = from + step; y < 1.0; y += step) {
            l.item->position->setCoords(x, y);
            const QRectF b = box(l.item);
            if (b.bottom() > area.bottom()) break;
            if (first_hit(b) != placed.end()) continue;
            if (const auto c = covered(b); c < cover) cover = c, best_y = y;
            if (cover == 0) break;
          }
          l.item->position->setCoords(x, best_y);
        }
        // Where no free spot is clear of the curves (a short plot with curves rising across the
        // label's whole width: the demo's crossovers at 1280x720 hid the 2T-4T segments), the
        // curve shows through the label, as a ceiling's does.
        l.item->setBrush(QColor(255, 255, 255, avoid_ink && cover > 0 ? 120 : 200));
        return {room >= 120 && inside, cover};
      };
      // The side draw_ceilings chose (where there is room), unless it covers a curve or runs out of
      // the axes and the other side fits and covers less.
      const Fit first = place(l.right);
      bool fits = first.fits;
      if (!first.fits || (avoid_ink && first.cover > 0)) {
        const Fit other = place(!l.right);
        if (!other.fits || (first.fits && other.cover >= first.cover)) place(l.right);
        else fits = true;
      }
      outside += fits ? 0 : 1;
      placed.push_back(box(l.item));
    }
    return outside;
  };
  // Avoiding the curves can take the spot a later label needed (two close ceilings in a small
  // plot, a ceiling's label moved left over the marks' column): then every label goes where it
  // went before, ceilings at the right end, marks on their side.
  // A mark's label moved down its line off a curve can take the room a later one needed: kept
  // only when every label still fits, else placed as before (settled under the labels above).
  const auto place_all = [&](bool avoid_ink, bool scan_down) {
    const bool ceilings_ok = place_ceilings(avoid_ink);
    return std::pair{ceilings_ok ? 0 : 1, place_marks(avoid_ink, scan_down)};
  };
  // Still over another label or cut by the axes (a small plot with large text: at 2x on 1322x800
  // the demo's labels lay over each other, unreadable): left out, the later ones first (the
  // ceilings and the sockets' marks come before the crossovers); hidden_labels() names them.
  // Whether a mark's label was left out.
  const auto lay_out = [&] {
    if (place_all(true, true) != std::pair{0, 0}) {
      const auto avoiding = place_all(true, false);
      if (avoiding != std::pair{0, 0} && place_all(false, false) >= avoiding) place_all(true, false);
    }
    std::vector<QRectF> kept;
    if (note_ && note_->visible()) kept.push_back(box(note_));
    bool mark_left_out = false;
    for (PlacedLabel& l : labels_) {
      l.item->setVisible(true);
      const QRectF b = box(l.item), inner = b.adjusted(1, 1, -1, -1);
      const bool clash = std::any_of(kept.begin(), kept.end(), [&](const QRectF& k) { return k.intersects(inner); });
      const bool off = !inside_axes.contains(b);
      l.item->setVisible(!clash && !off);
      if (!clash && !off) kept.push_back(b);
      else mark_left_out = mark_left_out || l.mark;
    }
    return mark_left_out;
  };
  const auto shortenable = [](const PlacedLabel& l) {  // a label drawn whole that has a short form
    return !l.short_text.isEmpty() && l.item->visible() && l.item->text().simplified() != l.short_text.simplified();
  };
  // A step is kept where it leaves no mark's label out, and no more labels than the whole ones did;
  // else the whole labels, as they were.
  const auto hidden_count = [&] {
    return std::count_if(labels_.begin(), labels_.end(), [](const PlacedLabel& l) { return !l.item->visible(); });
  };
  if (lay_out() && std::any_of(labels_.begin(), labels_.end(), shortenable)) {
    const auto whole = hidden_count();
    bool kept = false;
    for (int step : {1, 2}) {
      shorten = step;
      if (!lay_out() && hidden_count() <= whole) {
        kept = true;
        break;
      }
    }
    if (!kept) shorten = 0, lay_out();
  }
  announce_left_out();
}

void PlotPanel::announce_left_out() {
  if (const QStringList hidden = hidden_labels(); hidden != left_out_) {
    left_out_ = hidden;
    emit labels_left_out(hidden);
  }
}

QString PlotPanel::left_out_sentence(const QStringList& hidden, const QString& how_to_show) {
  return QString("%1 label%2 left out for room (%3 shows %4): %5")
      .arg(hidden.size())
      .arg(hidden.size() == 1 ? "" : "s", how_to_show, hidden.size() == 1 ? "it" : "them", hidden.join("; "));
}

QStringList PlotPanel::hidden_labels() const {
  QStringList out;
  if (note_ && note_form_ >= 2) out << off_note_;  // its lines not named on the plot
  for (const PlacedLabel& l : labels_)
    if (!l.item->visible()) out << l.item->text().simplified();
  return out;
}

void PlotPanel::fit_y_label() {
  if (y_label_.isEmpty()) return;
  // Longer than the axis is high (a short plot, larger text): "GB/s aggregate (GB = 10^9 bytes,
  // log10 scale)" ran into the subtitle. The unit's definition goes first (the subtitle says it
  // too); the log scale stays longest, since its ticks 5, 10, 20, 50 mislead without it:
  // "GB/s aggregate (log10)", "GB/s (log10)"; then the whole parenthesis, then all but the first word.
  const int room = plot_->axisRect()->rect().height();
  const QFontMetrics fm(plot_->yAxis->labelFont());
  QString fitted = y_label_;
  for (const QString& cut : {QString("GB = 10^9 bytes, "), QString(" (GB = 10^9 bytes)"), QString(", GB = 10^9 bytes")})
    if (fm.horizontalAdvance(fitted) > room) fitted.remove(cut);
  if (fm.horizontalAdvance(fitted) > room) fitted.replace("(log10 scale)", "(log10)");
  if (fm.horizontalAdvance(fitted) > room && fitted.endsWith("(log10)") && fitted.count(' ') > 1)
    fitted = fitted.left(fitted.indexOf(' ')) + " (log10)";
  if (fm.horizontalAdvance(fitted) > room && fitted.contains(" (")) fitted = fitted.left(fitted.indexOf(" ("));
  if (fm.horizontalAdvance(fitted) > room && fitted.contains(' ')) fitted = fitted.left(fitted.indexOf(' '));  // "GB/s"
  if (fitted != plot_->yAxis->label()) plot_->yAxis->setLabel(fitted);
}

QVector<QPointF> PlotPanel::marker_pixels(int curve) const {
  if (curve < 0 || curve >= static_cast<int>(graphs_.size())) return {};
  const auto* g = dynamic_cast<const ThinnedGraph*>(graphs_[static_cast<std::size_t>(curve)]);
  return g ? g->drawn : QVector<QPointF>{};
}

QList<bool> PlotPanel::labels_see_through() const {
  QList<bool> out;
  for (const PlacedLabel& l : labels_)
    if (l.item->visible()) out << (l.item->brush().color().alpha() < 200);
  return out;
}

QList<QRect> PlotPanel::label_rects() const {
  QList<QRect> out;
  auto box = [this](const QCPItemText* t) {
    return QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized().toAlignedRect().translated(plot_->pos());
  };
  if (note_ && note_->visible()) out << box(note_);
  for (const PlacedLabel& l : labels_)
    if (l.item->visible()) out << box(l.item);
  return out;
}

void PlotPanel::rebuild() {
  plot_->clearPlottables();
  plot_->clearItems();
  empty_message_.clear();
  heat_labels_.clear();
  heat_label_full_.clear();
  heat_counts_.clear();
  series_.clear();
  graphs_.clear();
  extras_.clear();
  drawn_ceilings_.clear();
  labels_.clear();
  note_ = nullptr;
  off_note_.clear();
  data_points_ = 0;
  flagged_ = 0;

  if (kind_ == PlotKind::heatmap) {
    const auto shown = [&](const HeatCell& c) { return c.aggressors != 0 || show_baseline_; };
    // One scale per map, symmetric around 0 so that 0% is neutral: its largest |change| (>= 10%).
    heat_span_ = 10;
    for (const auto& c : cells_)
      if (shown(c) && !c.within_spread)  // noise does not set the scale
        heat_span_ = std::max(heat_span_, std::fabs(c.slowdown_pct));
    // Cells within the spread beyond the scale are drawn at its end: said, or +43% read as the
    // scale's 10%.
    const auto beyond = std::count_if(cells_.begin(), cells_.end(),
                                      [&](const HeatCell& c) { return shown(c) && std::fabs(c.slowdown_pct) > heat_span_; });
    set_title("Victim slowdown: victim kernel x aggressor threads (k)",
              beyond == 0 ? heat_subtitle_
                          : heat_subtitle_ + QString("; %1 beyond the scale's %2%3% drawn at its end (noise does not "
                                                     "set the scale)")
                                                 .arg(beyond == 1 ? QString("1 hatched cell")
                                                                  : QString("%1 hatched cells").arg(beyond))
                                                 .arg(QString::fromUtf8("\u00b1"))
                                                 .arg(heat_span_, 0, 'f', 0));
    std::vector<std::string> victims;
    std::vector<int> counts;
    for (const auto& c : cells_) {
      if (!shown(c)) continue;  // the victim alone: 0% by definition
      if (std::find(victims.begin(), victims.end(), c.victim) == victims.end()) victims.push_back(c.victim);
      if (std::find(counts.begin(), counts.end(), c.aggressors) == counts.end()) counts.push_back(c.aggressors);
    }
    std::sort(counts.begin(), counts.end());
    heat_counts_ = counts;
    set_heat_ticks();
    auto yt = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < victims.size(); ++i) yt->addTick(double(i), qs(victims[i]));
    plot_->yAxis->setTicker(yt);
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->grid()->setVisible(false);
    scale_->setDataRange(QCPRange(-heat_span_, heat_span_));
    for (const auto& c : cells_) {
      if (!shown(c)) continue;
      const double x = double(std::find(counts.begin(), counts.end(), c.aggressors) - counts.begin());
      const double y = double(std::find(victims.begin(), victims.end(), c.victim) - victims.begin());
      const QColor fill = heat_color(c.slowdown_pct);
      auto* rect = new QCPItemRect(plot_);
      rect->topLeft->setCoords(x - 0.48, y + 0.48);
      rect->bottomRight->setCoords(x + 0.48, y - 0.48);
      // Within the run's spread: hatched in its colour on white, the figure in brackets (a solid
      // saturated cell read as a strong effect where the ranges overlapped).
      rect->setBrush(c.within_spread ? QBrush(fill, Qt::BDiagPattern) : QBrush(fill));
      rect->setPen(Qt::NoPen);
      auto* label = new QCPItemText(plot_);
      label->position->setCoords(x, y);
      const QString pct = QString::fromStdString(c.slowdown_pct >= 0.05 ? signed_pct(c.slowdown_pct) : plain_pct(c.slowdown_pct));
      label->setText((c.within_spread ? "(" + pct + ")" : pct) + (c.flagged ? " !" : ""));
      heat_label_full_ << label->text();
      label->setFont(scaled_font(10));
      label->setColor(!c.within_spread && fill.lightnessF() < 0.5 ? Qt::white : Qt::black);
      if (c.within_spread) label->setBrush(QColor(255, 255, 255, 220));
      heat_labels_.push_back(label);
      ++data_points_;
    }
    plot_->xAxis->setLabel(show_baseline_ ? "aggressor threads k beside the one victim thread (k = 0: alone)"
                                          : "aggressor threads k beside the one victim thread");
    plot_->xAxis->setRange(-0.5, std::max<double>(0.5, double(counts.size()) - 0.5));
    plot_->yAxis->setRange(-0.5, std::max<double>(0.5, double(victims.size()) - 0.5));
    // No cells: no colour scale either (it coloured nothing), and the note on two lines (on one it
    // ran from the y axis to the right edge at 1.3x text).
    scale_->setVisible(!cells_.empty());
    if (cells_.empty() && none_checked_) show_empty(kNoneChecked);
    else if (cells_.empty()) show_empty("No victim rows yet:\nrun the victim scenario, or open a CSV/JSON that holds some");
    else if (data_points_ == 0) show_empty("Only k = 0 (the victim alone, 0% by definition): no aggressor counts to show");
    plot_->replot(QCustomPlot::rpQueuedReplot);
    return;
  }

  std::vector<Series> built = build_series(datasets_, kind_, per_thread_, scenario_);
  // One size (threads plot) or thread count (size plot) only, when the box above the plot says so.
  QString only_note;
  // A curve is at the value when a point of it is: a fixed total split over the threads has a size
  // per thread count (series.hpp), and the box names sizes per thread.
  const auto at_only = [&](const Series& s) {
    return std::any_of(s.points.begin(), s.points.end(), [&](const Point& p) { return curve_filter_value(p, kind_) == *only_; });
  };
  if (only_ && curve_filter_applies(scenario_) && std::any_of(built.begin(), built.end(), at_only)) {
    const auto before = built.size();
    std::erase_if(built, [&](const Series& s) { return !at_only(s); });
    if (built.size() < before)
      only_note = QString(" Only the %1 curves drawn, %2 of %3 (the %4 box above the plot shows the rest).")
                      .arg(kind_ == PlotKind::size ? QString("%1-thread").arg(*only_, 0, 'f', 0)
                                                   : qs(format_bytes(static_cast<std::uint64_t>(*only_), " ")))
                      .arg(built.size())
                      .arg(before)
                      .arg(kind_ == PlotKind::size ? "Threads" : "Size");
    // A checked run with no curve at this value is named with the values it has: a simulated
    // server's 16 MiB and 1 GiB curves vanished beside a measured run's 256 MiB ones without a word.
    QStringList missing;
    for (const Dataset& d : datasets_) {
      std::set<double> has;
      for (const Point& p : d.points)
        if (p.scenario == scenario_) has.insert(curve_filter_value(p, kind_));
      if (has.empty() || has.count(*only_)) continue;
      QStringList values;
      for (double v : has)
        values << (kind_ == PlotKind::size ? QString("%1T").arg(v, 0, 'f', 0)
                                           : qs(format_bytes(static_cast<std::uint64_t>(v), " ")));
      if (values.size() > 4) values = values.mid(0, 2) << "..." << values.back();
      missing << QString("%1 (%2)").arg(qs(d.name), values.join(", "));
    }
    if (!missing.isEmpty())
      only_note += QString(" No curve at this %1 in %2.").arg(kind_ == PlotKind::size ? "thread count" : "size", missing.join("; "));
  }
  ThinnedSeries thinned = thin_series(std::move(built), kind_);
  series_ = std::move(thinned.series);
  thinned_note_ = qs(thinned.note);
  // Victim rows of one buffer size are a sweep of k, not of size: their size plot drew one column
  // of 32 stacked markers under a 32-entry legend. The threads plot (x = k) draws them.
  QString empty_reason;
  if (kind_ == PlotKind::size && scenario_ == "victim" && series_.size() > 1)
    if (const std::vector<std::uint64_t> one = victim_rows_of_one_size(datasets_); !one.empty()) {
      // Short lines: show_empty does not wrap, and at 1024x768 with larger text a long one was cut.
      QStringList sizes;
      for (const std::uint64_t b : one) sizes << qs(format_bytes(b, " "));
      empty_reason = QString("These victim rows hold one buffer size%1, %2:\n"
                             "a sweep of aggressor counts k, not of sizes.\n"
                             "The GB/s vs threads tab draws them against k,\n"
                             "the Victim heat map as slowdowns.")
                         .arg(one.size() > 1 ? " per file" : "", sizes.join(", "));
      series_.clear();
    }
  // Curves of one kernel side by side in the legend (kernels in the order they first appear).
  std::vector<std::string> kernel_order;
  for (const auto& s : series_)
    if (std::find(kernel_order.begin(), kernel_order.end(), s.kernel) == kernel_order.end()) kernel_order.push_back(s.kernel);
  std::stable_sort(series_.begin(), series_.end(), [&](const Series& a, const Series& b) {
    return std::find(kernel_order.begin(), kernel_order.end(), a.kernel) <
           std::find(kernel_order.begin(), kernel_order.end(), b.kernel);
  });
  note_identical_series(series_);  // after the legend order: the later of two twins names the earlier
  const int simulated_curves = shown_simulated_curves();
  bands_ = simulated_curves <= kMaxBandCurves;
  std::vector<CurveKeyForStyle> keys;
  for (const auto& s : series_) keys.push_back({s.kernel, s.variant, s.simulated, s.dataset, s.setup});
  const std::vector<CurveStyle> styles = assign_styles(keys);
  bool any_sim = false, any_measured = false, any_imported = false, any_own = false, any_band = false;
  bool any_bar = false;  // a measured point with a min..max: imported tables and single repetitions have none
  // The line styles drawn, for the subtitle: a second measured file is dotted, and "(solid)" left
  // it unexplained.
  std::set<LineStyle> measured_lines, simulated_lines;
  double ymax = 0, xmin = std::numeric_limits<double>::max(), xmax = 0;
  double ymin = std::numeric_limits<double>::max();  // the lowest positive figure drawn (log axis)
  std::set<double> xs;  // the x values of the curves shown
  for (std::size_t si = 0; si < series_.size(); ++si) {
    const Series& s = series_[si];
    const CurveStyle& st = styles[si];
    (s.simulated ? simulated_lines : measured_lines).insert(st.line);
    (s.simulated ? any_sim : any_measured) = true;
    if (!s.simulated) (s.imported ? any_imported : any_own) = true;
    if (!s.simulated)
      for (std::size_t i = 0; i < s.err_plus.size(); ++i) any_bar = any_bar || s.err_plus[i] > 0 || s.err_minus[i] > 0;
    const QColor color = qcolor(st.color_hex);
    QCPGraph* g = new ThinnedGraph(plot_->xAxis, plot_->yAxis);
    g->setName(qs(s.label));
    g->setPen(line_pen(color, 2.2, st.line));
    g->setScatterStyle(QCPScatterStyle(shape(st.marker), color, st.filled_marker ? color : QColor(Qt::white), 8));
    g->setData(QVector<double>(s.x.begin(), s.x.end()), QVector<double>(s.y.begin(), s.y.end()), true);
    if (s.twin) g->setLayer(kTwinLayer);
    graphs_.push_back(g);
    extras_.emplace_back();
    // A band needs two points to be an area: a one-point prediction shows its band as a dashed bar.
    const bool band_drawn = !s.err_minus.empty() && st.band && bands_;
    const bool band_as_bar = band_drawn && s.x.size() == 1;
    if (!s.err_minus.empty() && (!s.simulated || band_as_bar)) {
      auto* bars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
      bars->removeFromLegend();
      bars->setDataPlottable(g);
      bars->setData(QVector<double>(s.err_minus.begin(), s.err_minus.end()),
                    QVector<double>(s.err_plus.begin(), s.err_plus.end()));
      bars->setPen(QPen(color, 1.2, s.simulated ? Qt::DashLine : Qt::SolidLine));
      bars->setWhiskerWidth(8);
      extras_.back().push_back(bars);
      any_band = any_band || band_as_bar;
    }
    // Points the run flagged (unstable repetitions, disturbed windows, threads sharing a PU) are
    // ringed: a dip between two of them reads as the host, not the hardware (the log and the
    // table said so; the curve drew them like any other point).
    QVector<double> flagged_x, flagged_y;
    for (std::size_t i = 0; i < s.points.size() && i < s.x.size(); ++i)
      if (flagged_unsteady(s.points[i])) flagged_x << s.x[i], flagged_y << s.y[i];
    if (!flagged_x.isEmpty()) {
      QCPGraph* ring = plot_->addGraph();
      ring->removeFromLegend();
      ring->setLineStyle(QCPGraph::lsNone);
      ring->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kFlaggedRing, 2), Qt::NoBrush, 17));
      ring->setSelectable(QCP::stNone);
      ring->setData(flagged_x, flagged_y, true);
      extras_.back().push_back(ring);
      flagged_ += static_cast<int>(flagged_x.size());
    }
    if (band_drawn && !band_as_bar) {  // the model's uncertainty band, translucent
      QVector<double> lo, hi;
      for (std::size_t i = 0; i < s.x.size(); ++i) lo << s.y[i] - s.err_minus[i], hi << s.y[i] + s.err_plus[i];
      QCPGraph* lower = plot_->addGraph();
      QCPGraph* upper = plot_->addGraph();
      lower->setData(QVector<double>(s.x.begin(), s.x.end()), lo, true);
      upper->setData(QVector<double>(s.x.begin(), s.x.end()), hi, true);
      for (QCPGraph* b : {lower, upper}) {
        b->removeFromLegend();
        b->setPen(Qt::NoPen);
        b->setSelectable(QCP::stNone);
      }
      any_band = true;
      QColor fill = color;
      fill.setAlpha(std::max(12, 44 - 3 * simulated_curves));  // many bands: fainter, or they hide the curves
      upper->setBrush(fill);
      upper->setChannelFillGraph(lower);
      extras_.back().push_back(lower);
      extras_.back().push_back(upper);
    }
    // The axis holds what is drawn: bars and bands, not the bands hidden beyond kMaxBandCurves
    // (they stretched it to 1.7x the highest curve).
    const bool spread_drawn = !s.err_plus.empty() && (!s.simulated || band_drawn);
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      ymax = std::max(ymax, s.y[i] + (spread_drawn ? s.err_plus[i] : 0));
      if (const double low = s.y[i] - (spread_drawn ? s.err_minus[i] : 0); low > 0) ymin = std::min(ymin, low);
      else if (s.y[i] > 0) ymin = std::min(ymin, s.y[i]);
      xmin = std::min(xmin, s.x[i]);
      xmax = std::max(xmax, s.x[i]);
      if (!hidden_.contains(g->name())) xs.insert(s.x[i]);
    }
    data_points_ += static_cast<int>(s.x.size());
    if (hidden_.contains(g->name())) {
      g->setVisible(false);
      for (auto* e : extras_.back()) e->setVisible(false);
      if (auto* item = plot_->legend->itemWithPlottable(g)) item->setTextColor(QColor(170, 170, 170));
    }
  }

  // Threads from 1 to 104 on a linear axis squeeze the 1..4 thread points into the corner: a
  // range wider than kLogThreadsSpan goes on a log2 axis (ticked 1, 2, 4, ...). Not the victim
  // scenario: its k starts at 0.
  if (kind_ == PlotKind::threads) {
    // A few thread counts that are not all powers of two get a tick each (at most 12: beyond that
    // their labels would meet; a 1..256 sweep keeps the powers of two).
    const bool pow2 = std::all_of(xs.begin(), xs.end(), [](double x) { return x == std::exp2(std::round(std::log2(x))); });
    std::vector<double> ticks;
    if (xs.size() <= 12 && !pow2) ticks.assign(xs.begin(), xs.end());
    set_threads_axis_log(scenario_ != "victim" && !series_.empty() && xmin >= 1 && xmax > kLogThreadsSpan * xmin,
                         std::move(ticks));
  }

  // Simulated points have no repetitions: "median of reps" only where something was measured.
  // Measured curves say their repetitions and window when every shown point shares them: a
  // screenshot alone tells "median of 5 reps of 200 ms" (the table and the CSV say it per point).
  // Several files of other repetitions or windows (3 x 150 ms, 3 x 100 ms, 1 x 100 ms) name each
  // (up to 3): "median of reps" alone hid them, and that 1-rep points have no bars.
  std::set<std::pair<int, double>> runs_of;  // (repetitions, window ms) of the measured points shown
  bool known = true;
  for (const Series& s : series_) {
    if (s.simulated || s.imported) continue;
    for (const Point& p : s.points) {
      known = known && p.reps > 0 && p.duration_ms > 0;
      runs_of.insert({p.reps, p.duration_ms});
    }
  }
  QStringList each;
  for (const auto& [n, ms] : runs_of) each << QString("%1 rep%2 of %3 ms").arg(n).arg(n == 1 ? "" : "s").arg(ms, 0, 'g', 4);
  const bool single = runs_of.size() == 1 && runs_of.begin()->first == 1;
  const QString measured_reps =
      !known || runs_of.empty() ? QString("median of reps")
      : single                  ? each.front() + ": no spread"
      : runs_of.size() == 1     ? "median of " + each.front()
      : runs_of.size() <= 3     ? "median of " + QStringList(each.mid(0, each.size() - 1)).join(", ") + " or " + each.back() +
                                    (runs_of.begin()->first == 1 ? " (by point; 1 rep: no spread)" : " (by point)")
                                : QString("median of reps (%1 counts and windows: see the table)").arg(runs_of.size());
  // Nothing drawn (simulate mode before a run): no repetitions to speak of.
  // Imported figures alone are what their tool printed (a perf stat mean, a table's BW), not a
  // median of bwlab's repetitions.
  const QString reps = !empty_reason.isEmpty()     ? QString("nothing drawn: one buffer size")
                       : series_.empty()             ? QString("nothing drawn yet")
                       : any_sim && !any_measured ? "no repetitions"
                       : any_imported && !any_own ? "figures as their tools printed them"
                                                  : measured_reps;
  // A size plot of one thread count says which (its legend has no thread count to tell); so does a
  // threads plot of one buffer size (a 256 MiB sweep named its size only in a crossover label).
  std::set<int> thread_counts;
  std::set<std::uint64_t> sizes;
  for (const Series& s : series_)
    for (const Point& p : s.points) thread_counts.insert(p.threads), sizes.insert(p.size_bytes);
  const bool all_threads_assumed = std::all_of(series_.begin(), series_.end(), [](const Series& s) {
    return std::all_of(s.points.begin(), s.points.end(), [](const Point& p) { return threads_assumed(p); });
  });
  // A victim or mix threads plot of one size says it too (a victim plot named its size nowhere).
  const QString of_threads =
      scenario_ != "scaling" ? (kind_ == PlotKind::threads && sizes.size() == 1
                                    ? QString(" at %1 per thread").arg(qs(format_bytes(*sizes.begin(), " ")))
                                    : QString())
      : kind_ == PlotKind::size && thread_counts.size() == 1
          ? QString(" at %1 thread%2%3")
                .arg(*thread_counts.begin())
                .arg(*thread_counts.begin() == 1 ? "" : "s")
                // bwlab import's 1 for a table that gave no thread count is not a fact of the source
                .arg(all_threads_assumed ? " (assumed: the source states no thread count)" : "")
      : kind_ == PlotKind::threads && sizes.size() == 1
          ? QString(" at %1 per thread").arg(qs(format_bytes(*sizes.begin(), " ")))
          : QString();
  // What the kernels wrote, when every point wrote the same (several fills: the legend names each).
  // Zeros ran 1.9x a byte of 0xff on a Zen 4: a picture of one fill read as any fill's.
  std::set<std::string> fills;
  for (const Series& s : series_)
    for (const Point& p : s.points) fills.insert(p.fill.empty() ? "unknown" : p.fill);
  // Page-fault rows wrote no fill: the kernel's fault handler zeroes each page ("fill zero" read
  // as a choice the user made).
  const QString fill_note = scenario_ == "pagefault" ? QString(", pages zeroed by the kernel")
                            : fills.size() == 1      ? QString(", fill %1").arg(qs(*fills.begin()))
                                                     : QString();
  const QString what = scenario_ == "victim" ? QString("the victim thread's GB/s%1 (%2%3)").arg(of_threads, reps, fill_note)
                       // The median thread's rate, not aggregate / threads: on an SMT machine the
                       // median falls to a sibling's rate once half the threads share cores.
                       : per_thread_        ? QString("per-thread GB/s%1 (the median thread's; %2%3)").arg(of_threads, reps, fill_note)
                                            : QString("aggregate GB/s%1 (sum over threads, %2%3)").arg(of_threads, reps, fill_note);
  plot_->yAxis->setLabel(per_thread_ ? "GB/s per thread (GB = 10^9 bytes)" : "GB/s aggregate (GB = 10^9 bytes)");
  const QString band = any_band ? ", band: model uncertainty" : "";  // only where one is drawn
  // Which machine a prediction is of: two simulated files were told apart by file name alone.
  // With two, each with its file: "for m1 (s1.csv) and m2 (s2s.csv)".
  std::map<std::string, std::set<std::string>> machines;  // machine -> the files simulated for it
  for (const Series& s : series_)
    if (s.simulated)
      for (const Point& p : s.points)
        if (p.host.rfind("model:", 0) == 0) machines[p.host.substr(6)].insert(s.dataset);
  auto named = [](const std::pair<const std::string, std::set<std::string>>& m) {
    std::string files;
    for (const std::string& f : m.second)
      if (!f.empty()) files += (files.empty() ? "" : ", ") + f;
    return qs(m.first) + (files.empty() ? QString() : " (" + qs(files) + ")");
  };
  // Up to four, each with its files ("for 3 machines" left three files' curves unowned: the
  // legend names files, the DRAM lines machines).
  QStringList machine_names;
  for (const auto& m : machines) machine_names << named(m);
  const QString for_machines =
      machines.empty()       ? QString()
      : machines.size() == 1 ? " for " + qs(machines.begin()->first)
      : machines.size() <= 4 ? " for " + machine_names.mid(0, machine_names.size() - 1).join(", ") + " and " +
                                   machine_names.back()
                             : QString(" for %1 machines").arg(machines.size());
  // Where the subtitle has no room for them (two long machine names and their files took four
  // lines at 1024x768 with 1.5x text): counted, and on screen the hover shows the whole subtitle.
  const QString for_machines_brief =
      machines.size() < 2 || machines.size() > 4 ? for_machines
      : interactive_ ? QString(" for %1 machines (hover here for their names)").arg(machines.size())
                     : QString(" for %1 machines (a taller image names them)").arg(machines.size());
  // Where the solid curves were measured, alone or beside a prediction for a named machine: this
  // guest's curves under "simulated for cascadelake-sp-..." read as that server's measurements.
  // The CPU, else the host (the legend names the files; a title line is dear at a window's minimum
  // size). Two are both named ("on 2 hosts" named neither); three or more are counted. Measured
  // and imported curves each name their own ("measured and imported on A and B" read as A's
  // measured, B's imported, whichever way round they were).
  const auto where = [&](bool imported) {
    std::set<std::string> hosts, cpus;
    for (const Series& s : series_)
      if (!s.simulated && s.imported == imported)
        for (const Point& p : s.points) hosts.insert(p.host), cpus.insert(p.cpu_model);
    const auto named = [](const std::set<std::string>& names) {
      return std::none_of(names.begin(), names.end(), [](const std::string& n) { return n.empty(); });
    };
    const QString host_count = hosts.size() > 1 ? QString(" (%1 hosts)").arg(hosts.size()) : QString();
    if (cpus.size() == 1 && named(cpus)) return " on " + qs(*cpus.begin()) + host_count;
    if (cpus.size() == 2 && named(cpus)) return " on " + qs(*cpus.begin()) + " and " + qs(*cpus.rbegin());
    if (hosts.size() == 1 && named(hosts)) return " on " + qs(*hosts.begin());
    if (hosts.size() == 2 && named(hosts)) return " on " + qs(*hosts.begin()) + " and " + qs(*hosts.rbegin());
    return hosts.size() > 1 ? QString(" on %1 hosts").arg(hosts.size()) : QString();
  };
  const QString measured = any_imported && any_own ? "measured" + where(false) + " and imported" + where(true)
                           : any_imported          ? "imported (other tools' figures, bwlab import)" + where(true)
                                                   : "measured" + where(false);
  const auto source_for = [&](const QString& for_machines) {
    return any_sim && any_measured ? measured + " (" + line_words(measured_lines) + ") and simulated" + for_machines +
                                         " (" + line_words(simulated_lines) + band + ")"
           : any_sim               ? "simulated" + for_machines + " (model prediction" + band + ")"
                                   // A picture of measured curves alone named no machine: passed on, it
                                   // read as anyone's.
                                   : measured;
  };
  QString source = source_for(for_machines), source_brief = source_for(for_machines_brief);
  QString bars = per_thread_              ? "no error bars (the files hold no per-thread spread)"
                 : any_bar                ? "bars: min..max over reps"
                 : any_imported && !any_own ? "no error bars (the sources gave no min..max)"
                                          : "no error bars (one figure per point: no min..max over repetitions)";
  if (flagged_ > 0)
    bars += QString("; red rings: %1 flagged %2%3")
                .arg(flagged_)
                .arg(flagged_ == 1 ? "point" : "points")
                .arg(interactive_ ? "" : " (unstable or noisy: each point's flags say why)");
  if (series_.empty()) source = source_brief = empty_reason.isEmpty() ? "no points" : "victim rows of one buffer size";
  const bool threads = kind_ == PlotKind::threads;
  QString title = threads ? "Clearing bandwidth against threads" : "Clearing bandwidth against buffer size";
  QString y_label = plot_->yAxis->label();
  QString x_label = threads ? "threads (each clearing its own buffer)" : "buffer per thread (bytes, log2 scale)";
  if (scenario_ == "victim") {
    title = threads ? "Victim scenario: the victim thread's GB/s against aggressor threads"
                    : "Victim scenario: the victim thread's GB/s against buffer size";
    if (threads) x_label = "aggressor threads k beside the one victim thread (k = 0: alone)";
    y_label = "victim GB/s (one thread, GB = 10^9 bytes)";
  } else if (scenario_ == "mix") {
    title = threads ? "Mix scenario: each kernel's GB/s against its threads (the rest of the mix runs beside)"
                    : "Mix scenario: each kernel's GB/s against buffer size";
    if (threads) x_label = "threads of this kernel in the mix";
  } else if (scenario_ == "pagefault") {
    title = threads ? "Page-fault clearing: GB/s made ready against threads"
                    : "Page-fault clearing: GB/s made ready against region size";
    x_label = threads ? "threads (each faulting in its own region)" : "region each thread maps per cycle (bytes, log2 scale)";
    y_label = per_thread_ ? "GB/s made ready per thread (GB = 10^9 bytes)" : "GB/s made ready (sum, GB = 10^9 bytes)";
  } else if (scenario_ == "tlbflush") {
    // No GB/s axes under a title that says there is no GB/s (they read "GB/s aggregate" over
    // "threads (each clearing its own buffer)", empty).
    title = "TLB shootdowns (tlbflush): not a GB/s plot";
    x_label = y_label = QString();
  }
  // Curves of one working set split over the threads: each thread clears its share, not a buffer of
  // the size the box names (the axis said "each clearing its own buffer" above a subtitle saying so).
  const auto split = [](const Series& s) { return s.split_total; };
  if (threads && scenario_ == "scaling" && std::any_of(series_.begin(), series_.end(), split))
    x_label = std::all_of(series_.begin(), series_.end(), split)
                  ? "threads (each clearing its share of one working set)"
                  : "threads (each clearing its own buffer, or its share of a \"total\")";
  if (threads && threads_log_) x_label = x_label.endsWith(')') ? x_label.chopped(1) + ", log2 scale)" : x_label + " (log2 scale)";
  if (log_y_) y_label = y_label.endsWith(')') ? y_label.chopped(1) + ", log10 scale)" : y_label + " (log10 scale)";
  plot_->xAxis->setLabel(x_label);
  plot_->yAxis->setLabel(y_label);
  y_label_ = y_label;
  plot_->legend->setVisible(!series_.empty());
  // Curves of one working set split over the threads say what their "total" is (each point has its
  // own size per thread: the subtitle's "at X per thread" cannot name one).
  // Against size such rows are one point per thread count, a falling line of dots that reads as
  // "larger buffers are slower" where the thread count changes with the size.
  const QString split_total_note =
      std::any_of(series_.begin(), series_.end(), [](const Series& s) { return s.split_total; })
          ? QString(" \"total\": one working set split over the threads, each clearing total / threads bytes.")
      : kind_ == PlotKind::size && scenario_ == "scaling" && splits_a_working_set(datasets_, scenario_)
          ? QString(" Some rows split one working set over the threads, so each thread count has its own size "
                    "here (one point per curve, not a size sweep): the threads plot draws them as curves.")
          : QString();
  // A partial run (interrupted) says so on the picture: a screenshot passed on alone looked like a
  // whole sweep (only the JSON and the GUI's log said it).
  QString partial_note;
  for (const Dataset& d : datasets_)
    if (!d.partial.empty() && !series_.empty() &&
        (datasets_.size() == 1 ||  // `bwlab plot` of one file: its series name no file
         std::any_of(series_.begin(), series_.end(), [&](const Series& s) { return s.dataset == d.name; })))
      partial_note += QString(" Partial run %1: %2.").arg(qs(d.name), qs(d.partial));
  // Imported rows that stand in for a clear (kerncraft's likwid-bench update / 2: "write-allocate
  // clear proxy") drew as clearing curves under "Clearing bandwidth": said on the picture.
  const auto proxy_curves = std::count_if(series_.begin(), series_.end(), [](const Series& s) {
    return std::any_of(s.points.begin(), s.points.end(), [](const Point& p) { return clear_proxy(p); });
  });
  if (proxy_curves > 0)
    partial_note += QString(" %1 (another benchmark's figure standing in for a clear, e.g. likwid-bench update / 2: "
                            "hover a point for its source).")
                        .arg(proxy_curves == static_cast<std::ptrdiff_t>(series_.size())
                                 ? QString(series_.size() == 1 ? "The curve is a proxy, not a clearing measurement"
                                                               : "Every curve is a proxy, not a clearing measurement")
                                 : QString("%1 of the %2 curves %3")
                                       .arg(proxy_curves)
                                       .arg(series_.size())
                                       .arg(proxy_curves == 1 ? "is a proxy, not a clearing measurement"
                                                              : "are proxies, not clearing measurements"));
  const bool tlbflush_only = scenario_ == "tlbflush" && series_.empty();
  plot_->xAxis->setTickLabels(!tlbflush_only);
  plot_->yAxis->setTickLabels(!tlbflush_only);
  if (tlbflush_only)
    set_title(title, "tlbflush rows hold ns per munmap call and per read, not GB/s: the Table tab lists them "
                     "(munmap ns/call, reader ns/read, alone and cost columns), as bwlab run's tlbflush table does.");
  else {
    const QString notes =
        partial_note + only_note + (thinned.note.empty() ? QString() : " " + qs(thinned.note) + ".") + single_x_note() +
        split_total_note +
        (bands_ || per_thread_ ? QString()  // per thread: no spread, no band to hide
         : interactive_
             ? QString(" Uncertainty bands hidden: %1 simulated curves shown; hide all but %2 to see them.")
                   .arg(simulated_curves)
                   .arg(kMaxBandCurves)
             : QString(" Uncertainty bands hidden: %1 simulated curves shown (drawn for at most %2).")
                   .arg(simulated_curves)
                   .arg(kMaxBandCurves));
    const QString hint = !interactive_ || series_.empty() ? "" : flagged_ > 0 ? kRingClickHint : kClickHint;
    const auto subtitle_of = [&](const QString& source) {
      return QString("%1: %2; %3.%4%5").arg(source, what, any_measured ? bars : QString(kUnitsNote), notes, hint);
    };
    set_title(title, subtitle_of(source), subtitle_of(source_brief));
  }

  if (series_.empty()) xmin = kind_ == PlotKind::threads ? 1 : 4096, xmax = kind_ == PlotKind::threads ? 2 : double(1u << 30);
  double xlo = xmin, xhi = xmax;
  if (empty_reason.isEmpty()) draw_ceilings(&ymax, &xlo, &xhi);  // a line through the message marks nothing
  if (kind_ == PlotKind::threads && threads_log_) {
    plot_->xAxis->setRange(xmin / 1.25, xmax * 1.25);  // the same margin on both sides, in log2
  } else if (kind_ == PlotKind::threads) {
    // Up to the largest count: one count draws one tick, not an empty "2" beside it; past it by 4%
    // of the axis at least, so a marker and its bar there stay clear of the frame (a mix's part at
    // 22 threads sat on the right edge).
    const double top = std::max(1.0, xmax);
    plot_->xAxis->setRange(scenario_ == "victim" ? -0.5 : 0.5, top + std::max(0.5, 0.04 * top));
  } else {
    const QCPRange r = pow2_ticked_range(std::min(xlo, xmin / 1.6), std::max(xhi, xmax * 1.6));
    plot_->xAxis->setRange(r.lower, r.upper);
  }
  if (log_y_ && ymax > 0 && ymin <= ymax) {
    // From below the lowest point to above the highest (a 1 MiB point at 800 GB/s beside 7 GB/s at
    // one thread: on a linear axis the one-thread curves were a flat line at the bottom).
    plot_->yAxis->setRange(ymin / 1.4, ymax * 1.6);  // above: room for the top ceiling's label
  } else {
    plot_->yAxis->setRange(0, ymax > 0 ? ymax * 1.12 : 10);
  }
  if (series_.empty())
    show_empty(!empty_reason.isEmpty()   ? empty_reason
               : scenario_ == "tlbflush" ? "tlbflush rows hold ns per munmap call and per read, not GB/s: see the Table tab"
               : datasets_.empty() && none_checked_ ? kNoneChecked
               : datasets_.empty()       ? "No points yet: press Run, or open a CSV (File > Open)"
                                         : QString("No %1 rows to plot").arg(qs(scenario_)));
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotPanel::set_threads_axis_log(bool log, std::vector<double> ticks) {
  threads_log_ = log;
  if (log) {
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<ThreadsLogTicker>::create(std::move(ticks), plot_->xAxis);
    ticker->setLogBase(2);
    ticker->setSubTickCount(0);
    ticker->setTickCount(9);  // 1..256 threads: every power of two; wider: every other one
    plot_->xAxis->setTicker(ticker);
  } else {
    plot_->xAxis->setScaleType(QCPAxis::stLinear);
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot_->xAxis->setTicker(ticker);
  }
}

QStringList PlotPanel::drawing_notes() const {
  QStringList notes;
  if (!thinned_note_.isEmpty()) notes << thinned_note_;
  if (const QString one = single_x_note().trimmed(); !one.isEmpty()) notes << one;
  return notes;
}

QString PlotPanel::single_x_note() const {
  // Every point at one x (one size, or one thread count): markers in a column, no curve. The
  // other plot draws the same points as curves.
  // Said in words that fit the window and `bwlab plot` alike, and only when the other axis has
  // more than one value (one size at one thread count makes no curve anywhere).
  std::set<double> xs;
  std::set<std::uint64_t> others;
  for (const Series& s : series_) {
    xs.insert(s.x.begin(), s.x.end());
    for (const Point& p : s.points) others.insert(kind_ == PlotKind::size ? std::uint64_t(p.threads) : p.size_bytes);
  }
  if (xs.size() != 1 || series_.size() < 2 || scenario_ == "victim") return {};
  if (others.size() < 2)
    return kind_ == PlotKind::size ? " One buffer size and one thread count: a marker per curve, no line."
                                   : " One thread count and one buffer size: a marker per curve, no line.";
  return kind_ == PlotKind::size
             ? " One buffer size only: against threads (GB/s vs threads; bwlab plot --kind threads) they make curves."
             : " One thread count only: against size (GB/s vs size; bwlab plot --kind size) they make curves.";
}

QString PlotPanel::details_at(QPoint pixel) const {
  // The subtitle cut to its share of the panel (cap_lines): its whole text, wrapped to a readable width.
  if (subtitle_cut_ && subtitle_->visible() && subtitle_->outerRect().contains(pixel)) {
    // Lines of about 600 px, or the longest word's width (a file name is not elided here).
    const QFontMetrics fm(subtitle_->font());
    int width = 600;
    for (const QString& word : subtitle_text_.split(' ')) width = std::max(width, fm.horizontalAdvance(word));
    return wrap_text(subtitle_text_, subtitle_->font(), width);
  }
  if (kind_ == PlotKind::heatmap) {
    const double x = plot_->xAxis->pixelToCoord(pixel.x()), y = plot_->yAxis->pixelToCoord(pixel.y());
    auto* xt = dynamic_cast<QCPAxisTickerText*>(plot_->xAxis->ticker().data());
    auto* yt = dynamic_cast<QCPAxisTickerText*>(plot_->yAxis->ticker().data());
    if (!xt || !yt) return {};
    const QString count = xt->ticks().value(std::round(x)), victim = yt->ticks().value(std::round(y));
    for (const auto& c : cells_)
      if (qs(c.victim) == victim && QString::number(c.aggressors) == count)
        return QString("victim %1 with %2 aggressor thread%3: %4% %8 than alone (%5 GB/s, alone %6 GB/s)%7")
            .arg(victim, count, c.aggressors == 1 ? "" : "s", QString::number(std::fabs(c.slowdown_pct), 'f', 1),
                 QString::number(c.gbps, 'f', 2), QString::number(c.baseline_gbps, 'f', 2),
                 c.within_spread ? "; within the run's spread: its min..max overlaps the victim alone's" : "",
                 c.slowdown_pct < 0 ? "faster" : "slower");
    return {};
  }
  double best = 12.0;
  QString text;
  const Point* hit = nullptr;
  for (const auto& s : series_) {
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      const double dx = plot_->xAxis->coordToPixel(s.x[i]) - pixel.x();
      const double dy = plot_->yAxis->coordToPixel(s.y[i]) - pixel.y();
      const double d = std::hypot(dx, dy);
      if (d < best) {
        best = d;
        text = qs(point_details(s.points[i], s.dataset));
        hit = &s.points[i];
      }
    }
  }
  if (hit && tooltip_more_)
    if (const QString more = tooltip_more_(*hit); !more.isEmpty()) text += "\n\n" + more;
  return text;
}

QPoint PlotPanel::pixel_of(int curve, int index) const {
  const Series& s = series_.at(static_cast<std::size_t>(curve));
  const auto i = static_cast<std::size_t>(index);
  return QPoint(int(std::lround(plot_->xAxis->coordToPixel(s.x.at(i)))),
                int(std::lround(plot_->yAxis->coordToPixel(s.y.at(i)))));
}

void PlotPanel::replot_now() { plot_->replot(QCustomPlot::rpImmediateRefresh); }

void PlotPanel::on_mouse_move(QPoint pos) {
  const QString text = details_at(pos);
  if (text.isEmpty()) QToolTip::hideText();
  else QToolTip::showText(plot_->mapToGlobal(pos), text, plot_);
}

bool PlotPanel::save(const QString& path, int width, int height, QString* error) const {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != "png" && suffix != "pdf" && suffix != "svg") {
    if (error) *error = QString("cannot export '%1': use a .png, .pdf or .svg file name").arg(path);
    return false;
  }
  // Drawn in memory, then written whole beside the file and renamed over it: a full disk leaves
  // the old file (or none), never a truncated one, and the failure is reported.
  const QByteArray bytes = encode(suffix, width, height);
  if (bytes.isEmpty()) {
    if (error) *error = QString("cannot write %1: Qt could not draw the plot as %2").arg(path, suffix.toUpper());
    return false;
  }
  try {
    write_file_atomically(path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  return true;
}

QByteArray PlotPanel::encode(const QString& suffix, int width, int height) const {
  const_cast<PlotPanel*>(this)->fit_layout(width, height);  // wrap and flow for the exported size
  QByteArray bytes;
  QBuffer buffer(&bytes);
  bool ok = buffer.open(QIODevice::WriteOnly);
  if (ok && suffix == "png") {
    QImage image = plot_->toPixmap(width, height, 1.0).toImage();
    const int dots_per_meter = static_cast<int>(96 / 0.0254);  // 96 dpi, as QCustomPlot::savePng
    image.setDotsPerMeterX(dots_per_meter);
    image.setDotsPerMeterY(dots_per_meter);
    ok = !image.isNull() && image.save(&buffer, "PNG");
  } else if (ok && suffix == "pdf") {
    ok = write_pdf(&buffer, width, height);
  } else if (ok && suffix == "svg") {
    ok = write_svg(&buffer, width, height);
  } else {
    ok = false;
  }
  const_cast<PlotPanel*>(this)->fit_layout(this->width(), this->height());
  return ok ? bytes : QByteArray();
}

bool PlotPanel::write_pdf(QIODevice* device, int width, int height) const {
  // What QCustomPlot::savePdf does (one page of width x height points, no margins, vectorized,
  // non-cosmetic pens), onto a device instead of a file name.
  QPdfWriter pdf(device);
  pdf.setCreator("bwlab");
  pdf.setTitle("bwlab plot");
  pdf.setResolution(plot_->logicalDpiX());  // QPrinter::ScreenResolution: fonts sized as on screen
  QPageLayout layout(QPageSize(QSizeF(width, height), QPageSize::Point, QString(), QPageSize::ExactMatch),
                     QPageLayout::Portrait, QMarginsF(0, 0, 0, 0));
  layout.setMode(QPageLayout::FullPageMode);
  pdf.setPageLayout(layout);
  QCPPainter painter;
  if (!painter.begin(&pdf)) return false;
  painter.setMode(QCPPainter::pmVectorized);
  painter.setMode(QCPPainter::pmNonCosmetic);
  painter.setWindow(0, 0, width, height);
  plot_->toPainter(&painter, width, height);
  return painter.end();
}

bool PlotPanel::write_svg(QIODevice* device, int width, int height) const {
  QSvgGenerator svg;
  svg.setOutputDevice(device);
  svg.setResolution(96);  // CSS pixels: the document is width x height px in a browser, not 4/3 of it
  svg.setSize(QSize(width, height));
  svg.setViewBox(QRect(0, 0, width, height));
  svg.setTitle("bwlab plot");
  QCPPainter painter;
  if (!painter.begin(&svg)) return false;
  plot_->toPainter(&painter, width, height);
  return painter.end();
}

}  // namespace bwlab::gui
