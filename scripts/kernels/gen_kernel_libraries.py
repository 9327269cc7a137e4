#!/usr/bin/env python3
"""Writes lib/Kernels/KernelLibraries.inc: what each kernel library of each
ExecuTorch release registers, read from that release's own files.

    python3 scripts/kernels/gen_kernel_libraries.py EXECUTORCH_GIT_DIR \
        > lib/Kernels/KernelLibraries.inc

EXECUTORCH_GIT_DIR is a clone or snapshot of pytorch/executorch (a bare one is
fine) with the release tags. Each release is its minor version's newest patch
tag, as ../shared/tools/pte-check builds them, and main is the snapshot's main.

A library is what a CMake build links, under the name emit-verify --kernels
takes:
  portable   portable_ops_lib: kernels/portable/functions.yaml
  optimized  optimized_native_cpu_ops_lib: the optimized yaml that
             configurations/CMakeLists.txt merges, with portable's
             functions.yaml as the fallback for what it lacks
  quantized  quantized_ops_lib: kernels/quantized/quantized.yaml
  cortex_m   cortex_m_ops_lib: backends/cortex_m/ops/operators.yaml
  llm        custom_ops: EXECUTORCH_LIBRARY registrations of
             extension/llm/custom_ops (examples/models/llama2/custom_ops before)
  portable_custom  kernels/portable/custom_ops.yaml (Buck's generated_lib)
  et_copy    kernels/portable/et_copy_ops.yaml
  prim       the prim ops the runtime registers itself
             (kernels/prim_ops/register_prim_ops.cpp)
Every kernel these register has no kernel key (arg_meta: null): a fallback
that runs any dtype and dim order. The script refuses a yaml with keys.
"""

import re
import subprocess
import sys

RELEASES = ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "1.0", "1.1",
            "1.2", "1.3", "1.4", "main"]


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], check=True,
                          capture_output=True, text=True).stdout


def show(repo, ref, path):
    result = subprocess.run(["git", "--git-dir", repo, "show", f"{ref}:{path}"],
                            capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else None


def release_refs(repo):
    tags = [t for t in git(repo, "tag", "-l", "v*").split()
            if re.fullmatch(r"v\d+\.\d+\.\d+", t)]
    newest = {}
    for tag in sorted(tags, key=lambda t: [int(p) for p in t[1:].split(".")]):
        newest[".".join(tag[1:].split(".")[:2])] = tag
    refs = [newest[r] for r in RELEASES[:-1]]
    return refs + ["refs/heads/main"]


def yaml_operators(text, path):
    """Operator names a kernel yaml registers, as the runtime names them."""
    names = []
    for line in text.splitlines():
        if re.match(r"\s*arg_meta:\s*(?!null)\S", line) or "type_alias" in line:
            sys.exit(f"{path}: a kernel with a kernel key; the table has none")
        match = re.match(r"- (op|func):\s*([^\s(]+)", line)
        if not match:
            continue
        name = match.group(2)
        names.append(name if "::" in name else "aten::" + name)
    return names


def library_operators(text):
    """EXECUTORCH_LIBRARY(namespace, "name", fn) registrations."""
    return [f"{ns}::{name}" for ns, name in re.findall(
        r'EXECUTORCH_LIBRARY\(\s*(\w+)\s*,\s*"([^"]+)"', text)]


def prim_operators(text):
    return re.findall(r'Kernel\(\s*"([^"]+)"', text)


def optimized_yaml(repo, ref):
    config = show(repo, ref, "configurations/CMakeLists.txt") or ""
    match = re.search(r"FUNCTIONS_YAML\s+\$\{EXECUTORCH_ROOT\}/(kernels/optimized/\S+\.yaml)",
                      config)
    return match.group(1) if match else "kernels/optimized/optimized.yaml"


def cpp_files(repo, ref, folders):
    files = []
    for folder in folders:
        listing = subprocess.run(
            ["git", "--git-dir", repo, "ls-tree", "-r", "--name-only", ref, folder],
            capture_output=True, text=True).stdout.split()
        files += [f for f in listing if f.endswith(".cpp") and "/test" not in f]
    return files


def sources_of(repo, ref):
    """(library, source path, operator names) of one release."""
    found = []

    def add_yaml(library, path):
        text = show(repo, ref, path)
        if text is not None:
            found.append((library, path, yaml_operators(text, f"{ref}:{path}")))

    add_yaml("portable", "kernels/portable/functions.yaml")
    add_yaml("optimized", optimized_yaml(repo, ref))
    add_yaml("optimized", "kernels/portable/functions.yaml")
    add_yaml("quantized", "kernels/quantized/quantized.yaml")
    add_yaml("cortex_m", "backends/cortex_m/ops/operators.yaml")
    add_yaml("portable_custom", "kernels/portable/custom_ops.yaml")
    add_yaml("et_copy", "kernels/portable/et_copy_ops.yaml")
    for path in cpp_files(repo, ref, ["extension/llm/custom_ops",
                                      "examples/models/llama2/custom_ops"]):
        names = library_operators(show(repo, ref, path))
        if names:
            found.append(("llm", path, names))
    prims = "kernels/prim_ops/register_prim_ops.cpp"
    found.append(("prim", prims, prim_operators(show(repo, ref, prims))))
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    repo = sys.argv[1]
    refs = release_refs(repo)
    rows = {}  # (library, operator, source) -> release mask
    for bit, ref in enumerate(refs):
        for library, path, names in sources_of(repo, ref):
            for name in names:
                key = (library, name, path)
                rows[key] = rows.get(key, 0) | (1 << bit)
    main_commit = git(repo, "rev-parse", "--short=10", "refs/heads/main").strip()
    sources = sorted({(library, path) for library, _, path in rows})
    print("// Generated by scripts/kernels/gen_kernel_libraries.py from")
    print("// pytorch/executorch " + ", ".join(refs[:-1]) +
          f" and main ({main_commit}). Do not edit: run the script.")
    print("//")
    print("// kKernelSources: a library and the file of a release's tree it reads.")
    print("// kKernelRows: an operator a library registers, the releases that")
    print("// register it (bit i: getReleaseNames()[i]) and its source.")
    print('static const char kKernelTableOrigin[] = "' + ", ".join(refs[:-1]) +
          f' and main ({main_commit})";')
    print("static const KernelSource kKernelSources[] = {")
    for library, path in sources:
        print(f'    {{"{library}", "{path}"}},')
    print("};")
    print("static const KernelRow kKernelRows[] = {")
    for (library, name, path), mask in sorted(
            rows.items(), key=lambda r: (r[0][0], r[0][1], r[0][2])):
        print(f'    {{"{name}", 0x{mask:04x}, {sources.index((library, path))}}},')
    print("};")


if __name__ == "__main__":
    main()
