// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/report/record.hpp"

namespace bwlab {

// How a verdict judges noise. A point's spread is its min..max range over repetitions and its
// population stdev (% of mean), both from the CSV/JSON.
struct VerdictOptions {
  int min_sizes = 1;              // sizes both kernels measured, per thread count
  int min_reps = 2;               // one repetition has no spread to judge
  double max_spread_pct = 15.0;   // overlapping ranges with a pstdev above this: too noisy to tell
  // Simulated points (source "simulated") are predictions: they are judged by the model's band,
  // gbps_min..gbps_max when the simulator gives one (min < max), else median x (1 -+ this %);
  // two predictions stand apart when their medians differ by more than the wider band's reach
  // below its median, and by more than 33% (see Standing).
  double model_band_pct = 10.0;
  // print_verdicts only: this machine's last-level cache and host name. A measured call (NT good
  // or NT slow) made on this host from rows that all fit in the LLC says so on its Recommendation
  // line; llc_resident_note explains below (readers stopped at the call). 0: not said.
  std::uint64_t llc_bytes = 0;
  int llc_count = 1;
  std::string this_host;
  // This machine's CPU model name: a point of this host name measured on another CPU (a guest
  // moved to another host, a default name such as "localhost" on two machines) is another
  // machine's, judged without this LLC. Empty: the host name alone decides.
  std::string this_cpu;
  std::string llc_whose = "this machine's";  // whose LLC llc_bytes is ("nodeA's": a run of another host)
  // The LLC (bytes, count) each other host's run recorded (a fleet CSV from `bwlab merge`): its
  // calls are judged by its own cache (another host's in-cache rows read "keep the cacheable stosb
  // for large clears" beside this host's "for clears that fit in the cache only").
  std::map<std::string, std::pair<std::uint64_t, int>> recorded_llc;
};

// The low..high range a point is judged by: measured points their min..max over repetitions;
// simulated points the model's band, or the default relative band when the point carries none.
struct Band {
  double lo = 0, hi = 0;
  bool default_band = false;  // simulated point without a band of its own: model_band_pct used
  bool pstdev_bound = false;  // imported mean and +-% without min..max: bounded_by_pstdev
};
bool is_prediction(const Point& p);  // source == "simulated"
// Whether a point of `host` measured on `cpu` is this machine's (`this_host`, `this_cpu`): the same
// host name, and the same CPU model when both are known.
bool same_machine(std::string_view host, std::string_view cpu, std::string_view this_host, std::string_view this_cpu);
// An imported point that gives a mean, a +-% and its repetitions (n >= 2) but no min..max (a
// mailing-list table: "20.38 GB/s ( +- 2.58%)", 5 runs). Its repetitions are bounded: no value of
// n lies more than sqrt(n-1) population standard deviations from their mean (Samuelson's
// inequality); the band taken is mean +- (n-1) x that %, which also holds when the +-% is perf
// stat's standard error of the mean (sqrt(n) times the sample deviation's smaller).
bool bounded_by_pstdev(const Point& p);
Band band_of(const Point& p, const VerdictOptions& o);

// At the largest size of one thread count, where NT stands against write-allocate:
//   nt_ahead:  NT's slowest repetition beats write-allocate's fastest (ranges apart); for two
//              predictions: NT's median above write-allocate's by more than the band's reach
//              (median / low end - 1 of the wider band; x/1.6 bands: more than 1.6x), and by
//              more than 33% (the largest per-machine out-of-sample ratio log-RMS);
//   nt_behind: NT's fastest repetition is below write-allocate's slowest (predictions: the mirror);
//   tie:       ranges overlap and both spreads are within max_spread_pct (no measurable difference);
//   noisy:     ranges overlap and a spread exceeds max_spread_pct (too noisy to tell);
//   unusable:  too few sizes or repetitions (see `problem`).
enum class Standing { nt_ahead, nt_behind, tie, noisy, unusable };
const char* to_string(Standing s);
// The standing as said of measured points ("NT ahead (ranges apart)") or of predictions
// ("NT ahead (beyond the model's uncertainty)").
const char* standing_text(Standing s, bool predicted);

enum class CrossoverKind {
  interpolated,    // NT behind (by median) at one size and ahead from the next size on
  below_range,     // NT ahead at every measured size
  none_in_range,   // NT not ahead at the largest size
  not_computed,    // unusable data
};

struct ThreadsVerdict {
  int threads = 0;
  int reps = 0;                       // fewest repetitions of the points used
  int reps_most = 0;                  // most (--reps auto, files of several runs: they differ by point)
  int wa_reps = 0, nt_reps = 0;       // the repetitions behind each kernel's figure at the largest size
  std::vector<std::uint64_t> sizes;   // sizes both kernels measured, ascending
  std::string problem;                // why the row is unusable, else empty
  CrossoverKind crossover = CrossoverKind::not_computed;
  double crossover_bytes = 0;         // interpolated in log(size) and log(NT/WA ratio)
  std::uint64_t bracket_lo = 0, bracket_hi = 0;  // measured sizes around the crossover
  int sign_changes = 0;               // how often NT-vs-WA changes sides over the sizes
  // At the largest size:
  std::uint64_t largest = 0;
  double speedup_pct = 0;             // (NT median / WA median - 1) * 100
  double wa_median = 0, wa_min = 0, wa_max = 0, wa_pstdev_pct = 0;
  double nt_median = 0, nt_min = 0, nt_max = 0, nt_pstdev_pct = 0;
  Standing standing = Standing::unusable;
  bool predicted = false;             // simulated points: judged by the model band, no repetitions
  bool default_band = false;          // a point used had no band of its own (model_band_pct used)
  int sizes_nt_ahead = 0, sizes_nt_behind = 0;  // sizes where the ranges/bands are apart, each way
  int sizes_ahead_in_llc = 0, sizes_behind_in_llc = 0;  // of those, predicted with buffers in the LLC
  bool largest_in_llc = false;  // predicted: the model keeps a buffer of the largest size in the LLC (its flag)
  bool pstdev_bound = false;          // wa_min..max / nt_min..max are bounded_by_pstdev bounds, not min..max
  bool bare_medians = false;          // imported without a spread: medians (and their crossover) shown, no call
  int disturbed = 0;                  // points used (either kernel, any size) measured in disturbed windows
  bool largest_disturbed = false;     // ... among them a point at the largest size, whose standing is shown
  bool reps_auto = false;             // a point used was measured with --reps auto (its flag says so)
  int disturbed_rejecting = 0;        // ... of them measured with --reject-noisy on (its fresh windows disturbed too)
};

// At one size, how NT stands against write-allocate as the thread count grows (bandwidth
// competition), and the thread count where the winner changes. The min..max rule (measured)
// or the model band (simulated) decides each standing; a change needs a decisive standing
// (ahead, behind or level) different from the one at the fewest threads.
enum class ThreadCrossoverKind {
  changes,      // the standing changes at `at_threads`
  none,         // the same decisive standing at every thread count
  cannot_tell,  // the fewest threads, or every later thread count, cannot be judged
};
struct ThreadCrossover {
  std::uint64_t size = 0;
  std::vector<int> threads;            // ascending
  std::vector<Standing> standing;      // per thread count
  std::vector<double> speedup_pct;     // NT median / WA median - 1, per thread count
  ThreadCrossoverKind kind = ThreadCrossoverKind::cannot_tell;
  int at_threads = 0;                  // first thread count whose standing differs (kind changes)
  Standing from = Standing::unusable, to = Standing::unusable;
  bool predicted = false;
};
// "WA is level at 8 threads (NT ahead +95.1% at 1T, level -3.0% at 8T)", "none: NT ahead at every
// thread count (1..52T), ...", "cannot tell: ...".
std::string thread_crossover_text(const ThreadCrossover& c, const std::string& wa, const std::string& nt);
// What changes at c.at_threads (kind changes), short, with the write-allocate kernel named and the
// NT side called "NT": "stosb is level" (NT ahead -> level), "stosb overtakes" (NT ahead -> NT
// behind), "NT is level", "NT overtakes", "NT pulls ahead" (level -> NT ahead), "stosb pulls ahead".
// Only "overtakes" is a change of winner. For plot marks that name the pair beside it.
std::string crossover_change_short(const ThreadCrossover& c, const std::string& wa);

enum class Recommendation { nt_good, nt_slow, depends_on_load, no_difference, cannot_tell };
// "NT good", "NT slow", "depends on load", "no difference", "cannot tell"
const char* to_string(Recommendation r);

// One write-allocate kernel against one non-temporal (or clzero) kernel, within one context.
struct PairVerdict {
  // Context: every point of a pair shares these.
  std::string source, scenario, host, cpu_model, fill, placement, membind, pages;
  std::string aggressor;  // victim scenario: the aggressors' kernel (one verdict per aggressor); else empty
  double duration_ms = 0;
  bool threads_assumed = false;  // imported without a thread count: the 1 is bwlab import's (threads_assumed)
  std::string wa_kernel, nt_kernel;
  std::vector<ThreadsVerdict> rows;   // ascending threads
  Recommendation recommendation = Recommendation::cannot_tell;
  std::string reasoning;              // one paragraph
  bool predicted = false;             // source "simulated": every call is a model prediction
  std::vector<ThreadCrossover> by_size;  // per size with >= 2 thread counts, ascending size
  // Predicted only: other NT kernels the model gives exactly nt_kernel's figures at every point
  // (avx512-nt = movnti on a preset whose NT rate does not depend on the store width). Their pairs
  // are not judged again: a report printed two identical verdict blocks.
  std::vector<std::string> nt_twins;
  std::vector<std::string> wa_twins;  // the same for the write-allocate side (stosq, memset = stosb)
};

// Marks every line of a prediction's output (print_verdicts), so that it cannot be mistaken for
// a measured call.
inline constexpr const char* kPredictionTag = "[prediction] ";

// True when the points hold >= 2 sizes or >= 2 thread counts and both a write-allocate and a
// non-temporal (or zeroing-without-fetch) kernel: a verdict is worth printing.
bool verdict_applicable(std::span<const Point> points);

// Every (write-allocate, NT) pair x context, with a row per thread count, over the scaling and
// victim points (a mix's kernels run at once, not as alternatives; pagefault has no kernel). Throws InputError
// when two points share all parameters and the host (ambiguous input, e.g. two runs concatenated).
std::vector<PairVerdict> compute_verdicts(std::span<const Point> points, const VerdictOptions& o = {});

// A row of `v` rests on points whose repetitions --reps auto chose (ThreadsVerdict::reps_auto).
bool any_reps_auto(const PairVerdict& v);

// The Recommendation line's call: "NT slow", or "NT slow, for clears that fit in the cache only"
// when `v` is a measured NT good / NT slow call of o.this_host whose every judged row fits in that
// host's LLC (o.llc_bytes; 0: never said). print_verdicts and the GUI's Runs tab say the same.
bool call_from_cache_only(const PairVerdict& v, const VerdictOptions& o);
// The LLC (bytes, count) a measured call is judged by: this machine's for its own rows, the one
// another host's run recorded for that host's (VerdictOptions::recorded_llc); {0, 1}: none known.
std::pair<std::uint64_t, int> llc_judging(const PairVerdict& v, const VerdictOptions& o);
// The call as the verdict and the Runs tab print it: to_string(recommendation), with ", for clears
// that fit in the cache only" (call_from_cache_only); "no difference" says within what ("within the
// model's uncertainty" for a prediction, "beyond the noise" for a measurement).
std::string recommendation_label(const PairVerdict& v, const VerdictOptions& o);

// Why `points` give no verdict (compute_verdicts returned none), for the one line verdict and
// report print: "no write-allocate and non-temporal kernel simulated at the same thread count;
// nothing to decide (victim rows are judged between two victim kernels beside the same
// aggressors: simulate e.g. --victim stosb,avx512-nt ...)". Says measured or simulated as the
// points are, and what a mix or victim file lacks.
std::string no_verdict_reason(std::span<const Point> points);

// A note naming the write-allocate or non-temporal points compute_verdicts could not judge because
// no point of the other side shares their context (source, host, fill, placement, ...), thread
// count and size: "note: 2 points not judged, no partner of the other side with the same fill,
// size, threads and set-up: ..."; empty when every such point has one. A point whose fill was
// hand-edited to 0xff vanished from the verdict without a word.
std::string unpaired_points_note(std::span<const Point> points);

// A note naming the points compute_verdicts leaves out because the run flagged that their threads
// shared a PU (--placement none: the OS placed them): "note: 2 points not judged: their threads
// shared a PU ..."; empty when there is none. Such a 2-thread point had the verdict say "NT behind".
std::string shared_pu_note(std::span<const Point> points);

// The verdicts as text: per pair a table (threads, crossover, speedup at the largest size with
// both spreads, standing) and the recommendation with its paragraph.
void print_verdicts(std::ostream& out, std::span<const PairVerdict> verdicts, const VerdictOptions& o = {});

// "note: at 1T the largest size judged (256MiB per thread, 256MiB in all) fits in this machine's
// LLC (508MiB): ..." for the measured verdicts of `this_host` whose largest size times the thread
// count fits in the `llc_count` caches of `llc_bytes` its threads reach (llc_reach; those rows
// judge cache-resident clears, not the DRAM-bound large clears the seeds' flags are about); ""
// when none does or the LLC is unknown (0).
std::string llc_resident_note(std::span<const PairVerdict> verdicts, std::uint64_t llc_bytes,
                              const std::string& this_host, int llc_count = 1, std::string_view whose = "this machine's",
                              std::string_view this_cpu = {});
// What `threads` threads can keep cached in `llc_count` last-level caches of `llc_bytes` each,
// spread one cache per thread at most (a thread uses its own L3: a CCD's on AMD, the VM's per-core
// L3s): llc_bytes x min(threads, llc_count).
std::uint64_t llc_reach(std::uint64_t llc_bytes, int llc_count, int threads);
// Whether a row's largest judged size, times its threads, fits in the LLCs those threads reach.
bool fits_in_llc(const ThreadsVerdict& t, std::uint64_t llc_bytes, int llc_count);
// "last-level cache (32MiB, as the CPU reports it)", or "... caches (2 x 508MiB, ...)".
std::string llc_phrase(std::uint64_t llc_bytes, int llc_count);
// `o` set to judge `host`'s rows by that host's own last-level caches (a run or fleet row that
// recorded them): its name decides which rows are its (this_cpu, this machine's, is cleared) and
// the notes say whose ("nodeA's last-level cache").
VerdictOptions judged_by_llc_of(VerdictOptions o, const std::string& host, std::uint64_t llc_bytes, int llc_count);
// The same for predictions (`verdict --machine`): rows whose buffers fit in the machine's
// last-level caches (`llc_bytes`, all packages together) are clears of a cached buffer, not of
// fresh pages; each line starts with the [prediction] tag. Empty when no row fits.
std::string predicted_llc_resident_note(std::span<const PairVerdict> verdicts, std::uint64_t llc_bytes,
                                        const std::string& machine);

// Pair verdicts of the same (write-allocate, NT, fill) in `a` and `b` (e.g. measured and
// predicted) compared: one line per disagreement (recommendation, or a thread count's standing).
std::vector<std::string> verdict_disagreements(std::span<const PairVerdict> a, std::span<const PairVerdict> b);

// "~25MiB (between 16MiB and 32MiB)", "below 4MiB (NT's median ahead at every size)", "none in range (up to 1GiB)".
std::string crossover_text(const ThreadsVerdict& t);

// A prediction level at the largest size but behind at smaller sizes and ahead at none counts as
// behind (the seeds' MOVNT_SLOW call on Skylake-X); so does NT behind at the largest size.
bool counts_as_behind(const ThreadsVerdict& t);
// The mirror: a prediction level at the largest size but ahead at smaller sizes and behind at none
// counts as ahead (NT never costs there: the NT good call); so does NT ahead at the largest size.
bool counts_as_ahead(const ThreadsVerdict& t);

// The pair whose crossover stands for glibc's threshold: stosb (else memset, else the first
// write-allocate kernel) against the widest vector NT kernel; nullptr if none.
const PairVerdict* glibc_reference_pair(std::span<const PairVerdict> verdicts);

}  // namespace bwlab
