# ===- emit/__init__.py - emit for Python ---------------------------------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===#
"""emit: deduplicate and inspect ExecuTorch programs from Python.

The same in-process pipeline as ``emit-translate --pte-to-pte``, on paths or
on the bytes ``to_executorch()`` gives::

    import emit
    report = emit.dedup("model.pte", "model.dedup.pte", scope="method")
    data, report = emit.dedup(program.buffer)
    print(emit.summary("model.dedup.pte")["dedup_saves"])
    print(emit.verify("model.pte", data=["weights.ptd"])["runtime_load"])
    print(emit.verify("model.pte", kernels="portable")["kernels"]["missing"])
    open("selected_operators.yaml", "w").write(emit.selected_ops("model.pte"))
    print(emit.memory("model.pte")["methods"][0]["method_allocator_bytes"])
    print(emit.profile("run.etdp", "model.pte")["methods"][0]["by_operator"])
    print(emit.graph("model.pte")["methods"][0]["fallback"])

Errors raise :class:`emit.EmitError`, whose message is emit's diagnostic.
An installed wheel also puts emit's tools (``emit-translate``,
``emit-verify``, ...) on the environment's ``PATH``.
"""

from ._capi import (EmitError, dedup, diff, graph, link, memory, profile,
                    replan, selected_ops, summary, verify, version)

#: emit's version, as its tools' ``--version`` and the C API say it.
__version__ = version()

__all__ = ["EmitError", "__version__", "dedup", "diff", "graph", "link",
           "memory", "profile", "replan", "selected_ops", "summary",
           "verify", "version"]
