// SPDX-License-Identifier: MIT
#pragma once
#include <QTimer>
#include <QWidget>

#include "core/model/machine.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace bwlab::gui {

// The what-if machine: a spec sheet as `bwlab machine spec` takes it (microarchitecture,
// sockets, cores per socket, SMT, channels per socket, MT/s, LLC per socket, base and turbo GHz).
// Every edit is coalesced (a 0 ms single shot: one specChanged per burst of edits in one event
// loop pass, no delay) into one specChanged. Save writes the machine file with the core writer
// (machine_from_spec + save_machine_file, atomic: the same file `bwlab machine spec` writes);
// Load fills the panel from a machine file that holds its spec sheet.
class MachinePanel : public QWidget {
  Q_OBJECT
 public:
  explicit MachinePanel(QWidget* parent = nullptr);
  // As wide as its fields need: the wrapped help text asked for ~480 px, so the dock took that
  // from the plot at every window width (mostly blank below the fields).
  QSize sizeHint() const override { return {minimumSizeHint().width(), QWidget::sizeHint().height()}; }

  model::SpecSheet spec() const;
  void set_spec(const model::SpecSheet& s);  // fills the fields, then one specChanged
  // Writes / reads a machine file. On failure returns false and sets *error (one line).
  bool save_machine(const QString& path, QString* error) const;
  bool load_machine(const QString& path, QString* error);
  // The line under the fields: what the last change did, or why it could not (error: red).
  void set_status(const QString& text, bool error);
  QString status() const;

  // The fields, for tests and the benchmark.
  QComboBox* uarch_box() const { return uarch_; }
  QSpinBox* sockets_box() const { return sockets_; }
  QSpinBox* cores_box() const { return cores_; }
  QSpinBox* smt_box() const { return smt_; }
  QSpinBox* channels_box() const { return channels_; }
  QSpinBox* mts_box() const { return mts_; }
  QDoubleSpinBox* llc_box() const { return llc_mib_; }
  QDoubleSpinBox* base_box() const { return base_ghz_; }
  QDoubleSpinBox* turbo_box() const { return turbo_ghz_; }

 signals:
  void specChanged(const bwlab::model::SpecSheet& spec);

 private:
  void changed() { coalesce_.start(); }
  void limit_smt();

  QComboBox* uarch_;
  QSpinBox* sockets_;
  QSpinBox* cores_;
  QSpinBox* smt_;
  QSpinBox* channels_;
  QSpinBox* mts_;
  QDoubleSpinBox* llc_mib_;
  QDoubleSpinBox* base_ghz_;
  QDoubleSpinBox* turbo_ghz_;
  QPushButton* save_;
  QPushButton* load_;
  QLabel* status_;
  QTimer coalesce_;
};

}  // namespace bwlab::gui
