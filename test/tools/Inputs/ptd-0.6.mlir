// A data file in ExecuTorch 0.6's layout, for the fuzz replay's inputs.
et.data_file @weights layout_0_6 tensor_alignment 16 {
  et.blob @segment_0 align 16 segment = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]> : tensor<24xi8>
  et.data_tensor "w" = @segment_0 offset 0 layout #et.tensor_layout<float [4] dim_order [0]>
  et.data_tensor "b" = @segment_0 offset 16 layout #et.tensor_layout<float [2] dim_order [0]>
  et.named_data "all" = @segment_0
}
