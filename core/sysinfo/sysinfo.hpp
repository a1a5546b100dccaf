// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/kernels/cpu_features.hpp"
#include "core/report/record.hpp"

namespace bwlab {

// The host name a run records: gethostname(), or the name set_host_name gave (cloned VMs and
// containers that share a hostname would be one host to `bwlab merge`).
std::string host_name();
// Throws InputError for an empty name or one with a comma, quote or control character (it goes
// into CSV fields and file names of a fleet).
void set_host_name(const std::string& name);
std::string kernel_release();   // uname -r
std::string thp_setting();      // the [selected] word of /sys/kernel/mm/transparent_hugepage/enabled, or ""
std::string glibc_version();
std::string microcode();        // from /proc/cpuinfo, "" if not readable
std::string utc_now_iso8601();

// Memory a run may use now: MemAvailable, lowered to the cgroup memory limit's headroom and
// to RLIMIT_AS when those are set. `how` receives what the limiting figure is, to be followed by
// " = FIGURE": "MemAvailable", "half of ulimit -v (683.59 MiB)", "cgroup v1 ... with ... in use".
std::uint64_t memory_available_bytes(std::string* how = nullptr);

// One check of the environment per run, each a warning that says what to do.
// (VM, CPU frequency governor, SMT, THP.)
std::vector<std::string> environment_warnings(const CpuFeatures& cpu);

// A virtual machine whose /proc/stat (its first line, "cpu  user nice system idle iowait irq
// softirq steal ...") counts no steal tick after at least an hour of CPU time: its hypervisor
// probably does not report steal time, so the runs' steal_pct of 0 means unseen, not none. The
// warning for that, else "" (steal counted, too little time to tell, or an unreadable line).
std::string steal_unseen_warning(const std::string& proc_stat_first_line);

// The metadata stored with a run (JSON "run"): bwlab version, date, the command line, host, CPU
// identity and the features bwlab uses, microcode, kernel, THP, glibc, topology summary.
RunInfo describe_run(const CpuFeatures& cpu, const std::string& command_line, const std::string& topology_summary);

}  // namespace bwlab
