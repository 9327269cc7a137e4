#!/usr/bin/env python3
# pte_summary.py FLATC SCHEMA BEFORE.pte AFTER.pte
#
# Prints, for two .pte files of one program, the delegate entries of every
# method and which segment each names, and the segment bytes before and
# after deduplication. Reads the files through flatc's JSON decode.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import json
import os
import subprocess
import sys
import tempfile


def decode(flatc, schema, pte):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([flatc, "--json", "--strict-json", "--raw-binary",
                        "--defaults-json", "-o", out, schema, "--", pte],
                       check=True)
        name = os.path.splitext(os.path.basename(pte))[0] + ".json"
        with open(os.path.join(out, name)) as f:
            return json.load(f)


def summarize(label, path, program):
    segments = program.get("segments", [])
    payload = sum(s["size"] for s in segments)
    print("%s: %s (%d bytes), %d segment(s) holding %d payload bytes" %
          (label, os.path.basename(path), os.path.getsize(path),
           len(segments), payload))
    users = {}
    for plan in program["execution_plan"]:
        for index, delegate in enumerate(plan.get("delegates", [])):
            specs = ", ".join(
                "%s=%s" % (s["key"], bytes(s["value"]).decode("latin-1")
                           .encode("unicode_escape").decode())
                for s in delegate.get("compile_specs", []))
            ref = delegate["processed"]
            where = "%s %d" % (ref["location"].lower(), ref["index"])
            users.setdefault(where, []).append(plan["name"])
            print("  %-8s delegate %d: %-15s -> %-10s [%s]" %
                  (plan["name"], index, delegate["id"], where, specs))
    for where, methods in users.items():
        if len(methods) > 1:
            print("  %s is shared by %d delegate entries (%s)" %
                  (where, len(methods), ", ".join(methods)))
    return payload


def main():
    flatc, schema, before, after = sys.argv[1:5]
    saved = summarize("before", before, decode(flatc, schema, before))
    saved -= summarize("after ", after, decode(flatc, schema, after))
    print("dedup saved %d payload bytes; %s is ready" % (saved, after))


if __name__ == "__main__":
    main()
