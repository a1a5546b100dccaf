// SPDX-License-Identifier: MIT
#include "gui/app/results_model.hpp"

#include <algorithm>

#include "gui/app/form_wording.hpp"

#include <cmath>
#include <limits>

#include <QStringList>

#include "core/report/fields.hpp"
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
  const int col = index.column();
  if (role == Qt::TextAlignmentRole) {
    const bool left = col == Dataset || col == Source || col == Scenario || col == Kernel || col == Peer ||
                      col == Fill || col == Placement || col == Membind || col == Pages || col == Pus || col == Flags;
    return left ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter)) : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
  }
  if (role == Qt::ToolTipRole) return qs(point_details(p, r.dataset));
  if (role != Qt::DisplayRole && !raw) return {};
  // Figures that do not apply (NaN, -1) are empty cells, as in the CSV.
  auto num = [&](double v, int decimals) {
    if (std::isnan(v)) return raw ? QVariant(-std::numeric_limits<double>::infinity()) : QVariant(QString());
    return raw ? QVariant(v) : QVariant(QString::number(v, 'f', decimals));
  };
  auto count = [&](int v) { return v < 0 ? (raw ? QVariant(-1) : QVariant(QString())) : QVariant(v); };
  switch (static_cast<Columns>(col)) {
    case Dataset: return qs(r.dataset);
    case Source: return qs(p.source);
    case Scenario: return qs(p.scenario);
    case Kernel: return qs(p.kernel);
    case Peer: return qs(p.peer_kernel);
    case PeerThreads: return count(p.peer_threads);
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
    case PstdevPct: return p.source == "simulated" ? QVariant() : num(p.gbps_pstdev_pct, 1);  // no repetitions
    case GbpsPerThread: return num(p.gbps_per_thread_median, 2);
    case Fairness: return num(p.thread_fairness, 2);
    case SlowdownPct: return num(p.slowdown_pct, 1);
    case BaselineGbps: return num(p.baseline_gbps, 2);
    case FaultsPerS: return num(p.faults_per_s, 0);
    case HugePct: return num(p.huge_pct, 0);
    case Entries: return count(p.entries);
    case MunmapNs: return num(p.munmap_ns_median, 0);
    case ReaderNs: return num(p.reader_ns_median, 2);
    case ReaderAloneNs: return num(p.reader_alone_ns, 2);
    case Pus: return join(p.pus.empty() ? p.pus_planned : p.pus);
    case Flags: {
      QStringList l;
      for (const auto& f : p.flags) l << qs(form_wording(f));  // the form's words, as in the log
      return l.join("; ");
    }
    case ColumnCount: break;
  }
  return {};
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section >= 0 && section < ColumnCount) {
    // The CSV/JSON field each column shows; its tooltip comes from the one field table.
    static const char* fields[ColumnCount] = {
        nullptr,         "source",        "scenario",          "kernel",          "fill",
        "threads",       "size_bytes",    "gbps_median",       "gbps_min",        "gbps_max",
        "gbps_pstdev_pct", "gbps_per_thread_median", "thread_fairness", "peer_kernel", "peer_threads",
        "slowdown_pct",  "baseline_gbps", "faults_per_s",      "huge_pct",        "entries",
        "munmap_ns_median", "reader_ns_median", "reader_alone_ns", "placement",   "membind",
        "pages",         "reps",          "duration_ms",       "pus",             "flags"};
    const PointField* f = fields[section] ? find_point_field(fields[section]) : nullptr;
    if (!f) return qs("the run or file the row comes from");
    const std::string unit = f->unit.empty() ? std::string() : " (" + std::string(f->unit) + ")";
    return qs(std::string(f->name) + unit + ": " + std::string(f->description));
  }
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  static const char* names[ColumnCount] = {
      "run/file",  "source",      "scenario",     "kernel",     "fill",       "threads",         "bytes/thread",
      "GB/s median\n/ predicted", "GB/s min\n/ band low", "GB/s max\n/ band high", "pstdev %",   "GB/s per thread", "fairness",   "peer\nkernel",
      "peer\nthreads", "slowdown\n%", "alone\nGB/s", "faults/s",   "huge %",     "entries",         "munmap ns",
      "reader ns", "reader alone ns", "placement", "membind",    "pages",      "reps",            "window ms",
      "PUs",       "flags"};
  return section >= 0 && section < ColumnCount ? QVariant(names[section]) : QVariant();
}

bool ResultsModel::column_empty(int column) const {
  for (int row = 0; row < rowCount(); ++row)
    if (!data(index(row, column)).toString().isEmpty()) return false;
  return true;
}

bool ResultsModel::all_scaling() const {
  return std::all_of(rows_.begin(), rows_.end(), [](const auto& r) { return r.point.scenario == "scaling"; });
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
