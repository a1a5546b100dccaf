// SPDX-License-Identifier: MIT
#include "gui/app/crossover_marks.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/insight/verdict.hpp"

namespace bwlab::gui {

std::vector<Ceiling> crossover_marks(const std::vector<Dataset>& runs, std::size_t limit) {
  std::vector<Ceiling> marks;
  for (const Dataset& run : runs) {
    if (run.points.size() < 2) continue;
    std::vector<PairVerdict> verdicts;
    try {
      verdicts = compute_verdicts(run.points);
    } catch (const InputError&) {
      continue;  // two points share every parameter: the verdict panel says why
    }
    for (const PairVerdict& v : verdicts) {
      // The largest size whose winner changes with the thread count.
      for (auto c = v.by_size.rbegin(); c != v.by_size.rend(); ++c) {
        if (c->kind != ThreadCrossoverKind::changes) continue;
        if (marks.size() >= limit) return marks;
        marks.push_back({Ceiling::Axis::threads, double(c->at_threads),
                         fmt::format("{} vs {} {}: winner changes at {}T{}", v.wa_kernel, v.nt_kernel,
                                     size_text(double(c->size)), c->at_threads, v.predicted ? " (predicted)" : "")});
        break;
      }
    }
  }
  return marks;
}

}  // namespace bwlab::gui
