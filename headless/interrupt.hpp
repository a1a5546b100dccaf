// SPDX-License-Identifier: MIT
#pragma once
#include <atomic>
#include <string>

namespace bwlab::cli {

// While alive, SIGINT and SIGTERM set a stop flag (handed to core's sweeps, which finish or
// drop the point under way and return) instead of killing the process, so finished work can
// be written out. Restores the default handlers when destroyed.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  const std::atomic<bool>* flag() const;
  bool interrupted() const;
  std::string signal_name() const;  // "SIGINT" or "SIGTERM"
  int exit_code() const;            // 130 (SIGINT) or 143 (SIGTERM), as shells report them
};

// Thrown by a command's inner steps to end it early after an interrupt, carrying the exit code.
struct Interrupted {
  int exit_code;
};

}  // namespace bwlab::cli
