//===- ETBase.td - ExecuTorch program dialect base ---------*- tablegen -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_IR_ETBASE_TD
#define EMIT_DIALECT_ET_IR_ETBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def ET_Dialect : Dialect {
  let name = "et";
  let cppNamespace = "::emit::et";
  let summary = "A dialect that models ExecuTorch programs (`.pte` files)";
  let description = [{
    The `et` dialect models an ExecuTorch program as the runtime sees it: an
    `et.program` symbol table holding one `et.method` per `ExecutionPlan`
    and program-level `et.blob` symbols holding delegate payloads.

    A method body declares its value table in order (one op per `EValue`, so
    the op's position is the value index), then one or more `et.chain` ops
    with instructions, and ends with `et.signature`, which names the method's
    inputs and outputs. Values are slots, not SSA definitions: instructions
    read and write them, which is why every value is an `!et.value` produced
    by its declaration.

    A `et.call_delegate` carries everything one `BackendDelegate` entry
    holds: the backend id, its own ordered compile specs and its payload,
    either inline (`#et.blob`) or as a reference to a program-level
    `et.blob`. Payload bytes always live in MLIR resources
    (`dense_resource`), never in the context as dense literals of unbounded
    size, or in the file they were imported from, named by a byte range
    (`#et.file`). Such references resolve through the files of the job that
    owns the context (the dialect's `PayloadFiles`): the files it opened,
    and the folder relative references start from.

    Example:

    ```mlir
    et.program @model {
      et.blob @payload align 16 = dense_resource<xnn> : tensor<4xi8>
      et.method @forward buffers [0, 32] {
        %0 = et.tensor float [2, 2] dim_order [0, 1]
        %1 = et.tensor float [2, 2] dim_order [0, 1]
        et.chain inputs(%0) outputs(%1) {
          et.call_delegate "XnnpackBackend" @payload (%0, %1)
              specs [#et.compile_spec<"mode" = "fast">]
        }
        et.signature inputs(%0) outputs(%1)
      }
    }
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let usePropertiesForAttributes = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();

    /// The files `#et.file` payload references resolve against in this
    /// context: the job's, once it sets them, or the context's own, whose
    /// base folder is the working directory.
    ::emit::PayloadFiles &getPayloadFiles() const { return *payloadFiles; }
    void setPayloadFiles(std::shared_ptr<::emit::PayloadFiles> files) {
      payloadFiles = std::move(files);
    }

  private:
    std::shared_ptr<::emit::PayloadFiles> payloadFiles;

  public:
  }];
}

/// Base class of every op in the dialect.
class ET_Op<string mnemonic, list<Trait> traits = []>
    : Op<ET_Dialect, mnemonic, traits>;

#endif // EMIT_DIALECT_ET_IR_ETBASE_TD
