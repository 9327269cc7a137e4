#!/usr/bin/env python3
"""Writes the MLIR of programs whose Vulkan payload takes its constant from
named data under the key 'w': the payload is the VK00 graph payloads.py
had flatc write (GRAPH_BIN) behind a VH00 header built here from the
documented layout; WITH_KEY.mlir also holds 'w' in the program's named
data, WITHOUT_KEY.mlir does not.

  payload-keys.py GRAPH_BIN WITH_KEY.mlir WITHOUT_KEY.mlir
"""
import struct
import sys

graph_bin, with_key, without_key = sys.argv[1:4]
with open(graph_bin, "rb") as f:
    graph = f.read()
graph += b"\0" * (-len(graph) % 16)
constants = bytes(range(16))
header = (b"\0" * 4 + b"VH00" + struct.pack("<H", 30) +
          struct.pack("<II", 32, len(graph)) +
          struct.pack("<IQ", 32 + len(graph), len(constants)))
payload = header + b"\0" * 2 + graph + constants


def dense(data):
    items = ", ".join(str(b - 256 if b > 127 else b) for b in data)
    return "dense<[%s]> : tensor<%dxi8>" % (items, len(data))


def program(named):
    lines = ["et.program @keys {",
             "  et.blob @vk align 16 segment = %s" % dense(payload)]
    if named:
        lines += ["  et.blob @w align 16 segment = %s" % dense(bytes(8)),
                  '  et.named_data "w" = @w']
    lines += [
        "  et.method @forward buffers [0, 32] {",
        "    %0 = et.tensor float [4] dim_order [0] mem(1, 0)",
        "    %1 = et.tensor float [4] dim_order [0] mem(1, 16)",
        '    %vk = et.delegate "VulkanBackend" @vk',
        "    et.chain inputs(%0) outputs(%1) {",
        "      et.call_delegate %vk (%0, %1)",
        "    }",
        "    et.signature inputs(%0) outputs(%1)",
        "  }",
        "}"]
    return "\n".join(lines) + "\n"


for path, named in ((with_key, True), (without_key, False)):
    with open(path, "w") as out:
        out.write(program(named))
