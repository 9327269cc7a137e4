#!/usr/bin/env python3
# ===- coreml_programs.py - Core ML ML programs, decoded -----------------=== #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# A Core ML delegate payload's .mlpackage holds its model as a Core ML Model
# protobuf, which coremltools writes through the message classes protoc
# generates from its mlmodel/format/*.proto (Model.proto, MIL.proto). This
# generates those classes from a coremltools snapshot, builds an ML program
# with them as coremltools' MIL backend lays one out (a function `main` of
# opset CoreML7: a weight const in the package's weight file, a conv with
# immediate arguments, a relu, a reshape to an immediate shape, a concat of
# two values, a cond whose two blocks each hold an op, a second function),
# packs it in an in-memory file tree as ExecuTorch's CoreMLBackend payload
# does, and checks what emit-graph decodes against what was built: each
# node's type, inputs, outputs and attributes, each value's data type and
# shape, each const's bytes, the functions' inputs and outputs.
#
#   python3 coreml_programs.py BUILD/bin/emit-graph COREMLTOOLS_GIT_DIR
#
# Needs protoc and python3-protobuf. Prints a table; exits 1 on any
# difference.
# ===----------------------------------------------------------------------=== #

import importlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile

from delegate_call import decode_call

EMIT_GRAPH, REPO = sys.argv[1:3]
FP16, FP32, INT32 = 10, 11, 23


def proto_modules(work):
    archive = subprocess.run(["git", "-C", REPO, "archive", "HEAD",
                              "mlmodel/format"], capture_output=True,
                             check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(work)
    formats = os.path.join(work, "mlmodel", "format")
    protos = [f for f in os.listdir(formats) if f.endswith(".proto")]
    subprocess.run(["protoc", "-I", formats, "--python_out", work] + protos,
                   check=True)
    sys.path.insert(0, work)
    return importlib.import_module("Model_pb2"), importlib.import_module(
        "MIL_pb2")


class Builder:
    """Builds MIL messages and what emit should say of them."""

    def __init__(self, mil):
        self.mil, self.values, self.nodes = mil, [], []
        self.ids = {}

    def tensor_type(self, dtype, dims):
        value_type = self.mil.ValueType()
        tensor = value_type.tensorType
        tensor.dataType, tensor.rank = dtype, len(dims)
        for dim in dims:
            if dim is None:
                tensor.dimensions.add().unknown.variadic = False
            else:
                tensor.dimensions.add().constant.size = dim
        return value_type

    def var(self, message, name, dtype, dims):
        message.name = name
        message.type.CopyFrom(self.tensor_type(dtype, dims))
        self.ids[name] = len(self.values)
        names = {FP16: "fp16", FP32: "fp32", INT32: "int32"}
        self.values.append([names[dtype], [d or 0 for d in dims], None])
        return self.ids[name]

    def ints(self, values):
        value = self.mil.Value()
        value.type.CopyFrom(self.tensor_type(INT32, [len(values)]))
        value.immediateValue.tensor.ints.values.extend(values)
        return value, ("[%s]" % ", ".join(map(str, values))
                       if len(values) != 1 else str(values[0]))

    def string(self, text):
        value = self.mil.Value()
        value.immediateValue.tensor.strings.values.append(text)
        return value, '"%s"' % text

    def op(self, block, kind, inputs, outputs, attributes=(), within=None,
           function=None):
        """inputs: (parameter, [name or (Value, text)]); outputs: (name,
        dtype, dims)."""
        op = block.operations.add()
        op.type = kind
        want = {"op": kind, "inputs": [], "outputs": [], "attrs": {}}
        self.nodes.append(want)
        for parameter, bindings in inputs:
            argument = op.inputs[parameter]
            texts = []
            for binding in bindings:
                if isinstance(binding, str):
                    argument.arguments.add().name = binding
                    want["inputs"].append(self.ids[binding])
                    texts.append("%%%d" % self.ids[binding])
                else:
                    argument.arguments.add().value.CopyFrom(binding[0])
                    texts.append(binding[1])
            if any(not t.startswith("%") for t in texts):
                want["attrs"][parameter] = texts[0] if len(texts) == 1 else \
                    "[%s]" % ", ".join(texts)
        for name, dtype, dims in outputs:
            want["outputs"].append(self.var(op.outputs.add(), name, dtype,
                                            dims))
        for name, (value, text) in attributes:
            op.attributes[name].CopyFrom(value)
            want["attrs"][name] = text
        if within:
            want["attrs"]["in"] = within
        if function:
            want["attrs"]["function"] = function
        return op


def build(model_pb, mil):
    b = Builder(mil)
    model = model_pb.Model()
    model.specificationVersion = 9
    program = model.mlProgram
    program.version = 1
    main = program.functions["main"]
    b.var(main.inputs.add(), "x", FP32, [1, 3, 8, 8])
    b.values[-1].append(("input", 0))
    main.opset = "CoreML7"
    block = main.block_specializations["CoreML7"]
    weight = mil.Value()
    weight.type.CopyFrom(b.tensor_type(FP16, [4, 3, 3, 3]))
    weight.blobFileValue.fileName = "@model_path/weights/weight.bin"
    weight.blobFileValue.offset = 64
    fn = "main"
    b.op(block, "const", [], [("w", FP16, [4, 3, 3, 3])],
         [("name", b.string("w")),
          ("val", (weight, "@model_path/weights/weight.bin @64"))],
         function=fn)
    b.values[-1][2] = 4 * 3 * 3 * 3 * 2
    b.op(block, "conv", [("x", ["x"]), ("weight", ["w"]),
                         ("strides", [b.ints([1, 1])]),
                         ("pad", [b.ints([1, 1, 1, 1])])],
         [("c", FP32, [1, 4, 8, 8])], [("name", b.string("conv_0"))],
         function=fn)
    b.op(block, "relu", [("x", ["c"])], [("r", FP32, [1, 4, 8, 8])],
         function=fn)
    b.op(block, "reshape", [("x", ["r"]), ("shape", [b.ints([1, -1])])],
         [("s", FP32, [1, None])], function=fn)
    b.op(block, "concat", [("values", ["s", "s"]), ("axis", [b.ints([1])])],
         [("k", FP32, [1, None])], function=fn)
    cond = b.op(block, "cond", [("pred", ["k"])], [("o", FP32, [1, 256])],
                function=fn)
    at = len(b.nodes) - 1
    for branch in ("then", "else"):
        inner = cond.blocks.add()
        b.op(inner, "identity", [("x", ["k"])],
             [("o_" + branch, FP32, [1, 256])],
             within="cond #%d" % at, function=fn)
        inner.outputs.append("o_" + branch)
    block.outputs.append("o")
    b.values[b.ids["o"]].append(("output", 0))
    # A second function: its own inputs and values.
    other = program.functions["other"]
    b.ids = {}
    b.var(other.inputs.add(), "y", FP32, [2])
    b.values[-1].append(("input", 0))  # a function's own inputs
    other.opset = "CoreML7"
    block = other.block_specializations["CoreML7"]
    b.op(block, "relu", [("x", ["y"])], [("z", FP32, [2])], function="other")
    block.outputs.append("z")
    b.values[-1].append(("output", 0))
    # Map entries in key order (`main` first), as emit reads them in the
    # file's order and protobuf leaves a map's order to the writer.
    return model.SerializeToString(deterministic=True), b.nodes, b.values


def tree(files):
    """inmemoryfs's flattening of `files` (a path to bytes): each file at a
    16-aligned offset, then the index JSON reversed."""
    data, nodes = bytearray(), []

    def add(name, item):
        if isinstance(item, bytes):
            data.extend(bytes(-len(data) % 16))
            nodes.append({"name": name, "kind": 0, "children": {},
                          "dataRegion": {"offset": len(data),
                                         "size": len(item)}})
            data.extend(item)
            return len(nodes) - 1
        children = {child: add(child, item[child]) for child in sorted(item)}
        nodes.append({"name": name, "kind": 1, "children": children,
                      "dataRegion": {"offset": 0, "size": 0}})
        return len(nodes) - 1

    add("root", files)
    index = json.dumps({"nodes": nodes}, separators=(",", ":"),
                       sort_keys=True).encode()
    return bytes(data) + bytes(-len(data) % 16) + index[::-1]


def compare(graph, nodes, values):
    differences = []
    if len(graph["nodes"]) != len(nodes):
        differences.append("%d nodes" % len(graph["nodes"]))
    for want, node in zip(nodes, graph["nodes"]):
        got = {"op": node["op"], "inputs": sorted(node["inputs"]),
               "outputs": node["outputs"], "attrs": node["attrs"]}
        expected = dict(want, inputs=sorted(want["inputs"]))
        if got != expected:
            differences.append("node %s: %s, built %s" % (node["id"], got,
                                                          expected))
    for want, value in zip(values, graph["values"]):
        dtype, shape, size = want[:3]
        place = want[3] if len(want) > 3 else None
        got_place = ("input", value["external_input"]) if value.get(
            "external_input") is not None else ("output", value[
                "external_output"]) if value.get(
                    "external_output") is not None else None
        if (value["dtype"], value["shape"], value["constant_bytes"],
                got_place) != (dtype, shape, size, place):
            differences.append("value %s: %s" % (value["id"], value))
    return differences


def main():
    with tempfile.TemporaryDirectory() as work:
        model_pb, mil = proto_modules(work)
        model, nodes, values = build(model_pb, mil)
        payload = tree({"metadata.json": b'{"identifier":"check"}',
                        "model.mlpackage": {
                            "Manifest.json": b"{}",
                            "Data": {"com.apple.CoreML": {
                                "model.mlmodel": model,
                                "weights": {"weight.bin": bytes(280)}}}}})
        node = decode_call(EMIT_GRAPH, work, "CoreMLBackend", payload)
    decoded = node["delegate"].get("graph")
    differences = compare(decoded, nodes, values) if decoded else ["no graph"]
    differences += node.get("problems", [])
    print("| model bytes | nodes built | values built | result |")
    print("|---|---|---|---|")
    print("| %d | %d | %d | %s |" % (
        len(model), len(nodes), len(values),
        "same" if not differences else "DIFFERS %s" % differences[:4]))
    sys.exit(1 if differences else 0)


main()
