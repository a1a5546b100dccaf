#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Convert the raw multi-thread memset timings of goldsteinn/memset-benchmarks (Noah Goldstein's
harness for glibc's 2024 non-temporal memset work) into bwlab CSV points (source=imported).

What the harness does (memset-benchmark.c at the commit below): N pthreads, not pinned, each
memsets its own mmap'ed buffer of `size` bytes `iter` times and prints its wall time (time_ns,
CLOCK_MONOTONIC). One run per configuration. Kernels: `erms` = rep stosb, `temporal` = a loop of
4 x vmovdqa ymm (cacheable 32-byte stores), `non_temporal` = 4 x vmovntdq ymm, sfence per call.
In these result files the main thread first-touches every buffer (init=w writes one byte per page
before timing), so a 2-socket machine's pages start on the main thread's node.

Rows taken: size 256 MiB per thread, fill byte 0 (val=0), init=w, reuse=0, align=0. Aggregate =
sum over threads of size x iter / time_ns (bwlab's definition: the sum of per-thread rates).
Mapped to bwlab kernels: erms -> stosb, temporal -> avx2-store, non_temporal -> avx2-nt.
Placement none (threads not pinned); membind local on 1 socket, node:0 on 2 sockets (memory
first-touched by one thread, as docs/model.md models it).

Usage: goldsteinn_memset.py GIT_DIR COMMIT OUT_DIR
(GIT_DIR: a clone or bare mirror of github.com/goldsteinn/memset-benchmarks.)
"""
import csv
import pathlib
import statistics
import subprocess
import sys

# file -> (machine id, CPU model as lscpu printed it, sockets, the `bwlab machine spec` options
# a user with the spec sheet would give). Channels / MT/s / LLC: Intel ARK for the named parts;
# for the engineering sample (Cascade Lake stepping 7, 18 cores, 1 socket), issue 12's command.
MACHINES = {
    "results/results-bwd-1.txt": (
        "goldsteinn_BWD-1", "Intel(R) Xeon(R) CPU E5-2697 v4 @ 2.30GHz", 2,
        "--uarch broadwell --sockets 2 --cores 18 --smt 2 --channels 4 --mts 2400 --llc 45M --base-ghz 2.3 "
        "--turbo-ghz 3.6"),
    "results/results-bwd-2.txt": (
        "goldsteinn_HSW-EP", "Intel(R) Xeon(R) CPU E5-2695 v3 @ 2.30GHz", 2,
        "--uarch broadwell --sockets 2 --cores 14 --smt 2 --channels 4 --mts 2133 --llc 35M --base-ghz 2.3 "
        "--turbo-ghz 3.3"),
    "results/results-skx-1.txt": (
        "goldsteinn_SKX-1", "Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz", 2,
        "--uarch skylake-sp --sockets 2 --cores 18 --smt 2 --channels 6 --mts 2666 --llc 24.75M --base-ghz 2.3 "
        "--turbo-ghz 3.7"),
    "results/results-skx-2.txt": (
        "goldsteinn_SKX-2", "Genuine Intel(R) CPU 0000%@ (Cascade Lake engineering sample, 18 cores)", 1,
        "--uarch cascadelake-sp --sockets 1 --cores 18 --smt 2 --channels 6 --mts 2666 --llc 24.75M"),
}
KERNELS = {"erms": ("stosb", "write-allocate"), "temporal": ("avx2-store", "write-allocate"),
           "non_temporal": ("avx2-nt", "non-temporal")}
SIZE = 268435456

HEADER = ("source,scenario,host,cpu_model,kernel,traffic_class,fill,threads,placement,membind,pages,size_bytes,reps,"
          "duration_ms,bytes_median,elapsed_ns_median,gbps_median,gbps_min,gbps_max,gbps_pstdev_pct,"
          "gbps_per_thread_median,thread_fairness,pus,pus_planned,flags").split(",")


def git_show(git_dir, commit, path):
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def write_machine(out, name, rows, spec):
    """NAME.csv (bwlab's imported points) and NAME.spec (the `bwlab machine spec` options)."""
    with open(out / f"{name}.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=HEADER)
        w.writeheader()
        w.writerows(rows)
    (out / f"{name}.spec").write_text(f"# spec: {spec}\n")
    print(f"{name}: {len(rows)} rows")


def point_row(name, cpu, func, n, sockets, gbps, flags, **figures):
    """One imported point: threads unpinned, 256 MiB each, fill 0, memory first-touched by the main
    thread (node 0 on two sockets); `figures` fills the byte, time and per-thread columns."""
    kernel, traffic = KERNELS[func]
    row = {"source": "imported", "scenario": "scaling", "host": name, "cpu_model": cpu, "kernel": kernel,
           "traffic_class": traffic, "fill": "zero", "threads": n, "placement": "none",
           "membind": "local" if sockets == 1 else "node:0", "pages": "4k", "size_bytes": SIZE, "reps": 1,
           "duration_ms": 0, "gbps_median": f"{gbps:.4f}", "gbps_min": f"{gbps:.4f}", "gbps_max": f"{gbps:.4f}",
           "gbps_pstdev_pct": "0.000", "pus": "", "pus_planned": "", "flags": flags}
    row.update(figures)
    return row


def main(git_dir, commit, out_dir):
    out = pathlib.Path(out_dir)
    for path, (name, cpu, sockets, spec) in MACHINES.items():
        text = git_show(git_dir, commit, path)
        runs = {}  # (func, nthreads) -> [(iter, time_ns)] one per thread
        for row in csv.DictReader(text.splitlines()):
            if (int(row["size"]) != SIZE or row["val"] != "0" or row["init"] != "w" or row["reuse"] != "0"
                    or row["align"] != "0" or row["func"] not in KERNELS):
                continue
            runs.setdefault((row["func"], int(row["nthreads"])), []).append((int(row["iter"]), int(row["time_ns"])))
        rows = []
        for (func, n), times in sorted(runs.items(), key=lambda kv: (kv[0][1], list(KERNELS).index(kv[0][0]))):
            if len(times) != n:
                sys.exit(f"{path}: {func} {n} threads has {len(times)} timings")
            rates = [SIZE * it / ns for it, ns in times]  # GB/s per thread (1e9 B/s)
            agg = sum(rates)
            rows.append(point_row(
                name, cpu, func, n, sockets, agg,
                f"imported from goldsteinn/memset-benchmarks {commit[:12]} {path}: {func}, {n} unpinned threads, "
                f"256 MiB each x {times[0][0]} memsets, one run, buffers first-touched by the main thread; sum of "
                f"per-thread rates",
                bytes_median=SIZE * times[0][0] * n, elapsed_ns_median=max(ns for _, ns in times),
                gbps_per_thread_median=f"{statistics.median(rates):.4f}",
                thread_fairness=f"{min(rates) / max(rates):.4f}"))
        write_machine(out, name, rows, spec)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
