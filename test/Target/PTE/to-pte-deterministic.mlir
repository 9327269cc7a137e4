// RUN: emit-opt %s --dedup-delegate-blobs | emit-translate --to-pte -o %t.1.pte
// RUN: emit-opt %s --dedup-delegate-blobs | emit-translate --to-pte -o %t.2.pte
// RUN: cmp %t.1.pte %t.2.pte
// Hashing runs on the thread pool; output does not depend on it.
// RUN: emit-opt %s --dedup-delegate-blobs --mlir-disable-threading | emit-translate --to-pte -o %t.3.pte
// RUN: cmp %t.1.pte %t.3.pte
// And the in-process pipeline, threaded or not, writes the same bytes.
// RUN: emit-opt %s --canonicalize | emit-translate --to-pte -o %t.in.pte
// RUN: emit-translate --pte-to-pte %t.in.pte -o %t.4.pte
// RUN: emit-translate --pte-to-pte %t.in.pte --mlir-disable-threading -o %t.5.pte
// RUN: cmp %t.4.pte %t.5.pte
// RUN: %pte-json %t.1.pte | FileCheck %s

// Same input, same bytes; and the decode shows the content that was
// written, so the comparison is not between two empty files.

// CHECK-LABEL: "execution_plan": [
// CHECK:        "name": "a",
// CHECK:        "id": "B",
// CHECK:        "name": "b",
// CHECK:        "id": "C",
// CHECK-LABEL: "segments": [
// CHECK:          "size": 4
et.program @det {
  et.method @a {
    %d0 = et.delegate "B" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
  et.method @b {
    %d0 = et.delegate "C" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}
