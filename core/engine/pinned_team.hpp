// SPDX-License-Identifier: MIT
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "core/engine/barrier.hpp"
#include "core/topology/topology.hpp"

namespace bwlab {

// N threads of its own (std::thread), started with the team and kept until it goes: thread i
// pins itself with hwloc to pus[i] before its first run and stays there. Own threads, not a task
// pool: a measurement needs all N bodies running at once, and a pool such as oneTBB's does not
// promise that (the team used a oneTBB arena until a run waited out its gather timeout in CI
// for want of a second thread; see README, How it measures, "Threads"). The threads start with
// SIGINT, SIGTERM and SIGHUP blocked: those go to the process's other threads (the caller's), whose
// handler sets the stop flag a run() is given.
class PinnedTeam {
 public:
  struct Context {
    int slot;          // 0..N-1, the thread's index in the team
    int pu;            // planned PU (OS index), or kAnyPu when the OS places the thread
    SpinBarrier& barrier;  // shared by the N threads of this run()
  };

  // Requires: topo outlives the team; pus are OS indices of allowed PUs, no duplicates, or
  // kAnyPu (-1, placement none): that thread is bound to every allowed PU and the OS places it.
  // Throws std::runtime_error when the system refuses to start a thread.
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

  // Runs body once on each of the N threads at the same time (they meet at a barrier first);
  // the calling thread waits (asleep) and is never moved. Throws std::runtime_error when a
  // thread could not be pinned to its PU (naming the PU and errno), when N threads could not be
  // gathered within the timeout, or rethrows the first exception a body threw (the others see a
  // broken barrier). Returns false (without throwing) when `stop` was set while gathering.
  // One run() at a time.
  bool run(const std::function<void(Context&)>& body, const std::atomic<bool>* stop = nullptr);

 private:
  struct Impl;
  std::vector<int> pus_;
  std::vector<int> watched_;
  std::chrono::milliseconds gather_timeout_;
  std::unique_ptr<Impl> impl_;  // last: destroyed first, its threads joined while pus_ still exists
};

// The CPU the calling thread runs on now (sched_getcpu), -1 if unknown.
int current_cpu();

}  // namespace bwlab
