#!/usr/bin/env python3
"""Runs rows of emit's kernel defect table on the real portable kernels of
ExecuTorch releases, and checks that emit-verify warns exactly where they
return wrong results.

    python3 kernel_defects.py BUILD_DIR ET_SNAPSHOT [WORK_DIR] [REF...]

For each REF (default: v1.0.1 v1.2.0 v1.4.1 and main; the harness calls
the kernels with 1.x's signatures), extracts the release's runtime and
kernels/portable/cpu, builds kernel-defects/defect_harness.cpp against them
with g++ (no CMake, no PyTorch) and runs portable's cat and flip on the
same logical values stored contiguous and channels-last, against the
logical answer. Then emit-verify --runtime=all on two programs calling
the same operators, one channels-last and one contiguous: emit's row for
the release must warn (the row's defect) of the channels-last calls
exactly where the real kernel returned a wrong result, and never of the
contiguous ones. Prints a table and exits 1 on any disagreement.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(HERE, "kernel-defects", "defect_harness.cpp")
CASE = re.compile(r"^CASE (\S+) (\S+) (\S+) max_abs_diff=(\S+) status=(\S+)")
SOURCES = ["kernels/portable/cpu/op_cat.cpp", "kernels/portable/cpu/op_flip.cpp",
           "kernels/portable/cpu/util/copy_ops_util.cpp",
           "kernels/portable/cpu/util/reduce_util.cpp",
           "runtime/core/exec_aten/util/tensor_util_portable.cpp",
           "runtime/core/portable_type/tensor_impl.cpp",
           "runtime/platform/abort.cpp", "runtime/platform/log.cpp",
           "runtime/platform/platform.cpp", "runtime/platform/profiler.cpp",
           "runtime/platform/runtime.cpp",
           "runtime/platform/default/posix.cpp"]

PROGRAM = """
et.program @defects {
  et.constant_segment offsets [0]
  et.method @forward buffers [0, 1024] {
    %a = et.tensor float [1, 2, 2, 3] dim_order ORDER mem(1, 0)
    %b = et.tensor float [1, 2, 2, 3] dim_order ORDER mem(1, 64)
    %c = et.tensor float [1, 4, 2, 3] dim_order ORDER mem(1, 128)
    %f = et.tensor float [1, 2, 2, 3] dim_order ORDER mem(1, 256)
    %l = et.tensor_list(%a, %b)
    %d = et.int 1
    %dims = et.int_list(%d)
    %cat = et.operator "aten::cat" overload "out"
    %flip = et.operator "aten::flip" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %cat (%l, %d, %c)
      et.kernel_call %flip (%a, %dims, %f)
    }
    et.signature inputs() outputs()
  }
}
"""

RELEASE_NAME = {"refs/heads/main": "main"}


def release_of(ref):
    if ref in RELEASE_NAME:
        return RELEASE_NAME[ref]
    return ".".join(ref.lstrip("v").split(".")[:2])


def run_harness(snapshot, ref, work):
    src = os.path.join(work, ref.replace("/", "_"), "src")
    root = os.path.join(src, "executorch")
    os.makedirs(root, exist_ok=True)
    archive = subprocess.run(["git", "--git-dir", snapshot, "archive", ref,
                              "runtime", "kernels/portable/cpu"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", root], input=archive, check=True)
    binary = os.path.join(work, ref.replace("/", "_"), "harness")
    subprocess.run(["g++", "-std=c++17", "-O1", "-w", "-I" + src,
                    "-I" + os.path.join(root, "runtime", "core",
                                        "portable_type", "c10"),
                    "-DC10_USING_CUSTOM_GENERATED_MACROS",
                    "-DET_LOG_ENABLED=0", HARNESS] +
                   [os.path.join(root, path) for path in SOURCES] +
                   ["-o", binary], check=True)
    cases = {}
    for line in subprocess.run([binary], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        match = CASE.match(line)
        if match:
            row, op, layout, diff, status = match.groups()
            cases[(op, layout)] = (row, float(diff), status)
    return cases


def emit_warnings(build, work, layout):
    """Per release, the (defect row, operator) emit's row warns of."""
    order = "[0, 2, 3, 1]" if layout == "channels_last" else "[0, 1, 2, 3]"
    path = os.path.join(work, f"defects-{layout}.pte")
    subprocess.run([os.path.join(build, "bin", "emit-translate"), "--to-pte",
                    "-o", path], input=PROGRAM.replace("ORDER", order).encode(),
                   check=True)
    report = json.loads(subprocess.run(
        [os.path.join(build, "bin", "emit-verify"), "--runtime=all",
         "--format=json", path], capture_output=True, text=True).stdout)
    warned = {}
    for row in report["runtimes"]:
        warned[row["release"]] = {
            (reason["feature"], reason["where"].rsplit(": ", 1)[-1])
            for reason in row["reasons"]
            if reason["feature"].startswith("portable-")}
    return warned


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build, snapshot = sys.argv[1:3]
    work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp()
    refs = sys.argv[4:] or ["v1.0.1", "v1.2.0", "v1.4.1", "refs/heads/main"]
    os.makedirs(work, exist_ok=True)
    warnings = {layout: emit_warnings(build, work, layout)
                for layout in ("contiguous", "channels_last")}
    differences = 0
    print("| release | operator | layout | real kernel: max abs diff "
          "(status) | emit warns |")
    print("|---|---|---|---|---|")
    for ref in refs:
        release = release_of(ref)
        for (op, layout), (row, diff, status) in sorted(
                run_harness(snapshot, ref, work).items()):
            warned = (row, op) in warnings[layout][release]
            wrong = diff != 0 and status == "ok"
            differences += warned != wrong
            print(f"| {release} | {op} | {layout} | {diff:g} ({status}) | "
                  f"{'yes: ' + row if warned else 'no'}"
                  f"{'' if warned == wrong else '  <- differs'} |")
    print(f"differences: {differences}")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
