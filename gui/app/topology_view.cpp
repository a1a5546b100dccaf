// SPDX-License-Identifier: MIT
#include "gui/app/topology_view.hpp"

#include <QFontMetricsF>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <cmath>
#include <functional>

#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolButton>
#include <QWheelEvent>

#include "gui/plots/series.hpp"

namespace bwlab::gui {
namespace {

constexpr double kPuW = 62, kPuH = 40, kPad = 4, kHeader = 16, kLegendH = 44, kMaxScale = 1.6;
// A machine title longer than this (drawing units, ~55 characters) wraps: as one line it set the
// box's width, and the whole drawing shrank to fit it (7 px labels under a two-file title).
constexpr double kTitleWrapW = 360;

bool grid_parent(const TopoNode& n) {
  return !n.children.empty() && n.kind != TopoNode::Kind::core &&
         (n.children.front().kind == TopoNode::Kind::core || n.children.front().kind == TopoNode::Kind::pu);
}

}  // namespace

// Natural size of a node's box under a layout: cores and PUs in a grid of `cols` columns, a
// core's PUs side by side (or stacked), bigger boxes side by side (the machine's children
// stacked when stack_top).
struct TopologyView::Geometry {
  int cols;
  bool stack_top, stack_pus;
  double title_w = 0;  // the machine box is at least this wide: its label (the title), on one line or wrapped
  // The title's height wrapped at a text width (empty: one line). The title is never cut: it takes
  // as many lines as it needs at the box's width.
  std::function<double(double)> title_h;

  // The header of a box `box_w` wide: the machine's holds its wrapped title.
  double header(const TopoNode& n, double box_w) const {
    if (n.kind != TopoNode::Kind::machine || !title_h) return kHeader;
    return std::max(kHeader, title_h(box_w - 2 * kPad - 4) + 3);
  }

  QSizeF measure(const TopoNode& n) const {
    if (n.kind == TopoNode::Kind::machine) {
      QSizeF s = measure_children(n);
      s.setWidth(std::max(s.width(), title_w));
      s.setHeight(s.height() - kHeader + header(n, s.width()));
      return s;
    }
    return measure_children(n);
  }

  QSizeF measure_children(const TopoNode& n) const {
    if (n.kind == TopoNode::Kind::pu) return {kPuW, kPuH};
    if (n.children.empty()) return {kPuW + 2 * kPad, kHeader + 2 * kPad};
    const int count = static_cast<int>(n.children.size());
    double cw = 0, ch = 0, w = 0, h = 0;
    const bool stack = (n.kind == TopoNode::Kind::machine && stack_top) || (n.kind == TopoNode::Kind::core && stack_pus);
    for (const auto& c : n.children) {
      const QSizeF s = measure(c);
      cw = std::max(cw, s.width()), ch = std::max(ch, s.height());
      if (stack) w = std::max(w, s.width()), h += s.height() + kPad;
      else w += s.width() + kPad, h = std::max(h, s.height());
    }
    if (grid_parent(n)) {
      const int c = std::min(count, cols);
      const int rows = (count + c - 1) / c;
      return {c * (cw + kPad) + kPad, rows * (ch + kPad) + kPad + kHeader};
    }
    if (stack) return {w + 2 * kPad, h + kPad + kHeader};
    return {w + kPad, h + 2 * kPad + kHeader};
  }

  // Calls f(node, rect) for every node, parents first.
  void place(const TopoNode& n, QPointF at, const std::function<void(const TopoNode&, const QRectF&)>& f) const {
    const QSizeF size = measure(n);
    f(n, QRectF(at, size));
    if (n.children.empty()) return;
    const double head = header(n, size.width());
    if (grid_parent(n)) {
      const QSizeF c = measure(n.children.front());
      const int cs = std::min<int>(static_cast<int>(n.children.size()), cols);
      for (std::size_t i = 0; i < n.children.size(); ++i) {
        const int row = static_cast<int>(i) / cs, col = static_cast<int>(i) % cs;
        place(n.children[i], at + QPointF(kPad + col * (c.width() + kPad), head + kPad + row * (c.height() + kPad)), f);
      }
      return;
    }
    const bool stack = (n.kind == TopoNode::Kind::machine && stack_top) || (n.kind == TopoNode::Kind::core && stack_pus);
    double off = stack ? head + kPad : kPad;
    for (const auto& c : n.children) {
      place(c, at + (stack ? QPointF(kPad, off) : QPointF(off, head + kPad)), f);
      off += (stack ? measure(c).height() : measure(c).width()) + kPad;
    }
  }
};

namespace {

QColor box_fill(TopoNode::Kind k) {
  switch (k) {
    case TopoNode::Kind::machine: return QColor("#f4f4f4");
    case TopoNode::Kind::package: return QColor("#e3e8ef");
    case TopoNode::Kind::numa: return QColor("#e2efdf");
    case TopoNode::Kind::llc: return QColor("#dde9f6");
    case TopoNode::Kind::core: return QColor("#fbfbfb");
    case TopoNode::Kind::pu: return QColor("#d9d9d9");
  }
  return Qt::white;
}

// White -> blue -> dark purple, by the fraction of the highest value.
QColor heat(double f) {
  f = std::clamp(f, 0.0, 1.0);
  const QColor a("#deebf7"), b("#3182bd"), c("#3f007d");
  auto mix = [](QColor x, QColor y, double t) {
    return QColor::fromRgbF(x.redF() + (y.redF() - x.redF()) * t, x.greenF() + (y.greenF() - x.greenF()) * t,
                            x.blueF() + (y.blueF() - x.blueF()) * t);
  };
  return f < 0.6 ? mix(a, b, f / 0.6) : mix(b, c, (f - 0.6) / 0.4);
}

const QColor kVictim("#b2182b"), kAggressor("#e69f00");
// The frames of a mix's parts, and their names in the legend: none of them the heat scale's blues
// nor the idle PUs' grey (a "grey" part read as idle). Beyond 8 parts they repeat, and the legend says so.
const std::array<std::pair<QColor, const char*>, 8> kParts{{{QColor("#1b9e77"), "(green)"},
                                                            {QColor("#d95f02"), "(orange)"},
                                                            {QColor("#e7298a"), "(magenta)"},
                                                            {QColor("#a6761d"), "(brown)"},
                                                            {QColor("#66a61e"), "(lime)"},
                                                            {QColor("#e6ab02"), "(yellow)"},
                                                            {QColor("#17becf"), "(cyan)"},
                                                            {QColor("#000000"), "(black)"}}};

}  // namespace

TopologyView::TopologyView(QWidget* parent) : QWidget(parent), fit_button_(new QToolButton(this)) {
  setMinimumSize(320, 200);
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, Qt::white);
  setPalette(pal);
  fit_button_->setText("Fit");
  fit_button_->setObjectName("topology_fit");
  fit_button_->setToolTip("fit the whole topology (Ctrl+wheel zooms, drag pans)");
  connect(fit_button_, &QToolButton::clicked, this, &TopologyView::fit);
}

void TopologyView::set_tree(const TopoNode& tree) {
  tree_ = tree;
  values_.clear();
  roles_.clear();
  parts_.clear();
  caption_.clear();
  choose_layout();
  fit();
}

void TopologyView::set_pu_values(const std::map<int, double>& gbps, const QString& caption, double scale_max) {
  values_ = gbps;
  caption_ = caption;
  scale_max_ = scale_max;
  if (gbps.empty()) roles_.clear(), parts_.clear();
  relayout();
  update();
}

void TopologyView::show_again(const Shown& s) {
  set_tree(s.tree);
  values_ = s.values, roles_ = s.roles, parts_ = s.parts, caption_ = s.caption, scale_max_ = s.scale_max;
  relayout();
  update();
}

void TopologyView::set_pu_roles(const std::map<int, Role>& roles) {
  roles_ = roles;
  relayout();
  update();
}

std::vector<Point> last_point_group(const std::vector<Point>& points) {
  if (points.empty()) return {};
  const Point& last = points.back();
  std::size_t first = points.size() - 1;
  if (last.scenario == "mix") {
    std::set<std::string> kernels{last.kernel};
    while (first > 0) {
      const Point& q = points[first - 1];
      if (q.scenario != "mix" || q.size_bytes != last.size_bytes || q.fill != last.fill ||
          q.source != last.source || !kernels.insert(q.kernel).second)
        break;
      --first;
    }
  }
  return {points.begin() + static_cast<std::ptrdiff_t>(first), points.end()};
}

double max_thread_gbps(const std::vector<Point>& points, double at_least) {
  for (const Point& p : points) {
    at_least = std::max(at_least, p.gbps_per_thread_median);
    for (const auto& t : p.per_thread) at_least = std::max(at_least, t.gbps_median);
  }
  return at_least;
}

std::string kernels_run(const Point& p) {
  if (p.scenario != "victim" || p.peer_threads <= 0) return p.kernel;
  return "victim " + p.kernel + " + " + std::to_string(p.peer_threads) + " aggressor" + (p.peer_threads == 1 ? "" : "s") +
         " " + p.peer_kernel;
}

double TopologyView::show_point(const Point& p, double scale_max, const QString& scale_note) {
  return show_points({p}, scale_max, scale_note);
}

double TopologyView::show_points(const std::vector<Point>& group, double scale_max, const QString& scale_note) {
  std::map<int, double> gbps;
  std::map<int, Role> roles;
  std::map<int, int> part_of;
  QStringList parts;
  int threads = 0;
  for (std::size_t k = 0; k < group.size(); ++k) {
    const Point& p = group[k];
    std::vector<int> order;  // PUs by thread slot
    if (!p.per_thread.empty()) {
      for (const auto& t : p.per_thread) {
        const int pu = t.pu_observed >= 0 ? t.pu_observed : t.pu_planned;
        if (std::isfinite(t.gbps_median)) gbps[pu] = t.gbps_median;  // tlbflush: no GB/s (it drew black)
        order.push_back(pu);
      }
    } else {
      // A victim point's figures are the victim's alone: its aggressors' PUs showed the victim's
      // GB/s (12.1 where they cleared 24.65). They get their own total shared out, an average:
      // a CSV or a prediction has no figure per aggressor.
      const std::vector<int>& pus = p.pus.empty() ? p.pus_planned : p.pus;
      const bool victim = p.scenario == "victim";
      const double each_aggressor = victim && p.peer_threads > 0 ? p.peer_gbps_median / p.peer_threads : Point::kNone;
      for (int pu : pus) {
        const double v = victim && !order.empty() ? each_aggressor : p.gbps_per_thread_median;
        if (std::isfinite(v)) gbps[pu] = v;
        order.push_back(pu);
      }
    }
    if (p.scenario == "victim" && !order.empty()) {
      for (std::size_t i = 1; i < order.size(); ++i) roles[order[i]] = Role::aggressor;
      roles[order.front()] = Role::victim;
    }
    if (group.size() > 1) {
      const int part = static_cast<int>(k % kParts.size());
      for (int pu : order) part_of[pu] = part;
      parts << QString("%1 x%2 %3").arg(QString::fromStdString(p.kernel)).arg(p.threads).arg(kParts[part].second);
    }
    threads += p.threads;
  }
  for (const auto& [pu, v] : gbps) scale_max = std::max(scale_max, v);
  if (group.empty()) {
    set_pu_values({}, {});
    return scale_max;
  }
  const Point& p = group.front();
  // A victim's caption names both kernels (it named the victim's alone, the aggressors' unsaid).
  const QString what = group.size() > 1 ? "mix " + parts.join(" + ")
                       : QString::fromStdString(kernels_run(p)) +
                             (p.scenario == "victim" && p.peer_threads > 0 && p.per_thread.empty()
                                  ? " (their average GB/s each)"
                                  : "");
  set_pu_values(gbps, QString("%1 %2, %3 thread%4, %5")
                          .arg(what, QString::fromStdString(size_text(double(p.size_bytes))))
                          .arg(threads)
                          .arg(threads == 1 ? "" : "s")
                          .arg(QString::fromStdString(p.source)) +
                    (scale_note.isEmpty() ? QString() : " (" + scale_note + ")"),
                scale_max);
  parts_ = part_of;
  set_pu_roles(roles);
  return scale_max;
}

QFont TopologyView::label_font() const {
  // The label font of paintEvent, unscaled: the drawing is scaled as a whole.
  QFont f = font();
  f.setPointSizeF(9);
  return f;
}

double TopologyView::title_width() const {
  const double one_line = QFontMetricsF(label_font()).horizontalAdvance(QString::fromStdString(tree_.label));
  return std::min(one_line, kTitleWrapW) + 2 * kPad + 4;
}

QString TopologyView::title_text() const {
  // A zero-width space every 16 characters of a run with no space or hyphen, where a line may
  // break: a long file name without separators ran past the box's edge, cut.
  QString out;
  int run = 0;
  for (const QChar c : QString::fromStdString(tree_.label)) {
    out += c;
    run = c.isSpace() || c == '-' ? 0 : run + 1;
    if (run >= 16) out += QChar(0x200B), run = 0;
  }
  return out;
}

TopologyView::Geometry TopologyView::geometry(const Layout& l) const {
  const QFontMetricsF fm(label_font());
  const QString title = title_text();
  return Geometry{l.cols, l.stack_top, l.stack_pus, title_width(), [fm, title](double text_w) {
                    return fm.boundingRect(QRectF(0, 0, std::max(10.0, text_w), 1e6), Qt::TextWordWrap, title).height();
                  }};
}

QRectF TopologyView::title_rect() const {
  const Geometry g = geometry(layout_);
  const QSizeF natural = g.measure(tree_);
  const QRectF text(kPad, 1, natural.width() - 2 * kPad, g.header(tree_, natural.width()) - 1);
  return QRectF(origin() + text.topLeft() * scale(), text.size() * scale());
}

QRectF TopologyView::drawing_area() const {
  return QRectF(10, 10, std::max(10, width() - 20), std::max(10.0, height() - 20 - legend_height()));
}

void TopologyView::choose_layout() {
  // Every column count and direction; keep the one that draws the biggest.
  const QRectF area = drawing_area();
  int most = 1;
  std::function<void(const TopoNode&)> count = [&](const TopoNode& n) {
    if (grid_parent(n)) most = std::max(most, static_cast<int>(n.children.size()));
    for (const auto& c : n.children) count(c);
  };
  count(tree_);
  double best = -1, best_fill = 0;
  for (int cols = 1; cols <= most; ++cols)
    for (bool stack_top : {false, true})
      for (bool stack_pus : {false, true}) {
        const Geometry g = geometry({cols, stack_top, stack_pus});
        const QSizeF s = g.measure(tree_);
        const double sc = std::min(area.width() / s.width(), area.height() / s.height());
        // A long title can set the width of every layout: then the one whose boxes fill it best.
        const double fill = g.measure_children(tree_).width() / s.width();
        if (sc > best + 1e-9 || (sc > best - 1e-9 && fill > best_fill + 1e-9))
          best = sc, best_fill = fill, layout_ = {cols, stack_top, stack_pus};
      }
  fit_scale_ = std::min(best, kMaxScale);
}

void TopologyView::fit() {
  zoom_ = 1;
  pan_ = {};
  update();
}

void TopologyView::set_zoom(double zoom) {
  zoom_ = std::clamp(zoom, 0.25, 12.0);
  update();
}

double TopologyView::scale() const { return fit_scale_ * zoom_; }

QPointF TopologyView::origin() const {
  const QRectF area = drawing_area();
  const QSizeF natural = geometry(layout_).measure(tree_);
  return QPointF(area.left() + (area.width() - natural.width() * scale()) / 2,
                 area.top() + std::max(0.0, (area.height() - natural.height() * scale()) / 2)) + pan_;
}

QRectF TopologyView::pu_rect(int os_index) const {
  QRectF out;
  const double s = scale();
  const QPointF o = origin();
  geometry(layout_).place(tree_, {0, 0}, [&](const TopoNode& n, const QRectF& r) {
    if (n.kind == TopoNode::Kind::pu && n.os_index == os_index)
      out = QRectF(o + r.topLeft() * s, r.size() * s);
  });
  return out;
}

double TopologyView::label_scale() const { return scale(); }

QRectF TopologyView::machine_rect() const {
  const QSizeF natural = geometry(layout_).measure(tree_);
  return QRectF(origin(), natural * scale());
}

void TopologyView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  relayout();
}

void TopologyView::relayout() {
  // In the legend strip, right of its text: never over the drawing.
  fit_button_->move(width() - fit_button_->sizeHint().width() - 6, height() - static_cast<int>(legend_height()) + 8);
  choose_layout();
}

namespace {
QFont legend_font(QFont f) {
  f.setPointSizeF(9);
  return f;
}
}  // namespace

// The colour bar, and the box of the words right of it, for a legend strip of height h.
static QRectF legend_bar(double width, double height, double h) {
  return QRectF(10, height - h + 6, std::min(260.0, width / 3.0), 14);
}

QString TopologyView::legend_text() const {
  QString text = values_.empty() ? "PUs are coloured by the GB/s of the thread pinned there during a run "
                                   "(GB = 10^9 bytes); grey = idle"
                                 : caption_ + " - GB/s per thread (GB = 10^9 bytes); grey = idle";
  if (!roles_.empty()) text += "; red frame V = victim, orange frame A = aggressors";
  if (!parts_.empty()) {
    text += "; frames: each part's PUs";
    if (caption_.count(" + ") + 1 > static_cast<int>(kParts.size())) text += " (colours repeat after 8 parts)";
  }
  return text + "; Ctrl+wheel zooms, drag pans, Fit or double-click fits";
}

double TopologyView::legend_height() const {
  const QRectF bar = legend_bar(width(), height(), kLegendH);
  const double text_w = std::max(40.0, width() - bar.right() - 30 - fit_button_->sizeHint().width());
  const QRectF need = QFontMetricsF(legend_font(font()))
                          .boundingRect(QRectF(0, 0, text_w, 1e4), Qt::AlignLeft | Qt::TextWordWrap, legend_text());
  // Never more than a third of the widget: the drawing stays the point of the tab.
  return std::clamp(need.height() + 10, kLegendH, std::max(kLegendH, height() / 3.0));
}

void TopologyView::wheelEvent(QWheelEvent* e) {
  if (!(e->modifiers() & Qt::ControlModifier)) {
    e->ignore();
    return;
  }
  const double old_scale = scale();
  set_zoom(zoom_ * std::pow(1.15, e->angleDelta().y() / 120.0));
  // Keep the point under the cursor where it is.
  const QPointF cursor = e->position();
  const QPointF o = origin() - pan_;
  const QPointF content = (cursor - (o + pan_)) / old_scale;
  pan_ = cursor - content * scale() - o;
  update();
  e->accept();
}

void TopologyView::mousePressEvent(QMouseEvent* e) { drag_from_ = e->pos(); }

void TopologyView::mouseMoveEvent(QMouseEvent* e) {
  if (!(e->buttons() & Qt::LeftButton)) return;
  pan_ += e->pos() - drag_from_;
  drag_from_ = e->pos();
  update();
}

void TopologyView::mouseDoubleClickEvent(QMouseEvent*) { fit(); }

// Narrow boxes (cores in a dense grid) shorten their label, "Core L#10" -> "Core 10", or where
// that does not fit either -> "#10" ("L#10" alone read as a cache's index beside the LLC); other
// labels drop their first word ("NUMA node 0" -> "node 0"). All boxes of a kind alike, so Core L#9
// and Core 10 never stand side by side.
QString TopologyView::short_label(const QString& label, int level) {
  if (level == 0 || !label.contains(' ')) return label;
  if (!label.contains(" L#")) return label.section(' ', 1);
  const QString index = label.section(" L#", 1);
  return level == 1 ? label.section(" L#", 0, 0) + " " + index : "#" + index;
}

std::map<int, int> TopologyView::short_levels(const Geometry& geo, const QFontMetrics& fm) const {
  std::map<int, int> levels;
  geo.place(tree_, {0, 0}, [&](const TopoNode& n, const QRectF& r) {
    if (n.kind == TopoNode::Kind::pu || n.kind == TopoNode::Kind::machine) return;
    const QString label = QString::fromStdString(n.label);
    const double room = r.adjusted(kPad, 1, -kPad, 0).width();
    int level = 0;
    while (level < 2 && label.contains(' ') && fm.horizontalAdvance(short_label(label, level)) > room) ++level;
    int& kind_level = levels[static_cast<int>(n.kind)];
    kind_level = std::max(kind_level, level);
  });
  return levels;
}

QStringList TopologyView::box_labels() const {
  QFont f = font();
  f.setPointSizeF(9);
  const QFontMetrics fm(f);
  const Geometry geo = geometry(layout_);
  const std::map<int, int> levels = short_levels(geo, fm);
  QStringList out;
  geo.place(tree_, {0, 0}, [&](const TopoNode& n, const QRectF&) {
    if (n.kind == TopoNode::Kind::pu || n.kind == TopoNode::Kind::machine) return;
    const auto k = levels.find(static_cast<int>(n.kind));
    out << short_label(QString::fromStdString(n.label), k == levels.end() ? 0 : k->second);
  });
  return out;
}

void TopologyView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  QFont f = font();
  f.setPointSizeF(9);
  p.setFont(f);
  double vmax = scale_max_;
  for (const auto& [pu, v] : values_) vmax = std::max(vmax, v);
  if (vmax <= 0) vmax = 1;
  p.save();
  const double legend_h = legend_height();
  p.setClipRect(QRectF(0, 0, width(), height() - legend_h));
  const QPointF o = origin();
  p.translate(o);
  p.scale(scale(), scale());
  const Geometry geo = geometry(layout_);
  const std::map<int, int> short_kinds = short_levels(geo, p.fontMetrics());
  geo.place(tree_, {0, 0}, [&](const TopoNode& n, const QRectF& r) {
    if (n.kind != TopoNode::Kind::pu) {
      p.setPen(QPen(QColor("#777777"), 1));
      p.setBrush(box_fill(n.kind));
      p.drawRoundedRect(r, 5, 5);
      p.setPen(Qt::black);
      QString label = n.kind == TopoNode::Kind::machine ? title_text() : QString::fromStdString(n.label);
      const QRectF text_r = r.adjusted(kPad, 1, -kPad, 0);
      if (const auto k = short_kinds.find(static_cast<int>(n.kind)); k != short_kinds.end()) label = short_label(label, k->second);
      // The machine's title wraps within its box (its header is as tall as the lines need).
      p.drawText(text_r, Qt::AlignLeft | Qt::AlignTop | (n.kind == TopoNode::Kind::machine ? Qt::TextWordWrap : 0),
                 label);
      return;
    }
    auto it = values_.find(n.os_index);
    const bool busy = it != values_.end();
    auto role = roles_.find(n.os_index);
    auto part = parts_.find(n.os_index);
    p.setPen(role != roles_.end()   ? QPen(role->second == Role::victim ? kVictim : kAggressor, 4)
             : part != parts_.end() ? QPen(kParts[static_cast<std::size_t>(part->second)].first, 4)
                                    : QPen(QColor("#555555"), 1));
    p.setBrush(busy ? heat(it->second / vmax) : box_fill(n.kind));
    p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 4, 4);
    p.setPen(busy && it->second / vmax > 0.45 ? Qt::white : Qt::black);
    QString text = QString::fromStdString(n.label) + (busy ? QString("\n%1 GB/s").arg(it->second, 0, 'f', 1) : QString("\nidle"));
    if (role != roles_.end()) {
      // "A PU P#40" overran its box, the A over the frame: the tag takes the word "PU"'s place
      // where the whole line does not fit inside the 4-pixel frame.
      const QString tag = role->second == Role::victim ? "V " : "A ";
      QString name = QString::fromStdString(n.label);
      if (p.fontMetrics().horizontalAdvance(tag + name) > r.width() - 10 && name.startsWith("PU "))
        name = name.mid(3);
      text = tag + name + text.mid(text.indexOf('\n'));
    }
    p.drawText(r, Qt::AlignCenter, text);
  });
  p.restore();

  // Legend: the colour scale of per-thread GB/s, and the frames of a victim run.
  const QRectF bar = legend_bar(width(), height(), legend_h);
  QLinearGradient g(bar.topLeft(), bar.topRight());
  for (int i = 0; i <= 10; ++i) g.setColorAt(i / 10.0, heat(i / 10.0));
  p.setPen(QColor("#555555"));
  p.setBrush(g);
  p.drawRect(bar);
  p.setPen(Qt::black);
  p.drawText(QRectF(bar.left(), bar.bottom() + 1, bar.width(), 16), Qt::AlignLeft, "0");
  p.drawText(QRectF(bar.left(), bar.bottom() + 1, bar.width(), 16), Qt::AlignRight,
             values_.empty() ? "max" : QString("%1 GB/s").arg(vmax, 0, 'f', 1));
  p.setFont(legend_font(font()));
  p.drawText(QRectF(bar.right() + 12, bar.top() - 3, std::max(40.0, width() - bar.right() - 30 - fit_button_->sizeHint().width()),
                    legend_h - 4),
             Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, legend_text());
}

}  // namespace bwlab::gui
