#!/usr/bin/env python3
# ===- et_mps_payloads.py - MPS graphs of every release, decoded ---------=== #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# An MPS payload is an MPSGraph that ExecuTorch writes from its dataclasses
# (backends/apple/mps/serialization/mps_graph_schema.py) as JSON, compiled
# by flatc with the release's own schema.fbs (mps_graph_serialize.py). The
# layout changed twice with the same identifier: 0.3 inserted MPSScatter in
# the node union, 0.4 renumbered the data types, widened a tensor's
# constant size and put the graph behind a 24-byte header with the
# constants in a segment after it (mps_preprocess.py). For each release tag
# of the ExecuTorch snapshot, this builds a graph with that release's own
# dataclasses, encodes it as the release does (its dataclass encoder from
# et-python's exir, flatc with its schema), lays the payload out as that
# release's preprocess does, and checks what emit-graph decodes (each
# node's operator and operands, each value's data type, shape and constant
# bytes) against what was given.
#
#   PYTHONPATH=~/.cache/et-python python3 et_mps_payloads.py \
#       BUILD/bin/emit-graph EXECUTORCH_GIT_DIR
#
# Prints a table, one row per release; exits 1 on any difference.
# ===----------------------------------------------------------------------=== #

import importlib.util
import json
import os
import struct
import subprocess
import sys
import tempfile

from executorch.exir._serialize._dataclass import _DataclassEncoder

from delegate_call import decode_call

EMIT_GRAPH, REPO = sys.argv[1:3]
TAGS = ["v0.2.0", "v0.3.0", "v0.4.0", "v0.5.0", "v0.6.0", "v0.7.0", "v1.0.0",
        "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0", "refs/heads/main"]
SERIALIZATION = "backends/apple/mps/serialization/"


def git_show(tag, path):
    result = subprocess.run(["git", "-C", REPO, "show", "%s:%s" % (tag, path)],
                            capture_output=True)
    return result.stdout if result.returncode == 0 else None


def load_schema_module(tag, work):
    source = git_show(tag, SERIALIZATION + "mps_graph_schema.py")
    if source is None:
        return None
    path = os.path.join(work, "mps_graph_schema.py")
    with open(path, "wb") as out:
        out.write(source)
    name = "mps_graph_schema_" + tag.replace(".", "_").replace("/", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def build(m):
    """A graph of the release's operators, and what emit should say of it:
    per node (operator, inputs, outputs), per value (dtype, dims, bytes)."""
    f32, i32 = m.MPSDataType.mps_data_type_float32, m.MPSDataType.mps_data_type_int32
    has_segment = "segment_offset" in m.MPSTensor.__dataclass_fields__

    def tensor(dtype, dims, data=b""):
        fields = dict(datatype=dtype, num_dims=len(dims), dims=list(dims),
                      constant_buffer_size=len(data),
                      constant_buffer=m.Buffer(storage=data))
        if has_segment:
            fields["segment_offset"] = 0
        return m.MPSTensor(**fields)

    values = [tensor(f32, [1, 4]), tensor(f32, [1, 4]),
              tensor(f32, [8, 4], bytes(range(128))),
              tensor(i32, [2], bytes(8))] + \
        [tensor(f32, [1, 4]) for _ in range(8)]
    expected_values = [("float32", [1, 4], None), ("float32", [1, 4], None),
                       ("float32", [8, 4], 128), ("int32", [2], 8)] + \
        [("float32", [1, 4], None)] * 8
    nodes = [
        (m.MPSAdd(input1_id=0, input2_id=1, output_id=4), "Add", [0, 1], [4]),
        (m.MPSReLU(input1_id=4, output_id=5), "ReLU", [4], [5]),
        (m.MPSConv2D(input1_id=5, input2_id=2, input3_id=-1, output_id=6,
                     stride_x=1, stride_y=1, groups=1), "Conv2D", [5, 2], [6]),
        (m.MPSBatchNorm(input_id=6, mean_id=2, var_id=2, weight_id=2,
                        bias_id=2, momentum=0.1, epsilon=1e-5, output1_id=7,
                        output2_id=8, output3_id=9), "BatchNorm",
         [6, 2, 2, 2, 2], [7, 8, 9]),
        (m.MPSMean(input1_id=7, output_id=10, num_dims=1, dims=[1],
                   keep_dims=True), "Mean", [7], [10]),
        (m.MPSCast(input1_id=10, output_id=11, dtype=i32), "Cast", [10], [11]),
    ]
    if hasattr(m, "MPSScatter"):
        nodes.append((m.MPSScatter(input1_id=11, output_id=11, dim=0,
                                   idx_id=3, src_id=1), "Scatter",
                      [11, 3, 1], [11]))
    graph = m.MPSGraph(
        version="0", mps_nodes=[m.MPSNode(mpsnode_union=n[0]) for n in nodes],
        mps_values=values, input_ids=[0, 1], output_ids=[11],
        constant_ids=[2, 3], graph_type=m.OpType.mps_graph,
        **({"constant_segment": m.DataSegment(0, 0)}
           if "constant_segment" in m.MPSGraph.__dataclass_fields__ else {}))
    return graph, [n[1:] for n in nodes], expected_values


def flatbuffer(tag, graph, work):
    """The release's mps_graph_serialize: its encoder's JSON, flatc with
    the release's schema."""
    with open(os.path.join(work, "schema.fbs"), "wb") as out:
        out.write(git_show(tag, SERIALIZATION + "schema.fbs"))
    with open(os.path.join(work, "schema.json"), "w") as out:
        out.write(json.dumps(graph, cls=_DataclassEncoder))
    subprocess.run(["flatc", "--binary", "-o", work,
                    os.path.join(work, "schema.fbs"),
                    os.path.join(work, "schema.json")], check=True)
    with open(os.path.join(work, "schema.bin"), "rb") as data:
        return data.read()


def payload(tag, m, graph, work):
    """The bytes the release's mps_preprocess returns: the flatbuffer alone
    up to 0.3; from 0.4 the constants moved to a segment (each tensor's
    segment_offset, its buffer emptied), the 24-byte header, the graph
    padded to 16, the segment padded to 16."""
    if "segment_offset" not in m.MPSTensor.__dataclass_fields__:
        return flatbuffer(tag, graph, work)
    segment = b""
    for value in graph.mps_values:
        if value.constant_buffer_size > 0:
            value.segment_offset = len(segment)
            segment += bytes(value.constant_buffer.storage)
            value.constant_buffer = m.Buffer(storage=b"")
    segment += bytes(-len(segment) % 16)
    body = flatbuffer(tag, graph, work)
    at = 24 + len(body) + (-(24 + len(body)) % 16)
    header = bytes(4) + b"MP00" + struct.pack("<QQ", at, len(segment))
    return header + body + bytes(at - 24 - len(body)) + segment


def compare(delegate, nodes, values):
    """Differences between what emit decoded and what was given; operators
    a headerless payload names both ways count when either is the one."""
    graph, differences, ambiguous = delegate.get("graph"), [], 0
    if not graph:
        return ["no graph"], 0
    for (op, inputs, outputs), node in zip(nodes, graph["nodes"]):
        names = [op] if " or " not in node["op"] else [
            part.split(" (")[0] for part in node["op"].split(" or ")]
        if " or " in node["op"]:
            ambiguous += 1
            if op not in names:
                differences.append("node %s: %s" % (node["id"], node["op"]))
            continue
        if (node["op"], node["inputs"], node["outputs"]) != (op, inputs,
                                                              outputs):
            differences.append("node %s: %s %s -> %s" % (
                node["id"], node["op"], node["inputs"], node["outputs"]))
    if len(graph["nodes"]) != len(nodes):
        differences.append("%d nodes" % len(graph["nodes"]))
    for (dtype, dims, size), value in zip(values, graph["values"]):
        if (value["dtype"], value["shape"], value["constant_bytes"]) != (
                dtype, dims, size):
            differences.append("value %s: %s%s %s" % (
                value["id"], value["dtype"], value["shape"],
                value["constant_bytes"]))
    return differences, ambiguous


def check(tag, work):
    m = load_schema_module(tag, work)
    if m is None:
        return None
    graph, nodes, values = build(m)
    data = payload(tag, m, graph, work)
    node = decode_call(EMIT_GRAPH, work, "MPSBackend", data)
    delegate = node["delegate"]
    differences, ambiguous = compare(delegate, nodes, values)
    problems = node.get("problems", [])
    layout = "header" if data[:4] == bytes(4) else "none"
    return len(data), layout, len(nodes), ambiguous, differences + problems


def main():
    print("| release | payload B | header | nodes given | named both ways "
          "| result |")
    print("|---|---|---|---|---|---|")
    failed = False
    for tag in TAGS:
        with tempfile.TemporaryDirectory() as work:
            row = check(tag, work)
        name = tag.replace("refs/heads/", "")
        if row is None:
            print("| %s | - | - | - | - | no MPS serializer |" % name)
            continue
        size, layout, count, ambiguous, differences = row
        failed |= bool(differences)
        print("| %s | %d | %s | %d | %d | %s |" % (
            name, size, layout, count, ambiguous,
            "same" if not differences else "DIFFERS %s" % differences))
    sys.exit(1 if failed else 0)


main()
