#!/usr/bin/env bash
#===- function-size.sh - No function over 80 lines in lib/ and tools/ ----===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Lists every function of lib/ and tools/ (in-class methods in their
# headers included) longer than 80 lines, with clang-tidy's
# readability-function-size; exits 1 if there is one.
#
#   scripts/local-checks/code/function-size.sh [BUILD_DIR=build]
#
# BUILD_DIR holds compile_commands.json (scripts/setup.sh makes it).
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
build="${1:-$root/build}"
tidy="$(command -v clang-tidy-14 || command -v clang-tidy)"
found="$(cd "$root" && git ls-files 'lib/*.cpp' 'tools/*.cpp' |
  xargs -P2 -n6 "$tidy" -p "$build" --quiet \
    --header-filter="$root/(include|lib|tools)/.*" \
    --checks='-*,readability-function-size' \
    --config='{CheckOptions: [{key: readability-function-size.LineThreshold, value: 80}]}' \
    2>/dev/null | grep "warning: function" | sort -u || true)"
if [[ -n "$found" ]]; then
  echo "$found"
  exit 1
fi
echo "no function over 80 lines"
