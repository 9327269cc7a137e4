#!/usr/bin/env python3
"""Prints emit-memory's JSON report (on stdin) one fact a line, for
FileCheck: per method its allocator bytes, each planned buffer, each
tensor (`value V [name] buffer B [begin, end) live F..L`, or `never named`)
and each finding (`CHECK SEVERITY: message`)."""

import json
import sys

report = json.load(sys.stdin)
for method in report["methods"]:
    allocator = method["method_allocator_bytes"]
    print("method %s: allocator 64-bit %d 32-bit %d" % (
        method["name"], allocator["64"], allocator["32"]))
    for buffer in method["planned_buffers"]:
        print("  buffer %d %s: %d bytes, peak %d" % (
            buffer["memory_id"], buffer["device"], buffer["bytes"],
            buffer["peak_live_bytes"]))
    for tensor in method["tensors"]:
        name = " '%s'" % tensor["name"] if tensor["name"] else ""
        live = ("live %d..%d" % (tensor["first"], tensor["last"])
                if tensor["first"] is not None else "never named")
        print("  value %d%s buffer %d [%d, %d) %s" % (
            tensor["value"], name, tensor["buffer"], tensor["offset"],
            tensor["offset"] + tensor["bytes"], live))
    for finding in method["findings"]:
        print("  %s %s: %s" % (finding["check"], finding["severity"],
                               finding["message"]))
for finding in report["findings"]:
    print("%s %s: %s" % (finding["check"], finding["severity"],
                         finding["message"]))
