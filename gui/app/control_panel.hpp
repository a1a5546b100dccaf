// SPDX-License-Identifier: MIT
#pragma once
#include <map>

#include <QWidget>

#include "core/kernels/cpu_features.hpp"
#include "gui/app/run_controller.hpp"

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSettings;
class QSpinBox;

namespace bwlab::gui {

// The left-hand panel: what to run (measure or simulate), with Run and Stop.
class ControlPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ControlPanel(const CpuFeatures& cpu, QWidget* parent = nullptr);

  RunRequest request() const;
  void set_request(const RunRequest& r);  // also used by tests
  void set_running(bool running);
  void load(QSettings& s);
  void save(QSettings& s) const;
  QCheckBox* kernel_box(const QString& name) const;
  QComboBox* scenario_box() const { return scenario_; }
  // The widget of an option ("victims", "aggressors", "mix", "entries", "threads", "fill",
  // "kernels"), for tests: enabled only when the chosen scenario reads it.
  QWidget* option_widget(const QString& name) const;
  QString scenario_note() const;

 signals:
  void runClicked();
  void stopClicked();
  void modeChanged(bool simulate);  // Measure / Simulate switched
  // The user changed what the sweep runs (kernels, sizes, threads, placement, membind, pages,
  // fill, scenario and its options): the what-if run re-simulates. Not emitted by set_request or
  // load (a session or the settings set the fields).
  void sweepEdited();

 private:
  void update_mode();
  void on_scenario_changed();

  CpuFeatures cpu_;
  QRadioButton* measure_;
  QRadioButton* simulate_;
  std::map<QString, QCheckBox*> kernels_;
  QLineEdit* sizes_;
  QLineEdit* threads_;
  QComboBox* placement_;
  QComboBox* membind_;
  QComboBox* pages_;
  QLineEdit* fill_;
  QComboBox* scenario_;
  QString last_scenario_ = "scaling";
  QLineEdit* victims_;
  QLineEdit* aggressors_;
  QLineEdit* mix_;
  QLineEdit* entries_;
  QLabel* scenario_note_;
  QGroupBox* kbox_;
  QSpinBox* reps_;
  QSpinBox* duration_;
  QGroupBox* sim_box_;
  QComboBox* topology_;
  QComboBox* machine_;
  QPushButton* run_;
  QPushButton* stop_;
};

}  // namespace bwlab::gui
