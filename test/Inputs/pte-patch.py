#!/usr/bin/env python3
# pte-patch.py FILE EDIT...
#
# Overwrites little-endian fields of FILE in place, to make damaged .pte
# fixtures from good ones. Each EDIT is KIND@OFFSET=VALUE with KIND one of
# u8, u32, u64 or ascii, e.g. `u64@16=999999` or `ascii@4=BP08`. OFFSET may
# be negative (from the end).
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import struct
import sys

FORMATS = {"u8": "<B", "u32": "<I", "u64": "<Q"}


def main():
    path, edits = sys.argv[1], sys.argv[2:]
    with open(path, "rb") as f:
        data = bytearray(f.read())
    for edit in edits:
        kind, rest = edit.split("@", 1)
        offset, value = rest.split("=", 1)
        offset = int(offset, 0)
        if offset < 0:
            offset += len(data)
        if kind == "ascii":
            raw = value.encode("ascii")
        else:
            raw = struct.pack(FORMATS[kind], int(value, 0))
        data[offset:offset + len(raw)] = raw
    with open(path, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
