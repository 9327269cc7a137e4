#!/usr/bin/env python3
# gen_pte.py - write synthetic ExecuTorch programs for benchmarks and scale
# tests.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Writes a .pte as an exporter that does not deduplicate would: one segment
# per delegate call. Call g (counting across methods) uses payload
# FIRST + g % UNIQUE, so UNIQUE < total calls makes duplicates, within and
# across methods, and programs written with different --first-payload hold
# different payloads. Every call has its own compile specs. --named-data N
# adds N named data entries "weight.<i>" in segments of their own, the same
# content in every program written with the same sizes, as the weights of
# programs exported separately from one model. The flatbuffer is built by flatc from JSON
# against the project's schema; the header and segments are written here.
#
#   gen_pte.py OUT.pte --methods 2 --calls 32 --payload-size 64M --unique 32
#   gen_pte.py decode.pte --method-names decode --calls 32 --unique 32 \
#       --first-payload 100 --named-data 32 --named-data-size 64M
#
# --sparse leaves payloads as holes (zeros) except 16 distinct bytes at each
# end, so multi-GiB programs cost little disk and no time to generate.
# --xnnpack-xnodes N makes every call payload an XNNPACK one (header and a
# graph of N operators, xnnpack_payload.py), its constant data the rest.

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

SEGMENT_ALIGNMENT = 128
# Named datum i holds payload WEIGHT_BASE + i: distinct from call payloads.
WEIGHT_BASE = 1 << 20


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1].upper() in units:
        return int(float(text[:-1]) * units[text[-1].upper()])
    return int(text)


def align(value, alignment):
    return (value + alignment - 1) // alignment * alignment


def marker(payload, end):
    return struct.pack("<QQ", 0xE317_0000_0000 + payload, end)


def payload_bytes(payload, size):
    """Dense content: distinct per payload, cheap to build."""
    block = struct.pack("<Q", payload) * 8 + bytes(range(64))
    block = (block * (4096 // len(block) + 1))[:4096]
    data = bytearray(block * (size // 4096 + 1))[:size]
    data[:16] = marker(payload, 0)[:min(16, size)]
    return bytes(data)


def build_json(args, segments, method_names):
    calls_total = args.methods * args.calls
    plans = []
    for m, name in enumerate(method_names):
        delegates, instructions = [], []
        for c in range(args.calls):
            g = m * args.calls + c
            specs = [{"key": "call", "value": list(struct.pack("<I", g))}]
            specs += [{"key": "spec%d" % k, "value": [k, m, c & 0xFF]}
                      for k in range(1, args.specs)]
            delegates.append({
                "id": args.backends[g % len(args.backends)],
                "processed": {"location": "SEGMENT", "index": 1 + g},
                "compile_specs": specs,
            })
            instructions.append({
                "instr_args_type": "DelegateCall",
                "instr_args": {"delegate_index": c, "args": [0, 1]},
            })
        # The input and the output, each on its own bytes: a sound plan.
        tensors = [{"scalar_type": "FLOAT", "sizes": [16], "dim_order": [0],
                    "allocation_info": {"memory_id": 1,
                                        "memory_offset_low": offset}}
                   for offset in (0, 64)]
        plans.append({
            "name": name,
            "values": [{"val_type": "Tensor", "val": tensor}
                       for tensor in tensors],
            "inputs": [0], "outputs": [1],
            "chains": [{"inputs": [0], "outputs": [1],
                        "instructions": instructions}],
            "operators": [], "delegates": delegates,
            "non_const_buffer_sizes": [0, 128],
        })
    assert len(segments) == calls_total + args.named_data + 1
    named = [{"key": "weight.%d" % i, "segment_index": 1 + calls_total + i}
             for i in range(args.named_data)]
    return {
        "version": 0,
        "execution_plan": plans,
        "constant_buffer": [], "backend_delegate_data": [],
        "segments": [{"offset": o, "size": s} for o, s in segments],
        "constant_segment": {"segment_index": 0, "offsets": [0]},
        "named_data": named,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("output")
    parser.add_argument("--methods", type=int, default=2)
    parser.add_argument("--calls", type=int, default=4,
                        help="delegate calls per method")
    parser.add_argument("--payload-size", type=parse_size, default=4096)
    parser.add_argument("--unique", type=int, default=0,
                        help="distinct payloads (default: one per call)")
    parser.add_argument("--specs", type=int, default=1,
                        help="compile specs per call")
    parser.add_argument("--backends", default="QnnBackend",
                        help="comma-separated backend ids, used in turn")
    parser.add_argument("--method-names", default="",
                        help="comma-separated method names")
    parser.add_argument("--first-payload", type=int, default=0,
                        help="number of the first call payload")
    parser.add_argument("--named-data", type=int, default=0,
                        help="named data entries, each in a segment")
    parser.add_argument("--named-data-size", type=parse_size, default=4096)
    parser.add_argument("--sparse", action="store_true")
    parser.add_argument("--xnnpack-xnodes", type=int, default=0,
                        help="call payloads are XNNPACK graphs of this many "
                             "operators")
    parser.add_argument("--flatc", default="flatc")
    parser.add_argument("--schema", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "schema",
        "program.fbs"))
    args = parser.parse_args()
    args.backends = args.backends.split(",")
    calls_total = args.methods * args.calls
    unique = args.unique or calls_total
    names = (args.method_names.split(",") if args.method_names else
             ["method_%d" % m for m in range(args.methods)])

    # Segment 0: the empty constant segment; then one segment per call, then
    # one per named datum. contents[s] is segment 1 + s's payload number.
    segments, end = [(0, 0)], 0
    contents = [args.first_payload + g % unique for g in range(calls_total)]
    contents += [WEIGHT_BASE + i for i in range(args.named_data)]
    sizes = [args.payload_size] * calls_total
    sizes += [args.named_data_size] * args.named_data
    for size in sizes:
        offset = align(end, SEGMENT_ALIGNMENT)
        segments.append((offset, size))
        end = offset + size

    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "program.json")
        with open(source, "w") as f:
            json.dump(build_json(args, segments, names), f)
        subprocess.run([args.flatc, "--binary", "-o", work, args.schema,
                        source], check=True)
        with open(os.path.join(work, "program.pte"), "rb") as f:
            flatbuffer = f.read()

    header_region = 32
    program_size = header_region + len(flatbuffer)
    base = align(program_size, SEGMENT_ALIGNMENT)
    root = struct.unpack_from("<I", flatbuffer, 0)[0] + header_region
    front = b""
    if args.xnnpack_xnodes:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import xnnpack_payload
        front = xnnpack_payload.front(
            args.xnnpack_xnodes, args.payload_size, args.flatc,
            os.path.join(os.path.dirname(args.schema), "xnnpack.fbs"))
    with open(args.output, "wb") as out:
        out.write(struct.pack("<I", root) + flatbuffer[4:8])
        out.write(b"eh00" + struct.pack("<IQQQ", 32, program_size, base, end))
        out.write(flatbuffer[8:])
        out.write(bytes(base - program_size))
        cache = {}
        for s, payload in enumerate(contents):
            offset, size = segments[1 + s]
            if s < calls_total and front:
                out.seek(base + offset)
                out.write(front)
                offset, size = offset + len(front), size - len(front)
            out.seek(base + offset)
            if args.sparse:
                out.write(marker(payload, 0)[:size])
                if size > 32:
                    out.seek(base + offset + size - 16)
                    out.write(marker(payload, 1))
            else:
                if (payload, size) not in cache:
                    cache = {(payload, size): payload_bytes(payload, size)}
                out.write(cache[(payload, size)])
        out.truncate(base + end)
    print("%s: %d methods, %d calls, %d unique payloads of %d bytes; "
          "%d payload bytes referenced, %d unique; %d named data of %d bytes" %
          (args.output, args.methods, calls_total, unique, args.payload_size,
           calls_total * args.payload_size, unique * args.payload_size,
           args.named_data, args.named_data_size))


if __name__ == "__main__":
    sys.exit(main())
