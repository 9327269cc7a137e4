"""MPS graphs written by flatc from the MPS schema with the MP00 header."""
import os
import re
import struct

from backends.common import SCHEMAS, flatbuffer, pad16


def mps_operators():
    """Each operator of schema/mps.fbs's node union, in tag order, with its
    table's fields (name, type)."""
    with open(os.path.join(SCHEMAS, "mps.fbs")) as f:
        text = re.sub(r"//[^\n]*", "", f.read())
    tables = {name: [field.strip().split(":") for field in body.split(";")
                     if field.strip()]
              for name, body in re.findall(r"table\s+(\w+)\s*\{([^}]*)\}",
                                           text)}
    union = re.search(r"union MPSNodeUnion\s*\{([^}]*)\}", text).group(1)
    members = [m.strip().split(":") for m in union.split(",") if m.strip()]
    return [(m[0].strip(), tables[(m[-1]).strip()]) for m in members]


def mps_fields(fields):
    """A node table's fields: inputs 0, 1, ... and outputs 8, 9, ... by
    position, lists of two, other ints 3, longs 4, floats 0.5, bools, a
    string, the data type 2."""
    table, inputs, outputs = {}, 0, 8
    for name, kind in fields:
        kind = kind.split("(")[0].strip()
        if name.endswith("_id") or name.endswith("_ids"):
            output = name.startswith("output")
            first = outputs if output else inputs
            table[name] = [first, first + 1] if kind == "[int]" else first
            if output:
                outputs += 2 if kind == "[int]" else 1
            else:
                inputs += 2 if kind == "[int]" else 1
        elif kind == "[int]":
            table[name] = [1, 2]
        else:
            table[name] = {"int": 3, "long": 4, "float": 0.5, "bool": True,
                           "string": "tanh", "short": 2}[kind]
    return table


def mps_value(dims=(1, 4), dtype=2, **constant):
    return dict({"datatype": dtype, "num_dims": len(dims),
                 "dims": list(dims)}, **constant)


def mps_graph(nodes, values=None, **change):
    graph = {"version": "0", "mps_nodes": nodes,
             "mps_values": values or [mps_value() for _ in range(12)],
             "input_ids": [0, 1], "output_ids": [8], "constant_ids": [],
             "graph_type": "mps_graph"}
    graph.update(change)
    return graph


def mp00(graph, segment, segment_size=None):
    """The MP00 header (0.4 on), the graph padded to 16, the segment."""
    at = 24 + len(pad16(graph))
    size = len(segment) if segment_size is None else segment_size
    return (bytes(4) + b"MP00" + struct.pack("<QQ", at, size) + pad16(graph)
            + segment)


def mps_payloads():
    every = flatbuffer("mps_every", mps_graph(
        [{"mpsnode_union_type": name, "mpsnode_union": mps_fields(fields)}
         for name, fields in mps_operators()],
        values=[mps_value()] * 2 + [
            mps_value((4, 4), constant_buffer_size=64, segment_offset=0),
            mps_value((4,), 9, constant_buffer_size=32, segment_offset=64)]
        + [mps_value()] * 8, constant_ids=[2, 3]), "mps.fbs")
    # 0.3: no header, constants in the flatbuffer; Scatter took tag 63.
    headerless = flatbuffer("mps_v0", mps_graph([
        {"mpsnode_union_type": "MPSAdd", "mpsnode_union": {
            "input1_id": 0, "input2_id": 2, "output_id": 8, "alpha": 1.0},
         "min_max": {"min_value": -1.0, "max_value": 1.0}},
        {"mpsnode_union_type": "MPSScatter", "mpsnode_union": {}},
        {"mpsnode_union_type": "MPSMean", "mpsnode_union": {}}],
        values=[mps_value(dtype=4)] * 2 + [mps_value(
            constant_buffer_size=16, constant_buffer={"storage": [1] * 16})]
        + [mps_value()] * 9), "mps.fbs", "emit_mps.MPSGraphV0")
    # 0.2: no header, the node union before Scatter; these tables do not
    # read as 0.3's.
    fields = dict(mps_operators())
    v02 = flatbuffer("mps_v02", mps_graph(
        [{"mpsnode_union_type": name, "mpsnode_union": mps_fields(fields[name])}
         for name in ("MPSAdd", "MPSConv2D", "MPSBatchNorm", "MPSMean",
                      "MPSCast")]), "mps.fbs", "emit_mps.MPSGraphV02")
    past = flatbuffer("mps_past", mps_graph([], values=[
        mps_value(constant_buffer_size=64, segment_offset=8)]), "mps.fbs")
    unnamed = flatbuffer("mps_unnamed", mps_graph([
        {"mpsnode_union_type": "MPSAdd", "mpsnode_union": {
            "input1_id": 0, "input2_id": 99, "output_id": 1}}],
        values=[mps_value()] * 2), "mps.fbs")
    return [
        ("mps_every_operator", "MPSBackend", mp00(every, bytes(96))),
        ("mps_headerless", "MPSBackend", headerless),
        ("mps_v02", "MPSBackend", v02),
        ("mps_short", "MPSBackend", bytes(4) + b"MP00" + bytes(20)),
        ("mps_constant_past", "MPSBackend", mp00(past, bytes(32))),
        ("mps_missing_value", "MPSBackend", mp00(unnamed, b"")),
        ("mps_garbage", "MPSBackend",
         mp00(b"\x10\0\0\0MP00" + b"\xff" * 24, b"")),
    ]
