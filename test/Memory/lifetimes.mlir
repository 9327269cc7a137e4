// Lifetimes: from the first instruction that names a tensor to the last,
// numbered across chains; inputs from 0, outputs to the end, mutable
// buffers throughout, a value named inside a loop (a backward jump) for the
// whole loop, a list's items where the list is named.
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: emit-memory --format=json %t.pte | %memory-lines | FileCheck %s

et.program @lifetimes {
  et.blob @kv align 1 = dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi8>
  et.mutable_data_segment @kv offsets [0, 0]

  // CHECK-LABEL: method straight:
  // CHECK-NEXT: buffer 1 cpu: 48 bytes, peak 32
  // CHECK-NEXT: value 0 buffer 1 [0, 16) live 0..0
  // CHECK-NEXT: value 1 buffer 1 [16, 32) live 0..1
  // CHECK-NEXT: value 2 buffer 1 [0, 16) live 1..1
  // CHECK-NEXT: value 3 buffer 1 [32, 48) never named
  et.method @straight buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 0)
    %3 = et.tensor float [4] dim_order [0] mem(1, 32)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs(%0) outputs(%2) {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %relu (%1, %2)
    }
    et.signature inputs(%0) outputs(%2)
  }

  // Inputs live from the start, outputs to the end, across two chains.
  // CHECK-LABEL: method signature:
  // CHECK: value 0 buffer 1 [0, 16) live 0..2
  // CHECK-NEXT: value 1 buffer 1 [16, 32) live 0..3
  // CHECK-NEXT: value 2 buffer 1 [32, 48) live 1..1
  et.method @signature buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %relu (%1, %2)
    }
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.free %1
    }
    et.signature inputs(%0) outputs(%1)
  }

  // A backward jump from 3 to 1: what the loop names lives through it;
  // what it does not name keeps its own lifetime.
  // CHECK-LABEL: method loop:
  // CHECK: value 0 buffer 1 [0, 16) live 0..3
  // CHECK-NEXT: value 1 buffer 1 [16, 32) live 1..3
  // CHECK-NEXT: value 2 buffer 1 [32, 48) live 4..4
  et.method @loop buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %c = et.bool false
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %0)
      et.kernel_call %relu (%0, %1)
      et.kernel_call %relu (%1, %1)
      et.jump_false %c to 1
      et.kernel_call %relu (%2, %2)
    }
    et.signature inputs() outputs()
  }

  // A mutable buffer (planned, with initial data) lives throughout; a
  // delegate call names its arguments; a tensor list names its items.
  // CHECK-LABEL: method buffers_and_lists:
  // CHECK: value 0 buffer 1 [0, 16) live 0..2
  // CHECK-NEXT: value 1 'cache' buffer 1 [16, 32) live 0..2
  // CHECK-NEXT: value 2 buffer 1 [32, 48) live 1..2
  // CHECK-NEXT: value 3 buffer 1 [48, 64) live 2..2
  et.method @buffers_and_lists buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16) data(1) info #et.tensor_info<fqn = "cache">
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %3 = et.tensor float [4] dim_order [0] mem(1, 48)
    %list = et.tensor_list (%0, %2)
    %d = et.delegate "XnnpackBackend" #et.blob<dense<[1, 2, 3]> : tensor<3xi8>, align 1>
    %cat = et.operator "aten::cat" overload "out"
    et.chain inputs() outputs() {
      et.call_delegate %d (%0)
      et.call_delegate %d (%0, %2)
      et.kernel_call %cat (%list, %3)
    }
    et.signature inputs(%0) outputs()
  }
}
