#!/usr/bin/env python3
"""Checks emit-diff --graph's JSON (schema emit-graph-diff-1) against what
graph-pairs.py says an edit must show: the same nodes added and removed,
the same pairs changed in the same ways, the same moves, and, for a
renamed method, the same method pair; nothing else differs.

  check-graph-diff.py EXPECTED.json ACTUAL.json   (prints "ok" or why not)
"""
import json
import sys


def main():
    expected = json.load(open(sys.argv[1]))
    actual = json.load(open(sys.argv[2]))
    problems = []
    if actual["schema"] != "emit-graph-diff-1":
        problems.append("schema %r" % actual["schema"])
    methods = [[m["old_name"], m["new_name"]] for m in actual["methods"]]
    if expected["methods"] is not None and methods != expected["methods"]:
        problems.append("methods paired %r, expected %r" %
                        (methods, expected["methods"]))
    if actual["added_methods"] or actual["removed_methods"]:
        problems.append("methods unpaired: %r %r" %
                        (actual["removed_methods"], actual["added_methods"]))
    got = {"added": set(), "removed": set(), "changed": set(), "moves": set()}
    for method in actual["methods"]:
        got["added"] |= {node["id"] for node in method["added"]}
        got["removed"] |= {node["id"] for node in method["removed"]}
        got["changed"] |= {(c["old"]["id"], c["new"]["id"],
                            frozenset(c["what"])) for c in method["changed"]}
        got["moves"] |= {(m["backend"], m["into"], m["out_of"])
                         for m in method["moves"]}
        counts = method["counts"]
        if counts["changed"] + counts["unchanged"] != len(method["matching"]):
            problems.append("counts %r do not add up to %d pairs" %
                            (counts, len(method["matching"])))
    want = {"added": set(expected["added"]),
            "removed": set(expected["removed"]),
            "changed": {(a, b, frozenset(what))
                        for a, b, what in expected["changed"]},
            "moves": {tuple(m) for m in expected["moves"]}}
    for key in ("added", "removed", "changed", "moves"):
        if got[key] != want[key]:
            problems.append("%s: found %s, expected %s; extra %s, missing %s" % (
                key, sorted(map(str, got[key])), sorted(map(str, want[key])),
                sorted(map(str, got[key] - want[key])),
                sorted(map(str, want[key] - got[key]))))
    unchanged = not any(want.values()) and expected["methods"] is None
    if actual["unchanged"] != (unchanged and not problems):
        problems.append("unchanged is %r" % actual["unchanged"])
    print("\n".join(problems) if problems else "ok")


main()
