#!/usr/bin/env python3
"""emit-verify --kernels against each release's runtime with exactly those
kernels registered.

    python3 kernels_vs_runtime.py BUILD_DIR PTE_CHECK_RELEASES_DIR \\
        ET_SNAPSHOT ET_PYTHON_DIR [WORK_DIR [PROGRAM.pte...]]

Writes the programs of kernel_programs.py with ExecuTorch's serializer,
then, for every release build of ../shared/tools/pte-check (build.sh
--releases) and every build below, registers the build's kernels in the
real runtime (pte-check --kernels=FILE: no-op kernels under exactly those
names and keys, the runtime's own prim ops) and compares each method's
load_method result with emit's verdict for that release (emit-verify
--kernels=... --runtime=all): the method fails in emit's row when a
kernel-missing or prim-op reason names it; where another feature of the
file refuses the program (the table judges those per program), the
runtime must fail to load some method.

Builds: each library alone, portable+quantized+llm, portable+cortex_m, a
list of kernels with kernel keys (aten::add.out for Float contiguous
only), and two selective
builds of portable from a selected_operators.yaml emit wrote (of
small.pte, of kernels.pte). The registries the runtime gets are read here
from each release's own files with PyYAML, and narrowed by the yaml as
torchgen's SelectiveBuilder does, not from emit's table.

PROGRAM.pte files after WORK_DIR (exports, the samples) go through the
same builds. Prints a table of programs and builds against releases (`ok`
or the methods that differ, `emit/runtime`) and exits 1 when any differs.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402,F401

LIBRARIES = ["portable", "optimized", "quantized", "cortex_m", "llm"]
RESULT = re.compile(r"^RESULT method=(\S+) status=(OK|FAIL)(.*)")


def show(snapshot, ref, path):
    run = subprocess.run(["git", "--git-dir", snapshot, "show", f"{ref}:{path}"],
                         capture_output=True, text=True)
    return run.stdout if run.returncode == 0 else None


def yaml_names(text):
    names = []
    for entry in yaml.safe_load(text) or []:
        name = entry.get("op") or entry["func"].split("(")[0]
        names.append(name if "::" in name else "aten::" + name)
    return names


def library_names(snapshot, ref, library):
    """What `library` registers at `ref`, from the release's own files."""
    def from_yaml(path):
        text = show(snapshot, ref, path)
        return yaml_names(text) if text else []
    if library == "portable":
        return from_yaml("kernels/portable/functions.yaml")
    if library == "optimized":
        config = show(snapshot, ref, "configurations/CMakeLists.txt") or ""
        found = re.search(r"kernels/optimized/[\w-]+\.yaml", config)
        path = found.group(0) if found else "kernels/optimized/optimized.yaml"
        return from_yaml(path) + from_yaml("kernels/portable/functions.yaml")
    if library == "quantized":
        return from_yaml("kernels/quantized/quantized.yaml")
    if library == "cortex_m":
        return from_yaml("backends/cortex_m/ops/operators.yaml")
    if library == "llm":
        names = []
        for folder in ("extension/llm/custom_ops",
                       "examples/models/llama2/custom_ops"):
            listing = subprocess.run(
                ["git", "--git-dir", snapshot, "ls-tree", "-r", "--name-only",
                 ref, folder], capture_output=True, text=True).stdout.split()
            for path in listing:
                if path.endswith(".cpp") and "/test" not in path:
                    names += [f"{ns}::{op}" for ns, op in re.findall(
                        r'EXECUTORCH_LIBRARY\(\s*(\w+)\s*,\s*"([^"]+)"',
                        show(snapshot, ref, path))]
        return names
    raise ValueError(library)


def selects(selection, name):
    """torchgen's SelectiveBuilder: a root operator with kernel metadata."""
    if selection.get("include_all_operators"):
        return True
    operators = selection.get("operators") or {}
    if name in operators:
        root = operators[name].get("is_root_operator", True)
    else:
        base = operators.get(name.split(".")[0])
        root = bool(base and base.get("include_all_overloads")
                    and base.get("is_root_operator", True))
    return root and bool((selection.get("et_kernel_metadata") or {}).get(name))


def release_ref(snapshot, name):
    if name == "main":
        return "refs/heads/main"
    tags = subprocess.run(["git", "--git-dir", snapshot, "tag", "-l",
                           f"{name}.*"], capture_output=True,
                          text=True).stdout.split()
    tags = [t for t in tags if re.fullmatch(r"v\d+\.\d+\.\d+", t)]
    return max(tags, key=lambda t: [int(p) for p in t[1:].split(".")])


def runtime_results(pte_check, registry, program):
    run = subprocess.run([pte_check, f"--kernels={registry}", program],
                         capture_output=True, text=True, timeout=120)
    results = {}
    for line in run.stdout.splitlines():
        match = RESULT.match(line)
        if match:
            results[match.group(1)] = match.group(2) == "OK"
    if not results:  # Program::load failed: no method loads
        results = None
    return results


def emit_results(emit_verify, kernels, program, methods):
    run = subprocess.run([emit_verify, f"--kernels={kernels}", "--runtime=all",
                          "--format=json", program], capture_output=True,
                         text=True)
    report = json.loads(run.stdout)
    verdicts = {}
    for row in report["runtimes"]:
        failing = {m: False for m in methods}
        other = False
        for reason in row["reasons"]:
            # pte-check's stub backends accept every payload: what a real
            # backend's init refuses is not this check's.
            if reason["verdict"] not in ("rejects", "crashes") or \
                    reason["feature"] == "backend-defect":
                continue
            # kernel-missing and prim-op name the method they fail; another
            # feature is the program's (the table names its first use).
            if reason["feature"] in ("kernel-missing", "prim-op"):
                for m in methods:
                    if f"'{m}'" in reason["where"]:
                        failing[m] = True
            else:
                other = True
        verdicts[row["release"]] = (None if other else
                                    {m: not failing[m] for m in methods})
    return verdicts


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    build, releases_dir, snapshot, et_python = sys.argv[1:5]
    work = sys.argv[5] if len(sys.argv) > 5 else tempfile.mkdtemp()
    extra = sys.argv[6:]
    emit_verify = os.path.join(build, "bin", "emit-verify")
    env = dict(os.environ, PYTHONPATH=et_python)
    subprocess.run(["/usr/bin/python3", common.check("runtime",
                                                     "kernel_programs.py"),
                    work], check=True, env=env)
    kernels_pte = os.path.join(work, "kernels.pte")
    # emit's selective builds.
    selections = {}
    for name in ("small", "kernels"):
        path = os.path.join(work, f"{name}.selected.yaml")
        subprocess.run([emit_verify, f"--write-selected-ops={path}",
                        os.path.join(work, name + ".pte")], check=True,
                       capture_output=True)
        with open(path) as f:
            selections[path] = yaml.safe_load(f)
    keyed = os.path.join(work, "keyed.txt")
    with open(keyed, "w") as f:
        f.write("aten::add.out v1/6;0|6;0|6;0\naten::_fft_r2c.out\n")
    builds = [(lib, [lib], None, None) for lib in LIBRARIES]
    builds.append(("portable,quantized,llm", ["portable", "quantized", "llm"],
                   None, None))
    builds.append(("portable,cortex_m", ["portable", "cortex_m"], None, None))
    builds.append(("keyed list", [], None, keyed))
    for path in selections:
        builds.append((f"portable,{os.path.basename(path)}", ["portable"],
                       path, None))
    names = sorted(os.listdir(releases_dir))
    names = [n for n in names if os.path.isfile(
        os.path.join(releases_dir, n, "pte-check"))]
    names.sort(key=lambda n: (n == "main", [int(p) for p in
                                            n[1:].split(".")] if n != "main"
                              else []))
    differences = 0
    print("| program | build | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for program, (label, libraries, selection, listed) in (
            (p, b) for p in [kernels_pte] + extra for b in builds):
        methods = [r.group(1) for r in map(RESULT.match, subprocess.run(
            [os.path.join(releases_dir, "main", "pte-check"), program],
            capture_output=True, text=True).stdout.splitlines()) if r]
        spec = ",".join(libraries + [p for p in (selection, listed) if p])
        emit = emit_results(emit_verify, spec, program, methods)
        cells = []
        for name in names:
            ref = release_ref(snapshot, name)
            registered = []
            for library in libraries:
                for op in library_names(snapshot, ref, library):
                    if selection is None or selects(selections[selection], op):
                        registered.append(op)
            registry = os.path.join(work, "registry.txt")
            with open(registry, "w") as f:
                f.write("".join(op + "\n" for op in sorted(set(registered))))
                if listed:
                    f.write(open(listed).read())
            runtime = runtime_results(os.path.join(releases_dir, name,
                                                   "pte-check"),
                                      registry, program)
            ours = emit[name.lstrip("v")]
            if runtime is None or ours is None:
                # emit's row refuses the program for a feature of the
                # file, which the table judges per program: the runtime
                # must fail to load some method.
                same = ours is None and (runtime is None or
                                         not all(runtime.values()))
                cells.append("ok (no load)" if same else
                             f"{'R' if ours is None else 'L'}/"
                             f"{'R' if runtime is None else 'L'}")
                differences += not same
                continue
            wrong = [m for m in methods if ours[m] != runtime[m]]
            differences += len(wrong)
            failing = sum(not ok for ok in runtime.values())
            cells.append(f"ok ({failing} fail)" if not wrong else
                         " ".join(f"{m} {'L' if ours[m] else 'R'}/"
                                  f"{'L' if runtime[m] else 'R'}"
                                  for m in wrong))
        print(f"| {os.path.basename(program)} | {label} | " +
              " | ".join(cells) + " |")
    print(f"differences: {differences}")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
