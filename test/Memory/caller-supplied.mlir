// Inputs and outputs no buffer plans (as a QNN LLM's are): the caller gives
// their memory, and emit-memory says how many and how many bytes, a list's
// items counted; planned ones and constants are not the caller's.
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: emit-memory %t.pte | FileCheck %s
// RUN: emit-memory --format=json %t.pte | FileCheck %s --check-prefix=JSON

// CHECK-LABEL: method 'forward'
// CHECK: caller supplies: 3 inputs (56 bytes) and 1 output (16 bytes), 72 bytes in all: no buffer plans them, so the caller gives their memory (Method::set_input points such an input at the caller's tensor, set_output_data_ptr such an output at the caller's buffer)
// CHECK-LABEL: method 'planned'
// CHECK-NOT: caller supplies

// JSON: "caller_supplied": {
// JSON-NEXT: "inputs": {
// JSON-NEXT: "bytes": 56,
// JSON-NEXT: "tensors": 3
// JSON-NEXT: },
// JSON-NEXT: "outputs": {
// JSON-NEXT: "bytes": 16,
// JSON-NEXT: "tensors": 1

et.program @caller {
  et.blob @constants align 16 = dense<0> : tensor<16xi8>
  et.constant_segment @constants offsets [0, 0]
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [2, 4] dim_order [0, 1]
    %1 = et.tensor half [4] dim_order [0]
    %2 = et.tensor int [4] dim_order [0]
    %3 = et.tensor_list (%1, %2)
    %4 = et.tensor float [4] dim_order [0] data(1)
    %5 = et.tensor float [4] dim_order [0] mem(1, 0)
    %6 = et.tensor float [4] dim_order [0]
    et.chain inputs() outputs() {
    }
    et.signature inputs(%0, %3, %4, %5) outputs(%6)
  }
  et.method @planned buffers [0, 16] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    et.chain inputs() outputs() {
    }
    et.signature inputs(%0) outputs(%0)
  }
}
