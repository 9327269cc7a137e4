// memory-overlap: two planned tensors share bytes while both are live. The
// finding names both values, the bytes, the instruction range and the
// write; emit-memory exits 1, and emit-verify finds the same (the runtime
// loads such a program).
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %expect-exit 1 emit-memory --format=json %t.pte | %memory-lines | FileCheck %s
// RUN: not emit-verify %t.pte | FileCheck %s --check-prefix=VERIFY

et.program @overlaps {
  // A result written over an operand that is read after the call.
  // CHECK-LABEL: method over_live_operand:
  // CHECK: memory-overlap error: value 1 and value 2 share bytes [16, 32) of planned buffer 1 while both are live (instructions 1 to 2): instruction 1 writes value 2 over value 1, which is live from instruction 0 to 2
  et.method @over_live_operand buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 16)
    %3 = et.tensor float [4] dim_order [0] mem(1, 32)
    %relu = et.operator "aten::relu" overload "out"
    %add = et.operator "aten::add" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %relu (%1, %2)
      et.kernel_call %add (%1, %2, %3)
    }
    et.signature inputs(%0) outputs(%3)
  }

  // On the bytes of its second operand, which dies there: not what an
  // in-place kernel's plan is (that is the first tensor argument).
  // CHECK-LABEL: method over_second_operand:
  // CHECK: memory-overlap error: value 1 and value 2 share bytes [16, 32) of planned buffer 1 while both are live (instructions 1 to 1): instruction 1 writes value 2 over value 1, which is live from instruction 0 to 1
  et.method @over_second_operand buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 16)
    %relu = et.operator "aten::relu" overload "out"
    %add = et.operator "aten::add" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %add (%0, %1, %2)
    }
    et.signature inputs(%0) outputs(%2)
  }

  // Two inputs on shared bytes hold data before the first instruction; a
  // partial overlap counts.
  // CHECK-LABEL: method inputs:
  // CHECK: memory-overlap error: value 1 and value 0 share bytes [8, 16) of planned buffer 1 while both are live (instructions 0 to 0): both hold data before the first instruction (method inputs or mutable buffers)
  et.method @inputs buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 8)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %add = et.operator "aten::add" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %add (%0, %1, %2)
    }
    et.signature inputs(%0, %1) outputs(%2)
  }

  // A kernel's scratch buffer (no call returns it) on bytes still live.
  // CHECK-LABEL: method scratch:
  // CHECK: memory-overlap error: value 1 and value 2 share bytes [16, 32) of planned buffer 1 while both are live (instructions 1 to 1): instruction 1 writes value 2 over value 1, which is live from instruction 0 to 1
  et.method @scratch buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 16)
    %3 = et.tensor float [4] dim_order [0] mem(1, 32)
    %relu = et.operator "aten::relu" overload "out"
    %conv = et.operator "cortex_m::conv" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %conv (%1, %2, %3)
    }
    et.signature inputs(%0) outputs(%3)
  }
}

// VERIFY: error: value 1 and value 2 share bytes [16, 32) of planned buffer 1 while both are live (instructions 1 to 2): instruction 1 writes value 2 over value 1, which is live from instruction 0 to 2; the runtime loads the program, and the method computes wrong results [memory-overlap]
// VERIFY: runtime: loads
// VERIFY: 4 errors, 0 warnings
