#!/usr/bin/env python3
# allocators.py - emit's tools under each allocator, side by side.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Every tool re-executes itself at start so that glibc's heap grows in huge
# pages (lib/Support/HugePageHeap.cpp). This measures that against a
# maintained allocator that takes huge pages at run time, mimalloc
# (Debian's libmimalloc, preloaded with MIMALLOC_LARGE_OS_PAGES=1), and
# against plain glibc, on the bench's programs: per workload and allocator
# the median CPU time (user + system) and peak RSS over alternating runs,
# and each as a ratio to the re-executed glibc.
#
#   bench/allocators.py [--build DIR] [--data DIR] [--runs 5]
#                       [--mimalloc /usr/lib/x86_64-linux-gnu/libmimalloc.so.2]
#
# The programs are those bench/run.py writes into the data directory
# (memory-s4096-p{1,3,8}.pte, graph.pte, llm.pte); a missing one is
# skipped, saying so.

import argparse
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, tool and its flags, program): what bench/run.py times.
WORKLOADS = [
    ("p1 pte-to-pte", ["emit-translate", "--pte-to-pte"], "memory-s4096-p1.pte"),
    ("p1 emit-memory", ["emit-memory", "--format=json"], "memory-s4096-p1.pte"),
    ("p1 emit-verify", ["emit-verify", "--format=json"], "memory-s4096-p1.pte"),
    ("p1 emit-graph", ["emit-graph", "--format=json"], "memory-s4096-p1.pte"),
    ("p8 pte-to-pte", ["emit-translate", "--pte-to-pte"], "memory-s4096-p8.pte"),
    ("p8 emit-memory", ["emit-memory", "--format=json"], "memory-s4096-p8.pte"),
    ("p8 emit-graph", ["emit-graph", "--format=json"], "memory-s4096-p8.pte"),
    ("graph pte-to-pte", ["emit-translate", "--pte-to-pte"], "graph.pte"),
    ("llm pte-to-pte", ["emit-translate", "--pte-to-pte"], "llm.pte"),
]


def allocators(mimalloc):
    """Each allocator as the environment a tool runs in."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("GLIBC_TUNABLES", "LD_PRELOAD")}
    # A tunable already set: the tool does not re-execute itself.
    plain = dict(base, GLIBC_TUNABLES="glibc.malloc.hugetlb=0")
    chosen = [("glibc, re-executed", base), ("glibc, plain", plain)]
    if os.path.exists(mimalloc):
        chosen.append(("mimalloc", dict(plain, LD_PRELOAD=mimalloc,
                                        MIMALLOC_LARGE_OS_PAGES="1")))
    else:
        print("allocators: no %s: mimalloc skipped "
              "(apt-get install libmimalloc-dev)" % mimalloc)
    return chosen


def measure(command, env):
    """CPU seconds (user + system) and peak RSS in MiB of one run (its
    rusage: microseconds, where time(1) gives hundredths)."""
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit("allocators: %s failed: %s" % (
            " ".join(command), child.stderr.read().decode().strip()))
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--data", default=None)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mimalloc",
                        default="/usr/lib/x86_64-linux-gnu/libmimalloc.so.2")
    args = parser.parse_args()
    data = args.data or os.path.join(args.build, "bench-data")
    chosen = allocators(args.mimalloc)
    out = os.path.join(data, "allocators.out.pte")
    print("| workload | allocator | CPU s | peak MiB | CPU ratio | "
          "peak ratio |")
    print("|---|---|---|---|---|---|")
    for name, tool, program in WORKLOADS:
        path = os.path.join(data, program)
        if not os.path.exists(path):
            print("| %s | (no %s: run bench/run.py) | | | | |" % (name, program))
            continue
        command = [os.path.join(args.build, "bin", tool[0])] + tool[1:] + \
            [path] + (["-o", out] if tool[0] == "emit-translate" else [])
        runs = {label: [] for label, _ in chosen}
        for _ in range(args.runs):
            for label, env in chosen:
                runs[label].append(measure(command, env))
        first = None
        for label, _ in chosen:
            cpu = statistics.median(r[0] for r in runs[label])
            peak = statistics.median(r[1] for r in runs[label])
            first = first or (cpu, peak)
            print("| %s | %s | %.4f | %.1f | %.2f | %.2f |" % (
                name, label, cpu, peak, cpu / first[0], peak / first[1]))
    if os.path.exists(out):
        os.remove(out)


if __name__ == "__main__":
    main()
