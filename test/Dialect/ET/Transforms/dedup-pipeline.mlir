// RUN: emit-opt %s --dedup-delegate-blobs='share-entries=true compact-segments=true' -o %t.whole.mlir
// RUN: emit-opt %s --et-hoist-inline-payloads --et-share-blobs --et-share-segment-entries='compact=true' --et-share-delegate-entries -o %t.parts.mlir
// RUN: diff %t.whole.mlir %t.parts.mlir
// RUN: FileCheck %s < %t.whole.mlir
// RUN: emit-opt %s --dedup-delegate-blobs='scope=method min-size=5' -o %t.whole-policy.mlir
// RUN: emit-opt %s --et-hoist-inline-payloads='min-size=5' --et-share-blobs='scope=method min-size=5' --et-share-segment-entries='scope=method min-size=5' -o %t.parts-policy.mlir
// RUN: diff %t.whole-policy.mlir %t.parts-policy.mlir

// --dedup-delegate-blobs is the pipeline of the passes that each do one part
// of it: the same options give the same program.

// CHECK-LABEL: et.program @llm
// CHECK-NEXT: et.blob @c align 4 segment = dense_resource<c> : tensor<4xi8>
// CHECK-NEXT: et.constant_segment @c offsets [0, 0, 0]
// CHECK-NEXT: et.blob @payload_0 align 64 = dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi8>
// CHECK: %[[P:.*]] = et.delegate "Qnn" @payload_0 specs [#et.compile_spec<"graph" = "prefill">]
// CHECK-NEXT: et.chain
// CHECK-NEXT: et.call_delegate %[[P]] ()
// CHECK-NEXT: et.call_delegate %[[P]] ()
// CHECK: et.delegate "Qnn" @payload_0 specs [#et.compile_spec<"graph" = "decode">]
// CHECK: c: "0x0800000007070707"
et.program @llm {
  et.blob @c align 4 segment = dense<[7, 7, 7, 7, 7, 7, 7, 7]> : tensor<8xi8>
  et.constant_segment @c offsets [0, 0, 4]
  et.method @prefill {
    %0 = et.tensor float [] dim_order [] data(1)
    %1 = et.tensor float [] dim_order [] data(2)
    %a = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi8>, align 16> specs [#et.compile_spec<"graph" = "prefill">]
    %b = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi8>, align 64> specs [#et.compile_spec<"graph" = "prefill">]
    et.chain inputs() outputs() {
      et.call_delegate %a ()
      et.call_delegate %b ()
    }
    et.signature inputs() outputs()
  }
  et.method @decode {
    %a = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi8>, align 16> specs [#et.compile_spec<"graph" = "decode">]
    et.chain inputs() outputs() {
      et.call_delegate %a ()
    }
    et.signature inputs() outputs()
  }
}
