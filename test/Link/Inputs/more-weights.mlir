et.data_file @more_weights {
  et.blob @w2 align 16 = dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>
  et.named_data "w2" = @w2 layout #et.tensor_layout<float [2] dim_order [0]>
}
