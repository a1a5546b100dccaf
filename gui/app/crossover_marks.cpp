// SPDX-License-Identifier: MIT
#include "gui/app/crossover_marks.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/insight/verdict.hpp"

namespace bwlab::gui {

std::vector<Ceiling> crossover_marks(const std::vector<Dataset>& runs, std::size_t limit) {
  // One mark per run, write-allocate kernel, size and crossover: the NT kernels that change at
  // the same thread count (often identical curves) share it, "stosb vs movnti, movntdq 16 MiB".
  // What changes is said as the verdict says it ("stosb catches up", "stosb overtakes"): NT ahead
  // -> level is no change of winner. With several runs shown, each mark names its run.
  struct Mark {
    std::string wa;
    std::vector<std::string> nts;
    std::uint64_t size;
    int at;
    bool predicted;
    std::string what;
  };
  std::vector<Ceiling> marks;
  const std::size_t shown = static_cast<std::size_t>(
      std::count_if(runs.begin(), runs.end(), [](const Dataset& r) { return r.points.size() >= 2; }));
  for (const Dataset& run : runs) {
    if (run.points.size() < 2) continue;
    std::vector<PairVerdict> verdicts;
    try {
      verdicts = compute_verdicts(run.points);
    } catch (const InputError&) {
      continue;  // two points share every parameter: the verdict panel says why
    }
    std::vector<Mark> run_marks;
    for (const PairVerdict& v : verdicts) {
      // The largest size whose winner changes with the thread count.
      for (auto c = v.by_size.rbegin(); c != v.by_size.rend(); ++c) {
        if (c->kind != ThreadCrossoverKind::changes) continue;
        const std::string what = crossover_change_short(*c, v.wa_kernel);
        auto same = std::find_if(run_marks.begin(), run_marks.end(), [&](const Mark& m) {
          return m.wa == v.wa_kernel && m.size == c->size && m.at == c->at_threads && m.predicted == v.predicted &&
                 m.what == what;
        });
        if (same != run_marks.end()) same->nts.push_back(v.nt_kernel);
        else run_marks.push_back({v.wa_kernel, {v.nt_kernel}, c->size, c->at_threads, v.predicted, what});
        break;
      }
    }
    for (const Mark& m : run_marks) {
      std::string tags;
      if (m.predicted) tags = "predicted";
      if (shown > 1) tags += (tags.empty() ? "" : ", ") + run.name;
      const std::string label = fmt::format("{} vs {} {}: {} at {}T{}", m.wa, fmt::join(m.nts, ", "),
                                            size_text(double(m.size)), m.what, m.at,
                                            tags.empty() ? "" : " (" + tags + ")");
      const bool repeated = std::any_of(marks.begin(), marks.end(), [&](const Ceiling& c) { return c.label == label; });
      if (repeated) continue;  // two runs with the same crossover: one line says it
      if (marks.size() >= limit) return marks;
      marks.push_back({Ceiling::Axis::threads, double(m.at), label});
    }
  }
  return marks;
}

}  // namespace bwlab::gui
