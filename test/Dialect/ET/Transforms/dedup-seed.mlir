// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s
// UNSUPPORTED: verify-roundtrip

// The case that broke ExecuTorch before PR #14564: two calls in one method,
// same payload bytes, different backend ids and compile specs. The bytes
// are stored once; each call keeps its own id and specs.

// CHECK-LABEL: et.program @seed
// CHECK-NEXT: et.blob @[[BLOB:payload_0]] align 16 = dense_resource<payload_fast>
// CHECK-NOT: et.blob
// CHECK: et.delegate "XnnpackBackend" @[[BLOB]] specs [#et.compile_spec<"config" = "fast">]
// CHECK-NEXT: et.delegate "DemoBackend" @[[BLOB]] specs [#et.compile_spec<"config" = "small">, #et.compile_spec<"level" = "\02">]
et.program @seed {
  et.method @forward {
    %0 = et.tensor float [4] dim_order [0]
    %d0 = et.delegate "XnnpackBackend" #et.blob<dense_resource<payload_fast> : tensor<8xi8>, align 16> specs [#et.compile_spec<"config" = "fast">]
    %d1 = et.delegate "DemoBackend" #et.blob<dense_resource<payload_small> : tensor<8xi8>, align 16> specs [#et.compile_spec<"config" = "small">,
                 #et.compile_spec<"level" = "\02">]
    et.chain inputs(%0) outputs(%0) {
      et.call_delegate %d0 (%0)
      et.call_delegate %d1 (%0)
    }
    et.signature inputs(%0) outputs(%0)
  }
}

{-#
  dialect_resources: {
    builtin: {
      payload_fast: "0x100000000001020304050607",
      payload_small: "0x100000000001020304050607"
    }
  }
#-}
