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
    and its program-level payloads (`et.blob`). Symbols of both kinds share
    one namespace.

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
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
  let extraClassDeclaration = [{
    /// The methods of this program, in order.
    auto getMethods() { return getBody().front().getOps<MethodOp>(); }
    /// The program-level payloads, in order.
    auto getBlobs() { return getBody().front().getOps<BlobOp>(); }
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

    Example:

    ```mlir
    et.blob @context_binary align 64 = dense_resource<qnn_ctx> : tensor<4096xi8>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       ConfinedAttr<I64Attr, [IntPositive]>:$alignment,
                       ET_BytesAttr:$data);
  let assemblyFormat = "$sym_name `align` $alignment `=` $data attr-dict";
  let hasVerifier = 1;
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
                       OptionalAttr<DenseI64ArrayAttr>:$buffers);
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

def ET_TensorOp : ET_ValueOp<"tensor"> {
  let summary = "A tensor value";
  let description = [{
    A tensor slot: element type, sizes and dim order (equal lengths), and
    where its data lives: `mem(id, offset)` places it in memory-planned
    buffer `id` (1-based) at a byte offset; `constant(k)` takes its initial
    data from entry `k` of the constant segment (0 means none).

    Example:

    ```mlir
    %0 = et.tensor float [1, 3] dim_order [0, 1] mem(1, 32)
    %1 = et.tensor float [] dim_order [] constant(1)
    ```
  }];
  let arguments = (ins ET_ScalarTypeAttr:$scalar_type,
                       DenseI32ArrayAttr:$sizes,
                       DenseI32ArrayAttr:$dim_order,
                       OptionalAttr<I32Attr>:$memory_id,
                       OptionalAttr<I64Attr>:$memory_offset,
                       OptionalAttr<I32Attr>:$constant);
  let assemblyFormat = [{
    custom<ScalarType>($scalar_type) $sizes `dim_order` $dim_order
    (`mem` `(` $memory_id^ `,` $memory_offset `)`)?
    (`constant` `(` $constant^ `)`)? attr-dict
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

    Example:

    ```mlir
    et.chain inputs(%0) outputs(%1) {
      et.move %0 to %1
    }
    ```
  }];
  let arguments = (ins Variadic<ET_ValueType>:$inputs,
                       Variadic<ET_ValueType>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `inputs` `(` $inputs `)` `outputs` `(` $outputs `)` attr-dict-with-keyword
    $body
  }];
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
