// SPDX-License-Identifier: MIT
#include "gui/app/compare_view.hpp"

#include <algorithm>

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/insight/verdict.hpp"
#include "core/model/validate.hpp"
#include "gui/app/form_wording.hpp"
#include "gui/app/elided_combo.hpp"
#include "gui/plots/told_apart.hpp"

namespace bwlab::gui {
namespace {

QTableWidgetItem* cell(const QString& text, double sort = 0) {
  auto* i = new QTableWidgetItem(text);
  i->setData(Qt::UserRole, sort);
  i->setFlags(i->flags() & ~Qt::ItemIsEditable);
  return i;
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  base_ = new ElidedComboBox;
  base_->setObjectName("compare_base");
  now_ = new ElidedComboBox;
  now_->setObjectName("compare_new");
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel("<b>Compare</b> base"));
  row->addWidget(base_, 1);
  row->addWidget(new QLabel("with"));
  row->addWidget(now_, 1);
  l->addLayout(row);
  summary_ = new QLabel;
  summary_->setWordWrap(true);
  summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // The notes under the counts (other hosts, another CPU, predictions compared) ran to 8 lines at
  // 1.5x text and left the table 2 rows: past a few lines they scroll.
  summary_area_ = new QScrollArea;
  summary_area_->setObjectName("compare_summary");
  summary_area_->setWidget(summary_);
  summary_area_->setWidgetResizable(true);
  summary_area_->setFrameShape(QFrame::NoFrame);
  summary_area_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  l->addWidget(summary_area_);
  table_ = new QTableWidget(0, 8);
  table_->setObjectName("compare_table");
  table_->setHorizontalHeaderLabels(
      {"kernel", "fill", "threads", "size", "base GB/s", "new GB/s", "ratio new/base", "change"});
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->verticalHeader()->setVisible(false);
  table_->setToolTip("points matched as `bwlab compare` matches them; a change is called only when the min..max "
                     "ranges (or, for simulated points, the model bands) do not overlap");
  l->addWidget(table_, 1);
  connect(base_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  connect(now_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  recompute();
}

void CompareView::set_runs(const std::vector<KeptRun>& runs) {
  runs_ = runs;
  const QVariant b = base_->currentData(), n = now_->currentData();  // the runs' whole names
  {
    const QSignalBlocker bb(base_), bn(now_);
    base_->clear();
    now_->clear();
    QStringList names;
    for (const KeptRun& r : runs_) names << QString::fromStdString(r.data.name);
    // Names beginning alike by their first word and where they part: the boxes cut a long name at
    // their right edge ("measured-on-the-zen4" stood for the runs before and after an upgrade).
    for (const QString& name : names)
      for (QComboBox* box : {base_, now_}) {
        box->addItem(told_apart(name, names), name);
        box->setItemData(box->count() - 1, name, Qt::ToolTipRole);
      }
    const int bi = base_->findData(b), ni = now_->findData(n);
    const int last = static_cast<int>(runs_.size()) - 1;
    base_->setCurrentIndex(bi >= 0 ? bi : 0);
    // By default the newest run against the first; never a run against itself. One run kept: the
    // "with" box stays empty and both are disabled until there is a second to compare it with.
    now_->setCurrentIndex(last < 1 ? -1 : ni >= 0 && ni != base_->currentIndex() ? ni : last);
    base_->setEnabled(last >= 1);
    now_->setEnabled(last >= 1);
  }
  recompute();
}

void CompareView::choose(int base, int now) {
  {
    const QSignalBlocker bb(base_), bn(now_);
    base_->setCurrentIndex(base);
    now_->setCurrentIndex(now);
  }
  recompute();
}

QString CompareView::summary() const { return summary_->text(); }

namespace {
constexpr int kSummaryLines = 4;
}

void CompareView::set_summary(const QString& text) {
  summary_->setText(text);
  summary_area_->setToolTip(text.count('\n') > 0 ? text : QString());
  fit_summary();
}

void CompareView::fit_summary() {
  const int bar = summary_area_->verticalScrollBar()->sizeHint().width();
  const int width = std::max(50, summary_area_->width() - bar);
  const int needed = summary_->heightForWidth(width);
  const int most = summary_->fontMetrics().lineSpacing() * kSummaryLines + 2;
  summary_area_->setFixedHeight(std::max(summary_->fontMetrics().lineSpacing(), std::min(needed, most)));
}

void CompareView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  fit_summary();
}

void CompareView::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::FontChange) fit_summary();
}

void CompareView::recompute() {
  comparison_.reset();
  table_->setSortingEnabled(false);
  table_->setRowCount(0);
  const int b = base_->currentIndex(), n = now_->currentIndex();
  if (runs_.size() < 2 || b < 0 || n < 0) {
    set_summary("Keep two runs (measure, simulate or open files) to compare them point by point.");
    return;
  }
  if (b == n) {
    set_summary("Choose two different runs.");
    return;
  }
  CompareOptions o;
  const Dataset& base_run = runs_[static_cast<std::size_t>(b)].data;
  const Dataset& now_run = runs_[static_cast<std::size_t>(n)].data;
  const std::vector<Point>& base = base_run.points;
  const std::vector<Point>& now = now_run.points;
  // A spec sheet of another vendor than the measured CPU: its gap is the machines', as bwlab compare says.
  for (const auto& [sim, other] : {std::pair{&base_run, &now_run}, std::pair{&now_run, &base_run}})
    if (o.other_cpu_note.empty()) o.other_cpu_note = model::other_vendor_sheet(sim->machine, sim->points, other->points, other->name);
  // A measured run against a simulated one (the point of an overlay) is matched by core on every
  // parameter but the source, each point judged by its own range or model band; its notes say so.
  try {
    comparison_ = compare_points(base, now, o);
  } catch (const std::exception& e) {
    set_summary(QString::fromStdString(form_wording(std::string("Cannot compare: ") + e.what())));
    return;
  }
  const Comparison& c = *comparison_;
  table_->setRowCount(static_cast<int>(c.matched.size()));
  for (int i = 0; i < static_cast<int>(c.matched.size()); ++i) {
    const ComparedPoint& m = c.matched[static_cast<std::size_t>(i)];
    const double ratio = m.now.gbps_median / m.base.gbps_median;
    const bool predicted = is_prediction(m.base) || is_prediction(m.now);
    table_->setItem(i, 0, cell(QString::fromStdString(m.base.kernel)));
    table_->setItem(i, 1, cell(QString::fromStdString(m.base.fill)));
    table_->setItem(i, 2, cell(QString::number(m.base.threads), m.base.threads));
    table_->setItem(i, 3, cell(QString::fromStdString(size_text(double(m.base.size_bytes))), double(m.base.size_bytes)));
    table_->setItem(i, 4, cell(QString::number(m.base.gbps_median, 'f', 2), m.base.gbps_median));
    table_->setItem(i, 5, cell(QString::number(m.now.gbps_median, 'f', 2), m.now.gbps_median));
    table_->setItem(i, 6, cell(QString::number(ratio, 'f', 3), ratio));
    // Two machines: judged as `bwlab compare` judges them (it exits 3: a CI runner's host name
    // changes from run to run), and the row says the change includes the machine.
    // Between two machines nothing "regressed": the demo's VM sample against a simulated server
    // read "REGRESSED"; the row says which side is lower and that the machines differ.
    // A measurement against a prediction apart from its band says so, as bwlab compare does (the
    // demo's rows read "LOWER (other machine)" beside a summary that called them regressions).
    // A prediction for another CPU than the measurement's is another machine too (the demo's VM
    // sample against the simulated Xeon read "new lower, beyond the band (model vs measurement)").
    const bool across = ((c.different_hosts && !m.against_model) || m.other_cpu) &&
                        (m.change == Change::regressed || m.change == Change::improved);
    const QString verdict = across ? QString(m.change == Change::regressed ? "LOWER" : "HIGHER") + " (other machine)"
                                   : QString::fromStdString(change_words(m)).replace("NEW ", "new ");  // its "new GB/s" column
    // A side whose point its run flagged unstable or noisy, as bwlab compare marks it.
    const QString flagged = QString::fromStdString(flagged_sides(m)).replace("BASE", "base").replace("NEW", "new");
    table_->setItem(i, 7, cell(QString("%1%2 (%3%4%)%5")
                                   .arg(predicted ? "[prediction] " : "", verdict)
                                   .arg(m.change_pct >= 0 ? "+" : "")
                                   .arg(m.change_pct, 0, 'f', 1)
                                   .arg(flagged)));
    // The column is cut at larger text ("[prediction] new lower, beyond the band (model vs me"):
    // hovering shows the whole of it.
    table_->item(i, 7)->setToolTip(table_->item(i, 7)->text());
  }
  // Core's notes (across sources, other hosts, predictions compared) in the view's words: its
  // boxes are "base" and "with", its rows' change column carries the [prediction] tag.
  QString notes;
  for (const std::string& note : c.notes)
    notes += "\n" + QString::fromStdString(note)
                        .replace("NEW is ", "The run compared with is ")
                        .replace(", BASE ", ", the base run ")
                        .replace("their lines are marked", "their rows' change is marked");
  // Measured against measured: regressions (between machines "lower"), as bwlab compare counts them
  // (exit 3); a measurement against a prediction: apart from the model, never a regression. The
  // summary had summed both under "lower ... bwlab compare calls them regressions and exits 3",
  // where bwlab compare exits 0.
  const auto against_model = std::count_if(c.matched.begin(), c.matched.end(),
                                           [](const ComparedPoint& m) { return m.against_model; });
  QString text = QString("%1 points matched, %2 only in base, %3 only in new")
                     .arg(c.matched.size())
                     .arg(c.only_base.size())
                     .arg(c.only_new.size());
  const auto other_cpu = std::count_if(c.matched.begin(), c.matched.end(),
                                       [](const ComparedPoint& m) { return m.other_cpu; });
  if (against_model < static_cast<long>(c.matched.size()))
    text += QString(c.different_hosts ? "; %1 lower, %2 higher (tolerance %3%, ranges must not overlap; bwlab compare "
                                        "calls them regressions and exits 3)"
                                      : "; %1 regressed, %2 improved (tolerance %3%, ranges must not overlap, as bwlab "
                                        "compare)")
                .arg(c.regressions)
                .arg(c.improvements)
                .arg(o.tolerance_pct, 0, 'f', 0);
  if (against_model > other_cpu)
    text += QString("; %1 apart from the model beyond its band (new lower at %2, higher at %3: a measurement "
                    "against a prediction, not a regression, as bwlab compare)")
                .arg(c.model_below + c.model_above)
                .arg(c.model_below)
                .arg(c.model_above);
  if (other_cpu > 0)
    // Which side is lower: new (as bwlab compare says "NEW lower"). "3 lower than a prediction"
    // read as the measurement lower where new, the prediction, was.
    text += QString("; %1 beyond the band of a prediction for another CPU (new lower at %2, higher at %3: the "
                    "machines differ, not a regression)")
                .arg(c.other_below + c.other_above)
                .arg(c.other_below)
                .arg(c.other_above);
  // Rows marked [flagged: ...], said and counted as bwlab compare's note does.
  if (const auto flagged = std::count_if(c.matched.begin(), c.matched.end(),
                                         [](const ComparedPoint& m) { return !flagged_sides(m).empty(); });
      flagged > 0)
    notes += QString("\n%1 of %2 rows end [flagged: ...]: a point there was flagged unstable or noisy by its run (its "
                     "flags say which); a change there may be the host's, not the code's")
                 .arg(flagged)
                 .arg(c.matched.size());
  set_summary(text + notes);
}

}  // namespace bwlab::gui
