// SPDX-License-Identifier: MIT
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "core/engine/barrier.hpp"
#include "core/topology/topology.hpp"

namespace bwlab {

// N threads of a oneTBB arena with exactly N slots, each pinned with hwloc to one PU by an
// arena observer (as oneTBB's own numa_binding_observer does): slot i runs on pus[i].
class PinnedTeam {
 public:
  struct Context {
    int slot;          // 0..N-1, the thread's arena slot
    int pu;            // planned PU (OS index), or kAnyPu when the OS places the thread
    SpinBarrier& barrier;  // shared by the N threads of this run()
  };

  // Requires: topo outlives the team; pus are OS indices of allowed PUs, no duplicates, or
  // kAnyPu (-1, placement none): that thread is bound to every allowed PU and the OS places it.
  PinnedTeam(const Topology& topo, std::vector<int> pus,
             std::chrono::milliseconds gather_timeout = std::chrono::seconds(10));
  ~PinnedTeam();
  PinnedTeam(const PinnedTeam&) = delete;
  PinnedTeam& operator=(const PinnedTeam&) = delete;

  int size() const { return static_cast<int>(pus_.size()); }
  const std::vector<int>& pus() const { return pus_; }
  // The PUs the team may run on: pus(), or every allowed PU when a thread is unbound. Noise
  // (steal time, clock) is read on these.
  const std::vector<int>& watched_pus() const { return watched_; }

  // Runs body once on each of the N threads at the same time (they meet at a barrier first).
  // Throws std::runtime_error when a thread could not be pinned to its PU (naming the PU and
  // errno), when N threads could not be gathered within the timeout, or
  // rethrows the first exception a body threw (the others see a broken barrier).
  // Returns false (without throwing) when `stop` was set while gathering.
  bool run(const std::function<void(Context&)>& body, const std::atomic<bool>* stop = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<int> pus_;
  std::vector<int> watched_;
  std::chrono::milliseconds gather_timeout_;
};

// The CPU the calling thread runs on now (sched_getcpu), -1 if unknown.
int current_cpu();

}  // namespace bwlab
