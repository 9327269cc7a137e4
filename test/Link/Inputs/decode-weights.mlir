// The decode program's data file: a key of its own, then the same key and
// bytes as weights.mlir. Imported, its blobs are segment_0 and segment_1,
// as decode.pte's are.
et.data_file @decode {
  et.blob @own align 16 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @w align 16 = dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>
  et.named_data "decode.own" = @own
  et.named_data "w" = @w layout #et.tensor_layout<float [2] dim_order [0]>
}
