#!/bin/sh
# pte-json.sh FLATC SCHEMA FILE.pte: decode a .pte to JSON on stdout with the
# project's schema (flatc writes FILE.json into a directory; this hides it).
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
set -e
flatc=$1 schema=$2 input=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$flatc" --json --strict-json --raw-binary --defaults-json -o "$out" "$schema" -- "$input"
cat "$out"/*.json
