//===- ETAttrs.td - ExecuTorch program dialect attributes --*- tablegen -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_IR_ETATTRS_TD
#define EMIT_DIALECT_ET_IR_ETATTRS_TD

include "emit/Dialect/ET/IR/ETBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Constraints
//===----------------------------------------------------------------------===//

/// Payload bytes: a `dense` or `dense_resource` elements attribute of a
/// statically shaped, rank-1 tensor of 8-bit integers, or an `#et.file`
/// reference. ODS has no builtin constraint accepting these kinds with an
/// element check.
def ET_BytesAttr : Attr<
    And<[ElementsAttr.predicate,
         CPred<"::emit::et::isByteElementsAttr($_self)">]>,
    "bytes as a `dense` or `dense_resource` 1-D tensor of i8 or ui8, or an "
    "`#et.file` reference"> {
  let storageType = [{ ::mlir::ElementsAttr }];
  let returnType = [{ ::mlir::ElementsAttr }];
  let convertFromStorage = "$_self";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class ET_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<ET_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def ET_CompileSpecAttr : ET_Attr<"CompileSpec", "compile_spec"> {
  let summary = "One backend compile spec: a key and raw bytes";
  let description = [{
    ExecuTorch passes each delegate's compile specs to its backend as an
    ordered list of `(key, value)` pairs whose values are raw byte arrays.
    The value is held as a string of bytes; non-printable bytes print as
    `\HH` escapes. Order is significant and kept.

    Example:

    ```mlir
    #et.compile_spec<"use_fp16" = "\01">
    ```
  }];
  let parameters = (ins StringRefParameter<"spec key">:$key,
                        StringRefParameter<"raw value bytes">:$value);
  let assemblyFormat = "`<` $key `=` $value `>`";
}

def ET_BlobAttr : ET_Attr<"Blob", "blob"> {
  let summary = "A delegate payload held inline: bytes and their alignment";
  let description = [{
    The processed payload of one delegate call, written inline on the call.
    `data` holds the bytes (normally a `dense_resource`, so that large
    payloads stay out of the context and out of the printed IR body) and
    `alignment` the byte alignment the backend needs (a power of two).
    `--dedup-delegate-blobs` hoists every inline payload into a program-level
    `et.blob` symbol.

    Example:

    ```mlir
    #et.blob<dense_resource<xnn_payload> : tensor<1024xi8>, align 64>
    ```
  }];
  let parameters = (ins "::mlir::ElementsAttr":$data,
                        "uint64_t":$alignment);
  let assemblyFormat = "`<` $data `,` `align` $alignment `>`";
  let genVerifyDecl = 1;
}

def ET_TensorInfoAttr : ET_Attr<"TensorInfo", "tensor_info"> {
  let summary = "Extra tensor information: mutable data, names, devices";
  let description = [{
    The `ExtraTensorInfo` of a tensor: which mutable data segment its
    initial data comes from (`mutable_segment`), its fully qualified name
    (`fqn`, used to find `external` data in a named data map), where its
    data lives (`location`), and its device. Absent fields take ExecuTorch's
    defaults.

    Example:

    ```mlir
    #et.tensor_info<fqn = "layers.0.weight", location = external>
    #et.tensor_info<mutable_segment = 0, device_type = cuda, device_index = 1>
    ```
  }];
  let parameters = (ins
    DefaultValuedParameter<"uint64_t", "0">:$mutable_segment,
    OptionalParameter<"::mlir::StringAttr">:$fqn,
    DefaultValuedParameter<"::emit::et::TensorDataLocation",
                           "::emit::et::TensorDataLocation::Segment">:$location,
    DefaultValuedParameter<"::emit::et::DeviceType",
                           "::emit::et::DeviceType::CPU">:$device_type,
    DefaultValuedParameter<"int32_t", "0">:$device_index);
  let assemblyFormat = "`<` struct(params) `>`";
}

def ET_ContainerMetaAttr : ET_Attr<"ContainerMeta", "container_meta"> {
  let summary = "Encoded pytree specs of a method's inputs and outputs";
  let description = [{
    ExecuTorch's `ContainerMetadata`: how the flat inputs and outputs map to
    the Python structures of the exported function. Opaque to the runtime
    and kept verbatim.

    Example:

    ```mlir
    #et.container_meta<inputs = "T2#1#1($,$)", outputs = "$">
    ```
  }];
  let parameters = (ins OptionalParameter<"::mlir::StringAttr">:$inputs,
                        OptionalParameter<"::mlir::StringAttr">:$outputs);
  let assemblyFormat = "`<` struct(params) `>`";
}

def ET_BufferDeviceAttr : ET_Attr<"BufferDevice", "buffer_device"> {
  let summary = "The device of one memory-planned buffer";
  let description = [{
    One `NonConstBufferDevice` entry: planned buffer `buffer` (1-based, as
    in `buffers`) lives on the given device.

    Example:

    ```mlir
    #et.buffer_device<buffer = 1, device_type = cuda, device_index = 0>
    ```
  }];
  let parameters = (ins
    "int32_t":$buffer,
    DefaultValuedParameter<"::emit::et::DeviceType",
                           "::emit::et::DeviceType::CPU">:$device_type,
    DefaultValuedParameter<"int32_t", "0">:$device_index);
  let assemblyFormat = "`<` struct(params) `>`";
}

def ET_FrameAttr : ET_Attr<"Frame", "frame"> {
  let summary = "One stack frame of an instruction's origin";
  let description = [{
    A `Frame` of the stack trace ExecuTorch records per instruction;
    `source_context` is the frame's `context` (the source line).

    Example:

    ```mlir
    #et.frame<file = "model.py", line = 12, name = "forward",
              source_context = "x + y">
    ```
  }];
  let parameters = (ins OptionalParameter<"::mlir::StringAttr">:$file,
                        DefaultValuedParameter<"int32_t", "0">:$line,
                        OptionalParameter<"::mlir::StringAttr">:$name,
                        OptionalParameter<"::mlir::StringAttr">:$source_context);
  let assemblyFormat = "`<` struct(params) `>`";
}

def ET_TensorLayoutAttr : ET_Attr<"TensorLayout", "tensor_layout"> {
  let summary = "The layout of a tensor stored in a data file";
  let description = [{
    A `.ptd` entry's `TensorLayout`: element type, sizes and dim order, in
    the syntax of `et.tensor`. A tensor whose data is external must have
    exactly this layout.

    Example:

    ```mlir
    #et.tensor_layout<float [2, 3] dim_order [1, 0]>
    ```
  }];
  let parameters = (ins "::emit::et::ScalarType":$scalar_type,
                        ArrayRefParameter<"int32_t">:$sizes,
                        ArrayRefParameter<"int32_t">:$dim_order);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The byte size of the tensor, or std::nullopt on overflow or a
    /// negative size.
    std::optional<uint64_t> getByteSize() const;
  }];
}

def ET_TestTensorAttr : ET_Attr<"TestTensor", "test_tensor"> {
  let summary = "A tensor of a bundled program's test case";
  let description = [{
    An input or expected output of a test case (`et.test_case`) that is a
    tensor: element type, sizes and dim order in the syntax of `et.tensor`,
    and the tensor's bytes as the bundle stores them (`dense`,
    `dense_resource` or an `#et.file` reference, as payloads are). Nothing
    is checked against the method here: a bundle may hold test cases that do
    not fit its program, and `emit-verify` says which and why.

    Example:

    ```mlir
    #et.test_tensor<float [2] dim_order [0] = dense<[0, 0, 128, 63, 0, 0, 0, 64]> : tensor<8xi8>>
    ```
  }];
  let parameters = (ins "::emit::et::ScalarType":$scalar_type,
                        ArrayRefParameter<"int32_t">:$sizes,
                        ArrayRefParameter<"int32_t">:$dim_order,
                        "::mlir::ElementsAttr":$data);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def ET_FileRangeAttr : ET_Attr<"FileRange", "file",
    [TypedAttrInterface, ElementsAttrInterface]> {
  let summary = "Payload bytes that stay in a file: a byte range and its file";
  let description = [{
    The bytes `[offset, offset + size)` of a file, as imported IR refers to
    a payload instead of carrying it: the IR stays small however large the
    program, and every tool reads the bytes where they lie (with `pread`,
    or copied file to file by the kernel). It stands wherever payload bytes
    do (`et.blob`, `#et.blob`), as a `tensor<size x i8>`.

    `path` is relative to the directory of the IR file (the working
    directory for IR read from standard input), or absolute. It may name
    only a file under that directory or one given on the command line
    (`--payload-file`), and `file_size` and `file_sample` (a hash of a
    sample of the whole file) must still match it: a file changed since the
    IR was written is refused, never written into a program.

    Example:

    ```mlir
    et.blob @segment_1 align 128 segment = #et.file<"model.pte",
        offset = 4096, size = 1048576, file_size = 2105344,
        file_sample = 0x9e3779b97f4a7c15>
    ```
  }];
  // The path is a uniqued string: a program's blobs all name one file, so
  // each attribute holds a pointer to it, not a copy.
  let parameters = (ins AttrParameter<"::mlir::StringAttr",
                                      "path of the file">:$path,
                        "uint64_t":$offset,
                        "uint64_t":$size,
                        "uint64_t":$file_size,
                        "uint64_t":$file_sample);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// `tensor<size x i8>`.
    ::mlir::ShapedType getType() const;
    // No element access: the bytes are read through getPayloadBytes.
    using ContiguousIterableTypesT = std::tuple<>;
    using NonContiguousIterableTypesT = std::tuple<>;
  }];
}

#endif // EMIT_DIALECT_ET_IR_ETATTRS_TD
