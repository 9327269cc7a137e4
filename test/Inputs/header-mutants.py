#!/usr/bin/env python3
# header-mutants.py write FILE DIR
# header-mutants.py check EMIT_TRANSLATE FILE
# header-mutants.py verdicts EMIT_VERIFY FILE
#
# Mutants of the header of a .pte (its extended header) or a .ptd (its FH01
# header): every field set to 0, 1, the file size, the program size (for a
# .ptd, the flatbuffer's end), the largest value of its width, and one off
# its true value; a value equal to the true one or to an earlier value is
# skipped.
#
# `write` writes each mutant to DIR as FIELD=VALUE.pte (or .ptd), for the
# fuzz target's replay. `check` runs `EMIT_TRANSLATE --pte-to-pte` on each
# and prints one line per mutant: its label and emit's error, or, when emit
# accepts it, whether the output is the unmutated file's output byte for
# byte:
#
#   segment_base_offset=0: error: at byte 476 (segments[0]): ...
#   program_size=true+1: accepted, output identical
#
# `verdicts` runs `EMIT_VERIFY --format=json` on each and prints its
# verdict on what the runtime does at load, and the checks that found
# errors and warnings:
#
#   program_size=file-size: loads; errors header-segment-base; warnings -
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import os
import struct
import subprocess
import sys
import tempfile

# (field, byte offset, width) of every header field after the identifier.
PTE_FIELDS = [("magic", 8, 4), ("length", 12, 4), ("program_size", 16, 8),
              ("segment_base_offset", 24, 8), ("segment_data_size", 32, 8)]
PTD_FIELDS = [("magic", 8, 4), ("length", 12, 4),
              ("flatbuffer_offset", 16, 8), ("flatbuffer_size", 24, 8),
              ("segment_base_offset", 32, 8), ("segment_data_size", 40, 8)]


def field(data, offset, width):
    return struct.unpack_from("<I" if width == 4 else "<Q", data, offset)[0]


def mutants(data):
    """(label, bytes) for every field and value of the file's header."""
    if data[4:8] == b"FT01":
        fields = PTD_FIELDS
        program_size = field(data, 16, 8) + field(data, 24, 8)
    elif data[8:12] == b"eh00":
        fields, program_size = PTE_FIELDS, field(data, 16, 8)
    else:
        raise SystemExit("header-mutants: the file has no header to mutate")
    for name, offset, width in fields:
        true, top = field(data, offset, width), (1 << (8 * width)) - 1
        seen = {true}
        for label, value in [("0", 0), ("1", 1), ("file-size", len(data)),
                             ("program-size", program_size), ("max", top),
                             ("true+1", true + 1), ("true-1", true - 1)]:
            if value < 0 or value > top or value in seen:
                continue
            seen.add(value)
            mutant = bytearray(data)
            struct.pack_into("<I" if width == 4 else "<Q", mutant, offset,
                             value)
            yield "%s=%s" % (name, label), bytes(mutant)


def pte_to_pte(translate, path, out):
    """emit's output for `path`, or its first error line."""
    result = subprocess.run([translate, "--pte-to-pte", path, "-o", out],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = result.stdout.decode(errors="replace")
    if result.returncode == 0:
        with open(out, "rb") as f:
            return f.read(), None
    error = next((l for l in text.splitlines() if "error:" in l), text)
    return None, "error:" + error.split("error:", 1)[1]


def verdict(verify, path):
    """emit-verify's runtime verdict on `path`, and its checks."""
    import json
    result = subprocess.run([verify, "--format=json", path],
                            stdout=subprocess.PIPE)
    report = json.loads(result.stdout)
    checks = {
        severity: ",".join(sorted({f["check"] for f in report["findings"]
                                   if f["severity"] == severity})) or "-"
        for severity in ("error", "warning")}
    return "%s; errors %s; warnings %s" % (report["runtime_load"],
                                           checks["error"], checks["warning"])


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "verdicts":
        verify, path = args
        data = open(path, "rb").read()
        suffix = os.path.splitext(path)[1]
        with tempfile.TemporaryDirectory() as work:
            for label, mutant in mutants(data):
                mutant_path = os.path.join(work, "mutant" + suffix)
                with open(mutant_path, "wb") as f:
                    f.write(mutant)
                print("%s: %s" % (label, verdict(verify, mutant_path)))
        return
    if command == "write":
        path, out_dir = args
        data = open(path, "rb").read()
        suffix = os.path.splitext(path)[1]
        for label, mutant in mutants(data):
            with open(os.path.join(out_dir, label + suffix), "wb") as f:
                f.write(mutant)
        return
    translate, path = args
    data = open(path, "rb").read()
    suffix = os.path.splitext(path)[1]
    with tempfile.TemporaryDirectory() as work:
        reference, error = pte_to_pte(translate, path,
                                      os.path.join(work, "ref" + suffix))
        if error:
            raise SystemExit("header-mutants: the unmutated file fails: " +
                             error)
        for label, mutant in mutants(data):
            mutant_path = os.path.join(work, "mutant" + suffix)
            with open(mutant_path, "wb") as f:
                f.write(mutant)
            output, error = pte_to_pte(translate, mutant_path,
                                       os.path.join(work, "out" + suffix))
            if error:
                print("%s: %s" % (label, error))
            else:
                print("%s: accepted, output %s" %
                      (label, "identical" if output == reference else
                       "DIFFERS from the unmutated file's"))


if __name__ == "__main__":
    main()
