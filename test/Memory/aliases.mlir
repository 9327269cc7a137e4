// Tensors that share bytes on purpose, as ExecuTorch plans them, are not
// findings: an in-place operator's result (ATen's trailing `_`) over the
// argument it mutates, its first, as a value of its own or as that same
// value; a mutable buffer written in place (the write-back `aten::copy_`,
// an in-place update of a KV cache); a view the emitter elided (a second
// tensor on the same bytes that no call writes); et_view's result on its
// input, in a loop too.
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: emit-memory --format=json %t.pte | %memory-lines | FileCheck %s
// RUN: emit-verify %t.pte | FileCheck %s --check-prefix=VERIFY

// CHECK-NOT: memory-
// VERIFY: 0 errors, 0 warnings

et.program @aliases {
  et.blob @kv align 1 = dense<0> : tensor<32xi8>
  et.mutable_data_segment @kv offsets [0, 0, 16]

  // index_put_'s result, a value of its own on its first argument's bytes,
  // read after the call as the argument is.
  // CHECK-LABEL: method in_place:
  // CHECK: value 0 buffer 1 [0, 16) live 0..0
  // CHECK-NEXT: value 2 buffer 1 [16, 32) live 0..2
  // CHECK-NEXT: value 3 buffer 1 [32, 48) live 1..1
  // CHECK-NEXT: value 4 buffer 1 [16, 32) live 1..2
  // CHECK-NEXT: value 5 buffer 1 [48, 64) live 2..2
  et.method @in_place buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.int 1
    %2 = et.tensor float [4] dim_order [0] mem(1, 16)
    %3 = et.tensor float [4] dim_order [0] mem(1, 32)
    %4 = et.tensor float [4] dim_order [0] mem(1, 16)
    %5 = et.tensor float [4] dim_order [0] mem(1, 48)
    %none = et.null
    %f = et.bool false
    %relu = et.operator "aten::relu" overload "out"
    %index_put_ = et.operator "aten::index_put_" overload ""
    %add = et.operator "aten::add" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %2)
      et.kernel_call %index_put_ (%2, %none, %3, %f, %4)
      et.kernel_call %add (%2, %4, %1, %5)
    }
    et.signature inputs(%0) outputs(%5)
  }

  // A mutable buffer (the KV cache) updated by an in-place operator whose
  // result is the buffer's own value, as ExecuTorch's emitter writes it
  // today, then written back by aten::copy_ through a value of its own.
  // CHECK-LABEL: method mutable_buffer:
  // CHECK: value 1 'cache' buffer 1 [16, 32) live 0..2
  // CHECK-NEXT: value 2 buffer 1 [32, 48) live 1..2
  // CHECK-NEXT: value 3 buffer 1 [16, 32) live 2..2
  et.method @mutable_buffer buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16) data(1) info #et.tensor_info<fqn = "cache">
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %3 = et.tensor float [4] dim_order [0] mem(1, 16)
    %none = et.null
    %f = et.bool false
    %index_put_ = et.operator "aten::index_put_" overload ""
    %relu = et.operator "aten::relu" overload "out"
    %copy_ = et.operator "aten::copy_" overload ""
    et.chain inputs() outputs() {
      et.kernel_call %index_put_ (%1, %none, %0, %f, %1)
      et.kernel_call %relu (%1, %2)
      et.kernel_call %copy_ (%1, %2, %f, %3)
    }
    et.signature inputs(%0) outputs()
  }

  // A dunder in-place operator (`__iand__`) over its first argument.
  // CHECK-LABEL: method dunder:
  et.method @dunder buffers [0, 32] {
    %0 = et.tensor bool [16] dim_order [0] mem(1, 0)
    %1 = et.tensor bool [16] dim_order [0] mem(1, 16)
    %2 = et.tensor bool [16] dim_order [0] mem(1, 0)
    %iand = et.operator "aten::__iand__" overload "Tensor"
    et.chain inputs() outputs() {
      et.kernel_call %iand (%0, %1, %2)
    }
    et.signature inputs(%0, %1) outputs(%2)
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
