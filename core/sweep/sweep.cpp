// SPDX-License-Identifier: MIT
#include "core/sweep/sweep.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/engine/pinned_team.hpp"
#include "core/engine/window.hpp"
#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/stats/stats.hpp"
#include "core/sysinfo/hugepages.hpp"
#include "core/sysinfo/sysinfo.hpp"

namespace bwlab {
namespace {

std::string size_label(std::uint64_t b) {
  if (b >= (1ull << 30) && b % (1ull << 30) == 0) return fmt::format("{}GiB", b >> 30);
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return fmt::format("{}MiB", b >> 20);
  if (b >= (1ull << 10) && b % (1ull << 10) == 0) return fmt::format("{}KiB", b >> 10);
  return fmt::format("{}B", b);
}

std::string gib(std::uint64_t b) { return fmt::format("{:.1f} GiB", static_cast<double>(b) / (1ull << 30)); }

Point make_point(const SweepSpec& spec, const KernelInfo& k, const Fill& fill, std::uint64_t size,
                 const std::vector<int>& pus, const std::vector<int>& mem_nodes,
                 const std::vector<WindowResult>& reps, const std::string& host, const std::string& cpu_model,
                 const std::vector<std::string>& buffer_notes, double huge_pct) {
  Point p;
  p.huge_pct = huge_pct;
  p.source = "measured";
  p.host = host;
  p.cpu_model = cpu_model;
  p.kernel = std::string(k.name);
  p.traffic_class = std::string(to_string(k.traffic));
  p.fill = fill.label();
  p.threads = static_cast<int>(pus.size());
  p.placement = spec.placement.label();
  p.membind = spec.membind.label();
  p.pages = std::string(to_string(spec.pages));
  p.size_bytes = size;
  p.reps = static_cast<int>(reps.size());
  p.duration_ms = spec_duration_ms(spec);
  p.pus_planned = pus;

  const std::size_t n = pus.size();
  std::vector<double> bytes, elapsed, per_thread_median, fairness;
  p.per_thread.resize(n);
  for (std::size_t t = 0; t < n; ++t) {
    auto& tf = p.per_thread[t];
    tf.slot = static_cast<int>(t);
    tf.pu_planned = pus[t];
    tf.pinned = true;
    tf.mem_node = t < mem_nodes.size() ? mem_nodes[t] : -1;
  }
  for (const WindowResult& w : reps) {
    double aggregate = 0, total_bytes = 0, max_elapsed = 0;
    std::vector<double> rates;
    for (std::size_t t = 0; t < n; ++t) {
      const ThreadWindow& tw = w.threads[t];
      const double r = tw.gbps();
      rates.push_back(r);
      aggregate += r;
      total_bytes += static_cast<double>(tw.bytes);
      max_elapsed = std::max(max_elapsed, static_cast<double>(tw.elapsed_ns));
      auto& tf = p.per_thread[t];
      tf.gbps_reps.push_back(r);
      tf.bytes_total += tw.bytes;
      tf.passes_total += tw.passes;
      tf.pu_observed = tw.cpu_end;
      if (tw.cpu_start != pus[t] || tw.cpu_end != pus[t]) tf.pinned = false;
    }
    p.gbps_reps.push_back(aggregate);
    bytes.push_back(total_bytes);
    elapsed.push_back(max_elapsed);
    per_thread_median.push_back(median(rates));
    const auto [lo, hi] = std::minmax_element(rates.begin(), rates.end());
    fairness.push_back(*hi > 0 ? *lo / *hi : 0.0);
  }
  for (auto& tf : p.per_thread) {
    tf.gbps_median = median(tf.gbps_reps);
    p.pus.push_back(tf.pu_observed);
  }
  const Summary s = summarize(p.gbps_reps);
  p.gbps_median = s.median;
  p.gbps_min = s.min;
  p.gbps_max = s.max;
  p.gbps_pstdev_pct = s.pstdev_pct;
  p.bytes_median = median(bytes);
  p.elapsed_ns_median = median(elapsed);
  p.gbps_per_thread_median = median(per_thread_median);
  p.thread_fairness = median(fairness);

  if (std::string f = stability_flag("", s.pstdev_pct, p.reps, spec.unstable_pct); !f.empty())
    p.flags.push_back(std::move(f));
  if (spec.reps_auto) {
    p.flags.push_back(s.pstdev_pct <= spec.target_pstdev_pct
                          ? fmt::format("reps auto: {:.1f}% pstdev after {} reps (target {}%)", s.pstdev_pct, p.reps,
                                        spec.target_pstdev_pct)
                          : fmt::format("reps auto: cap of {} reps reached at {:.1f}% pstdev (target {}%)", p.reps,
                                        s.pstdev_pct, spec.target_pstdev_pct));
  }
  for (const auto& tf : p.per_thread)
    if (!tf.pinned)
      p.flags.push_back(fmt::format("not pinned: thread {} was seen on PU {}, planned {}", tf.slot, tf.pu_observed,
                                    tf.pu_planned));
  const double window_ms = p.elapsed_ns_median / 1e6;
  if (window_ms > 1.5 * p.duration_ms) {
    // Longest time per counted pass of any thread: a window stretches either because one
    // pass is longer than the window, or because threads were held up (host preemption).
    double pass_ms = 0;
    for (const auto& tf : p.per_thread)
      if (tf.passes_total > 0)
        pass_ms = std::max(pass_ms, static_cast<double>(tf.bytes_total) / static_cast<double>(tf.passes_total) /
                                        std::max(median(tf.gbps_reps), 1e-9) / 1e6);
    if (pass_ms > 0.5 * p.duration_ms)
      p.flags.push_back(fmt::format("window {:.0f} ms for --duration {:.0f} ms: a pass of {} took {:.0f} ms on average",
                                    window_ms, p.duration_ms, size_label(size), pass_ms));
    else
      p.flags.push_back(fmt::format("window {:.0f} ms for --duration {:.0f} ms: threads were held up (preempted by "
                                    "the host or other tasks?)",
                                    window_ms, p.duration_ms));
  }
  for (const auto& note : buffer_notes) p.flags.push_back(note);
  return p;
}

}  // namespace

std::string stability_flag(const std::string& what, double pstdev_pct, int reps, double unstable_pct) {
  if (reps < 2) return "single repetition: no spread, use --reps 3 or more";
  if (!(pstdev_pct > unstable_pct)) return {};
  const std::string of = what.empty() ? "" : " of " + what;
  // More repetitions help a median until about a dozen; past that the host itself is noisy.
  if (reps < 11)
    return fmt::format("unstable: {:.1f}% pstdev{} over {} reps, try --reps {} or a longer --duration", pstdev_pct, of,
                       reps, 2 * reps + 1);
  return fmt::format("unstable: {:.1f}% pstdev{} over {} reps, the host is noisy: compare kernels within this run "
                     "(they are interleaved), not across runs",
                     pstdev_pct, of, reps);
}

std::uint64_t sweep_peak_bytes(const SweepSpec& spec) {
  std::uint64_t peak = 0;
  const std::uint64_t align = 2u << 20;
  for (std::uint64_t size : spec.sizes)
    for (int t : spec.threads) {
      const std::uint64_t per_thread = (size + align - 1) / align * align;
      peak = std::max(peak, per_thread * static_cast<std::uint64_t>(t));
    }
  return peak;
}

std::vector<std::string> validate_sweep(const SweepSpec& spec, const Topology& topo, const CpuFeatures& cpu,
                                        std::uint64_t memory_available, const std::string& memory_how) {
  std::vector<std::string> warnings;
  if (!topo.is_this_system())
    throw InputError(fmt::format("measuring needs the local machine, but the topology comes from {}; use it with "
                                 "`bwlab topo` (and, later, `bwlab simulate`)",
                                 topo.origin()));
  if (spec.kernels.empty()) throw InputError("no kernel to measure");
  if (spec.sizes.empty()) throw InputError("no size to measure");
  if (spec.threads.empty()) throw InputError("no thread count to measure");
  if (spec.fills.empty()) throw InputError("no fill to measure");
  if (spec.reps < 1) throw InputError("--reps must be at least 1");
  if (spec.reps_auto) {
    if (spec.reps < 2) throw InputError("--reps auto needs at least 2 repetitions before judging the spread");
    if (spec.max_reps < spec.reps) throw InputError(fmt::format("--max-reps {} is below the minimum of {} repetitions", spec.max_reps, spec.reps));
    if (!(spec.target_pstdev_pct > 0)) throw InputError("--target-pstdev must be above 0%");
  }
  if (spec.duration < std::chrono::milliseconds(1)) throw InputError("--duration must be at least 1 ms");
  for (const auto& name : spec.kernels) {
    const KernelInfo* k = find_kernel(name);
    if (!k) throw InputError(fmt::format("unknown kernel '{}'; kernels are: {}", name, kernel_names()));
    const Availability a = kernel_availability(*k, cpu);
    if (!a.available) throw InputError(fmt::format("kernel {} is not available on this CPU: {}", k->name, a.reason));
    if (k->zero_only)
      for (const Fill& f : spec.fills)
        if (!f.zero_only())
          throw InputError(fmt::format("kernel {} can only write zeros; drop --fill {} or measure {} separately",
                                       k->name, f.label(), k->name));
  }
  for (int t : spec.threads) plan_pus(topo, spec.placement, t);  // throws if it cannot host t threads
  for (auto& w : validate_memory(spec.membind, spec.pages, spec.sizes, spec.threads, topo, memory_available,
                                 memory_how))
    warnings.push_back(std::move(w));
  return warnings;
}

std::vector<std::string> validate_memory(const MemBind& membind, Pages pages, const std::vector<std::uint64_t>& sizes,
                                         const std::vector<int>& threads, const Topology& topo,
                                         std::uint64_t memory_available, const std::string& memory_how) {
  std::vector<std::string> warnings;
  if (membind.kind == MemBind::Kind::node && membind.node >= topo.numa_nodes())
    throw InputError(fmt::format("--membind {}: NUMA node {} does not exist; this machine has node{} 0{}",
                                 membind.label(), membind.node, topo.numa_nodes() == 1 ? "" : "s",
                                 topo.numa_nodes() == 1 ? "" : fmt::format("..{}", topo.numa_nodes() - 1)));
  if (membind.kind == MemBind::Kind::remote && topo.numa_nodes() < 2)
    throw InputError("--membind remote needs memory on another NUMA node than the thread's, but this machine has "
                     "one NUMA node; use local (or measure on a multi-node machine)");
  if (membind.kind == MemBind::Kind::interleave && topo.numa_nodes() == 1)
    warnings.push_back("--membind interleave on a machine with one NUMA node is the same as local");
  if (is_hugetlb(pages)) {
    // Huge pages come from the reserved pool, not from MemAvailable.
    const std::uint64_t page = page_size(pages);
    std::uint64_t need = 0, worst_size = 0;
    int worst_threads = 0;
    for (std::uint64_t size : sizes)
      for (int t : threads) {
        const std::uint64_t n = (size + page - 1) / page * static_cast<std::uint64_t>(t);
        if (n > need) {
          need = n;
          worst_size = size;
          worst_threads = t;
        }
      }
    require_huge_pages(page, need,
                       fmt::format("--pages {} with {} thread{} x {}", to_string(pages), worst_threads,
                                   worst_threads == 1 ? "" : "s", size_label(worst_size)));
    return warnings;
  }
  std::uint64_t need = 0;
  const std::uint64_t align = 2u << 20;
  for (std::uint64_t size : sizes)
    for (int t : threads) need = std::max(need, (size + align - 1) / align * align * static_cast<std::uint64_t>(t));
  // Keep 10% of the available memory (and at least 256 MiB) for everything else.
  const std::uint64_t reserve = std::max<std::uint64_t>(memory_available / 10, 256ull << 20);
  const std::uint64_t usable = memory_available > reserve ? memory_available - reserve : 0;
  if (need > usable)
    throw InputError(fmt::format("this sweep needs {} of buffers at once (largest size x thread count) but only {} "
                                 "can be used ({}{}, less a 10% reserve); use smaller --sizes or fewer --threads",
                                 gib(need), gib(usable), memory_how.empty() ? "" : memory_how,
                                 memory_how.empty() ? "available memory" : ""));
  return warnings;
}

HugeCheck check_huge_pages(const std::vector<Buffer>& buffers, Pages pages) {
  HugeCheck c;
  std::uint64_t total = 0, huge = 0;
  for (const Buffer& b : buffers) {
    if (!b.data()) continue;
    total += b.size();
    huge += std::min<std::uint64_t>(b.huge_bytes(), b.size());
  }
  c.pct = total ? 100.0 * static_cast<double>(huge) / static_cast<double>(total) : 0.0;
  if (pages == Pages::thp && c.pct < 50)
    c.flag = fmt::format("thp asked for, but only {:.0f}% of the buffers are huge pages (AnonHugePages in "
                         "/proc/self/smaps; THP setting '{}')",
                         c.pct, thp_setting());
  return c;
}

namespace {
// Aggregate GB/s of one window: the sum of its threads' rates.
double window_gbps(const WindowResult& w) {
  double sum = 0;
  for (const ThreadWindow& t : w.threads) sum += t.gbps();
  return sum;
}

// pstdev (% of mean) of a kernel's aggregate over the windows measured so far.
double windows_pstdev_pct(const std::vector<WindowResult>& windows) {
  std::vector<double> v;
  for (const auto& w : windows) v.push_back(window_gbps(w));
  return pstdev_pct(v);
}
}  // namespace

SweepResult run_sweep(const SweepSpec& spec, const Topology& topo, const CpuFeatures& cpu, SweepObserver& observer,
                      const std::atomic<bool>* stop) {
  using Clock = std::chrono::steady_clock;
  SweepResult result;
  const std::string host = host_name();
  const std::string cpu_model = cpu.model_name;
  std::vector<const KernelInfo*> kernels;
  for (const auto& name : spec.kernels) kernels.push_back(find_kernel(name));

  int total = static_cast<int>(spec.sizes.size() * spec.threads.size() * spec.fills.size() * kernels.size()) *
              spec.reps;
  int done = 0;
  const auto start = Clock::now();
  auto stopped = [&] { return stop && stop->load(); };

  for (std::uint64_t size : spec.sizes) {
    for (int threads : spec.threads) {
      if (stopped()) break;
      const std::vector<int> pus = plan_pus(topo, spec.placement, threads);
      PinnedTeam team(topo, pus, spec.gather_timeout);
      std::vector<Buffer> buffers(pus.size());
      std::vector<int> mem_nodes(pus.size(), -1);
      // Each thread maps its own buffer, bound as asked, and touches it first from its PU.
      if (!team.run(
              [&](PinnedTeam::Context& ctx) {
                const auto slot = static_cast<std::size_t>(ctx.slot);
                buffers[slot] = Buffer(topo, size, ctx.pu, spec.membind, spec.pages);
                buffers[slot].first_touch();
                mem_nodes[slot] = buffers[slot].mem_node(topo);
              },
              stop)) {
        result.stopped = true;
        break;
      }
      std::vector<std::string> notes;
      const HugeCheck huge = check_huge_pages(buffers, spec.pages);
      if (!huge.flag.empty()) notes.push_back(huge.flag);
      for (const auto& b : buffers)
        if (!b.note().empty() && std::find(notes.begin(), notes.end(), b.note()) == notes.end())
          notes.push_back(b.note());
      std::vector<std::uint64_t> pass_counters(pus.size(), 0);

      for (const Fill& fill : spec.fills) {
        std::vector<std::vector<WindowResult>> windows(kernels.size());
        // Fixed count, or (--reps auto) at least spec.reps, then more until every kernel's
        // spread is under the target or the cap is reached.
        auto enough = [&](int reps_done) {
          if (!spec.reps_auto) return reps_done >= spec.reps;
          if (reps_done >= spec.max_reps) return true;
          if (reps_done < spec.reps) return false;
          for (const auto& w : windows)
            if (windows_pstdev_pct(w) > spec.target_pstdev_pct) return false;
          return true;
        };
        for (int rep = 0; !enough(rep) && !stopped(); ++rep) {
          for (std::size_t i = 0; i < kernels.size() && !stopped(); ++i) {
            const std::size_t ki = (i + static_cast<std::size_t>(rep)) % kernels.size();
            const KernelInfo& k = *kernels[ki];
            WindowConfig cfg{spec.duration, rep == 0, stop};
            WindowResult w = measure_window(team, buffers, k.fn, fill, pass_counters, cfg);
            if (w.stopped) break;
            windows[ki].push_back(std::move(w));
            ++done;
            SweepProgress prog;
            prog.windows_done = done;
            if (spec.reps_auto) total = std::max(total, done + 1);  // the plan grows as repetitions are added
            prog.windows_total = total;
            prog.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
            prog.eta_s = prog.elapsed_s / done * (total - done);
            prog.current = spec.reps_auto ? fmt::format("{} {} {}T {} rep {} (auto)", k.name, size_label(size),
                                                        threads, fill.label(), rep + 1)
                                          : fmt::format("{} {} {}T {} rep {}/{}", k.name, size_label(size), threads,
                                                        fill.label(), rep + 1, spec.reps);
            prog.window_gbps = window_gbps(windows[ki].back());
            observer.on_progress(prog);
          }
        }
        if (stopped()) {
          result.stopped = true;
          break;
        }
        for (std::size_t ki = 0; ki < kernels.size(); ++ki) {
          Point p = make_point(spec, *kernels[ki], fill, size, pus, mem_nodes, windows[ki], host, cpu_model, notes,
                               huge.pct);
          observer.on_point(p);
          result.points.push_back(std::move(p));
        }
      }
      if (result.stopped) break;
    }
    if (result.stopped || stopped()) {
      result.stopped = true;
      break;
    }
  }
  return result;
}

}  // namespace bwlab
