// RUN: emit-opt %s | FileCheck %s
// RUN: emit-opt %s | emit-opt | FileCheck %s
// A data file in ExecuTorch 0.6's layout prints and parses back.

// CHECK-LABEL: et.data_file @weights layout_0_6 tensor_alignment 16 segment_alignment 16 {
// CHECK-NEXT:    et.blob @segment_0 align 16 segment = dense<{{.*}}> : tensor<40xi8>
// CHECK-NEXT:    et.data_tensor "linear.weight" = @segment_0 offset 0 layout <float [2, 2] dim_order [0, 1]>
// CHECK-NEXT:    et.data_tensor "linear.bias" = @segment_0 offset 16 layout <float [6] dim_order [0]>
// CHECK-NEXT:    et.named_data "blob" = @segment_0{{$}}
// CHECK-NEXT:  }
et.data_file @weights layout_0_6 tensor_alignment 16 segment_alignment 16 {
  et.blob @segment_0 align 16 segment = dense<1> : tensor<40xi8>
  et.data_tensor "linear.weight" = @segment_0 offset 0 layout #et.tensor_layout<float [2, 2] dim_order [0, 1]>
  et.data_tensor "linear.bias" = @segment_0 offset 16 layout #et.tensor_layout<float [6] dim_order [0]>
  et.named_data "blob" = @segment_0
}
