// SPDX-License-Identifier: MIT
#include "gui/app/verdict_panel.hpp"

#include <algorithm>
#include <sstream>
#include <string_view>

#include <QEvent>
#include <QFont>
#include <QFontDatabase>
#include <QLabel>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextEdit>
#include <QVBoxLayout>

#include "core/insight/glibc_threshold.hpp"
#include "core/insight/verdict.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/topology/topology.hpp"
#include "gui/app/form_wording.hpp"

namespace bwlab::gui {

std::string verdict_text(const std::vector<Dataset>& runs) { return verdict_view(runs).text; }

const VerdictOptions& verdict_options_here() {
  static const VerdictOptions o = [] {
    const Topology local = Topology::local();
    VerdictOptions v;
    v.llc_bytes = local.llc_bytes(), v.llc_count = local.llc_count(), v.this_host = host_name();
    v.this_cpu = detect_cpu_features().model_name;  // this host name on another CPU is another machine
    return v;
  }();
  return o;
}

VerdictView verdict_view(const std::vector<Dataset>& runs) {
  VerdictView view;
  // This machine's glibc, asked once (ld.so --list-tunables): the same paragraph `bwlab verdict` prints.
  static const GlibcInfo glibc = read_glibc_info();
  const VerdictOptions& here_options = verdict_options_here();
  const std::string& here = here_options.this_host;
  const std::uint64_t llc = here_options.llc_bytes;
  const int llc_count = here_options.llc_count;
  std::ostringstream out;
  int judged = 0;
  bool refused = false;  // a run's points could not be judged as they are (two runs in one file): said above
  for (const Dataset& d : runs) {
    out << "== " << d.name << " ==\n";
    // Another host's rows judged by the cache its run recorded (a fleet CSV's hosts, a JSON run's).
    VerdictOptions o = here_options;
    o.recorded_llc = d.recorded_llc;
    // The points `bwlab verdict` judges: scaling ones, and victim ones per aggressor kernel.
    std::vector<Point> judged_points;
    for (const Point& p : d.points)
      if (p.scenario == "scaling" || p.scenario == "victim") judged_points.push_back(p);
    try {
      const auto verdicts = compute_verdicts(judged_points);
      if (verdicts.empty()) {
        out << "no verdict: no write-allocate kernel (stosb, memset, ...) and non-temporal one (movnti, avx2-nt, "
               "avx512-nt, clzero) at the same thread count\n\n";
        view.calls.push_back(d.name + ": no call (no write-allocate and non-temporal pair)");
        continue;
      }
      print_verdicts_and_glibc(out, verdicts, o, glibc, here, llc, llc_count);
      // A fleet file's calls name their host: two hosts' "fleet.csv: stosb vs avx2-nt: NT good" read
      // as one call said twice.
      const bool hosts = std::any_of(verdicts.begin(), verdicts.end(),
                                     [&](const PairVerdict& v) { return v.host != verdicts.front().host; });
      for (const PairVerdict& v : verdicts)
        view.calls.push_back(d.name + (hosts ? " (" + v.host + ")" : "") + ": " + v.wa_kernel + " vs " + v.nt_kernel +
                             (v.aggressor.empty() ? "" : " beside " + v.aggressor) + ": " + recommendation_label(v, o) +
                             (v.predicted ? " (predicted)" : ""));
      ++judged;
    } catch (const std::exception& e) {
      out << "no verdict: " << e.what() << "\n";
      // Said among the calls too: a run missing from them read as one the verdict had not reached.
      view.calls.push_back(d.name + ": no call (its points cannot be judged as they are: the text below says why)");
      refused = true;
    }
    out << "\n";
  }
  if (runs.empty()) out << "No run is checked: tick a run in the run list to see its verdict.\n";
  else if (judged == 0 && !refused) out << "Measure or simulate e.g. stosb and movnti at Sizes 4M..1G to get a verdict.\n";
  view.text = form_wording(out.str());
  return view;
}

bool verdict_table_row(const std::string& line) {
  std::string_view s = line;
  if (constexpr std::string_view tag = "[prediction]"; s.starts_with(tag)) s.remove_prefix(tag.size());
  s.remove_prefix(std::min(s.size(), s.find_first_not_of(' ')));
  return s.find("  ") != std::string_view::npos;
}

VerdictPanel::VerdictPanel(QWidget* parent) : QWidget(parent) {
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  auto* title = new QLabel("<b>Verdict</b>: where non-temporal stores overtake write-allocate ones, for the checked "
                           "runs (the same text as <tt>bwlab verdict</tt>)");
  title->setWordWrap(true);
  calls_ = new QLabel;
  calls_->setObjectName("verdict_calls");
  calls_->setWordWrap(true);
  calls_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  text_ = new QTextEdit;
  text_->setObjectName("verdict_text");
  text_->setReadOnly(true);
  text_->setLineWrapMode(QTextEdit::WidgetWidth);
  follow_font();
  l->addWidget(title);
  l->addWidget(calls_);
  l->addWidget(text_, 1);
  set_runs({});
}

void VerdictPanel::set_runs(const std::vector<Dataset>& visible) {
  // One block per line: table rows unbreakable (they scroll sideways), sentences wrapped.
  text_->clear();
  QTextCursor c(text_->document());
  QTextBlockFormat table, prose;
  table.setNonBreakableLines(true);
  bool first = true;
  const VerdictView view = verdict_view(visible);
  // At most 6 calls above the text (3 NT kernels x 2 runs); the rest are named by count.
  constexpr std::size_t kShown = 6;
  QStringList calls;
  for (std::size_t i = 0; i < std::min(kShown, view.calls.size()); ++i) calls << QString::fromStdString(view.calls[i]);
  if (view.calls.size() > kShown) calls << QString("+%1 more calls in the text below").arg(view.calls.size() - kShown);
  calls_->setText(calls.isEmpty() ? QString() : "Calls (each Recommendation line below, with its reasons):\n  " + calls.join("\n  "));
  calls_->setVisible(!calls.isEmpty());
  for (const QString& line : QString::fromStdString(view.text).split('\n')) {
    const QTextBlockFormat& f = verdict_table_row(line.toStdString()) ? table : prose;
    if (first) c.setBlockFormat(f);
    else c.insertBlock(f);
    first = false;
    c.insertText(line);
  }
  text_->moveCursor(QTextCursor::Start);
}

void VerdictPanel::follow_font() {
  QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  if (font().pointSizeF() > 0) fixed.setPointSizeF(font().pointSizeF());
  text_->setFont(fixed);
}

void VerdictPanel::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::FontChange) follow_font();  // View > Larger text reaches the table too
}

QString VerdictPanel::text() const { return text_->toPlainText(); }

QString VerdictPanel::calls() const { return calls_->text(); }

}  // namespace bwlab::gui
