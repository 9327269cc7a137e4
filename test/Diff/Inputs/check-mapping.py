#!/usr/bin/env python3
"""Checks a Model Explorer split view mapping written by emit-diff --graph
--model-explorer against both sides' graph collections: the file is
SyncNavigationData ({"mapping": {left id: right id}, disableMappingFallback}),
every left id a node of METHOD's graph in OLD.json, every right id one of
NEW_METHOD's in NEW.json, no right id twice. Prints the pairs' count.

  check-mapping.py MAPPING OLD.json METHOD NEW.json NEW_METHOD
"""
import json
import sys

mapping_path, old_path, old_method, new_path, new_method = sys.argv[1:6]
data = json.load(open(mapping_path))
assert set(data) == {"mapping", "disableMappingFallback"}, data.keys()
assert data["disableMappingFallback"] is True


def node_ids(path, method):
    graphs = {graph["id"]: graph for graph in json.load(open(path))["graphs"]}
    return {node["id"] for node in graphs[method]["nodes"]}


left, right = node_ids(old_path, old_method), node_ids(new_path, new_method)
mapping = data["mapping"]
bad = [(a, b) for a, b in mapping.items() if a not in left or b not in right]
assert not bad, bad
assert len(set(mapping.values())) == len(mapping)
print("%d pairs, each a node of both graphs" % len(mapping))
