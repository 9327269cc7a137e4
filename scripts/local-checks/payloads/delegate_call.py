# ===- delegate_call.py - A payload in a program, as emit-graph sees it ---=== #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# The payload checks' shared step: a program of one method that makes one
# delegate call (the payload inline, the entry's compile specs given),
# written by flatc from schema/program.fbs, and emit-graph's JSON node of
# that call.
# ===----------------------------------------------------------------------=== #

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)
import subprocess

SCHEMA_DIR = common.SCHEMA_DIR


def write_program(work, backend, payload, specs=()):
    """WORK/program.pte: one call of `backend` with `payload` inline and
    `specs` (key, bytes) as its compile specs."""
    plan = {"name": "forward", "values": [], "inputs": [], "outputs": [],
            "chains": [{"instructions": [{
                "instr_args_type": "DelegateCall",
                "instr_args": {"delegate_index": 0, "args": []}}]}],
            "operators": [],
            "delegates": [{"id": backend, "compile_specs": [
                {"key": key, "value": list(value)} for key, value in specs],
                "processed": {"location": "INLINE", "index": 0}}],
            "non_const_buffer_sizes": [0]}
    path = os.path.join(work, "program.json")
    with open(path, "w") as out:
        json.dump({"version": 0, "execution_plan": [plan],
                   "backend_delegate_data": [{"data": list(payload)}],
                   "segments": []}, out)
    subprocess.run(["flatc", "--binary", "-o", work,
                    os.path.join(SCHEMA_DIR, "program.fbs"), path], check=True)
    return os.path.join(work, "program.pte")


def decode_call(emit_graph, work, backend, payload, specs=()):
    """emit-graph's node of the call (its `delegate` and `problems`)."""
    graph = json.loads(subprocess.run(
        [emit_graph, "--format=json",
         write_program(work, backend, payload, specs), "-o", "-"],
        capture_output=True, check=True).stdout)
    return [n for n in graph["methods"][0]["nodes"] if n.get("delegate")][0]
