//===- ETInterfaces.td - et dialect interfaces -------------*- tablegen -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_IR_ETINTERFACES_TD
#define EMIT_DIALECT_ET_IR_ETINTERFACES_TD

include "mlir/IR/OpBase.td"

def ET_BlobUserOpInterface : OpInterface<"BlobUserOpInterface"> {
  let cppNamespace = "::emit::et";
  let description = [{
    An op that names a program-level `et.blob` by symbol, as data of one
    kind: a delegate entry its payload, a named data entry its bytes, the
    constant segment and a mutable data segment their tensor data. This is
    the one answer to "which ops name this blob, and what for": passes,
    writers, the summary and the linker ask it rather than list the ops.

    Example: every blob `@w` is named by, and as what.

    ```c++
    program.walk([&](BlobUserOpInterface user) {
      if (user.getBlobRef() && user.getBlobRef().getAttr() == w)
        use(user, user.getDataKind());
    });
    ```
  }];
  let methods = [
    InterfaceMethod<[{
        What the bytes of the blob this op names are for.
      }], "::emit::et::DataKind", "getDataKind">,
    InterfaceMethod<[{
        The blob this op names, or null when it names none (an inline
        payload, a constant segment without data).
      }], "::mlir::FlatSymbolRefAttr", "getBlobRef">,
    InterfaceMethod<[{
        Makes this op name `blob` instead of the blob it names (it must
        name one).
      }], "void", "setBlobRef", (ins "::mlir::FlatSymbolRefAttr":$blob)>,
  ];
}

#endif // EMIT_DIALECT_ET_IR_ETINTERFACES_TD
