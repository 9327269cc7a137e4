// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s

// Blobs that no call references are erased; used ones stay.

// CHECK-LABEL: et.program @unused
// CHECK-NOT: @orphan
// CHECK: et.blob @used
// CHECK-NOT: @orphan
et.program @unused {
  et.blob @orphan align 1 = dense<[1, 2]> : tensor<2xi8>
  et.blob @used align 1 = dense<[3, 4]> : tensor<2xi8>
  et.method @m {
    et.chain inputs() outputs() {
      et.call_delegate "B" @used ()
    }
    et.signature inputs() outputs()
  }
}
