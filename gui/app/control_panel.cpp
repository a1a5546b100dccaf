// SPDX-License-Identifier: MIT
#include "gui/app/control_panel.hpp"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/kernels/kernels.hpp"
#include "core/model/simulate.hpp"
#include "core/scenario/choices.hpp"
#include "core/scenario/scenario.hpp"

namespace bwlab::gui {
namespace {

// An editable combo box as wide as its items where there is room, and down to 12 characters where
// there is not: a long item ("package:2 numa:1 core:8 pu:2") set the panel's minimum width, and with
// the what-if dock the window needed 1158 px. (A 12-character width at all sizes showed "(the what-if
// machine)" as "he what-if machine)".)
class ShrinkableCombo : public QComboBox {
 public:
  QSize minimumSizeHint() const override {
    QSize s = QComboBox::minimumSizeHint();
    const QSize hint = QComboBox::sizeHint();
    const int chars = fontMetrics().horizontalAdvance(QString(12, 'x'));
    const int chrome = std::max(0, hint.width() - fontMetrics().horizontalAdvance(longest()));
    s.setWidth(std::min(s.width(), chars + chrome));
    return s;
  }

 private:
  QString longest() const {
    QString l = currentText();
    for (int i = 0; i < count(); ++i)
      if (itemText(i).size() > l.size()) l = itemText(i);
    return l;
  }
};

QComboBox* editable_combo(const QStringList& items, const QString& tip) {
  auto* c = new ShrinkableCombo;
  c->setEditable(true);
  c->addItems(items);
  c->setToolTip(tip);
  return c;
}

}  // namespace

ControlPanel::ControlPanel(const CpuFeatures& cpu, QWidget* parent) : QWidget(parent), cpu_(cpu) {
  auto* layout = new QVBoxLayout(this);

  auto* mode = new QGroupBox("Mode");
  auto* mode_l = new QVBoxLayout(mode);
  measure_ = new QRadioButton("Measure on this machine");
  simulate_ = new QRadioButton("Simulate (model prediction)");
  simulate_->setObjectName("simulate");  // the what-if machine dock follows it
  measure_->setChecked(true);
  mode_l->addWidget(measure_);
  mode_l->addWidget(simulate_);
  layout->addWidget(mode);

  kbox_ = new QGroupBox("Kernels");
  auto* kbox = kbox_;
  auto* kgrid = new QGridLayout(kbox);
  int i = 0;
  for (const KernelInfo& k : kernel_table()) {
    auto* cb = new QCheckBox(QString::fromUtf8(k.name.data(), int(k.name.size())));
    cb->setObjectName("kernel_" + cb->text());
    kernels_[cb->text()] = cb;
    kgrid->addWidget(cb, i / 2, i % 2);
    ++i;
  }
  layout->addWidget(kbox);

  auto* sweep = new QGroupBox("Sweep");
  auto* form = new QFormLayout(sweep);
  sizes_ = new QLineEdit("16M,1G");
  sizes_->setObjectName("sizes");
  sizes_->setToolTip("bytes per thread: a comma list with K/M/G (2^10/2^20/2^30) and doubling ranges, e.g. 16M,1G or 2M..1G");
  threads_ = new QLineEdit("1..max");
  threads_->setToolTip("thread counts: 1,2,4 or 1..max or max (max = PUs this process may use, or of the simulated topology)");
  placement_ = editable_combo({"compact", "scatter", "none"}, "compact (one PU per core, siblings last), scatter (round-robin over NUMA nodes/packages), none (threads not bound: the OS places them), or type a PU list such as 0,2,4");
  membind_ = editable_combo({"local", "remote", "interleave", "node:0"},
                            "local (the thread's own NUMA node), remote (the next node after the thread's own; needs "
                            "two NUMA nodes), interleave, or node:N");
  membind_->setObjectName("membind");
  pages_ = new QComboBox;
  pages_->setObjectName("pages");
  pages_->addItems({"4k", "thp", "hugetlb2m", "hugetlb1g"});
  pages_->setToolTip("4k (THP off for the buffers), thp (madvise MADV_HUGEPAGE), hugetlb2m / hugetlb1g (MAP_HUGETLB "
                     "from the pool an administrator reserved; bwlab never changes system settings)");
  fill_ = new QLineEdit("zero");
  fill_->setToolTip("what the kernels write: zero, 0xNN (a byte), perf (the pass number); a comma list compares them");
  scenario_ = new QComboBox;
  scenario_->setObjectName("scenario");
  const std::pair<const char*, const char*> scenarios[] = {
      {"scaling", "every thread runs the same kernel on its own buffer"},
      {"victim", "1 victim thread runs kernel A while k = 0..max-1 aggressors run kernel B; slowdown against k = 0"},
      {"mix", "threads split between kernels (Mix, e.g. stosb:1,avx512-nt:1), all at once in every window"},
      {"pagefault", "each thread maps fresh memory, writes one byte per page (the OS clears it in the fault "
                    "handler) and unmaps: GB/s made ready and faults/s"},
      {"tlbflush", "1 thread maps, touches and munmaps E pages (Entries) while k readers read their own memory: "
                   "ns per munmap and per read"}};
  for (const auto& [name, tip] : scenarios) {
    scenario_->addItem(name);
    scenario_->setItemData(scenario_->count() - 1, QString("%1: %2").arg(name, tip), Qt::ToolTipRole);
  }
  scenario_->setToolTip("what runs in each window (the same scenarios as bwlab run --scenario)");
  victims_ = new QLineEdit;
  victims_->setObjectName("victims");
  victims_->setPlaceholderText("the ticked kernels");
  victims_->setToolTip("victim: kernels of the victim thread, a comma list (empty = the ticked kernels)");
  aggressors_ = new QLineEdit;
  aggressors_->setObjectName("aggressors");
  aggressors_->setPlaceholderText("the ticked kernels");
  aggressors_->setToolTip("victim: kernels of the aggressor threads, a comma list (empty = the ticked kernels); "
                          "victims x aggressors is the matrix measured");
  mix_ = new QLineEdit("stosb:1,movnti:1");
  mix_->setObjectName("mix");
  mix_->setToolTip("mix: kernel:threads pairs, each kernel once, e.g. stosb:1,avx512-nt:1 (they set the threads)");
  entries_ = new QLineEdit;
  entries_->setObjectName("entries");
  entries_->setPlaceholderText("1..512");
  entries_->setToolTip("tlbflush: 4 KiB pages per munmap call, a comma list with doubling ranges (empty = 1..512)");
  scenario_note_ = new QLabel;
  scenario_note_->setWordWrap(true);
  scenario_note_->setObjectName("scenario_note");
  reps_ = new QSpinBox;
  reps_->setRange(1, 101);
  reps_->setValue(5);
  reps_->setToolTip("timed windows per point (median, min, max and pstdev are over these)");
  duration_ = new QSpinBox;
  duration_->setRange(1, 60000);
  duration_->setValue(200);
  duration_->setSuffix(" ms");
  duration_->setToolTip("length of each timed window");
  form->addRow("Sizes", sizes_);
  form->addRow("Threads", threads_);
  form->addRow("Placement", placement_);
  form->addRow("Membind", membind_);
  form->addRow("Pages", pages_);
  form->addRow("Fill", fill_);
  form->addRow("Repetitions", reps_);
  form->addRow("Window", duration_);

  auto* scen = new QGroupBox("Scenario");
  auto* scen_form = new QFormLayout(scen);
  scen_form->addRow("Scenario", scenario_);
  scen_form->addRow("Victims", victims_);
  scen_form->addRow("Aggressors", aggressors_);
  scen_form->addRow("Mix", mix_);
  scen_form->addRow("Entries", entries_);
  scen_form->addRow(scenario_note_);
  layout->addWidget(scen);
  layout->addWidget(sweep);

  sim_box_ = new QGroupBox("Simulated machine");
  auto* sform = new QFormLayout(sim_box_);
  machine_ = editable_combo({QString(kWhatIfMachine)},
                            "the what-if machine (the dock's spec sheet: Run keeps a copy of it as a run), a preset, or "
                            "the path of a machine JSON file (bwlab machine spec, bwlab calibrate)");
  machine_->setObjectName("machine");
  for (const auto& name : machine_presets()) machine_->addItem(QString::fromStdString(name));
  auto* machine_browse = new QToolButton;
  machine_browse->setText("...");
  machine_browse->setToolTip("choose a machine JSON file");
  auto* mrow = new QHBoxLayout;
  mrow->addWidget(machine_, 1);
  mrow->addWidget(machine_browse);
  topology_ = editable_combo({"(the machine's own)", "local", "package:2 numa:1 core:8 pu:2"},
                             "the machine's own topology, local (this machine), an hwloc XML file, or a synthetic "
                             "string such as 'package:2 numa:1 core:26 pu:2'");
  auto* topo_browse = new QToolButton;
  topo_browse->setText("...");
  topo_browse->setToolTip("choose an hwloc XML file (lstopo file.xml)");
  auto* trow = new QHBoxLayout;
  trow->addWidget(topology_, 1);
  trow->addWidget(topo_browse);
  sform->addRow("Machine", mrow);
  sform->addRow("Topology", trow);
  layout->addWidget(sim_box_);
  connect(machine_browse, &QToolButton::clicked, this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, "Machine parameters", {}, "JSON (*.json)");
    if (!f.isEmpty()) machine_->setCurrentText(f);
  });
  connect(topo_browse, &QToolButton::clicked, this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, "hwloc topology", {}, "hwloc XML (*.xml)");
    if (!f.isEmpty()) topology_->setCurrentText(f);
  });

  auto* buttons = new QHBoxLayout;
  run_ = new QPushButton("Run");
  run_->setObjectName("run");
  run_->setDefault(true);
  run_->setMinimumHeight(32);
  stop_ = new QPushButton("Stop");
  stop_->setObjectName("stop");
  stop_->setMinimumHeight(32);
  stop_->setEnabled(false);
  buttons->addWidget(run_);
  buttons->addWidget(stop_);
  layout->insertLayout(1, buttons);  // right under Mode, in view without scrolling
  layout->addStretch(1);

  connect(run_, &QPushButton::clicked, this, &ControlPanel::runClicked);
  connect(stop_, &QPushButton::clicked, this, &ControlPanel::stopClicked);
  connect(measure_, &QRadioButton::toggled, this, [this](bool measure) {
    update_mode();
    emit modeChanged(!measure);
  });
  connect(scenario_, &QComboBox::currentTextChanged, this, [this] { on_scenario_changed(); });
  // User edits only (editingFinished, activated, clicked): fields set by a session or the settings
  // do not re-simulate.
  for (QLineEdit* e : {sizes_, threads_, fill_, victims_, aggressors_, mix_, entries_})
    connect(e, &QLineEdit::editingFinished, this, [this, e] {
      if (e->isModified()) e->setModified(false), emit sweepEdited();
    });
  for (QComboBox* c : {placement_, membind_, pages_, scenario_}) {
    connect(c, &QComboBox::activated, this, &ControlPanel::sweepEdited);
    if (QLineEdit* e = c->lineEdit())
      connect(e, &QLineEdit::editingFinished, this, [this, e] {
        if (e->isModified()) e->setModified(false), emit sweepEdited();
      });
  }
  for (const auto& [name, box] : kernels_) connect(box, &QCheckBox::clicked, this, &ControlPanel::sweepEdited);
  update_mode();
}

void ControlPanel::on_scenario_changed() {
  const QString now = scenario_->currentText();
  // Sizes still at the previous scenario's default follow the new one (pagefault 64M, tlbflush 1M).
  auto default_sizes = [](const QString& name) {
    try {
      return QString::fromUtf8(scenario_default_sizes(parse_scenario(name.toStdString())).data());
    } catch (const std::exception&) {
      return QString();
    }
  };
  if (sizes_->text().trimmed() == default_sizes(last_scenario_)) sizes_->setText(default_sizes(now));
  last_scenario_ = now;
  update_mode();
}

QWidget* ControlPanel::option_widget(const QString& name) const {
  if (name == "victims") return victims_;
  if (name == "aggressors") return aggressors_;
  if (name == "mix") return mix_;
  if (name == "entries") return entries_;
  if (name == "threads") return threads_;
  if (name == "fill") return fill_;
  if (name == "kernels") return kbox_;
  return nullptr;
}

QString ControlPanel::scenario_note() const { return scenario_note_->text(); }

void ControlPanel::update_mode() {
  const bool sim = simulate_->isChecked();
  sim_box_->setEnabled(sim);
  // Only the options the chosen scenario reads are enabled (as `bwlab run` refuses the others).
  const QString scen = scenario_->currentText();
  const bool os = scen == "pagefault" || scen == "tlbflush";
  Scenario s = Scenario::scaling;
  try {
    s = parse_scenario(scen.toStdString());
  } catch (const std::exception&) {
    // the box offers only valid names
  }
  victims_->setEnabled(option_applies("--victim", s));
  aggressors_->setEnabled(option_applies("--aggressor", s));
  mix_->setEnabled(option_applies("--mix", s));
  entries_->setEnabled(option_applies("--entries", s));
  threads_->setEnabled(option_applies("--threads", s));
  fill_->setEnabled(option_applies("--fill", s));
  kbox_->setEnabled(option_applies("--kernels", s));
  kbox_->setTitle(scen == "victim" ? "Kernels (victim/aggressor defaults)"
                  : os || scen == "mix" ? "Kernels (not used here)"
                                        : "Kernels");
  kbox_->setToolTip(scen == "victim" ? "the victims and aggressors when their fields are empty"
                    : os             ? "the OS clears (pagefault) or unmaps (tlbflush) here: no kernel runs"
                    : scen == "mix"  ? "the Mix field names the kernels"
                                     : QString());
  QString note;
  if (sim && os)
    note = QString("<b>%1 is measure-only</b>: the simulator predicts the scaling, victim and mix scenarios. Choose "
                   "<i>Measure on this machine</i> to run it, or one of those three to simulate.")
               .arg(scen);
  else if (scen == "victim")
    note = QString("Threads = 1 victim + k aggressors (k = 0, the baseline, is always %1). Results: the victim heat "
                   "map.")
               .arg(sim ? "predicted" : "measured");
  else if (scen == "mix")
    note = "The Mix counts set the threads.";
  else if (scen == "pagefault")
    note = "Sizes = memory each thread maps per cycle.";
  else if (scen == "tlbflush")
    note = "Threads = 1 unmapper + k readers; Sizes = each reader's memory; pages must be 4k. Results: the table.";
  scenario_note_->setText(note);
  for (auto& [name, cb] : kernels_) {
    const KernelInfo* k = find_kernel(name.toStdString());
    const Availability a = kernel_availability(*k, cpu_);
    const QString desc = QString::fromUtf8(k->description.data(), int(k->description.size()));
    // A simulated machine is not this CPU: every kernel may be predicted.
    cb->setEnabled(sim || a.available);
    cb->setToolTip(sim || a.available ? desc : QString("unavailable here: %1").arg(QString::fromStdString(a.reason)));
  }
}

QCheckBox* ControlPanel::kernel_box(const QString& name) const {
  auto it = kernels_.find(name);
  return it == kernels_.end() ? nullptr : it->second;
}

RunRequest ControlPanel::request() const {
  RunRequest r;
  r.simulate = simulate_->isChecked();
  QStringList ks;
  for (const KernelInfo& k : kernel_table()) {
    QCheckBox* cb = kernel_box(QString::fromUtf8(k.name.data(), int(k.name.size())));
    if (cb && cb->isChecked() && cb->isEnabledTo(kbox_)) ks << cb->text();  // kbox_ may be off for a scenario
  }
  r.kernels = ks.join(',');
  r.sizes = sizes_->text();
  r.threads = threads_->text();
  r.placement = placement_->currentText();
  r.membind = membind_->currentText();
  r.pages = pages_->currentText();
  r.fill = fill_->text();
  r.scenario = scenario_->currentText();
  r.victims = victims_->text();
  r.aggressors = aggressors_->text();
  r.mix = mix_->text();
  r.entries = entries_->text();
  r.reps = reps_->value();
  r.duration_ms = duration_->value();
  r.machine = machine_->currentText();
  r.topology = topology_->currentText().startsWith("(") ? QString() : topology_->currentText();
  return r;
}

void ControlPanel::set_request(const RunRequest& r) {
  (r.simulate ? simulate_ : measure_)->setChecked(true);
  const QStringList ks = r.kernels.split(',', Qt::SkipEmptyParts);
  for (auto& [name, cb] : kernels_) cb->setChecked(ks.contains(name));
  sizes_->setText(r.sizes);
  threads_->setText(r.threads);
  placement_->setCurrentText(r.placement);
  membind_->setCurrentText(r.membind);
  pages_->setCurrentText(r.pages);
  fill_->setText(r.fill);
  last_scenario_ = r.scenario;  // sizes come from the request, not from the scenario's default
  scenario_->setCurrentText(r.scenario);
  last_scenario_ = scenario_->currentText();
  victims_->setText(r.victims);
  aggressors_->setText(r.aggressors);
  if (!r.mix.isEmpty()) mix_->setText(r.mix);
  entries_->setText(r.entries);
  reps_->setValue(r.reps);
  duration_->setValue(r.duration_ms);
  if (!r.machine.isEmpty()) machine_->setCurrentText(r.machine);
  topology_->setCurrentText(r.topology.isEmpty() ? topology_->itemText(0) : r.topology);
  update_mode();
}

void ControlPanel::set_running(bool running) {
  run_->setEnabled(!running);
  stop_->setEnabled(running);
}

void ControlPanel::load(QSettings& s) {
  RunRequest d;
  // Default kernels: stosb, movnti and the widest NT kernel this CPU has (as `bwlab run`).
  d.kernels = QString::fromStdString(default_kernels(cpu_));
  d.sizes = "16M,1G";
  s.beginGroup("run");
  RunRequest r;
  r.simulate = s.value("simulate", d.simulate).toBool();
  r.kernels = s.value("kernels", d.kernels).toString();
  r.sizes = s.value("sizes", d.sizes).toString();
  r.threads = s.value("threads", d.threads).toString();
  r.placement = s.value("placement", d.placement).toString();
  r.membind = s.value("membind", d.membind).toString();
  r.pages = s.value("pages", d.pages).toString();
  r.fill = s.value("fill", d.fill).toString();
  r.scenario = s.value("scenario", d.scenario).toString();
  r.victims = s.value("victims", d.victims).toString();
  r.aggressors = s.value("aggressors", d.aggressors).toString();
  r.mix = s.value("mix", d.mix).toString();
  r.entries = s.value("entries", d.entries).toString();
  r.reps = s.value("reps", d.reps).toInt();
  r.duration_ms = s.value("duration_ms", d.duration_ms).toInt();
  r.machine = s.value("machine", machine_->itemText(0)).toString();
  r.topology = s.value("topology", QString()).toString();
  s.endGroup();
  set_request(r);
}

void ControlPanel::save(QSettings& s) const {
  const RunRequest r = request();
  s.beginGroup("run");
  s.setValue("simulate", r.simulate);
  s.setValue("kernels", r.kernels);
  s.setValue("sizes", r.sizes);
  s.setValue("threads", r.threads);
  s.setValue("placement", r.placement);
  s.setValue("membind", r.membind);
  s.setValue("pages", r.pages);
  s.setValue("fill", r.fill);
  s.setValue("scenario", r.scenario);
  s.setValue("victims", r.victims);
  s.setValue("aggressors", r.aggressors);
  s.setValue("mix", r.mix);
  s.setValue("entries", r.entries);
  s.setValue("reps", r.reps);
  s.setValue("duration_ms", r.duration_ms);
  s.setValue("machine", r.machine);
  s.setValue("topology", r.topology);
  s.endGroup();
}

}  // namespace bwlab::gui
