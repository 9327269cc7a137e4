//===- ETTypes.td - ExecuTorch program dialect types -------*- tablegen -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_IR_ETTYPES_TD
#define EMIT_DIALECT_ET_IR_ETTYPES_TD

include "emit/Dialect/ET/IR/ETBase.td"

class ET_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<ET_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def ET_ValueType : ET_Type<"Value", "value"> {
  let summary = "A slot of a method's value table (one `EValue`)";
  let description = [{
    Every entry of an ExecuTorch method's `values` table is a slot that
    instructions read and write. Its kind (tensor, int, list, ...) is given
    by the op that declares it; its index is the declaration's position
    among the method's value declarations.

    Example:

    ```mlir
    %0 = et.int 1
    ```
  }];
}

def ET_OperatorType : ET_Type<"Operator", "operator"> {
  let summary = "An entry of a method's operator table";
  let description = [{
    Declared by `et.operator`; `et.kernel_call` names the operator whose
    kernel it runs through a value of this type. The entry's index is the
    declaration's position among the method's operator declarations.

    Example:

    ```mlir
    %aten.add.out = et.operator "aten::add" overload "out"
    ```
  }];
}

def ET_DelegateType : ET_Type<"Delegate", "delegate"> {
  let summary = "An entry of a method's delegate table (a `BackendDelegate`)";
  let description = [{
    Declared by `et.delegate`; `et.call_delegate` names the entry it calls
    through a value of this type. The entry's index is the declaration's
    position among the method's delegate declarations.

    Example:

    ```mlir
    %XnnpackBackend = et.delegate "XnnpackBackend" @payload
    ```
  }];
}

#endif // EMIT_DIALECT_ET_IR_ETTYPES_TD
