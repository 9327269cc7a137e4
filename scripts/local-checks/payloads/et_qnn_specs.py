#!/usr/bin/env python3
# ===- et_qnn_specs.py - QNN compile specs of every release, decoded -----=== #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# A QNN entry's `qnn_compile_spec` is a QnnExecuTorchOptions flatbuffer that
# ExecuTorch writes with flatc from its own schema, which changed across
# releases (schema.fbs up to 0.4, qc_compiler_spec.fbs after; 1.1 removed
# two fields and so moved every later one). For each release tag of the
# ExecuTorch snapshot, this writes options with that release's own schema
# (every field the release's dataclass writes, the settings below), puts
# them in a program beside a QNN payload, and checks what emit-graph
# decodes against the settings given.
#
#   python3 et_qnn_specs.py BUILD/bin/emit-graph EXECUTORCH_GIT_DIR
#
# Prints a table, one row per release; exits 1 on any difference.
# ===----------------------------------------------------------------------=== #

import json
import os
import re
import struct
import subprocess
import sys
import tempfile

from delegate_call import decode_call

EMIT_GRAPH, REPO = sys.argv[1:3]
TAGS = ["v0.2.0", "v0.3.0", "v0.4.0", "v0.5.0", "v0.6.0", "v0.7.0", "v1.0.0",
        "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0", "refs/heads/main"]
SETTINGS = {"soc_model": "SM8650", "htp_arch": "V75", "vtcm_size_in_mb": "4",
            "backend_type": "kHtpBackend", "performance_mode": "kHtpBurst",
            "precision": "kHtpFp16", "pd_session": "kHtpSignedPd",
            "max_sf_buf_size": "64"}


def git_show(tag, path):
    result = subprocess.run(["git", "-C", REPO, "show", "%s:%s" % (tag, path)],
                            capture_output=True)
    return result.stdout if result.returncode == 0 else None


def schema_of(tag):
    for path in ("backends/qualcomm/serialization/qc_compiler_spec.fbs",
                 "backends/qualcomm/serialization/schema.fbs"):
        text = git_show(tag, path)
        if text is not None:
            return text.decode()
    return None


def table_fields(schema, table):
    body = re.search(r"table %s \{(.*?)\}" % table, schema, re.S).group(1)
    body = re.sub(r"//[^\n]*", "", body)
    return dict(re.findall(r"(\w+)\s*:\s*([\w\[\]]+)", body))


def options_json(schema):
    """What the release's dataclass writes: every field, defaults where the
    settings say nothing, with the settings above."""
    htp_fields = table_fields(schema, "QnnExecuTorchHtpBackendOptions")
    htp = {"max_sf_buf_size": 64, "performance_mode": "kHtpBurst",
           "precision": "kHtpFp16", "pd_session": "kHtpSignedPd"}
    for name, kind in htp_fields.items():
        htp.setdefault(name, "" if kind == "string" else
                       name in ("use_conv_hmx", "use_fold_relu",
                                "use_weight_sharing"))
    options = {"soc_info": {"soc_model": "SM8650", "htp_info": {
                   "htp_arch": "V75", "vtcm_size_in_mb": 4}},
               "backend_options": {"backend_type": "kHtpBackend",
                                   "htp_options": htp}}
    for name, kind in table_fields(schema, "QnnExecuTorchOptions").items():
        if name in options:
            continue
        if name == "graph_name":
            options[name] = ["forward"] if kind.startswith("[") else "forward"
        elif kind == "string":
            options[name] = ""
        elif kind == "bool":
            options[name] = False
        elif kind.startswith("QnnExecuTorchOpPackageOptions"):
            options[name] = {"op_package_infos": []}
    return options


# A QNN payload: the 256-byte header (magic, signature, context binary
# size), then the context binary.
PAYLOAD = struct.pack("<IQQ", 0x5678ABCD, 7, 64) + bytes(236) + bytes(range(64))


def check(tag, work):
    schema = schema_of(tag)
    if schema is None:
        return None
    with open(os.path.join(work, "qnn.fbs"), "w") as out:
        out.write(schema)
    with open(os.path.join(work, "qnn.json"), "w") as out:
        json.dump(options_json(schema), out)
    subprocess.run(["flatc", "--binary", "-o", work,
                    os.path.join(work, "qnn.fbs"),
                    os.path.join(work, "qnn.json")], check=True)
    with open(os.path.join(work, "qnn.bin"), "rb") as data:
        spec = data.read()
    node = decode_call(EMIT_GRAPH, work, "QnnBackend", PAYLOAD,
                       [("qnn_compile_spec", spec)])
    decoded = node["delegate"]["compile_specs"][0].get("decoded")
    fields = len(table_fields(schema, "QnnExecuTorchOptions"))
    return len(spec), fields, decoded, node.get("problems", [])


def main():
    print("| release | spec B | options fields | decoded | result |")
    print("|---|---|---|---|---|")
    failed = False
    for tag in TAGS:
        with tempfile.TemporaryDirectory() as work:
            row = check(tag, work)
        name = tag.replace("refs/heads/", "")
        if row is None:
            print("| %s | - | - | no QNN schema | skipped |" % name)
            continue
        size, fields, decoded, problems = row
        same = decoded == SETTINGS and not problems
        failed |= not same
        print("| %s | %d | %d | %s | %s |" % (
            name, size, fields,
            ", ".join("%s=%s" % item for item in (decoded or {}).items()),
            "same" if same else "DIFFERS %s" % problems))
    sys.exit(1 if failed else 0)


main()
