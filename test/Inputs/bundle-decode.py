#!/usr/bin/env python3
"""Decodes a bundled program (.bpte) for comparison: its JSON (flatc against
the project's schema) without the program's bytes, and where the program
starts. With --program OUT, writes the embedded program to OUT.

Usage: bundle-decode.py FLATC SCHEMA FILE.bpte [--program OUT]"""

import json
import os
import struct
import subprocess
import sys
import tempfile


def program_range(data):
    """The embedded program's start and size, read from the flatbuffer."""
    root = struct.unpack_from("<I", data, 0)[0]
    vtable = root - struct.unpack_from("<i", data, root)[0]
    field = struct.unpack_from("<H", data, vtable + 4 + 2 * 2)[0]
    vector = root + field + struct.unpack_from("<I", data, root + field)[0]
    return vector + 4, struct.unpack_from("<I", data, vector)[0]


flatc, schema, path = sys.argv[1:4]
data = open(path, "rb").read()
start, size = program_range(data)
if "--program" in sys.argv:
    with open(sys.argv[sys.argv.index("--program") + 1], "wb") as f:
        f.write(data[start:start + size])
with tempfile.TemporaryDirectory() as out:
    subprocess.run([flatc, "--json", "--strict-json", "--raw-binary",
                    "--defaults-json", "-o", out, schema, "--", path],
                   check=True)
    name = os.path.splitext(os.path.basename(path))[0] + ".json"
    decoded = json.load(open(os.path.join(out, name)))
decoded.pop("program", None)
print(json.dumps(decoded, indent=1, sort_keys=True))
aligned = 4096
while start % aligned:
    aligned //= 2
print("program size %d, starts at %d (mod 4096: %d; aligned to %d)" % (
    size, start, start % 4096, aligned))
