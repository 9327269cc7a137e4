// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs | FileCheck %s
// UNSUPPORTED: verify-roundtrip

// Content decides, not names: equal bytes under different resource keys,
// in different forms (dense_resource, dense, splat) and signedness merge.

// CHECK-LABEL: et.program @names
// CHECK-NEXT: et.blob @first align 4 = dense_resource<weights_v1> : tensor<4xi8>
// CHECK-NEXT: et.method
// CHECK-COUNT-4: et.delegate "B" @first
et.program @names {
  et.blob @first align 4 = dense_resource<weights_v1> : tensor<4xi8>
  et.blob @second align 4 = dense_resource<weights_copy> : tensor<4xi8>
  et.blob @literal align 4 = dense<[7, 7, 7, 7]> : tensor<4xi8>
  et.blob @unsigned align 4 = dense<7> : tensor<4xui8>
  et.method @m {
    %d0 = et.delegate "B" @first
    %d1 = et.delegate "B" @second
    %d2 = et.delegate "B" @literal
    %d3 = et.delegate "B" @unsigned
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
      et.call_delegate %d2 ()
      et.call_delegate %d3 ()
    }
    et.signature inputs() outputs()
  }
}

{-#
  dialect_resources: {
    builtin: {
      weights_v1: "0x0400000007070707",
      weights_copy: "0x0400000007070707"
    }
  }
#-}

// -----

// One resource named by two blobs is one payload.
// CHECK-LABEL: et.program @same_key
// CHECK-NEXT: et.blob @one align 8 = dense_resource<shared>
// CHECK-NEXT: et.method
et.program @same_key {
  et.blob @one align 8 = dense_resource<shared> : tensor<2xi8>
  et.blob @two align 8 = dense_resource<shared> : tensor<2xi8>
  et.method @m {
    %d0 = et.delegate "B" @one
    %d1 = et.delegate "B" @two
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
      shared: "0x080000000102"
    }
  }
#-}
