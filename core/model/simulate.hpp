// SPDX-License-Identifier: MIT
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/report/record.hpp"
#include "core/sweep/sweep.hpp"
#include "core/topology/topology.hpp"

namespace bwlab {

// The analytical contention model's parameters for one machine (defined in core/model/machine.hpp).
struct MachineParams;
using MachinePtr = std::shared_ptr<const MachineParams>;

// A preset name (see machine_presets()) or the path of a JSON parameter file written by
// `bwlab calibrate` or `bwlab machine spec`. Throws InputError naming the presets, or the file's
// problem; a value with a '/' or a '.' (no preset has one) that names no file "does not exist".
MachinePtr load_machine(std::string_view preset_or_path);

// Names of the built-in presets, e.g. "skylake-x-8270cl".
std::vector<std::string> machine_presets();
// Whether `name` is one of machine_presets() (not a machine file's path).
bool is_machine_preset(std::string_view name);

// The synthetic hwloc topology string a machine describes (used when no --topology is given),
// e.g. "package:2 numa:1 core:26 pu:2"; "local" for a calibration of the local machine.
std::string machine_topology(const MachineParams& m);

// The model sizes the LLC from the machine (docs/model.md), not from a topology's L3 objects:
// when `topo`'s differ from `m`'s (per package, or in how many domains), a note naming the one the
// model used ("the model takes the LLC from machine X: 35.75MiB per package, not the topology's
// 16MiB x2 ..."); empty when they agree or the topology has no L3 size. For a topology the user
// gave (a summary line naming the topology's LLC read as what the model used).
std::string llc_note(const Topology& topo, const MachineParams& m);
// A topology of another shape than the machine's own (other sockets or cores per socket): the
// machine's per-socket figures go to each of its packages, a prediction for another machine
// under this one's name ("machine X has 2 sockets x 32 cores, the topology 4 packages x 8: ...");
// empty when the shapes agree or the machine names no topology of its own (local).
std::string shape_note(const Topology& topo, const MachineParams& m);

// The machine a simulation ran on, as a run records it (a JSON file's run.machine, the GUI's
// run): `m` on `topo` (on_topology), its topology field the topology's origin.
std::string simulated_machine_json(const MachineParams& m, const Topology& topo);

// Predicts every point of the sweep on `topo` with machine `m`: the same Points as a
// measurement (source = "simulated", reps = 0, spread 0), in the same order as run_sweep.
// Throws InputError for a sweep the topology cannot host.
// Each point's gbps_min..gbps_max is the model's uncertainty band, median / (1 + band) ..
// median x (1 + band) (its top capped where the point's DRAM traffic would pass the peak of the
// nodes its memory is on). With `explain`,
// also one explanation per point, in the same order (model::explain_point).
std::vector<Point> simulate_sweep(const SweepSpec& spec, const Topology& topo, const MachineParams& m,
                                  std::vector<std::string>* explain = nullptr);

// Predicts the victim scenario as `bwlab run --scenario victim` measures it: per size, fill and
// victim kernel, one victim thread on the plan's first PU beside k = n - 1 aggressors on the next
// PUs running each aggressor kernel, for every n of spec.threads (n = 1, the victim alone, is
// always added: the baseline). Points in run_victim's form and order (scenario and role
// "victim", peer_kernel, peer_threads = k, peer_gbps_median = the aggressors' total,
// baseline_gbps, slowdown_pct), source "simulated", the band as simulate_sweep's. Throws
// InputError as simulate_sweep, and for no victim or no aggressor.
std::vector<Point> simulate_victim(const SweepSpec& spec, const std::vector<std::string>& victims,
                                   const std::vector<std::string>& aggressors, const Topology& topo,
                                   const MachineParams& m);

// Predicts the mix scenario as `bwlab run --scenario mix` measures it: the threads split between
// kernels (`mix`: kernel and thread count, in order; the first part's threads on the plan's first
// PUs, then the next part's), all in one solve, per size and fill; one point per kernel (scenario
// and role "mix", threads = its count, gbps_* its threads' aggregate, peer_kernel the others
// '+'-joined, peer_threads and peer_gbps_median theirs), source "simulated", the band as
// simulate_sweep's. spec.threads and spec.kernels are not read. Throws InputError as
// simulate_sweep, and for an empty mix or a part without threads.
std::vector<Point> simulate_mix(const SweepSpec& spec, const std::vector<std::pair<std::string, int>>& mix,
                                const Topology& topo, const MachineParams& m);

// The PUs the model solves for `threads` threads: the placement's plan, or for placement none where
// the OS puts them (model::os_placed_pus: spread over a package's LLC domains). The points record
// them. Throws InputError when the placement cannot host them.
std::vector<int> placed_by_model(const Topology& topo, const Placement& placement, int threads, const MachineParams& m);

// Why one simulated point runs at its rate: the model::explain_point text of `p` (its kernel, size,
// threads, fill, placement, membind; placement "none" is the scatter plan, as `simulate` does),
// re-solved on `topo` with machine `m`, the same text `bwlab simulate --explain` prints for it.
// Used by the GUI's hover. Throws InputError for a point `m` and `topo` cannot have produced, and
// for a victim or mix point (re-solved as a scaling point it would explain other threads).
std::string explain_simulated_point(const Point& p, const Topology& topo, const MachineParams& m);

}  // namespace bwlab
