// Tensors that share bytes on purpose, as ExecuTorch plans them, are not
// findings: an in-place kernel's result on its first tensor argument (which
// dies there, or is a mutable buffer), a view the emitter elided (a second
// tensor on the same bytes that no call writes), et_view's result on its
// input, in a loop too.
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: emit-memory --format=json %t.pte | %memory-lines | FileCheck %s
// RUN: emit-verify %t.pte | FileCheck %s --check-prefix=VERIFY

// CHECK-NOT: memory-overlap
// VERIFY: 0 errors, 0 warnings

et.program @aliases {
  et.blob @kv align 1 = dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi8>
  et.mutable_data_segment @kv offsets [0, 0]

  // CHECK-LABEL: method in_place:
  // CHECK: value 0 buffer 1 [0, 16) live 0..0
  // CHECK-NEXT: value 2 buffer 1 [0, 16) live 0..1
  // CHECK-NEXT: value 3 'cache' buffer 1 [16, 32) live 0..1
  // CHECK-NEXT: value 4 buffer 1 [16, 32) live 1..1
  et.method @in_place buffers [0, 32] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.int 1
    %2 = et.tensor float [4] dim_order [0] mem(1, 0)
    %3 = et.tensor float [4] dim_order [0] mem(1, 16) data(1) info #et.tensor_info<fqn = "cache">
    %4 = et.tensor float [4] dim_order [0] mem(1, 16)
    %add = et.operator "aten::add" overload "out"
    %index_put = et.operator "aten::index_put" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %add (%0, %0, %1, %2)
      et.kernel_call %index_put (%3, %2, %4)
    }
    et.signature inputs(%0) outputs()
  }

  // A view of %1 (%2) read inside a loop, et_view's result (%5) on %4.
  // CHECK-LABEL: method views:
  // CHECK: value 1 buffer 1 [16, 32) live 0..0
  // CHECK-NEXT: value 2 buffer 1 [16, 32) live 1..4
  // CHECK-NEXT: value 4 buffer 1 [32, 48) live 1..4
  // CHECK-NEXT: value 5 buffer 1 [32, 48) live 1..4
  // CHECK-NEXT: value 6 buffer 1 [48, 64) live 1..4
  et.method @views buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 16)
    %3 = et.int_list ()
    %4 = et.tensor float [4] dim_order [0] mem(1, 32)
    %5 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 32)
    %6 = et.tensor float [4] dim_order [0] mem(1, 48)
    %c = et.bool false
    %relu = et.operator "aten::relu" overload "out"
    %view = et.operator "executorch_prim::et_view" overload "default"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %relu (%2, %4)
      et.kernel_call %view (%4, %3, %5)
      et.kernel_call %relu (%5, %6)
      et.jump_false %c to 1
    }
    et.signature inputs(%0) outputs()
  }
}
