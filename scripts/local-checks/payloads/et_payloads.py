#!/usr/bin/env python3
# ===- et_payloads.py - Decoded payloads against what their writer got --=== #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# XNNPACK and Vulkan payloads written by ExecuTorch's own serializers
# (serialize_xnnpack_binary, serialize_vulkan_graph, through
# ../shared/tools/et-python), each in a program as a real export stores it,
# opened by emit-graph; what emit decodes is compared with what the
# serializer was given: the operators in order with their operands (and
# XNNPACK's debug handles), every value's dtype, shape, kind of
# quantization, constant bytes and named key, and the payload's parts
# (header, graph, constants) with the header's own figures. Every XNNPACK
# node class the serializer's schema defines is written, its fields filled
# from their names, and every kind of Vulkan value, independently of emit's
# decoders.
#
#   PYTHONPATH=~/.cache/et-python python3 et_payloads.py BUILD/bin/emit-graph
#
# Prints a table, one row per payload; exits 1 on any difference.
# ===----------------------------------------------------------------------=== #

import ctypes
import dataclasses
import json
import os
import struct
import subprocess
import sys
import tempfile
import typing

import torch
from executorch.backends.vulkan.serialization import vulkan_graph_schema as vs
from executorch.backends.vulkan.serialization.vulkan_graph_serialize import (
    serialize_vulkan_graph)
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


def program(payload, backend="XnnpackBackend"):
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
            id=backend, compile_specs=[],
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


def delegate_node(tool, path):
    out = json.loads(subprocess.run([tool, "--format=json", path],
                                    capture_output=True, check=True).stdout)
    node = next(n for n in out["methods"][0]["nodes"]
                if n["kind"] == "delegate")
    return node, node["delegate"]


def parts_of(d):
    parts = {}
    for r in d["payload"]["regions"]:
        parts[r["name"]] = parts.get(r["name"], 0) + r["bytes"]
    return {k: parts.get(k, 0) for k in ("header", "graph", "constants")}


def decoded(tool, path):
    node, d = delegate_node(tool, path)
    g = d["graph"]
    return {"ops": [n["op"] for n in g["nodes"]],
            "outputs": [n["outputs"] for n in g["nodes"]],
            "handles": [int(n["attrs"]["debug_handle"]) for n in g["nodes"]],
            "values": [(v["id"], v["dtype"], v["shape"],
                        v["quant"].split()[0] if v["quant"] else None,
                        v["constant_bytes"], v["named_key"])
                       for v in g["values"]],
            "parts": parts_of(d),
            "problems": node.get("problems", [])}


class ConstantTensor(torch.Tensor):
    """What serialize_constant_tensors reads of a tensor: its storage."""

    def __init__(self, data):
        self.buffer = ctypes.create_string_buffer(bytes(data), len(data))

    def numel(self):
        return len(self.buffer)

    def untyped_storage(self):
        buffer = self.buffer

        class Storage:
            def nbytes(self):
                return len(buffer)

            def data_ptr(self):
                return ctypes.addressof(buffer)
        return Storage()


def vulkan_graph():
    """Every kind of value; calls reading tensors, scalars and lists, one
    whose result is a list; constants in the payload, by named key, empty."""
    T = vs.VkDataType
    tensor = lambda dtype, dims, constant=-1: vs.VkValue(
        vs.VkTensor(dtype, dims, constant, -1))
    values = [
        tensor(T.FLOAT32, [1, 4]), tensor(T.FLOAT32, [2, 3], 0),
        vs.VkValue(vs.Int(1)), vs.VkValue(vs.IntList([1, 1])),
        tensor(T.FLOAT32, [1, 4]), vs.VkValue(vs.Null()),
        vs.VkValue(vs.Double(0.5)), vs.VkValue(vs.Bool(True)),
        vs.VkValue(vs.String("same")), vs.VkValue(vs.DoubleList([0.25])),
        vs.VkValue(vs.BoolList([True, False])), vs.VkValue(vs.SymInt(3)),
        vs.VkValue(vs.ValueList([4, 13])), tensor(T.FLOAT16, [2, 2]),
        tensor(T.INT8, [8], 1), tensor(T.INT64, [0], 2),
    ]
    chain = [
        vs.OperatorCall(5, "aten.add.Tensor", [0, 1, 2, 4]),
        vs.OperatorCall(6, "aten.split_with_sizes_copy.default",
                        [0, 14, 15, 5, 3, 6, 7, 8, 9, 10, 11, 12]),
    ]
    graph = vs.VkGraph("0", chain, values, [0], [4, 13], [], [])
    constants = [ConstantTensor(range(24)), ("weight.w8", 8), None]
    return graph, constants


def vulkan_expected(vgraph, payload):
    def operands(ids):
        out = []
        for i in ids:
            v = vgraph.values[i].value
            if isinstance(v, vs.VkTensor):
                out.append(i)
            elif isinstance(v, vs.ValueList):
                out.extend(v.items)
        return out
    vals = []
    for i, v in enumerate(vgraph.values):
        t = v.value
        if not isinstance(t, vs.VkTensor):
            continue
        size, key = None, None
        if t.constant_id >= 0:
            c = vgraph.constants[t.constant_id]
            size = c.length
            key = c.named_key if c.offset == 2**64 - 1 else None
        vals.append((i, t.datatype.name, list(t.dims), size, key,
                     vgraph.input_ids.index(i) if i in vgraph.input_ids
                     else None,
                     vgraph.output_ids.index(i) if i in vgraph.output_ids
                     else None))
    _, graph_size, _, const_size = struct.unpack_from("<IIIQ", payload, 10)
    # The serializer places an empty constant at the end of the constant
    # data, where VulkanBackend.cpp (offset < constant data size) refuses
    # it: the one problem expected.
    refused = sum(1 for c in vgraph.constants
                  if c.offset != 2**64 - 1 and c.offset >= const_size)
    return {"ops": [c.name for c in vgraph.chain],
            "inputs": [operands(c.args[:-1]) for c in vgraph.chain],
            "outputs": [operands(c.args[-1:]) for c in vgraph.chain],
            "values": vals,
            "parts": {"header": 30, "graph": graph_size,
                      "constants": const_size},
            "refused": refused}


def vulkan_decoded(tool, path):
    node, d = delegate_node(tool, path)
    g = d["graph"]
    return {"ops": [n["op"] for n in g["nodes"]],
            "inputs": [n["inputs"] for n in g["nodes"]],
            "outputs": [n["outputs"] for n in g["nodes"]],
            "values": [(v["id"], v["dtype"], v["shape"], v["constant_bytes"],
                        v["named_key"], v["external_input"],
                        v["external_output"]) for v in g["values"]],
            "parts": parts_of(d),
            "problems": node.get("problems", [])}


def vulkan_row(tool, work):
    vgraph, constants = vulkan_graph()
    payload = serialize_vulkan_graph(vgraph, constants, [])
    want = vulkan_expected(vgraph, payload)
    path = os.path.join(work, "vulkan.pte")
    with open(path, "wb") as f:
        f.write(program(payload, "VulkanBackend"))
    got = vulkan_decoded(tool, path)
    keys = ("ops", "inputs", "outputs", "values", "parts")
    refused = [p for p in got["problems"] if "does not fit" in p]
    same = (all(got[k] == want[k] for k in keys) and
            len(refused) == want["refused"] == len(got["problems"]))
    for k in keys:
        if got[k] != want[k]:
            print("DIFF vulkan %s:\n  emit: %s\n  given: %s" % (
                k, got[k], want[k]))
    if not same:
        for p in got["problems"]:
            print("PROBLEM %s" % p)
    return same, ("Vulkan", "inline, by named key, empty", len(payload),
                  len(got["ops"]), len(got["values"]), got["parts"],
                  len(got["problems"]), "same" if same else "DIFFERS")


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
            rows.append(("XNNPACK", ("by named key" if named else "inline"),
                         len(payload), len(got["ops"]), len(got["values"]),
                         got["parts"], len(got["problems"]),
                         "same" if same else "DIFFERS"))
        same, row = vulkan_row(tool, work)
        failed |= not same
        rows.append(row)
    print("| backend | constants | payload B | nodes | values | parts | "
          "problems | result |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| %s | %s | %d | %d | %d | %s | %d | %s |" % row)
    sys.exit(1 if failed else 0)


main()
