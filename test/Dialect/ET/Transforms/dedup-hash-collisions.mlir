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
// CHECK: et.call_delegate "A" @a()
// CHECK-NEXT: et.call_delegate "B" @b()
// CHECK-NEXT: et.call_delegate "C" @c()
// CHECK-NEXT: et.call_delegate "D" @a()
// CHECK-NEXT: et.call_delegate "E" @b()
et.program @collisions {
  et.blob @a align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @b align 1 = dense<[1, 2, 3, 5]> : tensor<4xi8>
  et.blob @c align 1 = dense<[9, 8, 9, 9]> : tensor<4xi8>
  et.blob @a_copy align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @b_copy align 1 = dense<[1, 2, 3, 5]> : tensor<4xi8>
  et.method @m {
    et.chain inputs() outputs() {
      et.call_delegate "A" @a ()
      et.call_delegate "B" @b ()
      et.call_delegate "C" @c ()
      et.call_delegate "D" @a_copy ()
      et.call_delegate "E" @b_copy ()
    }
    et.signature inputs() outputs()
  }
}
