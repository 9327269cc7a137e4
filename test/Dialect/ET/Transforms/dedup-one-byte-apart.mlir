// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs | FileCheck %s
// UNSUPPORTED: verify-roundtrip

// Payloads that differ in a single byte are never merged.

// CHECK-LABEL: et.program @last_byte
// CHECK-NEXT: et.blob @[[X:payload_0]] align 16 = dense_resource<x>
// CHECK-NEXT: et.blob @[[Y:payload_1]] align 16 = dense_resource<y>
// CHECK: et.delegate "B" @[[X]]
// CHECK: et.delegate "B" @[[Y]]
et.program @last_byte {
  et.method @m {
    %d0 = et.delegate "B" #et.blob<dense_resource<x> : tensor<8xi8>, align 16>
    %d1 = et.delegate "B" #et.blob<dense_resource<y> : tensor<8xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
    }
    et.signature inputs() outputs()
  }
}

{-#
  dialect_resources: {
    builtin: {
      x: "0x100000000001020304050607",
      y: "0x100000000001020304050608"
    }
  }
#-}

// -----

// Same bytes for the common prefix, different length: kept apart.
// CHECK-LABEL: et.program @prefix
// CHECK-NEXT: et.blob @short align 1 = dense<[1, 2]>
// CHECK-NEXT: et.blob @long align 1 = dense<[1, 2, 0]>
et.program @prefix {
  et.blob @short align 1 = dense<[1, 2]> : tensor<2xi8>
  et.blob @long align 1 = dense<[1, 2, 0]> : tensor<3xi8>
  et.method @m {
    %d0 = et.delegate "B" @short
    %d1 = et.delegate "B" @long
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
    }
    et.signature inputs() outputs()
  }
}
