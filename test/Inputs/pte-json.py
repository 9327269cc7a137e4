#!/usr/bin/env python3
# pte-json.py FLATC SCHEMA FILE.pte [--segments]
#
# Decodes a .pte with flatc against the project's schema and prints the JSON
# with every list of scalars on one line, so that FileCheck patterns read
# like the data: `"sizes": [2, 3]`.
#
# With --segments, prints the extended header and one line per segment with
# the SHA-256 of its bytes, read from the file at the place the header and
# the segment table say, so two files' segment bytes can be compared.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile


def render(value, indent=0):
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [
            '%s  "%s": %s' % (pad, key, render(item, indent + 1))
            for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(not isinstance(item, (dict, list)) for item in value):
            return "[" + ", ".join(json.dumps(item) for item in value) + "]"
        items = [pad + "  " + render(item, indent + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value)


def decode(flatc, schema, pte):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([flatc, "--json", "--strict-json", "--raw-binary",
                        "--defaults-json", "-o", out, schema, "--", pte],
                       check=True)
        name = os.path.splitext(os.path.basename(pte))[0] + ".json"
        with open(os.path.join(out, name)) as f:
            return json.load(f)


def print_segments(data, pte):
    with open(pte, "rb") as f:
        raw = f.read()
    base = 0
    if raw[8:12] == b"eh00":
        length, program_size, base = struct.unpack_from("<IQQ", raw, 12)
        print("header length %d program_size %d segment_base %d" %
              (length, program_size, base))
    else:
        print("no header")
    for index, segment in enumerate(data.get("segments", [])):
        start = base + segment["offset"]
        payload = raw[start:start + segment["size"]]
        print("segment %d size %d sha256 %s" %
              (index, len(payload), hashlib.sha256(payload).hexdigest()))


def main():
    flatc, schema, pte = sys.argv[1:4]
    data = decode(flatc, schema, pte)
    if "--segments" in sys.argv[4:]:
        print_segments(data, pte)
    else:
        print(render(data))


if __name__ == "__main__":
    main()
