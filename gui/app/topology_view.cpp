// SPDX-License-Identifier: MIT
#include "gui/app/topology_view.hpp"

#include <algorithm>
#include <cmath>

#include <QLinearGradient>
#include <QPainter>

namespace bwlab::gui {
namespace {

constexpr double kPuW = 70, kPuH = 42, kPad = 6, kHeader = 18;

// Natural size of a node's box.
QSizeF measure(const TopoNode& n) {
  if (n.kind == TopoNode::Kind::pu) return {kPuW, kPuH};
  if (n.children.empty()) return {kPuW + 2 * kPad, kHeader + 2 * kPad};
  // Cores and PUs go in a grid of at most 8 columns; bigger boxes side by side.
  const bool grid = n.children.front().kind == TopoNode::Kind::core || n.children.front().kind == TopoNode::Kind::pu;
  const int count = static_cast<int>(n.children.size());
  double cw = 0, ch = 0, w = 0, h = 0;
  for (const auto& c : n.children) {
    const QSizeF s = measure(c);
    cw = std::max(cw, s.width()), ch = std::max(ch, s.height());
    w += s.width() + kPad, h = std::max(h, s.height());
  }
  if (grid && n.kind != TopoNode::Kind::core) {
    const int cols = std::min(count, 8);
    const int rows = (count + cols - 1) / cols;
    return {cols * (cw + kPad) + kPad, rows * (ch + kPad) + kPad + kHeader};
  }
  return {w + kPad, h + 2 * kPad + kHeader};
}

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

struct Painter {
  QPainter& p;
  const std::map<int, double>& values;
  double vmax;

  void draw(const TopoNode& n, QPointF at) {
    const QSizeF size = measure(n);
    const QRectF r(at, size);
    if (n.kind == TopoNode::Kind::pu) {
      auto it = values.find(n.os_index);
      const bool busy = it != values.end();
      const QColor fill = busy ? heat(it->second / vmax) : box_fill(n.kind);
      p.setPen(QPen(QColor("#555555"), 1));
      p.setBrush(fill);
      p.drawRoundedRect(r, 4, 4);
      p.setPen(busy && it->second / vmax > 0.45 ? Qt::white : Qt::black);
      const QString text = QString::fromStdString(n.label) +
                           (busy ? QString("\n%1 GB/s").arg(it->second, 0, 'f', 1) : QString("\nidle"));
      p.drawText(r, Qt::AlignCenter, text);
      return;
    }
    p.setPen(QPen(QColor("#777777"), 1));
    p.setBrush(box_fill(n.kind));
    p.drawRoundedRect(r, 5, 5);
    p.setPen(Qt::black);
    p.drawText(r.adjusted(kPad, 2, -kPad, 0), Qt::AlignLeft | Qt::AlignTop, QString::fromStdString(n.label));
    if (n.children.empty()) return;
    const bool grid = (n.children.front().kind == TopoNode::Kind::core ||
                       n.children.front().kind == TopoNode::Kind::pu) &&
                      n.kind != TopoNode::Kind::core;
    if (grid) {
      const QSizeF c = measure(n.children.front());
      const int cols = std::min<int>(static_cast<int>(n.children.size()), 8);
      for (std::size_t i = 0; i < n.children.size(); ++i) {
        const int row = static_cast<int>(i) / cols, col = static_cast<int>(i) % cols;
        draw(n.children[i], at + QPointF(kPad + col * (c.width() + kPad), kHeader + kPad + row * (c.height() + kPad)));
      }
    } else {
      double x = kPad;
      for (const auto& c : n.children) {
        draw(c, at + QPointF(x, kHeader + kPad));
        x += measure(c).width() + kPad;
      }
    }
  }
};

}  // namespace

TopologyView::TopologyView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(320, 200);
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, Qt::white);
  setPalette(pal);
}

void TopologyView::set_tree(const TopoNode& tree) {
  tree_ = tree;
  update();
}

void TopologyView::set_pu_values(const std::map<int, double>& gbps, const QString& caption, double scale_max) {
  values_ = gbps;
  caption_ = caption;
  scale_max_ = scale_max;
  update();
}

void TopologyView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  QFont f = font();
  f.setPointSizeF(9);
  p.setFont(f);
  const double legend_h = 44;
  const QSizeF natural = measure(tree_);
  const QRectF area(10, 10, width() - 20, height() - 20 - legend_h);
  const double scale = std::min({area.width() / natural.width(), area.height() / natural.height(), 1.6});
  double vmax = scale_max_;
  for (const auto& [pu, v] : values_) vmax = std::max(vmax, v);
  if (vmax <= 0) vmax = 1;
  p.save();
  p.translate(area.left() + (area.width() - natural.width() * scale) / 2, area.top());
  p.scale(scale, scale);
  Painter{p, values_, vmax}.draw(tree_, QPointF(0, 0));
  p.restore();

  // Legend: the colour scale of per-thread GB/s.
  const QRectF bar(10, height() - legend_h + 6, std::min(260.0, width() / 3.0), 14);
  QLinearGradient g(bar.topLeft(), bar.topRight());
  for (int i = 0; i <= 10; ++i) g.setColorAt(i / 10.0, heat(i / 10.0));
  p.setPen(QColor("#555555"));
  p.setBrush(g);
  p.drawRect(bar);
  p.setPen(Qt::black);
  p.drawText(QRectF(bar.left(), bar.bottom() + 1, bar.width(), 16), Qt::AlignLeft, "0");
  p.drawText(QRectF(bar.left(), bar.bottom() + 1, bar.width(), 16), Qt::AlignRight,
             values_.empty() ? "max" : QString("%1 GB/s").arg(vmax, 0, 'f', 1));
  const QString text = values_.empty() ? "PUs are coloured by the GB/s of the thread pinned there during a run "
                                         "(GB = 10^9 bytes); grey = idle"
                                       : caption_ + " - GB/s per thread (GB = 10^9 bytes); grey = idle";
  p.drawText(QRectF(bar.right() + 12, bar.top() - 3, width() - bar.right() - 20, 36),
             Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, text);
}

}  // namespace bwlab::gui
