#!/usr/bin/env bash
#===- check-et-link.sh - emit-link on programs ExecuTorch writes ----------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# The local check of emit-link (see README.md here), on two programs that
# et_link.py exports separately with ExecuTorch's serializers, each with its
# own .ptd holding the same weights:
#
#   merged    emit-link ... -o OUT/llm.pte --external-data=OUT/weights.ptd
#   split     emit-link ... --out-dir=OUT --external-data=OUT/weights.ptd
#   external  split, with --externalize-constants
#
# Every output program loads in the real runtime (pte-check, --data) with
# the one data file; each method's backends get the input's delegate facts
# (backend, entry, payload size and hash, compile specs) and every key the
# input's saw, with the same bytes; every tensor reads the same bytes; and
# the outputs hold no segment twice, except what separate programs cannot
# share (a delegate payload both call).
#
#   check-et-link.sh BUILD_DIR PTE_CHECK ET_PYTHON_DIR [WORK_DIR]
#===----------------------------------------------------------------------===#
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
take_check_arguments "$@"
PYTHONPATH=$etpython /usr/bin/python3 "$checks/tools/et_link.py" "$work" ||
  { echo "cannot write the files with ExecuTorch's serializer" >&2; exit 2; }
cd "$work" || exit 2

# One method's delegate facts as the runtime handed them over: each init
# (without where the payload lies) and its compile specs, in order.
facts() {
  awk -v m="$2" '/^method\[/ {on = ($2 == "name=" m)}
    on && /stub-backend\] init/ {sub(/ location=.*/, ""); print}
    on && /compile_spec\[/' "$1"
}
# The keys one method's backends saw, and its external constants.
keys() {
  awk -v m="$2" '/^method\[/ {on = ($2 == "name=" m)}
    on && /^  (named_data key|external_constant)/' "$1" | sort -u
}
# Segments (of .pte and .ptd files together) whose bytes another holds.
repeats() {
  for file in "$@"; do
    case $file in *.ptd) schema=flat_tensor.fbs ;; *) schema=program.fbs ;; esac
    python3 "$root/test/Inputs/pte-json.py" flatc "$root/schema/$schema" \
      "$file" --segments | awk '/^segment/ && $4 > 0 {print $6}'
  done | sort | uniq -d | wc -l
}
bytes() { cat "$@" | wc -c; }
row() { printf '%-36s %-6s %-6s %-6s %-8s %-8s %s\n' "$@"; }

status=0
row result loads facts keys tensors repeats bytes
for name in prefill decode; do
  "$ptecheck" --data=$name.ptd $name.pte >$name.check 2>&1
  row "$name.pte + $name.ptd" "$([ $? = 0 ] && echo ok || echo FAIL)" - - - - \
    "$(bytes $name.pte $name.ptd)"
done
row "inputs together" - - - - "$(repeats prefill.pte prefill.ptd decode.pte decode.ptd)" \
  "$(bytes prefill.pte prefill.ptd decode.pte decode.ptd)"

inputs=(prefill.pte decode.pte --data=prefill.ptd --data=decode.ptd)
rm -rf merged split external
"$bin/emit-link" "${inputs[@]}" --external-data=merged/weights.ptd -o merged/llm.pte --report=merged.json &&
  "$bin/emit-link" "${inputs[@]}" --external-data=split/weights.ptd --out-dir=split --report=split.json &&
  "$bin/emit-link" "${inputs[@]}" --external-data=external/weights.ptd --out-dir=external \
    --externalize-constants --report=external.json || status=1

# Checks `program` (with `data`) against each input whose method it has.
check() {
  local label=$1 program=$2 data=$3 files=$4
  "$ptecheck" --data="$data" "$program" >"$program.check" 2>&1
  local loads=$([ $? = 0 ] && echo ok || echo FAIL) facts=same keys=same tensors=same
  for name in prefill decode; do
    grep -q "name=$name\$" "$program.check" || continue
    [ -n "$(facts $name.check $name)" ] || facts=NONE
    [ "$(facts $name.check $name)" = "$(facts "$program.check" $name)" ] || facts=DIFFERENT
    # Every key the input's backends saw is there with the same bytes.
    [ -z "$(comm -23 <(keys $name.check $name) <(keys "$program.check" $name))" ] || keys=MISSING
    python3 "$checks/exact/pte_compare.py" --tensor-data flatc "$root/schema/program.fbs" \
      $name.pte "$program" --data-a $name.ptd --data-b "$data" --subset >/dev/null ||
      tensors=DIFFERENT
  done
  [ $loads = ok ] && [ $facts = same ] && [ $keys = same ] && [ $tensors = same ] || status=1
  row "$label" $loads $facts $keys $tensors "$(repeats $files)" "$(bytes $files)"
}
check "merged llm.pte + weights.ptd" merged/llm.pte merged/weights.ptd \
  "merged/llm.pte merged/weights.ptd"
for variant in split external; do
  for name in prefill decode; do
    check "$variant $name.pte + weights.ptd" $variant/$name.pte $variant/weights.ptd \
      "$variant/$name.pte $variant/weights.ptd"
  done
  row "$variant together" - - - - \
    "$(repeats $variant/prefill.pte $variant/decode.pte $variant/weights.ptd)" \
    "$(bytes $variant/prefill.pte $variant/decode.pte $variant/weights.ptd)"
done
# The merged set holds nothing twice; the shared weights are stored once.
[ "$(repeats merged/llm.pte merged/weights.ptd)" = 0 ] || status=1
[ "$(repeats split/weights.ptd)" = 0 ] || status=1
for variant in merged split external; do
  python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
print("%-9s saved per kind: %s" % (sys.argv[2], r["bytes_saved"]))' $variant.json $variant
done
echo "work files: $work"
exit $status
