// An ASan-instrumented plugin cannot load into the uninstrumented mlir-opt.
// UNSUPPORTED: sanitizers
// RUN: mlir-opt %s --load-dialect-plugin=%emit_plugin --load-pass-plugin=%emit_plugin --pass-pipeline='builtin.module(dedup-delegate-blobs)' | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%emit_plugin | FileCheck %s --check-prefix=PARSE

// The stock mlir-opt of LLVM 19 loads emit as a plugin: it parses the et
// dialect and runs --dedup-delegate-blobs (only through --pass-pipeline, the
// one way plugin passes run in MLIR 19).

// CHECK-LABEL: et.program @plugin
// CHECK-NEXT: et.blob @payload_0 align 16 = dense<[1, 2, 3, 4]>
// CHECK-NOT: et.blob
// CHECK: et.delegate "A" @payload_0 specs [#et.compile_spec<"k" = "a">]
// CHECK: et.delegate "B" @payload_0 specs [#et.compile_spec<"k" = "b">]
// PARSE: et.delegate "A" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16>
et.program @plugin {
  et.method @m {
    %d0 = et.delegate "A" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16> specs [#et.compile_spec<"k" = "a">]
    %d1 = et.delegate "B" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16> specs [#et.compile_spec<"k" = "b">]
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
    }
    et.signature inputs() outputs()
  }
}
