// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include "gui/plots/ceilings.hpp"
#include "gui/plots/series.hpp"

namespace bwlab::gui {

// Where the stosb-vs-NT winner changes with the thread count, as vertical marks for the threads
// plot: per run, per (write-allocate, NT) pair of core's verdict (compute_verdicts), the largest
// size whose thread crossover is "changes" (the same rule as `bwlab verdict`). NT kernels whose
// winner changes at the same size and thread count share one mark ("stosb vs movnti, movntdq,
// avx2-nt 16 MiB: winner changes at 2T"); a mark another run already gave is not repeated, its
// label names both runs ("(predicted, a.json, b.json)"). At
// most `limit` marks; a run whose points the verdict refuses (ambiguous input) gives none. Only
// the verdicts of `scenario`'s rows, the ones the plot draws: a victim plot's marks stand at the
// aggressor count k = threads - 1, its x, say "k = 25" and name the aggressors' kernel ("beside
// stosb"); a mix has none (its kernels run at once, not as alternatives). No Qt.
std::vector<Ceiling> crossover_marks(const std::vector<Dataset>& runs, const std::string& scenario = "scaling",
                                     std::size_t limit = 4);

}  // namespace bwlab::gui
