// RUN: emit-opt %s --split-input-file --et-ptd-to-current-layout | FileCheck %s --check-prefix=CURRENT
// RUN: emit-opt %s --split-input-file --et-ptd-to-0.6-layout | FileCheck %s --check-prefix=OLD
// RUN: emit-opt %s --split-input-file --et-ptd-to-current-layout --et-ptd-to-0.6-layout --et-ptd-to-current-layout | FileCheck %s --check-prefix=CURRENT

// A 0.6 file's tensors share one segment at offsets; in the current layout
// each key names a blob of exactly its bytes, tensors over the same bytes
// sharing one. The 0.6 named data keep their blob.
// CURRENT-LABEL: et.data_file @shared {
// CURRENT-NEXT:    et.blob @segment_0_0 align 16 segment = dense_resource<segment_0_0> : tensor<16xi8>
// CURRENT-NEXT:    et.blob @segment_0_16 align 16 segment = dense_resource<segment_0_16> : tensor<24xi8>
// CURRENT-NEXT:    et.blob @segment_0 align 16 segment = dense<{{.*}}> : tensor<40xi8>
// CURRENT-NEXT:    et.named_data "a" = @segment_0_0 layout <float [2, 2] dim_order [0, 1]>
// CURRENT-NEXT:    et.named_data "b" = @segment_0_16 layout <float [6] dim_order [0]>
// CURRENT-NEXT:    et.named_data "alias" = @segment_0_0 layout <int [4] dim_order [0]>
// CURRENT-NEXT:    et.named_data "blob" = @segment_0{{$}}
// CURRENT-NEXT:  }
// Already in 0.6's layout: left alone.
// OLD-LABEL: et.data_file @shared layout_0_6 tensor_alignment 16 {
// OLD-NEXT:    et.blob @segment_0 align 16
// OLD-NEXT:    et.data_tensor "a" = @segment_0 offset 0
// OLD-NEXT:    et.data_tensor "b" = @segment_0 offset 16
// OLD-NEXT:    et.data_tensor "alias" = @segment_0 offset 0
// OLD-NEXT:    et.named_data "blob" = @segment_0{{$}}
et.data_file @shared layout_0_6 tensor_alignment 16 {
  et.blob @segment_0 align 16 segment = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]> : tensor<40xi8>
  et.data_tensor "a" = @segment_0 offset 0 layout #et.tensor_layout<float [2, 2] dim_order [0, 1]>
  et.data_tensor "b" = @segment_0 offset 16 layout #et.tensor_layout<float [6] dim_order [0]>
  et.data_tensor "alias" = @segment_0 offset 0 layout #et.tensor_layout<int [4] dim_order [0]>
  et.named_data "blob" = @segment_0
}

// -----

// A tensor that spans its blob keeps it, and a blob split into tensors
// that nothing else names goes.
// CURRENT-LABEL: et.data_file @whole {
// CURRENT-NEXT:    et.blob @w align 64 segment = dense<7> : tensor<16xi8>
// CURRENT-NEXT:    et.blob @v_8 align 64 segment = dense_resource<v_8> : tensor<8xi8>
// CURRENT-NEXT:    et.named_data "w" = @w layout <float [4] dim_order [0]>
// CURRENT-NEXT:    et.named_data "v" = @v_8 layout <float [2] dim_order [0]>
// CURRENT-NEXT:  }
// OLD-LABEL: et.data_file @whole layout_0_6 tensor_alignment 8 {
et.data_file @whole layout_0_6 tensor_alignment 8 {
  et.blob @w align 64 segment = dense<7> : tensor<16xi8>
  et.blob @v align 64 segment = dense<3> : tensor<16xi8>
  et.data_tensor "w" = @w offset 0 layout #et.tensor_layout<float [4] dim_order [0]>
  et.data_tensor "v" = @v offset 8 layout #et.tensor_layout<float [2] dim_order [0]>
}

// -----

// The current layout in 0.6's: each key with a layout becomes a tensor at
// offset 0 of its blob; keys without one stay named data.
// CURRENT-LABEL: et.data_file @current {
// CURRENT-NEXT:    et.blob @a align 128
// CURRENT-NEXT:    et.blob @k align 128
// CURRENT-NEXT:    et.named_data "a" = @a layout <half [2, 8] dim_order [1, 0]>
// CURRENT-NEXT:    et.named_data "k" = @k{{$}}
// OLD-LABEL: et.data_file @current layout_0_6 tensor_alignment 16 {
// OLD-NEXT:    et.blob @a align 128 segment = dense<1> : tensor<32xi8>
// OLD-NEXT:    et.blob @k align 128 segment = dense<2> : tensor<5xi8>
// OLD-NEXT:    et.data_tensor "a" = @a offset 0 layout <half [2, 8] dim_order [1, 0]>
// OLD-NEXT:    et.named_data "k" = @k{{$}}
// OLD-NEXT:  }
et.data_file @current {
  et.blob @a align 128 segment = dense<1> : tensor<32xi8>
  et.blob @k align 128 segment = dense<2> : tensor<5xi8>
  et.named_data "a" = @a layout #et.tensor_layout<half [2, 8] dim_order [1, 0]>
  et.named_data "k" = @k
}
