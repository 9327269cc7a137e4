#!/usr/bin/env python3
# run.py - emit's benchmark runner.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# For each workload: generates the input once (bench/gen_pte.py, cached in
# the data directory), then, in the same run and alternating, times
#   - the machine's baselines on the unique payload bytes: copying them file
#     to file (cp) and hashing them (emit-bench-hash, XXH3-128, the faster of
#     reading through a mapping and reading with pread);
#   - the whole job, emit-translate --pte-to-pte (import, dedup, export in
#     one process), with its peak RSS and the time of each stage; for the
#     link workload, emit-link merging two programs into one, and splitting
#     them into two programs and one shared .ptd; for the tools workload,
#     the three tools a user composes, through files and pipes, and the
#     tools that only read (emit-verify, emit-diff against the output,
#     emit-memory); for graph, emit-memory beside --pte-to-pte (at most half
#     its time, under 128 MiB) and emit-graph's JSON (at most half its
#     time, under 256 MiB) and page (under 20 MB); for llm, emit-graph's
#     JSON of a 4 GiB program (no payload read: milliseconds); for
#     graphdiff, emit-diff --graph of the graph program against it with 100
#     edits, beside --pte-to-pte (at most 2x, 256 MiB, every edit found);
#   - for small and graph, ExecuTorch's own Python doing the same job
#     (bench/et_python_job.py: read, share payloads by SHA-256, write with
#     segments), when its serializer is set up (../shared/tools/et-python).
# Reports medians, and every figure as a ratio to the baselines, since the
# machine is shared and noisy. Every timed step starts after a sync, with no dirty
# pages left by the step before. Checks the output's segment table.
#
#   bench/run.py [--workloads llm,small,roundtrip,small10k,graph,memory,
#                             kernels,replan,tools,link,bundle,profile,
#                             payloads,graphdiff]
#                [--runs 3] [--et-python DIR] [--et-run PATH]
#                [--data DIR] [--build DIR] [--baseline REV]
#
# graph, a program of 50,000 kernel calls, is written by ExecuTorch's own
# serializer (bench/gen_graph.py), so it needs --et-python (default
# ~/.cache/et-python, where ../shared/tools/et-python/setup.sh puts it); it
# is skipped, saying so, without it. profile joins an ETDump of ten runs of
# that program (a million events), written by the real runtime's ETDumpGen
# through --et-run (default ~/.cache/emit-bars/etrun/et-run, where
# ../shared/tools/et-run/build.sh puts it): emit-profile as text, JSON and
# Chrome trace (the join at most 2 s and 512 MiB); skipped without either.
#
# With --baseline REV, it builds REV in its own directory, runs the working
# tree's build and REV's alternately on every workload (new, old, new, ...),
# and prints each figure as a ratio new / old: the median of the runs' ratios
# and their spread.

import argparse
import contextlib
import io
import hashlib
import json
import os
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MiB = 1 << 20

# name: (gen_pte.py arguments, unique payload count, payload size, calls)
WORKLOADS = {
    "llm": dict(methods=2, calls=32, size=64 * MiB, unique=32,
                names="prefill,decode", graph=True,
                about="2 methods x 32 calls of 64 MiB, the same 32 payloads "
                      "in both: 4 GiB referenced, 2 GiB unique"),
    "small": dict(methods=8, calls=12500, size=4096, unique=10000, names="",
                  about="8 methods, 100,000 calls of 4 KiB, 90% duplicates",
                  reference=True),
    "small10k": dict(methods=8, calls=1250, size=4096, unique=1000, names="",
                     about="as small, with 10,000 calls (per-call scaling)"),
    "roundtrip": dict(methods=2, calls=16, size=64 * MiB, unique=16, names="",
                      about="a 2 GiB .pte with half of its segments "
                            "duplicated"),
}

# The three tools a user composes, on a 1 GiB LLM-shaped program.
TOOLS = dict(methods=2, calls=8, size=64 * MiB, unique=8, names="prefill,decode",
             about="the README's three tools on a 1 GiB program (2 methods x "
                   "8 calls of 64 MiB, the same 8 payloads in both: 512 MiB "
                   "unique), through files and pipes, text and bytecode")

# Two programs exported separately from one model: each has its own method
# and delegate payloads, and the same weights in named data.
LINK = dict(programs=("prefill", "decode"), calls=32, size=64 * 1024,
            weights=32, weight_size=64 * MiB,
            about="prefill.pte and decode.pte exported separately, each "
                  "with 32 calls of 64 KiB and the same 32 x 64 MiB of "
                  "weights in named data: 4 GiB in, 2 GiB unique")


# The tools program bundled with test suites (.bpte), rewritten.
BUNDLE = dict(cases=100,
              about="the tools program (1 GiB, 2 methods) in a bundle with "
                    "100 test cases per method, through --pte-to-pte; "
                    "against the same job on the .pte plus a copy")

# An un-delegated model, as ExecuTorch's serializer writes it.
GRAPH = dict(calls=50000,
             about="one method of 50,000 kernel calls and 150,001 tensor "
                   "values, constants in the constant segment, written by "
                   "ExecuTorch's serializer")

# The analyses' cost per planned tensor, on plans shaped as ExecuTorch's
# planner makes them: chains of kernel calls writing one, three and eight
# planned tensors each, no constants (the hardest case for the ratio:
# --pte-to-pte has no constant bytes to copy), tensors of 16 bytes going
# round 4,096 slots, so each slot's bytes hold many tensors, one lifetime
# after another.
MEMORY = dict(calls=50000, planned=(1, 3, 8), slots=4096,
              tools=(("emit-memory", ["--format=json"]),
                     ("emit-verify", ["--format=json"]),
                     ("emit-graph", ["--format=json"])),
              about="emit-memory, emit-verify and emit-graph --format=json "
                    "on 50,000 kernel calls writing 1, 3 and 8 planned "
                    "tensors each, over 4,096 slots of 16 bytes, against "
                    "--pte-to-pte on the same program (each at most 0.5x; "
                    "128 MiB, 256 for emit-graph)")

# emit-verify --kernels on the memory workloads' shape at 100,000 calls:
# what checking every call's kernel key against a build adds to the
# verification (at most 0.1x --pte-to-pte), at main and at every release.
# The build is portable and a kernel list naming the program's operator
# (gen_graph.py's own), so that every call resolves and the tool exits 0.
KERNELS = dict(calls=100000, planned=3, slots=4096,
               runs=(("verify", []),
                     ("verify --kernels", ["--kernels=portable,{list}"]),
                     ("verify --kernels --runtime=all",
                      ["--kernels=portable,{list}", "--runtime=all"])),
               about="emit-verify --format=json with and without "
                     "--kernels=portable (and --runtime=all) on 100,000 "
                     "kernel calls writing 3 planned tensors each; what "
                     "--kernels adds, over --pte-to-pte (at most 0.1x)")

# Re-planning a shipped program's memory, on the memory workloads' shapes:
# 50,000 kernel calls writing 1, 3 and 8 planned tensors each round 4,096
# slots, as ExecuTorch's planner reuses bytes. --pte-to-pte --replan-memory
# against --pte-to-pte (which also runs the dedup pass): what re-planning
# adds must be at most 1x --pte-to-pte; the pool must shrink to the tensors
# live at once (its lower bound).
REPLAN = dict(planned=MEMORY["planned"],
              about="--pte-to-pte --replan-memory on 50,000 kernel calls "
                    "writing 1, 3 and 8 planned tensors each over 4,096 "
                    "slots of 16 bytes: what re-planning adds over "
                    "--pte-to-pte (at most 1x), and the pool after against "
                    "its lower bound")

# The graph diff: the graph workload's program against the same with 100
# edits spread through it (a call inserted, removed, its operator
# replaced, its weight changed, in turn), emit-diff --graph --format=json
# against --pte-to-pte on the old program: the edits found, in at most 2x
# its time and 256 MiB.
GRAPH_DIFF = dict(calls=GRAPH["calls"], edits=100,
                  about="emit-diff --graph --format=json of the graph "
                        "workload's 50,000 calls against the same with 100 "
                        "edits (at most 2x --pte-to-pte, 256 MiB; every "
                        "edit found)")

# Programs of XNNPACK payloads: what the summary and emit-graph read of them
# (headers and graphs, never constants), on a 1 GiB program and on one
# payload whose graph has 10,000 operators.
PAYLOADS = dict(
    programs={"1gib": dict(calls=16, size=64 * MiB, xnodes=625),
              "10k-xnodes": dict(calls=1, size=64 * MiB, xnodes=10000)},
    about="the summary and emit-graph --format=json of a 1 GiB program of "
          "16 XNNPACK payloads (64 MiB, 625 operators each), and of one "
          "payload of 10,000 operators (decoded in under 100 ms)")

# The Python that runs ExecuTorch's serializer: Debian's, with its
# python3-flatbuffers (see ../shared/tools/et-python).
ET_PYTHON = "/usr/bin/python3"


def run(command, **kwargs):
    return subprocess.run(command, check=True, text=True, **kwargs)


def timed(command, env=None, exit_codes=(0,)):
    """Wall time and peak RSS (KiB) of a command, via GNU time; the command
    must exit with one of `exit_codes`."""
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-o", report.name, "-f",
                                 "%M"] + command, text=True,
                                capture_output=True, env=env)
        wall = time.perf_counter() - start
        if result.returncode not in exit_codes:
            raise subprocess.CalledProcessError(result.returncode, command,
                                                result.stdout, result.stderr)
        rss = int(report.read().split()[-1])
    return wall, rss, result.stderr


def generator_stamp(command):
    """What a generated program depends on: the command that wrote it and
    the generator's source. A program whose stamp differs is written
    again."""
    with open(os.path.join(ROOT, "bench", "gen_pte.py"), "rb") as source:
        digest = hashlib.sha256(source.read()).hexdigest()
    return " ".join(command[2:]) + "\n" + digest + "\n"


def generate(name, spec, data, build):
    path = os.path.join(data, name + ".pte")
    command = [sys.executable, os.path.join(ROOT, "bench", "gen_pte.py"),
               path, "--methods", str(spec["methods"]), "--calls",
               str(spec["calls"]), "--payload-size", str(spec["size"]),
               "--unique", str(spec["unique"]), "--specs", "2"]
    if spec["names"]:
        command += ["--method-names", spec["names"]]
    stamp_path = path + ".stamp"
    stamp = generator_stamp(command)
    current = (open(stamp_path).read() if os.path.exists(stamp_path)
               else None)
    if not os.path.exists(path) or current != stamp:
        run(command, stdout=subprocess.DEVNULL)
        with open(stamp_path, "w") as out:
            out.write(stamp)
    # The unique payload bytes, as one file: what the baselines move.
    unique = os.path.join(data, name + ".unique.bin")
    if not os.path.exists(unique):
        sys.path.insert(0, os.path.join(ROOT, "bench"))
        import gen_pte
        with open(unique, "wb") as out:
            for payload in range(spec["unique"]):
                out.write(gen_pte.payload_bytes(payload, spec["size"]))
    return path, unique


def et_python_env(args):
    """The environment in which ET_PYTHON imports ExecuTorch's serializer
    from --et-python, or None when it cannot."""
    if not args.et_python:
        return None
    env = dict(os.environ, PYTHONPATH=args.et_python)
    probe = subprocess.run(
        [ET_PYTHON, "-c", "import executorch.exir._serialize._program"],
        env=env, capture_output=True)
    return env if probe.returncode == 0 else None


def emit_job(build, path, out):
    """emit-translate --pte-to-pte: wall time, peak RSS (KiB) and the
    (import, passes, export) times it reports."""
    translate = os.path.join(build, "bin", "emit-translate")
    wall, peak, err = timed([translate, "--pte-to-pte", path, "-o", out,
                             "--pte-timing"])
    match = re.search(r"import ([0-9.]+) s, passes ([0-9.]+) s, export "
                      r"([0-9.]+) s", err)
    return wall, peak, tuple(float(x) for x in match.groups())


def reference_job(env, path, out):
    """The same job done by ExecuTorch's Python: wall time, peak RSS (KiB)."""
    wall, peak, _ = timed([ET_PYTHON, os.path.join(ROOT, "bench",
                                                   "et_python_job.py"),
                           path, out], env=env)
    return wall, peak


def reference_figures(times, rss, job_s, peak_mib):
    """The reference's medians, and emit's job as ratios to them."""
    if not times:
        return {}
    median = statistics.median
    return {"executorch_python_s": median(times),
            "executorch_python_rss_mib": median(rss) / 1024,
            "job_over_executorch_python": job_s / median(times),
            "rss_over_executorch_python": peak_mib * 1024 / median(rss)}


def job_runs(args, path, out, env, before=lambda: None):
    """args.runs runs of emit's job on `path`, each after `before()` and,
    with `env`, followed by ExecuTorch's Python doing the same job: the
    lists of wall times, peak RSS (KiB) and stage times, and of the
    reference's wall times and peak RSS."""
    runs = dict(jobs=[], rss=[], stages=[], ref_times=[], ref_rss=[])
    reference = out[:-len(".out.pte")] + ".executorch.pte"
    for _ in range(args.runs):
        settle(out)
        before()
        wall, peak, times = emit_job(args.build, path, out)
        runs["jobs"].append(wall)
        runs["rss"].append(peak)
        runs["stages"].append(times)
        if env:
            settle(reference)
            wall, peak = reference_job(env, path, reference)
            runs["ref_times"].append(wall)
            runs["ref_rss"].append(peak)
    if os.path.exists(reference):
        os.remove(reference)
    return runs


def stage_medians(stages):
    """The median (import, passes, export) times of `stages`."""
    return tuple(statistics.median(s[i] for s in stages) for i in range(3))


def print_reference(result):
    if "executorch_python_s" in result:
        print("  ExecuTorch's Python, same job: %.2f s, peak RSS %.0f MiB; "
              "emit: %.3fx its time, %.2fx its RSS" %
              (result["executorch_python_s"],
               result["executorch_python_rss_mib"],
               result["job_over_executorch_python"],
               result["rss_over_executorch_python"]))


def segments_of(build, pte):
    out = run([sys.executable, os.path.join(ROOT, "test", "Inputs",
                                            "pte-json.py"), "flatc",
               os.path.join(ROOT, "schema", "program.fbs"), pte,
               "--segments"], capture_output=True).stdout
    return [line for line in out.splitlines() if line.startswith("segment ")]


def settle(*targets):
    """Each timed step starts with no dirty pages, so that none pays for the
    writeback of the one before it. Deleting a multi-GiB file costs the next
    step too (ext4 frees and discards its blocks), so the copy and the job
    each follow the deletion of the other's output."""
    for target in targets:
        if os.path.isdir(target):
            for entry in os.listdir(target):
                os.remove(os.path.join(target, entry))
            os.rmdir(target)
        elif os.path.exists(target):
            os.remove(target)
    os.sync()


def bench(name, spec, args):
    path, unique = generate(name, spec, args.data, args.build)
    out = os.path.join(args.data, name + ".out.pte")
    copy = os.path.join(args.data, name + ".copy.bin")
    hasher = os.path.join(args.build, "bin", "emit-bench-hash")
    env = (et_python_env(args)
           if spec.get("reference") and args.et_python_reference else None)
    copies, hashes = [], []

    def baselines():
        start = time.perf_counter()
        run(["cp", unique, copy])
        copies.append(time.perf_counter() - start)
        line = run([hasher, unique], capture_output=True).stdout
        hashes.append(float(re.search(r"in ([0-9.]+) s", line).group(1)))
        settle(copy)

    runs = job_runs(args, path, out, env, before=baselines)
    jobs, rss = runs["jobs"], runs["rss"]
    # Drawing a program reads no payload: milliseconds however large.
    view = graph_runs(args, path, "json") if spec.get("graph") else None
    if os.path.exists(copy):
        os.remove(copy)

    segments = segments_of(args.build, out)
    calls = spec["methods"] * spec["calls"]
    assert len(segments) == spec["unique"] + 1, (name, len(segments))
    unique_bytes = spec["unique"] * spec["size"]
    median = statistics.median
    copy_s, hash_s, job_s = median(copies), median(hashes), median(jobs)
    imp, passes, exp = stage_medians(runs["stages"])
    total = imp + passes + exp
    peak_mib = median(rss) / 1024
    result = {
        "workload": name, "about": spec["about"], "calls": calls,
        "unique_bytes": unique_bytes,
        "referenced_bytes": calls * spec["size"],
        "copy_s": copy_s, "hash_s": hash_s, "job_s": job_s,
        "job_over_copy": job_s / copy_s,
        "job_over_copy_plus_hash": job_s / (copy_s + hash_s),
        "job_over_fastest_copy": job_s / min(copies),
        "job_over_fastest_copy_plus_hash": job_s / (min(copies) + min(hashes)),
        "stages_s": {"import": imp, "passes": passes, "export": exp},
        "stage_share": {"import": imp / total, "passes": passes / total,
                        "export": exp / total},
        "pass_us_per_call": passes / calls * 1e6,
        "peak_rss_mib": peak_mib,
        "rss_budget_mib": 256 + 0.05 * calls * spec["size"] / MiB,
        "segments_written": len(segments),
    }
    result.update(reference_figures(runs["ref_times"], runs["ref_rss"], job_s,
                                    peak_mib))
    print("\n== %s: %s" % (name, spec["about"]))
    print("  baselines (unique %.1f MiB): copy %.3f s, hash %.3f s" %
          (unique_bytes / MiB, copy_s, hash_s))
    print("  whole job: %.3f s = %.2fx copy, %.2fx (copy + hash); "
          "peak RSS %.0f MiB (budget %.0f MiB)" %
          (job_s, result["job_over_copy"], result["job_over_copy_plus_hash"],
           peak_mib, result["rss_budget_mib"]))
    # The copy varies most from run to run (ext4 writeback, the host):
    # also against the fastest copy, the strictest reading.
    print("  against the fastest copy and hash of the run: %.2fx copy, "
          "%.2fx (copy + hash)" % (result["job_over_fastest_copy"],
                                   result["job_over_fastest_copy_plus_hash"]))
    print("  stages: import %.3f s (%.0f%%), passes %.3f s (%.0f%%), "
          "export %.3f s (%.0f%%); pass %.2f us per call" %
          (imp, 100 * imp / total, passes, 100 * passes / total, exp,
           100 * exp / total, result["pass_us_per_call"]))
    print("  output: %d segments (1 constant + %d unique payloads)" %
          (len(segments), spec["unique"]))
    if view:
        result["graph_json"] = {"job_s": view[0], "peak_rss_mib": view[1]}
        print("  emit-graph --format=json: %.3f s, peak RSS %.0f MiB" %
              view[:2])
    print_reference(result)
    return result


def bench_graph(args):
    """The big graph: emit's job and ExecuTorch's Python's, alternating."""
    env = et_python_env(args)
    if not env:
        print("\n== graph: skipped: ExecuTorch's Python serializer is not "
              "importable from --et-python %s (set it up with "
              "../shared/tools/et-python/setup.sh)" % args.et_python)
        return None
    path = os.path.join(args.data, "graph.pte")
    if not os.path.exists(path):
        run([ET_PYTHON, os.path.join(ROOT, "bench", "gen_graph.py"), path,
             "--calls", str(GRAPH["calls"])], env=env)
    out = os.path.join(args.data, "graph.out.pte")
    runs = job_runs(args, path, out,
                    env if args.et_python_reference else None)
    memory = memory_runs(args, path)
    views = {form: graph_runs(args, path, form) for form in ("json", "html")}
    # Nothing to share: the output holds the one constant segment.
    segments = segments_of(args.build, out)
    assert len(segments) == 1, ("graph", len(segments))
    job_s = statistics.median(runs["jobs"])
    peak_mib = statistics.median(runs["rss"]) / 1024
    imp, passes, exp = stage_medians(runs["stages"])
    result = {"workload": "graph", "about": GRAPH["about"],
              "calls": GRAPH["calls"], "job_s": job_s,
              "peak_rss_mib": peak_mib,
              "stages_s": {"import": imp, "passes": passes, "export": exp},
              "us_per_call": job_s / GRAPH["calls"] * 1e6}
    result.update(reference_figures(runs["ref_times"], runs["ref_rss"], job_s,
                                    peak_mib))
    print("\n== graph: %s" % GRAPH["about"])
    print("  whole job: %.3f s (%.1f us per kernel call); peak RSS %.0f MiB"
          % (job_s, result["us_per_call"], peak_mib))
    print("  stages: import %.3f s, passes %.3f s, export %.3f s" %
          (imp, passes, exp))
    if memory:
        memory_s, memory_mib = memory
        result["memory"] = {"job_s": memory_s, "peak_rss_mib": memory_mib,
                            "over_pte_to_pte": memory_s / job_s}
        print("  emit-memory: %.3f s = %.2fx --pte-to-pte (at most 0.5x); "
              "peak RSS %.0f MiB (at most 128)" %
              (memory_s, memory_s / job_s, memory_mib))
    for form, figures in views.items():
        if not figures:
            continue
        view_s, view_mib, view_bytes = figures
        result["graph_" + form] = {"job_s": view_s, "peak_rss_mib": view_mib,
                                   "bytes": view_bytes,
                                   "over_pte_to_pte": view_s / job_s}
        print("  emit-graph --format=%s: %.3f s = %.2fx --pte-to-pte; peak "
              "RSS %.0f MiB; %.1f MB written" %
              (form, view_s, view_s / job_s, view_mib, view_bytes / 1e6))
    print("  (emit-graph's JSON: at most 0.5x and 256 MiB; its page under "
          "20 MB)")
    print_reference(result)
    return result


def bench_graph_diff(args):
    """emit-diff --graph against --pte-to-pte, one run of each in turn."""
    env = et_python_env(args)
    if not env:
        print("\n== graphdiff: skipped: ExecuTorch's Python serializer is "
              "not importable from --et-python %s" % args.et_python)
        return None
    diff = os.path.join(args.build, "bin", "emit-diff")
    if "--graph" not in subprocess.run([diff, "--help"], capture_output=True,
                                       text=True).stdout:
        print("\n== graphdiff: skipped: this build's emit-diff has no "
              "--graph")
        return None
    old = os.path.join(args.data, "graph.pte")
    new = os.path.join(args.data, "graph-edited.pte")
    generator = os.path.join(ROOT, "bench", "gen_graph.py")
    if not os.path.exists(old):
        run([ET_PYTHON, generator, old, "--calls", str(GRAPH_DIFF["calls"])],
            env=env)
    if not os.path.exists(new + ".edits.json"):
        run([ET_PYTHON, generator, new, "--calls", str(GRAPH_DIFF["calls"]),
             "--edits", str(GRAPH_DIFF["edits"])], env=env)
    with open(new + ".edits.json") as f:
        expected = json.load(f)
    out = os.path.join(args.data, "graph.out.pte")
    report = os.path.join(args.data, "graph-diff.json")
    one = argparse.Namespace(**vars(args))
    one.runs = 1
    jobs, diffs, peaks = [], [], []
    for _ in range(args.runs):
        jobs.append(job_runs(one, old, out, None)["jobs"][0])
        settle(out)
        wall, rss, _ = timed([diff, "--graph", "--format=json", old, new,
                              "-o", report], exit_codes=(1,))
        diffs.append(wall)
        peaks.append(rss / 1024)
    with open(report) as f:
        counts = json.load(f)["methods"][0]["counts"]
    found = {key: counts[key] for key in expected}
    assert found == expected, (found, expected)
    for path in (out, report):
        if os.path.exists(path):
            os.remove(path)
    result = {"workload": "graphdiff", "about": GRAPH_DIFF["about"],
              "pte_to_pte_s": statistics.median(jobs),
              "graph_diff_s": statistics.median(diffs),
              "peak_rss_mib": statistics.median(peaks),
              "over_pte_to_pte": statistics.median(
                  [d / j for d, j in zip(diffs, jobs)])}
    print("\n== graphdiff: %s" % GRAPH_DIFF["about"])
    print("  emit-diff --graph: %.3f s = %.2fx --pte-to-pte (%.3f s); peak "
          "RSS %.0f MiB; found %s" % (
              result["graph_diff_s"], result["over_pte_to_pte"],
              result["pte_to_pte_s"], result["peak_rss_mib"],
              ", ".join("%d %s" % (v, k) for k, v in found.items())))
    return result


def bench_memory(args):
    """The model's analyses against --pte-to-pte on the same program,
    alternating run by run, per shape."""
    env = et_python_env(args)
    if not env:
        print("\n== memory: skipped: ExecuTorch's Python serializer is not "
              "importable from --et-python %s" % args.et_python)
        return None
    result = {"workload": "memory", "about": MEMORY["about"]}
    print("\n== memory: %s" % MEMORY["about"])
    for planned in MEMORY["planned"]:
        path = memory_program(args, env, planned)
        result["p%d" % planned] = memory_shape(args, path, planned)
    return result


def memory_program(args, env, planned):
    """The memory workloads' program of `planned` tensors per call, written
    by ExecuTorch's serializer once."""
    path = os.path.join(args.data, "memory-s%d-p%d.pte" % (
        MEMORY["slots"], planned))
    if not os.path.exists(path):
        run([ET_PYTHON, os.path.join(ROOT, "bench", "gen_graph.py"), path,
             "--calls", str(MEMORY["calls"]), "--planned", str(planned),
             "--slots", str(MEMORY["slots"])], env=env)
    return path


def memory_shape(args, path, planned):
    """One shape of the memory workload: --pte-to-pte and each analysis of
    MEMORY["tools"], one run of each in turn, --runs times."""
    out = os.path.join(args.data, "memory.out.pte")
    one = argparse.Namespace(**vars(args))
    one.runs = 1
    jobs, times, peaks = [], {}, {}
    for _ in range(args.runs):
        jobs.append(job_runs(one, path, out, None)["jobs"][0])
        for tool, arguments in MEMORY["tools"]:
            figures = tool_runs(one, tool, arguments + [path], output=None)
            if figures:
                times.setdefault(tool, []).append(figures[0])
                peaks.setdefault(tool, []).append(figures[1])
    if os.path.exists(out):
        os.remove(out)
    shape = {"pte_to_pte_s": statistics.median(jobs)}
    for tool in times:
        shape[tool] = dict(
            job_s=statistics.median(times[tool]),
            peak_rss_mib=statistics.median(peaks[tool]),
            over_pte_to_pte=statistics.median(
                [t / j for t, j in zip(times[tool], jobs)]))
        print("  %d planned per call: %s %.3f s = %.2fx --pte-to-pte "
              "(%.3f s); peak RSS %.0f MiB" % (
                  planned, tool, shape[tool]["job_s"],
                  shape[tool]["over_pte_to_pte"], shape["pte_to_pte_s"],
                  shape[tool]["peak_rss_mib"]))
    return shape


def bench_kernels(args):
    """emit-verify with and without --kernels against --pte-to-pte, one run
    of each in turn."""
    env = et_python_env(args)
    if not env:
        print("\n== kernels: skipped: ExecuTorch's Python serializer is not "
              "importable from --et-python %s" % args.et_python)
        return None
    verify = os.path.join(args.build, "bin", "emit-verify")
    help_text = subprocess.run([verify, "--help"], capture_output=True,
                               text=True).stdout
    if "--kernels" not in help_text:
        print("\n== kernels: skipped: this build's emit-verify has no "
              "--kernels")
        return None
    path = os.path.join(args.data, "kernels-s%d-p%d-c%d.pte" % (
        KERNELS["slots"], KERNELS["planned"], KERNELS["calls"]))
    if not os.path.exists(path):
        run([ET_PYTHON, os.path.join(ROOT, "bench", "gen_graph.py"), path,
             "--calls", str(KERNELS["calls"]), "--planned",
             str(KERNELS["planned"]), "--slots", str(KERNELS["slots"])],
            env=env)
    kernel_list = os.path.join(args.data, "kernels-list.txt")
    with open(kernel_list, "w") as f:
        f.write("bench::with_stats.out\n")
    out = os.path.join(args.data, "kernels.out.pte")
    one = argparse.Namespace(**vars(args))
    one.runs = 1
    jobs, times, peaks = [], {}, {}
    for _ in range(args.runs):
        jobs.append(job_runs(one, path, out, None)["jobs"][0])
        for label, arguments in KERNELS["runs"]:
            figures = tool_runs(one, "emit-verify", ["--format=json"] + [
                argument.format(list=kernel_list) for argument in arguments] +
                [path], output=None)
            times.setdefault(label, []).append(figures[0])
            peaks.setdefault(label, []).append(figures[1])
    if os.path.exists(out):
        os.remove(out)
    result = {"workload": "kernels", "about": KERNELS["about"],
              "pte_to_pte_s": statistics.median(jobs)}
    print("\n== kernels: %s" % KERNELS["about"])
    for label, _ in KERNELS["runs"]:
        added = [(t - v) / j for t, v, j in
                 zip(times[label], times["verify"], jobs)]
        result[label] = dict(job_s=statistics.median(times[label]),
                             peak_rss_mib=statistics.median(peaks[label]),
                             added_over_pte_to_pte=statistics.median(added))
        print("  %s: %.3f s, peak RSS %.0f MiB; adds %.3fx --pte-to-pte "
              "(%.3f s)" % (label, result[label]["job_s"],
                            result[label]["peak_rss_mib"],
                            result[label]["added_over_pte_to_pte"],
                            result["pte_to_pte_s"]))
    return result


def bench_replan(args):
    """--pte-to-pte with and without --replan-memory, one run of each in
    turn, per memory shape."""
    env = et_python_env(args)
    if not env:
        print("\n== replan: skipped: ExecuTorch's Python serializer is not "
              "importable from --et-python %s" % args.et_python)
        return None
    translate = os.path.join(args.build, "bin", "emit-translate")
    if "--replan-memory" not in subprocess.run(
            [translate, "--help"], capture_output=True, text=True).stdout:
        print("\n== replan: skipped: this build's emit-translate has no "
              "--replan-memory")
        return None
    result = {"workload": "replan", "about": REPLAN["about"]}
    print("\n== replan: %s" % REPLAN["about"])
    out = os.path.join(args.data, "replan.out.pte")
    report = os.path.join(args.data, "replan.json")
    one = argparse.Namespace(**vars(args))
    one.runs = 1
    for planned in REPLAN["planned"]:
        path = memory_program(args, env, planned)
        jobs, replans, peaks = [], [], []
        for _ in range(args.runs):
            jobs.append(job_runs(one, path, out, None)["jobs"][0])
            settle(out)
            wall, rss, _ = timed([translate, "--pte-to-pte",
                                  "--replan-memory", "--replan-report=" +
                                  report, path, "-o", out])
            replans.append(wall)
            peaks.append(rss / 1024)
        with open(report) as f:
            pools = json.load(f)["methods"][0]["pools"][0]
        shape = dict(pte_to_pte_s=statistics.median(jobs),
                     replan_s=statistics.median(replans),
                     peak_rss_mib=statistics.median(peaks),
                     added_over_pte_to_pte=statistics.median(
                         [(r - j) / j for r, j in zip(replans, jobs)]),
                     bytes_before=pools["bytes_before"],
                     bytes_after=pools["bytes_after"],
                     lower_bound=pools["lower_bound"])
        result["p%d" % planned] = shape
        print("  %d planned per call: --replan-memory %.3f s, peak RSS %.0f "
              "MiB; adds %.2fx --pte-to-pte (%.3f s); pool %d -> %d bytes, "
              "lower bound %d" % (planned, shape["replan_s"],
                                  shape["peak_rss_mib"],
                                  shape["added_over_pte_to_pte"],
                                  shape["pte_to_pte_s"], shape["bytes_before"],
                                  shape["bytes_after"], shape["lower_bound"]))
    for path in (out, report):
        if os.path.exists(path):
            os.remove(path)
    return result


def bench_payloads(args):
    """The summary and emit-graph on programs of XNNPACK payloads."""
    result = {"workload": "payloads", "about": PAYLOADS["about"]}
    print("\n== payloads: %s" % PAYLOADS["about"])
    for name, shape in PAYLOADS["programs"].items():
        path = os.path.join(args.data, "payloads-%s.pte" % name)
        if not os.path.exists(path):
            run([sys.executable, os.path.join(ROOT, "bench", "gen_pte.py"),
                 path, "--methods", "1", "--calls", str(shape["calls"]),
                 "--payload-size", str(shape["size"]),
                 "--backends", "XnnpackBackend", "--xnnpack-xnodes",
                 str(shape["xnodes"]), "--sparse"], capture_output=True)
        summary = tool_runs(args, "emit-translate", ["--pte-summary", path])
        graph = graph_runs(args, path, "json")
        result[name] = {"summary_s": summary[0], "summary_mib": summary[1],
                        "graph_s": graph[0], "graph_mib": graph[1]}
        print("  %s: summary %.3f s, peak RSS %.0f MiB; emit-graph json "
              "%.3f s, peak RSS %.0f MiB" % (name, *summary[:2], *graph[:2]))
    return result


def generate_bundle(args):
    """The tools program in a bundle, with BUNDLE["cases"] test cases per
    method (float [16] in and out), written by emit around the program as
    it is (no passes); and the suites' own bundle."""
    path, _ = generate("tools", TOOLS, args.data, args.build)
    bundle = os.path.join(args.data, "bundle.bpte")
    stamp = "%s %d\n" % (open(path + ".stamp").read(), BUNDLE["cases"])
    if (os.path.exists(bundle) and os.path.exists(bundle + ".stamp") and
            open(bundle + ".stamp").read() == stamp):
        return path, bundle
    small = os.path.join(args.data, "bundle-suites.pte")
    run([sys.executable, os.path.join(ROOT, "bench", "gen_pte.py"), small,
         "--methods", "2", "--calls", "1", "--payload-size", "64",
         "--method-names", TOOLS["names"]], stdout=subprocess.DEVNULL)

    def value(seed):
        data = struct.pack("<16f", *[float(seed + i) for i in range(16)])
        return {"val_type": "Tensor",
                "val": {"scalar_type": "FLOAT", "sizes": [16],
                        "data": list(data), "dim_order": [0]}}
    suites = [{"method_name": name, "test_cases": [
        {"inputs": [value(c)], "expected_outputs": [value(c + 1)]}
        for c in range(BUNDLE["cases"])]}
        for name in TOOLS["names"].split(",")]
    suites_json = os.path.join(args.data, "bundle-suites.json")
    with open(suites_json, "w") as f:
        json.dump({"version": 0, "method_test_suites": suites,
                   "program": list(open(small, "rb").read())}, f)
    run(["flatc", "--binary", "-o", args.data,
         os.path.join(ROOT, "schema", "bundled_program.fbs"), suites_json])
    run([os.path.join(args.build, "bin", "emit-translate"), "--pte-to-pte",
         path, "--pte-pass-pipeline=builtin.module()",
         "--bundle-with=" + os.path.join(args.data, "bundle-suites.bpte"),
         "-o", bundle])
    with open(bundle + ".stamp", "w") as f:
        f.write(stamp)
    return path, bundle


def bench_bundle(args):
    """--pte-to-pte on the bundle, on its program alone, and a copy of the
    bundle, alternating; ExecuTorch's Python writing the same bundle."""
    translate = os.path.join(args.build, "bin", "emit-translate")
    help_text = run([translate, "--help"], capture_output=True).stdout
    if "--bundle-with" not in help_text:
        print("\n== bundle: skipped: this build has no bundles")
        return None
    path, bundle = generate_bundle(args)
    out = os.path.join(args.data, "bundle.out.bpte")
    pte_out = os.path.join(args.data, "bundle.program.out.pte")
    copy = os.path.join(args.data, "bundle.copy.bin")
    bundle_env = None
    if (args.et_python_reference and et_python_env(args)
            and args.et_snapshot):
        bundle_python = run(
            ["bash", os.path.join(ROOT, "scripts", "local-checks",
                                  "exact", "et-bundle-python.sh"), args.et_python,
             args.et_snapshot], capture_output=True).stdout.strip()
        bundle_env = dict(os.environ, PYTHONPATH=bundle_python)
    reference = os.path.join(args.data, "bundle.executorch.bpte")
    times = dict(bundle=[], pte=[], copy=[], ref=[])
    rss = dict(bundle=[], pte=[], ref=[])
    for _ in range(args.runs):
        settle(out, pte_out, copy)
        wall, peak, _ = emit_job(args.build, bundle, out)
        times["bundle"].append(wall)
        rss["bundle"].append(peak)
        settle(out)
        wall, peak, _ = emit_job(args.build, path, pte_out)
        times["pte"].append(wall)
        rss["pte"].append(peak)
        if bundle_env:
            # The same bundle: the deduplicated program with the suites.
            wall, peak, _ = timed(
                [ET_PYTHON, os.path.join(ROOT, "bench",
                                         "et_python_bundle_job.py"),
                 pte_out, reference, str(BUNDLE["cases"])], env=bundle_env)
            times["ref"].append(wall)
            rss["ref"].append(peak)
        settle(pte_out, reference)
        start = time.perf_counter()
        run(["cp", bundle, copy])
        times["copy"].append(time.perf_counter() - start)
        settle(copy)
    emit_job(args.build, bundle, out)  # The output checked below.
    verify = run([os.path.join(args.build, "bin", "emit-verify"), out],
                 capture_output=True).stdout
    assert verify.rstrip().endswith("0 errors, 0 warnings"), verify
    median = statistics.median
    job_s, pte_s, copy_s = (median(times[k]) for k in ("bundle", "pte",
                                                       "copy"))
    job_mib, pte_mib = median(rss["bundle"]) / 1024, median(rss["pte"]) / 1024
    result = {"workload": "bundle", "about": BUNDLE["about"],
              "job_s": job_s, "pte_job_s": pte_s, "copy_s": copy_s,
              "job_over_pte_job_plus_copy": job_s / (pte_s + copy_s),
              "peak_rss_mib": job_mib, "pte_peak_rss_mib": pte_mib,
              "rss_over_pte_mib": job_mib - pte_mib}
    result.update(reference_figures(times["ref"], rss["ref"], job_s,
                                    job_mib))
    print("\n== bundle: %s" % BUNDLE["about"])
    print("  whole job: %.3f s; the .pte alone %.3f s, a copy %.3f s: "
          "%.2fx (.pte + copy) (at most 1)" %
          (job_s, pte_s, copy_s, result["job_over_pte_job_plus_copy"]))
    print("  peak RSS %.0f MiB, the .pte alone %.0f MiB: %+.0f MiB (at most "
          "+64)" % (job_mib, pte_mib, result["rss_over_pte_mib"]))
    print_reference(result)
    return result


PROFILE = dict(runs=10,
               about="an ETDump of ten runs of the graph program (about a "
                     "million events), written by the real runtime's "
                     "ETDumpGen (../shared/tools/et-run), joined to its "
                     "program by emit-profile (at most 2 s and 512 MiB) "
                     "and drawn by emit-graph --profile")


def bench_profile(args):
    """emit-profile joining the ETDump of ten runs of the graph program
    (text, JSON and Chrome trace)."""
    tool = os.path.join(args.build, "bin", "emit-profile")
    if not os.path.exists(tool):
        print("\n== profile: skipped: this build has no emit-profile")
        return None
    if not os.path.exists(args.et_run):
        print("\n== profile: skipped: et-run is not built at %s "
              "(../shared/tools/et-run/build.sh)" % args.et_run)
        return None
    path = os.path.join(args.data, "graph.pte")
    if not os.path.exists(path):
        env = et_python_env(args)
        if not env:
            print("\n== profile: skipped: the graph program needs "
                  "ExecuTorch's Python serializer (--et-python)")
            return None
        run([ET_PYTHON, os.path.join(ROOT, "bench", "gen_graph.py"), path,
             "--calls", str(GRAPH["calls"])], env=env)
    etdump = os.path.join(args.data, "graph.etdp")
    if not os.path.exists(etdump):
        run([args.et_run, "--etdump=" + etdump,
             "--iterations=%d" % PROFILE["runs"], path], capture_output=True)
    jobs = dict(text=[tool, path, etdump], json=[tool, "--format=json", path,
                                                 etdump],
                trace=[tool, "--format=chrome-trace", path, etdump])
    # The same run drawn: each node's time on the page.
    graph = os.path.join(args.build, "bin", "emit-graph")
    if os.path.exists(graph):
        jobs["graph"] = [graph, "--format=html", path, "--profile=" + etdump]
    times = {job: [] for job in jobs}
    rss = {job: [] for job in jobs}
    for _ in range(args.runs):
        for job, command in jobs.items():
            settle()
            wall, peak, _ = timed(command + ["-o", os.devnull])
            times[job].append(wall)
            rss[job].append(peak / 1024)
    median = statistics.median
    result = {"workload": "profile", "about": PROFILE["about"],
              "job_s": median(times["text"]),
              "peak_rss_mib": median(rss["text"]),
              "stages_s": {}}
    for job in jobs:
        if job != "text":
            result[job] = {"job_s": median(times[job]),
                           "peak_rss_mib": median(rss[job])}
    print("\n== profile: %s" % PROFILE["about"])
    print("  joined (text): %.3f s, peak RSS %.0f MiB" %
          (result["job_s"], result["peak_rss_mib"]))
    for job in jobs:
        if job != "text":
            print("  %s: %.3f s, peak RSS %.0f MiB" %
                  (job, result[job]["job_s"], result[job]["peak_rss_mib"]))
    return result


def tool_runs(args, name, arguments, output=os.devnull):
    """A tool of the build (`name`, with `arguments`) writing `output`
    (None: its standard output, for a tool that has no -o in every build),
    --runs times: median wall time (s), peak RSS (MiB) and output bytes;
    None for a build from before the tool."""
    tool = os.path.join(args.build, "bin", name)
    if not os.path.exists(tool):
        return None
    walls, peaks = [], []
    for _ in range(args.runs):
        settle()
        wall, rss, _ = timed([tool] + arguments +
                             (["-o", output] if output else []))
        walls.append(wall)
        peaks.append(rss / 1024)
    size = os.path.getsize(output) if output not in (None, os.devnull) \
        else 0
    return statistics.median(walls), statistics.median(peaks), size


def memory_runs(args, path):
    """emit-memory on `path`: median wall time (s) and peak RSS (MiB)."""
    figures = tool_runs(args, "emit-memory", ["--format=json", path])
    return figures[:2] if figures else None


def graph_runs(args, path, form):
    """emit-graph on `path` in `form` (json or html): median wall time (s),
    peak RSS (MiB) and the output's bytes."""
    output = os.path.join(args.data, "graph-view." + form)
    figures = tool_runs(args, "emit-graph", ["--format=" + form, path],
                        output)
    if os.path.exists(output):
        os.remove(output)
    return figures


def generate_link(data):
    """The link workload's two programs, and their unique bytes as one file:
    both programs' call payloads and the weights once."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import gen_pte
    paths = []
    for number, name in enumerate(LINK["programs"]):
        path = os.path.join(data, "link-%s.pte" % name)
        command = [sys.executable, os.path.join(ROOT, "bench", "gen_pte.py"),
                   path, "--methods", "1", "--method-names", name, "--calls",
                   str(LINK["calls"]), "--payload-size", str(LINK["size"]),
                   "--first-payload", str(number * LINK["calls"]), "--specs",
                   "2", "--named-data", str(LINK["weights"]),
                   "--named-data-size", str(LINK["weight_size"])]
        stamp = generator_stamp(command)
        if not os.path.exists(path) or not os.path.exists(
                path + ".stamp") or open(path + ".stamp").read() != stamp:
            run(command, stdout=subprocess.DEVNULL)
            with open(path + ".stamp", "w") as out:
                out.write(stamp)
        paths.append(path)
    unique = os.path.join(data, "link.unique.bin")
    if not os.path.exists(unique):
        with open(unique, "wb") as out:
            for payload in range(len(LINK["programs"]) * LINK["calls"]):
                out.write(gen_pte.payload_bytes(payload, LINK["size"]))
            for weight in range(LINK["weights"]):
                out.write(gen_pte.payload_bytes(gen_pte.WEIGHT_BASE + weight,
                                                LINK["weight_size"]))
    return paths, unique


def bench_link(args):
    """emit-link on two separately exported programs: merged into one
    (-o), and split into two programs and one shared .ptd (--out-dir)."""
    inputs, unique = generate_link(args.data)
    merged = os.path.join(args.data, "link.merged.pte")
    split = os.path.join(args.data, "link.split")
    copy = os.path.join(args.data, "link.copy.bin")
    link = os.path.join(args.build, "bin", "emit-link")
    jobs = {
        "merge": (merged, [link] + inputs + ["-o", merged]),
        "split": (split, [link] + inputs + [
            "--external-data=" + os.path.join(split, "weights.ptd"),
            "--out-dir=" + split]),
    }
    copies, walls, peaks = [], {j: [] for j in jobs}, {j: [] for j in jobs}
    for _ in range(args.runs):
        for job, (output, command) in jobs.items():
            settle(output, copy)
            start = time.perf_counter()
            run(["cp", unique, copy])
            copies.append(time.perf_counter() - start)
            settle(copy)
            wall, peak, _ = timed(command)
            walls[job].append(wall)
            peaks[job].append(peak)

    # What was written: the weights once, each program's calls kept.
    segments = segments_of(args.build, merged)
    calls = len(LINK["programs"]) * LINK["calls"]
    assert len(segments) == 1 + calls + LINK["weights"], len(segments)
    data_bytes = os.path.getsize(os.path.join(split, "weights.ptd"))
    assert data_bytes >= LINK["weights"] * LINK["weight_size"]
    assert data_bytes < (LINK["weights"] + 1) * LINK["weight_size"]
    if os.path.exists(copy):
        os.remove(copy)

    median = statistics.median
    unique_bytes = os.path.getsize(unique)
    copy_s = median(copies)
    result = {"workload": "link", "about": LINK["about"],
              "unique_bytes": unique_bytes, "copy_s": copy_s}
    print("\n== link: %s" % LINK["about"])
    print("  baseline (unique %.1f MiB): copy %.3f s" %
          (unique_bytes / MiB, copy_s))
    for job in jobs:
        job_s, peak_mib = median(walls[job]), median(peaks[job]) / 1024
        result[job] = {"job_s": job_s, "job_over_copy": job_s / copy_s,
                       "job_over_fastest_copy": job_s / min(copies),
                       "peak_rss_mib": peak_mib}
        print("  %s: %.3f s = %.2fx copy (%.2fx the fastest copy); peak RSS "
              "%.0f MiB" % (job, job_s, job_s / copy_s, job_s / min(copies),
                           peak_mib))
    print("  output: merged %d segments (1 constant + %d payloads + %d "
          "weights); weights.ptd %.1f MiB" %
          (len(segments), calls, LINK["weights"], data_bytes / MiB))
    return result


def timed_pipeline(commands, cwd):
    """Wall time of `commands` run as one shell pipeline in `cwd`, and each
    stage's peak RSS (KiB), via GNU time."""
    reports = [tempfile.NamedTemporaryFile("r") for _ in commands]
    stages = ["/usr/bin/time -o %s -f %%M %s" % (report.name,
                                                 " ".join(command))
              for report, command in zip(reports, commands)]
    start = time.perf_counter()
    subprocess.run(" | ".join(stages), shell=True, check=True, cwd=cwd,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    peaks = [int(report.read().split()[-1]) for report in reports]
    for report in reports:
        report.close()
    return wall, peaks


def bench_tools(args):
    """--pte-to-pte against the three tools through text files, text pipes
    and bytecode pipes, with each stage's peak RSS; outputs must match."""
    path, unique = generate("tools", TOOLS, args.data, args.build)
    data = args.data
    bin_dir = os.path.abspath(os.path.join(args.build, "bin"))
    translate = os.path.join(bin_dir, "emit-translate")
    opt = os.path.join(bin_dir, "emit-opt")
    # Builds before payload references have no --payload-file (and need it
    # not: they embed payloads).
    help_text = run([opt, "--help-hidden"], capture_output=True).stdout
    allow = (["--payload-file=tools.pte"] if "payload-file" in help_text
             else [])
    jobs = {
        "pte-to-pte": [[translate, "--pte-to-pte", "tools.pte", "-o",
                        "tools.fast.pte"]],
        "text files": [
            [translate, "--from-pte", "tools.pte", "-o", "tools.mlir"],
            [opt, "tools.mlir", "--dedup-delegate-blobs", "-o",
             "tools.dedup.mlir"] + allow,
            [translate, "--to-pte", "tools.dedup.mlir", "-o",
             "tools.text.pte"] + allow],
        "text pipes": [[translate, "--from-pte", "tools.pte"],
                       [opt, "--dedup-delegate-blobs"] + allow,
                       [translate, "--to-pte", "-o", "tools.pipe.pte"] +
                       allow],
        "bytecode pipes": [
            [translate, "--from-pte", "tools.pte", "--emit-bytecode"],
            [opt, "--dedup-delegate-blobs", "--emit-bytecode"] + allow,
            [translate, "--to-pte", "-o", "tools.bytecode.pte"] + allow],
    }
    # Builds from before emit-verify, emit-diff and emit-memory have no
    # inspections.
    inspections = {}
    for job, tool, arguments in (
            ("verify", "emit-verify", ["tools.pte"]),
            ("diff", "emit-diff", ["tools.pte", "tools.fast.pte"]),
            ("memory", "emit-memory", ["tools.pte"])):
        if os.path.exists(os.path.join(bin_dir, tool)):
            inspections[job] = ([os.path.join(bin_dir, tool)] + arguments +
                                [">", "/dev/null"])
    outputs = {"pte-to-pte": "tools.fast.pte", "text files": "tools.text.pte",
               "text pipes": "tools.pipe.pte",
               "bytecode pipes": "tools.bytecode.pte"}
    scratch = ["tools.mlir", "tools.dedup.mlir"] + list(outputs.values())
    copy = os.path.join(data, "tools.copy.bin")
    copies = []
    walls = {job: [] for job in list(jobs) + list(inspections)}
    stage_walls = {job: [] for job in jobs}
    peaks = {job: [] for job in list(jobs) + list(inspections)}
    ir_bytes = 0
    def in_data(*names):
        return [os.path.join(data, name) for name in names]

    for _ in range(args.runs):
        for job, commands in jobs.items():
            settle(copy, *in_data("tools.mlir", "tools.dedup.mlir"))
            start = time.perf_counter()
            run(["cp", unique, copy])
            copies.append(time.perf_counter() - start)
            settle(copy)
            if job == "text files":
                # Files between the stages: each timed on its own.
                total, stage_peaks, stage_times = 0, [], []
                for command in commands:
                    wall, stage = timed_pipeline([command], data)
                    total += wall
                    stage_times.append(wall)
                    stage_peaks += stage
                ir_bytes = os.path.getsize(os.path.join(data, "tools.mlir"))
                walls[job].append(total)
                stage_walls[job].append(stage_times)
                peaks[job].append(stage_peaks)
            else:
                wall, stage_peaks = timed_pipeline(commands, data)
                walls[job].append(wall)
                peaks[job].append(stage_peaks)
        # The tools that only read: verifying the program, and diffing it
        # against its deduplicated output (the same content).
        for job, command in inspections.items():
            settle()
            wall, stage_peaks = timed_pipeline([command], data)
            walls[job].append(wall)
            peaks[job].append(stage_peaks)
        # Every path wrote what --pte-to-pte wrote, byte for byte.
        for output in outputs.values():
            run(["cmp"] + in_data("tools.fast.pte", output))
        settle(*in_data(*outputs.values()))
    settle(copy, *in_data(*scratch))

    median = statistics.median
    copy_s = median(copies)
    fast_s = median(walls["pte-to-pte"])
    payload_mib = TOOLS["methods"] * TOOLS["calls"] * TOOLS["size"] / MiB
    budget = 256 + 0.05 * payload_mib
    result = {"workload": "tools", "about": TOOLS["about"], "copy_s": copy_s,
              "ir_bytes": ir_bytes, "rss_budget_mib": budget}
    print("\n== tools: %s" % TOOLS["about"])
    print("  baseline (unique %.1f MiB): copy %.3f s" %
          (TOOLS["unique"] * TOOLS["size"] / MiB, copy_s))
    stages = {job: len(commands) for job, commands in jobs.items()}
    stages.update({job: 1 for job in inspections})
    for job in stages:
        job_s = median(walls[job])
        stage_peak = [median(run_peaks[i] for run_peaks in peaks[job]) / 1024
                      for i in range(stages[job])]
        result[job] = {"job_s": job_s, "over_pte_to_pte": job_s / fast_s,
                       "over_copy": job_s / copy_s,
                       "stage_peak_rss_mib": stage_peak}
        line = ("  %-14s %.3f s = %.2fx pte-to-pte, %.2fx copy; peak RSS per "
                "stage %s MiB" % (job, job_s, job_s / fast_s, job_s / copy_s,
                                  ", ".join("%.0f" % p for p in stage_peak)))
        if stage_walls.get(job):
            times = [median(t[i] for t in stage_walls[job])
                     for i in range(len(jobs[job]))]
            result[job]["stage_s"] = times
            line += "; stages %s s" % ", ".join("%.3f" % t for t in times)
        print(line)
    print("  --from-pte text IR: %d bytes; RSS budget per stage %.0f MiB; "
          "every output equals --pte-to-pte's" % (ir_bytes, budget))
    return result



def cache_value(build, key):
    """A value of `build`'s CMakeCache.txt, or None."""
    with open(os.path.join(build, "CMakeCache.txt")) as cache:
        for line in cache:
            if line.startswith(key + ":"):
                return line.split("=", 1)[1].strip()
    return None


def build_baseline(rev, build):
    """Builds the tools of commit `rev` in their own directory (configured as
    `build` is) and returns that build directory."""
    sha = run(["git", "-C", ROOT, "rev-parse", "--verify", rev + "^{commit}"],
              capture_output=True).stdout.strip()
    where = os.path.join(ROOT, "build", "bench-baseline", sha[:12])
    source, target = os.path.join(where, "src"), os.path.join(where, "build")
    if not os.path.exists(os.path.join(source, "CMakeLists.txt")):
        os.makedirs(source, exist_ok=True)
        archive = subprocess.Popen(["git", "-C", ROOT, "archive", sha],
                                   stdout=subprocess.PIPE)
        run(["tar", "-x", "-C", source], stdin=archive.stdout)
        if archive.wait():
            sys.exit("bench: cannot read commit %s" % rev)
    if not os.path.exists(os.path.join(target, "build.ninja")):
        configure = ["cmake", "-G", "Ninja", "-S", source, "-B", target,
                     "-DCMAKE_BUILD_TYPE=Release"]
        for key in ("MLIR_DIR", "LLVM_DIR", "LLVM_EXTERNAL_LIT"):
            value = cache_value(build, key)
            if value:
                configure.append("-D%s=%s" % (key, value))
        run(configure, stdout=subprocess.DEVNULL)
    # Every tool a workload runs that REV has (a newer tool is skipped).
    wanted = ["emit-translate", "emit-opt", "emit-link", "emit-verify",
              "emit-diff", "emit-memory", "emit-profile", "emit-graph",
              "emit-bench-hash"]
    listed = run(["ninja", "-C", target, "-t", "targets", "all"],
                 capture_output=True).stdout
    known = {line.split(":")[0] for line in listed.splitlines()}
    run(["ninja", "-C", target] + [t for t in wanted if t in known],
        stdout=subprocess.DEVNULL)
    print("baseline: %s (%s) built in %s" % (rev, sha[:12], target))
    return target


def figures(result):
    """The figures of one workload's result that compare two builds: times
    (s) and peak RSS (MiB), by name."""
    name = result["workload"]
    if name == "link":
        return {"%s %s" % (job, what): result[job][key]
                for job in ("merge", "split")
                for what, key in (("s", "job_s"), ("MiB", "peak_rss_mib"))}
    if name == "tools":
        found = {}
        for job, value in result.items():
            if isinstance(value, dict) and "job_s" in value:
                found["%s s" % job] = value["job_s"]
                found["%s MiB" % job] = max(value["stage_peak_rss_mib"])
        return found
    if name == "payloads":
        return {"%s %s" % (program, figure): result[program][key]
                for program in PAYLOADS["programs"]
                for figure, key in (("summary s", "summary_s"),
                                    ("summary MiB", "summary_mib"),
                                    ("emit-graph s", "graph_s"),
                                    ("emit-graph MiB", "graph_mib"))}
    if name == "kernels":
        found = {"--pte-to-pte s": result["pte_to_pte_s"]}
        for label, _ in KERNELS["runs"]:
            found["%s s" % label] = result[label]["job_s"]
            found["%s MiB" % label] = result[label]["peak_rss_mib"]
        return found
    if name == "replan":
        found = {}
        for planned in REPLAN["planned"]:
            shape = result["p%d" % planned]
            found["p%d --pte-to-pte s" % planned] = shape["pte_to_pte_s"]
            found["p%d --replan-memory s" % planned] = shape["replan_s"]
            found["p%d --replan-memory MiB" % planned] = shape["peak_rss_mib"]
        return found
    if name == "graphdiff":
        return {"--pte-to-pte s": result["pte_to_pte_s"],
                "emit-diff --graph s": result["graph_diff_s"],
                "emit-diff --graph MiB": result["peak_rss_mib"]}
    if name == "memory":
        found = {}
        for planned in MEMORY["planned"]:
            shape = result["p%d" % planned]
            found["p%d --pte-to-pte s" % planned] = shape["pte_to_pte_s"]
            for tool, _ in MEMORY["tools"]:
                if tool in shape:
                    found["p%d %s s" % (planned, tool)] = \
                        shape[tool]["job_s"]
                    found["p%d %s MiB" % (planned, tool)] = \
                        shape[tool]["peak_rss_mib"]
        return found
    found = {"job s": result["job_s"], "peak MiB": result["peak_rss_mib"]}
    if name == "bundle":
        found["over (.pte + copy)"] = result["job_over_pte_job_plus_copy"]
        found["MiB over .pte"] = result["rss_over_pte_mib"]
        return found
    if name == "profile":
        for job in ("json", "trace", "graph"):
            if job in result:
                found["%s s" % job] = result[job]["job_s"]
                found["%s MiB" % job] = result[job]["peak_rss_mib"]
        return found
    for stage, seconds in result["stages_s"].items():
        found["%s s" % stage] = seconds
    if "memory" in result:
        found["emit-memory s"] = result["memory"]["job_s"]
        found["emit-memory MiB"] = result["memory"]["peak_rss_mib"]
    for form in ("json", "html"):
        if "graph_" + form in result:
            view = result["graph_" + form]
            found["emit-graph %s s" % form] = view["job_s"]
            found["emit-graph %s MiB" % form] = view["peak_rss_mib"]
    return found


def compare(args, run_workload):
    """Runs every workload on the working tree's build and the baseline's,
    alternating, one run each at a time, and prints new / old per figure."""
    old_build = build_baseline(args.baseline, args.build)
    rows = []
    for name in args.workloads.split(","):
        pairs = []
        for _ in range(args.runs):
            one = {}
            for label, build in (("new", args.build), ("old", old_build)):
                single = argparse.Namespace(**vars(args))
                single.build, single.runs = build, 1
                with contextlib.redirect_stdout(io.StringIO()) as quiet:
                    result = run_workload(name, single)
                if not result:  # Skipped, and why.
                    print(quiet.getvalue().strip())
                    if label == "new":
                        break
                    one["old"] = {}  # A workload the old build cannot run.
                    continue
                one[label] = figures(result)
            if len(one) < 2:
                break
            pairs.append(one)
        if not pairs:
            continue
        for figure in pairs[0]["new"]:
            new = [p["new"][figure] for p in pairs]
            if figure not in pairs[0]["old"]:
                # A figure the old build cannot have (a tool it lacks).
                rows.append((name, figure, statistics.median(new), None, None,
                             None, None))
                continue
            old = [p["old"][figure] for p in pairs]
            ratios = [n / o if o else float("nan") for n, o in zip(new, old)]
            rows.append((name, figure, statistics.median(new),
                         statistics.median(old), statistics.median(ratios),
                         min(ratios), max(ratios)))
    print("\nnew (working tree) against old (%s), %d runs each, alternating;"
          " ratio = median of the runs' new / old, spread = their range" %
          (args.baseline, args.runs))
    print("| workload | figure | new | old | new / old | spread |")
    print("|---|---|---|---|---|---|")
    for name, figure, new, old, ratio, low, high in rows:
        if old is None:
            print("| %s | %s | %.3f | - | - | - |" % (name, figure, new))
            continue
        print("| %s | %s | %.3f | %.3f | %.3fx | %.2f-%.2f |" %
              (name, figure, new, old, ratio, low, high))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workloads",
                        default="llm,small,small10k,roundtrip,graph,memory,"
                                "kernels,replan,tools,link,bundle,profile,"
                                "payloads,graphdiff")
    parser.add_argument("--et-python", metavar="DIR",
                        default=os.path.expanduser("~/.cache/et-python"),
                        help="ExecuTorch's Python serializer, as "
                             "../shared/tools/et-python/setup.sh sets it "
                             "up: writes the graph workload, and is the "
                             "reference small and graph are compared with")
    parser.add_argument("--et-snapshot", metavar="GIT_DIR",
                        default=os.environ.get("ET_SNAPSHOT"),
                        help="the ExecuTorch snapshot --et-python was set up "
                             "from (default $ET_SNAPSHOT): its bundled-program "
                             "serializer is the bundle workload's reference; "
                             "without it that reference is not run")
    parser.add_argument("--et-run", metavar="PATH",
                        default=os.path.expanduser(
                            "~/.cache/emit-bars/etrun/et-run"),
                        help="the real runtime with ETDumpGen "
                             "(../shared/tools/et-run/build.sh): writes the "
                             "profile workload's ETDump")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", default=os.path.join(ROOT, "build",
                                                       "bench-data"))
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--baseline", metavar="REV",
                        help="also build commit REV and print every figure "
                             "as a ratio to it, runs alternating")
    args = parser.parse_args()
    os.makedirs(args.data, exist_ok=True)
    # The reference's time does not depend on emit's build: compared runs
    # leave it out.
    args.et_python_reference = not args.baseline
    special = {"link": bench_link, "tools": bench_tools, "graph": bench_graph,
               "bundle": bench_bundle, "profile": bench_profile,
               "memory": bench_memory, "kernels": bench_kernels,
               "replan": bench_replan, "payloads": bench_payloads,
               "graphdiff": bench_graph_diff}

    def run_workload(name, workload_args):
        if name in special:
            return special[name](workload_args)
        return bench(name, WORKLOADS[name], workload_args)

    if args.baseline:
        rows = compare(args, run_workload)
        if args.json:
            with open(args.json, "w") as f:
                json.dump([dict(zip(("workload", "figure", "new", "old",
                                     "ratio", "low", "high"), row))
                           for row in rows], f, indent=2)
        return
    results = [run_workload(name, args) for name in args.workloads.split(",")]
    results = [result for result in results if result]
    by_name = {r["workload"]: r for r in results}
    if "small" in by_name and "small10k" in by_name:
        ratio = (by_name["small"]["pass_us_per_call"] /
                 by_name["small10k"]["pass_us_per_call"])
        print("\npass time per call, 100,000 vs 10,000 calls: %.2fx" % ratio)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
