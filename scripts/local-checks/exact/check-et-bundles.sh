#!/usr/bin/env bash
#===- check-et-bundles.sh - emit's bundles against ExecuTorch's -----------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# The local check of bundled programs (see README.md here): bundles written
# by ExecuTorch's own serializer around et_programs.py's programs go through
# emit, and the runtime's bundled-program reader (bundle-check: build it
# with bundle-check/build.sh) reads each result as it read the input:
#
#   round trip   --from-pte, then --to-pte
#   pte-to-pte   --pte-to-pte (dedup-delegate-blobs on the embedded program)
#   unwrap+wrap  --pte-to-pte --unbundle, then --pte-to-pte --bundle-with
#
# For every result: the reader's verdicts (get_program_data, load_method,
# load_bundled_input of every test case) are the input's; the suites decode
# as the input's; the round trip's program decodes as the input's
# (pte_compare.py); where the program starts, and whether emit-verify warns
# of an alignment lowered.
#
#   check-et-bundles.sh BUILD_DIR BUNDLE_CHECK ET_PYTHON_DIR SNAPSHOT [WORK]
#===----------------------------------------------------------------------===#
set -uo pipefail

build=$(cd "${1:?BUILD_DIR}" && pwd)
bundlecheck=${2:?BUNDLE_CHECK}
etpython=${3:?ET_PYTHON_DIR}
snap=${4:?SNAPSHOT}
work=${5:-$(mktemp -d)}
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
bin=$build/bin
decode="python3 $root/test/Inputs/bundle-decode.py flatc $root/schema/bundled_program.fbs"
mkdir -p "$work/programs" "$work/bundles"

bundlepython=$(bash "$checks/exact/et-bundle-python.sh" "$etpython" "$snap") || exit 2
PYTHONPATH=$etpython /usr/bin/python3 "$checks/exact/et_programs.py" "$work/programs" >/dev/null &&
  PYTHONPATH=$bundlepython /usr/bin/python3 "$checks/exact/et_bundles.py" \
    "$work/programs" "$work/bundles" >/dev/null ||
  { echo "cannot write the bundles with ExecuTorch's serializer" >&2; exit 2; }

verdicts() { "$bundlecheck" "$1" 2>/dev/null; echo "exit $?"; }

status=0
printf '%-22s %-12s %-8s %-6s %-7s %-8s %-11s %s\n' bundle path verdicts cases suites program "start%4096" warnings
for bpte in "$work"/bundles/*.bpte; do
  case $bpte in *.out-*) continue ;; esac
  name=$(basename "$bpte" .bpte)
  out=$work/bundles/$name.out
  verdicts "$bpte" >"$out.in.verdicts"
  $decode "$bpte" --program "$out.in.pte" >"$out.in.json"
  cases=$(grep -c load_bundled_input "$out.in.verdicts")
  warnings=$("$bin/emit-verify" "$bpte" | grep -c 'bundle-program-alignment')
  printf '%-22s %-12s %-8s %-6s %-7s %-8s %-11s %s\n' "$name" input \
    "$(grep -q '^exit 0' "$out.in.verdicts" && echo ok || echo FAIL)" "$cases" - - \
    "$(tail -1 "$out.in.json" | sed 's/.*mod 4096: \([0-9]*\).*/\1/')" "$warnings"

  "$bin/emit-translate" --from-pte "$bpte" -o "$out.mlir" 2>"$out.log" &&
    "$bin/emit-translate" --to-pte "$out.mlir" -o "$out-roundtrip.bpte" 2>>"$out.log"
  "$bin/emit-translate" --pte-to-pte "$bpte" -o "$out-ptetopte.bpte" 2>>"$out.log"
  "$bin/emit-translate" --pte-to-pte "$bpte" --unbundle -o "$out.unwrapped.pte" 2>>"$out.log" &&
    "$bin/emit-translate" --pte-to-pte "$out.unwrapped.pte" --bundle-with="$bpte" \
      -o "$out-rewrap.bpte" 2>>"$out.log"
  for path in roundtrip ptetopte rewrap; do
    result=$out-$path.bpte
    if [ ! -f "$result" ]; then
      printf '%-22s %-12s %s\n' "$name" "$path" "NOT WRITTEN (see $out.log)"
      status=1
      continue
    fi
    verdicts "$result" >"$result.verdicts"
    same=$(cmp -s "$out.in.verdicts" "$result.verdicts" && echo same || echo DIFFER)
    $decode "$result" --program "$result.pte" >"$result.json"
    suites=$(diff -q <(grep -v '^program size' "$out.in.json") \
      <(grep -v '^program size' "$result.json") >/dev/null && echo equal || echo DIFFER)
    python3 "$checks/exact/pte_compare.py" flatc "$root/schema/program.fbs" \
      "$out.in.pte" "$result.pte" >"$result.compare" 2>&1 &&
      program=equal || program=differs
    [ $path = roundtrip ] && [ $program != equal ] && program=DIFFERS
    warnings=$("$bin/emit-verify" "$result" | grep -c 'bundle-program-alignment')
    [ "$same" = same ] && [ "$suites" = equal ] && [ $program != DIFFERS ] &&
      [ "$warnings" = 0 ] || status=1
    printf '%-22s %-12s %-8s %-6s %-7s %-8s %-11s %s\n' "$name" "$path" "$same" \
      "$(grep -c load_bundled_input "$result.verdicts")" "$suites" "$program" \
      "$(tail -1 "$result.json" | sed 's/.*mod 4096: \([0-9]*\).*/\1/')" "$warnings"
  done
done
echo "work files: $work"
exit $status
