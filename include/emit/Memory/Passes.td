//===- Passes.td - Memory planning passes ------------------*- tablegen -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_MEMORY_PASSES
#define EMIT_MEMORY_PASSES

include "mlir/Pass/PassBase.td"

def ReplanMemory : Pass<"et-replan-memory", "::mlir::ModuleOp"> {
  let summary = "Re-plan every method's planned memory into smaller pools";
  let description = [{
    Gives every planned tensor of every method of every program in the
    module a new `mem(id, offset)` and every method new `buffers`, from the
    lifetimes the file layer's data flow reads off the program (what
    `emit-memory` reports): no two tensors live at one instruction share a
    byte. Method inputs are live from the first instruction, outputs to the
    last, mutable buffers throughout; a value named inside a loop
    (`jump_false` back) is live for the whole loop; a delegate call reads
    and writes its arguments as its payload says.

    Kept as they are: tensors that share bytes while both are live (a view,
    an in-place operator's result and what it mutates, a delegate writing
    over its input) and a view the emitter elided with its base move as one
    unit, at the same distances; each unit keeps its offset modulo
    `alignment` (16, ExecuTorch's planner's), so no tensor is less aligned
    than it was, up to it; a buffer holding a mutable buffer another method
    plans in the same buffer (shared state) keeps its plan. Each buffer
    takes the smallest of greedy best-fit by size, greedy first-fit by
    lifetime and, with few units, an exhaustive search over orders; where
    none is smaller than the file's plan, the file's plan stays (cut to its
    last byte): no buffer grows.

    `fast-memory=BYTES[,id=N][,order=accesses|peak]` adds a planned buffer
    of at most BYTES (memory id N, by default one past the method's last)
    holding the units with the most accesses per byte (or the largest live
    where the method's planned bytes peak); the rest are re-planned where
    they were. The caller then provides that buffer too.

    `emit-translate --pte-to-pte --replan-memory` runs it on a file and
    writes the report (`--replan-report`).

    Before:

    ```mlir
    et.method @forward buffers [0, 48] {
      %0 = et.tensor float [1] dim_order [0] mem(1, 0)
      %1 = et.tensor float [1] dim_order [0] mem(1, 16)
      %2 = et.tensor float [1] dim_order [0] mem(1, 32)
      ...
    }
    ```

    After (when `%0` is dead once `%2` is written):

    ```mlir
    et.method @forward buffers [0, 32] {
      %0 = et.tensor float [1] dim_order [0] mem(1, 0)
      %1 = et.tensor float [1] dim_order [0] mem(1, 16)
      %2 = et.tensor float [1] dim_order [0] mem(1, 0)
      ...
    }
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "uint64_t", /*default=*/"16",
           "The alignment each unit keeps its offset modulo (a power of two)">,
    Option<"fastMemory", "fast-memory", "std::string", /*default=*/"\"\"",
           "BYTES[,id=N][,order=accesses|peak]: a fast planned buffer of at "
           "most BYTES per method">,
  ];
  let dependentDialects = ["::emit::et::ETDialect"];
}

#endif // EMIT_MEMORY_PASSES
