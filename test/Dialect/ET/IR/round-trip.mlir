// RUN: emit-opt %s --split-input-file | emit-opt --split-input-file | FileCheck %s
// RUN: emit-opt %s --split-input-file --mlir-print-op-generic | emit-opt --split-input-file | FileCheck %s
// UNSUPPORTED: verify-roundtrip

// Every op of the dialect parses, prints and parses again unchanged.

// CHECK-LABEL: et.program @values
// CHECK: et.constant_segment @constants offsets [0, 0]
// CHECK: et.method @all_values buffers [0, 64]
// CHECK-NEXT: %[[N:.*]] = et.null
// CHECK-NEXT: %[[I:.*]] = et.int -7
// CHECK-NEXT: %[[B:.*]] = et.bool true
// CHECK-NEXT: %[[D:.*]] = et.double 5.000000e-01
// CHECK-NEXT: %[[S:.*]] = et.string "mean"
// CHECK-NEXT: %[[T:.*]] = et.tensor float [2, 3] dim_order [1, 0] mem(1, 8)
// CHECK-NEXT: %[[C:.*]] = et.tensor qint8 [] dim_order [] data(1)
// CHECK-NEXT: %[[F:.*]] = et.tensor bool [1] dim_order [0]
// CHECK-NEXT: %aten.add.out = et.operator "aten::add" overload "out"
// CHECK-NEXT: et.chain inputs(%[[T]]) outputs(%[[T]]) {
// CHECK-NEXT:   et.kernel_call %aten.add.out (%[[T]], %[[T]], %[[I]], %[[T]])
// CHECK-NEXT:   et.move %[[T]] to %[[C]]
// CHECK-NEXT:   et.jump_false %[[B]] to 0
// CHECK-NEXT:   et.jump_false %[[F]] to 1
// CHECK-NEXT:   et.free %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: et.signature inputs(%[[T]], %[[N]]) outputs(%[[T]], %[[D]])
et.program @values {
  et.blob @constants align 1 = dense<[7]> : tensor<1xi8>
  et.constant_segment @constants offsets [0, 0]
  et.method @all_values buffers [0, 64] {
    %0 = et.null
    %1 = et.int -7
    %2 = et.bool true
    %3 = et.double 0.5
    %4 = et.string "mean"
    %5 = et.tensor float [2, 3] dim_order [1, 0] mem(1, 8)
    %6 = et.tensor qint8 [] dim_order [] data(1)
    %7 = et.tensor bool [1] dim_order [0]
    %aten.add.out = et.operator "aten::add" overload "out"
    et.chain inputs(%5) outputs(%5) {
      et.kernel_call %aten.add.out (%5, %5, %1, %5)
      et.move %5 to %6
      et.jump_false %2 to 0
      et.jump_false %7 to 1
      et.free %4
    }
    et.signature inputs(%5, %0) outputs(%5, %3)
  }
}

// -----

// CHECK-LABEL: et.program @delegates
// CHECK: et.blob @shared align 64 = dense_resource<shared_bytes> : tensor<4xi8>
// CHECK: et.blob @small align 1 = dense<[1, 2]> : tensor<2xui8>
// CHECK: et.method @calls {
// CHECK: et.delegate "QnnBackend" @shared specs [#et.compile_spec<"graph" = "prefill">, #et.compile_spec<"raw" = "\00\FF">]
// CHECK: et.delegate "XnnpackBackend" #et.blob<dense_resource<inline_bytes> : tensor<4xi8>, align 16>
// CHECK-NOT: specs
// CHECK: et.delegate "Tiny" @small
et.program @delegates {
  et.blob @shared align 64 = dense_resource<shared_bytes> : tensor<4xi8>
  et.blob @small align 1 = dense<[1, 2]> : tensor<2xui8>
  et.method @calls {
    %0 = et.tensor float [4] dim_order [0]
    %1 = et.tensor float [4] dim_order [0]
    %d0 = et.delegate "QnnBackend" @shared specs [#et.compile_spec<"graph" = "prefill">,
                 #et.compile_spec<"raw" = "\00\FF">]
    %d1 = et.delegate "XnnpackBackend" #et.blob<dense_resource<inline_bytes> : tensor<4xi8>, align 16>
    %d2 = et.delegate "Tiny" @small
    et.chain inputs(%0) outputs(%1) {
      et.call_delegate %d0 (%0, %1)
      et.call_delegate %d1 (%1)
      et.call_delegate %d2 ()
    }
    et.signature inputs(%0) outputs(%1)
  }
}

{-#
  dialect_resources: {
    builtin: {
      shared_bytes: "0x40000000DEADBEEF",
      inline_bytes: "0x1000000001020304"
    }
  }
#-}

// -----

// A list value may name a value declared after it: the method body is a
// graph region, as a .pte's value table is.
// CHECK-LABEL: et.program @graph_region
// CHECK: et.chain inputs(%[[LATER:[0-9]+]]) outputs()
// CHECK: %[[LATER]] = et.int 2
et.program @graph_region {
  et.method @forward {
    et.chain inputs(%0) outputs() {
    }
    %0 = et.int 2
    et.signature inputs() outputs()
  }
}

// -----

// CHECK-LABEL: et.program @lists
// CHECK: %[[I0:.*]] = et.int 1
// CHECK-NEXT: %[[I1:.*]] = et.int 2
// CHECK-NEXT: %{{.*}} = et.int_list(%[[I0]], %[[I1]])
// CHECK-NEXT: %{{.*}} = et.double_list [5.000000e-01, 2.000000e+00]
// CHECK-NEXT: %{{.*}} = et.bool_list [true, false]
// CHECK-NEXT: %[[T:.*]] = et.tensor half [4] dim_order [0]
// CHECK-NEXT: %[[N:.*]] = et.null
// CHECK-NEXT: %{{.*}} = et.tensor_list(%[[T]], %[[T]])
// CHECK-NEXT: %{{.*}} = et.optional_tensor_list (%[[T]], %[[N]])
// CHECK-NEXT: %{{.*}} = et.optional_tensor_list (none, %[[T]], none, none)
// CHECK-NEXT: %{{.*}} = et.optional_tensor_list ()
et.program @lists {
  et.method @m {
    %0 = et.int 1
    %1 = et.int 2
    %2 = et.int_list (%0, %1)
    %3 = et.double_list [0.5, 2.0]
    %4 = et.bool_list [true, false]
    %5 = et.tensor half [4] dim_order [0]
    %6 = et.null
    %7 = et.tensor_list (%5, %5)
    %8 = et.optional_tensor_list (%5, %6)
    %9 = et.optional_tensor_list (none, %5, none, none)
    %10 = et.optional_tensor_list ()
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

// Every tensor field, method metadata and stack traces.
// CHECK-LABEL: et.program @full_tensor
// CHECK: et.method @m buffers [0, 4294967400] attributes {buffer_devices = [#et.buffer_device<buffer = 1, device_type = cuda, device_index = 1>], container_meta = #et.container_meta<inputs = "T1#1($)", outputs = "$">}
// CHECK-NEXT: et.tensor float [2] dim_order [0] mem(1, 4294967312) data(1) requires_grad layout 2 dynamism <dynamic_bound> info <fqn = "cache.k", device_type = cuda, device_index = 1>{{$}}
// CHECK-NEXT: et.tensor long [] dim_order [] info <fqn = "", location = external>{{$}}
// CHECK-NEXT: et.chain inputs() outputs() attributes {stacktrace = {{\[}}[#et.frame<file = "model.py", line = 3, name = "forward", source_context = "x + 1">], []]}
et.program @full_tensor {
  et.blob @kv align 1 = dense<0> : tensor<16xi8>
  et.mutable_data_segment @kv offsets [0, 0]
  et.method @m buffers [0, 4294967400] attributes {
      container_meta = #et.container_meta<inputs = "T1#1($)", outputs = "$">,
      buffer_devices = [#et.buffer_device<buffer = 1, device_type = cuda, device_index = 1>]} {
    %0 = et.tensor float [2] dim_order [0] mem(1, 4294967312) data(1) requires_grad layout 2 dynamism <dynamic_bound> info #et.tensor_info<fqn = "cache.k", device_type = cuda, device_index = 1>
    %1 = et.tensor long [] dim_order [] info #et.tensor_info<fqn = "", location = external>
    et.chain inputs() outputs() attributes {stacktrace = [[#et.frame<file = "model.py", line = 3, name = "forward", source_context = "x + 1">], []]} {
      et.free %0
      et.free %1
    }
    et.signature inputs() outputs()
  }
}

// -----

// Program-level data: inline blobs, the deprecated constant buffer, named
// data and a constant segment without a blob.
// CHECK-LABEL: et.program @data
// CHECK-NEXT: et.blob @tiny align 16 inline = dense<[1, 2]> : tensor<2xi8>
// CHECK-NEXT: et.blob @weights align 256 = dense<3> : tensor<8xi8>
// CHECK-NEXT: et.constant_segment offsets []
// CHECK-NEXT: et.constant_buffer [dense<> : tensor<0xi8>, dense<[0, 0, -128, 63]> : tensor<4xi8>]
// CHECK-NEXT: et.named_data "shared_weight" = @weights
// CHECK-NEXT: et.named_data "alias" = @weights
et.program @data {
  et.blob @tiny align 16 inline = dense<[1, 2]> : tensor<2xi8>
  et.blob @weights align 256 = dense<3> : tensor<8xi8>
  et.constant_segment offsets []
  et.constant_buffer [dense<> : tensor<0xi8>, dense<[0, 0, -128, 63]> : tensor<4xi8>]
  et.named_data "shared_weight" = @weights
  et.named_data "alias" = @weights
  et.method @m {
    %0 = et.tensor float [1] dim_order [0] data(1)
    %d0 = et.delegate "B" @tiny
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

// A method's operator and delegate tables as a file holds them: entries in
// index order, one entry called twice, entries no instruction calls. The
// program records its layout: segment alignment, placements, version.
// CHECK-LABEL: et.program @tables segment_alignment 1024 attributes {version = 3 : i32}
// CHECK-NEXT: et.blob @seg align 1024 segment = dense<1> : tensor<4xi8>
// CHECK-NEXT: et.blob @inl align 64 inline = dense<2> : tensor<4xi8>
// CHECK-NEXT: et.constant_buffer align 64 []
// CHECK: %aten.mul.out = et.operator "aten::mul" overload "out"
// CHECK-NEXT: %aten.unused = et.operator "aten::unused"{{$}}
// CHECK-NEXT: %aten.add.out = et.operator "aten::add" overload "out"
// CHECK-NEXT: %aten.add.out_0 = et.operator "aten::add" overload "out"
// CHECK-NEXT: %QnnBackend = et.delegate "QnnBackend" @seg
// CHECK-NEXT: %XnnpackBackend = et.delegate "XnnpackBackend" @inl specs []
// CHECK-NEXT: %QnnBackend_1 = et.delegate "QnnBackend" @seg specs [#et.compile_spec<"k" = "v">]
// CHECK-NEXT: et.chain
// CHECK-NEXT: et.kernel_call %aten.add.out_0 (%[[X:.*]])
// CHECK-NEXT: et.kernel_call %aten.mul.out (%[[X]])
// CHECK-NEXT: et.call_delegate %QnnBackend_1 (%[[X]])
// CHECK-NEXT: et.call_delegate %QnnBackend_1 (%[[X]])
// CHECK-NEXT: }
et.program @tables segment_alignment 1024 attributes {version = 3 : i32} {
  et.blob @seg align 1024 segment = dense<1> : tensor<4xi8>
  et.blob @inl align 64 inline = dense<2> : tensor<4xi8>
  et.constant_buffer align 64 []
  et.method @m {
    %0 = et.tensor float [1] dim_order [0]
    %mul = et.operator "aten::mul" overload "out"
    %unused = et.operator "aten::unused"
    %add = et.operator "aten::add" overload "out"
    %add_again = et.operator "aten::add" overload "out"
    %never_called = et.delegate "QnnBackend" @seg
    %also_never_called = et.delegate "XnnpackBackend" @inl specs []
    %twice = et.delegate "QnnBackend" @seg specs [#et.compile_spec<"k" = "v">]
    et.chain inputs() outputs() {
      et.kernel_call %add_again (%0)
      et.kernel_call %mul (%0)
      et.call_delegate %twice (%0)
      et.call_delegate %twice (%0)
    }
    et.signature inputs() outputs()
  }
}

// -----

// A data file: blobs and keys, several keys on one blob, layouts or none.
// CHECK-LABEL: et.data_file @weights segment_alignment 4096 attributes {version = 1 : i32}
// CHECK-NEXT: et.blob @w align 4096 segment = dense<1> : tensor<16xi8>
// CHECK-NEXT: et.blob @unplaced align 16 = dense<2> : tensor<6xi8>
// CHECK-NEXT: et.named_data "linear.weight" = @w layout <float [2, 2] dim_order [1, 0]>
// CHECK-NEXT: et.named_data "alias" = @w{{$}}
// CHECK-NEXT: et.named_data "scalar" = @unplaced layout <bool [] dim_order []>
et.data_file @weights segment_alignment 4096 attributes {version = 1 : i32} {
  et.blob @w align 4096 segment = dense<1> : tensor<16xi8>
  et.blob @unplaced align 16 = dense<2> : tensor<6xi8>
  et.named_data "linear.weight" = @w layout #et.tensor_layout<float [2, 2] dim_order [1, 0]>
  et.named_data "alias" = @w
  et.named_data "scalar" = @unplaced layout #et.tensor_layout<bool [] dim_order []>
}

// -----

// Payloads that stay in their file: byte ranges of it, in blobs and
// inline, with the file's size and sample hash. The IR parses without the
// file; only reading the bytes needs it.
// CHECK-LABEL: et.program @references
// CHECK-NEXT: et.blob @weights align 64 segment = #et.file<"weights/model.pte", offset = 4096, size = 1048576, file_size = 2105344, file_sample = 0x9e3779b97f4a7c15> : tensor<1048576xi8>
// CHECK: et.delegate "B" #et.blob<#et.file<"/models/other.pte", offset = 0, size = 16, file_size = 16, file_sample = 0x0000000000000000> : tensor<16xi8>, align 16>
et.program @references {
  et.blob @weights align 64 segment = #et.file<"weights/model.pte", offset = 4096, size = 1048576, file_size = 2105344, file_sample = 0x9e3779b97f4a7c15>
  et.method @m {
    %d = et.delegate "B" #et.blob<#et.file<"/models/other.pte", offset = 0, size = 16, file_size = 16, file_sample = 0>, align 16>
    %w = et.delegate "W" @weights
    et.chain inputs() outputs() {
      et.call_delegate %d ()
      et.call_delegate %w ()
    }
    et.signature inputs() outputs()
  }
}
