// SPDX-License-Identifier: MIT
#include <filesystem>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "core/counters/dram_meter.hpp"
#include "core/engine/noise.hpp"
#include "core/errors.hpp"
#include "core/insight/load.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/kernels/kernels.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/csv.hpp"
#include "core/report/gbench_json.hpp"
#include "core/report/json.hpp"
#include "core/report/plural.hpp"
#include "core/report/point_flags.hpp"
#include "core/report/scenario_table.hpp"
#include "core/report/table.hpp"
#include "core/report/terminal.hpp"
#include "core/scenario/scenario.hpp"
#include "core/sweep/parse.hpp"
#include "core/sweep/sweep.hpp"
#include "core/sweep/suggest.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "core/version.hpp"
#include "headless/commands.hpp"
#include "headless/wrapped_stdout.hpp"
#include "headless/interrupt.hpp"
#include "headless/output_file.hpp"
#include "headless/stderr_line.hpp"

namespace bwlab::cli {
namespace {


std::string clock_label(double s) {
  const long t = static_cast<long>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60) : fmt::format("{}:{:02}", t / 60, t % 60);
}

// Reports a sweep as it goes: progress on stderr, files rewritten after every point.
class CliObserver final : public SweepObserver {
 public:
  CliObserver(const RunOptions& o, RunInfo& info)
      : o_(o), info_(info), tty_(isatty(STDERR_FILENO) != 0), csv_(OutputFile::of(o.csv)), json_(OutputFile::of(o.json)) {}

  void on_warning(const std::string& w) override {
    if (!o_.quiet) say("warning: " + w);
  }
  // One line rewritten in place, cut to the terminal's width (read again each time: the window
  // may be resized) so that it never wraps and the next "\r" really returns to its start.
  void on_progress(const SweepProgress& p) override {
    if (o_.quiet || !tty_) return;
    // Narrow: the point's name gives way first, so the clock stays ("rep 1/3       elapsed 0" was cut
    // mid-figure at 60 columns).
    const std::size_t room = line_room();
    const std::string head = fmt::format("[{:>4}/{}] ", p.windows_done, p.windows_total),
                      tail = fmt::format(" elapsed {}  ETA {}", clock_label(p.elapsed_s), clock_label(p.eta_s));
    std::string current = fmt::format("{:<40}", p.current);
    if (head.size() + current.size() + tail.size() > room && room >= head.size() + tail.size() + 12) {
      current = fmt::format("{:<{}}", p.current, room - head.size() - tail.size());
      if (current.size() > room - head.size() - tail.size())
        current = current.substr(0, room - head.size() - tail.size() - 3) + "...";
    }
    std::string line = head + current + tail;
    if (line.size() > room) line.resize(room);
    fmt::print(stderr, "\r{:<{}}", line, room);
    std::fflush(stderr);
  }
  void on_preparing(int buffers, std::uint64_t bytes) override {
    const std::string note = preparing_note(buffers, bytes);
    if (o_.quiet || note.empty()) return;
    if (tty_) fmt::print(stderr, "\r{:<{}}\r", "", line_room());  // clears the progress line
    say(note);
  }
  void on_point(const Point& p) override {
    points_.push_back(p);
    save(true);
    if (o_.quiet) return;
    if (tty_) fmt::print(stderr, "\r{:<{}}\r", "", line_room());  // clears the progress line
    say(fmt::format("point {}: {}, PUs {}", points_.size(), point_summary(p), join(p.pus)));
    for (const auto& f : p.flags) say(fmt::format("  {}{}", footnote_mark(p, f), f), 4);
  }
  // `in_progress`: written while the run goes, so marked partial until the run rewrites it at its end.
  // A run ended otherwise (killed, a full disk, a crash) left files that read as complete runs, and
  // verdict judged them without a word.
  void save(bool in_progress = false) const {
    std::vector<Point> points = points_;
    RunInfo info = info_;
    if (in_progress && !points.empty()) {
      points.back().flags.push_back(fmt::format(
          "run interrupted after this point, or still running: {} when this file was written (a finished run "
          "rewrites it without this mark)",
          count_of(points.size(), "finished point")));
      info.partial = true;
      info.partial_reason = fmt::format("not finished when written: {} (killed, out of disk, or still running)",
                                        count_of(points.size(), "finished point"));
    }
    if (!o_.csv.empty()) {
      write_file_atomically(csv_.progress, csv_text(points));
    }
    if (!o_.json.empty()) {
      std::ostringstream s;
      if (o_.json_format == "gbench")
        write_gbench_json(s, info, points);
      else
        write_json(s, info, points);
      write_file_atomically(json_.progress, s.str());
    }
  }
  // The files an existing output's points go to until the run finishes, and what a user is told.
  const OutputFile& csv() const { return csv_; }
  const OutputFile& json() const { return json_; }
  void finish() const {
    if (!o_.csv.empty()) csv_.finish();
    if (!o_.json.empty()) json_.finish();
  }
  const std::vector<Point>& points() const { return points_; }
  // The CSV has no run header: an interrupted run's last point says so among its flags (the
  // JSON says it in its run record too).
  void mark_interrupted(const std::string& flag) {
    if (!points_.empty()) points_.back().flags.push_back(flag);
  }

 private:
  // Columns the progress line may use: the terminal's width less one (writing the last column
  // makes some terminals wrap).
  static std::size_t line_room() {
    const std::size_t width = detect_terminal_style(STDERR_FILENO).width;
    return width > 1 ? width - 1 : 79;
  }
  static std::string join(const std::vector<int>& v) { return fmt::format("{}", fmt::join(v, ",")); }
  static void say(const std::string& text, std::size_t indent = 2) { print_stderr_line(text, indent); }
  const RunOptions& o_;
  RunInfo& info_;
  bool tty_;
  OutputFile csv_, json_;
  std::vector<Point> points_;
};

}  // namespace

int run_command(const RunOptions& o) {
  if (!o.host.empty()) set_host_name(o.host);
  const CpuFeatures cpu = detect_cpu_features();
  const Topology topo = Topology::from_spec(o.topology);
  // Typed on the command line, all three: --kernels would only be the default of the other two.
  check_kernels_read(o.choices, parse_scenario(o.choices.scenario));
  RunChoices choices = o.choices;
  choices.target_pstdev = parse_percent(o.target_pstdev, "--target-pstdev");  // "2%" as compare's --tolerance
  ScenarioSpec scen = scenario_spec_from(choices, cpu, topo);
  if ((o.target_pstdev_given || o.max_reps_given) && !scen.sweep.reps_auto) {
    const char* given = o.target_pstdev_given && o.max_reps_given ? "--target-pstdev and --max-reps apply"
                        : o.target_pstdev_given                     ? "--target-pstdev applies"
                                                                    : "--max-reps applies";
    throw InputError(fmt::format("{} with --reps auto; give --reps auto or leave {} out", given,
                                 o.target_pstdev_given && o.max_reps_given ? "them" : "it"));
  }

  std::string memory_how;
  const std::uint64_t available = memory_available_bytes(&memory_how);
  std::vector<std::string> warnings = validate_scenario(scen, topo, cpu, available, memory_how);
  check_distinct_outputs({{"--csv", o.csv}, {"--json", o.json}});
  check_output_suffixes({{"--csv", o.csv}, {"--json", o.json}});
  if (!o.csv.empty()) check_writable(o.csv);
  if (!o.json.empty()) check_writable(o.json);
  if (o.json_format != "bwlab" && o.json_format != "gbench") {
    const std::string near = nearest_name(o.json_format, {"bwlab", "gbench"});
    throw InputError(fmt::format("bad --json-format '{}': {}bwlab or gbench", o.json_format,
                                 near.empty() ? "" : fmt::format("did you mean {}? ", near)));
  }
  if (o.json_format == "gbench" && o.json.empty()) throw InputError("--json-format gbench needs --json FILE");

  RunInfo info = describe_run(cpu, o.command_line, topo.summary());
  info.llc_bytes = topo.llc_bytes(), info.llc_count = topo.llc_count();
  for (const auto& w : environment_warnings(cpu)) warnings.push_back(w);
  // DRAM traffic where the memory controllers' counters are exposed; otherwise the reason, once.
  std::string dram_why_not;
  const std::unique_ptr<DramMeter> dram = DramMeter::open(discover_dram_events(), dram_why_not);
  scen.sweep.dram = dram.get();
  if (!dram)
    warnings.push_back(fmt::format("DRAM traffic not counted, dram_read_per_byte and dram_write_per_byte stay empty: {}",
                                   dram_why_not));
  else if (!o.quiet)
    fmt::print(stderr, "DRAM traffic counted from {} (socket-wide: other processes' traffic included)\n",
               dram->describe());
  if (const auto pus = topo.allowed_pus(); !pus.empty())
    if (std::string why = cpu_clock_missing_reason(pus.front()); !why.empty()) warnings.push_back(std::move(why));
  info.warnings = warnings;

  CliObserver observer(o, info);
  // The .partial sibling an existing output's points go to is checked before measuring as the
  // output is (a directory of that name failed after the first point, and its measurement was lost).
  for (const OutputFile* f : {&observer.csv(), &observer.json()})
    if (f->deferred()) check_writable(f->progress);
  if (!o.quiet)
    for (const auto& n : scen.notes) print_stderr_line("note: " + n);
  // An output that holds an earlier run is replaced when this one finishes, not point by point.
  for (const OutputFile* f : {&observer.csv(), &observer.json()}) {
    if (o.quiet || !f->deferred()) continue;
    std::error_code ec;
    fmt::print(stderr, "note: {} exists: this run's points go to {}{}, which replaces it when the run finishes (an "
               "interrupted run leaves it as it is)\n",
               f->target, f->progress,
               std::filesystem::exists(f->progress, ec) ? " (replacing the points an earlier interrupted run left there)"
                                                          : "");
  }
  for (const auto& w : warnings) observer.on_warning(w);

  InterruptGuard interrupt;
  const SweepResult result = run_scenario(scen, topo, cpu, observer, interrupt.flag());

  const std::string files = fmt::format("{}{}{}", o.csv, !o.csv.empty() && !o.json.empty() ? " and " : "", o.json);
  // Where an interrupted run's points are: the files given, or for a file that held an earlier run
  // its .partial sibling (the earlier file is left as it was).
  const std::string kept_in = fmt::format("{}{}{}", o.csv.empty() ? "" : observer.csv().progress,
                                          !o.csv.empty() && !o.json.empty() ? " and " : "",
                                          o.json.empty() ? "" : observer.json().progress);
  std::vector<std::string> left_alone;
  for (const OutputFile* f : {&observer.csv(), &observer.json()})
    if (!f->target.empty() && f->deferred()) left_alone.push_back(f->target);
  if (result.stopped) {
    info.partial = true;
    info.partial_reason = fmt::format("interrupted by {} after {}", interrupt.signal_name(),
                                      count_of(result.points.size(), "finished point"));
    if (result.points.empty()) {
      // Nothing finished, so nothing is written: a rerun stopped early must not replace the
      // complete files of an earlier run with an empty header (files are only written per point).
      // Only a file that was there is "not touched": one that never existed is not made either.
      const std::vector<std::string> untouched = existing_files({o.csv, o.json});
      fmt::print(stderr, "{}bwlab: {}; nothing was written{}\n", o.quiet ? "" : "\n", info.partial_reason,
                 untouched.empty() ? std::string() : fmt::format(" ({} not touched)", fmt::join(untouched, " and ")));
    } else {
      observer.mark_interrupted(interrupted_flag(interrupt.signal_name(), result.points.size(), result.points_planned));
      observer.save();
      // Said even with --quiet: without it an interrupted run ends in silence, or with "no points".
      fmt::print(stderr, "{}bwlab: {}; finished points are kept{}{}\n", o.quiet ? "" : "\n", info.partial_reason,
                 files.empty() ? std::string(" in the table only (no --csv or --json)")
                               : fmt::format(" in {} ({}{}{} marked partial)", kept_in,
                                             o.csv.empty() ? "" : "the CSV's last row", !o.csv.empty() && !o.json.empty() ? " and " : "",
                                             o.json.empty() ? "" : "the JSON"),
                 left_alone.empty() ? std::string()
                                    : fmt::format("; {} (an earlier run's) left as {}", fmt::join(left_alone, " and "),
                                                  left_alone.size() == 1 ? "it was" : "they were"));
    }
  } else {
    observer.save();
    observer.finish();
  }
  // An interrupted run's files are named by its line above ("finished points are kept in ...").
  if (!o.quiet && !files.empty() && !result.stopped) fmt::print(stderr, "wrote {}\n", files);
  print_scenario_tables(std::cout, result.points, detect_terminal_style(STDOUT_FILENO));
  // Points kept with fewer reps than asked (victim and tlbflush stopped within a size keep the reps
  // done): "after 8 of 8 points" alone read as a whole sweep.
  int cut_short = 0, fewest = std::numeric_limits<int>::max(), most = 0;
  if (result.stopped && !scen.sweep.reps_auto)
    for (const Point& p : result.points)
      if (p.reps < scen.sweep.reps) ++cut_short, fewest = std::min(fewest, p.reps), most = std::max(most, p.reps);
  const std::string short_reps =
      cut_short == 0 ? std::string()
                     : fmt::format(", {} stopped short of --reps {} at {} reps{}", cut_short == static_cast<int>(result.points.size())
                                                                                   ? std::string(result.points.size() == 1 ? "it" : "all of them")
                                                                                   : fmt::format("{} of them", cut_short),
                                   scen.sweep.reps, fewest == most ? fmt::format("{}", fewest) : fmt::format("{}..{}", fewest, most),
                                   cut_short == 1 ? "" : " each");
  // only when the sweep allows one; an interrupted run's verdict says first that it judges part of it
  {
    const WrappedStdout wrapped;  // on a terminal, its prose wraps at the width as the table's legend does
    print_run_verdict(std::cout, result.points,
                      result.stopped ? fmt::format("Partial run (interrupted after {} of {}{}): the verdict judges the "
                                                   "finished points only.",
                                                   result.points.size(), count_of(result.points_planned, "point"), short_reps)
                                     : std::string());
  }
  if (result.stopped) {
    // On stdout too: `bwlab run > table.txt` must not look like a complete sweep.
    fmt::print("partial: interrupted by {} after {} of {}{}; {}\n", interrupt.signal_name(), result.points.size(),
               count_of(result.points_planned, "point"), short_reps,
               result.points.empty() ? "no point had finished, so there is nothing to keep"
               : cut_short > 0       ? "the finished reps are kept (each point's flag says how many)"
                                     : "the finished points are kept");
    return interrupt.exit_code();
  }
  return 0;
}

namespace {

constexpr const char* kRunExamples = R"(
Examples:
  bwlab run
      stosb vs movnti vs the widest NT kernel, 16MiB and 1GiB per thread, 1..all threads.
  bwlab run --kernels stosb,movnti,avx512-nt --sizes 16M,1G --threads 1,2 --csv out.csv
  bwlab run --kernels stosb --sizes 2M..1G --threads 1 --fill zero,0xff
      a size sweep (doubling), writing zeros and 0xff side by side.
  bwlab run --kernels all --sizes 64M --threads max --placement scatter --json out.json

What is measured: each thread clears its own buffer (--sizes is bytes per thread) in passes
during a window of --duration; all threads start at one barrier and keep clearing until every
one has passed the deadline, so every counted pass ran with all its competitors. GB/s uses
GB = 1e9 bytes; the aggregate is the sum of per-thread rates; each point is --reps windows
(median, min, max, pstdev %), kernels interleaved across repetitions.

Scenarios (--scenario; every one uses the same pinned threads, barrier and timed window):
  scaling    (default) the table above: every thread runs the same kernel.
  victim     one victim thread runs a kernel while k = 0..max-1 aggressors run another; reports the
             victim's GB/s, its slowdown against k = 0 (measured in the same run, interleaved) and
             the aggressors' total.
               bwlab run --scenario victim --victim stosb --aggressor avx512-nt --sizes 1G
               bwlab run --scenario victim --kernels stosb,movnti,avx512-nt      (the full matrix)
  mix        threads split between kernels in one window; per kernel total and per thread.
               bwlab run --scenario mix --mix stosb:1,avx512-nt:1 --sizes 1G
  pagefault  each thread maps fresh memory (--sizes per cycle), writes one byte per page so the
             kernel clears it on the fault, unmaps; GB/s made ready (touching time) and faults/s.
               bwlab run --scenario pagefault --pages thp --sizes 64M --threads 1,2
  tlbflush   one thread maps, touches and munmaps E pages while k readers read their own memory;
             ns per munmap call and ns per reader access, against the readers alone.
               bwlab run --scenario tlbflush --entries 1..512
Marks: a table row ending in ! holds a point flagged unsteady (unstable spread, disturbed or
held-up windows, threads off their PUs): the lines below the table starting with ! say why, and
plots ring such points in red. A row ending in * has notes only (single repetition, ...), in *
lines.
Huge pages: --pages hugetlb2m|hugetlb1g need pages reserved by root beforehand
(/sys/kernel/mm/hugepages/hugepages-*/nr_hugepages); bwlab says how many and never changes it.
Exit codes: 0 done, 1 run-time failure, 2 bad input, 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP
(finished points kept, the point under way dropped; victim and tlbflush keep the reps every
configuration of the size under way finished, flagged "stopped after N reps of M"; the table ends with a line
"partial: interrupted by SIGINT after N of M points").
)";

}  // namespace

Command add_run_command(CLI::App& app, const std::string& command_line) {
  auto o = std::make_shared<RunOptions>();
  o->command_line = command_line;
  CLI::App* sub = app.add_subcommand("run", "measure clearing kernels on this machine");
  sub->add_option("--scenario", o->choices.scenario,
                      "scaling (every thread runs each kernel), victim (one victim thread vs k aggressors), mix (threads "
                      "split between kernels), pagefault (the OS clears fresh pages on faults), tlbflush (munmap cost "
                      "and what readers pay)")
      ->capture_default_str();
  sub->add_option("-k,--kernels", o->choices.kernels,
                      "comma list of kernels, or 'all' (every kernel this CPU runs; zero-only ones are left out, "
                      "with a note, when --fill is not zero); see 'bwlab list'")
      ->default_str(default_kernels(detect_cpu_features()));
  sub->add_option("-s,--sizes", o->choices.sizes,
                      "bytes per thread, at least 4K: a comma list with K/M/G (2^10/2^20/2^30; KiB, KB and the like are "
                      "the same powers of 2; no unit = bytes) and doubling ranges, e.g. 16M,1G or 2M..1G; pagefault: bytes each thread maps per cycle; tlbflush: each reader's memory")
      ->default_str("16M,1G; pagefault 64M; tlbflush 1M");
  sub->add_option("-t,--threads", o->choices.threads,
                      "thread counts: 1,2,4 or 1..max or max (max = PUs this process may use, or the length of a --placement PU list); victim: 1 victim + k "
                      "aggressors (1 is always measured); tlbflush: 1 unmapper + k readers")
      ->default_str("1..max");
  sub->add_option("--victim", o->choices.victim, "victim: the victim's kernels (a list makes a matrix with --aggressor)")
      ->default_str("--kernels");
  sub->add_option("--aggressor", o->choices.aggressor, "victim: the aggressors' kernels")->default_str("--kernels");
  sub->add_option("--mix", o->choices.mix, "mix: kernel:threads pairs, e.g. stosb:1,avx512-nt:1");
  sub->add_option("--entries", o->choices.entries, "tlbflush: 4 KiB pages per munmap, a list or doubling range")
      ->default_str("1..512");
  sub->add_option("-p,--placement", o->choices.placement,
                      "compact (one PU per core, siblings last), scatter (round-robin over NUMA nodes/packages), a PU list such as 0,2,4, "
                      "or none (threads not bound: the OS places them; the points record where they ran, pus_planned -1)")
      ->capture_default_str();
  sub->add_option("--membind", o->choices.membind,
                      "local (the thread's own NUMA node), remote (another node than the thread's), interleave, or node:N")
      ->capture_default_str();
  sub->add_option("--pages", o->choices.pages,
                      "4k (THP off for the buffers), thp (madvise MADV_HUGEPAGE; the share really huge is reported), "
                      "hugetlb2m or hugetlb1g (MAP_HUGETLB from the reserved pool; bwlab never reserves pages itself)")
      ->capture_default_str();
  sub->add_option("-f,--fill", o->choices.fill,
                      "what the kernels write: zero, 0xNN (a byte), perf (the pass number, as perf bench memset); a comma list compares them")
      ->default_str("zero");
  sub->add_option("-r,--reps", o->choices.reps,
                      "timed windows per point, or auto: at least 3, then more until every kernel's pstdev is under "
                      "--target-pstdev or --max-reps is reached (scaling scenario)")
      ->capture_default_str();  // checked with the other input, one clear message
  CLI::Option* target = sub->add_option("--target-pstdev", o->target_pstdev,
                                        "with --reps auto: the spread to reach, a percentage (2% or 2)")
                            ->capture_default_str();
  CLI::Option* max_reps = sub->add_option("--max-reps", o->choices.max_reps,
                                          "with --reps auto: the most windows per point")->capture_default_str();
  sub->add_option("-d,--duration", o->choices.duration, "length of each timed window, 1ms to 1h, in us, ms, s, min or h (fractions kept to the us): 200ms, "
                  "1.5ms, 1s, 2500us")->capture_default_str();
  sub->add_option("--topology", o->topology, "local only for measuring (XML and synthetic topologies are for 'bwlab topo')")
      ->capture_default_str();
  sub->add_option("--host", o->host,
                  "the host name to record instead of this machine's (cloned VMs or containers sharing a hostname "
                  "would be one host to bwlab merge)");
  sub->add_option("--csv", o->csv, "write the points as CSV (rewritten atomically after every point; an existing file is replaced when the run finishes, its points meanwhile in NAME.partial.csv)");
  sub->add_option("--json", o->json, "write the points, per-thread figures and run metadata as JSON");
  sub->add_option("--json-format", o->json_format,
                  "bwlab (the default: what merge, report and verdict read) or gbench (Google Benchmark's JSON for "
                  "its compare.py; see 'bwlab export --help')")
      ->capture_default_str();
  // "5%" as --target-pstdev, verdict's and compare's percentages take it ("'5%' is not a number"),
  // and refused as they refuse it: a bare 0.5 (meant as 50%?) was taken as 0.5% without a word.
  const auto percent_sign = [](const char* option) {
    return CLI::Validator(
        [option](std::string& s) {
          try {
            s = fmt::format("{}", parse_percent(s, option));
            return std::string();
          } catch (const InputError& e) {  // CLI11 puts the option's name first: "bad --x " is left out
            const std::string why = e.what(), bad = fmt::format("bad {} ", option);
            return why.starts_with(bad) ? why.substr(bad.size()) : why;
          }
        },
        "", "percentage");
  };
  sub->add_option("--unstable-pct", o->choices.unstable_pct, "flag points whose pstdev exceeds this percentage (5 or 5%)")
      ->transform(percent_sign("--unstable-pct"))
      ->capture_default_str();
  sub->add_flag("--reject-noisy", o->choices.reject_noisy,
                "scaling: measure a disturbed window again (see --noisy-steal-pct, --noisy-lost-pct), at most --reps "
                "extra windows per point; each point says how many it replaced. On a shared host this keeps one "
                "preempted window from moving a median");
  sub->add_option("--noisy-steal-pct", o->choices.noisy_steal_pct,
                  "a window is disturbed when the hypervisor stole more than this % of its PUs' time (/proc/stat "
                  "steal; counted in 10 ms ticks, so a 200 ms window on one PU reads 0%, 5%, 10%...)")
      ->transform(percent_sign("--noisy-steal-pct"))
      ->capture_default_str();
  sub->add_option("--noisy-lost-pct", o->choices.noisy_lost_pct,
                  "... or when a thread got less than 100 minus this % of the window's CPU time (other tasks ran on "
                  "its PU: involuntary context switches)")
      ->transform(percent_sign("--noisy-lost-pct"))
      ->capture_default_str();
  sub->add_flag("-q,--quiet", o->quiet, "no progress or warnings on stderr");
  sub->footer(kRunExamples);

  return {sub, [o, target, max_reps] {
            o->target_pstdev_given = target->count() > 0;
            o->max_reps_given = max_reps->count() > 0;
            return run_command(*o);
          }};
}

}  // namespace bwlab::cli
