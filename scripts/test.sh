#!/usr/bin/env bash
#===- scripts/test.sh - Build emit and run every test ---------------------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Sets everything up (scripts/setup.sh) and runs the whole lit suite twice:
# on the release build (build/), and on a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan/), which includes the fuzz target's
# regression corpus. Ends with one line "N passed, N failed[, N skipped]"
# over both runs, and exits non-zero when any test fails or none ran.
#
#   scripts/test.sh [lit arguments...]
#   EMIT_SKIP_SANITIZERS=1 scripts/test.sh    # the release build only
#===----------------------------------------------------------------------===#
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lit=/usr/lib/llvm-19/build/utils/lit/lit.py

configs=("build:")
if [[ -z "${EMIT_SKIP_SANITIZERS:-}" ]]; then
  configs+=("build-asan:-DEMIT_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo")
fi

results=()
status=0
for config in "${configs[@]}"; do
  dir="$root/${config%%:*}"
  EMIT_CMAKE_ARGS="${config#*:}" "$root/scripts/setup.sh" "$dir"
  result="$dir/test-results.json"
  rm -f "$result"
  echo "== lit on ${dir#$root/}"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    python3 "$lit" -sv "$dir/test" -o "$result" "$@" || status=$?
  results+=("$result")
done

python3 - "$status" "${results[@]}" <<'PY'
import json, sys
status, paths = int(sys.argv[1]), sys.argv[2:]
passed = failed = skipped = 0
for path in paths:
    try:
        tests = json.load(open(path))["tests"]
    except (OSError, ValueError, KeyError):
        print("lit wrote no results to %s (exit %d)" % (path, status),
              file=sys.stderr)
        failed += 1
        continue
    p = sum(t["code"] in ("PASS", "XFAIL") for t in tests)
    s = sum(t["code"] == "UNSUPPORTED" for t in tests)
    passed, skipped, failed = passed + p, skipped + s, failed + len(tests) - p - s
line = "%d passed, %d failed" % (passed, failed)
if skipped:
    line += ", %d skipped" % skipped
print(line)
sys.exit(1 if failed or status or passed == 0 else 0)
PY
