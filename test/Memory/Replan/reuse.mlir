// Re-planning gives tensors whose lifetimes do not meet the same bytes, at
// offsets that keep their alignment modulo 16, and cuts each buffer to the
// most it needs; a file's plan that nothing beats stays as it is.
// RUN: emit-opt --et-replan-memory %s | FileCheck %s
// RUN: emit-opt --et-replan-memory %s | emit-translate --to-pte -o %t.pte
// RUN: emit-memory --format=json %t.pte | %memory-lines | FileCheck %s --check-prefix=SOUND
// RUN: emit-verify %t.pte | FileCheck %s --check-prefix=VERIFY

// SOUND-NOT: memory-overlap
// VERIFY: 0 errors

et.program @reuse {
  // A chain of calls, each reading the one before: two tensors are live at
  // a time, so two slots of 16 bytes hold all four.
  // CHECK-LABEL: et.method @chain buffers [0, 32]
  // CHECK-NEXT: %0 = et.tensor float [4] dim_order [0] mem(1, 0)
  // CHECK-NEXT: %1 = et.tensor float [4] dim_order [0] mem(1, 16)
  // CHECK-NEXT: %2 = et.tensor float [4] dim_order [0] mem(1, 0)
  // CHECK-NEXT: %3 = et.tensor float [4] dim_order [0] mem(1, 16)
  et.method @chain buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %3 = et.tensor float [4] dim_order [0] mem(1, 48)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %relu (%1, %2)
      et.kernel_call %relu (%2, %3)
    }
    et.signature inputs(%0) outputs(%3)
  }

  // Already at its lower bound: the file's plan stays, offset for offset.
  // CHECK-LABEL: et.method @tight buffers [0, 32]
  // CHECK-NEXT: %0 = et.tensor float [4] dim_order [0] mem(1, 16)
  // CHECK-NEXT: %1 = et.tensor float [4] dim_order [0] mem(1, 0)
  et.method @tight buffers [0, 32] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 16)
    %1 = et.tensor float [4] dim_order [0] mem(1, 0)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
    }
    et.signature inputs(%0) outputs(%1)
  }

  // Each tensor keeps its offset modulo 16: one at 8 stays at 8 modulo 16,
  // one at 128 may go to 0.
  // CHECK-LABEL: et.method @residues buffers [0, 11]
  // CHECK-NEXT: %0 = et.tensor byte [3] dim_order [0] mem(1, 8)
  // CHECK-NEXT: %1 = et.tensor byte [3] dim_order [0] mem(1, 0)
  // CHECK-NEXT: %2 = et.tensor byte [3] dim_order [0] mem(1, 8)
  et.method @residues buffers [0, 256] {
    %0 = et.tensor byte [3] dim_order [0] mem(1, 8)
    %1 = et.tensor byte [3] dim_order [0] mem(1, 128)
    %2 = et.tensor byte [3] dim_order [0] mem(1, 200)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %relu (%1, %2)
    }
    et.signature inputs(%0) outputs(%2)
  }

  // A method without planned memory keeps its plan as it is: no buffers.
  // CHECK-LABEL: et.method @no_plan {
  et.method @no_plan {
    %0 = et.int 1
    et.chain inputs() outputs() {
    }
    et.signature inputs(%0) outputs(%0)
  }

  // Each buffer is re-planned within itself.
  // CHECK-LABEL: et.method @two_buffers buffers [0, 32, 16]
  // CHECK-NEXT: %0 = et.tensor float [4] dim_order [0] mem(1, 0)
  // CHECK-NEXT: %1 = et.tensor float [4] dim_order [0] mem(2, 0)
  // CHECK-NEXT: %2 = et.tensor float [4] dim_order [0] mem(1, 0)
  // CHECK-NEXT: %3 = et.tensor float [4] dim_order [0] mem(1, 16)
  et.method @two_buffers buffers [0, 128, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(2, 48)
    %2 = et.tensor float [4] dim_order [0] mem(1, 64)
    %3 = et.tensor float [4] dim_order [0] mem(1, 112)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %relu (%1, %2)
      et.kernel_call %relu (%2, %3)
    }
    et.signature inputs(%0) outputs(%3)
  }
}
