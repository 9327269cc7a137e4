// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s

// Blobs whose bytes are not present (elided resources) cannot be compared;
// they are left alone rather than guessed at.

// CHECK-LABEL: et.program @elided
// CHECK-NEXT: et.blob @a align 1 = dense_resource<__elided__>
// CHECK-NEXT: et.blob @b align 1 = dense_resource<__elided__>
et.program @elided {
  et.blob @a align 1 = dense_resource<__elided__> : tensor<4xi8>
  et.blob @b align 1 = dense_resource<__elided__> : tensor<4xi8>
  et.method @m {
    %d0 = et.delegate "B" @a
    %d1 = et.delegate "B" @b
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
    }
    et.signature inputs() outputs()
  }
}
