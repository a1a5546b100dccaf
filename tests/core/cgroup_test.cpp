// SPDX-License-Identifier: MIT
// The cgroup memory limit reader on fixture trees (fake /proc/self/cgroup and cgroupfs in a
// temporary directory): v1 and v2, nested limits, unlimited values, namespaced paths.
#include "core/sysinfo/cgroup.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace bwlab {
namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t GiB = 1ull << 30;
constexpr const char* kV1Unlimited = "9223372036854771712";

class Fixture {
 public:
  Fixture() {
    std::string tmpl = (fs::temp_directory_path() / "bwlab-cgroup-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    root_ = tmpl;
  }
  ~Fixture() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  void write(const std::string& rel, const std::string& text) {
    const fs::path p = root_ / fs::path(rel).relative_path();
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text << "\n";
  }
  std::string root() const { return root_.string(); }

 private:
  fs::path root_;
};

TEST(CgroupMemory, NoCgroupFileMeansNoLimit) {
  Fixture f;
  EXPECT_FALSE(read_cgroup_memory(f.root()).limited);
}

TEST(CgroupMemory, V1UnlimitedEverywhereMeansNoLimit) {
  Fixture f;
  f.write("/proc/self/cgroup", "5:devices:/\n4:memory:/a/b\n0::/");
  for (const char* d : {"", "/a", "/a/b"}) {
    f.write(std::string("/sys/fs/cgroup/memory") + d + "/memory.limit_in_bytes", kV1Unlimited);
    f.write(std::string("/sys/fs/cgroup/memory") + d + "/memory.usage_in_bytes", "1000");
  }
  EXPECT_FALSE(read_cgroup_memory(f.root()).limited);
}

TEST(CgroupMemory, V1OwnGroupLimit) {
  Fixture f;
  f.write("/proc/self/cgroup", "4:memory:/a/b\n0::/");
  f.write("/sys/fs/cgroup/memory/memory.limit_in_bytes", kV1Unlimited);
  f.write("/sys/fs/cgroup/memory/a/memory.limit_in_bytes", kV1Unlimited);
  f.write("/sys/fs/cgroup/memory/a/b/memory.limit_in_bytes", std::to_string(3 * GiB / 2));
  f.write("/sys/fs/cgroup/memory/a/b/memory.usage_in_bytes", std::to_string(GiB / 2));
  const CgroupMemory m = read_cgroup_memory(f.root());
  ASSERT_TRUE(m.limited);
  EXPECT_EQ(m.limit, 3 * GiB / 2);
  EXPECT_EQ(m.usage, GiB / 2);
  EXPECT_EQ(m.headroom, GiB);
  EXPECT_NE(m.where.find("v1 memory.limit_in_bytes"), std::string::npos) << m.where;
  EXPECT_NE(m.where.find("/sys/fs/cgroup/memory/a/b"), std::string::npos) << m.where;
}

TEST(CgroupMemory, V1ParentLimitBinds) {
  Fixture f;
  f.write("/proc/self/cgroup", "4:memory:/a/b");
  f.write("/sys/fs/cgroup/memory/a/memory.limit_in_bytes", std::to_string(2 * GiB));
  f.write("/sys/fs/cgroup/memory/a/memory.usage_in_bytes", std::to_string(GiB));
  f.write("/sys/fs/cgroup/memory/a/b/memory.limit_in_bytes", std::to_string(8 * GiB));
  f.write("/sys/fs/cgroup/memory/a/b/memory.usage_in_bytes", std::to_string(GiB / 4));
  const CgroupMemory m = read_cgroup_memory(f.root());
  ASSERT_TRUE(m.limited);
  EXPECT_EQ(m.headroom, GiB);  // the parent's 2 GiB - 1 GiB, not the child's 8 - 0.25
  EXPECT_EQ(m.limit, 2 * GiB);
  EXPECT_NE(m.where.find("/sys/fs/cgroup/memory/a"), std::string::npos);
  EXPECT_EQ(m.where.find("/a/b"), std::string::npos) << m.where;
}

TEST(CgroupMemory, V1UsageAboveLimitLeavesNoHeadroom) {
  Fixture f;
  f.write("/proc/self/cgroup", "4:cpu,memory:/x");
  f.write("/sys/fs/cgroup/memory/x/memory.limit_in_bytes", std::to_string(GiB));
  f.write("/sys/fs/cgroup/memory/x/memory.usage_in_bytes", std::to_string(2 * GiB));
  const CgroupMemory m = read_cgroup_memory(f.root());
  ASSERT_TRUE(m.limited);  // also found in a comma-joined controller list
  EXPECT_EQ(m.headroom, 0u);
}

TEST(CgroupMemory, V2MaxIsNoLimitAndParentBinds) {
  Fixture f;
  f.write("/proc/self/cgroup", "0::/user.slice/job");
  f.write("/sys/fs/cgroup/user.slice/memory.max", std::to_string(4 * GiB));
  f.write("/sys/fs/cgroup/user.slice/memory.current", std::to_string(3 * GiB));
  f.write("/sys/fs/cgroup/user.slice/job/memory.max", "max");
  f.write("/sys/fs/cgroup/user.slice/job/memory.current", std::to_string(GiB));
  const CgroupMemory m = read_cgroup_memory(f.root());
  ASSERT_TRUE(m.limited);
  EXPECT_EQ(m.headroom, GiB);
  EXPECT_NE(m.where.find("v2 memory.max of"), std::string::npos) << m.where;
  EXPECT_NE(m.where.find("/sys/fs/cgroup/user.slice"), std::string::npos) << m.where;
}

TEST(CgroupMemory, V2AllMaxMeansNoLimit) {
  Fixture f;
  f.write("/proc/self/cgroup", "0::/j");
  f.write("/sys/fs/cgroup/j/memory.max", "max");
  f.write("/sys/fs/cgroup/j/memory.current", "4096");
  EXPECT_FALSE(read_cgroup_memory(f.root()).limited);
}

TEST(CgroupMemory, V2UnderUnifiedMountOfAHybridHost) {
  Fixture f;
  f.write("/proc/self/cgroup", "4:memory:/\n0::/svc");
  f.write("/sys/fs/cgroup/memory/memory.limit_in_bytes", kV1Unlimited);
  f.write("/sys/fs/cgroup/unified/svc/memory.max", std::to_string(GiB));
  f.write("/sys/fs/cgroup/unified/svc/memory.current", "0");
  const CgroupMemory m = read_cgroup_memory(f.root());
  ASSERT_TRUE(m.limited);
  EXPECT_EQ(m.headroom, GiB);
  EXPECT_NE(m.where.find("/sys/fs/cgroup/unified/svc"), std::string::npos) << m.where;
}

TEST(CgroupMemory, TheTightestOfV1AndV2Wins) {
  Fixture f;
  f.write("/proc/self/cgroup", "4:memory:/a\n0::/b");
  f.write("/sys/fs/cgroup/memory/a/memory.limit_in_bytes", std::to_string(3 * GiB));
  f.write("/sys/fs/cgroup/memory/a/memory.usage_in_bytes", "0");
  f.write("/sys/fs/cgroup/unified/b/memory.max", std::to_string(2 * GiB));
  f.write("/sys/fs/cgroup/unified/b/memory.current", "0");
  const CgroupMemory m = read_cgroup_memory(f.root());
  ASSERT_TRUE(m.limited);
  EXPECT_EQ(m.limit, 2 * GiB);
}

TEST(CgroupMemory, NamespacedPathMissingUnderTheMountReadsTheMountRoot) {
  Fixture f;  // inside a cgroup namespace /proc/self/cgroup names a path the mount does not show
  f.write("/proc/self/cgroup", "0::/../../outside");
  f.write("/sys/fs/cgroup/memory.max", std::to_string(GiB));
  f.write("/sys/fs/cgroup/memory.current", "0");
  const CgroupMemory m = read_cgroup_memory(f.root());
  ASSERT_TRUE(m.limited);
  EXPECT_EQ(m.limit, GiB);
}

TEST(CgroupMemory, GarbageValuesAreIgnored) {
  Fixture f;
  f.write("/proc/self/cgroup", "garbage line\n4:memory:/a");
  f.write("/sys/fs/cgroup/memory/a/memory.limit_in_bytes", "12abc");
  EXPECT_FALSE(read_cgroup_memory(f.root()).limited);
}

}  // namespace
}  // namespace bwlab
