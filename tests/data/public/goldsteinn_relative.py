#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Convert the published per-machine summary sheets of goldsteinn/memset-benchmarks (Noah
Goldstein's harness for glibc's 2024 non-temporal memset work) into bwlab CSV points
(source=imported) that hold *relative* figures: ratios between kernels, not GB/s.

Why relative: for the machines below the repository keeps only `results/<M>.html`, a spreadsheet
made by its `process.py`; the raw per-thread timings (`results-<m>.txt`) are not in it. Each cell of
the sheet is, for one configuration (fill value, alignment, reuse, init, size, thread count), one
function's median per-thread wall time divided by the mean of the three functions' median times
(process.py: `val / total`, `total` = mean over `erms`, `temporal`, `non_temporal`). So the sheet
says how much faster one kernel ran than the others at each point, not how fast any of them ran.

Each row's `gbps_median` is 1 / that cell: a rate relative to the mean time of the three kernels
at that point (1.0 = the mean; 2.0 = twice as fast). Its flag starts with "relative figure", which
is how `bwlab simulate --validate` knows to normalise its predictions the same way (docs/model.md,
"Relative figures"). Other bwlab commands must not read these rows as GB/s.

Rows taken: size 256 MiB per thread, fill byte 0 and 1 (val=0, val=1), align=0, reuse=0, init=w (ICX sheets: wz,
its later name) with init_loc main (the main thread first-touches every page, as in the absolute
files: goldsteinn_memset.py), every thread count.
Mapped to bwlab kernels: erms -> stosb, temporal -> avx2-store, non_temporal -> avx2-nt. Placement
none (threads not pinned); membind local on 1 socket, node:0 on 2 sockets.

Usage: goldsteinn_relative.py GIT_DIR COMMIT OUT_DIR
(GIT_DIR: a clone or bare mirror of github.com/goldsteinn/memset-benchmarks.)
"""
import html
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from goldsteinn_memset import KERNELS, SIZE, git_show, point_row, write_machine  # noqa: E402  (same folder)

# sheet -> (machine id, CPU model as the repository's cpu file names it, sockets, `bwlab machine
# spec` options a user with the spec sheet would give: cores, L3 and sockets from the cpu file;
# channels, MT/s and clocks from the vendor's sheet for the named part).
MACHINES = {
    "results/SPR.html": (
        "goldsteinn_SPR", "Intel(R) Xeon(R) Gold 6438N (results/spr-cpu.txt)", 2,
        "--uarch sapphirerapids --sockets 2 --cores 32 --smt 2 --channels 8 --mts 4800 --llc 60M --base-ghz 2.0 "
        "--turbo-ghz 3.6"),
    "results/ICX-2.html": (
        "goldsteinn_ICX-2", "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz (results/icx-cpu-2.txt)", 2,
        "--uarch icelake-sp --sockets 2 --cores 32 --smt 2 --channels 8 --mts 3200 --llc 48M --base-ghz 2.0 "
        "--turbo-ghz 3.2"),
    "results/ICX-1.html": (
        "goldsteinn_ICX-1", "Genuine Intel(R) CPU $0000%@ (Ice Lake-SP engineering sample, 24 cores; "
        "results/icx-cpu-1.txt)", 2,
        "--uarch icelake-sp --sockets 2 --cores 24 --smt 2 --channels 8 --mts 3200 --llc 36M"),
    "results/ZEN2.html": (
        "goldsteinn_ZEN2", "AMD EPYC 7662 64-Core Processor (results/zen2-cpu.txt)", 1,
        "--uarch zen2 --sockets 1 --cores 64 --smt 2 --channels 8 --mts 3200 --llc 256M --base-ghz 2.0 "
        "--turbo-ghz 3.3"),
    "results/ZEN3.html": (
        "goldsteinn_ZEN3", "AMD EPYC 7713 64-Core Processor (results/zen3-cpu.txt)", 1,
        "--uarch zen3 --sockets 1 --cores 64 --smt 2 --channels 8 --mts 3200 --llc 256M --base-ghz 2.0 "
        "--turbo-ghz 3.675"),
    "results/ZEN4.html": (
        "goldsteinn_ZEN4", "AMD EPYC 9554P 64-Core Processor (results/zen4-cpu.txt)", 1,
        "--uarch zen4 --sockets 1 --cores 64 --smt 2 --channels 12 --mts 4800 --llc 256M --base-ghz 3.1 "
        "--turbo-ghz 3.75"),
}
WANT = {"align": "0", "reuse": "0"}
FILLS = {"0": "zero", "1": "0x01"}  # the sheet's val (the byte memset writes) -> bwlab's fill
INITS = ("w", "wz")  # one byte written per page by the main thread ("w" in the older sheets, "wz" later)
CONTEXT = ["val", "align", "reuse", "init", "init_loc"]

def table_rows(text):
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", text, re.S):
        yield [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]


def cells(text, val):
    """(thread count, function) -> relative time, for SIZE and fill `val` in the WANT context,
    main-thread init."""
    ctx, nthreads, funcs, by_init = {}, [], [], {}
    for r in table_rows(text):
        if not r:
            continue
        key = r[0]
        if key == "nthreads":
            nthreads = [c for c in r[1:] if c]
        elif key == "" and any(r[1:]):
            funcs = r[1:]
        elif key.startswith("size="):
            if (int(key[5:]) != SIZE or any(ctx.get(k) != v for k, v in WANT.items()) or ctx.get("val") != val
                    or ctx.get("init") not in INITS or ctx.get("init_loc", "main") != "main"):
                continue
            out = by_init.setdefault(ctx["init"], {})
            col = 0
            for f, v in zip(funcs, r[1:]):
                if f == "":
                    col += 1
                    continue
                if f in KERNELS and v:
                    out[(int(nthreads[col]), f)] = float(v)
        elif "=" in key:
            k, v = key.split("=", 1)
            ctx[k] = v
            if k in CONTEXT:
                for deeper in CONTEXT[CONTEXT.index(k) + 1:]:
                    ctx.pop(deeper, None)
    for init in INITS:
        if by_init.get(init):
            return init, by_init[init]
    return None, {}


def main(git_dir, commit, out_dir):
    out = pathlib.Path(out_dir)
    for path, (name, cpu, sockets, spec) in MACHINES.items():
        text = git_show(git_dir, commit, path)
        rows = []
        for val, fill in FILLS.items():
            init, found = cells(text, val)
            for (n, func), rel in sorted(found.items(), key=lambda kv: (kv[0][0], list(KERNELS).index(kv[0][1]))):
                if not all((n, f) in found for f in KERNELS):
                    sys.exit(f"{path}: val={val}, {n} threads lacks a kernel")
                rate = 1.0 / rel
                rows.append(point_row(
                    name, cpu, func, n, sockets, rate,
                    f"relative figure, not GB/s: mean time of erms/temporal/non_temporal over this kernel's time "
                    f"(sheet cell {rel:.2f}); imported from goldsteinn/memset-benchmarks {commit[:12]} {path}: {func}, "
                    f"val={val}, {n} unpinned threads, 256 MiB each, init={init}, one run, median per-thread time, "
                    f"buffers first-touched by the main thread",
                    fill=fill, bytes_median=0, elapsed_ns_median=0, gbps_per_thread_median=f"{rate:.4f}",
                    thread_fairness=""))
        write_machine(out, name, rows, spec)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
