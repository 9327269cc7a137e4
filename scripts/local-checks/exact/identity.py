#!/usr/bin/env python3
# ===- identity.py - Two builds of emit, the same outputs? ----------------=== #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# A refactoring changes no behaviour: this runs the tools of two builds on
# the same inputs and compares everything they print and write, byte for
# byte: exit codes, standard output and error, and written files.
#
#   scripts/local-checks/exact/identity.py OLD_BIN NEW_BIN [INPUT_OR_DIR ...]
#
# OLD_BIN and NEW_BIN are build/bin directories. Inputs default to the
# shared samples, every .pte/.ptd/.bpte under test/ and the lit suite's
# outputs under build/test (run lit first). A directory is searched for
# such files. Per input it runs:
#
#   --pte-to-pte              exit, stderr, the written file
#   --from-pte / --from-ptd   with locations, and with entry locations
#   --from-pte --embed-payloads   (inputs under 256 KiB)
#   --pte-summary (JSON and HTML)
#   emit-verify, emit-diff (against the --pte-to-pte output), emit-memory:
#     in every format each prints
#   an ETDump (.etdp): emit-profile alone and joined to every program
#     beside it, found and --in-order, in every format
#
# Prints one line per difference and a table of counts; exits 1 on any
# difference.
# ===----------------------------------------------------------------------=== #

import concurrent.futures
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)
import tempfile

ROOT = common.ROOT
SUFFIXES = (".pte", ".ptd", ".bpte", ".etdp")
FORMATS = {"emit-memory": ("text", "json", "html"),
           "emit-verify": ("text", "json", "sarif"),
           "emit-diff": ("text", "json", "html"),
           "emit-profile": ("text", "json", "html", "chrome-trace")}


def find_inputs(paths):
    found = []
    for path in paths:
        if os.path.isfile(path):
            found.append(os.path.abspath(path))
            continue
        for folder, _, names in os.walk(path):
            if "bench-data" in folder or "bench-baseline" in folder:
                continue
            found += [os.path.join(folder, name) for name in names
                      if name.endswith(SUFFIXES)]
    return sorted(set(found))


def is_data_file(path):
    with open(path, "rb") as f:
        return f.read(8)[4:8] == b"FT01"


def formats(name, tool, args):
    """`tool` with `args` in every format it prints."""
    return [("%s-%s" % (name, format), tool, args + ["--format=" + format],
             None) for format in FORMATS[tool]]


def profile_jobs(path):
    """An ETDump alone, and joined to each program beside it (as found or
    in order)."""
    result = formats("profile", "emit-profile", [path])
    folder = os.path.dirname(path)
    for name in sorted(os.listdir(folder)):
        if name.endswith((".pte", ".bpte")):
            program = os.path.join(folder, name)
            result += formats("profile+" + name, "emit-profile",
                              [program, path])
            result += formats("profile-in-order+" + name, "emit-profile",
                              [program, path, "--in-order"])
    return result


def jobs(path):
    """The commands run on `path`: (name, tool, arguments, writes)."""
    if path.endswith(".etdp"):
        return profile_jobs(path)
    kind = "ptd" if is_data_file(path) else "pte"
    out = "out." + kind
    result = [
        ("pte-to-pte", "emit-translate", ["--pte-to-pte", path, "-o", out],
         out),
        ("from", "emit-translate",
         ["--from-" + kind, path, "--mlir-print-debuginfo"], None),
        ("from-entries", "emit-translate",
         ["--from-" + kind, path, "--mlir-print-debuginfo",
          "--pte-entry-locations"], None),
        ("summary", "emit-translate",
         ["--pte-summary", path, "--pte-summary-format=json"], None),
        ("summary-html", "emit-translate",
         ["--pte-summary", path, "--pte-summary-format=html"], None),
    ]
    result += formats("verify", "emit-verify", [path])
    # Against its own rewrite (the pte-to-pte job's output).
    result += formats("diff", "emit-diff", [path, out])
    if kind == "pte":
        result += formats("memory", "emit-memory", [path])
    if os.path.getsize(path) < 256 << 10:
        result.append(("from-embed", "emit-translate",
                       ["--from-" + kind, path, "--embed-payloads"], None))
    return result


# Differences a change meant to make, by job: (old bytes, new bytes) that
# the old output is rewritten with before comparing; each is counted apart.
# Empty unless a change says so (issue 43: emit-diff's page gained its
# missing lang attribute).
INTENDED = {"diff-html": (b'<html><head>', b'<html lang="en"><head>')}


def run(bin_dir, tool, args, writes, cwd):
    if writes and os.path.exists(os.path.join(cwd, writes)):
        os.remove(os.path.join(cwd, writes))
    proc = subprocess.run([os.path.join(bin_dir, tool)] + args, cwd=cwd,
                          capture_output=True, timeout=600)
    written = None
    if writes and os.path.exists(os.path.join(cwd, writes)):
        with open(os.path.join(cwd, writes), "rb") as f:
            written = f.read()
    return proc.returncode, proc.stdout, proc.stderr, written


def compare(old_bin, new_bin, path):
    differences, intended = [], 0
    with tempfile.TemporaryDirectory() as work:
        for name, tool, args, writes in jobs(path):
            old = list(run(old_bin, tool, args, writes, work))
            new = run(new_bin, tool, args, writes, work)
            if name in INTENDED and old[1] != new[1]:
                before, after = INTENDED[name]
                old[1] = old[1].replace(before, after, 1)
                intended += old[1] == new[1]
            for label, a, b in zip(("exit", "stdout", "stderr", "file"), old,
                                   new):
                if a != b:
                    differences.append((path, name, label, a, b))
    return len(jobs(path)), differences, intended


def main():
    if len(sys.argv) < 3:
        print(__doc__ or "usage: identity.py OLD_BIN NEW_BIN [INPUT ...]",
              file=sys.stderr)
        return 2
    old_bin, new_bin = (os.path.abspath(p) for p in sys.argv[1:3])
    sources = sys.argv[3:] or [os.path.join(ROOT, "..", "shared",
                                            "pte-samples"),
                               os.path.join(ROOT, "test"),
                               os.path.join(ROOT, "build", "test")]
    inputs = find_inputs(sources)
    runs = intended = 0
    differences = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for count, found, meant in pool.map(
                lambda p: compare(old_bin, new_bin, p), inputs):
            runs += count
            differences += found
            intended += meant
    for path, name, label, a, b in differences:
        show = (lambda x: x[:400] if isinstance(x, bytes) else x)
        print("DIFF %s [%s] %s\n  old: %r\n  new: %r" %
              (os.path.relpath(path), name, label, show(a), show(b)))
    print("inputs %d, commands compared %d, differences %d (and %d intended:"
          " %s)" % (len(inputs), runs, len(differences), intended,
                    ", ".join(sorted(INTENDED)) or "none"))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
