// SPDX-License-Identifier: MIT
#pragma once
#include <span>
#include <string_view>

#include "core/report/point_flags.hpp"  // threads_shared_a_pu, windows_disturbed, flagged_unsteady
#include "core/report/record.hpp"

namespace bwlab {

// A median GB/s that can be compared or drawn: finite and above zero (a hand-edited or broken
// file may hold -5, 0 or nan). compare and plot refuse a point without one.
bool usable_gbps(double gbps);

// Throws InputError "ORIGIN: POINT: no usable median GB/s (VALUE)" for the first point whose
// median (per thread with `per_thread`, as plot --per-thread draws it) is not usable_gbps;
// tlbflush points, which hold no GB/s (record.hpp), are passed over.
void refuse_unusable_medians(std::span<const Point> points, std::string_view origin, bool per_thread = false);

// Its repetitions were chosen by --reps auto ("reps auto: ..." flag): advice names --max-reps and
// --target-pstdev, not --reps N.
bool reps_chosen_automatically(const Point& p);
// Disturbed although --reject-noisy was on ("... --reject-noisy was on and its fresh windows were
// disturbed too"): advice is a quieter machine, not that option.
bool disturbed_despite_reject_noisy(const Point& p);

}  // namespace bwlab
