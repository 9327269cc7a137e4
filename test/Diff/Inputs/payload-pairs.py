#!/usr/bin/env python3
"""Prints, per backend (the method name's first word in payloads.pte), how
many payload operators (ids iK/nJ) emit-diff --graph's JSON matched, and
whether the report is unchanged: payload-pairs.py REPORT.json"""
import json
import sys
from collections import Counter

report = json.load(open(sys.argv[1]))
pairs = Counter()
for method in report["methods"]:
    for old, new in method["matching"]:
        if "/n" in old and old == new:
            pairs[method["old_name"].split("_")[0]] += 1
print("unchanged %s, %d methods" % (report["unchanged"],
                                    len(report["methods"])))
for backend, count in sorted(pairs.items()):
    print("%s: %d payload operators matched" % (backend, count))
