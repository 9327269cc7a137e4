// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs > %t.1.mlir
// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// Names and order come from program order, never from hash values: two
// programs of the same shape whose payloads (and so hashes) differ get the
// same names in the same order.

// CHECK-LABEL: et.program @shape
// CHECK-NEXT: et.blob @payload_0 align 1 = dense<[1, 2]>
// CHECK-NEXT: et.blob @payload_1 align 1 = dense<[3, 4]>
// CHECK-NEXT: et.blob @payload_3 align 1 = dense<[5, 6]>
// CHECK: et.delegate "B" @payload_0
// CHECK-NEXT: et.delegate "B" @payload_1
// CHECK-NEXT: et.delegate "B" @payload_0
// CHECK-NEXT: et.delegate "B" @payload_3
et.program @shape {
  et.method @m {
    %d0 = et.delegate "B" #et.blob<dense<[1, 2]> : tensor<2xi8>, align 1>
    %d1 = et.delegate "B" #et.blob<dense<[3, 4]> : tensor<2xi8>, align 1>
    %d2 = et.delegate "B" #et.blob<dense<[1, 2]> : tensor<2xi8>, align 1>
    %d3 = et.delegate "B" #et.blob<dense<[5, 6]> : tensor<2xi8>, align 1>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
      et.call_delegate %d2 ()
      et.call_delegate %d3 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

// CHECK-LABEL: et.program @same_shape_other_bytes
// CHECK-NEXT: et.blob @payload_0 align 1 = dense<[9, 8]>
// CHECK-NEXT: et.blob @payload_1 align 1 = dense<[7, 6]>
// CHECK-NEXT: et.blob @payload_3 align 1 = dense<[5, 4]>
// CHECK: et.delegate "B" @payload_0
// CHECK-NEXT: et.delegate "B" @payload_1
// CHECK-NEXT: et.delegate "B" @payload_0
// CHECK-NEXT: et.delegate "B" @payload_3
et.program @same_shape_other_bytes {
  et.method @m {
    %d0 = et.delegate "B" #et.blob<dense<[9, 8]> : tensor<2xi8>, align 1>
    %d1 = et.delegate "B" #et.blob<dense<[7, 6]> : tensor<2xi8>, align 1>
    %d2 = et.delegate "B" #et.blob<dense<[9, 8]> : tensor<2xi8>, align 1>
    %d3 = et.delegate "B" #et.blob<dense<[5, 4]> : tensor<2xi8>, align 1>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
      et.call_delegate %d2 ()
      et.call_delegate %d3 ()
    }
    et.signature inputs() outputs()
  }
}
