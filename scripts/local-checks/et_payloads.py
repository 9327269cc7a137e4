#!/usr/bin/env python3
# ===- et_payloads.py - Decoded payloads against what their writer got --=== #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# XNNPACK payloads written by ExecuTorch's own serializer
# (serialize_xnnpack_binary, through ../shared/tools/et-python), each in a
# program as a real export stores it, opened by emit-graph; what emit
# decodes is compared with what the serializer was given: the operators in
# order with their output ids and debug handles, every value's dtype, shape,
# kind of quantization, constant bytes and named key, and the payload's
# parts (header, graph, constants) with the header's own figures. Every
# node class the serializer's schema defines is written, its fields filled
# from their names, independently of emit's decoder.
#
#   PYTHONPATH=~/.cache/et-python python3 et_payloads.py BUILD/bin/emit-graph
#
# Prints a table, one row per payload; exits 1 on any difference.
# ===----------------------------------------------------------------------=== #

import dataclasses
import json
import os
import struct
import subprocess
import sys
import tempfile
import typing

from executorch.backends.xnnpack.serialization import xnnpack_graph_schema as xs
from executorch.backends.xnnpack.serialization.xnnpack_graph_serialize import (
    serialize_xnnpack_binary)
from executorch.exir._serialize._program import PTEFile, serialize_pte_binary
from executorch.exir.scalar_type import ScalarType
from executorch.exir import schema as es

NONE = 2**32 - 1


def node_classes():
    return list(typing.get_args(xs.XNodeUnion))


def fill(cls, tag):
    """An instance of the node class `cls`: inputs 0.., outputs 7 (and 6),
    bias none, other ints from the tag, floats, lists of two."""
    values = {}
    for field in dataclasses.fields(cls):
        name = field.name
        if name.startswith("output") and name.endswith("_id"):
            values[name] = 6 if "value" in name else 7
        elif name == "bias_id":
            values[name] = NONE
        elif name.endswith("_id"):
            values[name] = len([v for v in values if v.endswith("_id")]) % 6
        elif field.type in (float, "float"):
            values[name] = 0.25 * (tag + 1)
        elif "List" in str(field.type):
            values[name] = [1, 2]
        else:
            values[name] = tag % 5 + 1
    return cls(**values)


def tensor(dtype, dims, id_out, constant=0, flags=0, external=0):
    return xs.XNNTensorValue(dtype, len(dims), list(dims), constant, external,
                             flags, id_out)


def values():
    D = xs.XNNDatatype
    quant = [
        ("per_tensor", xs.PerTensorQuant(0.5, 3)),
        ("per_channel", xs.PerChannelQuant([0.5] * 8, 0, 0, 8)),
        ("per_channel_group",
         xs.PerChannelGroupQuant([0.25] * 16, 0, 2, None, 0, 16)),
        ("per_token_dynamic", xs.PerTokenDynamicQuant(1)),
    ]
    out = [xs.XValue(tensor(D.xnn_datatype_fp32, [1, 4], 0, flags=1)),
           xs.XValue(tensor(D.xnn_datatype_fp32, [1, 4], 1, flags=1,
                            external=1))]
    dtypes = [D.xnn_datatype_qint8, D.xnn_datatype_qcint8,
              D.xnn_datatype_qbint4, D.xnn_datatype_qdint8]
    for i, ((_, params), dtype) in enumerate(zip(quant, dtypes)):
        constant = {1: 1, 2: 2}.get(i, 0)
        out.append(xs.XValue(xs.XNNQuantizedTensorValue(
            tensor(dtype, [8, 4], 2 + i, constant=constant), params)))
    out.append(xs.XValue(tensor(D.xnn_datatype_fp16, [8], 6)))
    out.append(xs.XValue(tensor(D.xnn_datatype_fp32, [1, 4], 7, flags=2,
                                external=2)))
    return out, [q for q, _ in quant]


def graph(named):
    vals, _ = values()
    nodes = [xs.XNode(fill(cls, tag), tag + 1)
             for tag, cls in enumerate(node_classes())]
    constants = [xs.ConstantDataOffset(0, 0), xs.ConstantDataOffset(0, 64)]
    if named:
        constants.append(xs.ConstantDataOffset(2**64 - 1, 96, "weight.w2"))
    else:
        constants.append(xs.ConstantDataOffset(64, 96))
    return xs.XNNGraph("1", nodes, vals, 3, [0, 1], [7], constants)


def program(payload):
    def planned(offset):
        return es.EValue(es.Tensor(
            scalar_type=ScalarType.FLOAT, storage_offset=0, sizes=[1, 4],
            dim_order=[0, 1], requires_grad=False, layout=0,
            data_buffer_idx=0,
            shape_dynamism=es.TensorShapeDynamism.STATIC,
            allocation_info=es.AllocationDetails(
                memory_id=1, memory_offset_low=offset,
                memory_offset_high=0)))
    call = es.Instruction(es.DelegateCall(delegate_index=0, args=[0, 1, 2]))
    plan = es.ExecutionPlan(
        name="forward", container_meta_type=es.ContainerMetadata("", ""),
        values=[planned(0), planned(16), planned(32)], inputs=[0, 1],
        outputs=[2],
        chains=[es.Chain(inputs=[0, 1], outputs=[2], instructions=[call],
                         stacktrace=None)],
        operators=[], non_const_buffer_sizes=[0, 48],
        delegates=[es.BackendDelegate(
            id="XnnpackBackend", compile_specs=[],
            processed=es.BackendDelegateDataReference(
                es.DataLocation.INLINE, 0))])
    prog = es.Program(
        version=0, execution_plan=[plan],
        constant_buffer=[es.Buffer(storage=b"")],
        backend_delegate_data=[es.BackendDelegateInlineData(data=payload)],
        segments=[],
        constant_segment=es.SubsegmentOffsets(segment_index=0, offsets=[]))
    return bytes(serialize_pte_binary(PTEFile(program=prog),
                                      extract_delegate_segments=True))


def expected(xgraph, payload, constant_bytes):
    """What the serializer was given, in emit-graph's terms."""
    _, quant = values()
    ops = [type(n.xnode_union).__name__[3:] for n in xgraph.xnodes]
    outs = [[getattr(n.xnode_union, f.name)
             for f in dataclasses.fields(n.xnode_union)
             if f.name.startswith("output") and f.name.endswith("_id")]
            for n in xgraph.xnodes]
    vals = []
    for i, v in enumerate(xgraph.xvalues):
        t = v.xvalue_union
        q = None
        if isinstance(t, xs.XNNQuantizedTensorValue):
            q = quant[i - 2]
            t = t.tensor_value
        size, key = None, None
        if t.constant_buffer_idx:
            entry = xgraph.constant_data[t.constant_buffer_idx]
            size = entry.size
            # Given as "" for a constant in the payload: the serializer
            # writes it, and the runtime takes a present key as a name.
            key = entry.named_key
        vals.append((t.id_out, t.datatype.name[len("xnn_datatype_"):],
                     t.dims, q, size, key))
    graph_at, graph_size, const_at, const_size = struct.unpack_from(
        "<IIIQ", payload, 10)
    return {"ops": ops, "outputs": outs,
            "handles": [n.debug_handle for n in xgraph.xnodes],
            "values": vals,
            "parts": {"header": 30, "graph": graph_size,
                      "constants": const_size},
            "constants_given": constant_bytes,
            "empty_keys": sum(1 for v in vals if v[5] == "")}


def decoded(tool, path):
    out = json.loads(subprocess.run([tool, "--format=json", path],
                                    capture_output=True, check=True).stdout)
    node = next(n for n in out["methods"][0]["nodes"]
                if n["kind"] == "delegate")
    d = node["delegate"]
    g = d["graph"]
    parts = {}
    for r in d["payload"]["regions"]:
        parts[r["name"]] = parts.get(r["name"], 0) + r["bytes"]
    return {"ops": [n["op"] for n in g["nodes"]],
            "outputs": [n["outputs"] for n in g["nodes"]],
            "handles": [int(n["attrs"]["debug_handle"]) for n in g["nodes"]],
            "values": [(v["id"], v["dtype"], v["shape"],
                        v["quant"].split()[0] if v["quant"] else None,
                        v["constant_bytes"], v["named_key"])
                       for v in g["values"]],
            "parts": {k: parts.get(k, 0)
                      for k in ("header", "graph", "constants")},
            "problems": node.get("problems", [])}


def main():
    tool = sys.argv[1]
    rows, failed = [], False
    with tempfile.TemporaryDirectory() as work:
        for named in (False, True):
            constant_bytes = bytearray(range(64)) + (b"" if named
                                                     else bytearray(96))
            xgraph = graph(named)
            payload = serialize_xnnpack_binary(xgraph, constant_bytes)
            want = expected(xgraph, payload, len(constant_bytes))
            path = os.path.join(work, "p%d.pte" % named)
            with open(path, "wb") as f:
                f.write(program(payload))
            got = decoded(tool, path)
            # The one problem expected: each constant given the empty key.
            expected_problems = [p for p in got["problems"]
                                 if "empty named key" in p]
            same = (all(got[k] == want[k]
                        for k in ("ops", "outputs", "handles", "values",
                                  "parts")) and
                    len(expected_problems) == want["empty_keys"] ==
                    len(got["problems"]))
            if not same:
                failed = True
                for k in ("ops", "outputs", "handles", "values", "parts"):
                    if got[k] != want[k]:
                        print("DIFF %s: %s\n  emit: %s\n  given: %s" % (
                            "named" if named else "inline", k, got[k],
                            want[k]))
                for p in got["problems"]:
                    print("PROBLEM %s" % p)
            rows.append((("by named key" if named else "inline"),
                         len(payload), len(got["ops"]), len(got["values"]),
                         got["parts"], len(got["problems"]),
                         "same" if same else "DIFFERS"))
    print("| constants | payload B | xnodes | xvalues | parts | "
          "empty-key problems | result |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| %s | %d | %d | %d | %s | %d | %s |" % row)
    sys.exit(1 if failed else 0)


main()
