// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct hwloc_topology;

namespace bwlab {

// A machine's topology, from hwloc: the local machine, an hwloc XML file or a synthetic
// description such as "package:2 numa:1 core:26 pu:2".
class Topology {
 public:
  struct Pu {
    int os_index = 0;    // the number the OS and taskset use
    int logical = 0;     // hwloc logical index
    int core = 0;        // logical index of its core
    int package = 0;     // logical index of its package (0 if none)
    int numa_node = 0;   // logical index of its NUMA node (0 if none)
    int smt_rank = 0;    // 0 for the first PU of its core, 1 for its sibling, ...
    bool allowed = true; // inside this process's allowed cpuset (local machine only)
  };

  static Topology local();
  static Topology from_xml(const std::string& path);          // throws InputError
  static Topology from_synthetic(std::string_view description);  // throws InputError
  // "local" (or empty), a path ending in ".xml", or a synthetic description.
  static Topology from_spec(std::string_view spec);

  Topology(Topology&&) noexcept;
  Topology& operator=(Topology&&) noexcept;
  ~Topology();

  // True when this describes the machine we run on (measurements are possible).
  bool is_this_system() const { return this_system_; }
  const std::string& origin() const { return origin_; }  // "local", the XML path, or the synthetic string

  const std::vector<Pu>& pus() const { return pus_; }  // in hwloc logical order
  std::vector<int> allowed_pus() const;                 // OS indices of allowed PUs
  const Pu* find_pu(int os_index) const;
  int packages() const { return packages_; }
  int cores() const { return cores_; }
  int numa_nodes() const { return numa_nodes_; }
  // OS indices of NUMA nodes, in logical order (used by membind node:N).
  const std::vector<int>& numa_os_indices() const { return numa_os_; }
  std::uint64_t llc_bytes() const { return llc_bytes_; }  // size of one last-level cache, 0 if unknown
  int llc_count() const { return llc_count_; }

  // "1 package, 1 NUMA node, 2 cores, 2 PUs, LLC 32MiB x1 (local)"
  std::string summary() const;
  // A tree for `bwlab topo`.
  void print(std::ostream& out) const;

  hwloc_topology* raw() const { return topo_; }

 private:
  Topology() = default;
  void index();
  hwloc_topology* topo_ = nullptr;
  bool this_system_ = false;
  std::string origin_;
  std::vector<Pu> pus_;
  std::vector<int> numa_os_;
  int packages_ = 0, cores_ = 0, numa_nodes_ = 0, llc_count_ = 0;
  std::uint64_t llc_bytes_ = 0;
};

}  // namespace bwlab
