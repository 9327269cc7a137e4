et.program @bundled {
  et.method @forward buffers [0, 32] {
    %0 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 0)
    %1 = et.int 3
    %2 = et.tensor float [2, 2] dim_order [0, 1] mem(1, 16)
    %add = et.operator "aten::add" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %add (%0, %0, %1, %2)
    }
    et.signature inputs(%0, %1) outputs(%2)
  }
}
