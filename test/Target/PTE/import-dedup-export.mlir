// RUN: emit-opt %s --canonicalize | emit-translate --to-pte -o %t.undeduped.pte
// RUN: %pte-json %t.undeduped.pte | FileCheck %s --check-prefix=BEFORE
// RUN: emit-translate --from-pte %t.undeduped.pte | emit-opt --dedup-delegate-blobs | emit-translate --to-pte -o %t.deduped.pte
// RUN: %pte-json %t.deduped.pte | FileCheck %s --check-prefix=AFTER
// RUN: emit-translate --from-pte %t.deduped.pte | FileCheck %s --check-prefix=IMPORT

// The workflow on a file: a .pte whose two methods each carry their own copy
// of two payloads is imported, deduplicated and written back. Each call keeps
// its own delegate entry and compile specs; the copies become one segment
// each; the constant segment is untouched.

// BEFORE-LABEL: "segments": [
// BEFORE-COUNT-5: "size":
// BEFORE-NOT:     "size":

// AFTER:        "name": "prefill",
// AFTER:          "id": "QnnBackend",
// AFTER-NEXT:     "processed": {
// AFTER-NEXT:       "location": "SEGMENT",
// AFTER-NEXT:       "index": 1
// AFTER:            "key": "graph",
// "prefill"
// AFTER-NEXT:       "value": [112, 114, 101, 102, 105, 108, 108]
// AFTER:          "id": "XnnpackBackend",
// AFTER-NEXT:     "processed": {
// AFTER-NEXT:       "location": "SEGMENT",
// AFTER-NEXT:       "index": 2
// AFTER:        "name": "decode",
// AFTER:          "id": "QnnBackend",
// AFTER-NEXT:     "processed": {
// AFTER-NEXT:       "location": "SEGMENT",
// AFTER-NEXT:       "index": 1
// AFTER:            "key": "graph",
// "decode"
// AFTER-NEXT:       "value": [100, 101, 99, 111, 100, 101]
// AFTER:          "id": "XnnpackBackend",
// AFTER-NEXT:     "processed": {
// AFTER-NEXT:       "location": "SEGMENT",
// AFTER-NEXT:       "index": 2
// AFTER-LABEL:  "segments": [
// AFTER-NEXT:     {
// AFTER-NEXT:       "offset": 0,
// AFTER-NEXT:       "size": 0
// AFTER-NEXT:     },
// AFTER-NEXT:     {
// AFTER-NEXT:       "offset": 0,
// AFTER-NEXT:       "size": 8
// AFTER-NEXT:     },
// AFTER-NEXT:     {
// AFTER-NEXT:       "offset": 128,
// AFTER-NEXT:       "size": 4
// AFTER-NEXT:     }
// AFTER-NEXT:   ],

// IMPORT-COUNT-2: et.delegate "QnnBackend" @segment_1
// IMPORT-NOT: @segment_3
et.program @llm {
  et.method @prefill {
    %0 = et.tensor float [1] dim_order [0]
    %d0 = et.delegate "QnnBackend" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 16> specs [#et.compile_spec<"graph" = "prefill">]
    %d1 = et.delegate "XnnpackBackend" #et.blob<dense<[9, 9, 9, 1]> : tensor<4xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 (%0)
      et.call_delegate %d1 (%0)
    }
    et.signature inputs() outputs()
  }
  et.method @decode {
    %0 = et.tensor float [1] dim_order [0]
    %d0 = et.delegate "QnnBackend" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 16> specs [#et.compile_spec<"graph" = "decode">]
    %d1 = et.delegate "XnnpackBackend" #et.blob<dense<[9, 9, 9, 1]> : tensor<4xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 (%0)
      et.call_delegate %d1 (%0)
    }
    et.signature inputs() outputs()
  }
}
