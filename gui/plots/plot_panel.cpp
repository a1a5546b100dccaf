// SPDX-License-Identifier: MIT
// The only translation unit that includes qcustomplot.h (it costs ~8 s to compile).
#include "gui/plots/plot_panel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <QFile>
#include <QFileInfo>
#include <QMouseEvent>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace bwlab::gui {
namespace {

// Tableau 10: distinct, readable on white and on a projector.
const QColor kPalette[] = {QColor("#4e79a7"), QColor("#f28e2b"), QColor("#e15759"), QColor("#59a14f"),
                           QColor("#b07aa1"), QColor("#76b7b2"), QColor("#edc948"), QColor("#9c755f"),
                           QColor("#ff9da7"), QColor("#bab0ac")};
QColor series_color(int i) { return kPalette[static_cast<std::size_t>(i) % std::size(kPalette)]; }

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Log2 ticks labelled as byte sizes (4 KiB, 1 MiB, ...).
class BytesTicker : public QCPAxisTickerLog {
 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override { return qs(size_text(tick)); }
};

const char* kUnitsNote = "GB = 10^9 bytes";

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

  QFont base = font();
  base.setPointSizeF(10);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    axis->setLabelFont(base);
    axis->setTickLabelFont(base);
    axis->grid()->setPen(QPen(QColor(0, 0, 0, 30), 1, Qt::DotLine));
  }

  // Row 0: title; row 1: axis rect and, on the right, the legend (or the colour scale).
  plot_->plotLayout()->insertRow(0);
  QFont title_font = base;
  title_font.setPointSizeF(12);
  title_font.setBold(true);
  auto* title = new QCPTextElement(plot_, "", title_font);
  title->setObjectName("title");
  plot_->plotLayout()->addElement(0, 0, title);

  if (kind_ == PlotKind::heatmap) {
    auto* scale = new QCPColorScale(plot_);
    scale->setType(QCPAxis::atRight);
    scale->axis()->setLabel("slowdown (% below the victim alone)");
    scale->axis()->setLabelFont(base);
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0, QColor("#fff5eb"));
    g.setColorStopAt(0.5, QColor("#fd8d3c"));
    g.setColorStopAt(1, QColor("#7f2704"));
    scale->setGradient(g);
    auto* group = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    plot_->plotLayout()->addElement(1, 1, scale);
    plot_->xAxis->setLabel("aggressor threads k beside the one victim thread (k = 0: alone)");
    plot_->yAxis->setLabel("victim kernel");
  } else {
    plot_->legend->setVisible(true);
    plot_->legend->setFont(base);
    plot_->legend->setBorderPen(QPen(QColor(0, 0, 0, 60)));
    auto* side = new QCPLayoutGrid;
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    side->addElement(0, 0, plot_->legend);
    side->addElement(1, 0, new QCPLayoutElement(plot_));
    side->setRowStretchFactors({0.01, 1});
    plot_->plotLayout()->addElement(1, 1, side);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.01);
    plot_->yAxis->setLabel("GB/s (aggregate, GB = 10^9 bytes)");
    if (kind_ == PlotKind::threads) {
      plot_->xAxis->setLabel("threads (each clearing its own buffer)");
      auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
      ticker->setTickStep(1);
      ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
      plot_->xAxis->setTicker(ticker);
      plot_->xAxis->setSubTicks(false);  // threads are whole numbers
    } else {
      plot_->xAxis->setLabel("buffer per thread (bytes, log2 scale)");
      plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
      auto ticker = QSharedPointer<BytesTicker>::create();
      ticker->setLogBase(2);
      ticker->setSubTickCount(0);
      ticker->setTickCount(8);
      plot_->xAxis->setTicker(ticker);
    }
  }
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) { on_mouse_move(e->pos()); });
  rebuild();
}

PlotPanel::~PlotPanel() = default;

void PlotPanel::set_per_thread(bool per_thread) {
  if (per_thread == per_thread_) return;
  per_thread_ = per_thread;
  rebuild();
}

void PlotPanel::set_llc(std::uint64_t bytes, const QString& origin) {
  llc_bytes_ = bytes;
  llc_origin_ = origin;
  rebuild();
}

void PlotPanel::set_datasets(const std::vector<Dataset>& datasets) {
  datasets_ = datasets;
  rebuild();
}

void PlotPanel::set_scenario(const std::string& scenario) {
  if (scenario == scenario_) return;
  scenario_ = scenario;
  rebuild();
}

QString PlotPanel::title() const {
  auto* t = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0));
  return t ? t->text() : QString();
}

void PlotPanel::set_heat_cells(const std::vector<HeatCell>& cells, const QString& subtitle) {
  cells_ = cells;
  heat_subtitle_ = subtitle;
  rebuild();
}

int PlotPanel::curve_count() const { return kind_ == PlotKind::heatmap ? 0 : static_cast<int>(series_.size()); }
int PlotPanel::data_point_count() const { return data_points_; }

QStringList PlotPanel::legend_labels() const {
  QStringList out;
  for (int i = 0; i < plot_->legend->itemCount(); ++i)
    if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot_->legend->item(i))) out << item->plottable()->name();
  return out;
}

void PlotPanel::set_title(const QString& title, const QString& subtitle) {
  auto* t = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0));
  if (t) t->setText(subtitle.isEmpty() ? title : title + "\n" + subtitle);
}

void PlotPanel::show_empty(const QString& message) {
  auto* text = new QCPItemText(plot_);
  text->setPositionAlignment(Qt::AlignCenter);
  text->position->setType(QCPItemPosition::ptAxisRectRatio);
  text->position->setCoords(0.5, 0.5);
  text->setText(message);
  text->setColor(QColor(110, 110, 110));
  QFont f = font();
  f.setPointSizeF(11);
  text->setFont(f);
}

void PlotPanel::rebuild() {
  plot_->clearPlottables();
  plot_->clearItems();
  series_.clear();
  data_points_ = 0;

  if (kind_ == PlotKind::heatmap) {
    set_title("Victim slowdown: victim kernel x aggressor threads (k)", heat_subtitle_);
    std::vector<std::string> victims;
    std::vector<int> counts;
    for (const auto& c : cells_) {
      if (std::find(victims.begin(), victims.end(), c.victim) == victims.end()) victims.push_back(c.victim);
      if (std::find(counts.begin(), counts.end(), c.aggressors) == counts.end()) counts.push_back(c.aggressors);
    }
    std::sort(counts.begin(), counts.end());
    auto xt = QSharedPointer<QCPAxisTickerText>::create();
    auto yt = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < counts.size(); ++i) xt->addTick(double(i), QString::number(counts[i]));
    for (std::size_t i = 0; i < victims.size(); ++i) yt->addTick(double(i), qs(victims[i]));
    plot_->xAxis->setTicker(xt);
    plot_->yAxis->setTicker(yt);
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->grid()->setVisible(false);
    auto* scale = qobject_cast<QCPColorScale*>(plot_->plotLayout()->element(1, 1));
    double hi = 50;  // % slower than alone, from 0 (white); faster than alone (< 0) is white too
    for (const auto& c : cells_) hi = std::max(hi, c.slowdown_pct);
    const QCPRange range(0, hi);
    if (scale) scale->setDataRange(range);
    for (const auto& c : cells_) {
      const double x = double(std::find(counts.begin(), counts.end(), c.aggressors) - counts.begin());
      const double y = double(std::find(victims.begin(), victims.end(), c.victim) - victims.begin());
      const QColor fill = QColor::fromRgb(scale ? scale->gradient().color(std::max(0.0, c.slowdown_pct), range) : 0xffaa00);
      auto* rect = new QCPItemRect(plot_);
      rect->topLeft->setCoords(x - 0.48, y + 0.48);
      rect->bottomRight->setCoords(x + 0.48, y - 0.48);
      rect->setBrush(fill);
      rect->setPen(Qt::NoPen);
      auto* label = new QCPItemText(plot_);
      label->position->setCoords(x, y);
      label->setText(QString::number(c.slowdown_pct, 'f', 1) + "%");
      label->setFont(QFont(font().family(), 10));
      label->setColor(fill.lightnessF() < 0.5 ? Qt::white : Qt::black);
      ++data_points_;
    }
    plot_->xAxis->setRange(-0.5, std::max<double>(0.5, double(counts.size()) - 0.5));
    plot_->yAxis->setRange(-0.5, std::max<double>(0.5, double(victims.size()) - 0.5));
    if (cells_.empty()) show_empty("No victim rows yet: run the victim scenario, or open a CSV/JSON that holds some");
    plot_->replot(QCustomPlot::rpQueuedReplot);
    return;
  }

  series_ = build_series(datasets_, kind_, per_thread_, scenario_);
  bool any_sim = false, any_measured = false, any_imported = false, any_own = false;
  double ymax = 0, xmin = std::numeric_limits<double>::max(), xmax = 0;
  for (const auto& s : series_) {
    (s.simulated ? any_sim : any_measured) = true;
    if (!s.simulated) (s.imported ? any_imported : any_own) = true;
    const QColor color = series_color(s.color_index);
    QCPGraph* g = plot_->addGraph();
    g->setName(qs(s.label));
    QPen pen(color, 2.2, s.simulated ? Qt::DashLine : Qt::SolidLine);
    g->setPen(pen);
    g->setScatterStyle(s.simulated ? QCPScatterStyle(QCPScatterStyle::ssDiamond, color, Qt::white, 8)
                                   : QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, 7));
    g->setData(QVector<double>(s.x.begin(), s.x.end()), QVector<double>(s.y.begin(), s.y.end()), true);
    if (!s.err_minus.empty() && !s.simulated) {
      auto* bars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
      bars->removeFromLegend();
      bars->setDataPlottable(g);
      bars->setData(QVector<double>(s.err_minus.begin(), s.err_minus.end()),
                    QVector<double>(s.err_plus.begin(), s.err_plus.end()));
      bars->setPen(QPen(color, 1.2));
      bars->setWhiskerWidth(8);
    }
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      ymax = std::max(ymax, s.y[i] + (s.err_plus.empty() ? 0 : s.err_plus[i]));
      xmin = std::min(xmin, s.x[i]);
      xmax = std::max(xmax, s.x[i]);
    }
    data_points_ += static_cast<int>(s.x.size());
  }

  const QString what = scenario_ == "victim" ? "the victim thread's GB/s (median of reps)"
                       : per_thread_        ? "per-thread GB/s (median of reps)"
                                            : "aggregate GB/s (sum over threads, median of reps)";
  plot_->yAxis->setLabel(per_thread_ ? "GB/s per thread (GB = 10^9 bytes)" : "GB/s aggregate (GB = 10^9 bytes)");
  const QString measured = any_imported && any_own ? "measured and imported"
                           : any_imported          ? "imported (other tools' figures, bwlab import)"
                                                   : "measured";
  QString source = any_sim && any_measured ? measured + " (solid) and simulated (dashed)"
                   : any_sim               ? "simulated (model prediction)"
                                           : measured;
  QString bars = per_thread_ ? "no error bars (the files hold no per-thread spread)" : "bars: min..max over reps";
  if (series_.empty()) source = "no points";
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
    if (!threads) x_label = "region each thread maps per cycle (bytes, log2 scale)";
    y_label = per_thread_ ? "GB/s made ready per thread (GB = 10^9 bytes)" : "GB/s made ready (sum, GB = 10^9 bytes)";
  } else if (scenario_ == "tlbflush") {
    title = "TLB shootdowns (tlbflush): not a GB/s plot";
  }
  plot_->xAxis->setLabel(x_label);
  plot_->yAxis->setLabel(y_label);
  // Two short lines rather than one long one: a title wider than the plot squeezes the legend off.
  set_title(title, QString("%1: %2\n%3").arg(source, what, any_measured ? bars : QString(kUnitsNote)));

  if (kind_ == PlotKind::threads) {
    plot_->xAxis->setRange(0.5, std::max(2.0, xmax) + 0.5);
  } else {
    if (series_.empty()) xmin = 4096, xmax = 1u << 30;
    double lo = xmin, hi = xmax;
    if (llc_bytes_) lo = std::min(lo, double(llc_bytes_)), hi = std::max(hi, double(llc_bytes_));
    plot_->xAxis->setRange(lo / 1.6, hi * 1.6);
    if (llc_bytes_) {
      auto* line = new QCPItemStraightLine(plot_);
      line->point1->setCoords(double(llc_bytes_), 0);
      line->point2->setCoords(double(llc_bytes_), 1);
      line->setPen(QPen(QColor(90, 90, 90), 1.5, Qt::DashDotLine));
      auto* label = new QCPItemText(plot_);
      label->position->setTypeX(QCPItemPosition::ptPlotCoords);
      label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
      label->position->setCoords(double(llc_bytes_), 0.03);
      label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
      label->setPadding(QMargins(0, 0, 5, 0));
      label->setText(QString("LLC %1%2").arg(qs(size_text(double(llc_bytes_))),
                                              llc_origin_.isEmpty() ? QString() : " (" + llc_origin_ + ")"));
      label->setColor(QColor(70, 70, 70));
    }
  }
  plot_->yAxis->setRange(0, ymax > 0 ? ymax * 1.12 : 10);
  if (kind_ == PlotKind::threads && scenario_ == "victim") plot_->xAxis->setRange(-0.5, std::max(1.0, xmax) + 0.5);
  if (series_.empty())
    show_empty(scenario_ == "tlbflush" ? "tlbflush rows hold ns per munmap call and per read, not GB/s: see the Table tab"
               : datasets_.empty()     ? "No points yet: press Run, or open a CSV (File > Open)"
                                       : QString("No %1 rows to plot").arg(qs(scenario_)));
  plot_->legend->setVisible(!series_.empty());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString PlotPanel::details_at(QPoint pixel) const {
  if (kind_ == PlotKind::heatmap) {
    const double x = plot_->xAxis->pixelToCoord(pixel.x()), y = plot_->yAxis->pixelToCoord(pixel.y());
    auto* xt = dynamic_cast<QCPAxisTickerText*>(plot_->xAxis->ticker().data());
    auto* yt = dynamic_cast<QCPAxisTickerText*>(plot_->yAxis->ticker().data());
    if (!xt || !yt) return {};
    const QString count = xt->ticks().value(std::round(x)), victim = yt->ticks().value(std::round(y));
    for (const auto& c : cells_)
      if (qs(c.victim) == victim && QString::number(c.aggressors) == count)
        return QString("victim %1 with %2 aggressor thread%3: %4% slower than alone (%5 GB/s, alone %6 GB/s)")
            .arg(victim, count, c.aggressors == 1 ? "" : "s", QString::number(c.slowdown_pct, 'f', 1),
                 QString::number(c.gbps, 'f', 2), QString::number(c.baseline_gbps, 'f', 2));
    return {};
  }
  double best = 12.0;
  QString text;
  for (const auto& s : series_) {
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      const double dx = plot_->xAxis->coordToPixel(s.x[i]) - pixel.x();
      const double dy = plot_->yAxis->coordToPixel(s.y[i]) - pixel.y();
      const double d = std::hypot(dx, dy);
      if (d < best) {
        best = d;
        text = qs(point_details(s.points[i], s.dataset));
      }
    }
  }
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
  bool ok = false;
  if (suffix == "png") {
    ok = plot_->savePng(path, width, height, 1.0, -1, 96);
  } else if (suffix == "pdf") {
    ok = plot_->savePdf(path, width, height, QCP::epNoCosmetic, "bwlab", "bwlab plot");
  } else if (suffix == "svg") {
    QFile file(path);
    ok = file.open(QIODevice::WriteOnly) && write_svg(&file, width, height);
  } else {
    if (error) *error = QString("cannot export '%1': use a .png, .pdf or .svg file name").arg(path);
    return false;
  }
  if (ok) ok = QFileInfo(path).size() > 0;
  if (!ok && error) *error = QString("cannot write %1").arg(path);
  return ok;
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
