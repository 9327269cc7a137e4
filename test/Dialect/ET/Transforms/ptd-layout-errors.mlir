// RUN: emit-opt %s --split-input-file --et-ptd-to-current-layout --verify-diagnostics

// The current layout keeps tensors and named data in one table.
et.data_file @clash layout_0_6 {
  et.blob @segment_0 align 16 segment = dense<1> : tensor<16xi8>
  // expected-error @below {{names 'w', which is also a named data key: the current layout holds both in one table}}
  et.data_tensor "w" = @segment_0 offset 0 layout #et.tensor_layout<float [2] dim_order [0]>
  et.named_data "w" = @segment_0
}
