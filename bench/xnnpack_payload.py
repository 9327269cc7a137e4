# xnnpack_payload.py - the front of a synthetic XNNPACK delegate payload.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# A payload as XNNPACK's serializer lays one out: the 30-byte XH00 header,
# an XN01 graph (written by flatc from schema/xnnpack.fbs) and the constant
# data after it. The graph is a chain of XNODES operators shaped like a
# quantized linear model: fully connected layers with per-channel int8
# weights, each followed by an add of a per-tensor-quantized bias, the
# weights' bytes filling the constant data. gen_pte.py puts this front on
# every payload and writes the constant bytes itself (distinct per payload).

import json
import os
import struct
import subprocess
import tempfile

HEADER = 30
GRAPH_AT = 32
CHANNELS = 64


def _tensor(id_out, dtype="fp32", dims=(1, CHANNELS), constant=0, flags=0,
            external=0):
    return {"datatype": dtype, "num_dims": len(dims), "dims": list(dims),
            "constant_buffer_idx": constant, "external_id": external,
            "flags": flags, "id_out": id_out}


def _graph(xnodes, constant_bytes):
    """The graph of `xnodes` operators whose weights fill `constant_bytes`."""
    layers = (xnodes + 1) // 2
    weight = constant_bytes // layers // 64 * 64
    columns = max(weight // CHANNELS, 1)
    values = [{"xvalue_union_type": "XNNTensorValue",
               "xvalue_union": _tensor(0, flags=1)}]
    nodes, constants = [], [{"offset": 0, "size": 0}]
    current = 0
    for layer in range(layers):
        weights, out = len(values), len(values) + 1
        constants.append({"offset": layer * weight, "size": weight})
        values.append({"xvalue_union_type": "XNNQuantizedTensorValue",
                       "xvalue_union": {
                           "tensor_value": _tensor(weights, "qcint8",
                                                   (CHANNELS, columns),
                                                   constant=layer + 1),
                           "quant_params_type": "PerChannelQuant",
                           "quant_params": {"scale": [0.01] * CHANNELS,
                                            "channel_dim": 0}}})
        values.append({"xvalue_union_type": "XNNTensorValue",
                       "xvalue_union": _tensor(out)})
        nodes.append({"xnode_union_type": "XNNFullyConnected",
                      "xnode_union": {"input1_id": current,
                                      "filter_id": weights,
                                      "bias_id": 2**32 - 1,
                                      "output_id": out},
                      "debug_handle": len(nodes) + 1})
        current = out
        if len(nodes) < xnodes:
            added = len(values)
            values.append({"xvalue_union_type": "XNNTensorValue",
                           "xvalue_union": _tensor(added)})
            nodes.append({"xnode_union_type": "XNNAdd",
                          "xnode_union": {"input1_id": current,
                                          "input2_id": 0,
                                          "output_id": added},
                          "debug_handle": len(nodes) + 1})
            current = added
    values[current]["xvalue_union"]["flags"] = 2
    values[current]["xvalue_union"]["external_id"] = 1
    return {"version": "1", "xnodes": nodes, "xvalues": values,
            "num_externs": 2, "input_ids": [0], "output_ids": [current],
            "constant_data": constants}, layers * weight


def front(xnodes, payload_size, flatc, schema):
    """The header and graph of a payload of `payload_size` bytes whose graph
    has `xnodes` operators, padded to 16; the constant data follows it."""
    # The graph's size decides the constants' room: lay it out twice.
    room = payload_size
    for _ in range(3):
        graph, used = _graph(xnodes, room)
        with tempfile.TemporaryDirectory() as work:
            source = os.path.join(work, "graph.json")
            with open(source, "w") as out:
                json.dump(graph, out)
            subprocess.run([flatc, "--binary", "-o", work, schema, source],
                           check=True)
            with open(os.path.join(work, "graph.bin"), "rb") as data:
                flatbuffer = data.read()
        flatbuffer += bytes(-len(flatbuffer) % 16)
        constants_at = GRAPH_AT + len(flatbuffer)
        room = payload_size - constants_at
        if used <= room:
            break
    assert used <= room, (xnodes, payload_size)
    header = (b"\0" * 4 + b"XH00" + struct.pack("<H", HEADER) +
              struct.pack("<II", GRAPH_AT, len(flatbuffer)) +
              struct.pack("<IQ", constants_at, room))
    return header + bytes(GRAPH_AT - HEADER) + flatbuffer
