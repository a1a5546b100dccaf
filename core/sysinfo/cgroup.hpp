// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>

namespace bwlab {

// The tightest cgroup memory limit on this process: cgroup v1 (memory controller,
// memory.limit_in_bytes / memory.usage_in_bytes) and v2 (memory.max / memory.current), each read
// for the process's own group and every group above it (a parent's limit binds too).
struct CgroupMemory {
  bool limited = false;          // false: no limit found (or no cgroup memory controller)
  std::uint64_t limit = 0;       // bytes, of the group with the least headroom
  std::uint64_t usage = 0;       // bytes in use in that group
  std::uint64_t headroom = 0;    // limit - usage (0 if over)
  std::string where;             // e.g. "cgroup v1 memory.limit_in_bytes of /sys/fs/cgroup/memory/a/b"
};

// `root` prefixes every path read (/proc/self/cgroup, /sys/fs/cgroup/...): "" is the real system,
// a temporary directory holding the same layout is a fixture for tests.
CgroupMemory read_cgroup_memory(const std::string& root = "");

}  // namespace bwlab
