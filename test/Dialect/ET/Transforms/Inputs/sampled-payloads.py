#!/usr/bin/env python3
# sampled-payloads.py - writes a program of 1 MiB payloads (the size from
# which --dedup-delegate-blobs hashes a sample first) that differ only where
# the sample does not look, for dedup-sampled.test.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

SIZE = 1 << 20
# The sample: the first and last 64 KiB and 16 windows of 4 KiB at
# multiples of this stride. One byte after the first window is unsampled.
STRIDE = (SIZE - 4096) // 17
UNSAMPLED = STRIDE + 4096 + 100
SAMPLED = 1000  # In the first 64 KiB.


def payload(*flips):
    data = bytearray((i * 7 + i // 251) & 0xFF for i in range(SIZE))
    for flip in flips:
        data[flip] ^= 0xFF
    return bytes(data)


# Each comment is one bucket of equal size and sample.
blobs = {
    # Equal bytes, a pair: compared directly, merged.
    "pair_a": payload(SAMPLED),
    "pair_b": payload(SAMPLED),
    # A pair one unsampled byte apart: compared directly, kept apart.
    "apart_a": payload(SAMPLED + 1, UNSAMPLED),
    "apart_b": payload(SAMPLED + 1, UNSAMPLED + 1),
    # Three: split by a whole hash first; two merge.
    "three_a": payload(UNSAMPLED),
    "three_b": payload(UNSAMPLED + 1),
    "three_c": payload(UNSAMPLED),
    # A sample of its own: never read whole, kept.
    "alone": payload(SAMPLED + 2),
}

print("et.program @sampled {")
for name in blobs:
    print("  et.blob @%s align 16 = dense_resource<%s> : tensor<%dxi8>" %
          (name, name, SIZE))
print("  et.method @m {")
for name in blobs:
    print('    %%%s = et.delegate "%s" @%s' % (name, name.upper(), name))
print("    et.chain inputs() outputs() {")
for name in blobs:
    print('      et.call_delegate %%%s ()' % name)
print("    }")
print("    et.signature inputs() outputs()")
print("  }")
print("}")
print("{-#\n  dialect_resources: {\n    builtin: {")
print(",\n".join('      %s: "0x10000000%s"' % (name, data.hex())
                 for name, data in blobs.items()))
print("    }\n  }\n#-}")
