// SPDX-License-Identifier: MIT
#include "core/engine/pinned_team.hpp"

#include "core/topology/placement.hpp"

#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

#include <fmt/format.h>

namespace bwlab {

int current_cpu() { return sched_getcpu(); }

namespace {

constexpr int kReadBackDiffers = -1;

// How a thread's pinning went, found by the thread itself before its first run.
struct PinResult {
  int error = 0;          // 0 when bound and read back; else the errno of the failed call, or kReadBackDiffers
  std::string read_back;  // what the binding read back as when it differed (a PU list), or which call failed
};

// Binds the calling thread to `set`, then reads the binding back: a call that "succeeds" without
// binding (XML topologies, a cpuset that changed under us) is caught here.
PinResult pin_this_thread(hwloc_topology_t topo, hwloc_const_bitmap_t set) {
  PinResult r;
  if (hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD) != 0) {
    r.error = errno != 0 ? errno : EINVAL;
    return r;
  }
  hwloc_bitmap_t now = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topo, now, HWLOC_CPUBIND_THREAD) != 0) {
    r.error = errno != 0 ? errno : EINVAL;
    r.read_back = "hwloc_get_cpubind failed";
  } else if (!hwloc_bitmap_isequal(now, set)) {
    r.error = kReadBackDiffers;
    char* text = nullptr;
    hwloc_bitmap_list_asprintf(&text, now);
    r.read_back = text ? text : "?";
    std::free(text);
  }
  hwloc_bitmap_free(now);
  return r;
}

// Blocks the interrupt signals (SIGINT, SIGTERM, SIGHUP) in the calling thread while it lives, so
// that the threads it starts inherit them blocked; the caller's mask comes back at the end. The
// kernel then hands such a signal to a thread that takes it (the one that started the team, which
// waits for the team's runs): a measuring thread is never interrupted by it.
class InterruptsBlocked {
 public:
  InterruptsBlocked() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~InterruptsBlocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  InterruptsBlocked(const InterruptsBlocked&) = delete;
  InterruptsBlocked& operator=(const InterruptsBlocked&) = delete;

 private:
  sigset_t old_;
};

std::string pin_error(int slot, int planned, const PinResult& r) {
  const std::string pu = planned < 0 ? std::string("the allowed PUs") : fmt::format("PU {}", planned);
  if (r.error == kReadBackDiffers)
    return fmt::format("could not pin the thread of slot {} to {}: hwloc_set_cpubind succeeded but the binding "
                       "reads back as PU(s) {} (a cpuset or another tool changed it?)",
                       slot, pu, r.read_back);
  return fmt::format("could not pin the thread of slot {} to {}: {} failed: {} (errno {})", slot, pu,
                     r.read_back.empty() ? "hwloc_set_cpubind" : "hwloc_get_cpubind", std::strerror(r.error),
                     r.error);
}

// One run(): what every thread of the team reads and reports into.
struct RunState {
  const std::function<void(PinnedTeam::Context&)>& body;
  SpinBarrier barrier;
  SpinBarrier::Clock::time_point deadline;
  const std::atomic<bool>* stop;
  std::mutex error_mutex;
  std::exception_ptr error;       // the first error: a failed pin or a body's exception
  bool gather_timed_out = false;  // under error_mutex
  bool stopped = false;           // under error_mutex
};

}  // namespace

struct PinnedTeam::Impl {
  // pus is the team's own list: it outlives the Impl (PinnedTeam declares impl_ last).
  Impl(const Topology& topo, const std::vector<int>& pus) : topo_(topo.raw()), pus_(pus) {
    for (int p : pus) {
      cpusets_.push_back(hwloc_bitmap_alloc());
      if (p < 0)
        hwloc_bitmap_copy(cpusets_.back(), hwloc_topology_get_allowed_cpuset(topo_));
      else
        hwloc_bitmap_only(cpusets_.back(), static_cast<unsigned>(p));
    }
    try {
      const InterruptsBlocked blocked;  // inherited by the team's threads: interrupts go to the caller's
      for (std::size_t i = 0; i < pus.size(); ++i) threads_.emplace_back([this, i] { thread_main(i); });
    } catch (const std::system_error& e) {
      stop_threads();
      free_sets();
      throw std::runtime_error(fmt::format("could not start thread {} of a team of {}: {}", threads_.size(),
                                           pus.size(), e.what()));
    }
  }
  ~Impl() {
    stop_threads();
    free_sets();
  }

  // Hands `run` to every thread and waits, asleep, until all of them are done with it.
  void run_all(RunState& run) {
    std::unique_lock lock(mutex_);
    run_ = &run;
    done_ = 0;
    ++generation_;
    start_.notify_all();
    finished_.wait(lock, [&] { return done_ == pus_.size(); });
    run_ = nullptr;
  }

 private:
  void thread_main(std::size_t i) {
    // Pinned once, before the first run; only this thread reads its own result.
    const PinResult pin = pin_this_thread(topo_, cpusets_[i]);
    unsigned seen = 0;
    for (;;) {
      RunState* run = nullptr;
      {
        std::unique_lock lock(mutex_);
        start_.wait(lock, [&] { return quit_ || generation_ != seen; });
        if (quit_) return;
        seen = generation_;
        run = run_;
      }
      take_part(*run, static_cast<int>(i), pin);
      {
        std::lock_guard lock(mutex_);
        if (++done_ == pus_.size()) finished_.notify_one();
      }
    }
  }

  void take_part(RunState& run, int slot, const PinResult& pin) {
    const int planned = pus_[static_cast<std::size_t>(slot)];
    if (pin.error != 0) {
      {
        std::lock_guard lock(run.error_mutex);
        if (!run.error) run.error = std::make_exception_ptr(std::runtime_error(pin_error(slot, planned, pin)));
      }
      run.barrier.break_barrier();  // the others stop gathering and see the error
      return;
    }
    if (!run.barrier.arrive_and_wait(run.deadline, run.stop)) {
      std::lock_guard lock(run.error_mutex);
      if (run.stop && run.stop->load()) run.stopped = true;
      else if (!run.error) run.gather_timed_out = true;
      return;
    }
    PinnedTeam::Context ctx{slot, planned, run.barrier};
    try {
      run.body(ctx);
    } catch (...) {
      run.barrier.break_barrier();
      std::lock_guard lock(run.error_mutex);
      if (!run.error) run.error = std::current_exception();
    }
  }

  void stop_threads() {
    {
      std::lock_guard lock(mutex_);
      quit_ = true;
    }
    start_.notify_all();
    for (auto& t : threads_) t.join();
    threads_.clear();
  }
  void free_sets() {
    for (auto* b : cpusets_) hwloc_bitmap_free(b);
    cpusets_.clear();
  }

  hwloc_topology_t topo_;
  const std::vector<int>& pus_;  // PinnedTeam::pus_
  std::vector<hwloc_bitmap_t> cpusets_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable start_;     // a new run, or quit
  std::condition_variable finished_;  // the last thread is done with the run
  unsigned generation_ = 0;           // counts runs; under mutex_
  std::size_t done_ = 0;              // threads done with this run; under mutex_
  bool quit_ = false;                 // under mutex_
  RunState* run_ = nullptr;           // under mutex_
};

PinnedTeam::PinnedTeam(const Topology& topo, std::vector<int> pus, std::chrono::milliseconds gather_timeout)
    : pus_(std::move(pus)), gather_timeout_(gather_timeout) {
  if (pus_.empty()) throw std::invalid_argument("PinnedTeam needs at least one PU");
  watched_ = pus_;
  if (std::find(pus_.begin(), pus_.end(), kAnyPu) != pus_.end()) watched_ = topo.allowed_pus();
  impl_ = std::make_unique<Impl>(topo, pus_);
}

PinnedTeam::~PinnedTeam() = default;

bool PinnedTeam::run(const std::function<void(Context&)>& body, const std::atomic<bool>* stop) {
  const int n = size();
  RunState run{body, SpinBarrier(n), SpinBarrier::Clock::now() + gather_timeout_, stop, {}, {}, false, false};
  impl_->run_all(run);
  if (run.error) std::rethrow_exception(run.error);
  if (run.stopped) return false;
  if (run.gather_timed_out)
    throw std::runtime_error(fmt::format(
        "could not bring {} pinned threads together within {} ms (is the machine overloaded, or the "
        "thread count above what the scheduler allows?)",
        n, gather_timeout_.count()));
  return true;
}

}  // namespace bwlab
