#!/usr/bin/env python3
"""Writes ETDumps (.etdp) of runs of Inputs/profiled.mlir, as the runtime's
ETDumpGen lays them out: a "Default" block per Program::load_method, an
"Execute" block per Method::execute, an instruction's OPERATOR_CALL (or
DELEGATE_CALL) around its kernel's native_call_<kernel>, a delegate's own
events inside its call.

Usage: etdump-gen.py FLATC SCHEMA_DIR OUT_DIR. Writes OUT_DIR/NAME.json and,
with flatc, the size-prefixed OUT_DIR/NAME.etdp for each scenario below,
and OUT_DIR/debug.bin, the debug buffer of the `debug` scenario."""

import json
import os
import struct
import subprocess
import sys


def event(name, chain, instruction, start, end, **extra):
    profile = {"name": name, "chain_index": chain,
               "instruction_id": instruction, "start_time": start,
               "end_time": end}
    profile.update(extra)
    if "delegate_debug_id_str" in extra or "delegate_debug_id_int" in extra:
        del profile["name"]
    return {"profile_event": profile}


def load(start=1000, took=5000):
    return {"name": "Default", "events": [
        event("Method::init", -1, 0, start + 500, start + 500 + took - 1000),
        event("Program::load_method", -1, 0, start, start + took)]}


class Clock:
    """Hands out consecutive times, so that events nest as they would."""

    def __init__(self, now):
        self.now = now

    def take(self, duration):
        start = self.now
        self.now += duration
        return start, self.now


def kernel(clock, instruction, kernel_name, took, chain=0):
    start, _ = clock.take(5)
    inner_start, inner_end = clock.take(took - 10)
    _, end = clock.take(5)
    return [event("native_call_" + kernel_name, chain, instruction,
                  inner_start, inner_end),
            event("OPERATOR_CALL", chain, instruction, start, end)]


def delegate(clock, instruction, took, own=()):
    start = clock.now
    events = []
    for debug_id, duration in own:
        key = ("delegate_debug_id_int" if isinstance(debug_id, int)
               else "delegate_debug_id_str")
        s, e = clock.take(duration)
        events.append(event(None, 0, instruction, s, e, **{key: debug_id}))
    clock.now = start + took
    return events + [event("DELEGATE_CALL", 0, instruction, start, clock.now)]


def execute(clock, calls):
    start = clock.now
    events = []
    for call in calls:
        events += call(clock)
    clock.take(20)
    events.append(event("Method::execute", -1, 0, start, clock.now))
    return {"name": "Execute", "events": events}


def forward_run(clock, run, first="add.out", first_took=None,
                delegate_took=None):
    return execute(clock, [
        lambda c: kernel(c, 0, first, first_took or 100 + 20 * run),
        lambda c: delegate(c, 1, delegate_took or 1000 + 100 * run,
                           [("conv", 600), (7, 300)]),
        lambda c: kernel(c, 2, "relu.out", 50)])


def decode_run(clock, long=False):
    calls = [lambda c: kernel(c, 0, "mul.out", 200),
             lambda c: kernel(c, 1, "relu.out", 40)]
    if long:
        calls.append(lambda c: kernel(c, 2, "relu.out", 60))
    return execute(clock, calls)


def tensor(scalar, sizes, offset):
    strides = [1] * len(sizes)
    for i in range(len(sizes) - 2, -1, -1):
        strides[i] = strides[i + 1] * sizes[i + 1]
    return {"scalar_type": scalar, "sizes": sizes, "strides": strides,
            "offset": offset}


def logged(chain, instruction, value):
    return {"debug_event": {"chain_index": chain,
                            "instruction_id": instruction,
                            "debug_entry": value}}


# What the debug buffer (debug.bin) holds, as ETDumpGen's data sink wrote
# it: the add's output at 0 (0..15), the relu's at 64 (-1, 2, NaN, Inf and
# twelve 1s), the delegate's at 128 (longs 5, -3, 7, 1).
DEBUG_BUFFER = (struct.pack("<16f", *range(16)) +
                struct.pack("<16f", -1, 2, float("nan"), float("inf"),
                            *([1] * 12)) +
                struct.pack("<4q", 5, -3, 7, 1))
METHOD_CHAIN = (1 << 64) - 1  # ETDumpGen's chain -1, as the ulong field.


def debug_run(clock):
    """A run of forward with every instruction's output logged, and the
    method's output, as ETDumpGen logs them at kIntermediateOutputs."""
    block = forward_run(clock, 0)
    events = block["events"]
    add_end = 2  # after the add's two events
    events.insert(add_end, logged(0, 0, {"val": "Tensor", "tensor":
                                         tensor("FLOAT", [2, 8], 0)}))
    events.insert(6, logged(0, 1, {"val": "TensorList", "tensor_list": {
        "tensors": [tensor("LONG", [4], 128)]}}))
    events.insert(9, logged(0, 2, {"val": "Tensor", "tensor":
                                   tensor("FLOAT", [2, 8], 64)}))
    events.insert(10, logged(0, 2, {"val": "Int", "int_value":
                                    {"int_val": 3}}))
    events.append(logged(METHOD_CHAIN, 0, {
        "val": "Tensor", "tensor": tensor("FLOAT", [2, 8], 10000),
        "output": {"bool_val": True}}))
    return block


def scenarios():
    clock = Clock(10000)
    joined = [load(), forward_run(clock, 0), forward_run(clock, 1),
              load(30000, 3000), decode_run(clock),
              load(50000, 4000), decode_run(clock, long=True)]
    clock = Clock(10000)
    in_order = [load(), load(2000, 7000), decode_run(clock),
                forward_run(clock, 0)]
    clock = Clock(10000)
    unmatched = [
        execute(clock, [lambda c: kernel(c, 5, "add.out", 100)]),
        execute(clock, [lambda c: kernel(c, 0, "sub.out", 100)]),
        execute(clock, [lambda c: [event("OPERATOR_CALL", 0, 0, 1, 2)]]),
        {"name": "Execute"},
        load(), load(), execute(clock, [lambda c: kernel(c, 0, "add.out", 9)])]
    clock = Clock(10000)
    odd = [{"name": "Execute", "events": [
        {"profile_event": {"name": "Method::execute", "chain_index": -1,
                           "start_time": 5, "end_time": 9},
         "allocation_event": {"allocator_id": 0, "allocation_size": 8}},
        event("OPERATOR_CALL", 0, 0, 50, 40)]}]
    # Runs of examples/llm-prefill-decode.mlir, whose two methods call the
    # same backends in the same order: nothing in the ETDump tells them
    # apart.
    clock = Clock(10000)
    llm_run = lambda: execute(clock, [lambda c: delegate(c, 0, 900),
                                      lambda c: delegate(c, 1, 100)])
    llm = [load(), llm_run(), load(), llm_run()]
    clock = Clock(10000)
    debug = [load(), forward_run(clock, 0), debug_run(clock)]
    # A run of Inputs/profiled-v2.mlir: forward's mul takes 300 ns, its
    # delegate 950 ns; decode runs at 250 ns (mul 200, relu 30).
    clock = Clock(10000)
    v2 = [load(), forward_run(clock, 0, "mul.out", 300, 950),
          load(30000, 3000),
          execute(clock, [lambda c: kernel(c, 0, "mul.out", 200),
                          lambda c: kernel(c, 1, "relu.out", 30)])]
    # A run of Inputs/getters.mlir as et-run runs an LLM program: each
    # method loaded then executed, in program order: the two forwards (one
    # delegate call each, alike), then three getters with no instructions.
    clock = Clock(10000)
    getters = []
    for took in (900, 1100):
        getters += [load(clock.now, 5000), execute(clock, [
            lambda c, took=took: delegate(c, 0, took)])]
        clock.take(6000)
    for _ in range(3):
        getters += [load(clock.now, 1700), execute(clock, [])]
        clock.take(1800)
    return {"joined": joined, "in-order": in_order, "unmatched": unmatched,
            "odd": odd, "empty": [], "llm-alike": llm, "debug": debug,
            "v2": v2, "getters": getters}


def write(flatc, schema_dir, out, name, blocks):
    """OUT/NAME.json and, by flatc, the size-prefixed OUT/NAME.etdp."""
    path = os.path.join(out, name + ".json")
    with open(path, "w") as f:
        json.dump({"version": 0, "run_data": blocks}, f, indent=1)
    subprocess.run([flatc, "--binary", "--size-prefixed", "-I", schema_dir,
                    "-o", out, os.path.join(schema_dir, "etdump.fbs"), path],
                   check=True)


def main():
    flatc, schema_dir, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "debug.bin"), "wb") as f:
        f.write(DEBUG_BUFFER)
    for name, blocks in scenarios().items():
        write(flatc, schema_dir, out, name, blocks)


if __name__ == "__main__":
    main()
