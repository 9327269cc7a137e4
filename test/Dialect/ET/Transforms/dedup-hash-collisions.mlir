// RUN: emit-opt %s --dedup-delegate-blobs='test-force-hash-collisions=true' | FileCheck %s
// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s

// Merges never rest on hash equality: with every hash forced equal, payloads
// that differ (in one byte, or in length) stay apart and equal ones merge,
// exactly as with real hashes.

// CHECK-LABEL: et.program @collisions
// CHECK-NEXT: et.blob @a align 1 = dense<[1, 2, 3, 4]>
// CHECK-NEXT: et.blob @b align 1 = dense<[1, 2, 3, 5]>
// CHECK-NEXT: et.blob @c align 1 = dense<[9, 8, 9, 9]>
// CHECK-NEXT: et.method
// CHECK: et.delegate "A" @a
// CHECK-NEXT: et.delegate "B" @b
// CHECK-NEXT: et.delegate "C" @c
// CHECK-NEXT: et.delegate "D" @a
// CHECK-NEXT: et.delegate "E" @b
et.program @collisions {
  et.blob @a align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @b align 1 = dense<[1, 2, 3, 5]> : tensor<4xi8>
  et.blob @c align 1 = dense<[9, 8, 9, 9]> : tensor<4xi8>
  et.blob @a_copy align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @b_copy align 1 = dense<[1, 2, 3, 5]> : tensor<4xi8>
  et.method @m {
    %d0 = et.delegate "A" @a
    %d1 = et.delegate "B" @b
    %d2 = et.delegate "C" @c
    %d3 = et.delegate "D" @a_copy
    %d4 = et.delegate "E" @b_copy
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
      et.call_delegate %d2 ()
      et.call_delegate %d3 ()
      et.call_delegate %d4 ()
    }
    et.signature inputs() outputs()
  }
}
