// SPDX-License-Identifier: MIT
#include "gui/app/machine_panel.hpp"

#include <cmath>
#include <fstream>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/model/uarch.hpp"

namespace bwlab::gui {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// Shows 256 MiB as "256", 24.75 MiB as "24.75", 1.375 MiB as "1.375": no trailing zeros.
class SizeSpinBox : public QDoubleSpinBox {
 public:
  QString textFromValue(double v) const override { return QString::number(v, 'g', 10); }
};

// Hardware threads per core: 1, 2 or 4 (machine_from_spec refuses 3), capped at the chosen
// microarchitecture's max_smt (limit_smt). The arrows step over 3 and typing it is not accepted.
class SmtSpinBox : public QSpinBox {
 public:
  void stepBy(int steps) override {
    QSpinBox::stepBy(steps);
    if (value() == 3) QSpinBox::stepBy(steps > 0 ? 1 : -1);
  }
  QValidator::State validate(QString& text, int& pos) const override {
    return text.trimmed() == "3" ? QValidator::Invalid : QSpinBox::validate(text, pos);
  }
};

QSpinBox* spin(int lo, int hi, const QString& name, const QString& tip, QSpinBox* b = new QSpinBox) {
  b->setRange(lo, hi);
  b->setObjectName(name);
  b->setToolTip(tip);
  b->setKeyboardTracking(false);  // typing "64" is one change, not "6" then "64"
  return b;
}

QDoubleSpinBox* ghz(const QString& name, const QString& tip) {
  auto* b = new QDoubleSpinBox;
  b->setRange(0, 7);
  b->setDecimals(2);
  b->setSingleStep(0.1);
  b->setSuffix(" GHz");
  b->setSpecialValueText("not given");
  b->setObjectName(name);
  b->setToolTip(tip);
  b->setKeyboardTracking(false);
  return b;
}

}  // namespace

MachinePanel::MachinePanel(QWidget* parent) : QWidget(parent) {
  uarch_ = new QComboBox;
  uarch_->setObjectName("uarch");
  for (const auto& u : model::uarch_table()) {  // names and aliases, as `--uarch` takes them (kept in the file)
    uarch_->addItem(QString::fromStdString(u.name));
    uarch_->setItemData(uarch_->count() - 1, QString::fromStdString(u.description), Qt::ToolTipRole);
    for (const auto& a : u.aliases) {
      uarch_->addItem(QString::fromStdString(a));
      uarch_->setItemData(uarch_->count() - 1, QString::fromStdString(u.name + " (" + u.description + ")"),
                          Qt::ToolTipRole);
    }
  }
  uarch_->setToolTip("microarchitecture: its write path (RFO evasion, SpecI2M, SMT sharing) and concurrency, "
                     "from the table of `bwlab machine uarchs`");
  sockets_ = spin(1, 8, "sockets", "packages (sockets)");
  cores_ = spin(1, 512, "cores", "cores per socket");
  smt_ = spin(1, 4, "smt", "hardware threads per core", new SmtSpinBox);
  limit_smt();
  channels_ = spin(1, 24, "channels", "DRAM channels per socket");
  mts_ = spin(400, 20000, "mts", "DRAM transfer rate, MT/s (DRAM peak = channels x MT/s x 8 B per socket)");
  mts_->setSingleStep(200);
  mts_->setSuffix(" MT/s");
  llc_mib_ = new SizeSpinBox;
  llc_mib_->setObjectName("llc");
  llc_mib_->setRange(0.0625, 4096);  // machine_from_spec's limit: 4 GiB per socket
  llc_mib_->setDecimals(4);  // 1/16 MiB steps stay exact
  llc_mib_->setSuffix(" MiB");
  llc_mib_->setToolTip("last-level cache per socket");
  llc_mib_->setKeyboardTracking(false);
  base_ghz_ = ghz("base_ghz", "base core clock (used when no turbo clock is given)");
  turbo_ghz_ = ghz("turbo_ghz", "turbo core clock (used when given: published runs run with turbo on); "
                                "neither given: the microarchitecture's typical turbo clock");

  auto* form = new QFormLayout;
  // A narrow dock puts a field under its label instead of widening the window: beside the control
  // panel and the plots, the dock's labels and fields side by side made Simulate mode need 1158 px.
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  form->addRow("Microarchitecture", uarch_);
  form->addRow("Sockets", sockets_);
  form->addRow("Cores / socket", cores_);
  form->addRow("SMT", smt_);
  form->addRow("Channels / socket", channels_);
  form->addRow("DRAM", mts_);
  form->addRow("LLC / socket", llc_mib_);
  form->addRow("Base clock", base_ghz_);
  form->addRow("Turbo clock", turbo_ghz_);

  save_ = new QPushButton("Save machine...");
  save_->setObjectName("save_machine");
  save_->setToolTip("write this machine as a machine file (the same file `bwlab machine spec` writes), for "
                    "`bwlab simulate --machine FILE`");
  load_ = new QPushButton("Load machine...");
  load_->setObjectName("load_machine");
  load_->setToolTip("fill the panel from a machine file written by `bwlab machine spec` or by Save");
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(save_);
  buttons->addWidget(load_);

  status_ = new QLabel;
  status_->setObjectName("machine_status");
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* intro = new QLabel("Edit the machine: the simulated run follows at once, with the control panel's "
                           "scenario (scaling, victim or mix), kernels, sizes, threads, placement and membind "
                           "(threads 1..max follow the PUs). "
                           "Run still simulates the machine of the Simulated machine box.");
  intro->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(form);
  layout->addLayout(buttons);
  layout->addWidget(status_);
  layout->addStretch(1);

  coalesce_.setSingleShot(true);
  coalesce_.setInterval(0);
  connect(&coalesce_, &QTimer::timeout, this, [this] { emit specChanged(spec()); });
  connect(uarch_, &QComboBox::currentIndexChanged, this, [this] {
    limit_smt();
    changed();
  });
  for (QSpinBox* b : {sockets_, cores_, smt_, channels_, mts_})
    connect(b, &QSpinBox::valueChanged, this, [this] { changed(); });
  for (QDoubleSpinBox* b : {llc_mib_, base_ghz_, turbo_ghz_})
    connect(b, &QDoubleSpinBox::valueChanged, this, [this] { changed(); });
  connect(save_, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getSaveFileName(this, "Save machine", "machine.json", "machine files (*.json)");
    QString error;
    if (!f.isEmpty()) set_status(save_machine(f, &error) ? "wrote " + f : error, !error.isEmpty());
  });
  connect(load_, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, "Load machine", {}, "machine files (*.json);;All files (*)");
    QString error;
    if (!f.isEmpty() && !load_machine(f, &error)) set_status(error, true);
  });

  // A 2-socket server to start from: AMD EPYC 9554 (Genoa), 64 cores, 12 x DDR5-4800, 256 MiB L3.
  model::SpecSheet start;
  start.uarch = "zen4";
  start.sockets = 2, start.cores = 64, start.smt = 2, start.channels = 12, start.mts = 4800;
  start.llc_bytes = 256ull << 20;
  start.base_ghz = 3.1, start.turbo_ghz = 3.75;
  set_spec(start);
  coalesce_.stop();  // nothing to redraw before anyone listens
}

model::SpecSheet MachinePanel::spec() const {
  model::SpecSheet s;
  s.uarch = uarch_->currentText().toStdString();
  s.sockets = sockets_->value();
  s.cores = cores_->value();
  s.smt = smt_->value();
  s.channels = channels_->value();
  s.mts = mts_->value();
  s.llc_bytes = static_cast<std::uint64_t>(std::llround(llc_mib_->value() * kMiB));
  s.base_ghz = base_ghz_->value();
  s.turbo_ghz = turbo_ghz_->value();
  return s;
}

// The SMT box offers what the chosen microarchitecture's cores run (the table's max_smt), so the
// panel never builds a machine `bwlab machine spec` would refuse.
void MachinePanel::limit_smt() {
  const model::Uarch* u = model::find_uarch(uarch_->currentText().toStdString());
  const int max = u ? u->max_smt : 2;
  smt_->setMaximum(max);
  smt_->setToolTip(QString("hardware threads per core: 1..%1 (%2 cores run at most %1)")
                       .arg(max)
                       .arg(uarch_->currentText()));
}

void MachinePanel::set_spec(const model::SpecSheet& s) {
  {
    const QSignalBlocker b0(uarch_), b1(sockets_), b2(cores_), b3(smt_), b4(channels_), b5(mts_), b6(llc_mib_),
        b7(base_ghz_), b8(turbo_ghz_);
    uarch_->setCurrentText(QString::fromStdString(s.uarch));
    limit_smt();
    sockets_->setValue(s.sockets);
    cores_->setValue(s.cores);
    smt_->setValue(s.smt);
    channels_->setValue(s.channels);
    mts_->setValue(static_cast<int>(std::lround(s.mts)));
    llc_mib_->setValue(double(s.llc_bytes) / kMiB);
    base_ghz_->setValue(s.base_ghz);
    turbo_ghz_->setValue(s.turbo_ghz);
  }
  changed();
}

bool MachinePanel::save_machine(const QString& path, QString* error) const {
  try {
    save_machine_file(path.toStdString(), model::machine_from_spec(spec()));
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString("cannot save the machine: %1").arg(e.what());
    return false;
  }
}

bool MachinePanel::load_machine(const QString& path, QString* error) {
  try {
    std::ifstream in(path.toStdString());
    if (!in) throw std::runtime_error("cannot read " + path.toStdString());
    set_spec(model::spec_sheet_of(read_machine_json(in, path.toStdString()), path.toStdString()));
    set_status("loaded " + path, false);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString("cannot load the machine: %1").arg(e.what());
    return false;
  }
}

void MachinePanel::set_status(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? "color: #b00020;" : QString());
}

QString MachinePanel::status() const { return status_->text(); }

}  // namespace bwlab::gui
