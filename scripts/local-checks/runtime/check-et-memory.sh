#!/usr/bin/env bash
#===- check-et-memory.sh - emit-memory against the real runtime ---------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Writes every program the local checks' ExecuTorch writers write
# (et_programs, et_data, et_link, et_placement, et_diff_pairs, et_memory), then compares emit-memory with pte-check --memory on
# this host and on 32-bit ARM, method by method, and checks the overlap
# mutants (memory_vs_runtime.py). Needs pte-check built with --arm32 and
# qemu-user (see README.md).
#
#   check-et-memory.sh BUILD_DIR PTE_CHECK_DIR ET_PYTHON_DIR [WORK_DIR]
#===----------------------------------------------------------------------===#
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
take_check_arguments "$@"
samples=$(cd "$shared/pte-samples" 2>/dev/null && pwd)

# Each writer by its folder.
writers=(exact/et_programs exact/et_data tools/et_link exact/et_placement
         tools/et_diff_pairs runtime/et_memory)
for path in "${writers[@]}"; do
  writer=${path#*/}
  args=("$work/$writer")
  [ $writer = et_memory ] && args=(programs "$work/$writer")
  PYTHONPATH=$etpython /usr/bin/python3 "$checks/$path.py" "${args[@]}" \
    >/dev/null || { echo "cannot write $writer's programs" >&2; exit 2; }
done
programs=()
for path in "${writers[@]}"; do
  programs+=($(find "$work/${path#*/}" -name '*.pte' | sort))
done
[ -n "$samples" ] && programs+=("$samples"/*.pte)
/usr/bin/python3 "$checks/runtime/memory_vs_runtime.py" "$build" "$ptecheck" \
  "$etpython" "$work" "${programs[@]}"
