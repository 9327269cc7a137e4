// RUN: emit-opt %s --emit-bytecode | emit-opt | FileCheck %s --check-prefix=TEXT
// RUN: emit-opt %s --emit-bytecode -o %t.mlirbc
// RUN: emit-opt %t.mlirbc --dedup-delegate-blobs --emit-bytecode -o %t.dedup.mlirbc
// RUN: emit-translate --to-pte %t.dedup.mlirbc -o %t.from-bytecode.pte
// RUN: emit-opt %s --dedup-delegate-blobs | emit-translate --to-pte -o %t.from-text.pte
// RUN: cmp %t.from-bytecode.pte %t.from-text.pte
// RUN: %pte-json %t.from-bytecode.pte | FileCheck %s --check-prefix=JSON
// UNSUPPORTED: verify-roundtrip

// The dialect's attributes have native bytecode encodings, so a payload
// nested in #et.blob keeps its resource (and its bytes) through bytecode,
// and the bytecode path writes the same .pte as the text path.
//
// Resources here use storage alignment 16: MLIR 19's bytecode reader checks
// resource alignment against the absolute address of its input buffer,
// which is only 16-byte aligned for files too small to be memory-mapped.

// TEXT-LABEL: et.program @bytecode
// TEXT: et.tensor bfloat16 [2] dim_order [0]
// TEXT: et.delegate "A" #et.blob<dense_resource<payload_a> : tensor<4xi8>, align 64> specs [#et.compile_spec<"k" = "\00\01">]
// TEXT: et.delegate "B" #et.blob<dense_resource<payload_b> : tensor<4xi8>, align 16>
// TEXT: payload_a: "0x1000000001020304"
// TEXT: payload_b: "0x1000000001020304"

// JSON-LABEL: "segments": [
// JSON:         "size": 0
// JSON:         "size": 4
// JSON-NOT:     "size"
et.program @bytecode {
  et.method @m {
    %0 = et.tensor bfloat16 [2] dim_order [0]
    %d0 = et.delegate "A" #et.blob<dense_resource<payload_a> : tensor<4xi8>, align 64> specs [#et.compile_spec<"k" = "\00\01">]
    %d1 = et.delegate "B" #et.blob<dense_resource<payload_b> : tensor<4xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 (%0)
      et.call_delegate %d1 (%0)
    }
    et.signature inputs() outputs()
  }
}

{-#
  dialect_resources: {
    builtin: {
      payload_a: "0x1000000001020304",
      payload_b: "0x1000000001020304"
    }
  }
#-}
