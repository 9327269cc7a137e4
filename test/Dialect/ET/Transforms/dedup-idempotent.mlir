// RUN: emit-opt %s --dedup-delegate-blobs > %t.once.mlir
// RUN: emit-opt %t.once.mlir --dedup-delegate-blobs > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: FileCheck %s < %t.twice.mlir

// A second run changes nothing: the first run's output is a fixed point.

// CHECK-LABEL: et.program @idempotent
// CHECK-NEXT: et.blob @payload_0 align 64
// CHECK-NEXT: et.blob @payload_1 align 4
// CHECK-NEXT: et.method @a
// CHECK: et.method @b
et.program @idempotent {
  et.method @a {
    %d0 = et.delegate "B" #et.blob<dense<[1, 2]> : tensor<2xi8>, align 32> specs [#et.compile_spec<"k" = "1">]
    %d1 = et.delegate "B" #et.blob<dense<[3]> : tensor<1xi8>, align 4>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
    }
    et.signature inputs() outputs()
  }
  et.method @b {
    %d0 = et.delegate "C" #et.blob<dense<[1, 2]> : tensor<2xi8>, align 64> specs [#et.compile_spec<"k" = "2">]
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}
