#!/usr/bin/env bash
#===- check-et-data.sh - emit on data files ExecuTorch writes -------------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# The local check of data files (see README.md here), on what et_data.py
# writes with ExecuTorch's serializers:
#
#   external.pte + external.model.ptd  constants by name in a data file
#   unshared.ptd                       a data file with repeated bytes
#   repeated.pte                       repeated constants and mutable states
#
# Each .ptd round-trips (--from-ptd, --to-ptd) to an equal decode; each
# program loads in the real runtime (pte-check, --data) with the
# round-tripped and the deduplicated files, every external constant
# resolving to the same bytes and every backend seeing the same named data;
# --pte-to-pte leaves no two stored segments (or constant entries) equal.
#
#   check-et-data.sh BUILD_DIR PTE_CHECK ET_PYTHON_DIR [WORK_DIR]
#===----------------------------------------------------------------------===#
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
take_check_arguments "$@"
PYTHONPATH=$etpython /usr/bin/python3 "$checks/exact/et_data.py" "$work" ||
  { echo "cannot write the files with ExecuTorch's serializer" >&2; exit 2; }
PYTHONPATH=$etpython /usr/bin/python3 "$checks/exact/et_programs.py" "$work" >/dev/null

status=0
compare() { python3 "$checks/exact/pte_compare.py" "$@" >/dev/null 2>&1 && echo equal || echo DIFFERS; }
# What the runtime resolved: external constants and named data per init.
resolved() {
  grep -E '^  (external_constant|named_data key)|stub-backend\] init' "$1" |
    sed -e 's/ location=[A-Z]*\[[0-9]*\] (matches file bytes)//' | sort
}
# Segment sizes and hashes of a file, one per line, for counting repeats.
repeats() {
  python3 "$root/test/Inputs/pte-json.py" flatc "$2" "$1" --segments |
    awk '/^segment/ && $4 > 0 {print $6}' | sort | uniq -d | wc -l
}
row() { printf '%-34s %-8s %-9s %-8s %-8s %s\n' "$@"; }
row file loads resolved decode repeats bytes

# 1. A program with its constants in a data file.
pte=$work/external.pte ptd=$work/external.model.ptd
"$ptecheck" --data="$ptd" "$pte" >"$work/in.check" 2>&1
row external.pte+ptd "$([ $? = 0 ] && echo ok || echo FAIL)" - - \
  "$(repeats "$ptd" "$root/schema/flat_tensor.fbs")" "$(stat -c %s "$ptd")"
"$bin/emit-translate" --from-ptd "$ptd" -o "$work/rt.mlir" &&
  "$bin/emit-translate" --to-ptd "$work/rt.mlir" -o "$work/rt.ptd"
"$bin/emit-translate" --pte-to-pte "$ptd" -o "$work/dedup.ptd"
"$bin/emit-translate" --pte-to-pte "$pte" --pte-data="$work/dedup.ptd" -o "$work/dedup.pte"
for case in "round trip:rt.ptd:$pte" "pte-to-pte:dedup.ptd:$work/dedup.pte"; do
  IFS=: read -r name data program <<<"$case"
  "$ptecheck" --data="$work/$data" "$program" >"$work/$data.check" 2>&1
  loads=$([ $? = 0 ] && echo ok || echo FAIL)
  same=$([ "$(resolved "$work/$data.check")" = "$(resolved "$work/in.check")" ] && echo same || echo DIFFERENT)
  decode=$(compare flatc "$root/schema/flat_tensor.fbs" "$ptd" "$work/$data")
  [ "$name" != "round trip" ] || [ "$decode" = equal ] || status=1
  [ $loads = ok ] && [ $same = same ] || status=1
  row "  $name" "$loads" "$same" "$decode" \
    "$(repeats "$work/$data" "$root/schema/flat_tensor.fbs")" "$(stat -c %s "$work/$data")"
done

# 2. A data file with repeated bytes, loaded beside a program whose
#    backends list the keys they are handed.
ptd=$work/unshared.ptd host=$work/inline-default.pte
"$ptecheck" --data="$ptd" "$host" >"$work/unshared.check" 2>&1
row unshared.ptd "$([ $? = 0 ] && echo ok || echo FAIL)" - - \
  "$(repeats "$ptd" "$root/schema/flat_tensor.fbs")" "$(stat -c %s "$ptd")"
"$bin/emit-translate" --from-ptd "$ptd" | "$bin/emit-translate" --payload-file="$ptd" --to-ptd -o "$work/unshared.rt.ptd"
"$bin/emit-translate" --pte-to-pte "$ptd" -o "$work/unshared.dedup.ptd"
for name in rt dedup; do
  out=$work/unshared.$name.ptd
  "$ptecheck" --data="$out" "$host" >"$out.check" 2>&1
  loads=$([ $? = 0 ] && echo ok || echo FAIL)
  same=$([ "$(resolved "$out.check")" = "$(resolved "$work/unshared.check")" ] && echo same || echo DIFFERENT)
  decode=$(compare flatc "$root/schema/flat_tensor.fbs" "$ptd" "$out")
  [ $name != rt ] || [ "$decode" = equal ] || status=1
  [ $loads = ok ] && [ $same = same ] || status=1
  row "  $([ $name = rt ] && echo 'round trip' || echo pte-to-pte)" "$loads" "$same" \
    "$decode" "$(repeats "$out" "$root/schema/flat_tensor.fbs")" "$(stat -c %s "$out")"
done

# 3. Repeated constants and mutable states.
pte=$work/repeated.pte
"$ptecheck" "$pte" >"$work/repeated.check" 2>&1
row repeated.pte "$([ $? = 0 ] && echo ok || echo FAIL)" - - - "$(stat -c %s "$pte")"
"$bin/emit-translate" --from-pte "$pte" | "$bin/emit-translate" --payload-file="$pte" --to-pte -o "$work/repeated.rt.pte"
"$bin/emit-translate" --pte-to-pte "$pte" -o "$work/repeated.dedup.pte"
for name in rt dedup; do
  out=$work/repeated.$name.pte
  "$ptecheck" "$out" >"$out.check" 2>&1
  loads=$([ $? = 0 ] && echo ok || echo FAIL)
  same=$(python3 "$checks/exact/pte_compare.py" --tensor-data flatc "$root/schema/program.fbs" "$pte" "$out" >/dev/null && echo same || echo DIFFERENT)
  decode=$(compare flatc "$root/schema/program.fbs" "$pte" "$out")
  [ $name != rt ] || [ "$decode" = equal ] || status=1
  [ $loads = ok ] && [ $same = same ] || status=1
  row "  $([ $name = rt ] && echo 'round trip' || echo pte-to-pte)" "$loads" "$same" \
    "$decode" - "$(stat -c %s "$out")"
done
echo "work files: $work"
exit $status
