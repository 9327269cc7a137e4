// After --dedup-delegate-blobs the calls of two methods, each with its own
// entry and compile specs, share one stored payload: each node says which
// other entries share its bytes. Before, nothing is shared.
// RUN: emit-translate --to-pte %s -o %t.before.pte
// RUN: emit-graph --format=json %t.before.pte | %graph-lines | FileCheck %s --check-prefix=BEFORE
// RUN: emit-translate --from-pte %t.before.pte | emit-opt --dedup-delegate-blobs | emit-translate --to-pte -o %t.after.pte
// RUN: emit-graph --format=json %t.after.pte | %graph-lines | FileCheck %s --check-prefix=AFTER

// BEFORE-LABEL: method prefill:
// BEFORE:         delegate QnnBackend #0 8 B segment 1 shared [] magic 0x5678abcd specs [graph=utf-8:prefill]
// BEFORE-LABEL: method decode:
// BEFORE:         delegate QnnBackend #0 8 B segment 2 shared [] magic 0x5678abcd specs [graph=utf-8:decode]
// BEFORE:         delegate QnnBackend #1 4 B segment 3 shared [] magic None specs []

// AFTER-LABEL: method prefill:
// AFTER:         delegate QnnBackend #0 8 B segment 1 shared ['decode#0'] magic 0x5678abcd specs [graph=utf-8:prefill]
// AFTER-LABEL: method decode:
// AFTER:         delegate QnnBackend #0 8 B segment 1 shared ['prefill#0'] magic 0x5678abcd specs [graph=utf-8:decode]
// AFTER:         delegate QnnBackend #1 4 B segment 2 shared [] magic None specs []

et.program @shared {
  et.method @prefill buffers [0, 32] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %d0 = et.delegate "QnnBackend" #et.blob<dense<[-51, -85, 120, 86, 1, 2, 3, 4]> : tensor<8xi8>, align 16> specs [#et.compile_spec<"graph" = "prefill">]
    et.chain inputs(%0) outputs(%1) {
      et.call_delegate %d0 (%0, %1)
    }
    et.signature inputs(%0) outputs(%1)
  }
  et.method @decode buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %d0 = et.delegate "QnnBackend" #et.blob<dense<[-51, -85, 120, 86, 1, 2, 3, 4]> : tensor<8xi8>, align 16> specs [#et.compile_spec<"graph" = "decode">]
    %d1 = et.delegate "QnnBackend" #et.blob<dense<[9, 9, 9, 9]> : tensor<4xi8>, align 16>
    et.chain inputs(%0) outputs(%2) {
      et.call_delegate %d0 (%0, %1)
      et.call_delegate %d1 (%1, %2)
    }
    et.signature inputs(%0) outputs(%2)
  }
}
