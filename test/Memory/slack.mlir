// memory-slack: a planned buffer more than twice its peak, wasting at least
// 4 KiB, is a note (never an error: exit 0). A buffer just under twice its
// peak, or wasting less, is not.
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: emit-memory %t.pte | FileCheck %s
// RUN: emit-verify %t.pte | FileCheck %s --check-prefix=VERIFY

// CHECK-LABEL: method 'wasteful'
// CHECK: buffer 1 (cpu): 8192 bytes, at most 32 live at once
// CHECK: (execution_plan[0] 'wasteful'.non_const_buffer_sizes[1]): note: planned buffer 1 is 8192 bytes, but at most 32 bytes of it are live at once (at instruction 0): 8160 bytes are never used [memory-slack]
// CHECK-LABEL: method 'tight'
// CHECK-NOT: memory-slack
// CHECK: 0 errors, 0 warnings, 1 note

// VERIFY: note: planned buffer 1 is 8192 bytes
// VERIFY: 0 errors, 0 warnings, 1 note

et.program @slack {
  et.method @wasteful buffers [0, 8192] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
    }
    et.signature inputs(%0) outputs(%1)
  }
  et.method @tight buffers [0, 4127] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
    }
    et.signature inputs(%0) outputs(%1)
  }
}
