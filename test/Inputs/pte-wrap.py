#!/usr/bin/env python3
# pte-wrap.py IN OUT SEGMENT_DATA_SIZE
#
# Turns a header-less program built by `flatc --binary` into a .pte with an
# extended header and SEGMENT_DATA_SIZE bytes of segment data (0xAB), so that
# tests can write any segment table they want in JSON.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import struct
import sys

source, target, data_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(source, "rb") as f:
    flatbuffer = f.read()
program_size = 32 + len(flatbuffer)
base = (program_size + 127) // 128 * 128
root = struct.unpack_from("<I", flatbuffer, 0)[0] + 32
with open(target, "wb") as out:
    out.write(struct.pack("<I", root) + flatbuffer[4:8])
    out.write(b"eh00" + struct.pack("<IQQQ", 32, program_size, base, data_size))
    out.write(flatbuffer[8:])
    out.write(bytes(base - program_size))
    out.write(b"\xab" * data_size)
