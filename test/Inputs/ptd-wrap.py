#!/usr/bin/env python3
# ptd-wrap.py IN OUT SEGMENT_DATA_SIZE [HEADER_REGION]
#
# Turns a FlatTensor built by `flatc --binary` into a .ptd laid out as
# ExecuTorch's serializer lays it out: the FH01 header inserted after byte 8
# (a HEADER_REGION-byte region, 48 by default), zeros up to a 128-aligned
# segment base, then SEGMENT_DATA_SIZE bytes of segment data whose byte at
# offset i is i % 251, so that tests can write any segment and key table
# they want in JSON and segments at different offsets differ.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import struct
import sys

source, target, data_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
region = int(sys.argv[4]) if len(sys.argv) > 4 else 48
with open(source, "rb") as f:
    flatbuffer = f.read()
end = region + len(flatbuffer)
base = (end + 127) // 128 * 128
root = struct.unpack_from("<I", flatbuffer, 0)[0] + region
with open(target, "wb") as out:
    out.write(struct.pack("<I", root) + flatbuffer[4:8])
    out.write(b"FH01" + struct.pack("<IQQQQ", 40, region, len(flatbuffer),
                                    base, data_size))
    out.write(bytes(region - 40))
    out.write(flatbuffer[8:])
    out.write(bytes(base - end))
    out.write(bytes(i % 251 for i in range(data_size)))
