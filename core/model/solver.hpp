// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/engine/buffer.hpp"
#include "core/model/machine.hpp"
#include "core/topology/topology.hpp"

namespace bwlab::model {

enum class Traffic { write_allocate, non_temporal, zero_no_fetch };

// Identical threads that the solver treats as one (same kernel, size, core sharing, node and
// memory placement). Built by simulate_threads; tests build them directly.
struct LoadGroup {
  int count = 1;
  Traffic traffic = Traffic::write_allocate;
  bool rep_stos = false;        // rep stos kernel (stosb, stosq, glibc memset): may evade RFO
  bool zero_fill = true;        // writes zeros (rep stos evasion may depend on it: stos_evasion_nonzero)
  double kernel_scale = 1;      // multiplier on the class concurrency
  std::uint64_t size_bytes = 0; // per thread
  int package = 0;              // where the threads run (logical indices)
  int node = 0;
  std::vector<double> mem_weights;  // share of the buffer on each NUMA node (sums to 1)
  double core_share = 1;        // fraction of one core's concurrency each thread gets (SMT)
  int smt_busy = 1;             // busy PUs on the thread's core (sets core_share with the class's SMT gain)
  int llc_domain = 0;           // LLC domain of the package the threads cache in (0 where the LLC is one)
};

// The machine's shape as the model needs it.
struct Shape {
  int packages = 1;
  std::vector<int> node_package;       // package of each NUMA node
  std::vector<int> cores_per_package;
};
Shape shape_of(const Topology& topo);

// Refuses (InputError) a topology whose NUMA node spans two packages, such as the synthetic
// "package:2 core:26 pu:2" (hwloc then puts one node above both packages): the model attaches
// each node's memory to one package, so half the threads would be simulated as remote while the
// point said "memory local". The message suggests the string with a numa level.
void check_nodes_within_packages(const Topology& topo);

// Whether `topo` has no more packages than the machine's microarchitecture has sockets (a laptop
// part has no inter-socket link to simulate); true for a machine of no known microarchitecture.
bool sockets_fit(const MachineParams& m, const Topology& topo);
// Refuses (InputError) the pair where sockets_fit is false, saying what to simulate instead.
void check_sockets_for(const MachineParams& m, const Topology& topo);

struct GroupRate {
  double gbps = 0;        // bytes cleared per second per thread, GB = 1e9
  double hit = 0;         // fraction of the buffer served from the LLC
  double llc_gbps = 0;    // per-thread rate of the LLC path at the solution
  double dram_gbps = 0;   // per-thread rate of the memory path at the solution
  double rfo_evaded = 0;  // fraction of RFO reads evaded (write-allocate only)
  bool remote = false;    // some of its memory is on another package
};

struct Solution {
  std::vector<GroupRate> groups;
  std::vector<double> node_util, node_dram_gbps, node_capacity_gbps;  // per NUMA node
  std::vector<double> link_util;   // packages x packages (from * packages + to)
  std::vector<double> llc_util;    // per package
  int sweeps = 0;
  bool converged = false;
};

// Solves the shared-resource fixed point: every group's rate from Little's law at loaded
// latencies, every resource's utilisation from the groups' traffic. See docs/model.md.
Solution solve_groups(const std::vector<LoadGroup>& groups, const Shape& shape, const MachineParams& m);

// LLC domains of a package of this many cores: floor(cores / llc_domain_cores), at least 1
// (1 when llc_domain_cores is 0: one LLC per package).
double llc_domains(int cores_per_package, const MachineParams& m);

// Whether a group's rep stos may write without reading (a rep stos kernel, the row has a fast-string
// threshold and the buffer reaches it); its evasion is then stos_evasion, scaled by load and fill.
bool stos_evasion_applies(const LoadGroup& g, const MachineParams& m);

// Whether evaded lines (rep stos fast strings, SpecI2M) are owned without a memory latency:
// one package and a row with own_latency_ns > 0 (docs/model.md, "Ownership without data").
bool fast_ownership(const Shape& shape, const MachineParams& m);

// Loaded latency multiplier 1 + k u / (1 - u).
double queue_factor(double k, double u);

// One pass of `size` bytes timed alone (perf bench -l 1): applies the machine's warm-up term
// to the memory path of a steady-state group rate. GB/s.
double single_pass_gbps(const GroupRate& g, std::uint64_t size, const MachineParams& m);

// Threads grouped by where they run and where their memory is (package, node, SMT share,
// memory weights), with the kernel fields left at their defaults: `group_of[i]` is thread i's
// group. Throws InputError for a PU the topology lacks or a missing membind node.
struct Placed {
  std::vector<LoadGroup> groups;
  std::vector<int> group_of;
  std::vector<bool> smt_shared;  // per thread
};
// LLC domains (llc_domain_cores): a thread caches in the domain of its core (the package's cores in
// logical order, llc_domain_cores per domain: hwloc numbers a CCX's cores together).
Placed place_threads(const std::vector<int>& pus, const std::vector<MemBind>& membind, const Topology& topo,
                     const Shape& shape, const MachineParams& m);

// Where the OS puts the threads of `plan` (placement none: the scatter plan's packages and order):
// the scheduler balances threads over a package's LLC domains (AMD CCDs), so the k-th thread of a
// package goes to an idle core of domain k mod D, else to the domain with the most idle cores, and
// to an SMT sibling only when the package has no idle core. Unchanged with one domain per package
// (Intel). The model solves these PUs and the points record them as planned: the scatter plan of
// a synthetic topology (no CCD level) packs a package's first threads in one domain.
std::vector<int> os_placed_pus(const std::vector<int>& plan, const Topology& topo, const MachineParams& m);

// SMT share of one of k busy siblings: (1 + gain (k - 1)) / k.
double smt_share(double gain, int k);

// Sets a group's kernel fields (traffic, rep_stos, kernel_scale, size) and its SMT share for
// the kernel's class (smt_gain or smt_gain_nt).
void set_kernel(LoadGroup& g, std::string_view kernel, std::uint64_t size, const MachineParams& m);

// One thread of a mixed point: its kernel, buffer size, PU (OS index) and memory binding.
struct ThreadSpec {
  std::string kernel;
  std::uint64_t size_bytes = 0;
  int pu = 0;
  MemBind membind;
  bool zero_fill = true;  // the byte written is 0 (see stos_evasion_nonzero)
};

struct ThreadResult {
  double gbps = 0;
  double hit = 0;
  double llc_gbps = 0, dram_gbps = 0;  // its LLC and memory path rates at the solution
  double rfo_evaded = 0;
  bool remote = false;
  bool smt_shared = false;
  int mem_node = 0;  // the node holding most of its buffer
  std::vector<double> mem_weights;  // its buffer's share on each NUMA node (sums to 1)
  double remote_share = 0;          // the share of those on another package than its PU's
};

// The machine as it runs on `topo`. Its DRAM peak per node refers to the nodes of its own topology
// (a spec sheet or a preset: one node per package); a topology that splits each package into more
// nodes (Sub-NUMA Clustering, NPS) gives each node its share of the package's peak, and one with
// fewer nodes per package gives each node more. Unchanged when the topologies agree or either one
// does not split its packages evenly. Throws InputError where check_sockets_for refuses the pair.
MachineParams on_topology(const MachineParams& m, const Topology& topo);

// Predicts every thread of a (possibly mixed) point: victims and aggressors, different
// kernels and sizes, all sharing the same resources in one solve. Throws InputError for an
// unknown kernel or a PU the topology lacks.
std::vector<ThreadResult> simulate_threads(const std::vector<ThreadSpec>& threads, const Topology& topo,
                                           const MachineParams& m, Solution* solution = nullptr);

// The top of a prediction's band, `gbps` x (1 + band), lowered so that the point's DRAM traffic
// `dram` (GB/s, over the nodes its memory is on) stays within those nodes' `peak` (simulate's
// gbps_max; --validate counts a measurement inside the same band).
double band_top(double gbps, double band, double dram, double peak);
// band_top for some threads of a solve: over the nodes their memory is on (not the nodes other
// threads load: an aggressor on the other package does not widen the victim's band).
double band_top_of(double gbps, const MachineParams& m, const Solution& sol, const std::vector<ThreadResult>& r,
                   const std::vector<std::size_t>& threads);

Traffic traffic_of(std::string_view kernel);  // throws InputError for an unknown kernel
bool is_rep_stos(std::string_view kernel);

}  // namespace bwlab::model
