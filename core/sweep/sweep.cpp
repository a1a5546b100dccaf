// SPDX-License-Identifier: MIT
#include "core/report/plural.hpp"
#include "core/sweep/sweep.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/report/units.hpp"
#include "core/sysinfo/hugepages.hpp"
#include "core/sysinfo/sysinfo.hpp"

namespace bwlab {
namespace {


}  // namespace

std::string preparing_note(int buffers, std::uint64_t bytes) {
  const std::uint64_t total = static_cast<std::uint64_t>(std::max(0, buffers)) * bytes;
  if (total < (std::uint64_t{1} << 30)) return {};
  return fmt::format("preparing {} of {} ({}): each mapped and first touched by its own thread",
                     count_of(buffers, "buffer"), format_bytes(bytes), format_bytes(total));
}

std::string stability_flag(const std::string& what, double pstdev_pct, int reps, double unstable_pct,
                           const std::string& advice) {
  if (reps < 2) return "single repetition: no spread, use --reps 3 or more";
  if (!(pstdev_pct > unstable_pct)) return {};
  const std::string of = what.empty() ? "" : " of " + what;
  // More repetitions help a median until about a dozen; past that the host itself is noisy.
  if (reps < 11)
    return fmt::format("unstable: {:.1f}% pstdev{} over {}, {}", pstdev_pct, of, count_of(reps, "rep"),
                       advice.empty() ? fmt::format("try --reps {} or a longer --duration", 2 * reps + 1) : advice);
  return fmt::format("unstable: {:.1f}% pstdev{} over {}, the host is noisy: compare kernels within this run "
                     "(they are interleaved), not across runs",
                     pstdev_pct, of, count_of(reps, "rep"));
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
                                 "`bwlab topo` or `bwlab simulate --topology`",
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
  check_placement_membind(spec.placement, spec.membind);
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
    throw InputError(fmt::format("--membind {}: NUMA node {} does not exist; this machine has {} 0{}",
                                 membind.label(), membind.node, noun(topo.numa_nodes(), "node"),
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
                       fmt::format("--pages {} with {} x {}", to_string(pages), count_of(worst_threads, "thread"),
                                   size_label(worst_size)));
    return warnings;
  }
  std::uint64_t need = 0;
  const std::uint64_t align = 2u << 20;
  for (std::uint64_t size : sizes)
    for (int t : threads) need = std::max(need, (size + align - 1) / align * align * static_cast<std::uint64_t>(t));
  // Keep 10% of the available memory (and at least 256 MiB) for everything else.
  const std::uint64_t reserve = std::max<std::uint64_t>(memory_available / 10, 256ull << 20);
  const std::uint64_t usable = memory_available > reserve ? memory_available - reserve : 0;
  // Figures to two decimals ("0.0 GiB of buffers ... only 0.0 GiB" said nothing), the reserve
  // as it is (it said "10%" where the 256 MiB floor applied), and advice that can be followed: one
  // 2 MiB buffer that does not fit is the limit's to raise, not the sweep's to shrink.
  const auto amount = [](std::uint64_t b) { return format_bytes(b, " "); };
  const int fewest = threads.empty() ? 1 : std::max(1, *std::min_element(threads.begin(), threads.end()));
  if (need > usable)
    throw InputError(fmt::format(
        "this sweep needs {} of buffers at once (largest size x thread count) but {} can be used ({}{} = {}, "
        "less a reserve of {} for everything else: 10%, at least 256 MiB); {}",
        amount(need), usable == 0 ? std::string("nothing") : fmt::format("only {}", amount(usable)), memory_how.empty() ? "" : memory_how, memory_how.empty() ? "available memory" : "",
        amount(memory_available), amount(reserve),
        align * static_cast<std::uint64_t>(fewest) > usable
            ? "no sweep fits (a buffer takes at least 2 MiB): raise the memory limit or free memory"
            : threads.empty() || *std::max_element(threads.begin(), threads.end()) <= 1
                ? "use smaller --sizes"  // "or fewer --threads" to a run of 1 thread
                : "use smaller --sizes or fewer --threads"));
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

}  // namespace bwlab
