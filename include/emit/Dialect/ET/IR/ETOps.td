//===- ETOps.td - ExecuTorch program dialect ops -----------*- tablegen -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_IR_ETOPS_TD
#define EMIT_DIALECT_ET_IR_ETOPS_TD

include "emit/Dialect/ET/IR/ETBase.td"
include "emit/Dialect/ET/IR/ETAttrs.td"
include "emit/Dialect/ET/IR/ETEnums.td"
include "emit/Dialect/ET/IR/ETTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/SymbolInterfaces.td"

def ET_CompileSpecArrayAttr
    : TypedArrayAttrBase<ET_CompileSpecAttr, "ordered compile specs">;
def ET_BufferDeviceArrayAttr
    : TypedArrayAttrBase<ET_BufferDeviceAttr, "planned buffer devices">;
def ET_FrameListAttr
    : TypedArrayAttrBase<ET_FrameAttr, "stack frames">;
def ET_StackTraceAttr
    : TypedArrayAttrBase<ET_FrameListAttr, "one frame list per instruction">;
def ET_BytesArrayAttr
    : TypedArrayAttrBase<ET_BytesAttr, "byte buffers">;

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

def ET_ProgramOp : ET_Op<"program", [
    IsolatedFromAbove, Symbol, SymbolTable, SingleBlock, NoTerminator,
    NoRegionArguments]> {
  let summary = "An ExecuTorch program: methods and program-wide data";
  let description = [{
    The root of one `.pte` file. Its body is a symbol table holding the
    program's methods (`et.method`, one per `ExecutionPlan`, in file order)
    and its program-level bytes (`et.blob`), plus the ops that give
    program-wide data its role: `et.constant_segment`, `et.constant_buffer`,
    `et.mutable_data_segment` and `et.named_data`.

    Example:

    ```mlir
    et.program @model {
      et.blob @weights align 16 = dense_resource<w> : tensor<64xi8>
      et.method @forward { ... }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasCanonicalizeMethod = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
  let extraClassDeclaration = [{
    /// The methods of this program, in order.
    auto getMethods() { return getBody().front().getOps<MethodOp>(); }
    /// The program-level payloads, in order.
    auto getBlobs() { return getBody().front().getOps<BlobOp>(); }
    /// The constant segment, or null (at most one: the verifier checks).
    ConstantSegmentOp getConstantSegment();
    /// The deprecated constant buffer, or null.
    ConstantBufferOp getConstantBuffer();
    /// The mutable data segments, in index order.
    auto getMutableDataSegments() {
      return getBody().front().getOps<MutableDataSegmentOp>();
    }
    /// The named data entries, in order.
    auto getNamedData() { return getBody().front().getOps<NamedDataOp>(); }
  }];
}

//===----------------------------------------------------------------------===//
// BlobOp
//===----------------------------------------------------------------------===//

def ET_BlobOp : ET_Op<"blob", [Symbol, HasParent<"ProgramOp">]> {
  let summary = "A program-level delegate payload";
  let description = [{
    Bytes shared by any number of `et.call_delegate` ops anywhere in the
    program. `alignment` is the byte alignment the payload needs in the file
    (a power of two). The bytes are normally a `dense_resource` of `i8` or
    `ui8`; its element count must equal the payload's byte count.

    Besides delegate calls, the constant segment, mutable data segments and
    named data name blobs. The writer stores every referenced blob as one
    data segment after the flatbuffer, in program order, except blobs marked
    `inline`, which go to the flatbuffer's `backend_delegate_data` table
    (delegate payloads only).

    Example:

    ```mlir
    et.blob @context_binary align 64 = dense_resource<qnn_ctx> : tensor<4096xi8>
    et.blob @tiny align 16 inline = dense<[1, 2, 3, 4]> : tensor<4xi8>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       ConfinedAttr<I64Attr, [IntPositive]>:$alignment,
                       UnitAttr:$inline_data,
                       ET_BytesAttr:$data);
  let assemblyFormat = [{
    $sym_name `align` $alignment (`inline` $inline_data^)? `=` $data attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Program-level data
//===----------------------------------------------------------------------===//

def ET_ConstantSegmentOp : ET_Op<"constant_segment", [
    HasParent<"ProgramOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "The segment holding constant tensor data";
  let description = [{
    Names the blob whose bytes are the program's constant tensor data, and
    the byte offset of each entry in it. Entry 0 is reserved (no data); a
    tensor `data(k)` without `mem` reads its bytes at `offsets[k]`, as many
    as its element type and sizes need. At most one per program; without
    one, the writer emits an empty constant segment with offsets `[0]`.

    Example:

    ```mlir
    et.constant_segment @constants offsets [0, 0, 64]
    ```
  }];
  let arguments = (ins OptionalAttr<FlatSymbolRefAttr>:$blob,
                       DenseI64ArrayAttr:$offsets);
  let assemblyFormat = "($blob^)? `offsets` $offsets attr-dict";
  let hasVerifier = 1;
}

def ET_ConstantBufferOp : ET_Op<"constant_buffer", [HasParent<"ProgramOp">]> {
  let summary = "Deprecated inline constant tensor data";
  let description = [{
    The deprecated `Program.constant_buffer`: constant tensor data inside
    the flatbuffer, one byte buffer per entry (entry 0 reserved). Files from
    before ExecuTorch 0.2 use it, and the runtime reads it only when the
    constant segment has no offsets. emit imports it and writes it back
    as it was, with a warning: runtimes built without deprecated constant
    buffer support reject such files.

    Example:

    ```mlir
    et.constant_buffer [dense<> : tensor<0xi8>, dense<[0, 0, 64, 64]> : tensor<4xi8>]
    ```
  }];
  let arguments = (ins ET_BytesArrayAttr:$entries);
  let assemblyFormat = "$entries attr-dict";
}

def ET_MutableDataSegmentOp : ET_Op<"mutable_data_segment", [
    HasParent<"ProgramOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A segment holding initial data of mutable tensors";
  let description = [{
    One entry of `Program.mutable_data_segments`, in order: the first op is
    mutable data segment 0. A tensor with `mem` and `data(k)` copies its
    initial bytes from `offsets[k]` of the segment that its
    `mutable_segment` names.

    Example:

    ```mlir
    et.mutable_data_segment @kv_init offsets [0, 0, 4096]
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$blob, DenseI64ArrayAttr:$offsets);
  let assemblyFormat = "$blob `offsets` $offsets attr-dict";
  let hasVerifier = 1;
}

def ET_NamedDataOp : ET_Op<"named_data", [
    HasParent<"ProgramOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A named blob backends can look up by key";
  let description = [{
    One `NamedData` entry: backends find `blob`'s bytes under `key` through
    the runtime's named data map. Keys are unique; several keys may name one
    blob.

    Example:

    ```mlir
    et.named_data "shared_weight" = @weights
    ```
  }];
  let arguments = (ins StrAttr:$key, FlatSymbolRefAttr:$blob);
  let assemblyFormat = "$key `=` $blob attr-dict";
}

//===----------------------------------------------------------------------===//
// MethodOp
//===----------------------------------------------------------------------===//

def ET_MethodOp : ET_Op<"method", [
    IsolatedFromAbove, Symbol, HasParent<"ProgramOp">, SingleBlock,
    NoRegionArguments, RegionKindInterface, HasOnlyGraphRegion]> {
  let summary = "One ExecuTorch method (an `ExecutionPlan`)";
  let description = [{
    A method's body declares its value table, one op per value in index
    order, then its chains (`et.chain`, at least one), and ends with
    `et.signature`. The body is a graph region: a list value may name values
    declared after it, as a `.pte` may.

    `buffers` is the plan's `non_const_buffer_sizes`: element 0 is reserved
    and must be 0; element `k` is the byte size of memory-planned buffer `k`.
    `buffer_devices` places planned buffers on devices; `container_meta`
    keeps the exporter's pytree specs.

    Example:

    ```mlir
    et.method @forward buffers [0, 48] {
      %0 = et.tensor float [1] dim_order [0] mem(1, 0)
      %1 = et.tensor float [1] dim_order [0] mem(1, 16)
      %2 = et.int 1
      et.chain inputs(%0) outputs(%1) {
        et.kernel_call "aten::add" overload "out" (%0, %0, %2, %1)
      }
      et.signature inputs(%0) outputs(%1)
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<DenseI64ArrayAttr>:$buffers,
                       OptionalAttr<ET_ContainerMetaAttr>:$container_meta,
                       OptionalAttr<ET_BufferDeviceArrayAttr>:$buffer_devices);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`buffers` $buffers^)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The method's terminator, naming its inputs and outputs.
    SignatureOp getSignature();
    /// The chains of this method, in order.
    auto getChains() { return getBody().front().getOps<ChainOp>(); }
    /// The value declarations, in value-index order.
    ::llvm::SmallVector<::mlir::Operation *> getValueDecls();
  }];
}

def ET_SignatureOp : ET_Op<"signature", [
    Terminator, HasParent<"MethodOp">, AttrSizedOperandSegments]> {
  let summary = "A method's inputs and outputs";
  let description = [{
    Terminates a method body. Names the values the caller fills before
    execution (`inputs`) and reads after it (`outputs`), in order.

    Example:

    ```mlir
    et.signature inputs(%0, %1) outputs(%2)
    ```
  }];
  let arguments = (ins Variadic<ET_ValueType>:$inputs,
                       Variadic<ET_ValueType>:$outputs);
  let assemblyFormat = "`inputs` `(` $inputs `)` `outputs` `(` $outputs `)` attr-dict";
}

//===----------------------------------------------------------------------===//
// Value declarations
//===----------------------------------------------------------------------===//

/// A value declaration. These ops deliberately declare no memory effects so
/// that DCE never removes an entry of the value table.
class ET_ValueOp<string mnemonic, list<Trait> traits = []>
    : ET_Op<mnemonic, !listconcat(traits, [HasParent<"MethodOp">])> {
  let results = (outs ET_ValueType:$result);
}

def ET_NullOp : ET_ValueOp<"null"> {
  let summary = "A None value";
  let description = [{
    An empty slot (`KernelTypes::Null`), used for absent optional arguments.

    Example:

    ```mlir
    %0 = et.null
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def ET_IntOp : ET_ValueOp<"int"> {
  let summary = "A 64-bit integer value";
  let description = [{
    Example:

    ```mlir
    %0 = et.int 1
    ```
  }];
  let arguments = (ins I64Attr:$value);
  let assemblyFormat = "$value attr-dict";
}

def ET_BoolOp : ET_ValueOp<"bool"> {
  let summary = "A boolean value";
  let description = [{
    Example:

    ```mlir
    %0 = et.bool true
    ```
  }];
  let arguments = (ins BoolAttr:$value);
  let assemblyFormat = "$value attr-dict";
}

def ET_DoubleOp : ET_ValueOp<"double"> {
  let summary = "A double-precision value";
  let description = [{
    Example:

    ```mlir
    %0 = et.double 0.5
    ```
  }];
  let arguments = (ins F64Attr:$value);
  let assemblyFormat = "$value attr-dict";
}

def ET_StringOp : ET_ValueOp<"string"> {
  let summary = "A string value";
  let description = [{
    Example:

    ```mlir
    %0 = et.string "mean"
    ```
  }];
  let arguments = (ins StrAttr:$value);
  let assemblyFormat = "$value attr-dict";
}

def ET_IntListOp : ET_ValueOp<"int_list"> {
  let summary = "A list of integers, each an `et.int` value";
  let description = [{
    As in the runtime, the items are other values of the method (each an
    `et.int`), so that kernels can update them in place.

    Example:

    ```mlir
    %2 = et.int_list (%0, %1)
    ```
  }];
  let arguments = (ins Variadic<ET_ValueType>:$items);
  let assemblyFormat = "`(` $items `)` attr-dict";
  let hasVerifier = 1;
}

def ET_DoubleListOp : ET_ValueOp<"double_list"> {
  let summary = "A list of doubles";
  let description = [{
    Example:

    ```mlir
    %0 = et.double_list [0.5, 2.0]
    ```
  }];
  let arguments = (ins DenseF64ArrayAttr:$items);
  let assemblyFormat = "$items attr-dict";
}

def ET_BoolListOp : ET_ValueOp<"bool_list"> {
  let summary = "A list of booleans";
  let description = [{
    Example:

    ```mlir
    %0 = et.bool_list [true, false]
    ```
  }];
  let arguments = (ins DenseBoolArrayAttr:$items);
  let assemblyFormat = "$items attr-dict";
}

def ET_TensorListOp : ET_ValueOp<"tensor_list"> {
  let summary = "A list of tensor values";
  let description = [{
    Example:

    ```mlir
    %2 = et.tensor_list (%0, %1)
    ```
  }];
  let arguments = (ins Variadic<ET_ValueType>:$items);
  let assemblyFormat = "`(` $items `)` attr-dict";
  let hasVerifier = 1;
}

def ET_OptionalTensorListOp : ET_ValueOp<"optional_tensor_list"> {
  let summary = "A list whose items are tensor values or `et.null`";
  let description = [{
    Example:

    ```mlir
    %2 = et.optional_tensor_list (%0, %1)
    ```
  }];
  let arguments = (ins Variadic<ET_ValueType>:$items);
  let assemblyFormat = "`(` $items `)` attr-dict";
  let hasVerifier = 1;
}

def ET_TensorOp : ET_ValueOp<"tensor"> {
  let summary = "A tensor value";
  let description = [{
    A tensor slot: element type, sizes and dim order (equal lengths), and
    where its data lives. `mem(id, offset)` places it in memory-planned
    buffer `id` (1-based) at a byte offset. `data(k)` names its initial
    data: entry `k` of the constant segment (or of the deprecated constant
    buffer) for a tensor without `mem`, entry `k` of its mutable data
    segment for one with `mem`; 0 means none. `requires_grad`, `layout`,
    `dynamism` and `info` (extra tensor information) are kept as the file
    has them.

    Example:

    ```mlir
    %0 = et.tensor float [1, 3] dim_order [0, 1] mem(1, 32)
    %1 = et.tensor float [] dim_order [] data(1)
    %2 = et.tensor half [8] dim_order [0] mem(1, 0) dynamism <dynamic_bound>
             info #et.tensor_info<fqn = "cache.k">
    ```
  }];
  let arguments = (ins ET_ScalarTypeAttr:$scalar_type,
                       DenseI32ArrayAttr:$sizes,
                       DenseI32ArrayAttr:$dim_order,
                       OptionalAttr<I32Attr>:$memory_id,
                       OptionalAttr<I64Attr>:$memory_offset,
                       OptionalAttr<I64Attr>:$data_index,
                       UnitAttr:$requires_grad,
                       OptionalAttr<I32Attr>:$layout,
                       OptionalAttr<ET_ShapeDynamismAttr>:$shape_dynamism,
                       OptionalAttr<ET_TensorInfoAttr>:$info);
  let assemblyFormat = [{
    custom<ScalarType>($scalar_type) $sizes `dim_order` $dim_order
    (`mem` `(` $memory_id^ `,` $memory_offset `)`)?
    (`data` `(` $data_index^ `)`)?
    (`requires_grad` $requires_grad^)?
    (`layout` $layout^)?
    (`dynamism` $shape_dynamism^)?
    (`info` $info^)? attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ChainOp
//===----------------------------------------------------------------------===//

def ET_ChainOp : ET_Op<"chain", [
    HasParent<"MethodOp">, SingleBlock, NoTerminator, NoRegionArguments,
    AttrSizedOperandSegments]> {
  let summary = "A chain: an ordered list of instructions";
  let description = [{
    One `Chain` of an `ExecutionPlan`. Its instructions execute in order;
    `et.jump_false` destinations count instructions from 0 within the chain.
    `stacktrace`, when present, holds the frames recorded per instruction.

    Example:

    ```mlir
    et.chain inputs(%0) outputs(%1) {
      et.move %0 to %1
    }
    ```
  }];
  let arguments = (ins Variadic<ET_ValueType>:$inputs,
                       Variadic<ET_ValueType>:$outputs,
                       OptionalAttr<ET_StackTraceAttr>:$stacktrace);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `inputs` `(` $inputs `)` `outputs` `(` $outputs `)` attr-dict-with-keyword
    $body
  }];
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

class ET_InstructionOp<string mnemonic, list<Trait> traits = []>
    : ET_Op<mnemonic, !listconcat(traits, [HasParent<"ChainOp">])>;

def ET_KernelCallOp : ET_InstructionOp<"kernel_call"> {
  let summary = "Call an operator's kernel";
  let description = [{
    Runs the kernel registered for `name` (plus `.overload` when the
    overload is not empty) on `args`, which are value slots in the
    operator's argument order, outputs included.

    Example:

    ```mlir
    et.kernel_call "aten::add" overload "out" (%0, %1, %2, %3, %3)
    ```
  }];
  let arguments = (ins StrAttr:$op_name, StrAttr:$overload,
                       Variadic<ET_ValueType>:$args);
  let assemblyFormat = [{
    $op_name `overload` $overload `(` $args `)` attr-dict
  }];
  let hasVerifier = 1;
}

def ET_CallDelegateOp : ET_InstructionOp<"call_delegate", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Call a backend on a delegate payload";
  let description = [{
    One delegate call, with everything its `BackendDelegate` entry holds:
    `backend_id` (the name the backend is registered under), its own ordered
    `compile_specs`, and its payload, either inline (`#et.blob`) or a
    reference to a program-level `et.blob`. `args` lists the inputs, then
    the outputs.

    Two calls that share payload bytes never share their entry: each call
    is written as its own `BackendDelegate` with its own id and specs.

    Example:

    ```mlir
    et.call_delegate "QnnBackend" @ctx (%0, %1)
        specs [#et.compile_spec<"graph" = "prefill">]
    et.call_delegate "XnnpackBackend"
        #et.blob<dense_resource<xnn> : tensor<16xi8>, align 16> (%2, %3)
    ```
  }];
  let arguments = (ins StrAttr:$backend_id,
                       AnyAttrOf<[ET_BlobAttr, FlatSymbolRefAttr]>:$payload,
                       Variadic<ET_ValueType>:$args,
                       OptionalAttr<ET_CompileSpecArrayAttr>:$compile_specs);
  let assemblyFormat = [{
    $backend_id $payload `(` $args `)` (`specs` $compile_specs^)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The inline payload, or null when the payload is a symbol.
    BlobAttr getInlinePayload() {
      return ::llvm::dyn_cast<BlobAttr>(getPayload());
    }
    /// The referenced program-level payload, or null when it is inline.
    ::mlir::FlatSymbolRefAttr getPayloadSymbol() {
      return ::llvm::dyn_cast<::mlir::FlatSymbolRefAttr>(getPayload());
    }
  }];
}

def ET_MoveOp : ET_InstructionOp<"move"> {
  let summary = "Copy one value slot into another";
  let description = [{
    Example:

    ```mlir
    et.move %0 to %1
    ```
  }];
  let arguments = (ins ET_ValueType:$from, ET_ValueType:$to);
  let assemblyFormat = "$from `to` $to attr-dict";
}

def ET_JumpFalseOp : ET_InstructionOp<"jump_false"> {
  let summary = "Jump within the chain when a boolean value is false";
  let description = [{
    When `condition` holds false, execution continues at instruction
    `destination` (0-based, within the enclosing chain); otherwise at the
    next instruction.

    Example:

    ```mlir
    et.jump_false %cond to 0
    ```
  }];
  let arguments = (ins ET_ValueType:$condition,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$destination);
  let assemblyFormat = "$condition `to` $destination attr-dict";
  let hasVerifier = 1;
}

def ET_FreeOp : ET_InstructionOp<"free"> {
  let summary = "Release a value's memory";
  let description = [{
    Example:

    ```mlir
    et.free %0
    ```
  }];
  let arguments = (ins ET_ValueType:$value);
  let assemblyFormat = "$value attr-dict";
}

#endif // EMIT_DIALECT_ET_IR_ETOPS_TD
