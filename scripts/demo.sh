#!/usr/bin/env bash
#===- scripts/demo.sh - Build emit and run the main job on an example -----===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Sets everything up (scripts/setup.sh), then deduplicates the delegate
# payloads of examples/llm-prefill-decode.mlir and writes it as a .pte,
# printing what changed.
#
#   scripts/demo.sh [INPUT.mlir]
#===----------------------------------------------------------------------===#
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
input="${1:-$root/examples/llm-prefill-decode.mlir}"
out="$build/demo"

"$root/scripts/setup.sh" "$build"
mkdir -p "$out"
name="$(basename "${input%.mlir}")"

echo
echo "== emit-opt --dedup-delegate-blobs $input"
"$build/bin/emit-opt" "$input" --dedup-delegate-blobs -o "$out/$name.dedup.mlir"
echo "== emit-translate --to-pte -> $out/$name.pte"
"$build/bin/emit-translate" --to-pte "$out/$name.dedup.mlir" -o "$out/$name.pte"
# The same program written without dedup, for comparison.
"$build/bin/emit-opt" "$input" --canonicalize |
  "$build/bin/emit-translate" --to-pte -o "$out/$name.nodedup.pte"

echo
echo "== before: emit-translate --pte-summary $name.nodedup.pte"
"$build/bin/emit-translate" --pte-summary "$out/$name.nodedup.pte"
echo
echo "== after: emit-translate --pte-summary $name.pte"
"$build/bin/emit-translate" --pte-summary "$out/$name.pte"
"$build/bin/emit-translate" --pte-summary --pte-summary-format=html \
  "$out/$name.nodedup.pte" -o "$out/$name.nodedup.html"
echo
echo "$(stat -c %s "$out/$name.nodedup.pte") bytes without dedup, $(stat -c %s "$out/$name.pte") with;" \
  "written $out/$name.pte, and where the bytes go before dedup:" \
  "$out/$name.nodedup.html"
