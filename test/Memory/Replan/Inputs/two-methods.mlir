// Two methods planned without reuse, as a naive planner would: every tensor
// its own bytes. `forward` calls a delegate that reads %1 and writes %2.
et.program @two_methods {
  et.method @forward buffers [0, 80] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %3 = et.tensor float [4] dim_order [0] mem(1, 48)
    %4 = et.tensor float [1] dim_order [0] mem(1, 64)
    %relu = et.operator "aten::relu" overload "out"
    %d = et.delegate "StubBackend" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 1>
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.call_delegate %d (%1, %2)
      et.kernel_call %relu (%2, %3)
      et.kernel_call %relu (%3, %4)
    }
    et.signature inputs(%0) outputs(%4)
  }
  et.method @other buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %relu (%1, %2)
    }
    et.signature inputs(%0) outputs(%2)
  }
}
