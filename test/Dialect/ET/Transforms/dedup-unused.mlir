// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s

// The pass removes only the duplicates it merges. A blob nothing names
// stays, as the file had it (a segment no entry names is still one of the
// file's segments); when its bytes equal a used blob's, the two are one.

// CHECK-LABEL: et.program @unused
// CHECK-NEXT: et.blob @orphan align 1 = dense<[1, 2]>
// CHECK-NEXT: et.blob @first align 1 = dense<[3, 4]>
// CHECK-NOT: et.blob
// CHECK: et.delegate "B" @first
// CHECK-NEXT: et.delegate "B" @first
et.program @unused {
  et.blob @orphan align 1 = dense<[1, 2]> : tensor<2xi8>
  et.blob @first align 1 = dense<[3, 4]> : tensor<2xi8>
  et.blob @duplicate align 1 = dense<[3, 4]> : tensor<2xi8>
  et.method @m {
    %d0 = et.delegate "B" @first
    %d1 = et.delegate "B" @duplicate
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
    }
    et.signature inputs() outputs()
  }
}
