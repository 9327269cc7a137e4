// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %pte-json %t.pte --segments | FileCheck %s --check-prefix=HEADER
// RUN: %pte-json %t.pte | FileCheck %s
// RUN: emit-translate --from-pte %t.pte | emit-translate --to-pte -o %t.again.pte
// RUN: cmp %t.pte %t.again.pte

// A planned tensor whose initial data is 0 bytes of an empty mutable data
// segment. The runtime still asks for that segment when the method loads,
// and answers NotFound in a file without a segment base, so the file has
// an extended header although its segments hold no bytes (the runtime
// loads it).

// HEADER: header length 32 program_size {{[0-9]+}} segment_base {{[1-9][0-9]*}}
// HEADER: segment 0 size 0
// HEADER: segment 1 size 0

// CHECK-LABEL: "mutable_data_segments": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "segment_index": 1,
// CHECK-NEXT:      "offsets": [0, 0]

et.program @state {
  et.blob @constants align 1 = dense<> : tensor<0xi8>
  et.blob @state align 1 = dense<> : tensor<0xi8>
  et.constant_segment @constants offsets [0]
  et.mutable_data_segment @state offsets [0, 0]
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [0] dim_order [0] mem(1, 0) data(1)
    et.chain inputs(%0) outputs(%0) {
    }
    et.signature inputs(%0) outputs(%0)
  }
}
