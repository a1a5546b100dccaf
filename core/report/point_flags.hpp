// SPDX-License-Identifier: MIT
#pragma once
#include <string_view>

#include "core/report/record.hpp"

namespace bwlab {

// What a point's flags say about trusting its figure. A *caution* (unsteady_flag) says the figure
// may be the host's, not the memory's: the tables mark it "!", the plots ring it in red, compare
// and the verdict say so. Every other flag is a *note* (how the figure was made: "single
// repetition", "reps auto: ... (target met)", "simulated: 95% of RFO reads evaded"), marked "*".

// The run's own flag: with --placement none the OS kept two of the point's threads on one PU, so
// the point measures the placement, not memory contention. verdict leaves such points out.
bool threads_shared_a_pu(const Point& p);

// An imported point whose source gave no thread count (a mailing-list table): bwlab import put 1
// there and said so in this flag. Verdict, plots and reports say "1 assumed" where they name it.
inline constexpr std::string_view kThreadsAssumedFlag = "threads not stated: 1 assumed (one figure per size)";
bool threads_assumed(const Point& p);

// An imported point that stands in for a clear (tests/data/public's kerncraft rows: likwid-bench
// update / 2, flagged "... = write-allocate clear proxy (...)"), not a clearing measurement.
bool clear_proxy(const Point& p);

// A measured point measured in windows its run flagged as disturbed (noisy: a thread lost CPU
// time; window: threads held up past --duration): its figures may be low, which its min..max does
// not show. verdict says so beside the standing and the recommendation.
bool windows_disturbed(const Point& p);

// Whether `flag`, one of measured point `p`'s flags, is a caution: an unstable spread, noisy or
// held-up windows, unbound threads that shared one PU, or pinned threads seen off their PUs (a
// taskset or cpuset change during the run). A long pass ("window 78 ms for --duration
// 50 ms: a pass of 256MiB took 68 ms") is not one. A simulated or imported point's flags are notes.
bool unsteady_flag(const Point& p, std::string_view flag);

// A measured point with a caution among its flags: a change there may be the host's, not the
// code's. The GUI's open-file line and compare count them; tables mark their rows "!".
bool flagged_unsteady(const Point& p);

// The mark a table gives a point's row: "!" when flagged_unsteady, "*" when it has notes only, ""
// without flags. A footnote line starts with footnote_mark of its flag: "! " or "* ".
std::string_view row_mark(const Point& p);
std::string_view footnote_mark(const Point& p, std::string_view flag);

}  // namespace bwlab
