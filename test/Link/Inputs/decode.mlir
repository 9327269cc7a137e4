// The decode program of the same model, exported separately: the same
// context binary, embedding and constant, and a constant of its own.
et.program @decode {
  et.blob @context align 64 = dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>
  et.blob @embedding align 16 = dense<[9, 9, 9, 9]> : tensor<4xi8>
  et.blob @constants align 16 = dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>
  et.constant_segment @constants offsets [0, 0, 4]
  et.named_data "embedding" = @embedding
  et.method @decode buffers [0, 32] {
    %0 = et.tensor float [1] dim_order [0] mem(1, 0)
    %1 = et.tensor float [] dim_order [] data(1) info #et.tensor_info<fqn = "scale">
    %2 = et.tensor float [] dim_order [] data(2) info #et.tensor_info<fqn = "bias">
    %qnn = et.delegate "QnnBackend" @context specs [#et.compile_spec<"graph" = "decode">]
    et.chain inputs(%0) outputs(%0) {
      et.call_delegate %qnn (%0, %1, %2)
    }
    et.signature inputs(%0) outputs(%0)
  }
}
