#!/usr/bin/env bash
#===- scripts/test.sh - Build emit and run every test ---------------------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Sets everything up (scripts/setup.sh), runs the whole lit suite and ends
# with one line "N passed, N failed[, N skipped]". Exits non-zero when any
# test fails or when no test ran.
#
#   scripts/test.sh [lit arguments...]
#===----------------------------------------------------------------------===#
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${EMIT_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh" "$build"

results="$build/test-results.json"
rm -f "$results"
status=0
python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv "$build/test" \
  -o "$results" "$@" || status=$?

python3 - "$results" "$status" <<'PY'
import json, sys
path, status = sys.argv[1], int(sys.argv[2])
try:
    tests = json.load(open(path))["tests"]
except (OSError, ValueError, KeyError):
    print("0 passed, 1 failed")
    print("lit produced no results (exit %d)" % status, file=sys.stderr)
    sys.exit(1)
passed = sum(t["code"] in ("PASS", "XFAIL") for t in tests)
skipped = sum(t["code"] == "UNSUPPORTED" for t in tests)
failed = len(tests) - passed - skipped
line = "%d passed, %d failed" % (passed, failed)
if skipped:
    line += ", %d skipped" % skipped
print(line)
sys.exit(1 if failed or status or passed == 0 else 0)
PY
