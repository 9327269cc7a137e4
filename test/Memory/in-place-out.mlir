// memory-in-place-out: an element-wise `.out` kernel writing its result
// exactly over an input that dies there (same bytes, scalar type, sizes and
// dim order) reads each element before it writes it, so the result is
// right; ExecuTorch plans that only for an operator a user enrolled in
// reinplace_pass. A warning that says why; anything short of it is a
// memory-overlap error.
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %expect-exit 1 emit-memory --format=json %t.pte | %memory-lines | FileCheck %s
// RUN: not emit-verify %t.pte | FileCheck %s --check-prefix=VERIFY

et.program @in_place_out {
  et.blob @kv align 1 = dense<0> : tensor<16xi8>
  et.mutable_data_segment @kv offsets [0, 0]

  // Over the first operand, over the second, and a unary kernel's.
  // CHECK-LABEL: method warned:
  // CHECK: memory-in-place-out warning: instruction 1 (aten::add.out) writes its result value 3 exactly over its input value 1 (bytes [16, 32) of planned buffer 1), which dies there: an element-wise kernel reads each element before it writes it, so the result is right, but ExecuTorch plans this only for an operator a user enrolled in reinplace_pass; any other kernel computes wrong results; the runtime loads the program
  // CHECK: memory-in-place-out warning: instruction 2 (aten::mul.out) writes its result value 4 exactly over its input value 2
  // CHECK: memory-in-place-out warning: instruction 3 (aten::relu.out) writes its result value 5 exactly over its input value 4
  // CHECK-NOT: memory-overlap
  et.method @warned buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %3 = et.tensor float [4] dim_order [0] mem(1, 16)
    %4 = et.tensor float [4] dim_order [0] mem(1, 32)
    %5 = et.tensor float [4] dim_order [0] mem(1, 32)
    %one = et.int 1
    %relu = et.operator "aten::relu" overload "out"
    %add = et.operator "aten::add" overload "out"
    %mul = et.operator "aten::mul" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %add (%1, %0, %one, %3)
      et.kernel_call %mul (%3, %2, %4)
      et.kernel_call %relu (%4, %5)
    }
    et.signature inputs(%0, %2) outputs(%5)
  }

  // The input has another shape on the same bytes; another scalar type;
  // another dim order: not the same elements.
  // CHECK-LABEL: method other_layout:
  // CHECK: memory-overlap error: value 1 and value 2 share bytes [16, 32) {{.*}} instruction 1 (aten::add.out) writes value 2 over value 1, which it reads
  // CHECK: memory-overlap error: value 2 and value 3 share bytes [16, 32) {{.*}} instruction 2 (aten::abs.out) writes value 3 over value 2, which it reads
  // CHECK: memory-overlap error: value 4 and value 5 share bytes [32, 48) {{.*}} instruction 3 (aten::neg.out) writes value 5 over value 4, which it reads
  // CHECK-NOT: memory-in-place-out
  et.method @other_layout buffers [0, 48] {
    %0 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 0)
    %1 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 16)
    %3 = et.tensor int [4] dim_order [0] mem(1, 16)
    %4 = et.tensor int [2, 2] dim_order [0, 1] mem(1, 32)
    %5 = et.tensor int [2, 2] dim_order [1, 0] mem(1, 32)
    %one = et.int 1
    %relu = et.operator "aten::relu" overload "out"
    %add = et.operator "aten::add" overload "out"
    %abs = et.operator "aten::abs" overload "out"
    %neg = et.operator "aten::neg" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %add (%1, %0, %one, %2)
      et.kernel_call %abs (%2, %3)
      et.kernel_call %neg (%4, %5)
    }
    et.signature inputs(%0, %4) outputs(%3, %5)
  }

  // The input a mutable buffer, whose state it would lose; a method output
  // the method would not return.
  // CHECK-LABEL: method outlived:
  // CHECK: memory-overlap error: value 1 ('state') and value 2 share bytes [16, 32) {{.*}} instruction 0 (aten::add.out) writes value 2 over value 1 ('state'), which it reads
  // CHECK: memory-overlap error: value 3 and value 4 share bytes [32, 48) {{.*}} instruction 2 (aten::relu.out) writes value 4 over value 3, which it reads
  // CHECK-NOT: memory-in-place-out
  et.method @outlived buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16) data(1) info #et.tensor_info<fqn = "state">
    %2 = et.tensor float [4] dim_order [0] mem(1, 16)
    %3 = et.tensor float [4] dim_order [0] mem(1, 32)
    %4 = et.tensor float [4] dim_order [0] mem(1, 32)
    %one = et.int 1
    %relu = et.operator "aten::relu" overload "out"
    %add = et.operator "aten::add" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %add (%1, %0, %one, %2)
      et.kernel_call %relu (%2, %3)
      et.kernel_call %relu (%3, %4)
    }
    et.signature inputs(%0) outputs(%3, %4)
  }

  // Not element-wise: a matrix multiply, a custom operator.
  // CHECK-LABEL: method not_elementwise:
  // CHECK: memory-overlap error: value 1 and value 2 {{.*}} instruction 1 (aten::mm.out) writes value 2 over value 1, which it reads
  // CHECK: memory-overlap error: value 2 and value 3 {{.*}} instruction 2 (my_ops::add.out) writes value 3 over value 2, which it reads
  // CHECK-NOT: memory-in-place-out
  et.method @not_elementwise buffers [0, 32] {
    %0 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 0)
    %1 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 16)
    %2 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 16)
    %3 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 16)
    %relu = et.operator "aten::relu" overload "out"
    %mm = et.operator "aten::mm" overload "out"
    %custom = et.operator "my_ops::add" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %mm (%1, %0, %2)
      et.kernel_call %custom (%2, %0, %3)
    }
    et.signature inputs(%0) outputs(%3)
  }
}

// VERIFY: warning: instruction 1 (aten::add.out) writes its result value 3 exactly over its input value 1 {{.*}}; the runtime loads the program [memory-in-place-out]
// VERIFY: 7 errors, 3 warnings
