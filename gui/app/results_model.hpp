// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include <QAbstractTableModel>

#include "core/report/record.hpp"

namespace bwlab::gui {

// The points shown in the table: the same records as the CSV, one row each, with the
// dataset (run or file) they belong to.
class ResultsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  // Scenario columns (peer .. reader alone) are empty where they do not apply, as in the CSV.
  enum Columns {
    Dataset, Source, Scenario, Kernel, Fill, Threads, SizeBytes, GbpsMedian, GbpsMin, GbpsMax, PstdevPct,
    GbpsPerThread, Fairness, Peer, PeerThreads, SlowdownPct, BaselineGbps, FaultsPerS, HugePct, Entries, MunmapNs,
    ReaderNs, ReaderAloneNs, Placement, Membind, Pages, Reps, DurationMs, Pus, Flags, ColumnCount
  };
  // True when no row has a value in `column` (the table hides such scenario columns).
  bool column_empty(int column) const;
  // True when every row is a scaling point (the table then hides the scenario column).
  bool all_scaling() const;
  // The unformatted value (numbers as double/qulonglong), for sorting.
  static constexpr int RawValueRole = Qt::UserRole + 1;

  using QAbstractTableModel::QAbstractTableModel;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  void append(const std::string& dataset, const std::vector<Point>& points);
  void remove_dataset(const std::string& dataset);
  void clear();
  const Point& point(int row) const { return rows_.at(static_cast<std::size_t>(row)).point; }

 private:
  struct Row {
    std::string dataset;
    Point point;
  };
  std::vector<Row> rows_;
};

}  // namespace bwlab::gui
