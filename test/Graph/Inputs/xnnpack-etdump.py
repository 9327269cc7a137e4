#!/usr/bin/env python3
"""Writes ETDumps of runs of payloads.py's xnnpack_every_operator method (one
delegate call, instruction 0:0) whose call logs its own events as
XNNProfiler::submit_trace does: one per XNNPACK operator, named
"<operator> #<n>", n counting operators of that name. Two namings, each
two runs:

  old.etdp  XNNPACK's names up to early 2025 ("Add (ND, F32)"): every
            family whose events and xnodes agree in number, a clamp fused
            away (no event), a concatenation as a copy per input, a family
            with one event too many (Multiply) and an operator no xnode
            names (Pack LH), neither joined;
  new.etdp  "Binary Elementwise (ND)" for every binary xnode;
  odd.etdp  names not numbered as XNNPACK numbers them (a count that does
            not start at 1, no count), none joined.

Usage: xnnpack-etdump.py FLATC SCHEMA_DIR OUT_DIR (the ETDump writer of
emit-profile's tests, Inputs/etdump-gen.py, lays the blocks out)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "Profile", "Inputs"))
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "etdump_gen", os.path.join(sys.path[0], "etdump-gen.py"))
etdump_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(etdump_gen)


def numbered(names):
    """Each name with its count so far, as XNNProfiler numbers them."""
    seen = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        yield "%s #%d" % (name, seen[name])


# The operators XNNPACK runs the graph's xnodes as, in order (Clamp fused).
OLD = (["Add (ND, F32)", "Fully Connected (NC, F32) GEMM", "Softmax (NC, F32)",
        "Sigmoid (NC, F32)", "Transpose (ND, X32)",
        "Convolution (NHWC, F32) IGEMM", "Divide (ND, F32)",
        "Resize Bilinear (NHWC, F32)", "Constant Pad (ND, X32)",
        "Average Pooling (NHWC, F32)", "Minimum (ND, F32)",
        "Convolution (NHWC, F32) DWCONV", "Max Pooling (NHWC, F32)",
        "Multiply (ND, F32)", "Multiply (ND, F32)"]
       # StaticReshape, Concatenate2..5 (a copy per input) and Copy.
       + ["Copy (NC, X32)"] * (1 + 2 + 3 + 4 + 5 + 1) + ["Pack LH (X32)"])
NEW = ["Binary Elementwise (ND)"] * 7 + ["Fully Connected (NC, F32) GEMM"]


def run(clock, names, base):
    own = [(name, base + 10 * i) for i, name in enumerate(names)]
    return etdump_gen.execute(clock, [
        lambda c: etdump_gen.delegate(c, 0, 10000, own)])


def main():
    flatc, schema_dir, out = sys.argv[1:4]
    odd = ["Add (ND, F32) #2", "Softmax (NC, F32)", "Sigmoid (NC, F32) #x"]
    for name, names in (("old", list(numbered(OLD))),
                        ("new", list(numbered(NEW))), ("odd", odd)):
        clock = etdump_gen.Clock(10000)
        blocks = [etdump_gen.load(), run(clock, names, 100),
                  run(clock, names, 300)]
        etdump_gen.write(flatc, schema_dir, out, name, blocks)


main()
