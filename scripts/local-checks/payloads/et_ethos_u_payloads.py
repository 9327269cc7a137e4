#!/usr/bin/env python3
# ===- et_ethos_u_payloads.py - Ethos-U streams of every release, decoded === #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# An Ethos-U payload is the vela_bin_stream that ExecuTorch's
# backends/arm/arm_vela.py packs from the arrays Vela leaves in
# out_vela.npz: the command stream, the weights, the scratch size, the
# inputs and outputs (6-D shapes from 0.7, 4-D before), each block padded
# to 16; from 1.4 a block may be placed in named data, its data then a
# 64-byte key. For each release tag of the ExecuTorch snapshot with
# arm_vela.py, this runs that release's own packer (its vela_compile, with
# Vela itself stubbed to write the arrays given), places the weights in
# named data where the release can, and checks what emit-graph decodes:
# the blocks in order with their sizes, the scratch size, the input and
# output shapes and element sizes, the external key.
#
#   /usr/bin/python3 et_ethos_u_payloads.py BUILD/bin/emit-graph EXECUTORCH_GIT_DIR
#
# Needs python3-numpy. Prints a table, one row per release; exits 1 on any
# difference.
# ===----------------------------------------------------------------------=== #

import importlib.util
import inspect
import os
import subprocess
import sys
import tempfile
import types

import numpy as np

from delegate_call import decode_call

EMIT_GRAPH, REPO = sys.argv[1:3]
TAGS = ["v0.2.0", "v0.3.0", "v0.4.0", "v0.5.0", "v0.6.0", "v0.7.0", "v1.0.0",
        "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0", "refs/heads/main"]
COMMANDS = b"COP1" + bytes(range(60))
WEIGHTS = bytes(range(100))


def git_show(tag, path):
    result = subprocess.run(["git", "-C", REPO, "show", "%s:%s" % (tag, path)],
                            capture_output=True)
    return result.stdout if result.returncode == 0 else None


def stub_vela(rank):
    """A stand-in for ethosu.vela whose main writes out_vela.npz as Vela
    does: the arrays arm_vela.py reads."""

    def main(args):
        out = [a.split("=", 1)[1] for a in args if a.startswith("--output-dir=")][0]
        os.makedirs(out, exist_ok=True)
        shape = lambda *dims: [1] * (rank - len(dims)) + list(dims)
        arrays = dict(
                 cmd_data=np.frombuffer(COMMANDS, dtype=np.uint8),
                 weight_data=np.frombuffer(WEIGHTS, dtype=np.uint8),
                 scratch_shape=np.array([4096], dtype=np.int64),
                 input_shape=np.array([shape(1, 3, 8, 8)]),
                 input_elem_size=np.array([1]), input_offset=np.array([0]),
                 input_region=np.array([1]),
                 output_shape=np.array([shape(1, 10), shape(1, 1)]),
                 output_elem_size=np.array([1, 4]),
                 output_offset=np.array([0, 16]),
                 output_region=np.array([1, 1]))
        # 0.2 and 0.3 read the first subgraph's file.
        for name in ("out_vela.npz", "out_sg0_vela.npz"):
            np.savez(os.path.join(out, name), **arrays)
    vela = types.ModuleType("ethosu.vela.vela")
    vela.main = main
    package = types.ModuleType("ethosu.vela")
    package.vela = vela
    sys.modules.update({"ethosu": types.ModuleType("ethosu"),
                        "ethosu.vela": package, "ethosu.vela.vela": vela})


def load(tag, work):
    source = git_show(tag, "backends/arm/arm_vela.py")
    if source is None:
        return None
    if b"from ethosu.vela import vela" not in source:
        return "runs Vela as a program: not stubbed here"
    path = os.path.join(work, "arm_vela.py")
    with open(path, "wb") as out:
        out.write(source)
    rank = 6 if b"_shape_dims = 6" in source or b"dims = 6" in source else 4
    # 0.4 to 0.6 packed the scratch buffer itself.
    scratch_buffer = b'"scratch_data"' in source
    stub_vela(rank)
    spec = importlib.util.spec_from_file_location("arm_vela_" + str(id(work)),
                                                  path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, rank, scratch_buffer


class TosaGraph(bytes):
    """A TOSA flatbuffer, for releases that took a graph object (up to
    0.6: its serialize()) and for those that took bytes."""

    def serialize(self):
        return bytes(self)


def pack(module):
    """The release's stream; the weights in named data where it places
    blocks (1.4 on)."""
    params = inspect.signature(module.vela_compile).parameters
    kwargs = {"block_placements": {"weight_data": "program"}} \
        if "block_placements" in params else {}
    result = module.vela_compile(TosaGraph(b"a TOSA graph"), [], **kwargs)
    if isinstance(result, bytes):
        return result, None
    keys = [block.key for block in result.external_blocks]
    return result.processed_bytes, keys[0] if keys else None


def expected(rank, key, scratch_buffer):
    shape = lambda *dims: "[%s]" % ", ".join(
        map(str, [1] * (rank - len(dims)) + list(dims)))
    weights = ("weight_data", 64) if key else ("weight_data", len(WEIGHTS))
    scratch = ("scratch_data", 4096) if scratch_buffer else ("scratch_size", 4)
    parts = [("cmd_data", len(COMMANDS)), weights, scratch,
             ("inputs", 4 + len(["i"]) * (rank + 3) * 4),
             ("outputs", 4 + 2 * (rank + 3) * 4)]
    target = {"command stream": "COP1", "scratch_size": "4096",
              "inputs": "%s x 1 B" % shape(1, 3, 8, 8),
              "outputs": "%s x 1 B; %s x 4 B" % (shape(1, 10), shape(1, 1))}
    problems = ["block 'scratch_data' holds the scratch buffer, as ExecuTorch "
                "0.4 to 0.6 wrote it: their runtimes read it, 0.7 and later "
                "refuse the payload"] if scratch_buffer else []
    return parts, target, problems


def check(tag, work):
    loaded = load(tag, work)
    if loaded is None or isinstance(loaded, str):
        return loaded
    module, rank, scratch_buffer = loaded
    data, key = pack(module)
    node = decode_call(EMIT_GRAPH, work, "EthosUBackend", data)
    payload = node["delegate"]["payload"]
    parts, target, known = expected(rank, key, scratch_buffer)
    got_parts = [(r["name"], r["bytes"]) for r in payload["regions"]
                 if r["name"] in dict(parts)]
    differences = []
    if got_parts != parts:
        differences.append("parts %s, not %s" % (got_parts, parts))
    got_target = {k: v for k, v in payload["target"].items() if k in target}
    if got_target != target:
        differences.append("target %s, not %s" % (got_target, target))
    named = [p["key"] for p in node["delegate"].get("named_parts", [])]
    if key and key not in named:
        differences.append("named parts %s, not %s" % (named, key))
    problems = [p for p in node.get("problems", [])
                if "named data" not in p and p.split(": ", 1)[-1] not in known]
    return len(data), rank, bool(key), differences + problems


def main():
    print("| release | payload B | shape rank | weights by key | result |")
    print("|---|---|---|---|---|")
    failed = False
    for tag in TAGS:
        with tempfile.TemporaryDirectory() as work:
            row = check(tag, work)
        name = tag.replace("refs/heads/", "")
        if row is None or isinstance(row, str):
            print("| %s | - | - | - | %s |" % (name, row or "no arm_vela.py"))
            continue
        size, rank, external, differences = row
        failed |= bool(differences)
        print("| %s | %d | %d | %s | %s |" % (
            name, size, rank, "yes" if external else "no",
            "same" if not differences else "DIFFERS %s" % differences[:3]))
    sys.exit(1 if failed else 0)


main()
