# ===- emit/_tools.py - The tools, as console scripts ---------------------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# A wheel carries emit's tools in _bin/; pip puts a console script of each
# name (pyproject.toml's [project.scripts]) on the environment's PATH, which
# runs the tool in its place.
# ===----------------------------------------------------------------------===#

import os
import sys

_BIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin")


def main():
    """Replaces this process with the tool this console script is named
    after, its arguments the script's."""
    name = os.path.basename(sys.argv[0])
    path = os.path.join(_BIN, name)
    if not os.access(path, os.X_OK):
        sys.exit("%s: not in this installation of emit (%s)" % (name, path))
    os.execv(path, [name] + sys.argv[1:])
