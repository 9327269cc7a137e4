// RUN: emit-opt %s --split-input-file --verify-diagnostics
// Data files in ExecuTorch 0.6's layout: what its tables cannot hold.

et.data_file @tensor_in_current_layout {
  et.blob @w align 16 = dense<0> : tensor<16xi8>
  // expected-error @below {{is in a data file that is not in 0.6's layout (add 'layout_0_6', or name the tensor with 'et.named_data')}}
  et.data_tensor "w" = @w offset 0 layout #et.tensor_layout<float [4] dim_order [0]>
}

// -----

et.data_file @named_layout layout_0_6 {
  et.blob @w align 16 = dense<0> : tensor<16xi8>
  // expected-error @below {{has a tensor layout, which named data of a data file in 0.6's layout cannot have (its tensors are 'et.data_tensor' ops)}}
  et.named_data "w" = @w layout #et.tensor_layout<float [4] dim_order [0]>
}

// -----

// expected-error @below {{has a tensor_alignment, which only a data file in 0.6's layout has}}
et.data_file @alignment_in_current_layout tensor_alignment 16 {
}

// -----

// expected-error @below {{tensor_alignment 24 is not a power of two}}
et.data_file @bad_tensor_alignment layout_0_6 tensor_alignment 24 {
}

// -----

et.data_file @past_the_blob layout_0_6 {
  et.blob @w align 16 = dense<0> : tensor<16xi8>
  // expected-error @below {{needs 16 bytes at offset 4 of @w, which holds 16}}
  et.data_tensor "w" = @w offset 4 layout #et.tensor_layout<float [4] dim_order [0]>
}

// -----

et.data_file @offset_past_the_blob layout_0_6 {
  et.blob @w align 16 = dense<0> : tensor<16xi8>
  // expected-error @below {{needs 0 bytes at offset 32 of @w, which holds 16}}
  et.data_tensor "w" = @w offset 32 layout #et.tensor_layout<float [0] dim_order [0]>
}

// -----

et.data_file @duplicate_name layout_0_6 {
  et.blob @w align 16 = dense<0> : tensor<16xi8>
  // expected-note @below {{first use here}}
  et.data_tensor "w" = @w offset 0 layout #et.tensor_layout<float [4] dim_order [0]>
  // expected-error @below {{key 'w' is already used}}
  et.data_tensor "w" = @w offset 0 layout #et.tensor_layout<int [4] dim_order [0]>
}

// -----

et.data_file @undefined_blob layout_0_6 {
  // expected-error @below {{references undefined blob @nowhere}}
  et.data_tensor "w" = @nowhere offset 0 layout #et.tensor_layout<float [4] dim_order [0]>
}

// -----

et.data_file @negative_offset layout_0_6 {
  et.blob @w align 16 = dense<0> : tensor<16xi8>
  // expected-error @below {{attribute 'offset' failed to satisfy constraint}}
  et.data_tensor "w" = @w offset -1 layout #et.tensor_layout<float [4] dim_order [0]>
}

// -----

et.program @tensor_in_program {
  et.blob @w align 16 = dense<0> : tensor<16xi8>
  // expected-error @below {{'et.data_tensor' op is not allowed in an 'et.program'}}
  et.data_tensor "w" = @w offset 0 layout #et.tensor_layout<float [4] dim_order [0]>
}
