"""Reads a Model Explorer graph collection as its JSON loader's schema
(graph_builder.py's GraphCollection) states it: every field of every node
of the right type, incoming edges from nodes of the same graph and to an
input the target has metadata for, from an output the source has
metadata for; every subgraph id names a graph of the collection. With a
node data file ({graph: {results: {node: {value}}, gradient}}),
checks that each entry names a node of its graph and that the gradient
is Model Explorer's (stops from 0 to 1, each with a colour). Keys of a
node's attributes are unique (Model Explorer shows only the last of a
repeated key). Prints a line per graph; with --problems, then a line per
node that has problems, naming their keys."""
import json
import sys

show_problems = "--problems" in sys.argv
paths = [arg for arg in sys.argv[1:] if arg != "--problems"]
collection = json.load(open(paths[0]))
node_data = json.load(open(paths[1])) if len(paths) > 1 else None
assert isinstance(collection["label"], str)


def check_attrs(attrs):
    for attr in attrs:
        assert set(attr) == {"key", "value"}, attr
        assert isinstance(attr["key"], str) and isinstance(attr["value"], str)
    keys = [attr["key"] for attr in attrs]
    assert len(keys) == len(set(keys)), keys


def check_gradient(gradient):
    stops = [item["stop"] for item in gradient]
    assert stops[0] == 0 and stops[-1] == 1 and stops == sorted(stops), stops
    for item in gradient:
        assert isinstance(item["bgColor"], str) and \
            item["bgColor"].startswith("#"), item


def check_metadata(items):
    ids = []
    for item in items:
        assert isinstance(item["id"], str)
        check_attrs(item["attrs"])
        ids.append(item["id"])
    assert len(ids) == len(set(ids))
    return set(ids)


graph_ids = [graph["id"] for graph in collection["graphs"]]
assert len(graph_ids) == len(set(graph_ids)), graph_ids
for graph in collection["graphs"]:
    assert isinstance(graph["id"], str)
    nodes = {}
    for node in graph["nodes"]:
        assert set(node) >= {"id", "label", "namespace", "attrs",
                             "incomingEdges", "inputsMetadata",
                             "outputsMetadata", "subgraphIds"}, node.keys()
        assert isinstance(node["label"], str)
        assert isinstance(node["namespace"], str)
        check_attrs(node["attrs"])
        assert all(isinstance(id, str) for id in node["subgraphIds"])
        assert node["id"] not in nodes, node["id"]
        nodes[node["id"]] = node
    edges = 0
    for node in graph["nodes"]:
        inputs = check_metadata(node["inputsMetadata"])
        for edge in node["incomingEdges"]:
            source = nodes[edge["sourceNodeId"]]
            outputs = {item["id"] for item in source["outputsMetadata"]}
            assert edge["sourceNodeOutputId"] in outputs, edge
            assert edge["targetNodeInputId"] in inputs, edge
            edges += 1
        check_metadata(node["outputsMetadata"])
        for item in node["outputsMetadata"]:
            keys = [attr["key"] for attr in item["attrs"]]
            assert "tensor_shape" in keys, item
    line = "%s: %d nodes, %d edges" % (graph["id"], len(nodes), edges)
    for node in graph["nodes"]:
        for subgraph in node["subgraphIds"]:
            assert subgraph in graph_ids, subgraph
            line += "; %s opens '%s'" % (node["id"], subgraph)
    if "/" in graph["id"]:  # A payload's graph: its nodes in order.
        line += "; nodes " + " ".join(
            node["label"].replace(" ", "") for node in graph["nodes"])
    if node_data is not None:
        results = node_data[graph["id"]]["results"]
        check_gradient(node_data[graph["id"]]["gradient"])
        assert all(node in nodes for node in results), results
        line += "; node data " + " ".join(
            "%s=%s" % (node, results[node]["value"]) for node in results)
    print(line)
    if show_problems:
        for node in graph["nodes"]:
            keys = [attr["key"] for attr in node["attrs"]
                    if attr["key"].startswith("problem")]
            if keys:
                print("  problems of %s: %s" % (node["id"], ", ".join(keys)))
