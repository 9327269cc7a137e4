et.program @seed {
  et.blob @constants align 1 = dense<[0, 0, -128, 63]> : tensor<4xi8>
  et.constant_segment @constants offsets [0, 0]
  et.method @forward buffers [0, 32] {
    %0 = et.tensor float [] dim_order [] data(1)
    %1 = et.tensor float [4] dim_order [0] mem(1, 0)
    %2 = et.int_list (%3)
    %3 = et.int 2
    %aten.add.out = et.operator "aten::add" overload "out"
    %d0 = et.delegate "B" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16> specs [#et.compile_spec<"k" = "v">]
    et.chain inputs(%1) outputs(%1) {
      et.call_delegate %d0 (%0, %1)
      et.kernel_call %aten.add.out (%1, %0, %3, %1)
    }
    et.signature inputs(%1) outputs(%1)
  }
}
et.data_file @seed_data {
  et.blob @w align 16 = dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>
  et.blob @raw align 64 = dense<[1, 2, 3]> : tensor<3xi8>
  et.named_data "w" = @w layout #et.tensor_layout<float [2] dim_order [0]>
  et.named_data "alias" = @w
  et.named_data "raw" = @raw
}
