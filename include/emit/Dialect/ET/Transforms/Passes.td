//===- Passes.td - ExecuTorch program dialect passes -------*- tablegen -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_TRANSFORMS_PASSES_TD
#define EMIT_DIALECT_ET_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DedupDelegateBlobs : Pass<"dedup-delegate-blobs", "::mlir::ModuleOp"> {
  let summary = "Share identical delegate payloads program-wide, never calls";
  let description = [{
    Makes every delegate payload of each `et.program` a program-level
    `et.blob` and stores each distinct byte string once:

    1. Inline payloads (`#et.blob` on an `et.call_delegate`) are hoisted into
       `et.blob` symbols (the `et.program` canonicalization).
    2. Blobs are bucketed by size and a 128-bit content hash (XXH3), and
       every candidate merge is confirmed byte for byte, so a hash collision
       can never merge different payloads. Payloads of 1 MiB or more are
       hashed by a sample first (their first and last 64 KiB and 16 spaced
       4 KiB windows): one whose size and sample no other payload shares is
       never read whole, two that share them are compared directly, and more
       are split by a hash of all their bytes before comparing. Resource
       names and element signedness play no part: equal bytes merge.
    3. In each group the first blob in program order survives, takes the
       least common multiple of the group's alignments and the fused
       locations of all of them; calls that named a duplicate now name it.
    4. Blobs that no call references are erased.

    Hashing and comparing run on MLIR's thread pool (one payload, or one
    bucket, per task); payloads that alias a mapped `.pte` are read with
    `pread`, so they never enter the resident set. Groups and names follow
    program order whatever the scheduling.

    Policy options narrow what may be merged: `scope=method` shares bytes
    only among calls of one method, `min-size=N` leaves payloads under N
    bytes inline and unmerged, `same-backend` merges only payloads whose
    calls name one backend id. `dry-run` changes nothing; `report=FILE`
    writes every group of identical payloads with its users, the bytes
    before and after, and the near misses kept apart and why; `remarks`
    states the same facts as MLIR remarks.

    Each `et.call_delegate` keeps its own backend id and compile specs: only
    the bytes are shared. The result does not depend on hash values (names
    come from program order) and a second run changes nothing.

    Before:

    ```mlir
    et.program @p {
      et.method @prefill {
        ...
        et.chain inputs() outputs() {
          et.call_delegate "QnnBackend"
              #et.blob<dense_resource<a> : tensor<4xi8>, align 16> (%0)
              specs [#et.compile_spec<"graph" = "prefill">]
        }
        ...
      }
      et.method @decode {
        ...
          et.call_delegate "QnnBackend"
              #et.blob<dense_resource<b> : tensor<4xi8>, align 64> (%0)
              specs [#et.compile_spec<"graph" = "decode">]
        ...
      }
    }
    // with resources a and b holding the same four bytes
    ```

    After:

    ```mlir
    et.program @p {
      et.blob @payload align 64 = dense_resource<a> : tensor<4xi8>
      et.method @prefill {
        ...
          et.call_delegate "QnnBackend" @payload (%0)
              specs [#et.compile_spec<"graph" = "prefill">]
      }
      et.method @decode {
        ...
          et.call_delegate "QnnBackend" @payload (%0)
              specs [#et.compile_spec<"graph" = "decode">]
      }
    }
    ```
  }];
  let options = [
    Option<"scope", "scope", "std::string", /*default=*/"\"program\"",
           "Where payloads may be shared: `program` (across methods) or "
           "`method` (only among calls of one method)">,
    Option<"minSize", "min-size", "uint64_t", /*default=*/"0",
           "Leave payloads smaller than this many bytes inline and unmerged">,
    Option<"sameBackend", "same-backend", "bool", /*default=*/"false",
           "Merge only payloads whose calls all name the same backend id">,
    Option<"dryRun", "dry-run", "bool", /*default=*/"false",
           "Change nothing; only report what would be merged">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of the merge to this file (`-` for stdout); "
           "see docs/DedupReport.md">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark on every blob that now serves several payloads, "
           "and on every group kept apart">,
    Option<"shareEntries", "share-entries", "bool", /*default=*/"false",
           "Within a method, let calls share one delegate entry when their "
           "entries are equal in backend id, compile specs and payload (the "
           "runtime then initializes the backend once for them)">,
    Option<"testForceHashCollisions", "test-force-hash-collisions", "bool",
           /*default=*/"false",
           "Testing only: give every payload the same hash, so that only the "
           "byte comparison keeps different payloads apart">,
  ];
  let dependentDialects = ["::emit::et::ETDialect"];
}

def VerifyData : Pass<"et-verify-data", "::mlir::ModuleOp"> {
  let summary = "Check that a program and its data files fit together";
  let description = [{
    A module may hold an `et.program` and the `et.data_file`s it is loaded
    with (`emit-translate --from-pte model.pte --pte-data=weights.ptd`).
    This pass reports what the runtime would refuse when it loads them, or
    would get wrong without a word:

    - a key present in two data files (the runtime refuses to merge them);
    - a tensor with an external location whose fully qualified name no
      data file provides, or that has no such name;
    - an external tensor whose data file entry has no tensor layout (the
      runtime dereferences it), a layout that differs from the tensor's
      element type, sizes or dim order, or fewer stored bytes than the
      tensor needs;
    - as a warning, a key of the program's own named data that a data file
      also has: the data file's bytes win, silently.

    It changes nothing and does nothing when the module has no data file.
    `--from-pte` and `--pte-to-pte` run the same checks on `--pte-data`.

    Example: with

    ```mlir
    et.program @model {
      et.method @forward {
        %0 = et.tensor float [4] dim_order [0]
            info #et.tensor_info<fqn = "linear.weight", location = external>
        ...
      }
    }
    et.data_file @weights {
      et.blob @w align 16 = dense<0> : tensor<16xi8>
      et.named_data "linear.weight" = @w
          layout #et.tensor_layout<float [2, 2] dim_order [0, 1]>
    }
    ```

    the pass reports that `linear.weight` is stored as `float [2, 2]`
    while the tensor is `float [4]`.
  }];
  let dependentDialects = ["::emit::et::ETDialect"];
}

#endif // EMIT_DIALECT_ET_TRANSFORMS_PASSES_TD
