// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <hwloc.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/topology/topology.hpp"

namespace bwlab {
namespace {

TEST(Topology, SyntheticTwoPackagesWithSmt) {
  const Topology t = Topology::from_synthetic("package:2 core:4 pu:2");
  EXPECT_FALSE(t.is_this_system());
  EXPECT_EQ(t.origin(), "package:2 core:4 pu:2");
  EXPECT_EQ(t.packages(), 2);
  EXPECT_EQ(t.cores(), 8);
  EXPECT_EQ(t.numa_nodes(), 1);
  ASSERT_EQ(t.pus().size(), 16u);
  EXPECT_EQ(t.allowed_pus().size(), 16u);  // a synthetic topology allows every PU
  EXPECT_EQ(t.llc_bytes(), 0u);             // no cache level described
  EXPECT_EQ(t.llc_count(), 0);

  // Structure of every PU: OS index i is logical i, core i/2, package i/8, SMT rank i%2.
  for (int i = 0; i < 16; ++i) {
    const Topology::Pu* p = t.find_pu(i);
    ASSERT_NE(p, nullptr) << "PU " << i;
    EXPECT_EQ(p->os_index, i);
    EXPECT_EQ(p->logical, i);
    EXPECT_EQ(p->core, i / 2) << "PU " << i;
    EXPECT_EQ(p->package, i / 8) << "PU " << i;
    EXPECT_EQ(p->smt_rank, i % 2) << "PU " << i;
    EXPECT_EQ(p->numa_node, 0);
    EXPECT_TRUE(p->allowed);
  }
  EXPECT_EQ(t.find_pu(16), nullptr);
  EXPECT_EQ(t.find_pu(-1), nullptr);
}

TEST(Topology, SyntheticTwoNumaNodes) {
  const Topology t = Topology::from_synthetic("package:2 numa:1 core:26 pu:2");
  EXPECT_EQ(t.packages(), 2);
  EXPECT_EQ(t.numa_nodes(), 2);
  EXPECT_EQ(t.cores(), 52);
  ASSERT_EQ(t.pus().size(), 104u);
  EXPECT_EQ(t.numa_os_indices(), (std::vector<int>{0, 1}));
  // The first 52 PUs are on node 0 / package 0, the rest on node 1 / package 1.
  for (const auto& p : t.pus()) {
    EXPECT_EQ(p.numa_node, p.os_index / 52) << "PU " << p.os_index;
    EXPECT_EQ(p.package, p.os_index / 52) << "PU " << p.os_index;
  }
}

TEST(Topology, SyntheticWithLastLevelCache) {
  const Topology t = Topology::from_synthetic("package:1 l3:1(size=32MiB) core:4 pu:1");
  EXPECT_EQ(t.llc_bytes(), 32ull << 20);
  EXPECT_EQ(t.llc_count(), 1);
  EXPECT_EQ(t.cores(), 4);
  EXPECT_EQ(t.pus().size(), 4u);
  EXPECT_NE(t.summary().find("LLC 32MiB x1"), std::string::npos) << t.summary();
}

TEST(Topology, BadSyntheticThrowsInputError) {
  EXPECT_THROW(Topology::from_synthetic("package:two pu:2"), InputError);
  EXPECT_THROW(Topology::from_synthetic("bogus:3"), InputError);
  try {
    Topology::from_synthetic("pu:x");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pu:x"), std::string::npos) << e.what();
  }
}

TEST(Topology, MissingXmlThrowsInputError) {
  const std::string path = "/nonexistent/bwlab-no-such-topology.xml";
  try {
    Topology::from_xml(path);
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  // from_spec sends a ".xml" path to from_xml, not to the synthetic parser.
  EXPECT_THROW(Topology::from_spec("x.xml"), InputError);
  try {
    Topology::from_spec("x.xml");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("hwloc XML"), std::string::npos) << e.what();
  }
}

// A file that is there but no topology: "missing or malformed" sent the user looking for a file
// they had, and a machine file given as a topology was not named as one.
TEST(Topology, AnExistingFileThatIsNoTopologySaysWhatItIs) {
  const auto error_for = [](const std::string& content) {
    char path[] = "/tmp/bwlab-topo-XXXXXX.xml";
    const int fd = mkstemps(path, 4);
    if (fd < 0) return std::string("mkstemps failed");
    if (!content.empty() && write(fd, content.data(), content.size()) != static_cast<ssize_t>(content.size()))
      return std::string("write failed");
    close(fd);
    std::string what = "no error";
    try {
      Topology::from_xml(path);
    } catch (const InputError& e) {
      what = e.what();
    }
    std::remove(path);
    return what;
  };
  for (const std::string& content : {std::string(), std::string("<topology></topology>\n"), std::string("{\"uarch\": 1}\n")}) {
    const std::string e = error_for(content);
    EXPECT_EQ(e.find("missing"), std::string::npos) << e;
    EXPECT_NE(e.find("cannot read hwloc XML topology"), std::string::npos) << e;
  }
  EXPECT_NE(error_for("").find("the file is empty"), std::string::npos);
  EXPECT_NE(error_for("<topology></topology>\n").find("hwloc rejected it as malformed"), std::string::npos);
  EXPECT_NE(error_for("{\"uarch\": 1}\n").find("it is JSON, not XML (a machine file goes to simulate --machine"),
            std::string::npos);
}

TEST(Topology, FromSpecDispatch) {
  const Topology local = Topology::from_spec("local");
  EXPECT_TRUE(local.is_this_system());
  EXPECT_EQ(local.origin(), "local");
  EXPECT_GE(local.allowed_pus().size(), 1u);

  const Topology empty = Topology::from_spec("");
  EXPECT_TRUE(empty.is_this_system());
  EXPECT_EQ(empty.pus().size(), local.pus().size());

  const Topology syn = Topology::from_spec("package:2 core:4 pu:2");
  EXPECT_FALSE(syn.is_this_system());
  EXPECT_EQ(syn.origin(), "package:2 core:4 pu:2");
  EXPECT_EQ(syn.pus().size(), 16u);
}

TEST(Topology, SummaryMentionsCounts) {
  const Topology t = Topology::from_synthetic("package:2 core:4 pu:2");
  const std::string s = t.summary();
  for (const char* part : {"2 packages", "1 NUMA node,", "8 cores", "16 PUs", "not this machine"})
    EXPECT_NE(s.find(part), std::string::npos) << "'" << part << "' missing from: " << s;

  const Topology one = Topology::from_synthetic("package:1 core:1 pu:1");
  const std::string s1 = one.summary();
  for (const char* part : {"1 package,", "1 core,", "1 PU "})
    EXPECT_NE(s1.find(part), std::string::npos) << "'" << part << "' missing from: " << s1;

  const Topology local = Topology::local();
  EXPECT_NE(local.summary().find("(this machine)"), std::string::npos) << local.summary();

  std::ostringstream tree;
  t.print(tree);
  EXPECT_EQ(tree.str().rfind(s + "\n", 0), 0u) << tree.str();  // starts with the summary
  EXPECT_NE(tree.str().find("PU P#15"), std::string::npos) << tree.str();
}

TEST(Topology, LocalAllowedPusMatchSchedGetaffinity) {
  const Topology t = Topology::local();
  const std::vector<int> allowed = t.allowed_pus();
  ASSERT_FALSE(allowed.empty());

  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  EXPECT_EQ(static_cast<int>(allowed.size()), CPU_COUNT(&set));
  for (int pu : allowed) EXPECT_TRUE(CPU_ISSET(pu, &set)) << "PU " << pu << " not in the affinity mask";
  for (const auto& p : t.pus())
    EXPECT_EQ(p.allowed, CPU_ISSET(p.os_index, &set) != 0) << "PU " << p.os_index;
  // No duplicates.
  EXPECT_EQ(std::set<int>(allowed.begin(), allowed.end()).size(), allowed.size());
}

TEST(Topology, XmlRoundTrip) {
  const Topology t = Topology::from_synthetic("package:2 l3:1(size=16MiB) core:4 pu:2");
  char path[] = "/tmp/bwlab-topo-XXXXXX.xml";
  const int fd = mkstemps(path, 4);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(hwloc_topology_export_xml(t.raw(), path, 0), 0);

  const Topology back = Topology::from_xml(path);
  std::remove(path);
  EXPECT_FALSE(back.is_this_system());
  EXPECT_EQ(back.origin(), path);
  EXPECT_EQ(back.pus().size(), t.pus().size());
  EXPECT_EQ(back.pus().size(), 16u);
  EXPECT_EQ(back.packages(), 2);
  EXPECT_EQ(back.cores(), 8);
  EXPECT_EQ(back.llc_bytes(), 16ull << 20);
  EXPECT_EQ(back.llc_count(), 2);

  // And through from_spec.
  char path2[] = "/tmp/bwlab-topo-XXXXXX.xml";
  const int fd2 = mkstemps(path2, 4);
  ASSERT_GE(fd2, 0);
  close(fd2);
  ASSERT_EQ(hwloc_topology_export_xml(t.raw(), path2, 0), 0);
  const Topology via_spec = Topology::from_spec(path2);
  std::remove(path2);
  EXPECT_EQ(via_spec.pus().size(), 16u);

  // lstopo's XML under another suffix (".XML", ".txt", none) is a file too: it was read as levels
  // ("'syn.xml' is no hwloc level").
  for (const char* suffix : {".XML", ".txt", ""}) {
    char path3[] = "/tmp/bwlab-topo-XXXXXX";
    const int fd3 = mkstemp(path3);
    ASSERT_GE(fd3, 0);
    close(fd3);
    const std::string named = std::string(path3) + suffix;
    if (*suffix) {
      ASSERT_EQ(std::rename(path3, named.c_str()), 0);
    }
    ASSERT_EQ(hwloc_topology_export_xml(t.raw(), named.c_str(), 0), 0);
    const Topology other = Topology::from_spec(named);
    std::remove(named.c_str());
    EXPECT_EQ(other.pus().size(), 16u) << named;
  }
}

TEST(Topology, MoveKeepsEverything) {
  Topology a = Topology::from_synthetic("package:2 core:4 pu:2");
  Topology b = std::move(a);
  EXPECT_EQ(b.pus().size(), 16u);
  EXPECT_NE(b.raw(), nullptr);
  Topology c = Topology::from_synthetic("package:1 core:1 pu:1");
  c = std::move(b);
  EXPECT_EQ(c.pus().size(), 16u);
  EXPECT_EQ(c.packages(), 2);
}

}  // namespace
}  // namespace bwlab

namespace bwlab {
// Found by fuzz_topology: "442 pu:82" (36,244 PUs) kept hwloc busy for 22 s.
TEST(TopologyLimits, HugeOrBinarySyntheticStringsAreRefusedUpFront) {
  EXPECT_THROW(Topology::from_synthetic("package:1000 core:1000 pu:8"), InputError);
  EXPECT_THROW(Topology::from_synthetic("442 pu:82"), InputError);
  EXPECT_THROW(Topology::from_synthetic(std::string_view("pu:2\0x", 6)), InputError);
  // Real large machines still load.
  EXPECT_EQ(Topology::from_synthetic("package:2 numa:1 core:64 pu:2").pus().size(), 256u);
  EXPECT_EQ(Topology::from_synthetic("package:1 l3:1(size=32MiB) core:8 pu:2").pus().size(), 16u);
}
}  // namespace bwlab
