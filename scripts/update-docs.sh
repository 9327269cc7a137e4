#!/usr/bin/env bash
#===- scripts/update-docs.sh - Refresh docs/ from the ODS definitions -----===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Copies the Markdown that the build generates from ODS into docs/Dialects.
# test/docs/generated-docs.test fails while the two differ.
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
cmake --build "$build" --target emit-doc
mkdir -p "$root/docs/Dialects"
cp "$build"/docs/Dialects/*.md "$root/docs/Dialects/"
echo "updated: $(ls "$root/docs/Dialects")"
