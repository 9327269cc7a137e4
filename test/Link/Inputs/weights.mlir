et.data_file @weights {
  et.blob @w align 16 = dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>
  et.named_data "w" = @w layout #et.tensor_layout<float [2] dim_order [0]>
}
