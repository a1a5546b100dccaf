// SPDX-License-Identifier: MIT
#pragma once
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "core/report/record.hpp"

namespace bwlab {

struct CompareOptions {
  double tolerance_pct = 5.0;  // a drop of the median by more than this may be a regression
  // Simulated points are judged by their model band (band_of in verdict.hpp): gbps_min..max when
  // min < max, else the median -+ this %.
  double model_band_pct = 10.0;
  // Set by the caller (model::other_vendor_sheet) when the prediction is a spec sheet of another
  // vendor than the measured CPU: every prediction-vs-measurement point is then "a prediction for
  // another CPU", and this text (naming both) leads the note.
  std::string other_cpu_note;
};

// A point's change from BASE to NEW (matched by point_key):
//   regressed:  the median dropped by more than the tolerance AND beyond the noise of both
//               runs: NEW's fastest repetition (max) is below BASE's slowest (min), i.e. the
//               min..max ranges do not overlap;
//   improved:   the mirror image (rose by more than the tolerance, NEW's min above BASE's max);
//   within_noise: changed by more than the tolerance, but the ranges overlap;
//   within_tolerance: changed by no more than the tolerance.
// With one repetition a range is a single value, so only the tolerance applies.
enum class Change { regressed, improved, within_noise, within_tolerance };
const char* to_string(Change c);

struct ComparedPoint {
  Point base, now;
  double change_pct = 0;  // (now median / base median - 1) * 100
  Change change = Change::within_tolerance;
  // A measurement against a prediction (one side simulated, the other not): its change is how far
  // the two disagree, said as such, and never counted as a regression or improvement.
  bool against_model = false;
  // ... of another CPU: both sides name a CPU and they differ (the demo's AMD EPYC VM against a
  // Xeon 8270CL preset). Their gap is the machines', not the model's error; counted apart.
  bool other_cpu = false;
};

// The change in words: to_string(cp.change), but "within the model bands" where a prediction's
// range (its model band, not a noise) overlaps the other side's, and "NEW lower/higher, beyond the
// band (model vs measurement)" where a measurement and a prediction are apart (not a regression),
// "... (a prediction for another CPU)" where that prediction is of another CPU.
std::string change_words(const ComparedPoint& cp);
// " [flagged: BASE]", " [flagged: NEW]", " [flagged: BASE and NEW]": the sides whose measured point
// its run flagged unstable or noisy (flagged_unsteady), appended to the row's words; "" when none.
std::string flagged_sides(const ComparedPoint& cp);

struct Comparison {
  std::vector<ComparedPoint> matched;     // in BASE's order
  std::vector<Point> only_base, only_new;
  std::vector<std::string> notes;         // e.g. the runs come from different hosts
  std::vector<std::string> warnings;      // matched points that are not like for like (different windows)
  bool different_hosts = false;           // BASE and NEW were measured (or modelled) on different hosts
  int regressions = 0, improvements = 0;
  int model_below = 0, model_above = 0;   // against_model points whose NEW is apart below / above BASE
  int other_below = 0, other_above = 0;   // the same for other_cpu points (not in model_below/above)
};

// Throws InputError (exit 2) for a tolerance below 0% or above 100% (no drop exceeds 100%), when no point matches, when a file holds two points with the
// same parameters (e.g. a fleet file: compare one host's run), or on a non-positive median.
Comparison compare_points(std::span<const Point> base, std::span<const Point> now, const CompareOptions& o);

// The header ("note: ..." and "warning: ..." lines), one line per matched point with both medians,
// both spreads and the change; then the points found in one file only, and a summary line.
void print_comparison(std::ostream& out, const Comparison& c, const CompareOptions& o);

}  // namespace bwlab
