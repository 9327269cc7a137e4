// RUN: emit-opt %s --split-input-file | emit-opt --split-input-file | FileCheck %s
// RUN: emit-opt %s --split-input-file --mlir-print-op-generic | emit-opt --split-input-file | FileCheck %s
// UNSUPPORTED: verify-roundtrip

// Every op of the dialect parses, prints and parses again unchanged.

// CHECK-LABEL: et.program @values
// CHECK: et.method @all_values buffers [0, 64]
// CHECK-NEXT: %[[N:.*]] = et.null
// CHECK-NEXT: %[[I:.*]] = et.int -7
// CHECK-NEXT: %[[B:.*]] = et.bool true
// CHECK-NEXT: %[[D:.*]] = et.double 5.000000e-01
// CHECK-NEXT: %[[S:.*]] = et.string "mean"
// CHECK-NEXT: %[[T:.*]] = et.tensor float [2, 3] dim_order [1, 0] mem(1, 8)
// CHECK-NEXT: %[[C:.*]] = et.tensor qint8 [] dim_order [] constant(1)
// CHECK-NEXT: %[[F:.*]] = et.tensor bool [1] dim_order [0]
// CHECK-NEXT: et.chain inputs(%[[T]]) outputs(%[[T]]) {
// CHECK-NEXT:   et.kernel_call "aten::add" overload "out"(%[[T]], %[[T]], %[[I]], %[[T]])
// CHECK-NEXT:   et.move %[[T]] to %[[C]]
// CHECK-NEXT:   et.jump_false %[[B]] to 0
// CHECK-NEXT:   et.jump_false %[[F]] to 1
// CHECK-NEXT:   et.free %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: et.signature inputs(%[[T]], %[[N]]) outputs(%[[T]], %[[D]])
et.program @values {
  et.method @all_values buffers [0, 64] {
    %0 = et.null
    %1 = et.int -7
    %2 = et.bool true
    %3 = et.double 0.5
    %4 = et.string "mean"
    %5 = et.tensor float [2, 3] dim_order [1, 0] mem(1, 8)
    %6 = et.tensor qint8 [] dim_order [] constant(1)
    %7 = et.tensor bool [1] dim_order [0]
    et.chain inputs(%5) outputs(%5) {
      et.kernel_call "aten::add" overload "out" (%5, %5, %1, %5)
      et.move %5 to %6
      et.jump_false %2 to 0
      et.jump_false %7 to 1
      et.free %4
    }
    et.signature inputs(%5, %0) outputs(%5, %3)
  }
}

// -----

// CHECK-LABEL: et.program @delegates
// CHECK: et.blob @shared align 64 = dense_resource<shared_bytes> : tensor<4xi8>
// CHECK: et.blob @small align 1 = dense<[1, 2]> : tensor<2xui8>
// CHECK: et.method @calls {
// CHECK: et.call_delegate "QnnBackend" @shared(%{{.*}}, %{{.*}}) specs [#et.compile_spec<"graph" = "prefill">, #et.compile_spec<"raw" = "\00\FF">]
// CHECK: et.call_delegate "XnnpackBackend" #et.blob<dense_resource<inline_bytes> : tensor<4xi8>, align 16>(%{{.*}})
// CHECK-NOT: specs
// CHECK: et.call_delegate "Tiny" @small()
et.program @delegates {
  et.blob @shared align 64 = dense_resource<shared_bytes> : tensor<4xi8>
  et.blob @small align 1 = dense<[1, 2]> : tensor<2xui8>
  et.method @calls {
    %0 = et.tensor float [4] dim_order [0]
    %1 = et.tensor float [4] dim_order [0]
    et.chain inputs(%0) outputs(%1) {
      et.call_delegate "QnnBackend" @shared (%0, %1)
          specs [#et.compile_spec<"graph" = "prefill">,
                 #et.compile_spec<"raw" = "\00\FF">]
      et.call_delegate "XnnpackBackend"
          #et.blob<dense_resource<inline_bytes> : tensor<4xi8>, align 16> (%1)
      et.call_delegate "Tiny" @small ()
    }
    et.signature inputs(%0) outputs(%1)
  }
}

{-#
  dialect_resources: {
    builtin: {
      shared_bytes: "0x40000000DEADBEEF",
      inline_bytes: "0x1000000001020304"
    }
  }
#-}

// -----

// A list value may name a value declared after it: the method body is a
// graph region, as a .pte's value table is.
// CHECK-LABEL: et.program @graph_region
// CHECK: et.chain inputs(%[[LATER:[0-9]+]]) outputs()
// CHECK: %[[LATER]] = et.int 2
et.program @graph_region {
  et.method @forward {
    et.chain inputs(%0) outputs() {
    }
    %0 = et.int 2
    et.signature inputs() outputs()
  }
}
