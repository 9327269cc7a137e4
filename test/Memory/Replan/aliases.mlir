// What shares bytes on purpose keeps sharing exactly: an in-place
// operator's result with what it mutates, et_view's result with its input,
// a view the emitter elided with its base, a delegate writing over its
// input; a loop keeps what it names live through it; mutable buffers stay
// live throughout; state two methods share keeps its plan.
// RUN: emit-opt --et-replan-memory %s | FileCheck %s
// RUN: emit-opt --et-replan-memory %s | emit-translate --to-pte -o %t.pte
// RUN: emit-memory --format=json %t.pte | %memory-lines | FileCheck %s --check-prefix=SOUND
// RUN: emit-verify %t.pte | FileCheck %s --check-prefix=VERIFY

// SOUND-NOT: memory-overlap
// VERIFY: 0 errors

et.program @aliases {
  et.blob @kv align 1 = dense<0> : tensor<32xi8>
  et.mutable_data_segment @kv offsets [0, 0, 16]

  // CHECK-LABEL: et.method @in_place buffers [0, 32]
  // CHECK-NEXT: %0 = et.tensor float [4] dim_order [0] mem(1, [[A:[0-9]+]])
  // CHECK: %2 = et.tensor float [4] dim_order [0] mem(1, [[SELF:[0-9]+]])
  // CHECK: %4 = et.tensor float [4] dim_order [0] mem(1, [[SELF]])
  et.method @in_place buffers [0, 128] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.int 1
    %2 = et.tensor float [4] dim_order [0] mem(1, 64)
    %3 = et.tensor float [4] dim_order [0] mem(1, 32)
    %4 = et.tensor float [4] dim_order [0] mem(1, 64)
    %5 = et.tensor float [4] dim_order [0] mem(1, 96)
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

  // The view of %1 (%2, elided) and et_view's result (%5) stay on their
  // bases; the loop from 4 back to 1 keeps %2, %4, %5 and %6 apart.
  // CHECK-LABEL: et.method @views buffers [0, 48]
  // CHECK-NEXT: %0 = et.tensor float [4] dim_order [0] mem(1, {{[0-9]+}})
  // CHECK-NEXT: %1 = et.tensor float [4] dim_order [0] mem(1, [[BASE:[0-9]+]])
  // CHECK-NEXT: %2 = et.tensor float [2, 2] dim_order [0, 1] mem(1, [[BASE]])
  // CHECK: %4 = et.tensor float [4] dim_order [0] mem(1, [[VIEWED:[0-9]+]])
  // CHECK-NEXT: %5 = et.tensor float [2, 2] dim_order [0, 1] mem(1, [[VIEWED]])
  et.method @views buffers [0, 160] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 48)
    %2 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 48)
    %3 = et.int_list ()
    %4 = et.tensor float [4] dim_order [0] mem(1, 96)
    %5 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 96)
    %6 = et.tensor float [4] dim_order [0] mem(1, 144)
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

  // A mutable buffer is live throughout: nothing takes its bytes.
  // CHECK-LABEL: et.method @state buffers [0, 48]
  // CHECK-NEXT: %0 = et.tensor float [4] dim_order [0] mem(1, 0)
  // CHECK-NEXT: %1 = et.tensor float [4] dim_order [0] mem(1, 16) data(1)
  // CHECK-NEXT: %2 = et.tensor float [4] dim_order [0] mem(1, 32)
  // CHECK-NEXT: %3 = et.tensor float [4] dim_order [0] mem(1, 0)
  et.method @state buffers [0, 256] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 64) data(1) info #et.tensor_info<fqn = "state">
    %2 = et.tensor float [4] dim_order [0] mem(1, 128)
    %3 = et.tensor float [4] dim_order [0] mem(1, 192)
    %add = et.operator "aten::add" overload "out"
    %relu = et.operator "aten::relu" overload "out"
    %one = et.int 1
    et.chain inputs() outputs() {
      et.kernel_call %add (%0, %1, %one, %2)
      et.kernel_call %relu (%2, %3)
    }
    et.signature inputs(%0) outputs(%3)
  }

  // Two methods that plan the same mutable buffer in the same buffer share
  // its state (share_mutable_buffers): that buffer keeps its plan in both.
  // CHECK-LABEL: et.method @shared_a buffers [0, 256]
  // CHECK-NEXT: %0 = et.tensor float [4] dim_order [0] mem(1, 0)
  // CHECK-NEXT: %1 = et.tensor float [4] dim_order [0] mem(1, 64) data(2)
  // CHECK-NEXT: %2 = et.tensor float [4] dim_order [0] mem(1, 192)
  // CHECK-LABEL: et.method @shared_b buffers [0, 256]
  // CHECK-NEXT: %0 = et.tensor float [4] dim_order [0] mem(1, 128)
  // CHECK-NEXT: %1 = et.tensor float [4] dim_order [0] mem(1, 64) data(2)
  et.method @shared_a buffers [0, 256] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 64) data(2) info #et.tensor_info<fqn = "kv">
    %2 = et.tensor float [4] dim_order [0] mem(1, 192)
    %copy_ = et.operator "aten::copy_" overload ""
    %f = et.bool false
    et.chain inputs() outputs() {
      et.kernel_call %copy_ (%1, %0, %f, %2)
    }
    et.signature inputs(%0) outputs()
  }
  et.method @shared_b buffers [0, 256] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 128)
    %1 = et.tensor float [4] dim_order [0] mem(1, 64) data(2) info #et.tensor_info<fqn = "kv">
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%1, %0)
    }
    et.signature inputs() outputs(%0)
  }
}
