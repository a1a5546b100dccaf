// SPDX-License-Identifier: MIT
#pragma once
#include <span>
#include <string_view>

#include "core/report/record.hpp"

namespace bwlab {

// A median GB/s that can be compared or drawn: finite and above zero (a hand-edited or broken
// file may hold -5, 0 or nan). compare and plot refuse a point without one.
bool usable_gbps(double gbps);

// Throws InputError "ORIGIN: POINT: no usable median GB/s (VALUE)" for the first point whose
// median (per thread with `per_thread`, as plot --per-thread draws it) is not usable_gbps;
// tlbflush points, which hold no GB/s (record.hpp), are passed over.
void refuse_unusable_medians(std::span<const Point> points, std::string_view origin, bool per_thread = false);

// The run's own flag: with --placement none the OS kept two of the point's threads on one PU, so
// the point measures the placement, not memory contention. verdict leaves such points out.
bool threads_shared_a_pu(const Point& p);

// A measured point measured in windows its run flagged as disturbed (noisy: a thread lost CPU
// time; window: threads held up past --duration): its figures may be low, which its min..max does
// not show. verdict says so beside the standing and the recommendation.
bool windows_disturbed(const Point& p);

// A measured point its run flagged as unsteady (unstable spread, noisy or held-up windows, unbound
// threads that shared one PU): a change there may be the host's, not the code's. The GUI's
// open-file line and compare count them.
bool flagged_unsteady(const Point& p);

// Its repetitions were chosen by --reps auto ("reps auto: ..." flag): advice names --max-reps and
// --target-pstdev, not --reps N.
bool reps_chosen_automatically(const Point& p);
// Disturbed although --reject-noisy was on ("... --reject-noisy was on and its fresh windows were
// disturbed too"): advice is a quieter machine, not that option.
bool disturbed_despite_reject_noisy(const Point& p);

}  // namespace bwlab
