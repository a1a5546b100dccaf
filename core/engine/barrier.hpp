// SPDX-License-Identifier: MIT
#pragma once
#include <atomic>
#include <chrono>
#include <immintrin.h>

namespace bwlab {

// A reusable spinning barrier for a fixed team. Spinning (not sleeping) so that every thread
// leaves within nanoseconds of the last arrival. It can be broken (timeout, stop request,
// a failed thread): every waiter then returns false, now and in later waits.
class SpinBarrier {
 public:
  using Clock = std::chrono::steady_clock;
  explicit SpinBarrier(int n) : n_(n) {}

  // Waits for all n threads. The last to arrive runs on_last() before releasing the others.
  // Returns false if the barrier is or becomes broken, if `stop` is set, or at `deadline`
  // (which breaks it).
  template <class F>
  bool arrive_and_wait(F&& on_last, Clock::time_point deadline = Clock::time_point::max(),
                       const std::atomic<bool>* stop = nullptr) {
    if (broken_.load()) return false;
    // A stop raised before this thread arrived: refused here, not only while waiting (the last to
    // arrive never waits, so two threads could gather past a stop set before either came).
    if (stop && stop->load()) {
      broken_.store(true);
      return false;
    }
    const unsigned gen = generation_.load();
    if (arrived_.fetch_add(1) + 1 == n_) {
      on_last();
      arrived_.store(0);
      generation_.fetch_add(1);
      return !broken_.load();
    }
    unsigned spins = 0;
    while (generation_.load() == gen) {
      if (broken_.load()) return false;
      if (stop && stop->load(std::memory_order_relaxed)) {
        broken_.store(true);
        return false;
      }
      if ((++spins & 1023u) == 0 && Clock::now() >= deadline) {
        broken_.store(true);
        return false;
      }
      _mm_pause();
    }
    return !broken_.load();
  }
  bool arrive_and_wait(Clock::time_point deadline = Clock::time_point::max(), const std::atomic<bool>* stop = nullptr) {
    return arrive_and_wait([] {}, deadline, stop);
  }
  void break_barrier() { broken_.store(true); }
  bool broken() const { return broken_.load(); }

 private:
  const int n_;
  std::atomic<int> arrived_{0};
  std::atomic<unsigned> generation_{0};
  std::atomic<bool> broken_{false};
};

}  // namespace bwlab
