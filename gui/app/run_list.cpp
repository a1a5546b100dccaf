// SPDX-License-Identifier: MIT
#include "gui/app/run_list.hpp"

#include "core/report/plural.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <QApplication>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

namespace bwlab::gui {
namespace {

constexpr int kNameRole = Qt::UserRole + 1;  // the run's name
constexpr int kTagRole = Qt::UserRole + 2;   // "   [file, simulated, 864 points]"
constexpr int kShortTagRole = Qt::UserRole + 3;  // "   [simulated]": what the run is, without the count
constexpr int kMidTagRole = Qt::UserRole + 4;    // "   [simulated, 864 points]": without "file"
constexpr int kSharedRole = Qt::UserRole + 5;    // the most leading characters its name shares with another row's

// Where a row's text is drawn: the item's text rectangle less the margins Qt's style keeps.
int text_width(const QStyleOptionViewItem& opt) {
  const QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
  const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, opt.widget) + 1;
  return style->subElementRect(QStyle::SE_ItemViewItemText, &opt, opt.widget).width() - 2 * margin;
}

// The run's name elided in its middle to `room`. A name that begins like another row's is elided
// from where they part: "long-nam…rade.csv" stood for both
// long-named-...-before-kernel-upgrade.csv and long-named-...-after-kernel-upgrade.csv; now
// "…before-ke…grade.csv" and "…zen5-guest…grade.csv". The row's tooltip names it whole.
QString elided_name(const QModelIndex& index, const QFontMetricsF& fm, double room) {
  const QString name = index.data(kNameRole).toString();
  if (fm.horizontalAdvance(name) <= room) return name;
  const qsizetype shared = index.data(kSharedRole).toInt();  // counted once, in set_runs
  // A short shared start ("s" of sim.csv and skx.csv) says nothing: middle elision keeps it.
  if (shared < 6 || shared >= name.size()) return fm.elidedText(name, Qt::ElideMiddle, room);
  // From the word they part in ("guest-before-..." where "...zen4-guest-" is shared), else two
  // characters before.
  qsizetype from = shared - 2;
  for (qsizetype i = shared; i > 0 && i >= shared - 10; --i)
    if (QString("-_. ").contains(name[i - 1])) {
      from = i;
      break;
    }
  // The name's first word kept in front where the part that tells it apart still has most of the
  // room ("skylake…2 sockets", not "…2 sockets": which machine went).
  const QString tail = name.mid(from);
  qsizetype head = 0;
  while (head < std::min<qsizetype>(from, 8) && !QString("-_. ").contains(name[head])) ++head;
  const QString lead = name.left(head) + QChar(u'…');
  if (head > 0 && fm.horizontalAdvance(lead) + fm.horizontalAdvance(tail) <= room) return lead + tail;
  if (head > 0 && room - fm.horizontalAdvance(lead) >= 0.6 * room)
    return lead + fm.elidedText(tail, Qt::ElideMiddle, room - fm.horizontalAdvance(lead));
  return QString(u'…') + fm.elidedText(tail, Qt::ElideMiddle, room - fm.horizontalAdvance(u'…'));
}

// The name elided in its middle and the tag whole: eliding the whole row in the middle cut the
// tag ("twelve.json [fil…lated, 864 points]"), which says whether a run was measured or simulated.
// Where the whole tag leaves the name under half of the row ("si…on [file, simulated, 20
// points]" at 1.5x text), the short tag ("[simulated]") keeps more of the name.
// Fractional metrics, as the style lays the text out: at 1.5x text (a 13.5 pt font) a row the
// integer metrics said fitted was elided again in its middle ("lab-server…node…sv").
QString row_text(const QModelIndex& index, const QFontMetricsF& fm, int width) {
  const QString name = index.data(kNameRole).toString(), tag = index.data(kTagRole).toString();
  if (fm.horizontalAdvance(name + tag) <= width) return name + tag;
  // The count is dropped last: "[imported]" beside neighbours' "[file, imported, 40 points]" hid
  // the row's points where "[imported, 48 points]" fitted.
  const QString mid_tag = index.data(kMidTagRole).toString();
  if (!mid_tag.isEmpty() && fm.horizontalAdvance(name + mid_tag) <= width) return name + mid_tag;
  const QString short_tag = index.data(kShortTagRole).toString();
  if (!short_tag.isEmpty() && fm.horizontalAdvance(name + short_tag) <= width) return name + short_tag;
  // The name elides: "file, " goes first (the count stays, as above), the count where the name
  // would keep under half of the row ("skylak…ockets   [simulated, 32 points]" at 1.5x text).
  QString kept = mid_tag.isEmpty() ? tag : mid_tag;
  if (!short_tag.isEmpty() && width - fm.horizontalAdvance(kept) < width / 2) kept = short_tag;
  // No room for even "…" beside it: the tag alone, elided at its end (the style's own middle
  // elision cut it mid-word, "[sim…ted]").
  if (fm.horizontalAdvance(u'…') + fm.horizontalAdvance(kept) > width)
    return fm.elidedText(kept.trimmed(), Qt::ElideRight, width);
  // The elided name and the tag measured apart can come to a fraction of a pixel more than the row
  // together: then the style elided the row again, in its middle ("lab-server…node…sv").
  QString row;
  for (double room = width - fm.horizontalAdvance(kept), least = room - 8; room > least; room -= 1)
    if (row = elided_name(index, fm, room) + kept; fm.horizontalAdvance(row) <= width) break;
  return row;
}

// A list row is as wide as its text: a long run name made the rows wider than the list, cut
// them at its right edge and added a scroll bar. With no width of its own, a row takes the
// list's width; its name is elided in the middle, its tag kept (row_text).
class ElidedRowDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    return {1, QStyledItemDelegate::sizeHint(option, index).height()};
  }
  // Public: RunList::shown_text asks it for a row's text as drawn.
  void initStyleOption(QStyleOptionViewItem* opt, const QModelIndex& index) const override {
    QStyledItemDelegate::initStyleOption(opt, index);
    if (index.data(kNameRole).isValid() && opt->rect.width() > 0)
      opt->text = row_text(index, QFontMetricsF(opt->font), text_width(*opt));
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
    const QString tag = QString("   [%1, %2]").arg(QString::fromStdString(origin), points);
    auto* item = new QListWidgetItem(QString::fromStdString(r.data.name) + tag);
    item->setData(kNameRole, QString::fromStdString(r.data.name));
    item->setData(kTagRole, tag);
    const QString what =
        QString::fromStdString(sources.size() == 1 && r.origin == "file" ? *sources.begin() : r.origin);
    item->setData(kShortTagRole, QString("   [%1]").arg(what));
    if (r.origin == "file") item->setData(kMidTagRole, QString("   [%1, %2]").arg(what, points));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(r.checked ? Qt::Checked : Qt::Unchecked);
    item->setToolTip(QString("%1\n%2 run, %3\nkernels: %4%5")
                         .arg(QString::fromStdString(r.data.name), QString::fromStdString(origin), points)
                         .arg(k, h.isEmpty() ? QString() : "\nhost: " + h));
    list_->addItem(item);
  }
  // Each name's longest start shared with another row's, counted here once: elided_name reads it
  // for every row and every width row_text tries, on each paint.
  for (int i = 0; i < list_->count(); ++i) {
    const QString name = list_->item(i)->data(kNameRole).toString();
    qsizetype shared = 0;
    for (int j = 0; j < list_->count(); ++j) {
      if (j == i) continue;
      const QString other = list_->item(j)->data(kNameRole).toString();
      qsizetype n = 0;
      while (n < name.size() && n < other.size() && name[n] == other[n]) ++n;
      shared = std::max(shared, n);
    }
    list_->item(i)->setData(kSharedRole, static_cast<int>(shared));
  }
  if (current >= 0 && current < list_->count()) list_->setCurrentRow(current);
  remove_->setEnabled(list_->currentRow() >= 0);
  filling_ = false;
}

int RunList::count() const { return list_->count(); }

namespace {

// A row's style option as its delegate draws it, at the list's current width.
QStyleOptionViewItem row_option(const QListWidget* list, int row) {
  QStyleOptionViewItem opt;
  opt.initFrom(list->viewport());
  opt.widget = list;
  opt.font = list->font();
  opt.fontMetrics = list->fontMetrics();
  opt.decorationSize = list->iconSize();
  opt.rect = list->visualItemRect(list->item(row));
  static_cast<const ElidedRowDelegate*>(list->itemDelegate())->initStyleOption(&opt, list->model()->index(row, 0));
  return opt;
}

}  // namespace

QString RunList::shown_text(int row) const {
  if (!list_->item(row)) return {};
  return row_option(list_, row).text;
}

bool RunList::shown_text_fits(int row) const {
  if (!list_->item(row)) return false;
  const QStyleOptionViewItem opt = row_option(list_, row);
  return QFontMetricsF(opt.font).horizontalAdvance(opt.text) <= text_width(opt);
}

int RunList::width_short() const {
  int short_by = 0;
  for (int row = 0; row < list_->count(); ++row) {
    const QStyleOptionViewItem opt = row_option(list_, row);
    const QModelIndex index = list_->model()->index(row, 0);
    const QString whole = index.data(kNameRole).toString() + index.data(kTagRole).toString();
    short_by = std::max(short_by, static_cast<int>(std::ceil(QFontMetricsF(opt.font).horizontalAdvance(whole))) -
                                      text_width(opt));  // as row_text elides
  }
  return short_by;
}

bool RunList::checked(int row) const {
  const QListWidgetItem* item = list_->item(row);
  return item && item->checkState() == Qt::Checked;
}

void RunList::set_checked(int row, bool on) {
  if (QListWidgetItem* item = list_->item(row)) item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

}  // namespace bwlab::gui
