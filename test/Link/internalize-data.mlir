// RUN: emit-opt %s --split-input-file --et-internalize-data | FileCheck %s

// The data file's tensors go to the end of the constant segment, the
// tensors keep their names and lose their external location; a key no
// tensor names becomes the program's named data; the data file goes.
// CHECK-LABEL: et.program @model {
// CHECK:         et.blob @[[CONSTANTS:[a-z_0-9]+]] align {{[0-9]+}} segment = dense_resource<{{.*}}> : tensor<{{[0-9]+}}xi8>
// CHECK:         et.constant_segment @[[CONSTANTS]] offsets [0, 0, {{[0-9]+}}]
// CHECK:         et.tensor float [4] dim_order [0] data(1) info <fqn = "w">
// CHECK:         et.tensor float [2] dim_order [0] data(2) info <fqn = "b">
// CHECK:         et.named_data "extra" =
// CHECK-NOT:   et.data_file
et.program @model {
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [4] dim_order [0] info #et.tensor_info<fqn = "w", location = external>
    %1 = et.tensor float [2] dim_order [0] info #et.tensor_info<fqn = "b", location = external>
    %2 = et.tensor float [2] dim_order [0] mem(1, 0)
    et.chain inputs(%2) outputs(%2) {
    }
    et.signature inputs(%2) outputs(%2)
  }
}
et.data_file @weights {
  et.blob @w align 16 segment = dense<1> : tensor<16xi8>
  et.blob @b align 16 segment = dense<2> : tensor<8xi8>
  et.blob @x align 16 segment = dense<3> : tensor<5xi8>
  et.named_data "w" = @w layout #et.tensor_layout<float [4] dim_order [0]>
  et.named_data "b" = @b layout #et.tensor_layout<float [2] dim_order [0]>
  et.named_data "extra" = @x
}

// -----

// A data file in 0.6's layout: its tensors, at their offsets.
// CHECK-LABEL: et.program @old {
// CHECK:         et.constant_segment @{{[a-z_0-9]+}} offsets [0, 0, {{[0-9]+}}]
// CHECK:         et.tensor float [2] dim_order [0] data(1) info <fqn = "b">
// CHECK:         et.tensor float [4] dim_order [0] data(2) info <fqn = "w">
// CHECK-NOT:   et.data_file
et.program @old {
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [2] dim_order [0] info #et.tensor_info<fqn = "b", location = external>
    %1 = et.tensor float [4] dim_order [0] info #et.tensor_info<fqn = "w", location = external>
    %2 = et.tensor float [2] dim_order [0] mem(1, 0)
    et.chain inputs(%2) outputs(%2) {
    }
    et.signature inputs(%2) outputs(%2)
  }
}
et.data_file @weights layout_0_6 tensor_alignment 16 {
  et.blob @segment_0 align 16 segment = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]> : tensor<24xi8>
  et.data_tensor "w" = @segment_0 offset 0 layout #et.tensor_layout<float [4] dim_order [0]>
  et.data_tensor "b" = @segment_0 offset 16 layout #et.tensor_layout<float [2] dim_order [0]>
}
