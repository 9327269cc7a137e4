// memory-overlap: two planned tensors share bytes while both are live. The
// finding names both values, the bytes, the instruction range and the
// write; emit-memory exits 1, and emit-verify finds the same (the runtime
// loads such a program).
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %expect-exit 1 emit-memory --format=json %t.pte | %memory-lines | FileCheck %s
// RUN: %expect-exit 1 emit-memory --format=json %t.pte -o %t.json
// RUN: %validate-json emit-memory-1 %t.json | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: 1 valid emit-memory-1
// RUN: not emit-verify %t.pte | FileCheck %s --check-prefix=VERIFY

et.program @overlaps {
  et.blob @constants align 16 = dense<0> : tensor<80xi8>
  et.constant_segment @constants offsets [0, 0, 64]
  et.blob @kv align 1 = dense<0> : tensor<16xi8>
  et.mutable_data_segment @kv offsets [0, 0]

  // A result written over an operand that is read after the call.
  // CHECK-LABEL: method over_live_operand:
  // CHECK: memory-overlap error: value 1 and value 2 share bytes [16, 32) of planned buffer 1 while both are live (instructions 1 to 2): instruction 1 (aten::relu.out) writes value 2 over value 1, which it reads and which is live from instruction 0 to 2
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

  // An out-variant kernel's result on exactly the bytes of the input it
  // reads, which dies there: linear.out computes wrong results (ExecuTorch
  // never plans it; only an in-place operator shares bytes with its input).
  // CHECK-LABEL: method out_over_input:
  // CHECK: memory-overlap error: value 1 and value 4 share bytes [16, 32) of planned buffer 1 while both are live (instructions 1 to 1): instruction 1 (aten::linear.out) writes value 4 over value 1, which it reads and which is live from instruction 0 to 1: only an in-place operator's result shares bytes with what it reads
  et.method @out_over_input buffers [0, 32] {
    %0 = et.tensor float [1, 4] dim_order [0, 1] mem(1, 0)
    %1 = et.tensor float [1, 4] dim_order [0, 1] mem(1, 16)
    %2 = et.tensor float [4, 4] dim_order [0, 1] data(1)
    %3 = et.tensor float [4] dim_order [0] data(2)
    %4 = et.tensor float [1, 4] dim_order [0, 1] mem(1, 16)
    %relu = et.operator "aten::relu" overload "out"
    %linear = et.operator "aten::linear" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %linear (%1, %2, %3, %4, %4)
    }
    et.signature inputs(%0) outputs(%4)
  }

  // A kernel with two outputs, one over the other.
  // CHECK-LABEL: method out_over_other_output:
  // CHECK: memory-overlap error: value 2 and value 1 share bytes [32, 48) of planned buffer 1 while both are live (instructions 0 to 0): instruction 0 (aten::max.dim_max) writes both at once
  et.method @out_over_other_output buffers [0, 48] {
    %0 = et.tensor float [4, 2] dim_order [0, 1] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 32)
    %2 = et.tensor long [2] dim_order [0] mem(1, 32)
    %dim = et.int 1
    %keep = et.bool false
    %outs = et.tensor_list (%1, %2)
    %max = et.operator "aten::max" overload "dim_max"
    et.chain inputs() outputs() {
      et.kernel_call %max (%0, %dim, %keep, %1, %2, %outs)
    }
    et.signature inputs(%0) outputs(%1, %2)
  }

  // An out-variant kernel writing over a mutable buffer it reads: the
  // buffer's state is lost (an in-place operator, index_put_, is the plan).
  // CHECK-LABEL: method out_over_mutable_buffer:
  // CHECK: memory-overlap error: value 1 ('cache') and value 3 share bytes [16, 32) of planned buffer 1 while both are live (instructions 0 to 0): instruction 0 (aten::index_put.out) writes value 3 over value 1 ('cache'), which it reads
  et.method @out_over_mutable_buffer buffers [0, 32] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16) data(1) info #et.tensor_info<fqn = "cache">
    %none = et.null
    %3 = et.tensor float [4] dim_order [0] mem(1, 16)
    %f = et.bool false
    %index_put = et.operator "aten::index_put" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %index_put (%1, %none, %0, %f, %3)
    }
    et.signature inputs(%0) outputs(%3)
  }

  // An in-place operator's result over another argument than the one it
  // mutates (its first), and over part of its first argument's bytes.
  // CHECK-LABEL: method in_place_elsewhere:
  // CHECK: memory-overlap error: value 2 and value 4 share bytes [32, 48) of planned buffer 1 while both are live (instructions 1 to 1): instruction 1 (aten::index_put_) writes value 4 over value 2, which it reads
  // CHECK: memory-overlap error: value 1 and value 6 share bytes [24, 32) of planned buffer 1 while both are live (instructions 2 to 2): instruction 2 (aten::add_.Tensor) writes value 6 over value 1, which it reads
  // CHECK: memory-overlap error: value 4 and value 6 share bytes [32, 40)
  et.method @in_place_elsewhere buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %none = et.null
    %4 = et.tensor float [4] dim_order [0] mem(1, 32)
    %f = et.bool false
    %6 = et.tensor float [4] dim_order [0] mem(1, 24)
    %one = et.int 1
    %relu = et.operator "aten::relu" overload "out"
    %index_put_ = et.operator "aten::index_put_" overload ""
    %add_ = et.operator "aten::add_" overload "Tensor"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %2)
      et.kernel_call %index_put_ (%1, %none, %2, %f, %4)
      et.kernel_call %add_ (%1, %4, %one, %6)
    }
    et.signature inputs(%0, %1) outputs(%6)
  }

  // A delegate's output over its input.
  // CHECK-LABEL: method delegate_over_input:
  // CHECK: memory-overlap error: value 1 and value 2 share bytes [16, 32) of planned buffer 1 while both are live (instructions 1 to 1): instruction 1 (a call of delegate 0, backend 'XnnpackBackend') writes value 2 over value 1, which is live from instruction 0 to 1
  et.method @delegate_over_input buffers [0, 32] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 16)
    %relu = et.operator "aten::relu" overload "out"
    %d = et.delegate "XnnpackBackend" #et.blob<dense<[1, 2, 3]> : tensor<3xi8>, align 1>
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.call_delegate %d (%1, %2)
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
  // CHECK: memory-overlap error: value 1 and value 2 share bytes [16, 32) of planned buffer 1 while both are live (instructions 1 to 1): instruction 1 (cortex_m::conv.out) writes value 2 over value 1, which it reads
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

// VERIFY: error: value 1 and value 2 share bytes [16, 32) of planned buffer 1 while both are live (instructions 1 to 2): instruction 1 (aten::relu.out) writes value 2 over value 1, which it reads and which is live from instruction 0 to 2: only an in-place operator{{.*}}; the runtime loads the program, and the method computes wrong results [memory-overlap]
// VERIFY: runtime: loads
// VERIFY: 10 errors, 0 warnings
