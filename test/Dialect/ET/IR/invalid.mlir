// RUN: emit-opt %s --split-input-file --verify-diagnostics
// UNSUPPORTED: verify-roundtrip

et.program @bad_blob_alignment {
  // expected-error @+1 {{alignment 24 is not a power of two}}
  et.blob @b align 24 = dense<[1, 2]> : tensor<2xi8>
}

// -----

et.program @blob_not_bytes {
  // expected-error @+1 {{attribute 'data' failed to satisfy constraint: bytes as a `dense` or `dense_resource` 1-D tensor of i8 or ui8}}
  et.blob @b align 4 = dense<[1, 2]> : tensor<2xi32>
}

// -----

et.program @blob_size_mismatch {
  // expected-error @+1 {{resource 'five_bytes' holds 5 bytes but its type declares 4}}
  et.blob @b align 4 = dense_resource<five_bytes> : tensor<4xi8>
}

{-#
  dialect_resources: {
    builtin: {
      five_bytes: "0x040000000102030405"
    }
  }
#-}

// -----

et.program @inline_blob_alignment {
  et.method @m {
    // expected-error @+1 {{alignment 3 is not a power of two}}
    %d0 = et.delegate "B" #et.blob<dense<[1]> : tensor<1xi8>, align 3>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @inline_blob_not_bytes {
  et.method @m {
    // expected-error @+1 {{payload must be a 1-D tensor of i8 or ui8 held in `dense` or `dense_resource`, or an `#et.file` reference, got dense<1.000000e+00> : tensor<1xf32>}}
    %d0 = et.delegate "B" #et.blob<dense<[1.0]> : tensor<1xf32>, align 4>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @outer {
  // expected-error @+1 {{'et.program' op is not allowed in an 'et.program'; only methods, blobs and program data ops are}}
  et.program @inner {
  }
}

// -----

et.program @duplicate_methods {
  // expected-note @+1 {{see existing symbol definition here}}
  et.method @forward {
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
  // expected-error @+1 {{redefinition of symbol named 'forward'}}
  et.method @forward {
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @reserved_buffer {
  // expected-error @+1 {{buffers must start with the reserved size 0}}
  et.method @m buffers [16] {
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @negative_buffer {
  // expected-error @+1 {{buffer 1 has negative size -8}}
  et.method @m buffers [0, -8] {
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @no_chain {
  // expected-error @+1 {{needs at least one 'et.chain'}}
  et.method @m {
    et.signature inputs() outputs()
  }
}

// -----

et.program @stray_op {
  et.method @m {
    et.chain inputs() outputs() {
    }
    // expected-error @+1 {{'builtin.unrealized_conversion_cast' op is not allowed in a method body; only value, operator and delegate declarations, 'et.chain' and 'et.signature' are}}
    %0 = builtin.unrealized_conversion_cast to i32
    et.signature inputs() outputs()
  }
}

// -----

et.program @blob_in_method {
  et.method @m {
    et.chain inputs() outputs() {
    }
    // expected-error @+1 {{'et.blob' op expects parent op to be one of 'et.program, et.data_file'}}
    et.blob @b align 1 = dense<[1]> : tensor<1xi8>
    et.signature inputs() outputs()
  }
}

// -----

et.program @no_planned_buffer {
  et.method @m buffers [0, 16] {
    // expected-error @+1 {{memory id 2 names no planned buffer; the method has 1 (ids from 1)}}
    %0 = et.tensor float [2] dim_order [0] mem(2, 0)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @buffer_overflow {
  et.method @m buffers [0, 16] {
    // expected-error @+1 {{needs 16 bytes at offset 8 of buffer 1, which holds 16}}
    %0 = et.tensor float [4] dim_order [0] mem(1, 8)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @tensor_ranks {
  et.method @m {
    // expected-error @+1 {{has 2 sizes but 1 dim_order entries}}
    %0 = et.tensor float [2, 2] dim_order [0]
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @tensor_dim_order {
  et.method @m {
    // expected-error @+1 {{dim_order must be a permutation of [0, 2)}}
    %0 = et.tensor float [2, 2] dim_order [1, 1]
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @tensor_negative_size {
  et.method @m {
    // expected-error @+1 {{has negative size -2}}
    %0 = et.tensor float [-2] dim_order [0]
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @tensor_half_placement {
  et.method @m buffers [0, 16] {
    // expected-error @+1 {{needs both a memory id and an offset}}
    %0 = "et.tensor"() <{scalar_type = #et.scalar_type<float>, sizes = array<i32: 1>, dim_order = array<i32: 0>, memory_id = 1 : i32}> : () -> !et.value
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @tensor_negative_offset {
  et.method @m buffers [0, 16] {
    // expected-error @+1 {{has negative memory offset -4}}
    %0 = et.tensor float [1] dim_order [0] mem(1, -4)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @tensor_negative_data {
  et.method @m {
    // expected-error @+1 {{has negative data index -1}}
    %0 = et.tensor float [1] dim_order [0] data(-1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @unknown_scalar_type {
  et.method @m {
    // expected-error @+1 {{unknown scalar type 'complex64'}}
    %0 = et.tensor complex64 [1] dim_order [0]
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @empty_operator {
  et.method @m {
    // expected-error @+1 {{needs an operator name}}
    %.out = et.operator "" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %.out ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @empty_backend {
  et.blob @b align 1 = dense<[1]> : tensor<1xi8>
  et.method @m {
    // expected-error @+1 {{needs a backend id}}
    %d0 = et.delegate "" @b
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @undefined_blob {
  et.method @m {
    // expected-error @+1 {{references undefined blob @missing}}
    %d0 = et.delegate "B" @missing
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @payload_is_method {
  et.method @m {
    // expected-error @+1 {{payload @m is a 'et.method', not an 'et.blob'}}
    %d0 = et.delegate "B" @m
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @bad_spec {
  et.blob @b align 1 = dense<[1]> : tensor<1xi8>
  et.method @m {
    // expected-error @+1 {{attribute 'compile_specs' failed to satisfy constraint: ordered compile specs}}
    %d0 = et.delegate "B" @b specs ["not a spec"]
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @jump_past_end {
  et.method @m {
    %0 = et.bool false
    et.chain inputs() outputs() {
      // expected-error @+1 {{destination 2 is past the end of its chain of 2 instructions}}
      et.jump_false %0 to 2
      et.free %0
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @jump_condition {
  et.method @m {
    %0 = et.int 1
    et.chain inputs() outputs() {
      // expected-error @+1 {{condition must be an 'et.bool' or a bool tensor}}
      et.jump_false %0 to 0
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @instruction_outside_chain {
  et.method @m {
    %0 = et.int 1
    // expected-error @+1 {{'et.free' op expects parent op 'et.chain'}}
    et.free %0
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @int_list_items {
  et.method @m {
    %0 = et.double 1.0
    // expected-error @+1 {{item 0 must be an 'et.int', but is et.double}}
    %1 = et.int_list (%0)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @tensor_list_items {
  et.method @m {
    %0 = et.null
    // expected-error @+1 {{item 0 must be an 'et.tensor', but is et.null}}
    %1 = et.tensor_list (%0)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @optional_tensor_list_items {
  et.method @m {
    %0 = et.null
    %1 = et.int 3
    // expected-error @+1 {{item 1 must be an 'et.tensor' or 'et.null', but is et.int}}
    %2 = et.optional_tensor_list (%0, %1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @two_constant_segments {
  et.blob @c align 1 = dense<[1]> : tensor<1xi8>
  // expected-note @+1 {{first one here}}
  et.constant_segment @c offsets [0]
  // expected-error @+1 {{may appear once per program}}
  et.constant_segment @c offsets [0]
}

// -----

et.program @duplicate_named_data {
  et.blob @w align 1 = dense<[1]> : tensor<1xi8>
  // expected-note @+1 {{first use here}}
  et.named_data "weight" = @w
  // expected-error @+1 {{key 'weight' is already used}}
  et.named_data "weight" = @w
}

// -----

et.program @negative_offset {
  et.blob @c align 1 = dense<[1]> : tensor<1xi8>
  // expected-error @+1 {{offset 1 is negative (-4)}}
  et.constant_segment @c offsets [0, -4]
}

// -----

et.program @negative_mutable_offset {
  et.blob @c align 1 = dense<[1]> : tensor<1xi8>
  // expected-error @+1 {{offset 0 is negative (-1)}}
  et.mutable_data_segment @c offsets [-1]
}

// -----

et.program @undefined_constant_blob {
  // expected-error @+1 {{references undefined blob @missing}}
  et.constant_segment @missing offsets [0]
}

// -----

et.program @mutable_names_method {
  et.method @m {
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
  // expected-error @+1 {{names @m, a 'et.method', not an 'et.blob'}}
  et.mutable_data_segment @m offsets [0]
}

// -----

et.program @named_data_inline_blob {
  et.blob @b align 16 inline = dense<[1]> : tensor<1xi8>
  // expected-error @+1 {{names @b, which is marked inline; only delegate payloads can be inline}}
  et.named_data "k" = @b
}

// -----

et.program @no_constant_data {
  et.method @m {
    // expected-error @+1 {{data(1) names constant data, but the program has none}}
    %0 = et.tensor float [1] dim_order [0] data(1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @constant_entry_missing {
  et.blob @c align 1 = dense<0> : tensor<8xi8>
  et.constant_segment @c offsets [0, 0]
  et.method @m {
    // expected-error @+1 {{data(2) names no entry of the constant segment, which has 2}}
    %0 = et.tensor float [1] dim_order [0] data(2)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @constant_entry_too_small {
  et.blob @c align 1 = dense<0> : tensor<8xi8>
  et.constant_segment @c offsets [0, 0, 4]
  et.method @m {
    // expected-error @+1 {{data(2) needs 8 bytes at offset 4 of the constant segment, which holds 8}}
    %0 = et.tensor float [2] dim_order [0] data(2)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @constant_segment_without_blob {
  et.constant_segment offsets [0, 0]
  et.method @m {
    // expected-error @+1 {{data(1) names constant data, but the constant segment names no blob}}
    %0 = et.tensor float [1] dim_order [0] data(1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @constant_buffer_entry_missing {
  et.constant_buffer [dense<> : tensor<0xi8>]
  et.method @m {
    // expected-error @+1 {{data(1) names no entry of the constant buffer, which has 1}}
    %0 = et.tensor float [1] dim_order [0] data(1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @constant_buffer_entry_too_small {
  et.constant_buffer [dense<> : tensor<0xi8>, dense<[1, 2]> : tensor<2xi8>]
  et.method @m {
    // expected-error @+1 {{data(1) needs 4 bytes, but constant buffer entry 1 holds 2}}
    %0 = et.tensor int [1] dim_order [0] data(1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @no_mutable_segment {
  et.method @m buffers [0, 16] {
    // expected-error @+1 {{data(1) names mutable data segment 0, but the program has 0}}
    %0 = et.tensor float [1] dim_order [0] mem(1, 0) data(1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @mutable_entry_too_small {
  et.blob @kv align 1 = dense<0> : tensor<4xi8>
  et.blob @kv2 align 1 = dense<0> : tensor<64xi8>
  et.mutable_data_segment @kv2 offsets [0, 0]
  et.mutable_data_segment @kv offsets [0, 0]
  et.method @m buffers [0, 16] {
    // expected-error @+1 {{data(1) needs 8 bytes at offset 0 of the mutable data segment, which holds 4}}
    %0 = et.tensor half [4] dim_order [0] mem(1, 0) data(1) info #et.tensor_info<mutable_segment = 1>
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

// expected-error @+1 {{segment_alignment 96 is not a power of two}}
et.program @bad_segment_alignment segment_alignment 96 {
}

// -----

et.program @bad_constant_buffer_alignment {
  // expected-error @+1 {{alignment 3 is not a power of two}}
  et.constant_buffer align 3 []
}

// -----

et.program @bad_none_items {
  et.method @m {
    %0 = et.tensor float [1] dim_order [0]
    // expected-error @+1 {{none_items must be increasing positions in [0, 3)}}
    %1 = "et.optional_tensor_list"(%0) <{none_items = array<i32: 2, 1>}> : (!et.value) -> !et.value
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @value_as_delegate {
  et.method @m {
    // expected-note @+1 {{prior use here}}
    %0 = et.tensor float [1] dim_order [0]
    et.chain inputs() outputs() {
      // expected-error @+1 {{use of value '%0' expects different type than prior uses: '!et.delegate' vs '!et.value'}}
      et.call_delegate %0 (%0)
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @operator_outside_method {
  // expected-error @+1 {{'et.operator' op is not allowed in an 'et.program'; only methods, blobs and program data ops are}}
  %0 = et.operator "aten::add" overload "out"
}

// -----

et.program @layout_in_program {
  et.blob @w align 1 = dense<0> : tensor<4xi8>
  // expected-error @below {{has a tensor layout, which only named data of an 'et.data_file' can have}}
  et.named_data "w" = @w layout #et.tensor_layout<float [1] dim_order [0]>
}

// -----

et.data_file @inline_in_data_file {
  // expected-error @below {{is marked inline; a data file stores every blob as a segment}}
  et.blob @w align 16 inline = dense<0> : tensor<4xi8>
}

// -----

et.data_file @duplicate_key {
  et.blob @w align 1 = dense<0> : tensor<4xi8>
  // expected-note @below {{first use here}}
  et.named_data "w" = @w
  // expected-error @below {{key 'w' is already used}}
  et.named_data "w" = @w
}

// -----

et.data_file @method_in_data_file {
  // expected-error @below {{'et.method' op is not allowed in an 'et.data_file'; only blobs, named data and data tensors are}}
  et.method @m {
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

et.data_file @bad_layout {
  et.blob @w align 1 = dense<0> : tensor<4xi8>
  // expected-error @below {{dim_order must be a permutation of [0, 2)}}
  et.named_data "w" = @w layout #et.tensor_layout<float [1, 2] dim_order [0, 0]>
}

// -----

et.data_file @undefined_blob {
  // expected-error @below {{references undefined blob @nowhere}}
  et.named_data "w" = @nowhere
}

// -----

et.program @reference_past_the_end {
  // expected-error @below {{bytes [4090, 4106) are past the end of the 4096-byte file}}
  et.blob @b align 1 = #et.file<"model.pte", offset = 4090, size = 16, file_size = 4096, file_sample = 0x1>
}

// -----

et.program @reference_without_path {
  // expected-error @below {{a file reference needs a path}}
  et.blob @b align 1 = #et.file<"", offset = 0, size = 1, file_size = 1, file_sample = 0x1>
}
