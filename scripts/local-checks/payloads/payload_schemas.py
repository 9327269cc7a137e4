#!/usr/bin/env python3
# ===- payload_schemas.py - emit's payload schemas against ExecuTorch's ---=== #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# schema/mlx.fbs and schema/tosa.fbs describe ExecuTorch's MLX and TOSA
# payload schemas in fewer tables: operators whose fields are the same share
# one table, their union members aliases of it. A payload reads right only
# if every union tag names a table with the fields, in order, of the table
# ExecuTorch's schema gives that tag, and every enum has the same values.
# This compares them, for each release tag of the ExecuTorch snapshot that
# has each schema (MLX: backends/mlx/serialization/schema.fbs; TOSA 1.x:
# backends/arm/tosa/schemas/tosa_1.*.fbs; TOSA 0.80: tosa_0.80.fbs), and
# says which tags a newer ExecuTorch appended that emit does not read yet.
#
#   python3 payload_schemas.py EXECUTORCH_GIT_DIR
#
# Prints a table; exits 1 on any difference.
# ===----------------------------------------------------------------------=== #

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)

REPO = sys.argv[1]
SCHEMA_DIR = common.SCHEMA_DIR
TAGS = ["v0.7.0", "v1.0.0", "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0",
        "refs/heads/main"]
# The same scalar types by their other names.
ALIASES = {"int32": "int", "uint32": "uint", "int16": "short",
           "int64": "long", "uint64": "ulong", "int8": "byte",
           "uint8": "ubyte"}


def git_show(tag, path):
    result = subprocess.run(["git", "-C", REPO, "show", "%s:%s" % (tag, path)],
                            capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else None


def strip(text):
    return re.sub(r"//[^\n]*", "", text)


def field(text):
    """`name: type = default (attrs)` without spaces, scalar aliases made
    one, a namespace dropped."""
    text = re.sub(r"\s+", "", text)
    for alias, name in ALIASES.items():
        text = re.sub(r"\b%s\b" % alias, name, text)
    return re.sub(r"\bemit_tosa\.", "", text)


def tables(text):
    return {name: [field(f) for f in body.split(";") if f.strip()]
            for name, body in re.findall(r"table\s+(\w+)\s*\{([^}]*)\}",
                                         text)}


def union(text, name):
    body = re.search(r"union\s+%s\s*\{([^}]*)\}" % name, text).group(1)
    return [member.strip() for member in body.split(",") if member.strip()]


def enum(text, name):
    """Names and values of the enum `name`."""
    match = re.search(r"enum\s+%s\s*:\s*\w+\s*\{([^}]*)\}" % name, text)
    if not match:
        return None
    values, next_value = [], 0
    for member in match.group(1).split(","):
        if not member.strip():
            continue
        name_, _, value = member.partition("=")
        next_value = int(value) if value.strip() else next_value
        values.append((name_.strip(), next_value))
        next_value += 1
    return values


def compare(theirs, ours, union_name, enums, typed_fields):
    """Differences between ExecuTorch's schema text and emit's, and how
    many union tags emit lacks."""
    t_tables, o_tables = tables(theirs), tables(ours)
    t_union, o_union = union(theirs, union_name), union(ours, union_name)
    differences = []
    # An older schema's table is a prefix of emit's (fields are appended
    # with defaults), its enums too.
    for tag, (member, mine) in enumerate(zip(t_union, o_union), 1):
        table = mine.split(":")[-1].strip()
        expected = t_tables[member]
        if o_tables.get(table, [])[:len(expected)] != expected:
            differences.append("tag %d %s: %s, not %s" % (
                tag, member, o_tables.get(table), expected))
    for name in enums:
        expected = enum(theirs, name)
        if expected and enum(ours, name)[:len(expected)] != expected:
            differences.append("enum %s" % name)
    for name, replaced in typed_fields.items():
        expected = [replaced.get(f, f) for f in t_tables.get(name, [])]
        if name in t_tables and o_tables[name][:len(expected)] != expected:
            differences.append("table %s: %s, not %s" % (
                name, o_tables[name], expected))
    return differences, max(0, len(t_union) - len(o_union))


def ours(name, section=None):
    with open(os.path.join(SCHEMA_DIR, name)) as f:
        text = strip(f.read())
    if section is None:
        return text
    main, old = text.split("namespace emit_tosa.v0_80;")
    return old if section == "0.80" else main


MLX_TABLES = {name: {} for name in (
    "MLXGraph", "TensorMeta", "ShapeDim", "SlotVariant", "NamedSlot",
    "Instruction", "InstructionChain", "IntOrVid", "FloatOrVid", "VidOrTid",
    "IntOrVidOrTid")}
# emit reads a TOSA tensor's and operator's numbers as plain uints, named
# by the version's enums.
TOSA_TYPED = {"type:DType": "type:uint", "op:Op": "op:uint"}
TOSA_TABLES = {name: TOSA_TYPED for name in (
    "Version", "TosaTensor", "TosaOperator", "TosaBasicBlock", "TosaRegion",
    "TosaGraph", "TosaShape", "OpLocation", "SoftwareVersion")}
TOSA_ENUMS = ["DType", "Op", "ResizeMode", "NanPropagationMode",
              "RoundingMode", "BlockSize"]


def rows():
    for tag in TAGS:
        name = tag.replace("refs/heads/", "")
        mlx = git_show(tag, "backends/mlx/serialization/schema.fbs")
        if mlx:
            yield (name, "MLX") + compare(strip(mlx), ours("mlx.fbs"),
                                          "OpNode", [], MLX_TABLES)
        for version in ("1.1", "1.0", "0.80"):
            tosa = git_show(tag, "backends/arm/tosa/schemas/tosa_%s.fbs"
                            % version)
            if not tosa:
                continue
            section = "0.80" if version == "0.80" else "1.x"
            tables_ = {} if version == "0.80" else TOSA_TABLES
            yield (name, "TOSA " + version) + compare(
                strip(tosa), ours("tosa.fbs", section), "Attribute",
                TOSA_ENUMS, tables_)


def main():
    print("| release | schema | result | tags emit lacks |")
    print("|---|---|---|---|")
    failed = False
    for release, schema, differences, missing in rows():
        failed |= bool(differences)
        print("| %s | %s | %s | %d |" % (
            release, schema,
            "same" if not differences else "DIFFERS %s" % differences[:3],
            missing))
    sys.exit(1 if failed else 0)


main()
