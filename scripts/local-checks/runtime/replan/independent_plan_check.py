#!/usr/bin/env python3
# ===- independent_plan_check.py - Is a re-planned program the same program? -===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Written for the test, apart from emit's overlap check and its data flow:
# reads both files' flatbuffers (decoded by flatc against the schema) and
# the runtime's semantics of a plan, and says whether NEW re-plans OLD's
# memory safely:
#
#   independent_plan_check.py FLATC SCHEMA OLD.pte NEW.pte
#
# Lifetimes, from the instructions in chain order: a value lives from the
# first instruction that names it to the last (a tensor list names its
# items); the method's inputs from the first instruction, its outputs to
# the last; a tensor with allocation_info and a data_buffer_idx (a mutable
# buffer, whose state the runtime loads into its bytes) throughout; a
# backward jump_false makes every lifetime that meets the loop cover it.
# Rules:
#   1. two tensors that share a byte of NEW's plan while both live shared
#      bytes in OLD's too, at the same distance (an alias ExecuTorch made:
#      an in-place result, a view): nothing new shares;
#   2. two tensors that shared bytes in OLD while both live, or an
#      unwritten tensor of as many bytes as the one that held its bytes
#      before it (a view the emitter elided), stay in one buffer at the
#      same distance in NEW;
#   3. every tensor lies inside its NEW buffer, and its offset is aligned
#      to at least min(16, the power of two its OLD offset was);
#   4. apart from where tensors lie and the buffers' sizes, the execution
#      plans are identical.
# Prints each violation and a summary line; exits 1 on any.
# ===----------------------------------------------------------------------===#

import copy
import glob
import json
import re
import subprocess
import sys
import tempfile

ELEMENT = {0: 1, 1: 1, 2: 2, 3: 4, 4: 8, 5: 2, 6: 4, 7: 8, 8: 4, 9: 8,
           10: 16, 11: 1, 12: 1, 13: 1, 14: 1, 15: 2, 16: 1, 17: 1, 18: 1,
           19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 24: 1, 25: 1, 26: 2, 27: 4,
           28: 8, 29: 1, 30: 1}


def decode(flatc, schema, path):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([flatc, "--json", "--strict-json", "--defaults-json",
                        "--raw-binary", "-o", out, schema, "--", path],
                       check=True, capture_output=True)
        with open(glob.glob(out + "/*.json")[0]) as f:
            text = f.read()
    # flatc writes non-finite doubles bare, as C prints them.
    text = re.sub(r"(?<=[:\[,\s])(-?)inf\b",
                  lambda m: m.group(1) + "Infinity", text)
    text = re.sub(r"(?<=[:\[,\s])-?nan\b", "NaN", text)
    return json.loads(text)


def placements(plan):
    """Per planned tensor value: (memory id, offset, bytes, is mutable)."""
    placed = {}
    for index, value in enumerate(plan.get("values", [])):
        if value.get("val_type") != "Tensor":
            continue
        tensor = value["val"]
        info = tensor.get("allocation_info")
        if not info:
            continue
        count = 1
        for size in tensor.get("sizes", []):
            count *= size
        offset = info.get("memory_offset_low", 0) + \
            (info.get("memory_offset_high", 0) << 32)
        placed[index] = (info["memory_id"], offset,
                         count * ELEMENT.get(tensor.get("scalar_type", 0), 1),
                         tensor.get("data_buffer_idx", 0) > 0)
    return placed


def named(plan, index):
    """`index` and, for a list, its items."""
    values = plan.get("values", [])
    out = [index]
    if 0 <= index < len(values):
        value = values[index]
        if value.get("val_type") in ("TensorList", "OptionalTensorList"):
            out += [i for i in value["val"].get("items", []) if i >= 0]
    return out


def instructions(plan):
    """(global index, chain start, instruction) in order."""
    at = 0
    for chain in plan.get("chains", []):
        start = at
        for instruction in chain.get("instructions", []):
            yield at, start, instruction
            at += 1


def arguments(instruction):
    kind, call = instruction.get("instr_args_type"), \
        instruction.get("instr_args", {})
    if kind in ("KernelCall", "DelegateCall"):
        return call.get("args", [])
    if kind == "MoveCall":
        return [call.get("move_from", -1), call.get("move_to", -1)]
    if kind == "JumpFalseCall":
        return [call.get("cond_value_index", -1)]
    if kind == "FreeCall":
        return [call.get("value_index", -1)]
    return []


def lifetimes(plan, placed):
    live, loops, last = {}, [], -1
    for at, start, instruction in instructions(plan):
        last = at
        for arg in arguments(instruction):
            for value in named(plan, arg):
                first, end = live.get(value, (at, at))
                live[value] = (min(first, at), max(end, at))
        if instruction.get("instr_args_type") == "JumpFalseCall":
            destination = start + instruction["instr_args"].get(
                "destination_instruction", 0)
            if destination <= at:
                loops.append((destination, at))
    end = max(last, 0)
    for value in plan.get("inputs", []):
        for item in named(plan, value):
            first, stop = live.get(item, (0, 0))
            live[item] = (0, stop)
    for value in plan.get("outputs", []):
        for item in named(plan, value):
            first, stop = live.get(item, (end, end))
            live[item] = (first, end)
    for value, (_, _, _, mutable) in placed.items():
        if mutable:
            live[value] = (0, end)
    changed = True
    while changed:
        changed = False
        for begin, stop in loops:
            for value, (first, last_at) in live.items():
                if first <= stop and begin <= last_at and \
                        (first > begin or last_at < stop):
                    live[value] = (min(first, begin), max(last_at, stop))
                    changed = True
    return live


def written(plan):
    """Values a kernel call writes (its last argument) or a delegate call
    names: what holds data after it."""
    out = set()
    for _, _, instruction in instructions(plan):
        if instruction.get("instr_args_type") == "KernelCall":
            args = instruction["instr_args"].get("args", [])
            if args:
                out.update(named(plan, args[-1]))
        elif instruction.get("instr_args_type") == "DelegateCall":
            for arg in instruction["instr_args"].get("args", []):
                out.update(named(plan, arg))
    return out


def overlapping_pairs(placed, live):
    """Pairs of planned tensors that share bytes while both are live."""
    events = sorted((live[v][0], v) for v in placed if v in live)
    active, pairs = [], set()
    for start, value in events:
        active = [w for w in active if live[w][1] >= start]
        memory, offset, size, _ = placed[value]
        for other in active:
            om, oo, osize, _ = placed[other]
            if om == memory and size and osize and offset < oo + osize and \
                    oo < offset + size:
                pairs.add((min(value, other), max(value, other)))
        active.append(value)
    return pairs


def elided_views(plan, placed, live):
    """(view, base): an unwritten tensor not given, on the same bytes as
    the tensor that held them before it starts, of as many bytes (a view
    never changes how many; a kernel's scratch buffer, which it writes
    though no call returns it, may)."""
    given = set(plan.get("inputs", [])) | {
        v for v, p in placed.items() if p[3]}
    writes = written(plan)
    by_place = {}
    for value in sorted(placed, key=lambda v: live.get(v, (1 << 60,))[0]):
        if value not in live:
            continue
        key = placed[value][:2]
        if value not in writes and value not in given and key in by_place \
                and placed[by_place[key]][2] == placed[value][2]:
            yield value, by_place[key]
        by_place[key] = value


def alignment(offset):
    return offset & -offset if offset else 1 << 62


def check_plan(old, new, name):
    violations = []
    before, after = placements(old), placements(new)
    live = lifetimes(old, before)
    if set(before) != set(after):
        return [f"{name}: planned tensors differ"]
    sizes = new.get("non_const_buffer_sizes", [])
    for value, (memory, offset, size, _) in after.items():
        if memory >= len(sizes) or offset + size > sizes[memory]:
            violations.append(f"{name}: value {value} [{offset}, "
                              f"{offset + size}) is outside buffer {memory}")
        if alignment(offset) < min(16, alignment(before[value][1])):
            violations.append(f"{name}: value {value} at {offset} is less "
                              f"aligned than at {before[value][1]}")

    def distance(place, a, b):
        """Whether two tensors are in one buffer, and how far apart: what
        sharing bytes keeps, wherever the pair moves."""
        return (place[a][0] == place[b][0], place[a][1] - place[b][1])

    old_pairs = overlapping_pairs(before, live)
    for a, b in overlapping_pairs(after, live):
        if (a, b) not in old_pairs or \
                distance(before, a, b) != distance(after, a, b):
            violations.append(f"{name}: values {a} and {b} share bytes while "
                              f"both live ({live[a]} and {live[b]})")
    for a, b in old_pairs:
        if distance(before, a, b) != distance(after, a, b):
            violations.append(f"{name}: values {a} and {b}, one storage in "
                              f"the old plan, were moved apart")
    for view, base in elided_views(old, before, live):
        if distance(before, view, base) != distance(after, view, base):
            violations.append(f"{name}: value {view}, a view of {base}'s "
                              f"bytes, was moved off them")
    return violations


def without_placements(plan):
    plan = copy.deepcopy(plan)
    plan.pop("non_const_buffer_sizes", None)
    for value in plan.get("values", []):
        if value.get("val_type") == "Tensor":
            value["val"].pop("allocation_info", None)
    return plan


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    flatc, schema, old_path, new_path = sys.argv[1:]
    old, new = decode(flatc, schema, old_path), decode(flatc, schema, new_path)
    violations, tensors = [], 0
    old_plans = old.get("execution_plan", [])
    new_plans = new.get("execution_plan", [])
    if len(old_plans) != len(new_plans):
        violations.append("the number of methods differs")
    for old_plan, new_plan in zip(old_plans, new_plans):
        name = old_plan.get("name", "?")
        tensors += len(placements(old_plan))
        violations += check_plan(old_plan, new_plan, name)
        if without_placements(old_plan) != without_placements(new_plan):
            violations.append(f"{name}: the plan changed beyond where its "
                              f"tensors lie")
    for line in violations[:50]:
        print("violation: " + line)
    print(f"{new_path}: {len(old_plans)} methods, {tensors} planned tensors, "
          f"{len(violations)} violations")
    sys.exit(1 if violations else 0)


if __name__ == "__main__":
    main()
