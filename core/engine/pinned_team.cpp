// SPDX-License-Identifier: MIT
#include "core/engine/pinned_team.hpp"

#include "core/topology/placement.hpp"

#include <hwloc.h>
#include <sched.h>

#include <atomic>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <exception>
#include <memory>
#include <thread>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_scheduler_observer.h>

namespace bwlab {

int current_cpu() { return sched_getcpu(); }

namespace {

// Pins each thread that enters the arena to the PU of its slot (or, for a slot planned on
// kAnyPu, to every allowed PU: the OS places it); restores its mask on exit.
// Never throws from the hooks: a failed bind is recorded per slot (its errno) and run() turns
// it into an error that ends the gathering.
class PinningObserver final : public tbb::task_scheduler_observer {
 public:
  PinningObserver(tbb::task_arena& arena, const Topology& topo, const std::vector<int>& pus)
      : tbb::task_scheduler_observer(arena), topo_(topo.raw()), pus_(pus) {
    for (std::size_t i = 0; i < pus.size(); ++i) {
      cpusets_.push_back(hwloc_bitmap_alloc());
      if (pus[i] < 0)
        hwloc_bitmap_copy(cpusets_.back(), hwloc_topology_get_allowed_cpuset(topo_));
      else
        hwloc_bitmap_only(cpusets_.back(), static_cast<unsigned>(pus[i]));
      saved_.push_back(hwloc_bitmap_alloc());
    }
    bind_errno_ = std::make_unique<std::atomic<int>[]>(pus.size());
    read_back_.resize(pus.size());
    observe(true);
  }
  ~PinningObserver() override {
    observe(false);
    for (auto* b : cpusets_) hwloc_bitmap_free(b);
    for (auto* b : saved_) hwloc_bitmap_free(b);
  }
  // Waits (bounded) until every thread has left the arena. A thread inside still holds a
  // reference to this observer's proxy; disabling the observer then leaves the proxy to that
  // thread, and LeakSanitizer found it leaked when the arena went away first (seen under load).
  void wait_until_idle(std::chrono::milliseconds limit) const {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (inside_.load() > 0 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  }
  void on_scheduler_entry(bool) override {
    inside_.fetch_add(1);
    const int slot = tbb::this_task_arena::current_thread_index();
    if (slot < 0 || slot >= static_cast<int>(pus_.size())) return;
    const auto i = static_cast<std::size_t>(slot);
    // Every binding call is checked, and the binding is read back: a call that "succeeds"
    // without binding (XML topologies, a cpuset that changed under us) is caught here.
    if (hwloc_get_cpubind(topo_, saved_[i], HWLOC_CPUBIND_THREAD) != 0) hwloc_bitmap_zero(saved_[i]);
    int e = hwloc_set_cpubind(topo_, cpusets_[i], HWLOC_CPUBIND_THREAD) == 0 ? 0 : (errno != 0 ? errno : EINVAL);
    read_back_[i].clear();
    if (e == 0) {
      hwloc_bitmap_t now = hwloc_bitmap_alloc();
      if (hwloc_get_cpubind(topo_, now, HWLOC_CPUBIND_THREAD) != 0) {
        e = errno != 0 ? errno : EINVAL;
        read_back_[i] = "hwloc_get_cpubind failed";
      } else if (!hwloc_bitmap_isequal(now, cpusets_[i])) {
        e = kReadBackDiffers;
        char* text = nullptr;
        hwloc_bitmap_list_asprintf(&text, now);
        read_back_[i] = text ? text : "?";
        std::free(text);
      }
      hwloc_bitmap_free(now);
    }
    bind_errno_[i].store(e);
  }
  static constexpr int kReadBackDiffers = -1;
  // 0 when the thread of `slot` was pinned on its last entry (bound and read back), else the
  // errno of the failed call or kReadBackDiffers.
  int bind_errno(int slot) const { return bind_errno_[static_cast<std::size_t>(slot)].load(); }
  // What the binding read back as when it differed (a PU list), or which call failed.
  // Read only by the thread of `slot` after its entry.
  const std::string& read_back(int slot) const { return read_back_[static_cast<std::size_t>(slot)]; }
  void on_scheduler_exit(bool) override {
    const int slot = tbb::this_task_arena::current_thread_index();
    if (slot >= 0 && slot < static_cast<int>(pus_.size()) && !hwloc_bitmap_iszero(saved_[static_cast<std::size_t>(slot)]))
      hwloc_set_cpubind(topo_, saved_[static_cast<std::size_t>(slot)], HWLOC_CPUBIND_THREAD);
    inside_.fetch_sub(1);
  }

 private:
  hwloc_topology_t topo_;
  std::vector<int> pus_;
  std::vector<hwloc_bitmap_t> cpusets_;
  std::vector<hwloc_bitmap_t> saved_;
  std::unique_ptr<std::atomic<int>[]> bind_errno_;  // per slot, set on entry
  std::vector<std::string> read_back_;              // per slot, set on entry
  std::atomic<int> inside_{0};  // threads between entry and exit
};

}  // namespace

struct PinnedTeam::Impl {
  Impl(int n, const Topology& topo, const std::vector<int>& pus)
      : control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(n) + 1),
        arena(n, 1),
        observer((arena.initialize(), arena), topo, pus) {}
  ~Impl() { observer.wait_until_idle(std::chrono::seconds(2)); }
  tbb::global_control control;
  tbb::task_arena arena;
  PinningObserver observer;
};

PinnedTeam::PinnedTeam(const Topology& topo, std::vector<int> pus, std::chrono::milliseconds gather_timeout)
    : pus_(std::move(pus)), gather_timeout_(gather_timeout) {
  if (pus_.empty()) throw std::invalid_argument("PinnedTeam needs at least one PU");
  watched_ = pus_;
  if (std::find(pus_.begin(), pus_.end(), kAnyPu) != pus_.end()) watched_ = topo.allowed_pus();
  impl_ = std::make_unique<Impl>(size(), topo, pus_);
}

PinnedTeam::~PinnedTeam() = default;

bool PinnedTeam::run(const std::function<void(Context&)>& body, const std::atomic<bool>* stop) {
  const int n = size();
  SpinBarrier barrier(n);
  std::mutex error_mutex;
  std::exception_ptr error;
  bool gather_timed_out = false;
  bool stopped = false;
  const auto deadline = SpinBarrier::Clock::now() + gather_timeout_;
  impl_->arena.execute([&] {
    tbb::parallel_for(
        0, n, 1,
        [&](int) {
          const int slot = tbb::this_task_arena::current_thread_index();
          if (const int e = impl_->observer.bind_errno(slot); e != 0) {
            {
              std::lock_guard lock(error_mutex);
              const int planned = pus_[static_cast<std::size_t>(slot)];
              const std::string pu = planned < 0 ? std::string("the allowed PUs") : fmt::format("PU {}", planned);
              const std::string& back = impl_->observer.read_back(slot);
              if (!error)
                error = std::make_exception_ptr(std::runtime_error(
                    e == PinningObserver::kReadBackDiffers
                        ? fmt::format("could not pin the thread of slot {} to {}: hwloc_set_cpubind succeeded but "
                                      "the binding reads back as PU(s) {} (a cpuset or another tool changed it?)",
                                      slot, pu, back)
                        : fmt::format("could not pin the thread of slot {} to {}: {} failed: {} (errno {})", slot,
                                      pu, back.empty() ? "hwloc_set_cpubind" : "hwloc_get_cpubind",
                                      std::strerror(e), e)));
            }
            barrier.break_barrier();  // the others stop gathering and see the error
            return;
          }
          if (!barrier.arrive_and_wait(deadline, stop)) {
            std::lock_guard lock(error_mutex);
            if (stop && stop->load()) stopped = true;
            else if (!error) gather_timed_out = true;
            return;
          }
          Context ctx{slot, pus_[static_cast<std::size_t>(slot)], barrier};
          try {
            body(ctx);
          } catch (...) {
            barrier.break_barrier();
            std::lock_guard lock(error_mutex);
            if (!error) error = std::current_exception();
          }
        },
        tbb::simple_partitioner());
  });
  if (error) std::rethrow_exception(error);
  if (stopped) return false;
  if (gather_timed_out)
    throw std::runtime_error(fmt::format(
        "could not bring {} pinned threads together within {} ms (is the machine overloaded, or the "
        "thread count above what the scheduler allows?)",
        n, gather_timeout_.count()));
  return true;
}

}  // namespace bwlab
