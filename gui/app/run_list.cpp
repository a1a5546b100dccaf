// SPDX-License-Identifier: MIT
#include "gui/app/run_list.hpp"

#include "core/report/plural.hpp"

#include <set>

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

namespace bwlab::gui {
namespace {

// A list row is as wide as its text: a long run name made the rows wider than the list, cut
// them at its right edge and added a scroll bar. With no width of its own, a row takes the
// list's width and its text is elided in the middle (the name's start, "[file, 216 points]").
class ElidedRowDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    return {1, QStyledItemDelegate::sizeHint(option, index).height()};
  }
};

}  // namespace

RunList::RunList(QWidget* parent) : QWidget(parent) {
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  auto* title = new QLabel("<b>Runs</b> (checked = drawn)");
  list_ = new QListWidget;
  list_->setObjectName("run_list");
  list_->setToolTip("every run is kept: measured, simulated and opened files; untick to hide, Remove to drop");
  list_->setItemDelegate(new ElidedRowDelegate(list_));
  list_->setTextElideMode(Qt::ElideMiddle);
  list_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  remove_ = new QPushButton("Remove");
  remove_->setToolTip("drop the selected run from the window (its points are gone unless saved)");
  remove_->setEnabled(false);
  auto* row = new QHBoxLayout;
  row->addWidget(title, 1);
  row->addWidget(remove_);
  l->addLayout(row);
  l->addWidget(list_, 1);
  connect(list_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
    if (filling_) return;
    emit checkedChanged(list_->row(item), item->checkState() == Qt::Checked);
  });
  connect(list_, &QListWidget::currentRowChanged, this, [this](int r) { remove_->setEnabled(r >= 0); });
  connect(remove_, &QPushButton::clicked, this, [this] {
    const int r = list_->currentRow();
    if (r >= 0) emit removeRequested(r);
  });
}

void RunList::set_runs(const std::vector<KeptRun>& runs) {
  filling_ = true;
  const int current = list_->currentRow();
  list_->clear();
  for (const KeptRun& r : runs) {
    std::set<std::string> kernels, hosts, sources;
    for (const Point& p : r.data.points) {
      kernels.insert(p.kernel);
      if (!p.host.empty()) hosts.insert(p.host);
      if (!p.source.empty()) sources.insert(p.source);
    }
    // An opened file says what it holds: "[file, simulated, 24 points]" (a prediction looked like
    // a measurement in the list).
    std::string origin = r.origin;
    if (r.origin == "file")
      for (const std::string& s : sources) origin += ", " + s;
    QString k;
    for (const auto& s : kernels) k += (k.isEmpty() ? "" : ",") + QString::fromStdString(s);
    QString h;
    for (const auto& s : hosts) h += (h.isEmpty() ? "" : ",") + QString::fromStdString(s);
    // A fleet CSV (bwlab merge) holds several hosts' runs: "26 points, 4 hosts".
    const QString points = QString::fromStdString(
        count_of(r.data.points.size(), "point") + (hosts.size() > 1 ? ", " + count_of(hosts.size(), "host") : ""));
    auto* item = new QListWidgetItem(QString("%1   [%2, %3]")
                                         .arg(QString::fromStdString(r.data.name), QString::fromStdString(origin), points));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(r.checked ? Qt::Checked : Qt::Unchecked);
    item->setToolTip(QString("%1\n%2 run, %3\nkernels: %4%5")
                         .arg(QString::fromStdString(r.data.name), QString::fromStdString(origin), points)
                         .arg(k, h.isEmpty() ? QString() : "\nhost: " + h));
    list_->addItem(item);
  }
  if (current >= 0 && current < list_->count()) list_->setCurrentRow(current);
  remove_->setEnabled(list_->currentRow() >= 0);
  filling_ = false;
}

int RunList::count() const { return list_->count(); }

bool RunList::checked(int row) const {
  const QListWidgetItem* item = list_->item(row);
  return item && item->checkState() == Qt::Checked;
}

void RunList::set_checked(int row, bool on) {
  if (QListWidgetItem* item = list_->item(row)) item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

}  // namespace bwlab::gui
