#!/usr/bin/env bash
#===- check-et-diff.sh - emit-diff against ExecuTorch's diff_pte.py -------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Pairs of programs written by ExecuTorch's serializer (et_diff_pairs.py),
# each differing in one way, compared by emit-diff and by ExecuTorch's own
# devtools/pte_tool/diff_pte.py (read from the snapshot, never copied into
# emit). Prints, per pair, what each reports, as a markdown table.
#
#   check-et-diff.sh BUILD_DIR ET_PYTHON_DIR EXECUTORCH_SNAPSHOT [WORK_DIR]
#===----------------------------------------------------------------------===#
set -uo pipefail

build=$(cd "${1:?BUILD_DIR}" && pwd)
etpython=${2:?ET_PYTHON_DIR}
snapshot=${3:?EXECUTORCH_SNAPSHOT}
work=${4:-$(mktemp -d)}
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
mkdir -p "$work"

git --git-dir="$snapshot" show HEAD:devtools/pte_tool/diff_pte.py \
  > "$work/diff_pte.py" 2>/dev/null ||
  cp "$snapshot/devtools/pte_tool/diff_pte.py" "$work/diff_pte.py" ||
  { echo "no devtools/pte_tool/diff_pte.py in $snapshot" >&2; exit 2; }
PYTHONPATH=$etpython /usr/bin/python3 "$checks/tools/et_diff_pairs.py" "$work" \
  > "$work/pairs.txt" ||
  { echo "cannot write the pairs with ExecuTorch's serializer" >&2; exit 2; }

# One cell: the lines of a report past its header, joined.
cell() { grep -v '^$' | tr -s ' ' | paste -sd ';' | sed 's/|/\\|/g'; }

echo "| pair | what changed | emit-diff (exit) | diff_pte.py |"
echo "|---|---|---|---|"
while IFS=: read -r name what; do
  old=$work/$name.old.pte new=$work/$name.new.pte
  "$build/bin/emit-diff" "$old" "$new" > "$work/$name.emit.txt"
  status=$?
  # The verdict, the kinds whose bytes changed, then every list.
  emit=$(awk 'NR == 3 { print; next }
              /^bytes by kind:/ { kinds = 1; next }
              kinds && /^$/ { kinds = 0 }
              kinds && / old +new/ { next }
              kinds && !/ 0 B$/ { print; next }
              !kinds && NR > 3' "$work/$name.emit.txt" | cell)
  PYTHONPATH=$etpython /usr/bin/python3 "$work/diff_pte.py" "$old" "$new" \
    > "$work/$name.et.txt" 2>&1
  et=$(tail -n +2 "$work/$name.et.txt" | cell)
  echo "| $name |$what | $emit (exit $status) | $et |"
done < "$work/pairs.txt"
