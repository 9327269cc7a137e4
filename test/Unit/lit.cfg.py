# lit.cfg.py - lit configuration of emit's unit tests (GoogleTest).
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Every binary under <build>/unittests whose name ends in "Tests" is a
# GoogleTest program; each of its tests is one lit test.

import os

import lit.formats

config.name = "EMIT-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.emit_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
# Keep the sanitizers' settings of the enclosing run.
for name in ["ASAN_OPTIONS", "UBSAN_OPTIONS", "TMPDIR"]:
    if name in os.environ:
        config.environment[name] = os.environ[name]
