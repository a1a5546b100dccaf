// SPDX-License-Identifier: MIT
#include "gui/app/results_model.hpp"

#include <QStringList>

#include "gui/plots/series.hpp"

namespace bwlab::gui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString join(const std::vector<int>& v) {
  QStringList l;
  for (int x : v) l << QString::number(x);
  return l.join(',');
}

}  // namespace

int ResultsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ResultsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() < 0 || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const Row& r = rows_[static_cast<std::size_t>(index.row())];
  const Point& p = r.point;
  const bool raw = role == RawValueRole;
  if (role == Qt::TextAlignmentRole)
    return index.column() >= Threads && index.column() != Placement && index.column() != Membind &&
                   index.column() != Pages && index.column() != Pus && index.column() != Flags
               ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
               : QVariant(int(Qt::AlignLeft | Qt::AlignVCenter));
  if (role == Qt::ToolTipRole) return qs(point_details(p, r.dataset));
  if (role != Qt::DisplayRole && !raw) return {};
  auto num = [&](double v, int decimals) { return raw ? QVariant(v) : QVariant(QString::number(v, 'f', decimals)); };
  switch (static_cast<Columns>(index.column())) {
    case Dataset: return qs(r.dataset);
    case Source: return qs(p.source);
    case Kernel: return qs(p.kernel);
    case Fill: return qs(p.fill);
    case Threads: return p.threads;
    case SizeBytes: return raw ? QVariant(qulonglong(p.size_bytes)) : QVariant(qs(size_text(double(p.size_bytes))));
    case Placement: return qs(p.placement);
    case Membind: return qs(p.membind);
    case Pages: return qs(p.pages);
    case Reps: return p.reps;
    case DurationMs: return num(p.duration_ms, 0);
    case GbpsMedian: return num(p.gbps_median, 2);
    case GbpsMin: return num(p.gbps_min, 2);
    case GbpsMax: return num(p.gbps_max, 2);
    case PstdevPct: return num(p.gbps_pstdev_pct, 1);
    case GbpsPerThread: return num(p.gbps_per_thread_median, 2);
    case Fairness: return num(p.thread_fairness, 2);
    case Pus: return join(p.pus.empty() ? p.pus_planned : p.pus);
    case Flags: {
      QStringList l;
      for (const auto& f : p.flags) l << qs(f);
      return l.join("; ");
    }
    case ColumnCount: break;
  }
  return {};
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  static const char* names[ColumnCount] = {"run/file", "source", "kernel", "fill", "threads", "bytes/thread",
                                           "placement", "membind", "pages", "reps", "window ms", "GB/s median",
                                           "GB/s min", "GB/s max", "pstdev %", "GB/s per thread", "fairness",
                                           "PUs", "flags"};
  return section >= 0 && section < ColumnCount ? QVariant(names[section]) : QVariant();
}

void ResultsModel::append(const std::string& dataset, const std::vector<Point>& points) {
  if (points.empty()) return;
  const int first = rowCount();
  beginInsertRows({}, first, first + static_cast<int>(points.size()) - 1);
  for (const auto& p : points) rows_.push_back({dataset, p});
  endInsertRows();
}

void ResultsModel::remove_dataset(const std::string& dataset) {
  for (int i = rowCount() - 1; i >= 0; --i) {
    if (rows_[static_cast<std::size_t>(i)].dataset != dataset) continue;
    int first = i;
    while (first > 0 && rows_[static_cast<std::size_t>(first - 1)].dataset == dataset) --first;
    beginRemoveRows({}, first, i);
    rows_.erase(rows_.begin() + first, rows_.begin() + i + 1);
    endRemoveRows();
    i = first;
  }
}

void ResultsModel::clear() {
  beginResetModel();
  rows_.clear();
  endResetModel();
}

}  // namespace bwlab::gui
