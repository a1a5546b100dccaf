// SPDX-License-Identifier: MIT
#include "core/report/point_flags.hpp"

#include <algorithm>
#include <string>

namespace bwlab {
namespace {

bool shared_pu_flag(std::string_view f) {
  return f.starts_with("placement none: threads ") && f.find(" shared PU ") != std::string_view::npos;
}

// "window 78 ms for --duration 50 ms: a pass of 256MiB took 68 ms" is a long pass, not a disturbance.
bool disturbed_flag(std::string_view f) {
  return f.starts_with("noisy") || (f.starts_with("window ") && f.find("held up") != std::string_view::npos);
}

}  // namespace

bool threads_assumed(const Point& p) {
  return std::find(p.flags.begin(), p.flags.end(), kThreadsAssumedFlag) != p.flags.end();
}

bool clear_proxy(const Point& p) {
  return std::any_of(p.flags.begin(), p.flags.end(),
                     [](const std::string& f) { return f.find(" clear proxy") != std::string::npos; });
}

bool threads_shared_a_pu(const Point& p) {
  return std::any_of(p.flags.begin(), p.flags.end(), [](const std::string& f) { return shared_pu_flag(f); });
}

bool windows_disturbed(const Point& p) {
  return p.source == "measured" &&
         std::any_of(p.flags.begin(), p.flags.end(), [](const std::string& f) { return disturbed_flag(f); });
}

bool unsteady_flag(const Point& p, std::string_view flag) {
  // "not pinned: thread 1 was seen on PU 0, planned 1": the threads did not run where the point says.
  return p.source == "measured" && (flag.starts_with("unstable") || disturbed_flag(flag) || shared_pu_flag(flag) ||
                                    flag.starts_with("not pinned"));
}

bool flagged_unsteady(const Point& p) {
  return std::any_of(p.flags.begin(), p.flags.end(), [&](const std::string& f) { return unsteady_flag(p, f); });
}

std::string_view row_mark(const Point& p) { return flagged_unsteady(p) ? "!" : p.flags.empty() ? "" : "*"; }

std::string_view footnote_mark(const Point& p, std::string_view flag) { return unsteady_flag(p, flag) ? "! " : "* "; }

}  // namespace bwlab
