#!/usr/bin/env bash
#===- bench/scale_4gib.sh - Past 4 GiB and up to the 2 GiB ceiling --------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Writes and reads back a program with more than 4 GiB of segment data, and
# checks the real 2 GiB flatbuffer ceiling. Needs about 10 GiB of free disk
# in WORK_DIR (default: a temporary directory) and a few minutes; not part of
# the lit suite for that reason.
#
#   bench/scale_4gib.sh [BUILD_DIR]
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
work="${WORK_DIR:-$(mktemp -d)}"
trap 'rm -rf "$work"' EXIT
bin="$build/bin"
json() { python3 "$root/test/Inputs/pte-json.py" flatc "$root/schema/program.fbs" "$@"; }

# Three distinct 1.5 GiB payloads (sparse: holes but for 16-byte markers at
# both ends), called from two methods: 4.5 GiB of segment data.
python3 "$root/bench/gen_pte.py" "$work/in.pte" --methods 2 --calls 3 \
  --payload-size 1536M --unique 3 --sparse
# The input holds each payload twice; emit stores each once.
/usr/bin/time -f "import: %e s, %M KiB peak" \
  "$bin/emit-translate" --from-pte "$work/in.pte" --emit-bytecode -o "$work/in.mlirbc"
/usr/bin/time -f "dedup: %e s, %M KiB peak" \
  "$bin/emit-opt" "$work/in.mlirbc" --dedup-delegate-blobs --emit-bytecode -o "$work/dedup.mlirbc"
rm "$work/in.mlirbc"
/usr/bin/time -f "export: %e s, %M KiB peak" \
  "$bin/emit-translate" --to-pte "$work/dedup.mlirbc" -o "$work/out.pte"
rm "$work/dedup.mlirbc"
ls -l "$work/out.pte"
# The in-process fast path reads the payloads past 4 GiB with pread and
# copies them in the kernel; it must write the very same file.
/usr/bin/time -f "pte-to-pte: %e s, %M KiB peak" \
  "$bin/emit-translate" --pte-to-pte "$work/in.pte" -o "$work/fast.pte" --pte-timing
cmp "$work/out.pte" "$work/fast.pte"
rm "$work/fast.pte"
echo "pte-to-pte: identical to the bytecode path"

# Read it back: the segment table past 4 GiB, and every segment's bytes
# against the input's.
json "$work/out.pte" --segments | tee "$work/out.segments"
json "$work/in.pte" --segments | grep '^segment' | sort -u -k5 > "$work/in.unique"
grep '^segment' "$work/out.segments" | sort -u -k5 > "$work/out.unique"
# Same set of distinct payload digests (the empty constant segment included).
diff <(awk '{print $4, $6}' "$work/in.unique" | sort) \
     <(awk '{print $4, $6}' "$work/out.unique" | sort)
json "$work/out.pte" | grep -A2 '"offset"' | tail -3
"$bin/emit-translate" --from-pte "$work/out.pte" --emit-bytecode -o /dev/null
echo "read back: OK"

# The real ceiling: keeping the 1.5 GiB payloads inline cannot fit in 2 GiB.
if "$bin/emit-translate" --from-pte "$work/out.pte" --emit-bytecode -o "$work/again.mlirbc" &&
   ! "$bin/emit-translate" --to-pte "$work/again.mlirbc" --pte-inline-max-size=4294967296 \
       -o "$work/inline.pte" 2> "$work/ceiling.log"; then
  head -4 "$work/ceiling.log"
  test ! -e "$work/inline.pte"
  echo "2 GiB ceiling: refused before writing, as expected"
else
  echo "2 GiB ceiling: NOT refused" >&2
  exit 1
fi
