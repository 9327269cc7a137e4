#!/usr/bin/env bash
#===- check-et-placement.sh - Where the data lives, in the real runtime ---===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# On a program ExecuTorch's serializers write with its data in three places
# (external constants and named data in two .ptd files, one key in the
# .pte; et_placement.py), emit-link moves the data and every output is
# loaded in the real runtime (pte-check) with exactly its data files:
#
#   internalized    --internalize: one .pte, no data file
#   2 KiB files     then --external-data --externalize-constants
#                   --max-data-file-bytes=2048
#   16 KiB pages    the same with --segment-alignment=16384
#   back in         the 2 KiB files internalized again
#
# For each: pte-check loads every method; every constant reads the bytes it
# read at the start (pte_compare.py --tensor-data); the backend sees the
# same payload; file sizes and segment alignments. Prints a markdown table.
#
#   check-et-placement.sh BUILD_DIR PTE_CHECK ET_PYTHON_DIR [WORK_DIR]
#===----------------------------------------------------------------------===#
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
take_check_arguments "$@"
schema=$root/schema/program.fbs
PYTHONPATH=$etpython /usr/bin/python3 "$checks/exact/et_placement.py" "$work" ||
  { echo "cannot write the program with ExecuTorch's serializers" >&2; exit 2; }

original=$work/placed.pte
originalData=("$work/placed.weights.ptd" "$work/placed.extra.ptd")
link() { "$bin/emit-link" "$@" >/dev/null 2>"$work/link.err" ||
           { cat "$work/link.err" >&2; return 1; }; }
rm -rf "$work/int" "$work/ext" "$work/page" "$work/back"
link "$original" "${originalData[@]/#/--data=}" --internalize -o "$work/int/placed.pte"
link "$work/int/placed.pte" --external-data="$work/ext/w.ptd" \
  --externalize-constants --max-data-file-bytes=2048 --out-dir="$work/ext"
link "$work/int/placed.pte" --external-data="$work/page/w.ptd" \
  --externalize-constants --max-data-file-bytes=2048 \
  --segment-alignment=16384 --out-dir="$work/page"
link "$work/ext/placed.pte" $(ls "$work"/ext/w-*.ptd | sed 's/^/--data=/') \
  --internalize -o "$work/back/placed.pte"

# The backend's init without where its payload sits.
init() { grep -E 'stub-backend\] init' "$1" |
           sed -e 's/ location=[A-Z]*\[[0-9]*\] (matches file bytes)//' \
               -e 's/ named_data_keys=[0-9]*//'; }
"$ptecheck" "${originalData[@]/#/--data=}" "$original" > "$work/original.check" 2>&1

echo "| output | data files (bytes) | pte-check | constants read the same bytes | backend init the same | named data the backend sees | largest data file | segments aligned to |"
echo "|---|---|---|---|---|---|---|---|"
row() {
  local name=$1 program=$2; shift 2
  local data=("$@") check=$work/$name.check
  "$ptecheck" "${data[@]/#/--data=}" "$program" > "$check" 2>&1
  local loads=$([ $? = 0 ] && echo loads || echo FAILS)
  local args=()
  for d in "${originalData[@]}"; do args+=(--data-a "$d"); done
  for d in "${data[@]}"; do args+=(--data-b "$d"); done
  local same=$(python3 "$checks/exact/pte_compare.py" --tensor-data flatc "$schema" \
    "$original" "$program" "${args[@]}" | cut -d: -f1)
  local inits=$([ "$(init "$work/original.check")" = "$(init "$check")" ] &&
                echo yes || echo NO)
  local keys=$(grep -o 'named_data_keys=[0-9]*' "$check" | cut -d= -f2)
  # The keys and bytes it sees, against those it saw at the start.
  seen() { grep -E '^  named_data key=' "$1" | sort; }
  if [ "$(seen "$work/original.check")" = "$(seen "$check")" ]; then
    keys="$keys, the same"
  elif [ -z "$(comm -13 <(seen "$work/original.check") <(seen "$check"))" ]; then
    keys="$keys, a subset"
  else
    keys="$keys, OTHERS"
  fi
  local sizes=() largest=0 align=
  for f in "$program" "${data[@]}"; do
    local size=$(stat -c %s "$f")
    sizes+=("$(basename "$f") $size")
    [ "$f" != "$program" ] && [ "$size" -gt "$largest" ] && largest=$size
  done
  # The smallest alignment any segment start of any file has.
  align=$(for f in "$program" "${data[@]}"; do
            case $f in *.ptd) s=$root/schema/flat_tensor.fbs ;; *) s=$schema ;; esac
            python3 "$root/test/Inputs/pte-json.py" flatc "$s" "$f" --layout |
              awk '/^segment/ {print $NF}'
          done | sort -n | head -1)
  local list=$(IFS=,; echo "${sizes[*]:1}")
  echo "| $name | ${list:--} | $loads | $same | $inits | $keys | $largest | ${align:--} |"
}
row start "$original" "${originalData[@]}"
row internalized "$work/int/placed.pte"
row "2 KiB files" "$work/ext/placed.pte" $(ls "$work"/ext/w-*.ptd)
row "16 KiB pages" "$work/page/placed.pte" $(ls "$work"/page/w-*.ptd)
row "back in" "$work/back/placed.pte"
