#!/usr/bin/env bash
# build.sh: builds bundle_check (what ExecuTorch's bundled-program reader
# does with a .bpte) against the runtime that ../shared/tools/pte-check
# builds, from the same ExecuTorch snapshot.
#
#   bash build.sh [SNAPSHOT_GIT_DIR [PTE_CHECK_DIR]]
#
#   SNAPSHOT_GIT_DIR  a snapshot of pytorch/executorch; default $ET_SNAPSHOT
#   PTE_CHECK_DIR     pte-check's build dir (its src/, gen/ and obj/release/);
#                     default $HOME/.cache/emit-bars/ptecheck (built first
#                     with ../shared/tools/pte-check/build.sh when missing)
#
# Writes PTE_CHECK_DIR/bundle-check. Local only: CI cannot fetch.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../common.sh"
snap=${1:-${ET_SNAPSHOT:?give the ExecuTorch snapshot as an argument or in ET_SNAPSHOT}}
out=${2:-$HOME/.cache/emit-bars/ptecheck}
ref=${ET_REF:-main}
if [ ! -d "$out/obj/release" ]; then
  bash "$shared/tools/pte-check/build.sh" "$snap" "$out"
fi
rev=$(cat "$out/src/REV")
et=$out/src/executorch
# The bundled-program reader and its schema, at pte-check's revision.
if [ "$(cat "$out/bundle-src.REV" 2>/dev/null)" != "$rev" ]; then
  rm -rf "$et/devtools/bundled_program"
  mkdir -p "$et/devtools/bundled_program"
  for d in schema; do
    git -C "$snap" archive --prefix="devtools/bundled_program/$d/" \
      "$rev:devtools/bundled_program/$d" | tar -x -C "$et"
  done
  for f in bundled_program.cpp bundled_program.h; do
    git -C "$snap" show "$rev:devtools/bundled_program/$f" \
      >"$et/devtools/bundled_program/$f"
  done
  mkdir -p "$out/gen/executorch/devtools/bundled_program/schema"
  (cd "$et/devtools/bundled_program/schema" &&
    flatc --cpp --cpp-std c++11 --gen-mutable --scoped-enums \
      -o "$out/gen/executorch/devtools/bundled_program/schema" \
      bundled_program_schema.fbs scalar_type.fbs)
  echo "$rev" >"$out/bundle-src.REV"
fi
flags=(-std=c++17 -O2 -g -Wno-deprecated-declarations
  -DET_ENABLE_PROGRAM_VERIFICATION=1 -DET_LOG_ENABLED=1 -DET_MIN_LOG_LEVEL=Info
  -DFLATBUFFERS_MAX_ALIGNMENT=1024 -DEXECUTORCH_INTERNAL_FLATBUFFERS=1
  -DC10_USING_CUSTOM_GENERATED_MACROS
  -I"$out/gen" -I"$out/src" -I"$et/runtime/core/portable_type/c10")
obj=$out/obj/bundle
mkdir -p "$obj"
g++ "${flags[@]}" -c "$et/devtools/bundled_program/bundled_program.cpp" \
  -o "$obj/bundled_program.o"
g++ "${flags[@]}" -Wall -c "$here/bundle_check.cpp" -o "$obj/bundle_check.o"
runtime=()
for o in "$out"/obj/release/*.o; do
  [ "$(basename "$o")" = pte_check.o ] || runtime+=("$o")
done
g++ -o "$out/bundle-check" "$obj/bundled_program.o" "$obj/bundle_check.o" \
  "${runtime[@]}"
echo "built $out/bundle-check (ExecuTorch ${rev:0:12})"
