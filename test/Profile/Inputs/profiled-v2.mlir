// profiled.mlir rewritten: forward multiplies where it added; decode and
// decode_long are unchanged. The comparison tests' new program.
et.program @profiled {
  et.method @forward buffers [0, 192] {
    %x = et.tensor float [2, 8] dim_order [0, 1] mem(1, 0)
    %y = et.tensor float [2, 8] dim_order [0, 1] mem(1, 64)
    %z = et.tensor float [2, 8] dim_order [0, 1] mem(1, 128)
    %out = et.tensor float [2, 8] dim_order [0, 1] mem(1, 0)
    %alpha = et.int 1
    %mul = et.operator "aten::mul" overload "out"
    %relu = et.operator "aten::relu" overload "out"
    %xnn = et.delegate "XnnpackBackend"
        #et.blob<dense<7> : tensor<48xi8>, align 16>
        specs [#et.compile_spec<"threads" = "\04">]
    et.chain inputs(%x) outputs(%out) {
      et.kernel_call %mul (%x, %x, %y)
      et.call_delegate %xnn (%y, %z)
      et.kernel_call %relu (%z, %out)
    }
    et.signature inputs(%x) outputs(%out)
  }
  et.method @decode buffers [0, 128] {
    %a = et.tensor long [4] dim_order [0] mem(1, 0)
    %b = et.tensor long [4] dim_order [0] mem(1, 64)
    %c = et.tensor long [4] dim_order [0] mem(1, 0)
    %mul = et.operator "aten::mul" overload "out"
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs(%a) outputs(%c) {
      et.kernel_call %mul (%a, %a, %b)
      et.kernel_call %relu (%b, %c)
    }
    et.signature inputs(%a) outputs(%c)
  }
  et.method @decode_long buffers [0, 128] {
    %a = et.tensor long [4] dim_order [0] mem(1, 0)
    %b = et.tensor long [4] dim_order [0] mem(1, 64)
    %c = et.tensor long [4] dim_order [0] mem(1, 0)
    %mul = et.operator "aten::mul" overload "out"
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs(%a) outputs(%b) {
      et.kernel_call %mul (%a, %a, %b)
      et.kernel_call %relu (%b, %c)
      et.kernel_call %relu (%c, %b)
    }
    et.signature inputs(%a) outputs(%b)
  }
}
