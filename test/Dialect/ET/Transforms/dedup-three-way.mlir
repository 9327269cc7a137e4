// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s

// Three program-level blobs with equal bytes become one; the distinct one
// in between stays, and program order decides which blob survives.

// CHECK-LABEL: et.program @three
// CHECK-NEXT: et.blob @a align 1 = dense<[1, 2, 3]>
// CHECK-NEXT: et.blob @other align 1 = dense<[3, 2, 1]>
// CHECK-NEXT: et.method @m
// CHECK-NEXT: et.delegate "B1" @a
// CHECK-NEXT: et.delegate "B2" @a
// CHECK-NEXT: et.delegate "B3" @other
// CHECK-NEXT: et.delegate "B4" @a
et.program @three {
  et.blob @a align 1 = dense<[1, 2, 3]> : tensor<3xi8>
  et.blob @other align 1 = dense<[3, 2, 1]> : tensor<3xi8>
  et.blob @b align 1 = dense<[1, 2, 3]> : tensor<3xi8>
  et.blob @c align 1 = dense<[1, 2, 3]> : tensor<3xi8>
  et.method @m {
    %d0 = et.delegate "B1" @a
    %d1 = et.delegate "B2" @b
    %d2 = et.delegate "B3" @other
    %d3 = et.delegate "B4" @c
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
      et.call_delegate %d2 ()
      et.call_delegate %d3 ()
    }
    et.signature inputs() outputs()
  }
}
