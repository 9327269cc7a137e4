// A prefill program as exported on its own: a QNN context binary, the
// embedding as named data, a constant.
et.program @prefill {
  et.blob @context align 64 = dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>
  et.blob @embedding align 16 = dense<[9, 9, 9, 9]> : tensor<4xi8>
  et.blob @constants align 16 = dense<[0, 0, -128, 63]> : tensor<4xi8>
  et.constant_segment @constants offsets [0, 0]
  et.named_data "embedding" = @embedding
  et.method @prefill buffers [0, 32] {
    %0 = et.tensor float [1] dim_order [0] mem(1, 0)
    %1 = et.tensor float [] dim_order [] data(1) info #et.tensor_info<fqn = "scale">
    %qnn = et.delegate "QnnBackend" @context specs [#et.compile_spec<"graph" = "prefill">]
    et.chain inputs(%0) outputs(%0) {
      et.call_delegate %qnn (%0, %1)
    }
    et.signature inputs(%0) outputs(%0)
  }
}
