// SPDX-License-Identifier: MIT
#include "core/sysinfo/cgroup.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace bwlab {
namespace {

// cgroup v1 writes "unlimited" as LONG_MAX rounded down to a page: anything this large is no limit.
constexpr std::uint64_t kUnlimited = 1ull << 62;

bool read_u64(const std::string& path, std::uint64_t& out) {
  std::ifstream in(path);
  std::string s;
  if (!in || !(in >> s)) return false;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool is_dir(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

// Walks from mount + group up to the mount itself; keeps the level with the least headroom.
void walk(const std::string& mount, std::string group, const char* limit_file, const char* usage_file,
          const char* version, CgroupMemory& best) {
  while (!group.empty() && group.back() == '/') group.pop_back();
  // In a cgroup namespace the group path may not exist under this mount: start at the mount.
  if (!is_dir(mount + group)) group.clear();
  for (;;) {
    const std::string dir = mount + group;
    std::uint64_t limit = 0, usage = 0;
    if (read_u64(dir + "/" + limit_file, limit) && limit < kUnlimited) {
      read_u64(dir + "/" + usage_file, usage);
      const std::uint64_t headroom = limit > usage ? limit - usage : 0;
      if (!best.limited || headroom < best.headroom) {
        best.limited = true;
        best.limit = limit;
        best.usage = usage;
        best.headroom = headroom;
        best.where = std::string("cgroup ") + version + " " + limit_file + " of " + dir;
      }
    }
    if (group.empty()) break;
    const auto slash = group.rfind('/');
    group = slash == std::string::npos ? "" : group.substr(0, slash);
  }
}

}  // namespace

CgroupMemory read_cgroup_memory(const std::string& root) {
  CgroupMemory best;
  std::ifstream in(root + "/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    // "ID:controllers:/path"; v2 is "0::/path".
    const auto a = line.find(':');
    const auto b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    const std::string path = line.substr(b + 1);
    if (controllers.empty()) {
      for (const char* mount : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"})
        walk(root + mount, path, "memory.max", "memory.current", "v2", best);
    } else {
      std::stringstream list(controllers);
      std::string c;
      while (std::getline(list, c, ','))
        if (c == "memory") walk(root + "/sys/fs/cgroup/memory", path, "memory.limit_in_bytes",
                                "memory.usage_in_bytes", "v1", best);
    }
  }
  return best;
}

}  // namespace bwlab
