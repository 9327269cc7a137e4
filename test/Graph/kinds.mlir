// Every instruction kind is a node, in chain order, ids unique in the
// method: kernel calls by operator and overload, a delegate call by
// backend, a move, a jump (with where it goes) and frees; the method's
// input and output are nodes of their own. An edge carries a value from
// the node that last wrote it: an in-place call's (relu_ reads and writes
// %2) comes from the call before it, a move's destination from the move,
// a list's from the nodes that wrote its items, and a view no call writes
// (the emitter elided it: same buffer and offset as its base) from its
// base's writer.
// A kernel call's inputs are its arguments but what it returns (the
// last) and, for an out variant, the out argument the emitter passes
// before it (add.out's %1 twice in `out_twice`).
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: emit-graph --format=json %t.pte | %graph-lines | FileCheck %s

// CHECK-LABEL: method forward: inputs [0] outputs [2]
// CHECK-NEXT: node input0 input %0 [] -> [0] from []
// CHECK-NEXT: node i0 0:0 kernel aten::add.out [0, 0, 3] -> [1] from [input0:%0]
// CHECK-NEXT: node i1 0:1 delegate XnnpackBackend [1] -> [2] from [i0:%1]
// CHECK-NEXT:   delegate XnnpackBackend #0 4 B segment 1 shared [] magic None specs []
// CHECK-NEXT:   payload None [opaque@0+4] target {}
// CHECK-NEXT: node i2 0:2 kernel aten::relu_ [2] -> [2] from [i1:%2]
// CHECK-NEXT: node i3 0:3 move move [2] -> [1] from [i2:%2]
// CHECK-NEXT: node i4 0:4 jump_false jump_false to 0 [4] -> [] from []
// CHECK-NEXT: node i5 0:5 free free [1] -> [] from [i3:%1]
// CHECK-NEXT: node i6 1:0 kernel quantized_decomposed::quantize_per_tensor.out [2] -> [1] from [i2:%2]
// CHECK-NEXT: node i7 1:1 free free [0] -> [] from [input0:%0]
// CHECK-NEXT: node output0 output %2 [2] -> [] from [i2:%2]
// CHECK-NEXT: value 0 tensor float[2, 4] planned 1+0 32 B live 0..7
// CHECK-NEXT: value 1 tensor float[2, 4] planned 1+32 32 B live 0..6
// CHECK-NEXT: value 2 tensor float[2, 4] planned 1+64 32 B live 0..7
// CHECK-NEXT: value 3 int live 0..4
// CHECK-NEXT: value 4 bool live 0..4
// CHECK-NEXT: fallback kernels 3 {'aten': 2, 'quantized_decomposed': 1} delegates 1 {'XnnpackBackend': 1}

// CHECK-LABEL: method lists: inputs [0] outputs [5]
// CHECK-NEXT: node input0 input %0 [] -> [0] from []
// CHECK-NEXT: node i0 0:0 kernel aten::relu.out [0] -> [1] from [input0:%0]
// CHECK-NEXT: node i1 0:1 kernel aten::cat.out [2, 3] -> [4] from [input0:%0, i0:%1]
// CHECK-NEXT: node i2 0:2 kernel aten::relu.out [6] -> [5] from [i1:%4]
// CHECK-NEXT: node output0 output %5 [5] -> [] from [i2:%5]
// CHECK: value 6 tensor float[8] planned 1+64 32 B view of %4 live 2..2

// CHECK-LABEL: method out_twice: inputs [0] outputs [1]
// CHECK-NEXT: node input0 input %0 [] -> [0] from []
// CHECK-NEXT: node i0 0:0 kernel aten::add.out [0, 0, 2] -> [1] from [input0:%0]

et.program @kinds {
  et.method @forward buffers [0, 96] {
    %x = et.tensor float [2, 4] dim_order [0, 1] mem(1, 0) info #et.tensor_info<fqn = "input.x">
    %y = et.tensor float [2, 4] dim_order [0, 1] mem(1, 32)
    %z = et.tensor float [2, 4] dim_order [0, 1] mem(1, 64)
    %alpha = et.int 1
    %cond = et.bool true
    %add = et.operator "aten::add" overload "out"
    %relu_ = et.operator "aten::relu_" overload ""
    %quant = et.operator "quantized_decomposed::quantize_per_tensor" overload "out"
    %xnn = et.delegate "XnnpackBackend" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16>
    et.chain inputs(%x) outputs(%z) {
      et.kernel_call %add (%x, %x, %alpha, %y)
      et.call_delegate %xnn (%y, %z)
      et.kernel_call %relu_ (%z, %z)
      et.move %z to %y
      et.jump_false %cond to 0
      et.free %y
    }
    et.chain inputs() outputs() {
      et.kernel_call %quant (%z, %y)
      et.free %x
    }
    et.signature inputs(%x) outputs(%z)
  }
  et.method @lists buffers [0, 128] {
    %x = et.tensor float [4] dim_order [0] mem(1, 0)
    %r = et.tensor float [4] dim_order [0] mem(1, 16)
    %both = et.tensor_list(%x, %r)
    %dim = et.int 0
    %cat = et.tensor float [2, 4] dim_order [0, 1] mem(1, 64)
    %out = et.tensor float [8] dim_order [0] mem(1, 96)
    %flat = et.tensor float [8] dim_order [0] mem(1, 64)
    %relu = et.operator "aten::relu" overload "out"
    %concat = et.operator "aten::cat" overload "out"
    et.chain inputs(%x) outputs(%out) {
      et.kernel_call %relu (%x, %r)
      et.kernel_call %concat (%both, %dim, %cat)
      et.kernel_call %relu (%flat, %out)
    }
    et.signature inputs(%x) outputs(%out)
  }
  et.method @out_twice buffers [0, 32] {
    %x = et.tensor float [4] dim_order [0] mem(1, 0)
    %y = et.tensor float [4] dim_order [0] mem(1, 16)
    %alpha = et.int 1
    %add = et.operator "aten::add" overload "out"
    et.chain inputs(%x) outputs(%y) {
      et.kernel_call %add (%x, %x, %alpha, %y, %y)
    }
    et.signature inputs(%x) outputs(%y)
  }
}
