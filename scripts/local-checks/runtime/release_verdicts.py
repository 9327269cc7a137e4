#!/usr/bin/env python3
"""emit-verify --runtime=all against each release's own runtime.

    python3 release_verdicts.py EMIT_VERIFY PTE_CHECK_RELEASES FILE.pte...
        [-- pte-check options, e.g. --data=F.ptd]

Runs `emit-verify --runtime=all --format=json` and pte-check-releases.sh
(../shared/tools/pte-check, `build.sh --releases`) on each file and prints
a table of files against releases, one letter per cell: L loads, M loads
but reads it wrong (emit's misreads: the runtime loads it), R rejects,
C crashes; a cell where the two differ shows emit's letter, then the
runtime's (`R/L`). Exits 1 when any cell differs.
"""

import json
import re
import subprocess
import sys

LETTERS = {"loads": "L", "misreads": "M", "rejects": "R", "crashes": "C"}
RUNTIME = re.compile(r"^(v\d+\.\d+|main) (loads|rejects|crashes|hangs)")


def emit_verdicts(emit_verify, path, extra):
    run = subprocess.run([emit_verify, "--runtime=all", "--format=json",
                          path] + extra, capture_output=True, text=True)
    report = json.loads(run.stdout)
    return {entry["release"]: LETTERS[entry["verdict"]]
            for entry in report["runtimes"]}


def runtime_verdicts(script, path, extra):
    run = subprocess.run(["bash", script, "--timeout=60"] + extra + [path],
                         capture_output=True, text=True)
    verdicts = {}
    for line in run.stdout.splitlines():
        match = RUNTIME.match(line)
        if match:
            release = match.group(1).lstrip("v")
            verdicts[release] = LETTERS.get(match.group(2), "H")
    return verdicts


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    emit_verify, script, files = args[0], args[1], args[2:]
    data = [arg for arg in extra if arg.startswith("--data")]
    differ = 0
    releases = None
    for path in files:
        emit = emit_verdicts(emit_verify, path, data)
        runtime = runtime_verdicts(script, path, extra)
        if releases is None:
            releases = list(emit)
            print("file".ljust(28) + " ".join(r.ljust(4) for r in releases))
        cells = []
        for release in releases:
            mine, theirs = emit.get(release, "?"), runtime.get(release, "?")
            agree = mine == theirs or (mine == "M" and theirs == "L")
            differ += not agree
            cells.append((mine if agree else f"{mine}/{theirs}").ljust(4))
        print(path.split("/")[-1][:27].ljust(28) + " ".join(cells))
    print(f"{differ} cells differ")
    return 1 if differ else 0


sys.exit(main())
