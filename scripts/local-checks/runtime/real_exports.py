#!/usr/bin/env python3
"""emit-verify on real exports, beside the runtime of every release.

    python3 real_exports.py BUILD_BIN PTE_CHECK_RELEASES MIRRORS WORK_DIR

BUILD_BIN holds emit-verify and emit-graph; PTE_CHECK_RELEASES is
pte-check-releases.sh (../shared/tools/pte-check, `build.sh --releases`);
MIRRORS is where the search tool's `fetch` put the snapshots of the
repositories real_exports.json names (MIRRORS/OWNER+NAME/repo, a git
directory); WORK_DIR receives the files, taken from those commits.

Every file of real_exports.json (a .pte, .bpte or .ptd that people
exported with ExecuTorch and committed, or a file committed as a .pte that
is none) goes through `emit-verify --runtime=all --format=json`, without
its data files and, where it has them, with them, and through each
release's runtime (a bundle's embedded program, as extension/module loads
it). One cell per run and release: emit's verdict against the runtime's
(emit's `misreads` agrees with a runtime that loads: the stub runtime
cannot see wrong bytes). Checks, each a failure when broken:

  - every cell agrees;
  - emit's one verdict line (`runtime_load`) is the release table's main;
  - no error finding on a run the runtime of main loads;
  - a file that is no ExecuTorch file is said to be what it is.

Prints a row per file (the classes of issue 55 it exercises), then
files, runs, cells and disagreements. Exits 1 on any failure.
"""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = common.ROOT
LETTERS = {"loads": "L", "misreads": "M", "rejects": "R", "crashes": "C"}
RUNTIME = re.compile(r"^(v\d+\.\d+|main) (loads|rejects|crashes|hangs)")
# Issue 55's classes, as the table names them.
CLASSES = {
    1: "delegate directions",
    2: "planned external data",
    3: "needs a data file",
    4: "how old releases fail",
    5: "one verdict line",
    6: "payload problems",
    7: "what a file is",
}


def extract(mirrors, entry, path, work):
    """Writes `path` of `entry`'s commit under `work`; its local path, or
    None when the snapshot is not there."""
    git_dir = os.path.join(mirrors, entry["repo"].replace("/", "+"), "repo")
    out = os.path.join(work, entry["repo"].replace("/", "+"),
                       entry["commit"][:12], path)
    if os.path.exists(out):
        return out
    if not os.path.isdir(git_dir):
        return None
    blob = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "-p",
                           entry["commit"] + ":" + path],
                          capture_output=True)
    if blob.returncode:
        return None
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "wb") as f:
        f.write(blob.stdout)
    return out


def emit_verify(build, path, data):
    run = subprocess.run([os.path.join(build, "emit-verify"),
                          "--runtime=all", "--format=json", path] +
                         ["--data=" + d for d in data],
                         capture_output=True, text=True)
    try:
        return run.returncode, json.loads(run.stdout), run.stderr
    except json.JSONDecodeError:
        return run.returncode, None, run.stderr


def runtime_verdicts(script, path, data):
    run = subprocess.run(["bash", script, "--timeout=60"] +
                         ["--data=" + d for d in data] + [path],
                         capture_output=True, text=True)
    verdicts = {}
    for line in run.stdout.splitlines():
        match = RUNTIME.match(line)
        if match:
            verdicts[match.group(1).lstrip("v")] = \
                LETTERS.get(match.group(2), "H")
    return verdicts


def embedded_program(path):
    """A bundle's program, as extension/module loads it."""
    out = path + ".program.pte"
    if not os.path.exists(out):
        subprocess.run([sys.executable,
                        os.path.join(ROOT, "test", "Inputs",
                                     "bundle-decode.py"),
                        "flatc", os.path.join(ROOT, "schema",
                                              "bundled_program.fbs"),
                        path, "--program", out],
                       check=True, capture_output=True)
    return out


def classes_of(report, data, graph):
    """The classes of issue 55 a run exercises, from emit's answers."""
    found = {5}
    features = {reason["feature"] for release in report.get("runtimes", [])
                for reason in release["reasons"]}
    checks = {finding["check"] for finding in report["findings"]}
    if any(node.get("kind") == "delegate"
           for method in graph.get("methods", []) for node in method["nodes"]):
        found.add(1)
    if any(f.startswith("external-planned") for f in features):
        found.add(2)
    if "external-data-missing" in checks and not data:
        found.add(3)
    old = {"0.1", "0.2", "0.3", "0.4", "0.5"}
    if any(release["release"] in old and release["reasons"]
           for release in report.get("runtimes", [])):
        found.add(4)
    if any(check.startswith("delegate-") for check in checks):
        found.add(6)
    if "file-identifier" in checks:
        found.add(7)
    return found


def graph_of(build, path, data):
    run = subprocess.run([os.path.join(build, "emit-graph"), "--format=json",
                          path] + ["--data=" + d for d in data],
                         capture_output=True, text=True)
    try:
        return json.loads(run.stdout)
    except json.JSONDecodeError:
        return {}


def check_run(build, script, path, data, failures):
    """One run: emit's verdicts beside the runtime's; its cells, the
    disagreeing ones, and the classes it exercises."""
    name = os.path.basename(path) + (" +data" if data else "")
    code, report, stderr = emit_verify(build, path, data)
    if report is None:
        failures.append(f"{name}: emit-verify wrote no JSON: {stderr[:200]}")
        return 0, 0, set()
    target = path
    if path.endswith(".bpte"):
        target = embedded_program(path)
    runtime = runtime_verdicts(script, target, data)
    emit = {release["release"]: LETTERS[release["verdict"]]
            for release in report["runtimes"]}
    # pte-check's backends are stubs: where emit says only a backend's init
    # refuses, the stub runtime loads.
    stubbed = bool(report["backends_refusing"])
    cells = differ = 0
    for release, mine in emit.items():
        theirs = runtime.get(release, "?")
        cells += 1
        if stubbed and mine in "RC" and theirs == "L":
            continue
        if mine != theirs and not (mine == "M" and theirs == "L"):
            differ += 1
            failures.append(f"{name}: {release}: emit {mine}, runtime {theirs}")
    main = emit.get("main")
    line = LETTERS.get(report["runtime_load"], "?")
    if line != main and not (line == "L" and main == "M"):
        failures.append(f"{name}: runtime_load {report['runtime_load']}, "
                        f"but the release table says main {main}")
    errors = [f for f in report["findings"] if f["severity"] == "error"
              and not f["check"].startswith("delegate-")]
    if runtime.get("main") == "L" and errors:
        failures.append(f"{name}: the runtime of main loads it, but emit "
                        f"finds {len(errors)} errors ({errors[0]['check']})")
    graph = graph_of(build, path, data)
    return cells, differ, classes_of(report, data, graph)


def check_other(build, path, failures):
    """A file emit is given alone: a data file (its verdict line speaks of
    a data file), or no ExecuTorch file (emit says what it is)."""
    code, report, stderr = emit_verify(build, path, [])
    if report is None:
        failures.append(f"{path}: emit-verify wrote no JSON: {stderr[:200]}")
        return set()
    checks = {finding["check"] for finding in report["findings"]}
    if "file-identifier" in checks:
        text = " ".join(f["message"] for f in report["findings"])
        if not re.search(r"ZIP|Git LFS|TorchScript", text):
            failures.append(f"{path}: not said what it is: {text[:200]}")
        return {7}
    return {5}


def main():
    build, script, mirrors, work = sys.argv[1:5]
    manifest = json.load(open(os.path.join(HERE, "real_exports.json")))
    failures = []
    files = runs = cells = differ = 0
    missing = set()
    print(f"{'file':44} {'from':28} runs cells differ classes")
    for entry in manifest:
        path = extract(mirrors, entry, entry["path"], work)
        if path is None:
            missing.add(entry["repo"])
            continue
        data = [extract(mirrors, entry, d, work) for d in entry.get("data", [])]
        files += 1
        with open(path, "rb") as f:
            head = f.read(8)
        row_runs = row_cells = row_differ = 0
        classes = set()
        if head[4:8] in (b"ET12", b"BP08", b"BP07"):
            for given in ([[]] + ([data] if data else [])):
                c, d, k = check_run(build, script, path, given, failures)
                row_runs += 1
                row_cells += c
                row_differ += d
                classes |= k
        else:
            classes |= check_other(build, path, failures)
            row_runs += 1
        runs += row_runs
        cells += row_cells
        differ += row_differ
        label = entry["repo"].split("/")[0][:12] + "@" + entry["commit"][:7]
        print(f"{entry['path'][-44:]:44} {label:28} {row_runs:4} "
              f"{row_cells:5} {row_differ:6} "
              + ", ".join(f"{c} {CLASSES[c]}" for c in sorted(classes)))
    for repo in sorted(missing):
        print(f"skipped: no snapshot of {repo} under {mirrors} "
              f"(fetch github:{repo})")
    print(f"{files} files, {runs} runs, {cells} cells, {differ} disagreements")
    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
