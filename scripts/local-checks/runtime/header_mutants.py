#!/usr/bin/env python3
# header_mutants.py EMIT_TRANSLATE PTE_CHECK WORK_DIR FILE[:DATA.ptd...]...
#
# The local check of header reading (issue 19): every field of the extended
# header of a .pte (and of the FH01 header of a .ptd) is set to 0, 1, the
# file size, the program size, the largest value of its width, and one off
# its true value. Each mutant goes through emit (`--pte-to-pte`) and the
# real runtime (pte-check; a .ptd is loaded as the data file of the program
# named after the colon, or of no program). A row per mutant:
#
#   runtime   loads | rejects (the error) | crashes
#   bytes     what the runtime handed every backend and external constant,
#             against the unmutated file: same | WRONG | n/a (a program
#             with neither: pte-check cannot see which bytes were read)
#   emit      refuses (its diagnostic) | accepts
#   output    when emit accepts: its output against its output for the
#             unmutated file: same | DIFFERS
#
# A mutant is BAD when emit accepts it and the runtime rejects it, reads
# other bytes, or emit's output differs from the unmutated file's. The
# script exits 1 if any is. Mutants emit refuses while the runtime loads
# them with the right bytes are listed as "stricter" (docs/FileFormats.md
# says why for each).
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import importlib.util
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)

# The mutants are the lit suite's (test/Inputs/header-mutants.py).
_spec = importlib.util.spec_from_file_location(
    "header_mutants", os.path.join(common.ROOT, "test", "Inputs",
                                   "header-mutants.py"))
header_mutants = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(header_mutants)


def run(argv):
    result = subprocess.run(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, timeout=120)
    return result.returncode, result.stdout.decode(errors="replace")


def runtime_view(ptecheck, pte, data_files):
    """(verdict, what the backends and external constants received)."""
    if pte is None:
        return "-", ""
    status, out = run([ptecheck] + ["--data=" + d for d in data_files] + [pte])
    seen = "\n".join(
        re.sub(r" location=[A-Z]*\[\d+\] \(matches file bytes\)", "", line)
        for line in out.splitlines()
        if "stub-backend] init" in line or line.startswith("  compile_spec")
        or line.startswith("  named_data key") or "external_constant" in line)
    if status == 0:
        return "loads", seen
    if status < 0 or "AddressSanitizer" in out or "runtime error" in out:
        return "crashes", seen
    failure = re.search(r"RESULT (.*FAILED.*|method=\S+ status=FAIL.*)", out)
    return "rejects (%s)" % (failure.group(1) if failure else "exit %d" %
                             status), seen


def emit_view(translate, path, out):
    if os.path.exists(out):
        os.remove(out)
    status, text = run([translate, "--pte-to-pte", path, "-o", out])
    if status == 0:
        return "accepts", open(out, "rb").read()
    first = next((line for line in text.splitlines() if "error:" in line),
                 text.strip()[:160])
    return "refuses: " + first.split("error: ", 1)[-1], None


def check(translate, ptecheck, work, spec):
    path, *data_files = spec.split(":")
    data = open(path, "rb").read()
    is_ptd = data[4:8] == b"FT01"
    base = os.path.join(work, os.path.basename(path))
    if not is_ptd and data[8:12] != b"eh00":
        print("%s: no extended header; nothing to mutate" % path)
        return 0, 0
    program = data_files[0] if is_ptd and data_files else None

    def views(candidate):
        if is_ptd:
            return runtime_view(ptecheck, program, [candidate])
        return runtime_view(ptecheck, candidate, data_files)

    _, reference_seen = views(path)
    _, reference_out = emit_view(translate, path, base + ".ref.out")
    bad = stricter = 0
    print("== %s (%d bytes)" % (path, len(data)))
    for index, (label, mutant) in enumerate(header_mutants.mutants(data)):
        mutant_path = "%s.m%d%s" % (base, index, ".ptd" if is_ptd else ".pte")
        with open(mutant_path, "wb") as f:
            f.write(mutant)
        runtime, seen = views(mutant_path)
        # pte-check shows what backends and external constants receive:
        # for a program with neither, it cannot tell which bytes were read.
        same_bytes = "-" if runtime != "loads" else (
            "n/a" if not reference_seen else
            "same" if seen == reference_seen else "WRONG")
        emit, out = emit_view(translate, mutant_path, mutant_path + ".out")
        output = "-" if out is None else (
            "same" if out == reference_out else "DIFFERS")
        verdict = ""
        if out is not None and (runtime != "loads" and runtime != "-" or
                                same_bytes == "WRONG" or output == "DIFFERS"):
            verdict, bad = "BAD", bad + 1
        elif out is None and runtime == "loads" and same_bytes == "same":
            verdict, stricter = "stricter", stricter + 1
        print("| %s | %s | %s | %s | %s | %s |" %
              (label, runtime, same_bytes, emit, output, verdict))
    return bad, stricter


def main():
    translate, ptecheck, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    bad = stricter = 0
    for spec in sys.argv[4:]:
        b, s = check(translate, ptecheck, work, spec)
        bad, stricter = bad + b, stricter + s
    print("%d bad, %d stricter" % (bad, stricter))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
