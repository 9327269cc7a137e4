// RUN: emit-opt %s --canonicalize | emit-translate --to-pte -o %t.pte
// RUN: emit-translate --from-pte %t.pte --emit-bytecode -o %t.mlirbc
// RUN: od -An -c -N 4 %t.mlirbc | FileCheck %s --check-prefix=MAGIC
// RUN: emit-opt %t.mlirbc --dedup-delegate-blobs --emit-bytecode -o %t.dedup.mlirbc
// RUN: emit-translate --to-pte %t.dedup.mlirbc -o %t.from-bytecode.pte
// RUN: emit-translate --from-pte %t.pte | emit-opt --dedup-delegate-blobs | emit-translate --to-pte -o %t.from-text.pte
// RUN: cmp %t.from-bytecode.pte %t.from-text.pte
// RUN: %pte-json %t.from-bytecode.pte | FileCheck %s

// --from-pte --emit-bytecode writes MLIR bytecode (magic "MLïR"), the fast
// path for large programs; the whole job through bytecode writes the same
// .pte as through text.

// MAGIC: M L 357 R
// CHECK-LABEL: "segments": [
// CHECK:          "size": 0
// CHECK:          "size": 16
// CHECK-NOT:      "size"
et.program @bytecode {
  et.method @a {
    %d0 = et.delegate "B" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]> : tensor<16xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
  et.method @b {
    %d0 = et.delegate "C" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]> : tensor<16xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}
