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
/// statically shaped, rank-1 tensor of 8-bit integers. ODS has no builtin
/// constraint accepting both kinds with an element check.
def ET_BytesAttr : Attr<
    And<[ElementsAttr.predicate,
         CPred<"::emit::et::isByteElementsAttr($_self)">]>,
    "bytes as a `dense` or `dense_resource` 1-D tensor of i8 or ui8"> {
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

#endif // EMIT_DIALECT_ET_IR_ETATTRS_TD
