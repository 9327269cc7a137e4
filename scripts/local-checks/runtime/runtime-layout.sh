#!/usr/bin/env bash
# Checks include/emit/Memory/RuntimeLayouts.def against the runtime it models: compiles
# runtime-layout/probe.cpp against the ExecuTorch sources and objects that
# ../shared/tools/pte-check/build.sh left (host and --arm32 builds), runs it
# (the ARM one under qemu-user) and compares the sizes and alignments it
# prints, and the sources' revision, with the table's.
#
#   scripts/local-checks/runtime/runtime-layout.sh [PTE_CHECK_OUT_DIR]
#
# PTE_CHECK_OUT_DIR defaults to ~/.cache/emit-bars/ptecheck. Prints the table
# the runtime implies; exits 1 when it differs from the checked-in one.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
HERE=$here
ROOT=$root
OUT=${1:-$HOME/.cache/emit-bars/ptecheck}
ET=$OUT/src/executorch
[ -d "$ET" ] && [ -f "$OUT/src/REV" ] ||
  { echo "runtime-layout: no ExecuTorch sources in $OUT (run pte-check's build.sh --arm32)" >&2; exit 2; }
REV=$(cat "$OUT/src/REV")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FLAGS=(-std=c++17 -O1 -Wno-deprecated-declarations -Wno-psabi
  -DET_ENABLE_PROGRAM_VERIFICATION=1 -DET_LOG_ENABLED=1 -DET_MIN_LOG_LEVEL=Info
  -DFLATBUFFERS_MAX_ALIGNMENT=1024 -DEXECUTORCH_INTERNAL_FLATBUFFERS=1
  -DC10_USING_CUSTOM_GENERATED_MACROS
  -I"$OUT/gen" -I"$OUT/src" -I"$ET/runtime/core/portable_type/c10")

# probe VARIANT COMPILER RUNNER... : the probe's lines for one target.
probe() {
  local variant=$1 cxx=$2
  shift 2
  local objs=()
  for o in "$OUT/obj/$variant"/*.o; do
    case $o in */runtime_executor_method.o | */pte_check.o) ;; *) objs+=("$o") ;; esac
  done
  [ ${#objs[@]} -gt 0 ] ||
    { echo "runtime-layout: no $variant objects in $OUT/obj (build.sh${variant/release/})" >&2; exit 2; }
  local extra=()
  [ "$variant" = arm32 ] && extra=(-static)
  "$cxx" "${FLAGS[@]}" "${extra[@]}" "$HERE/runtime-layout/probe.cpp" "${objs[@]}" \
    -o "$WORK/probe-$variant"
  "$@" "$WORK/probe-$variant"
}
probe release "${CXX:-g++}" >"$WORK/64"
probe arm32 "${ARM_CXX:-arm-linux-gnueabihf-g++}" "${QEMU_ARM:-qemu-arm}" >"$WORK/32"

{
  echo "RUNTIME_REVISION(\"$REV\")"
  join "$WORK/64" "$WORK/32" -o 0,1.2,1.3,2.2,2.3 --nocheck-order |
    awk '{ printf "RUNTIME_TYPE(%s, %s, %s, %s, %s)\n", $1, $2, $3, $4, $5 }'
} >"$WORK/implied"
cat "$WORK/implied"
grep -E '^RUNTIME_(TYPE|REVISION)' "$ROOT/include/emit/Memory/RuntimeLayouts.def" |
  sed 's/ *\/\/.*//' >"$WORK/table" || true
if diff -u "$WORK/table" "$WORK/implied" >"$WORK/diff"; then
  echo "runtime-layout: include/emit/Memory/RuntimeLayouts.def matches the runtime at $REV"
else
  cat "$WORK/diff"
  echo "runtime-layout: include/emit/Memory/RuntimeLayouts.def differs from the runtime at $REV" >&2
  exit 1
fi
