#!/usr/bin/env python3
# ===- et_mlx_payloads.py - MLX graphs of every release, decoded ---------=== #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# An MLX payload is an MLXGraph that ExecuTorch builds from dataclasses its
# generate.py writes from backends/mlx/serialization/schema.fbs and
# serializes with mlx_graph_serialize.py (the flatbuffers Python package,
# behind a 24-byte header). For each release tag of the ExecuTorch snapshot
# that has the backend, this extracts that release's serialization
# directory, runs its generator, builds a graph of every operator its union
# holds (each dataclass field filled by its type: tensors, value slots,
# literal-or-slot fields, numbers set off their defaults, lists, strings),
# serializes it with the release's own serializer, and checks what
# emit-graph decodes against what was given: each node's operator, its
# inputs and outputs, each attribute's text; each tensor's dtype, shape and
# named key.
#
#   PYTHONPATH=~/.cache/et-python /usr/bin/python3 et_mlx_payloads.py \
#       BUILD/bin/emit-graph EXECUTORCH_GIT_DIR
#
# Needs flatc and the flatbuffers Python package (Debian: python3-flatbuffers).
# Prints a table, one row per release; exits 1 on any difference.
# ===----------------------------------------------------------------------=== #

import dataclasses
import importlib
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import typing

from delegate_call import decode_call

EMIT_GRAPH, REPO = sys.argv[1:3]
TAGS = ["v1.2.0", "v1.3.0", "v1.3.1", "v1.4.0", "v1.4.1", "refs/heads/main"]
SERIALIZATION = "backends/mlx/serialization"
# ExecuTorch's ScalarType names, as emit prints them.
DTYPES = {6: "float", 15: "bfloat16", 4: "long", 3: "int"}
NUM_TENSORS = 40


def extract(tag, work):
    """The release's serialization directory under WORK/executorch, with
    generate.py run; false when the release has no MLX backend."""
    archive = subprocess.run(["git", "-C", REPO, "archive", tag, SERIALIZATION],
                             capture_output=True)
    if archive.returncode != 0:
        return False
    root = os.path.join(work, "executorch")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(root)
    for package in ("backends", "backends/mlx"):
        open(os.path.join(root, package, "__init__.py"), "a").close()
    os.makedirs(os.path.join(root, "backends/mlx/runtime"), exist_ok=True)
    subprocess.run([sys.executable, "generate.py", "--flatc", "flatc"],
                   cwd=os.path.join(root, SERIALIZATION), check=True,
                   capture_output=True)
    return True


def load(work):
    """The release's schema dataclasses and serializer, imported fresh:
    its backends/mlx beside et-python's executorch."""
    import executorch.backends
    for name in list(sys.modules):
        if name.startswith("executorch.backends.mlx"):
            del sys.modules[name]
    mlx = os.path.join(work, "executorch", "backends")
    executorch.backends.__path__ = [p for p in executorch.backends.__path__
                                    if not p.startswith(tempfile.gettempdir())]
    executorch.backends.__path__.append(mlx)
    schema = importlib.import_module(
        "executorch.backends.mlx.serialization.mlx_graph_schema")
    serialize = importlib.import_module(
        "executorch.backends.mlx.serialization.mlx_graph_serialize")
    return schema, serialize


def field_order(work):
    """Each table's fields in the release's schema.fbs order (the
    dataclasses put required fields first)."""
    with open(os.path.join(work, "executorch", SERIALIZATION,
                           "schema.fbs")) as f:
        text = re.sub(r"//[^\n]*", "", f.read())
    return {name: [field.split(":")[0].strip() for field in body.split(";")
                   if field.strip()]
            for name, body in re.findall(r"table\s+(\w+)\s*\{([^}]*)\}",
                                         text)}


class Filler:
    """Fills an operator's fields, and says what emit should print: its
    inputs, outputs and attributes. Tensors in are 1, 2, ..., tensors out
    20, 21, ...; the one value slot is value NUM_TENSORS."""

    def __init__(self, m):
        self.m, self.tensor, self.out = m, 1, 20
        self.inputs, self.outputs, self.attrs = [], [], []

    def slot(self, name, output):
        if output:
            self.out += 1
            self.outputs.append(self.out - 1)
            return self.m.Tid(self.out - 1)
        self.tensor += 1
        self.inputs.append(self.tensor - 1)
        return self.m.Tid(self.tensor - 1)

    def reference(self):
        if NUM_TENSORS not in self.inputs:
            self.inputs.append(NUM_TENSORS)
        return "%%%d" % NUM_TENSORS

    def value(self, name, kind, default):
        """The field's value and its text (None: not an attribute)."""
        m = self.m
        output = name in ("out", "outs", "outputs")
        if kind == "Tid":
            return self.slot(name, output), None
        if kind == "List[Tid]":
            if name == "sliced":
                return [m.Tid(3), m.Tid(4)], "[%3, %4]"
            items = [self.slot(name, output) for _ in range(2)]
            if name == "carry":
                self.outputs += [t.idx for t in items]
            return items, None
        if kind == "Vid":
            (self.outputs if output else self.inputs).append(NUM_TENSORS)
            return m.Vid(0), None
        if kind == "IntOrVid":
            return m.IntOrVid.from_literal(7), "7"
        if kind == "List[IntOrVid]":
            return ([m.IntOrVid.from_literal(2),
                     m.IntOrVid.from_vid(m.Vid(0))],
                    "[2, %s]" % self.reference())
        if kind == "FloatOrVid":
            return m.FloatOrVid.from_vid(m.Vid(0)), self.reference()
        if kind == "VidOrTid":
            return m.VidOrTid(tid=m.Tid(9)), self.tid_reference(9)
        if kind == "IntOrVidOrTid":
            return m.IntOrVidOrTid.from_tid(m.Tid(8)), self.tid_reference(8)
        if kind == "bool":
            return (not default), "true" if not default else "false"
        if kind == "int":
            if name in ("scalar_type", "dtype", "out_dtype"):
                return 15, "bfloat16"
            return 5, "5"
        if kind == "float":
            return 0.25, "0.25"
        if kind == "str":
            return "tanh", "tanh"
        if kind == "List[int]":
            if name == "output_dtypes":
                return [15, 6], "[bfloat16, float]"
            return [1, 3], "[1, 3]"
        if kind == "List[str]":
            return ["a", "b"], "[a, b]"
        raise ValueError("no value for %s: %s" % (name, kind))

    def tid_reference(self, idx):
        if idx not in self.inputs:
            self.inputs.append(idx)
        return "%%%d" % idx


def plain(annotation):
    """`Optional[Tid]` -> `Tid`; `List[IntOrVid]` stays."""
    text = str(annotation).replace("typing.", "")
    return text[len("Optional["):-1] if text.startswith("Optional[") else text


def operator(m, cls, order):
    """An instance of the operator `cls` with every field set (in the
    schema's order, as emit reads them), and what emit should print."""
    filler, kwargs = Filler(m), {}
    fields = {field.name: field for field in dataclasses.fields(cls)}
    for name in order[cls.__name__]:
        field = fields[name]
        default = None if field.default is dataclasses.MISSING else \
            field.default
        value, text = filler.value(name, plain(field.type), default)
        kwargs[name] = value
        if text is not None:
            filler.attrs.append((name, text))
    name = cls.__name__[:-len("Node")]
    return cls(**kwargs), (name, filler.inputs, filler.outputs, filler.attrs)


def build(m, order):
    """A graph of every operator of the release, and what emit should say
    of each node and of the tensors with metadata."""
    union = typing.get_args(m.OpNodeUnion)
    nodes, expected = [], []
    for cls in union:
        node, want = operator(m, cls, order)
        nodes.append(m.Instruction(op=node))
        expected.append(want)
    meta = lambda dims, dtype: m.TensorMeta(
        shape=[m.ShapeDim(value=d) for d in dims], scalar_type=dtype)
    graph = m.MLXGraph(
        instruction_chains=[m.InstructionChain(instructions=nodes)],
        version="1", num_constant_tensors=2, num_input_tensors=1,
        num_output_tensors=1, num_temp_tensors=NUM_TENSORS - 4,
        num_values=1,
        input_map=[m.SlotVariant(idx=2)], output_map=[m.SlotVariant(idx=3)],
        mutable_buffer_map=[],
        named_slots=[m.NamedSlot(name="w", slot=m.SlotVariant(idx=0)),
                     m.NamedSlot(name="b", slot=m.SlotVariant(idx=1))],
        tensor_meta=[meta([4, 2], 15), meta([4], 6), meta([1, 4], 6),
                     meta([1, 4], 6)])
    values = [("bfloat16", [4, 2], "w"), ("float", [4], "b"),
              ("float", [1, 4], None), ("float", [1, 4], None)]
    return graph, expected, values


def compare(graph, expected, values):
    differences = []
    if len(graph["nodes"]) != len(expected):
        differences.append("%d nodes" % len(graph["nodes"]))
    for (op, inputs, outputs, attrs), node in zip(expected, graph["nodes"]):
        got = (node["op"], node["inputs"], node["outputs"],
               list(node["attrs"].items()))
        if got != (op, inputs, outputs, attrs):
            differences.append("node %s: %s, given %s" % (
                node["id"], got, (op, inputs, outputs, attrs)))
    for (dtype, shape, key), value in zip(values, graph["values"]):
        got = (value["dtype"], value["shape"], value.get("named_key"))
        if got != (dtype, shape, key):
            differences.append("value %s: %s" % (value["id"], got))
    return differences


def check(tag, work):
    if not extract(tag, work):
        return None
    m, serializer = load(work)
    graph, expected, values = build(m, field_order(work))
    data = serializer.serialize_mlx_graph(graph)
    node = decode_call(EMIT_GRAPH, work, "MLXBackend", data)
    decoded = node["delegate"].get("graph")
    differences = compare(decoded, expected, values) if decoded else \
        ["no graph"]
    problems = [p for p in node.get("problems", [])
                if "named data" not in p]
    return len(data), len(expected), differences + problems


def main():
    print("| release | payload B | operators given | result |")
    print("|---|---|---|---|")
    failed = False
    for tag in TAGS:
        with tempfile.TemporaryDirectory() as work:
            row = check(tag, work)
        name = tag.replace("refs/heads/", "")
        if row is None:
            print("| %s | - | - | no MLX serializer |" % name)
            continue
        size, count, differences = row
        failed |= bool(differences)
        print("| %s | %d | %d | %s |" % (
            name, size, count,
            "same" if not differences else "DIFFERS %s" % differences[:5]))
    sys.exit(1 if failed else 0)


main()
