# ===- emit/_tools.py - The tools, as console scripts ---------------------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# A wheel carries emit's tools in _bin/; pip puts a console script of each
# name on the environment's PATH, which runs the tool in its place.
# ===----------------------------------------------------------------------===#

import os
import sys

_BIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin")


def _run(name):
    """Replaces this process with the tool `name`, its arguments this
    script's."""
    path = os.path.join(_BIN, name)
    if not os.access(path, os.X_OK):
        sys.exit("%s: not in this installation of emit (%s)" % (name, path))
    os.execv(path, [name] + sys.argv[1:])


def emit_opt():
    _run("emit-opt")


def emit_translate():
    _run("emit-translate")


def emit_link():
    _run("emit-link")


def emit_verify():
    _run("emit-verify")


def emit_diff():
    _run("emit-diff")
