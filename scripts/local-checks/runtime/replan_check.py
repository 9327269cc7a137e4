#!/usr/bin/env python3
"""Re-planned programs are the same programs, in less memory.

    python3 replan_check.py BUILD_DIR PTE_CHECK_DIR ET_SNAPSHOT ET_PYTHON_DIR \\
        WORK_DIR [PROGRAM.pte | DIR]...

PTE_CHECK_DIR is ../shared/tools/pte-check's output (build.sh, build.sh
--releases and build.sh --arm32 run: pte-check, releases/, obj/release,
obj/arm32, src, gen); ET_SNAPSHOT the ExecuTorch git dir it was built
from (for kernels/portable at the same commit); ET_PYTHON_DIR et-python.
Programs: those replan_programs.py and et_memory.py write with ExecuTorch's
serializer, a 50,000-call program planned as ExecuTorch plans
(bench/gen_graph.py), the samples in ../shared/pte-samples and every
.pte/.bpte under the paths given (distinct by content).

For each, `emit-translate --pte-to-pte --replan-memory`, then:
  - the table: per method, planned bytes before, after, the lower bound,
    and whether each buffer is within 1.05x of its bound plus 16 bytes per
    tensor (one alignment unit);
  - replan/independent_plan_check.py (not emit's overlap check) on the pair,
    and on a re-plan with a 4 KiB fast pool;
  - pte-check of every release on all three: the same verdict per release;
  - on the runnable programs, the real runtime with real portable kernels
    (replan/replan_runner.cpp) on the original, the re-plan and a re-plan
    with fast memory, each with planned buffers filled with 0 and 255
    first: every output bit-identical; and a mutant (a tensor moved onto a
    live one) that both the independent check and the outputs catch;
  - `emit-memory --c-header` of the re-planned programs, compiled for the
    host and with arm-linux-gnueabihf-g++, run (under qemu-arm) from the
    arrays with exactly the pools the macros give: every method loads and
    computes the same outputs.
Exits 1 on any failure.
"""

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)

HERE = os.path.dirname(os.path.abspath(__file__))
REPLAN = os.path.join(HERE, "replan")
RELEASE_LINE = re.compile(r"^(v\d+\.\d+|main) (loads|rejects|crashes|hangs)")
KERNEL_SOURCES = ["op_relu.cpp", "op_add.cpp", "op_mul.cpp", "op_copy.cpp",
                  "util/broadcast_util.cpp", "util/dtype_util.cpp",
                  "util/delinearize_index.cpp", "util/kernel_ops_util.cpp",
                  "util/repeat_util.cpp"]
failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message)


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, **kwargs)


def write_programs(build, et_python, work):
    env = dict(os.environ, PYTHONPATH=et_python + os.pathsep + HERE)
    python = "/usr/bin/python3"
    out = os.path.join(work, "programs")
    subprocess.run([python, os.path.join(HERE, "replan_programs.py"), out],
                   env=env, check=True)
    subprocess.run([python, os.path.join(HERE, "et_memory.py"), "programs",
                    out], env=env, check=True)
    shaped = os.path.join(out, "shaped-50000.pte")
    if not os.path.exists(shaped):
        subprocess.run([python, os.path.join(common.ROOT, "bench",
                                             "gen_graph.py"), shaped,
                        "--calls", "50000", "--planned", "3", "--slots",
                        "4096"], env=env, check=True)
    return sorted(glob.glob(os.path.join(out, "*.pte")))


def find_programs(paths):
    found, seen = [], set()
    for path in paths:
        files = [path] if os.path.isfile(path) else sorted(
            glob.glob(os.path.join(path, "**", "*.pte"), recursive=True) +
            glob.glob(os.path.join(path, "**", "*.bpte"), recursive=True))
        for name in files:
            with open(name, "rb") as f:
                head = f.read()
            digest = hashlib.sha256(head).hexdigest()
            if digest in seen or head[4:8] not in (b"ET12", b"BP08") and \
                    b"ET12" not in head[:64]:
                continue
            seen.add(digest)
            found.append(name)
    return found


def data_files(pte):
    stem = glob.escape(os.path.splitext(pte)[0])
    return sorted(glob.glob(stem + ".ptd") + glob.glob(stem + ".*.ptd"))


def replan(build, pte, out, extra=()):
    report = out + ".json"
    result = run([os.path.join(build, "bin", "emit-translate"), "--pte-to-pte",
                  "--replan-memory", "--replan-report=" + report, pte, "-o",
                  out] + list(extra))
    if result.returncode:
        return None, result.stderr.strip()
    with open(report) as f:
        return json.load(f), None


def release_verdicts(ptecheck, pte):
    script = os.path.join(ptecheck, "releases", "pte-check-releases.sh")
    args = [script] + ["--data=" + d for d in data_files(pte)] + [pte]
    verdicts = {}
    for line in run(args).stdout.splitlines():
        match = RELEASE_LINE.match(line)
        if match:
            verdicts[match.group(1)] = match.group(2)
    return verdicts


def table_rows(name, report):
    """Rows of the table, and how many buffers miss the goal."""
    rows, misses = [], 0
    for method in report["methods"]:
        for pool in method["pools"]:
            goal = 1.05 * pool["lower_bound"] + 16 * pool["tensors"]
            kept = pool["algorithm"] == "kept"
            within = kept or pool["bytes_after"] <= goal
            misses += not within
            ratio = (pool["bytes_after"] / pool["lower_bound"]
                     if pool["lower_bound"] else 1.0)
            rows.append(f"| {name} | {method['name']} | {pool['memory_id']}"
                        f"{' fast' if pool['fast'] else ''} | "
                        f"{pool['bytes_before']} | {pool['bytes_after']} | "
                        f"{pool['lower_bound']} | {ratio:.3f}x | "
                        f"{pool['tensors']} | {pool['algorithm']} | "
                        f"{'kept: ' + pool['kept_because'] if kept else 'yes' if within else 'NO'} |")
    return rows, misses


def build_kernel_objects(snapshot, ptecheck, work):
    """kernels/portable/cpu at the commit pte-check was built from."""
    with open(os.path.join(ptecheck, "src", "REV")) as f:
        rev = f.read().split()[0]
    src = os.path.join(work, "kernels-src")
    root = os.path.join(src, "executorch")
    if not os.path.isdir(os.path.join(root, "kernels", "portable")):
        os.makedirs(root, exist_ok=True)
        archive = subprocess.run(["git", "--git-dir", snapshot, "archive", rev,
                                  "kernels/portable/cpu"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", root], input=archive, check=True)
    return src, [os.path.join(root, "kernels", "portable", "cpu", s)
                 for s in KERNEL_SOURCES]


def compile_binary(compiler, ptecheck, variant, kernel_src, kernels, main,
                   out, extra=()):
    objects = [o for o in glob.glob(os.path.join(ptecheck, "obj", variant,
                                                 "*.o"))
               if not o.endswith("pte_check.o")]
    flags = ["-std=c++17", "-O1", "-w", "-Wno-psabi", "-DC10_USING_CUSTOM_GENERATED_MACROS",
             "-DET_LOG_ENABLED=0", "-DEXECUTORCH_INTERNAL_FLATBUFFERS=1",
             "-DFLATBUFFERS_MAX_ALIGNMENT=1024",
             "-I" + os.path.join(ptecheck, "gen"),
             "-I" + os.path.join(ptecheck, "src"), "-I" + kernel_src,
             "-I" + os.path.join(ptecheck, "src", "executorch", "runtime",
                                 "core", "portable_type", "c10")]
    subprocess.run([compiler] + flags + list(extra) + [main] + kernels +
                   objects + ["-o", out], check=True)
    return out


def outputs(args):
    lines = run(args).stdout.splitlines()
    return [line for line in lines if line.startswith(("OUTPUT", "RESULT"))]


def mutate(build, pte, method, value, offset, out):
    """`pte` with value `value` of `method` moved to `offset` of its buffer
    (grown to hold it), through the IR; None when it cannot be written."""
    text = run([os.path.join(build, "bin", "emit-translate"), "--from-pte",
                "--embed-payloads", pte]).stdout
    start = text.index("et.method @" + method)
    header_end = text.index("\n", start)
    at = text.index("%%%d = et.tensor" % value, start)
    line_end = text.index("\n", at)
    line = re.sub(r"mem\((\d+), \d+\)", r"mem(\1, %d)" % offset,
                  text[at:line_end])
    # The buffer grows by the tensor's bytes past its end, at most 4 KiB.
    header = re.sub(r"buffers \[0, (\d+)\]", lambda m: "buffers [0, %d]" % max(
        int(m.group(1)), offset + 4096), text[start:header_end])
    path = out + ".mlir"
    with open(path, "w") as f:
        f.write(text[:start] + header + text[header_end:at] + line +
                text[line_end:])
    if run([os.path.join(build, "bin", "emit-translate"), "--to-pte", path,
            "-o", out]).returncode:
        return None
    return out


# Plans that compute wrong results or break what the runtime relies on,
# made from the re-plan by hand: (method, value, offset, whether the
# outputs show it). `chain`'s value 3, written by the second call, onto the
# input x that every add and mul reads; `state`'s copy_ result (value 5)
# off the mutable buffer it is; `views`' et_view result (value 4) off y.
MUTANTS = [("chain", 3, 0, True), ("state", 5, 256, False),
           ("views", 4, 256, False)]


def check_runnable(build, ptecheck, snapshot, work, runnable):
    kernel_src, kernels = build_kernel_objects(snapshot, ptecheck, work)
    runner = compile_binary("g++", ptecheck, "release", kernel_src, kernels,
                            os.path.join(REPLAN, "replan_runner.cpp"),
                            os.path.join(work, "replan-runner"))
    replanned = os.path.join(work, "runnable.replanned.pte")
    fast = os.path.join(work, "runnable.fast.pte")
    replan(build, runnable, replanned)
    report, error = replan(build, runnable, fast, ["--fast-memory=128"])
    if error:
        fail("runnable fast memory: " + error)
    expected = outputs([runner, runnable, "0"])
    print(f"\nreal kernels, runnable.pte: {len(expected)} lines")
    for path in (runnable, replanned, fast):
        for fill in ("0", "255"):
            got = outputs([runner, path, fill])
            same = got == expected and all(
                not line.startswith("RESULT") or line.endswith(" ok")
                for line in got)
            print(f"  {os.path.basename(path)} fill {fill}: "
                  f"{'bit-identical' if same else 'DIFFERS'}")
            if not same:
                fail(f"{path} fill {fill}: outputs differ")
    flatc = shutil.which("flatc")
    schema = os.path.join(common.SCHEMA_DIR, "program.fbs")
    for method, value, offset, visible in MUTANTS:
        mutant = mutate(build, replanned, method, value, offset,
                        os.path.join(work, "mutant-%s.pte" % method))
        if not mutant:
            fail(f"the mutant of {method} cannot be written")
            continue
        check = run([sys.executable, os.path.join(
            REPLAN, "independent_plan_check.py"), flatc, schema, runnable,
            mutant])
        caught = check.returncode == 1 and "violation: " in check.stdout
        why = check.stdout.split("violation: ")[1].splitlines()[0] \
            if caught else ""
        differs = outputs([runner, mutant, "0"]) != expected
        print(f"  mutant: {method} value {value} moved to {offset}: "
              f"independent check {'catches it' if caught else 'MISSES IT'}"
              f" ({why}), outputs {'differ' if differs else 'the same'}")
        if not caught or (visible and not differs):
            fail(f"the mutant of {method} is not caught")
    check_header(build, ptecheck, work, kernel_src, kernels, expected,
                 [replanned, fast])


def check_header(build, ptecheck, work, kernel_src, kernels, expected,
                 programs):
    header_dir = os.path.join(work, "header")
    os.makedirs(header_dir, exist_ok=True)
    header = os.path.join(header_dir, "programs.h")
    subprocess.run([os.path.join(build, "bin", "emit-memory"), "--c-header",
                    "-o", header] + programs, check=True)
    define = ["-I" + header_dir, '-DEMIT_HEADER="programs.h"']
    main = os.path.join(REPLAN, "header_harness.cpp")
    host = compile_binary("g++", ptecheck, "release", kernel_src, kernels,
                          main, os.path.join(work, "header-host"), define)
    runs = [("host", [host])]
    arm_compiler = shutil.which("arm-linux-gnueabihf-g++")
    qemu = shutil.which("qemu-arm") or shutil.which("qemu-arm-static")
    if arm_compiler and qemu and os.path.isdir(os.path.join(ptecheck, "obj",
                                                            "arm32")):
        arm = compile_binary(arm_compiler, ptecheck, "arm32", kernel_src,
                             kernels, main, os.path.join(work, "header-arm32"),
                             define + ["-O2", "-static"])
        runs.append(("32-bit ARM (qemu)", [qemu, arm]))
    else:
        fail("no arm-linux-gnueabihf-g++, qemu-arm or pte-check --arm32 "
             "objects: the header is not checked on 32-bit ARM")
    print(f"\nC header of {len(programs)} programs ({os.path.getsize(header)} "
          "bytes):")
    compare_allocator_macros(ptecheck, header, programs)
    for name, command in runs:
        got = outputs(command + ["7"])
        loaded = [line for line in got if line.startswith("RESULT")]
        ok = all(line.endswith(" ok") for line in loaded) and \
            [line for line in got if line.startswith("OUTPUT")] == \
            [line for line in expected if line.startswith("OUTPUT")] * len(
                programs)
        tight = outputs(command + ["7", "64"])
        short = sum(not line.endswith(" ok") for line in tight
                    if line.startswith("RESULT"))
        print(f"  {name}: {len(loaded)} methods loaded with exactly the "
              f"macros' pools, outputs {'bit-identical' if ok else 'DIFFER'};"
              f" 64 bytes fewer method allocator: {short} of {len(loaded)} "
              "fail to load")
        if not ok:
            fail(f"header on {name}")


def runtime_allocator_bytes(command, pte):
    """Per method, the method allocator bytes pte-check --memory reports."""
    found, name = {}, None
    for line in run(command + ["--memory", pte]).stdout.splitlines():
        match = re.match(r"method\[\d+\] name=(\S+)", line)
        if match:
            name = match.group(1)
        match = re.search(r"memory: method_allocator_bytes=(\d+)", line)
        if match and name:
            found[name] = int(match.group(1))
    return found


def compare_allocator_macros(ptecheck, header, programs):
    """The header's _METHOD_ALLOCATOR_BYTES_64 and _32 of every method
    against what pte-check --memory measures on the host and under qemu."""
    with open(header) as f:
        text = f.read()
    macros = {name: int(value) for name, value in re.findall(
        r"#define (\w+_METHOD_ALLOCATOR_BYTES_(?:32|64)) (\d+)u", text)}
    methods = re.findall(r"^  X\((\w+), \"([^\"]*)\"\)", text, re.M)
    arm = os.path.join(ptecheck, "pte-check-arm32.sh")
    targets = [("64", [os.path.join(ptecheck, "pte-check")])]
    if os.path.exists(arm):
        targets.append(("32", [arm]))
    compared = differences = 0
    for bits, command in targets:
        measured = {}
        for program in programs:
            for name, value in runtime_allocator_bytes(command,
                                                       program).items():
                measured.setdefault(name, []).append(value)
        for prefix, name in methods:
            runtime = measured.get(name, []).pop(0) if measured.get(
                name) else None
            compared += 1
            if runtime != macros.get(prefix + "_METHOD_ALLOCATOR_BYTES_" +
                                     bits):
                differences += 1
                fail(f"{prefix}_METHOD_ALLOCATOR_BYTES_{bits} is "
                     f"{macros.get(prefix + '_METHOD_ALLOCATOR_BYTES_' + bits)}"
                     f", pte-check measures {runtime}")
    print(f"  method allocator macros against pte-check --memory (64-bit, "
          f"32-bit ARM under qemu): {compared} compared, {differences} "
          "differ")


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    build, ptecheck, snapshot, et_python, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    generated = write_programs(build, et_python, work)
    samples = os.path.join(common.SHARED, "pte-samples")
    programs = generated + find_programs(
        ([samples] if os.path.isdir(samples) else []) + sys.argv[6:])
    flatc = shutil.which("flatc")
    schema = os.path.join(common.SCHEMA_DIR, "program.fbs")
    print("| program | method | buffer | before | after | lower bound | "
          "after / bound | tensors | packing | within goal |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    totals = [0, 0, 0]
    fast_traffic = [0, 0]
    checked = cells = 0
    for index, pte in enumerate(programs):
        name = os.path.relpath(pte, os.path.dirname(os.path.dirname(pte)))
        out = os.path.join(work, f"replanned-{index}.pte")
        report, error = replan(build, pte, out)
        if error:
            print(f"| {name} | - | - | not re-planned: {error[:100]} |")
            continue
        rows, misses = table_rows(name, report)
        print("\n".join(rows))
        if misses:
            fail(f"{name}: {misses} buffers outside the goal")
        totals[0] += report["bytes_before"]
        totals[1] += report["bytes_after"]
        totals[2] += report["lower_bound"]
        # The data files go beside the re-plan under its name.
        for data in data_files(pte):
            shutil.copy(data, out[:-4] + data[len(pte) - 4:])
        # The same with a fast pool of 4 KiB per method.
        fast = os.path.join(work, f"fast-{index}.pte")
        fast_report, error = replan(build, pte, fast, ["--fast-memory=4096"])
        if error:
            fail(f"{name} --fast-memory: {error}")
            continue
        for data in data_files(pte):
            shutil.copy(data, fast[:-4] + data[len(pte) - 4:])
        fast_traffic[0] += sum(m["fast_traffic_bytes"]
                               for m in fast_report["methods"])
        fast_traffic[1] += sum(m["traffic_bytes"]
                               for m in fast_report["methods"])
        before = release_verdicts(ptecheck, pte)
        for result in (out, fast):
            if not pte.endswith(".bpte"):
                check = run([sys.executable, os.path.join(
                    REPLAN, "independent_plan_check.py"), flatc, schema, pte,
                    result])
                checked += 1
                if check.returncode:
                    fail(f"{os.path.basename(result)} ({name}): "
                         f"{check.stdout.strip()} {check.stderr[-300:]}")
            after = release_verdicts(ptecheck, result)
            cells += len(before)
            if before != after or not before:
                fail(f"{os.path.basename(result)} ({name}): release verdicts "
                     f"{before} became {after}")
    print(f"\nsum: {totals[0]} -> {totals[1]} planned bytes, lower bound "
          f"{totals[2]}; {len(programs)} programs, re-planned and with a "
          f"4 KiB fast pool: {checked} pairs checked independently, {cells} "
          f"release verdicts compared; the fast pools take "
          f"{fast_traffic[0]} of {fast_traffic[1]} bytes instructions read "
          f"and write")
    check_runnable(build, ptecheck, snapshot, work,
                   os.path.join(work, "programs", "runnable.pte"))
    print(f"\n{len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
