// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s
// UNSUPPORTED: verify-roundtrip

// Prefill and decode share one context binary: one blob serves calls in
// both methods, each call keeping its own specs.

// CHECK-LABEL: et.program @llm
// CHECK-NEXT: et.blob @[[CTX:payload_0]] align 64 = dense_resource<prefill_ctx>
// CHECK-NEXT: et.method @prefill
// CHECK: et.delegate "QnnBackend" @[[CTX]] specs [#et.compile_spec<"graph" = "prefill">]
// CHECK-NOT: et.blob
// CHECK: et.method @decode
// CHECK: et.delegate "QnnBackend" @[[CTX]] specs [#et.compile_spec<"graph" = "decode">]
et.program @llm {
  et.method @prefill {
    %0 = et.tensor long [1, 128] dim_order [0, 1]
    %d0 = et.delegate "QnnBackend" #et.blob<dense_resource<prefill_ctx> : tensor<8xi8>, align 64> specs [#et.compile_spec<"graph" = "prefill">]
    et.chain inputs(%0) outputs(%0) {
      et.call_delegate %d0 (%0)
    }
    et.signature inputs(%0) outputs(%0)
  }
  et.method @decode {
    %0 = et.tensor long [1, 1] dim_order [0, 1]
    %d0 = et.delegate "QnnBackend" #et.blob<dense_resource<decode_ctx> : tensor<8xi8>, align 64> specs [#et.compile_spec<"graph" = "decode">]
    et.chain inputs(%0) outputs(%0) {
      et.call_delegate %d0 (%0)
    }
    et.signature inputs(%0) outputs(%0)
  }
}

{-#
  dialect_resources: {
    builtin: {
      prefill_ctx: "0x40000000C0FFEE00C0FFEE00",
      decode_ctx: "0x40000000C0FFEE00C0FFEE00"
    }
  }
#-}
