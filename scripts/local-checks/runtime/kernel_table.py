#!/usr/bin/env python3
"""The kernel calls a build runs no kernel for, per file, build and release.

    python3 kernel_table.py BUILD_DIR FILE.pte...

For each file, a row per build: none (the runtime's prim ops alone), each
kernel library alone, and all of them; a cell per release: the kernel
calls (prim ops aside) emit-verify --kernels --runtime=all finds no kernel
for, summed over the release's kernel-missing reasons ('-' where the file
has no kernel call). Prim ops a release lacks are the release table's
(its prim-op rows), not counted here.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

BUILDS = ["portable", "optimized", "quantized", "cortex_m", "llm",
          "portable,optimized,quantized,cortex_m,llm,portable_custom,et_copy"]
CALLS = re.compile(r"\((\d+) calls? in method")


def missing_calls(build, path, kernels):
    run = subprocess.run([os.path.join(build, "bin", "emit-verify"),
                          "--kernels=" + kernels, "--runtime=all",
                          "--format=json", path], capture_output=True,
                         text=True)
    report = json.loads(run.stdout)
    total = report.get("kernels", {}).get("kernel_calls", 0)
    cells = {}
    for row in report["runtimes"]:
        cells[row["release"]] = sum(
            int(CALLS.search(reason["effect"]).group(1))
            for reason in row["reasons"] if reason["feature"] == "kernel-missing")
    return total, cells


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build, files = sys.argv[1], sys.argv[2:]
    empty = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    empty.write("# no kernel\n")
    empty.close()
    releases = None
    for path in files:
        for label, kernels in [("none", empty.name)] + [
                (b if "," not in b else "all", b) for b in BUILDS]:
            total, cells = missing_calls(build, path, kernels)
            if releases is None:
                releases = list(cells)
                print("| file | kernel calls | build | " +
                      " | ".join(releases) + " |")
                print("|---|---|---|" + "---|" * len(releases))
            print(f"| {os.path.basename(path)} | {total} | {label} | " +
                  " | ".join(str(cells[r]) if total else "-"
                             for r in releases) + " |")
    os.unlink(empty.name)


if __name__ == "__main__":
    main()
