// SPDX-License-Identifier: MIT
#pragma once
#include <vector>

#include "gui/plots/ceilings.hpp"
#include "gui/plots/series.hpp"

namespace bwlab::gui {

// Where the stosb-vs-NT winner changes with the thread count, as vertical marks for the threads
// plot: per run, per (write-allocate, NT) pair of core's verdict (compute_verdicts), the largest
// size whose thread crossover is "changes" (the same rule as `bwlab verdict`). NT kernels whose
// winner changes at the same size and thread count share one mark ("stosb vs movnti, movntdq,
// avx2-nt 16 MiB: winner changes at 2T"); a label another run already gave is not repeated. At
// most `limit` marks; a run whose points the verdict refuses (ambiguous input) gives none. No Qt.
std::vector<Ceiling> crossover_marks(const std::vector<Dataset>& runs, std::size_t limit = 4);

}  // namespace bwlab::gui
