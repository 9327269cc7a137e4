#!/usr/bin/env bash
#===- scripts/test.sh - Build emit and run every test ---------------------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Sets everything up (scripts/setup.sh) and runs the whole lit suite twice
# per LLVM version: on the release build, and on a build with
# AddressSanitizer and UndefinedBehaviorSanitizer (which includes the fuzz
# target's regression corpus). The lit suite includes the unit tests
# (GoogleTest) and, on the release build, the Python package's pytest
# tests. Ends with one line "N passed, N failed[, N
# skipped]" over every run, and exits non-zero when any test fails or none
# ran.
#
#   scripts/test.sh [lit arguments...]
#   EMIT_LLVM_VERSION=22 scripts/test.sh        # MLIR 22 (default 19)
#   EMIT_LLVM_VERSION="19 22" scripts/test.sh   # both, as .ci/run does
#   EMIT_SKIP_SANITIZERS=1 scripts/test.sh      # the release builds only
#   EMIT_SANITIZER_VERSIONS=19 scripts/test.sh  # sanitizer builds of these
#                                               # LLVM versions only
#   EMIT_PRUNE_BUILDS=1 scripts/test.sh         # delete each build tree
#                                               # once its suite has run
#
# Build trees: build/ and build-asan/ for 19, build-22/ and build-22-asan/
# for 22.
#===----------------------------------------------------------------------===#
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

results=()
status=0
for version in ${EMIT_LLVM_VERSION:-19}; do
  suffix=$([[ $version == 19 ]] && echo "" || echo "-$version")
  configs=("build$suffix:")
  if [[ -z "${EMIT_SKIP_SANITIZERS:-}" &&
        " ${EMIT_SANITIZER_VERSIONS:-$version} " == *" $version "* ]]; then
    configs+=("build$suffix-asan:-DEMIT_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo")
  fi
  for config in "${configs[@]}"; do
    dir="$root/${config%%:*}"
    # The tests also need a browser (the HTML summary) and pytest.
    EMIT_LLVM_VERSION=$version EMIT_CMAKE_ARGS="${config#*:}" \
      EMIT_EXTRA_PACKAGES="chromium python3-pytest" \
      "$root/scripts/setup.sh" "$dir"
    # Looked up once setup has installed LLVM's tools, which carry it.
    lit="/usr/lib/llvm-$version/build/utils/lit/lit.py"
    [[ -f "$lit" ]] || lit="/usr/lib/llvm-$version/bin/lit"
    result="$dir/test-results.json"
    rm -f "$result"
    echo "== lit on ${dir#$root/} (MLIR $version), $SECONDS s since start"
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      python3 "$lit" -sv "$dir/test" -o "$result" "$@" || status=$?
    results+=("$result")
    # Four trees with debug info need several GiB at once; CI keeps one.
    if [[ -n "${EMIT_PRUNE_BUILDS:-}" ]]; then
      find "$dir" -mindepth 1 -maxdepth 1 ! -name test-results.json \
        -exec rm -rf {} +
    fi
  done
done

python3 - "$status" "${results[@]}" <<'PY'
import json, sys
status, paths = int(sys.argv[1]), sys.argv[2:]
passed = failed = skipped = 0
for path in paths:
    try:
        if path.endswith(".xml"):  # pytest's JUnit report
            import xml.etree.ElementTree as ET
            suite = ET.parse(path).getroot()
            suite = suite if suite.tag == "testsuite" else suite[0]
            total = int(suite.get("tests"))
            s = int(suite.get("skipped", 0))
            f = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
            passed, skipped, failed = (passed + total - s - f, skipped + s,
                                       failed + f)
            continue
        tests = json.load(open(path))["tests"]
    except (OSError, ValueError, KeyError, IndexError) as e:
        print("no test results in %s (exit %d)" % (path, status),
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
