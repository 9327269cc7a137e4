#!/usr/bin/env bash
#===- check-et-programs.sh - emit against ExecuTorch's writer and runtime -===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# The local check of exactness (see README.md here): programs written by
# ExecuTorch's own serializer go through emit's paths, and each result is
# loaded in the real runtime (pte-check) and compared with the input:
#
#   round trip   --from-pte, then --to-pte
#   pte-to-pte   --pte-to-pte (import, --dedup-delegate-blobs, export)
#   three tools  --from-pte --emit-bytecode | emit-opt --dedup-delegate-blobs
#                --emit-bytecode | --to-pte
#
# For every result: pte-check loads every method; the backend inits (backend,
# method, entry, payload size and hash, compile specs, named data seen) are
# the input's, in the same order; the round trip's flatc decode equals the
# input's apart from segment offsets, with each table as aligned as it was.
#
#   check-et-programs.sh BUILD_DIR PTE_CHECK ET_PYTHON_DIR [WORK_DIR]
#===----------------------------------------------------------------------===#
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
take_check_arguments "$@"
schema=$root/schema/program.fbs

PYTHONPATH=$etpython /usr/bin/python3 "$checks/exact/et_programs.py" "$work" >/dev/null ||
  { echo "cannot write the programs with ExecuTorch's serializer" >&2; exit 2; }

# What the runtime handed each backend, without where the bytes were stored
# (SEGMENT[i] or INLINE[i] may change when shared bytes move).
inits() {
  sed -n -e 's/ location=[A-Z]*\[[0-9]*\] (matches file bytes)//p' \
      -e '/^  compile_spec/p' -e '/^  named_data /p' "$1" |
    grep -v '^  named_data_map' | sed 's/^ *//'
}

status=0
printf '%-22s %-11s %-8s %-6s %-6s %-8s %s\n' program path loads inits same decode bytes
for pte in "$work"/*.pte; do
  case $pte in *.out-*.pte) continue ;; esac
  name=$(basename "$pte" .pte)
  "$ptecheck" "$pte" >"$work/$name.check" 2>&1
  in_status=$?
  in_inits=$(inits "$work/$name.check")
  in_count=$(grep -c 'stub-backend\] init' "$work/$name.check")
  printf '%-22s %-11s %-8s %-6s %-6s %-8s %s\n' "$name" input \
    "$([ $in_status = 0 ] && echo ok || echo FAIL)" "$in_count" - - "$(stat -c %s "$pte")"
  [ $in_status = 0 ] || status=1

  out=$work/$name.out
  "$bin/emit-translate" --from-pte "$pte" -o "$out.mlir" 2>"$out.log" &&
    "$bin/emit-translate" --to-pte "$out.mlir" -o "$out-roundtrip.pte" 2>>"$out.log"
  "$bin/emit-translate" --pte-to-pte "$pte" -o "$out-ptetopte.pte" 2>>"$out.log"
  "$bin/emit-translate" --from-pte --emit-bytecode "$pte" -o "$out.mlirbc" 2>>"$out.log" &&
    "$bin/emit-opt" "$out.mlirbc" --dedup-delegate-blobs --emit-bytecode -o "$out.dedup.mlirbc" 2>>"$out.log" &&
    "$bin/emit-translate" --to-pte "$out.dedup.mlirbc" -o "$out-threetools.pte" 2>>"$out.log"

  for path in roundtrip ptetopte threetools; do
    result=$out-$path.pte
    if [ ! -f "$result" ]; then
      printf '%-22s %-11s %s\n' "$name" "$path" "NOT WRITTEN (see $out.log)"
      status=1
      continue
    fi
    "$ptecheck" "$result" >"$result.check" 2>&1
    loads=$([ $? = 0 ] && echo ok || echo FAIL)
    count=$(grep -c 'stub-backend\] init' "$result.check")
    same=$([ "$(inits "$result.check")" = "$in_inits" ] && echo yes || echo NO)
    # The round trip must decode to the input's tables; the dedup paths
    # may differ only where they stored shared bytes once.
    python3 "$checks/exact/pte_compare.py" flatc "$schema" "$pte" "$result" >"$result.compare" 2>&1 &&
      decode=equal || decode=differs
    if [ $path = roundtrip ] && [ $decode != equal ]; then
      decode=DIFFERS
      status=1
    fi
    [ $loads = ok ] && [ $same = yes ] || status=1
    printf '%-22s %-11s %-8s %-6s %-6s %-8s %s\n' "$name" "$path" "$loads" "$count" "$same" "$decode" "$(stat -c %s "$result")"
  done
done
echo "work files: $work"
exit $status
