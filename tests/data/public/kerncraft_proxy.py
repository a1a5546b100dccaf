#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Convert the MEM-level likwid-bench `update` measurements of RRZE-HPC/kerncraft's machine files
into bwlab CSV points (source=imported) that stand for a write-allocate clear (`avx2-store`).

Why update: `a[i] = s * a[i]` moves, per line, one line read from DRAM and one line written back:
the same DRAM traffic as a cacheable store that reads each line for ownership before writing it
(RFO). likwid-bench counts both directions (16 bytes per 8-byte element), so the clearing rate the
same traffic would give is update GB/s / 2. This is a traffic-equivalence proxy, not a clearing
measurement: the core issues loads (and the L2 streamer prefetches them) where a clear issues RFOs.

Usage: kerncraft_proxy.py KERNCRAFT_REPO_DIR COMMIT OUT_DIR
Reads examples/machine-files/<name>.yml for the machines listed below (one NUMA domain per socket,
microarchitecture in bwlab's table) and writes OUT_DIR/<name>.csv.
"""
import csv
import pathlib
import statistics
import sys

import yaml

# name -> (uarch, channels per socket, MT/s, LLC per socket): Intel ARK spec sheets (not in the
# machine files, which state cores, sockets, clock and caches but not the DIMMs).
MACHINES = {
    "BroadwellEP_E5-2630v4": ("broadwell", 4, 2133, "25M"),
    "SkylakeSP_Gold-5122": ("skylake-sp", 6, 2666, "16.5M"),
    "SkylakeSP_Gold-6148": ("skylake-sp", 6, 2666, "27.5M"),
    "SkylakeSP_Platinum-8147_2.7GHz": ("skylake-sp", 6, 2666, "33M"),
}

HEADER = ("source,scenario,host,cpu_model,kernel,traffic_class,fill,threads,placement,membind,pages,size_bytes,reps,"
          "duration_ms,bytes_median,elapsed_ns_median,gbps_median,gbps_min,gbps_max,gbps_pstdev_pct,"
          "gbps_per_thread_median,thread_fairness,pus,pus_planned,flags").split(",")


def gbs(x):
    return float(str(x).split()[0])


def size_bytes(x):
    v, unit = str(x).split()
    return int(float(v) * {"kB": 1e3, "MB": 1e6, "GB": 1e9}[unit])


def placement(cores, tpc, smt):
    """likwid-bench's fill: cores 1..N of socket 0, tpc threads on each. bwlab's compact places one
    thread per core before siblings; with both siblings the PUs are listed as hwloc logical PUs of
    'package:1 numa:1 core:C pu:smt' (PU = core x smt + sibling)."""
    if tpc == 1:
        return "compact"
    return ",".join(str(c * smt + s) for c in range(cores) for s in range(tpc))


def main(repo, commit, out_dir):
    out = pathlib.Path(out_dir)
    for name, (uarch, channels, mts, llc) in MACHINES.items():
        path = pathlib.Path(repo) / "examples/machine-files" / f"{name}.yml"
        d = yaml.safe_load(path.read_text())
        clock = gbs(d["clock"])
        rows = []
        for tpc, m in d["benchmarks"]["measurements"]["MEM"].items():
            for i, cores in enumerate(m["cores"]):
                if "stats" in m:
                    runs = [gbs(x) / 2 for x in m["stats"]["update"][i]]
                    how = f"median of {len(runs)} runs"
                else:  # older files keep only the best run
                    runs = [gbs(m["results"]["update"][i]) / 2]
                    how = "best run, the file keeps no others"
                threads = cores * tpc
                med = statistics.median(runs)
                note = (f"imported from kerncraft {commit[:12]} examples/machine-files/{name}.yml: likwid-bench "
                        f"update (MEM, {cores} cores x {tpc} threads per core, {how}) / 2 "
                        f"= write-allocate clear proxy (same DRAM lines read and written); {clock} GHz fixed")
                rows.append({
                    "source": "imported", "scenario": "scaling", "host": name, "cpu_model": d["model name"],
                    "kernel": "avx2-store", "traffic_class": "write-allocate", "fill": "unknown",
                    "threads": threads, "placement": placement(cores, tpc, d["threads per core"]), "membind": "local", "pages": "4k",
                    "size_bytes": size_bytes(m["size per thread"][i]), "reps": len(runs), "duration_ms": 0,
                    "bytes_median": 0, "elapsed_ns_median": 0, "gbps_median": f"{med:.4f}",
                    "gbps_min": f"{min(runs):.4f}", "gbps_max": f"{max(runs):.4f}",
                    "gbps_pstdev_pct": f"{100 * statistics.pstdev(runs) / med:.3f}",
                    "gbps_per_thread_median": f"{med / threads:.4f}", "thread_fairness": "", "pus": "",  # not stated: empty, not 0 (read as "completely unfair")
                    "pus_planned": "", "flags": note,
                })
        spec = (f"# spec: --uarch {uarch} --sockets 1 --cores {d['cores per socket']} --smt "
                f"{d['threads per core']} --channels {channels} --mts {mts} --llc {llc} --base-ghz {clock}\n")
        with open(out / f"{name}.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=HEADER, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        (out / f"{name}.spec").write_text(spec)


if __name__ == "__main__":
    main(*sys.argv[1:4])
