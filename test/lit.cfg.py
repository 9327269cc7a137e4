# lit.cfg.py - lit configuration of emit's regression tests.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "EMIT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "consumer", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py",
                   "fuzz-replay.test.mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.emit_obj_root, "test")

# FileCheck variables do not leak across CHECK-LABEL blocks.
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

schema = os.path.join(config.emit_src_root, "schema", "program.fbs")
config.substitutions.append(("%schema", schema))
config.substitutions.append(
    ("%bundle_schema", os.path.join(config.emit_src_root, "schema",
                                    "bundled_program.fbs")))
config.substitutions.append(
    ("%pte-patch", "%s %s" % (config.python_executable, os.path.join(
        config.emit_src_root, "test", "Inputs", "pte-patch.py"))))
config.substitutions.append(
    ("%validate-json", "%s %s" % (config.python_executable, os.path.join(
        config.emit_src_root, "test", "Inputs", "validate-json.py"))))
config.substitutions.append(
    ("%header-mutants", "%s %s" % (config.python_executable, os.path.join(
        config.emit_src_root, "test", "Inputs", "header-mutants.py"))))
config.substitutions.append(
    ("%run-and-change", "%s %s" % (config.python_executable, os.path.join(
        config.emit_src_root, "test", "tools", "Inputs",
        "run-and-change.py"))))
config.substitutions.append(("%flatc", config.flatc))
config.substitutions.append(("%python", config.python_executable))
# Debian's python3 with pytest, for the Python package's tests.
system_python = "/usr/bin/python3"
if subprocess.run([system_python, "-c", "import pytest"],
                  capture_output=True).returncode == 0:
    config.available_features.add("system-pytest")
    config.substitutions.append(("%system_python", system_python))
else:
    lit_config.note("Debian's python3 has no pytest: the Python package's "
                    "tests are unsupported (apt-get install python3-pytest)")
# Debian's python3-build and python3-venv, to build the wheel and install it.
if subprocess.run([system_python, "-c", "import build, ensurepip, venv"],
                  capture_output=True).returncode == 0:
    config.available_features.add("python-build")
else:
    lit_config.note("Debian's python3 cannot build and install a wheel: the "
                    "wheel's test is unsupported (apt-get install "
                    "python3-build python3-venv)")
config.substitutions.append(("%mlir_cmake_dir", config.mlir_cmake_dir))
if config.emit_sanitize:
    config.available_features.add("sanitizers")
config.substitutions.append(("%emit_src_root", config.emit_src_root))
config.substitutions.append(
    ("%emit_plugin", os.path.join(config.emit_obj_root, "lib", "EmitPlugin.so")))
config.substitutions.append(("%emit_obj_root", config.emit_obj_root))
ptd_schema = os.path.join(config.emit_src_root, "schema", "flat_tensor.fbs")
config.substitutions.append(("%ptd_schema", ptd_schema))
# ExecuTorch 0.6's FlatTensor schema (same identifier, other tables).
ptd_0_6_schema = os.path.join(config.emit_src_root, "schema",
                              "flat_tensor_0_6.fbs")
config.substitutions.append(("%ptd_0_6_schema", ptd_0_6_schema))
config.substitutions.append(
    ("%ptd-wrap", "%s %s" % (config.python_executable, os.path.join(
        config.emit_src_root, "test", "Inputs", "ptd-wrap.py"))))
config.substitutions.append(
    ("%expect-exit", "%s %s" % (config.python_executable, os.path.join(
        config.emit_src_root, "test", "Inputs", "expect-exit.py"))))
# Decodes a .pte or a .ptd to JSON on stdout with the project's schemas.
config.substitutions.append(
    ("%graph-lines", "%s %s" % (config.python_executable, os.path.join(
        config.emit_src_root, "test", "Graph", "Inputs",
        "graph-lines.py"))))
config.substitutions.append(
    ("%memory-lines", "%s %s" % (config.python_executable, os.path.join(
        config.emit_src_root, "test", "Inputs", "memory-lines.py"))))
pte_json = os.path.join(config.emit_src_root, "test", "Inputs", "pte-json.py")
config.substitutions.append(
    ("%pte-json", "%s %s %s %s" % (config.python_executable, pte_json,
                                   config.flatc, schema)))
config.substitutions.append(
    ("%bundle-decode", "%s %s %s %s" % (
        config.python_executable,
        os.path.join(config.emit_src_root, "test", "Inputs", "bundle-decode.py"),
        config.flatc, os.path.join(config.emit_src_root, "schema",
                                   "bundled_program.fbs"))))
# Writes the ETDumps of emit-profile's tests (a scenario per file) with flatc.
config.substitutions.append(
    ("%etdump-gen", "%s %s %s %s" % (
        config.python_executable,
        os.path.join(config.emit_src_root, "test", "Profile",
                     "Inputs", "etdump-gen.py"),
        config.flatc, os.path.join(config.emit_src_root, "schema"))))
config.substitutions.append(
    ("%ptd-json", "%s %s %s %s" % (config.python_executable, pte_json,
                                   config.flatc, ptd_schema)))
config.substitutions.append(
    ("%ptd-0.6-json", "%s %s %s %s" % (config.python_executable, pte_json,
                                       config.flatc, ptd_0_6_schema)))

# Real ExecuTorch files live beside the checkout; tests that read them
# require the `pte-samples` feature and are UNSUPPORTED without it.
# A real browser for the HTML report (scripts/test.sh installs Debian's
# chromium), headless; a test gives it a profile directory of its own.
chromium = shutil.which("chromium")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(
        ("%chromium", "%s --headless --no-sandbox --disable-gpu "
         "--hide-scrollbars" % chromium))
else:
    lit_config.note("chromium not found: the browser test of the HTML "
                    "report is UNSUPPORTED")

# The MLIR emit is built against: mlir-19 or mlir-22.
config.available_features.add("mlir-" + config.llvm_version_major)

samples = os.path.abspath(os.path.join(config.emit_src_root, "..", "shared",
                                       "pte-samples"))
if os.path.isdir(samples):
    config.available_features.add("pte-samples")
    config.substitutions.append(("%pte_samples", samples))
else:
    lit_config.note("../shared/pte-samples not found: tests on real .pte "
                    "files are UNSUPPORTED")

# Opt-in: run every emit-opt invocation with --verify-roundtrip
# (lit --param verify_roundtrip=1). Tests with resources mark themselves
# UNSUPPORTED then: MLIR 19's round trip re-reads the bytecode in the same
# context, where every resource key is taken, so the keys come back renamed.
emit_opt = ToolSubst("emit-opt", unresolved="fatal")
if lit_config.params.get("verify_roundtrip"):
    config.available_features.add("verify-roundtrip")
    emit_opt = ToolSubst("emit-opt", command=os.path.join(
        config.emit_tools_dir, "emit-opt"), extra_args=["--verify-roundtrip"])
llvm_config.add_tool_substitutions(
    [emit_opt, ToolSubst("emit-translate", unresolved="fatal"),
     ToolSubst("emit-link", unresolved="fatal"),
     ToolSubst("emit-verify", unresolved="fatal"),
     ToolSubst("emit-memory", unresolved="fatal"),
     ToolSubst("emit-profile", unresolved="fatal"),
     ToolSubst("emit-diff", unresolved="fatal"),
     ToolSubst("emit-graph", unresolved="fatal"),
     ToolSubst("emit-pte-fuzz-replay", unresolved="fatal"),
     ToolSubst("emit-example-view", unresolved="fatal"),
     ToolSubst("mlir-opt", unresolved="fatal")],
    [config.emit_tools_dir, config.mlir_tools_dir, config.llvm_tools_dir])
