// SPDX-License-Identifier: MIT
#include "headless/interrupt.hpp"

#include <csignal>

namespace bwlab::cli {
namespace {
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};

extern "C" void on_signal(int sig) {
  g_signal.store(sig);
  g_stop.store(true);
}
}  // namespace

InterruptGuard::InterruptGuard() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGHUP, on_signal);  // a closed terminal: it ended the run with files that looked complete
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGHUP, SIG_DFL);
}

const std::atomic<bool>* InterruptGuard::flag() const { return &g_stop; }
bool InterruptGuard::interrupted() const { return g_stop.load(); }
std::string InterruptGuard::signal_name() const {
  return g_signal.load() == SIGTERM ? "SIGTERM" : g_signal.load() == SIGHUP ? "SIGHUP" : "SIGINT";
}
int InterruptGuard::exit_code() const { return 128 + (g_signal.load() == 0 ? SIGINT : g_signal.load()); }

}  // namespace bwlab::cli
