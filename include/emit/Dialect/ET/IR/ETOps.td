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
include "emit/Dialect/ET/IR/ETInterfaces.td"
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

    `segment_alignment`, when present, is the alignment of the file's
    segment base and of every segment, as the file it was imported from
    had it (ExecuTorch's `segment_alignment`); without it the writer uses
    its layout option (128 by default). `version` is `Program.version` when
    a file has one other than 0. `empty_named_data` records a `named_data`
    table with no entries (1.x serializers write one): ExecuTorch 0.7 makes
    a data map of it and then refuses a data file beside it, so the writer
    keeps it.

    Example:

    ```mlir
    et.program @model segment_alignment 1024 {
      et.blob @weights align 16 segment = dense_resource<w> : tensor<64xi8>
      et.method @forward { ... }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<I64Attr>:$segment_alignment,
                       OptionalAttr<I32Attr>:$version,
                       UnitAttr:$empty_named_data);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`segment_alignment` $segment_alignment^)?
    attr-dict-with-keyword $body
  }];
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

def ET_BlobOp : ET_Op<"blob", [
    Symbol, ParentOneOf<["ProgramOp", "DataFileOp"]>]> {
  let summary = "Program-level bytes: a payload, constants or named data";
  let description = [{
    Bytes that delegate entries (`et.delegate`), the constant segment,
    mutable data segments and named data name, any number of times from
    anywhere in the program. `alignment` is the byte alignment the bytes
    need in the file (a power of two). The bytes are normally a
    `dense_resource` of `i8` or `ui8`; its element count must equal the
    byte count.

    The placement says where the file stores the bytes:

    - `segment`: a data segment after the flatbuffer, in program order
      among the segment blobs (a blob imported from a segment);
    - `inline`: an entry of the flatbuffer's `backend_delegate_data`, in
      program order among the inline blobs (delegate payloads only);
    - neither (hand-written or generated IR): the writer's layout options
      decide, and the blob is written only when something names it.

    Placed blobs are always written, whether or not anything names them, so
    that an imported file's tables keep their entries and indices. In an
    `et.data_file`, every blob is a segment of the data file.

    Example:

    ```mlir
    et.blob @context_binary align 64 = dense_resource<qnn_ctx> : tensor<4096xi8>
    et.blob @segment_2 align 1 segment = dense_resource<s2> : tensor<768xi8>
    et.blob @tiny align 16 inline = dense<[1, 2, 3, 4]> : tensor<4xi8>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       ConfinedAttr<I64Attr, [IntPositive]>:$alignment,
                       OptionalAttr<ET_DataPlacementAttr>:$placement,
                       ET_BytesAttr:$data);
  let assemblyFormat = [{
    $sym_name `align` $alignment custom<Placement>($placement) $data attr-dict
  }];
  let extraClassDeclaration = [{
    /// Whether the blob is stored in `backend_delegate_data`.
    bool isInline() { return getPlacement() == DataPlacement::Inline; }
    /// Whether the blob is stored as a data segment.
    bool isSegment() { return getPlacement() == DataPlacement::Segment; }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Program-level data
//===----------------------------------------------------------------------===//

def ET_ConstantSegmentOp : ET_Op<"constant_segment", [
    HasParent<"ProgramOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<ET_BlobUserOpInterface>]> {
  let summary = "The segment holding constant tensor data";
  let description = [{
    Names the blob whose bytes are the program's constant tensor data, and
    the byte offset of each entry in it. Entry 0 is reserved (no data); a
    tensor `data(k)` without `mem` reads its bytes at `offsets[k]`, as many
    as its element type and sizes need. At most one per program; without
    one, the writer emits an empty constant segment with offsets `[0]`.

    A program without constants may name no blob: the runtime (from 0.4)
    reads the segment only when it has an entry besides the reserved one.
    Then `segment_index` keeps the index the file records there, which may
    be past the segment table (written as 0 when absent).

    Example:

    ```mlir
    et.constant_segment @constants offsets [0, 0, 64]
    et.constant_segment offsets [0] {segment_index = 3 : ui32}
    ```
  }];
  let arguments = (ins OptionalAttr<FlatSymbolRefAttr>:$blob,
                       DenseI64ArrayAttr:$offsets,
                       OptionalAttr<UI32Attr>:$segment_index);
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
    buffer support reject such files. `alignment`, when present, is the
    alignment of every entry's bytes in the file (ExecuTorch's constant
    tensor alignment); without it the writer's layout option applies (16
    by default).

    Example:

    ```mlir
    et.constant_buffer align 16 [dense<> : tensor<0xi8>,
                                 dense<[0, 0, 64, 64]> : tensor<4xi8>]
    ```
  }];
  let arguments = (ins ET_BytesArrayAttr:$entries,
                       OptionalAttr<I64Attr>:$alignment);
  let assemblyFormat = "(`align` $alignment^)? $entries attr-dict";
  let hasVerifier = 1;
}

def ET_MutableDataSegmentOp : ET_Op<"mutable_data_segment", [
    HasParent<"ProgramOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<ET_BlobUserOpInterface>]> {
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
    ParentOneOf<["ProgramOp", "DataFileOp"]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<ET_BlobUserOpInterface>]> {
  let summary = "A named blob backends can look up by key";
  let description = [{
    One `NamedData` entry of a program or of a data file: backends find
    `blob`'s bytes under `key` through the runtime's named data map, and a
    tensor with an external location finds its data under its fully
    qualified name. Keys are unique in their file; several keys may name
    one blob. In a data file, an entry may record the `layout` of the
    tensor stored under it, which an external tensor must match.

    Example:

    ```mlir
    et.named_data "shared_weight" = @weights
    et.named_data "layers.0.weight" = @segment_0
        layout #et.tensor_layout<float [4, 4] dim_order [0, 1]>
    ```
  }];
  let arguments = (ins StrAttr:$key, FlatSymbolRefAttr:$blob,
                       OptionalAttr<ET_TensorLayoutAttr>:$layout);
  let assemblyFormat = "$key `=` $blob (`layout` $layout^)? attr-dict";
  let hasVerifier = 1;
}

def ET_DataTensorOp : ET_Op<"data_tensor", [
    HasParent<"DataFileOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<ET_BlobUserOpInterface>]> {
  let summary = "A tensor of a data file in ExecuTorch 0.6's layout";
  let description = [{
    One `TensorMetadata` entry of a `.ptd` written in ExecuTorch 0.6's
    layout (an `et.data_file` with `layout_0_6`): the tensor an external
    tensor named `fqn` loads, `layout` bytes long, at `offset` within
    `blob` (0.6 stores every tensor of a file in one segment, each at an
    offset aligned to the file's `tensor_alignment`). Several tensors may
    name the same bytes. 0.7 replaced this table by named data with a
    layout; `et-ptd-to-current-layout` and `et-ptd-to-0.6-layout` convert
    between the two.

    Example:

    ```mlir
    et.data_tensor "linear.bias" = @segment_0 offset 16
        layout #et.tensor_layout<float [6] dim_order [0]>
    ```
  }];
  let arguments = (ins StrAttr:$fqn, FlatSymbolRefAttr:$blob,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset,
                       ET_TensorLayoutAttr:$layout);
  let assemblyFormat = [{
    $fqn `=` $blob `offset` $offset `layout` $layout attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// DataFileOp
//===----------------------------------------------------------------------===//

def ET_DataFileOp : ET_Op<"data_file", [
    IsolatedFromAbove, Symbol, SymbolTable, SingleBlock, NoTerminator,
    NoRegionArguments]> {
  let summary = "An ExecuTorch data file (`.ptd`): named blobs";
  let description = [{
    The root of one `.ptd` file (FlatTensor), the external data a program
    is loaded with. Its body is a symbol table of blobs, each one data
    segment of the file in order, and the `et.named_data` entries that name
    them, in order, optionally with a tensor layout. A module may hold a
    program and the data files it loads with; `et-verify-data` then checks
    that they fit together as the runtime requires.

    `segment_alignment` and `version` are as on `et.program`.

    `layout_0_6` marks a file in ExecuTorch 0.6's layout, which 0.7
    replaced under the same identifier and version: its tensors are
    `et.data_tensor` ops (a name, a layout and an offset into a blob),
    aligned to `tensor_alignment`, and its named data carry no layout
    (0.6's runtime reads only the tensors).

    Example:

    ```mlir
    et.data_file @weights segment_alignment 128 {
      et.blob @segment_0 align 128 segment = dense_resource<w> : tensor<64xi8>
      et.named_data "linear.weight" = @segment_0
          layout #et.tensor_layout<float [4, 4] dim_order [0, 1]>
    }
    et.data_file @weights_0_6 layout_0_6 tensor_alignment 16
        segment_alignment 16 {
      et.blob @segment_0 align 16 segment = dense_resource<w> : tensor<40xi8>
      et.data_tensor "linear.weight" = @segment_0 offset 0
          layout #et.tensor_layout<float [2, 2] dim_order [0, 1]>
      et.data_tensor "linear.bias" = @segment_0 offset 16
          layout #et.tensor_layout<float [6] dim_order [0]>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<I64Attr>:$segment_alignment,
                       OptionalAttr<I32Attr>:$version,
                       UnitAttr:$layout_0_6,
                       OptionalAttr<I64Attr>:$tensor_alignment);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`layout_0_6` $layout_0_6^)?
    (`tensor_alignment` $tensor_alignment^)?
    (`segment_alignment` $segment_alignment^)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
  let extraClassDeclaration = [{
    /// The data file's blobs, in segment order.
    auto getBlobs() { return getBody().front().getOps<BlobOp>(); }
    /// The named data entries, in order.
    auto getNamedData() { return getBody().front().getOps<NamedDataOp>(); }
    /// The tensors of a file in 0.6's layout, in order.
    auto getDataTensors() {
      return getBody().front().getOps<DataTensorOp>();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Bundled programs
//===----------------------------------------------------------------------===//

def ET_BundleOp : ET_Op<"bundle", [
    IsolatedFromAbove, Symbol, SymbolTable, SingleBlock, NoTerminator,
    NoRegionArguments]> {
  let summary = "A bundled program (`.bpte`): a program and its test suites";
  let description = [{
    The root of one `.bpte` file (`BundledProgram`, `BP08`): the program it
    embeds (one `et.program`, first) and its test suites
    (`et.test_suite`, in file order). Passes see the program as they see one
    at the top level; writing the bundle places the program so that its
    segments keep their alignment. `version` is `BundledProgram.version`
    when a file has one other than 0.

    Example:

    ```mlir
    et.bundle @model {
      et.program @model { ... }
      et.test_suite "forward" {
        et.test_case inputs [#et.test_tensor<float [1] dim_order [0] = dense<[0, 0, 128, 63]> : tensor<4xi8>>]
                     expected [#et.test_tensor<float [1] dim_order [0] = dense<[0, 0, 0, 64]> : tensor<4xi8>>]
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<I64Attr>:$version);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`version` $version^)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
  let extraClassDeclaration = [{
    /// The embedded program (the verifier checks there is one).
    ProgramOp getProgram();
    /// The test suites, in order.
    auto getTestSuites() {
      return getBody().front().getOps<TestSuiteOp>();
    }
  }];
}

def ET_TestSuiteOp : ET_Op<"test_suite", [
    HasParent<"BundleOp">, SingleBlock, NoTerminator, NoRegionArguments]> {
  let summary = "The test cases of one method of a bundled program";
  let description = [{
    A `BundledMethodTestSuite`: the name of the method it tests and its test
    cases (`et.test_case`), in order. The name is not resolved here: a
    bundle may name a method its program lacks, or name one twice (the
    runtime's reader uses the first), and `emit-verify` reports both.

    Example:

    ```mlir
    et.test_suite "forward" {
      et.test_case inputs [3 : i64, true] expected [2.5 : f64]
    }
    ```
  }];
  let arguments = (ins StrAttr:$method);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$method attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$method)>];
  let extraClassDeclaration = [{
    auto getTestCases() { return getBody().front().getOps<TestCaseOp>(); }
  }];
}

def ET_TestCaseOp : ET_Op<"test_case", [HasParent<"TestSuiteOp">]> {
  let summary = "One test case: a method's inputs and expected outputs";
  let description = [{
    A `BundledMethodTestCase`. Each input and expected output is one
    bundled value: a tensor (`#et.test_tensor`), an int (an `i64` integer
    attribute), a bool (`true`, `false`), a double (an `f64` float
    attribute), or `unit` for a value whose kind the file leaves empty.

    Example:

    ```mlir
    et.test_case inputs [#et.test_tensor<int [2] dim_order [0] = dense<[1, 0, 0, 0, 2, 0, 0, 0]> : tensor<8xi8>>, 4 : i64]
                 expected [#et.test_tensor<int [2] dim_order [0] = dense<[5, 0, 0, 0, 6, 0, 0, 0]> : tensor<8xi8>>]
    ```
  }];
  let arguments = (ins ArrayAttr:$inputs, ArrayAttr:$expected);
  let assemblyFormat = "`inputs` $inputs `expected` $expected attr-dict";
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
    A method's body declares its tables: the values (one op per value, in
    index order), the operators (`et.operator`, in index order) and the
    delegate entries (`et.delegate`, in index order). Then come its chains
    (`et.chain`, at least one), and `et.signature` ends it. The body is a
    graph region: a list value may name values declared after it, as a
    `.pte` may. Entries no instruction uses are part of the method: the
    runtime resolves every operator and initializes every delegate entry.

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
      %aten.add.out = et.operator "aten::add" overload "out"
      et.chain inputs(%0) outputs(%1) {
        et.kernel_call %aten.add.out (%0, %0, %2, %1)
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
    /// The operator table, in index order.
    auto getOperators() { return getBody().front().getOps<OperatorOp>(); }
    /// The delegate table, in index order.
    auto getDelegates() { return getBody().front().getOps<DelegateOp>(); }
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
  let summary = "A list whose items are tensor values, `et.null` or none";
  let description = [{
    Each item is a tensor value, an `et.null` value, or `none`: no value
    at all, which the file writes as index -1 (as ExecuTorch's emitter does
    for absent optional tensors, e.g. the `None` indices of `index.Tensor`).
    `none_items` holds the positions of the `none` items among all items.

    Example:

    ```mlir
    %2 = et.optional_tensor_list (%0, none, %1)
    ```
  }];
  let arguments = (ins Variadic<ET_ValueType>:$items,
                       DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$none_items);
  let assemblyFormat = "custom<OptionalItems>($items, $none_items) attr-dict";
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
// Operator and delegate tables
//===----------------------------------------------------------------------===//

def ET_OperatorOp : ET_Op<"operator", [
    HasParent<"MethodOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "An entry of a method's operator table";
  let description = [{
    One `Operator` of the plan: the runtime looks up the kernel registered
    for `op_name`, plus `.` and `overload` when the overload is not empty,
    when the method loads, whether or not an instruction calls it. The
    entries keep their order: the first `et.operator` of a method is
    operator 0. `et.kernel_call` names an entry through its result.

    Example:

    ```mlir
    %aten.add.out = et.operator "aten::add" overload "out"
    ```
  }];
  let arguments = (ins StrAttr:$op_name, OptionalAttr<StrAttr>:$overload);
  let results = (outs ET_OperatorType:$result);
  let assemblyFormat = "$op_name (`overload` $overload^)? attr-dict";
  let hasVerifier = 1;
}

def ET_DelegateOp : ET_Op<"delegate", [
    HasParent<"MethodOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<ET_BlobUserOpInterface>]> {
  let summary = "An entry of a method's delegate table (a `BackendDelegate`)";
  let description = [{
    One `BackendDelegate` of the plan: `backend_id` (the name the backend
    is registered under), its ordered `compile_specs`, and its payload,
    either inline (`#et.blob`) or a reference to a program-level `et.blob`.
    When the method loads, the runtime initializes every entry once, in
    order, whether or not an instruction calls it; `et.call_delegate`
    names an entry through its result.

    An entry is the unit of backend identity: calls that share payload
    bytes normally have entries of their own, each with its own id and
    specs, and name one `et.blob`. An entry that several calls name is
    initialized once for all of them; `--dedup-delegate-blobs` makes such
    entries only when asked (`share-entries`), and only of entries equal in
    backend id, specs and payload.

    Example:

    ```mlir
    %QnnBackend = et.delegate "QnnBackend" @ctx
        specs [#et.compile_spec<"graph" = "prefill">]
    %XnnpackBackend = et.delegate "XnnpackBackend"
        #et.blob<dense_resource<xnn> : tensor<16xi8>, align 16>
    ```
  }];
  let arguments = (ins StrAttr:$backend_id,
                       AnyAttrOf<[ET_BlobAttr, FlatSymbolRefAttr]>:$payload,
                       OptionalAttr<ET_CompileSpecArrayAttr>:$compile_specs);
  let results = (outs ET_DelegateType:$result);
  let assemblyFormat = [{
    $backend_id $payload (`specs` $compile_specs^)? attr-dict
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
    Runs the kernel of the operator table entry `callee` (an `et.operator`
    of the method) on `args`, which are value slots in the operator's
    argument order, outputs included.

    Example:

    ```mlir
    et.kernel_call %aten.add.out (%0, %1, %2, %3, %3)
    ```
  }];
  let arguments = (ins ET_OperatorType:$callee, Variadic<ET_ValueType>:$args);
  let assemblyFormat = "$callee ` ` `(` $args `)` attr-dict";
  let extraClassDeclaration = [{
    /// The operator table entry this call runs.
    OperatorOp getOperator();
  }];
}

def ET_CallDelegateOp : ET_InstructionOp<"call_delegate"> {
  let summary = "Call a backend through a delegate entry";
  let description = [{
    Executes the delegate entry `delegate` (an `et.delegate` of the method)
    on `args`: the inputs, then the outputs. The entry holds the backend id,
    the compile specs and the payload; the runtime initializes it once,
    whatever the number of calls that name it.

    Example:

    ```mlir
    et.call_delegate %QnnBackend (%0, %1)
    ```
  }];
  let arguments = (ins ET_DelegateType:$delegate, Variadic<ET_ValueType>:$args);
  let assemblyFormat = "$delegate ` ` `(` $args `)` attr-dict";
  let extraClassDeclaration = [{
    /// The delegate table entry this call executes.
    DelegateOp getEntry();
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
