#!/usr/bin/env python3
# pte-json.py FLATC SCHEMA FILE.pte [--segments | --layout]
#
# Decodes a .pte (or, with the data file schema, a .ptd) with flatc against
# the project's schema and prints the JSON
# with every list of scalars on one line, so that FileCheck patterns read
# like the data: `"sizes": [2, 3]`.
#
# With --segments, prints the extended header and one line per segment with
# the SHA-256 of its bytes, read from the file at the place the header and
# the segment table say, so two files' segment bytes can be compared.
#
# With --layout, prints where each stored byte range starts in the file, its
# size and the largest power of two its start is a multiple of, one line per
# non-empty entry of the segments, backend_delegate_data and constant_buffer
# tables: `inline 0 offset 432 size 3 align 16`. (An empty range has no
# alignment: builders do not align empty vectors.)
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
    elif raw[8:12] == b"FH01":
        length, region, size, base, data_size = struct.unpack_from(
            "<IQQQQ", raw, 12)
        print("header length %d flatbuffer_offset %d flatbuffer_size %d "
              "segment_base %d segment_data_size %d file %d" %
              (length, region, size, base, data_size, len(raw)))
    else:
        print("no header")
    for index, segment in enumerate(data.get("segments", [])):
        start = base + segment["offset"]
        payload = raw[start:start + segment["size"]]
        print("segment %d size %d sha256 %s" %
              (index, len(payload), hashlib.sha256(payload).hexdigest()))


def table_field(raw, table, field):
    """The absolute position of a table's field, or None when absent."""
    vtable = table - struct.unpack_from("<i", raw, table)[0]
    vsize = struct.unpack_from("<H", raw, vtable)[0]
    slot = 4 + 2 * field
    if slot >= vsize:
        return None
    offset = struct.unpack_from("<H", raw, vtable + slot)[0]
    return table + offset if offset else None


def deref(raw, position):
    return position + struct.unpack_from("<I", raw, position)[0]


def vector_items(raw, table, field):
    """(position of the first element, count) of a vector field, or None."""
    at = table_field(raw, table, field)
    if at is None:
        return None
    vector = deref(raw, at)
    return vector + 4, struct.unpack_from("<I", raw, vector)[0]


def layout(pte):
    """{table: [(absolute start, size) of each entry's bytes]} for the
    segments, the inline delegate data and the deprecated constant
    buffers of a .pte, or the segments of a .ptd."""
    with open(pte, "rb") as f:
        raw = f.read()
    root = struct.unpack_from("<I", raw, 0)[0]
    data_file = raw[4:8] == b"FT01"
    if data_file:
        base = struct.unpack_from("<Q", raw, 32)[0]
    else:
        base = struct.unpack_from("<Q", raw, 24)[0] if raw[8:12] == b"eh00" else 0
    found = {}
    segments = vector_items(raw, root, 1 if data_file else 4)
    if segments:
        start, count = segments
        found["segment"] = []
        for i in range(count):
            segment = deref(raw, start + 4 * i)
            at = table_field(raw, segment, 0)
            offset = struct.unpack_from("<Q", raw, at)[0] if at else 0
            at = table_field(raw, segment, 1)
            size = struct.unpack_from("<Q", raw, at)[0] if at else 0
            found["segment"].append((base + offset, size))
    for name, field in () if data_file else (("inline", 3),
                                               ("constant_buffer", 2)):
        entries = vector_items(raw, root, field)
        if entries:
            start, count = entries
            found[name] = []
            for i in range(count):
                data = vector_items(raw, deref(raw, start + 4 * i), 0)
                found[name].append(data if data else (None, 0))
    return found


def alignment(offset):
    return offset & -offset if offset else 0


def print_layout(pte):
    for name, ranges in layout(pte).items():
        for index, (start, size) in enumerate(ranges):
            if size:
                print("%s %d offset %d size %d align %d" %
                      (name, index, start, size, alignment(start)))


def main():
    flatc, schema, pte = sys.argv[1:4]
    if "--layout" in sys.argv[4:]:
        print_layout(pte)
        return
    data = decode(flatc, schema, pte)
    if "--segments" in sys.argv[4:]:
        print_segments(data, pte)
    else:
        print(render(data))


if __name__ == "__main__":
    main()
