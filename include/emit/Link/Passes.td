//===- Passes.td - The linker's passes ---------------------*- tablegen -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LINK_PASSES
#define EMIT_LINK_PASSES

include "mlir/Pass/PassBase.td"

def InternalizeData : Pass<"et-internalize-data", "::mlir::ModuleOp"> {
  let summary = "Move the data files' data into the program that loads them";
  let description = [{
    What `emit-link --internalize` does, as a pass over a module holding
    one program and the data files it loads with (`--pte-data`): the data
    of every external constant tensor goes to the end of the program's
    constant segment (the tensor keeps its fully qualified name; each key's
    bytes are stored once), every other key becomes the program's named
    data, and the data files go. The program then loads with no data file:
    on releases before 0.6, which know no external data, and on 0.6 and
    0.7, which take one data file and look up only tensors in it. A key a
    tensor needs that no data file holds is an error naming it; a data file
    in 0.6's layout is converted first (`et-ptd-to-current-layout`).

    Before:

    ```mlir
    et.program @model {
      et.method @forward {
        %0 = et.tensor float [4] dim_order [0]
            info #et.tensor_info<fqn = "w", location = external>
        ...
      }
    }
    et.data_file @weights {
      et.blob @segment_0 align 16 segment = dense<1> : tensor<16xi8>
      et.named_data "w" = @segment_0
          layout #et.tensor_layout<float [4] dim_order [0]>
    }
    ```

    After:

    ```mlir
    et.program @model {
      et.blob @constants align 16 segment = dense_resource<...> : tensor<16xi8>
      et.constant_segment @constants offsets [0, 0]
      et.method @forward {
        %0 = et.tensor float [4] dim_order [0] data(1)
            info #et.tensor_info<fqn = "w">
        ...
      }
    }
    ```
  }];
  let dependentDialects = ["::emit::et::ETDialect"];
}

#endif // EMIT_LINK_PASSES
