// --pte-to-pte runs import, a pass pipeline and export in one process. By
// default the pipeline deduplicates, and the result is byte for byte what
// the three-tool path writes.
//
// RUN: emit-opt %s --canonicalize | emit-translate --to-pte -o %t.in.pte
// RUN: emit-translate --pte-to-pte %t.in.pte -o %t.fast.pte --pte-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: emit-translate --from-pte %t.in.pte | emit-opt --dedup-delegate-blobs | emit-translate --to-pte -o %t.slow.pte
// RUN: cmp %t.fast.pte %t.slow.pte
// RUN: %pte-json %t.fast.pte | FileCheck %s
//
// Another pipeline, and --to-pte's layout options, apply too.
// RUN: emit-translate --pte-to-pte %t.in.pte --pte-pass-pipeline='builtin.module()' --pte-segment-alignment=256 -o %t.none.pte
// RUN: %pte-json %t.none.pte | FileCheck %s --check-prefix=NONE
//
// RUN: not emit-translate --pte-to-pte %t.in.pte --pte-pass-pipeline='builtin.module(no-such-pass)' -o %t.bad.pte 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.bad.pte

// TIMING: pte-to-pte timing: import {{[0-9.]+}} s, passes {{[0-9.]+}} s, export {{[0-9.]+}} s, total {{[0-9.]+}} s
// CHECK-LABEL: "segments": [
// CHECK:         "size": 0
// CHECK:         "size": 8
// CHECK-NOT:     "size"
// NONE-LABEL: "segments": [
// NONE:          "size": 0
// NONE:          "offset": 0,
// NONE-NEXT:     "size": 8
// NONE:          "offset": 256,
// NONE-NEXT:     "size": 8
// BAD: error: invalid --pte-pass-pipeline: {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline

et.program @pipeline {
  et.method @a {
    %d0 = et.delegate "B" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
  et.method @b {
    %d0 = et.delegate "C" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}
