#!/usr/bin/env python3
# et_python_job.py - the job emit-translate --pte-to-pte does, done with
# ExecuTorch's own Python serializer: the reference the benchmarks compare
# emit against.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Reads IN.pte (deserialize_pte_binary moves every segment back into the
# program), stores each distinct delegate payload once, keyed by its SHA-256,
# and writes OUT.pte with segments extracted (serialize_pte_binary,
# 128-byte segment alignment). Needs ExecuTorch's Python serializer
# (../shared/tools/et-python): run with PYTHONPATH pointing at it.
#
#   PYTHONPATH=$HOME/.cache/et-python python3 et_python_job.py IN.pte OUT.pte

import hashlib
import sys

from executorch.exir._serialize._program import (deserialize_pte_binary,
                                                 serialize_pte_binary)
from executorch.exir.schema import DataLocation


def share_payloads(program):
    """Points every delegate at one inline entry per distinct payload."""
    entries = []
    index_of = {}
    for plan in program.execution_plan:
        for delegate in plan.delegates:
            if delegate.processed.location != DataLocation.INLINE:
                continue
            data = program.backend_delegate_data[delegate.processed.index]
            key = hashlib.sha256(data.data).digest()
            if key not in index_of:
                index_of[key] = len(entries)
                entries.append(data)
            delegate.processed.index = index_of[key]
    program.backend_delegate_data = entries


def main():
    source, target = sys.argv[1:3]
    with open(source, "rb") as f:
        pte = deserialize_pte_binary(f.read())
    share_payloads(pte.program)
    data = serialize_pte_binary(pte, extract_delegate_segments=True,
                                segment_alignment=128)
    with open(target, "wb") as f:
        f.write(bytes(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
