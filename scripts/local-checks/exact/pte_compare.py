#!/usr/bin/env python3
# ===- pte_compare.py - Compare two .pte files' decoded tables -----------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Decodes two .pte files with flatc against the project's schema and says
# whether they hold the same program: every table equal, apart from where
# segments sit (their offsets), with each segment's bytes equal. Prints the
# first differences and exits 1 when there are any.
#
#   pte_compare.py FLATC SCHEMA A.pte B.pte        (or two .ptd files)
#   pte_compare.py --tensor-data FLATC SCHEMA A.pte B.pte
#                  [--data-a A.ptd]... [--data-b B.ptd]... [--subset]
#
# With --tensor-data, compares instead the bytes every constant and mutable
# tensor reads (float tensors), wherever each file stores them: external
# tensors are read from the data file given for their program. With
# --subset, every tensor of A must read the same bytes in B (B may have
# more methods, as a linked program has).
# ===----------------------------------------------------------------------===#

import importlib.util
import math
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)


def decode(flatc, schema, pte):
    """The flatc decode, as the test suite's decoder makes it."""
    return load_pte_json().decode(flatc, schema, pte)


def segment_bytes(pte, table):
    with open(pte, "rb") as f:
        raw = f.read()
    if raw[4:8] == b"FT01":
        base = struct.unpack_from("<Q", raw, 32)[0]
    else:
        base = struct.unpack_from("<Q", raw, 24)[0] if raw[8:12] == b"eh00" \
            else 0
    return [raw[base + s.get("offset", 0):base + s.get("offset", 0) +
                s.get("size", 0)] for s in table]


def load_pte_json():
    """The test suite's decoder, test/Inputs/pte-json.py, as a module."""
    path = os.path.join(common.ROOT, "test", "Inputs", "pte-json.py")
    spec = importlib.util.spec_from_file_location("pte_json", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def alignments(pte):
    """The power of two each stored byte range starts at, by table."""
    pte_json = load_pte_json()
    return {table: [pte_json.alignment(start) if size else None
                    for start, size in ranges]
            for table, ranges in pte_json.layout(pte).items()}


def check_alignments(first, second, out):
    """Each table's alignment (the one every entry has) must hold in the
    second file. An entry that was more aligned than its table by chance
    may lose that; it is noted, not counted."""
    a, b = alignments(first), alignments(second)
    for kind in sorted(set(a) | set(b)):
        x = [v for v in a.get(kind, []) if v]
        y = [v for v in b.get(kind, []) if v]
        if x and y and min(y) < min(x):
            out.append("%s: %d-aligned, was %d-aligned" %
                       (kind, min(y), min(x)))
        for i, (p, q) in enumerate(zip(a.get(kind, []), b.get(kind, []))):
            if p and q and q < p:
                print("note: %s[%d] is %d-aligned, was %d-aligned (the "
                      "table's alignment is %d)" % (kind, i, q, p, min(x)))
    return a, b


def diff(a, b, path, out):
    if type(a) != type(b):
        out.append("%s: %r != %r" % (path, a, b))
    elif isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                out.append("%s.%s: only in %s" %
                           (path, key, "first" if key in a else "second"))
            else:
                diff(a[key], b[key], "%s.%s" % (path, key), out)
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append("%s: %d entries != %d" % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s[%d]" % (path, i), out)
    elif a != b:
        out.append("%s: %r != %r" % (path, a, b))


def named_data(flatc, schema, ptds):
    """The bytes of every key of the data files `ptds` (one path or a
    list)."""
    if isinstance(ptds, str):
        ptds = [ptds]
    schema = os.path.join(os.path.dirname(schema), "flat_tensor.fbs")
    keys = {}
    for ptd in ptds or []:
        data = decode(flatc, schema, ptd)
        segments = segment_bytes(ptd, data.get("segments", []))
        for entry in data.get("named_data", []):
            keys[entry["key"]] = segments[entry.get("segment_index", 0)]
    return keys


def tensor_data(flatc, schema, pte, ptd=None):
    """Each constant and mutable tensor's initial bytes, by (method, value
    index): what the runtime reads, wherever the file (or, for an external
    tensor, the data file `ptd`) stores it."""
    data = decode(flatc, schema, pte)
    segments = segment_bytes(pte, data.get("segments", []))
    constants = data.get("constant_segment", {})
    mutables = data.get("mutable_data_segments", [])
    keys = named_data(flatc, schema, ptd)
    found = {}
    for plan in data.get("execution_plan", []):
        for index, value in enumerate(plan.get("values", [])):
            tensor = value.get("val", {})
            entry = tensor.get("data_buffer_idx", 0)
            info = tensor.get("extra_tensor_info") or {}
            if value.get("val_type") != "Tensor":
                continue
            size = 4 * math.prod(tensor["sizes"])
            if info.get("location") == "EXTERNAL":
                if ptd:
                    name = info.get("fully_qualified_name")
                    found[(plan["name"], index)] = keys.get(name, b"")[:size]
                continue
            if not entry:
                continue
            table = mutables[info.get("mutable_data_segments_idx", 0)] \
                if tensor.get("allocation_info") else constants
            start = table["offsets"][entry]
            found[(plan["name"], index)] = \
                segments[table.get("segment_index", 0)][start:start + size]
    return found


def main():
    if sys.argv[1] == "--tensor-data":
        flatc, schema, first, second = sys.argv[2:6]
        options = sys.argv[6:]
        subset = "--subset" in options

        def option(name):
            # Repeatable: every data file given for that side.
            return [options[i + 1] for i, item in enumerate(options)
                    if item == name and i + 1 < len(options)]
        a = tensor_data(flatc, schema, first, option("--data-a"))
        b = tensor_data(flatc, schema, second, option("--data-b"))
        same = all(b.get(k) == v for k, v in a.items()) if subset else a == b
        print("%s: %d constant and mutable tensors read the same bytes" %
              ("equal" if same else "DIFFERENT", len(a)))
        sys.exit(0 if same else 1)
    flatc, schema, first, second = sys.argv[1:5]
    a, b = decode(flatc, schema, first), decode(flatc, schema, second)
    out = []
    sa, sb = a.get("segments", []), b.get("segments", [])
    if [s.get("size", 0) for s in sa] == [s.get("size", 0) for s in sb]:
        for i, (x, y) in enumerate(zip(segment_bytes(first, sa),
                                       segment_bytes(second, sb))):
            if x != y:
                out.append("segments[%d]: bytes differ" % i)
    for table in (sa, sb):
        for segment in table:
            segment.pop("offset", None)
    diff(a, b, "Program", out)
    check_alignments(first, second, out)
    for line in out[:20]:
        print(line)
    if len(out) > 20:
        print("... %d more" % (len(out) - 20))
    print("%s: %s" % ("equal" if not out else "DIFFERENT",
                      "apart from segment offsets" if not out else
                      "%d differences" % len(out)))
    sys.exit(1 if out else 0)


if __name__ == "__main__":
    main()
