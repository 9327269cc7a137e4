"""Checks emit-graph-2 documents against the JSON Schema the project
installs (docs/schemas/emit-graph-2.schema.json), and beyond what a schema
can say, independently of the printer: the types of every field, ids unique in
their method, edges between nodes of the method that carry a value the
source writes and the target reads, and fallback counts that match the
nodes. Prints a line of counts per document."""
import json
import os
import re
import sys

import jsonschema

KINDS = {"kernel", "delegate", "move", "jump_false", "free", "input",
         "output", "other"}


def check_delegate(delegate):
    assert isinstance(delegate["backend"], str)
    assert isinstance(delegate["index"], int) and delegate["index"] >= 0
    assert isinstance(delegate["payload_bytes"], int)
    assert delegate["storage"]["where"] in ("segment", "inline")
    assert isinstance(delegate["storage"]["index"], int)
    assert all(isinstance(entry, str) and "#" in entry
               for entry in delegate["shared_with"])
    for spec in delegate["compile_specs"]:
        assert set(spec) - {"decoded"} == {
            "key", "encoding", "value", "bytes"}, spec
        check_fields(spec.get("decoded", {}))
        assert spec["encoding"] in ("utf-8", "hex")
        if spec["encoding"] == "hex":
            bytes.fromhex(spec["value"])
    assert delegate["magic"] is None or isinstance(delegate["magic"], str)
    if "payload" in delegate:
        check_payload(delegate["payload"], delegate["payload_bytes"])
    if "graph" in delegate:
        check_payload_graph(delegate["graph"])
    for part in delegate.get("named_parts", []):
        assert set(part) == {"name", "key", "required", "source",
                             "bytes"}, part
        assert isinstance(part["key"], str) and \
            isinstance(part["required"], bool), part
        # A size only for a key some file holds.
        assert (part["source"] is None) <= (part["bytes"] is None), part
    node_ids = {node["id"] for node in delegate.get("graph", {}).get(
        "nodes", [])}
    for event in delegate.get("events", []):
        assert set(event) == {"name", "payload_node", "time"}, event
        assert isinstance(event["name"], str)
        assert event["payload_node"] is None or \
            event["payload_node"] in node_ids, event
        check_time(event["time"])


def check_time(time):
    """A node's or event's time over a run: count, total and median."""
    assert set(time) == {"count", "total_ns", "p50_ns"}, time
    assert all(isinstance(v, int) and v >= 0 for v in time.values()), time
    assert time["p50_ns"] <= time["total_ns"], time


def check_payload(payload, size):
    """Its parts, in order, cover the payload (or leave out what a problem
    says does not fit) and never overlap but where a problem says so."""
    assert payload["decoder"] is None or isinstance(payload["decoder"], str)
    end = 0
    for region in payload["regions"]:
        assert set(region) == {"name", "offset", "bytes"}, region
        assert region["offset"] + region["bytes"] <= size, region
        end = max(end, region["offset"] + region["bytes"])
    assert end <= size
    check_fields(payload["target"])


def check_payload_graph(graph):
    """delegate.graph as issue #45 states it."""
    ids = set()
    for value in graph["values"]:
        assert set(value) == {"id", "dtype", "shape", "quant",
                              "constant_bytes", "named_key",
                              "named_key_source", "external_input",
                              "external_output"}, value
        assert value["named_key"] is not None or \
            value["named_key_source"] is None, value
        assert value["id"] not in ids
        ids.add(value["id"])
        assert all(isinstance(size, int) for size in value["shape"])
    for node in graph["nodes"]:
        assert set(node) - {"time"} == {"id", "op", "inputs", "outputs",
                                        "attrs"}, node
        if "time" in node:
            check_time(node["time"])
        assert isinstance(node["op"], str) and node["op"]
        check_fields(node["attrs"])


# A list of integers written as display text: what typed JSON must not hold.
LIST_AS_TEXT = re.compile(r"^\[-?\d+(, -?\d+)*\]$")


def check_fields(fields):
    """Decoded fields are typed: a number, a list, a boolean, null or an
    object as JSON has them, a string only for text."""
    for key, value in fields.items():
        assert isinstance(key, str) and key, fields
        assert isinstance(value, (str, int, float, bool, list, dict)) or \
            value is None, (key, value)
        assert not (isinstance(value, str) and LIST_AS_TEXT.match(value)), \
            (key, value)


def check_value(value, node_count):
    assert isinstance(value["id"], int)
    assert isinstance(value["type"], str)
    if value["type"] == "tensor":
        assert isinstance(value["dtype"], str)
        assert all(isinstance(size, int) for size in value["shape"])
        planned, constant = value.get("planned"), value.get("constant")
        assert not (planned and constant), value
        if planned:
            assert set(planned) >= {"buffer", "offset", "bytes"}
        if constant:
            assert constant["where"] in ("constant_segment",
                                         "constant_buffer", "external")
    for end in ("first", "last"):
        assert value[end] is None or 0 <= value[end] < node_count


def check_method(method):
    nodes, values = method["nodes"], method["values"]
    ids = [node["id"] for node in nodes]
    assert len(ids) == len(set(ids)), "node ids repeat"
    assert [value["id"] for value in values] == list(range(len(values)))
    for value in values:
        check_value(value, len(nodes))
    by_id = {node["id"]: node for node in nodes}
    kernels, delegates = 0, 0
    namespaces, backends = {}, {}
    for node in nodes:
        assert node["kind"] in KINDS, node["kind"]
        assert isinstance(node["name"], str) and node["name"]
        if node["kind"] in ("input", "output"):
            assert node["chain"] is None and node["instruction"] is None
        else:
            assert node["chain"] >= 0 and node["instruction"] >= 0
        for value in node["inputs"] + node["outputs"]:
            assert 0 <= value < len(values)
        if node["kind"] in ("kernel", "delegate") and \
                node["name"] == node["kind"]:
            # Its operator or delegate index is out of range: said, and
            # not counted.
            assert node["problems"] and "delegate" not in node, node
            continue
        if node["kind"] == "kernel":
            kernels += 1
            space = node["name"].split("::")[0] if "::" in node["name"] \
                else ""
            namespaces[space] = namespaces.get(space, 0) + 1
        if node["kind"] == "delegate":
            delegates += 1
            check_delegate(node["delegate"])
            assert node["name"] == node["delegate"]["backend"]
            backend = node["delegate"]["backend"]
            backends[backend] = backends.get(backend, 0) + 1
    for position, value in enumerate(method["inputs"]):
        node = by_id["input%d" % position]
        if 0 <= value < len(values):
            assert node["outputs"] == [value], node
        else:
            assert node["outputs"] == [] and node["problems"], node
    for edge in method["edges"]:
        source, target = by_id[edge["from"]], by_id[edge["to"]]
        assert ids.index(edge["from"]) < ids.index(edge["to"]), edge
        items = [edge["value"]] + [
            v for v in target["inputs"]
            if values[v]["type"] in ("tensor_list", "optional_tensor_list")]
        assert edge["value"] in source["outputs"], edge
        assert any(v in target["inputs"] for v in items) or \
            values[edge["value"]].get("planned", {}).get("alias_of") is \
            not None or any(
                values[v].get("planned", {}).get("alias_of") == edge["value"]
                for v in target["inputs"]), edge
    fallback = method["fallback"]
    assert fallback["kernel_calls"] == kernels
    assert fallback["delegate_calls"] == delegates
    assert fallback["by_namespace"] == namespaces
    assert fallback["by_backend"] == backends
    return len(nodes), len(method["edges"]), delegates


# The schema the project documents and installs: every document must meet it.
SCHEMA = json.load(open(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
    "docs", "schemas", "emit-graph-2.schema.json")))
jsonschema.Draft202012Validator.check_schema(SCHEMA)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

for path in sys.argv[1:]:
    graph = json.load(open(path))
    VALIDATOR.validate(graph)
    assert graph["schema"] == "emit-graph-2"
    assert isinstance(graph["file"], str)
    assert isinstance(graph["problems"], list)
    totals = [0, 0, 0]
    for method in graph["methods"]:
        for position, count in enumerate(check_method(method)):
            totals[position] += count
    print("%s: %d methods, %d nodes, %d edges, %d delegate nodes" % (
        os.path.basename(path), len(graph["methods"]), *totals))
