#!/usr/bin/env bash
#===- scripts/fuzz.sh - Fuzz the .pte and .ptd importers with libFuzzer ---===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Installs clang-19 and its runtimes when missing, builds emit-pte-fuzzer
# with ASan and UBSan in build-fuzz/, gathers a seed corpus from the files
# the lit suite writes (run scripts/test.sh first) plus generated programs,
# and fuzzes for the given time.
#
#   scripts/fuzz.sh [SECONDS=600] [extra libFuzzer flags...]
#
# Findings land in build-fuzz/findings/. Each one becomes a fixed bug and a
# file in test/tools/Inputs/fuzz-regressions/, which CI replays.
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-600}"
shift || true
build="$root/build-fuzz"

missing=()
for p in clang-19 libclang-rt-19-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "fuzz: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# Only the fuzzer: clang does not link the sanitizer runtimes into shared
# libraries, which the C API's (linked with -z defs) then lacks.
EMIT_TARGETS=emit-pte-fuzzer CC=clang-19 CXX=clang++-19 \
  EMIT_CMAKE_ARGS="-DEMIT_ENABLE_FUZZER=ON \
  -DEMIT_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo" \
  "$root/scripts/setup.sh" "$build" >/dev/null
cmake --build "$build" --target emit-pte-fuzzer

corpus="$build/corpus"
mkdir -p "$corpus" "$build/findings"
# Seeds: every .pte, .ptd, .bpte and .etdp the test suite wrote, and a few generated
# programs.
find "$root/build/test" \( -name '*.pte' -o -name '*.ptd' -o -name '*.bpte' -o -name '*.etdp' \) -size -1024k \
  -exec cp --backup=numbered {} "$corpus/" \; 2>/dev/null || true
python3 "$root/bench/gen_pte.py" "$corpus/gen-dups.pte" --methods 2 --calls 3 \
  --payload-size 64 --unique 2 --specs 2 >/dev/null
python3 "$root/bench/gen_pte.py" "$corpus/gen-small.pte" --methods 1 --calls 1 \
  --payload-size 1 >/dev/null
echo "fuzz: $(ls "$corpus" | wc -l) seeds; fuzzing for $seconds s"

cd "$build/findings"
ASAN_OPTIONS=detect_leaks=1 "$build/bin/emit-pte-fuzzer" "$corpus" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=65536 -print_final_stats=1 "$@"
