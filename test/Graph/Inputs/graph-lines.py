#!/usr/bin/env python3
"""emit-graph's JSON (emit-graph-2) on stdin as one line per fact, for
FileCheck: each method, node (with the nodes its edges come from, and
the values they carry), value and fallback count."""
import json
import sys


def tensor(value):
    text = "%s[%s]" % (value["dtype"], ", ".join(map(str, value["shape"])))
    planned = value.get("planned")
    if planned:
        text += " planned %d+%d %d B" % (planned["buffer"], planned["offset"],
                                        planned["bytes"])
        if "alias_of" in planned:
            text += " view of %%%d" % planned["alias_of"]
    constant = value.get("constant")
    if constant:
        text += " constant %s" % constant["where"]
        if "key" in constant:
            text += " key '%s' source %s" % (constant["key"],
                                             constant["source"] or "none")
        else:
            text += " index %d" % constant["index"]
    return text


def payload_lines(delegate):
    """The payload's decoder, parts and target, and its graph's nodes and
    values, a line each."""
    payload = delegate.get("payload")
    if not payload:
        return
    parts = " ".join("%s@%d+%d" % (r["name"], r["offset"], r["bytes"])
                     for r in payload["regions"])
    print("  payload %s [%s] target %s" % (payload["decoder"], parts,
                                           payload["target"]))
    for part in delegate.get("named_parts", []):
        print("  named part %s key %s %s source %s bytes %s" % (
            part["name"], part["key"],
            "required" if part["required"] else "optional", part["source"],
            part["bytes"]))
    graph = delegate.get("graph")
    if not graph:
        return
    for node in graph["nodes"]:
        # A typed field as its JSON (true, [1, 1]); a string as itself.
        attrs = " ".join(
            "%s=%s" % (key, value if isinstance(value, str) else
                       json.dumps(value))
            for key, value in node["attrs"].items())
        print("  xnode %d %s %s -> %s %s%s" % (
            node["id"], node["op"], node["inputs"], node["outputs"], attrs,
            " " + time_text(node["time"]) if "time" in node else ""))
    for value in graph["values"]:
        text = "  xvalue %d %s%s" % (value["id"], value["dtype"],
                                     value["shape"])
        for key in ("quant", "constant_bytes", "named_key",
                    "named_key_source", "external_input", "external_output"):
            if value[key] is not None:
                text += " %s=%s" % (key, value[key])
        print(text)


def time_text(time):
    return "time count %d total %d ns p50 %d ns" % (
        time["count"], time["total_ns"], time["p50_ns"])


def event_lines(delegate):
    """The call's own events, each with the payload node it times."""
    for event in delegate.get("events", []):
        node = event["payload_node"]
        print("  event '%s' -> %s %s" % (
            event["name"], "none" if node is None else "xnode %d" % node,
            time_text(event["time"])))


def spec(item):
    if item.get("decoded"):
        return "%s decoded {%s}" % (item["key"], ", ".join(
            "%s=%s" % setting for setting in item["decoded"].items()))
    return "%s=%s:%s" % (item["key"], item["encoding"], item["value"])


def main():
    graph = json.load(sys.stdin)
    assert graph["schema"] == "emit-graph-2", graph["schema"]
    for method in graph["methods"]:
        print("method %s: inputs %s outputs %s" % (
            method["name"], method["inputs"], method["outputs"]))
        ids = {node["id"] for node in method["nodes"]}
        incoming = {}
        for edge in method["edges"]:
            assert edge["from"] in ids and edge["to"] in ids, edge
            incoming.setdefault(edge["to"], []).append(
                "%s:%%%d" % (edge["from"], edge["value"]))
        for node in method["nodes"]:
            where = ("%d:%d " % (node["chain"], node["instruction"])
                     if node["chain"] is not None else "")
            edges = incoming.get(node["id"], [])
            print("node %s %s%s %s %s -> %s from [%s]" % (
                node["id"], where, node["kind"], node["name"], node["inputs"],
                node["outputs"], ", ".join(edges)))
            delegate = node.get("delegate")
            if delegate:
                print("  delegate %s #%d %d B %s %d shared %s magic %s "
                      "specs [%s]" % (
                          delegate["backend"], delegate["index"],
                          delegate["payload_bytes"],
                          delegate["storage"]["where"],
                          delegate["storage"]["index"],
                          delegate["shared_with"], delegate["magic"],
                          ", ".join(map(spec, delegate["compile_specs"]))))
                payload_lines(delegate)
                event_lines(delegate)
            if "time" in node:
                print("  " + time_text(node["time"]))
            for problem in node.get("problems", []):
                print("  problem: %s" % problem)
        for value in method["values"]:
            text = "value %d %s" % (value["id"], value["type"])
            if value["type"] == "tensor":
                text += " " + tensor(value)
            if value["first"] is not None:
                text += " live %d..%d" % (value["first"], value["last"])
            print(text)
            for problem in value.get("problems", []):
                print("  problem: %s" % problem)
        fallback = method["fallback"]
        print("fallback kernels %d %s delegates %d %s" % (
            fallback["kernel_calls"], fallback["by_namespace"],
            fallback["delegate_calls"], fallback["by_backend"]))
        if fallback["by_operator"]:
            print("fell back %s" % fallback["by_operator"])
        for backend, ran in fallback["delegated"].items():
            print("delegated %s calls %d opaque %d %s" % (
                backend, ran["calls"], ran["opaque_calls"],
                ran["operators"]))
        for problem in method.get("problems", []):
            print("  problem: %s" % problem)
    for problem in graph["problems"]:
        print("problem: %s" % problem)


if __name__ == "__main__":
    main()
