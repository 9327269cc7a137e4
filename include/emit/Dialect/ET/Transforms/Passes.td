//===- Passes.td - ExecuTorch program dialect passes -------*- tablegen -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_TRANSFORMS_PASSES_TD
#define EMIT_DIALECT_ET_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def HoistInlinePayloads
    : Pass<"et-hoist-inline-payloads", "::mlir::ModuleOp"> {
  let summary = "Move inline delegate payloads into `et.blob` symbols";
  let description = [{
    Moves the payload an `et.delegate` carries inline (`#et.blob`) into an
    `et.blob` of its program, which the delegate entry then names, so that
    the sharing passes see every payload as a blob. The blob takes the
    payload's alignment and the entry's location; names are `payload_N` in
    program order. With `min-size=N`, payloads under N bytes stay inline.
    This is the first step of `dedup-delegate-blobs`.

    Before:

    ```mlir
    et.program @p {
      et.method @forward {
        ...
        %qnn = et.delegate "QnnBackend"
            #et.blob<dense_resource<a> : tensor<4xi8>, align 16>
        ...
      }
    }
    ```

    After:

    ```mlir
    et.program @p {
      et.blob @payload_0 align 16 = dense_resource<a> : tensor<4xi8>
      et.method @forward {
        ...
        %qnn = et.delegate "QnnBackend" @payload_0
        ...
      }
    }
    ```
  }];
  let options = [
    Option<"minSize", "min-size", "uint64_t", /*default=*/"0",
           "Leave payloads smaller than this many bytes inline">,
  ];
  let dependentDialects = ["::emit::et::ETDialect"];
}

def ConstantsToSegment
    : Pass<"et-constants-to-segment", "::mlir::ModuleOp"> {
  let summary = "Move the deprecated constant buffer into a constant segment";
  let description = [{
    Moves each program's `et.constant_buffer` (constants inside the
    flatbuffer, as ExecuTorch 0.1 wrote them) into a new `et.blob` in a
    segment named by an `et.constant_segment`: entry k keeps its index, its
    bytes at an offset aligned to the buffer's alignment (16 without one),
    so that every tensor reads the same bytes. Runtimes from 1.3 built with
    CMake or pip refuse the constant buffer; 0.2 to 1.1 refuse an entry
    larger than its tensor; every release from 0.2 reads the segment. A
    program whose constant segment already has entries beside a non-empty
    buffer is an error (the runtime refuses it).

    Before:

    ```mlir
    et.program @p {
      et.constant_buffer align 16 [dense<> : tensor<0xi8>,
                                   dense<[0, 0, -128, 63]> : tensor<4xi8>]
      ...
    }
    ```

    After:

    ```mlir
    et.program @p {
      et.blob @constants align 16 segment = dense<[0, 0, -128, 63]> : tensor<4xi8>
      et.constant_segment @constants offsets [0, 0]
      ...
    }
    ```
  }];
  let dependentDialects = ["::emit::et::ETDialect"];
}

def ConstantsToBuffer : Pass<"et-constants-to-buffer", "::mlir::ModuleOp"> {
  let summary = "Move the constant segment into the deprecated constant buffer";
  let description = [{
    The inverse of `et-constants-to-segment`, for ExecuTorch 0.1, which reads
    constants only from `Program.constant_buffer`: each entry of a program's
    constant segment becomes a buffer entry of the bytes from its offset to
    the next entry's (the last to the segment's end), entry 0 empty, and the
    segment's blob goes when nothing else names it. Later runtimes refuse
    entries larger than their tensors (0.2 to 1.1) or the buffer itself
    (1.3 and later, CMake and pip builds): the result is for 0.1 alone.

    Before:

    ```mlir
    et.program @p {
      et.blob @constants align 16 segment = dense<[0, 0, -128, 63]> : tensor<4xi8>
      et.constant_segment @constants offsets [0, 0]
      ...
    }
    ```

    After:

    ```mlir
    et.program @p {
      et.constant_buffer align 16 [dense<> : tensor<0xi8>,
                                   dense<[0, 0, -128, 63]> : tensor<4xi8>]
      ...
    }
    ```
  }];
  let dependentDialects = ["::emit::et::ETDialect"];
}

def PTDToCurrentLayout
    : Pass<"et-ptd-to-current-layout", "::mlir::ModuleOp"> {
  let summary = "Rewrite data files in ExecuTorch 0.6's layout in the current one";
  let description = [{
    For ExecuTorch 0.7 and later, which read a `.ptd` with another schema
    than 0.6 under the same identifier: each `et.data_tensor` of a data file
    with `layout_0_6` becomes an `et.named_data` entry with its layout,
    naming a blob of exactly its bytes (0.7 finds a key's data as a whole
    segment, where 0.6 kept every tensor at an offset in one segment).
    Tensors over the same bytes share one blob; a tensor that spans its
    whole blob keeps it. Named data keep their blobs. A key that is both a
    tensor's name and a named data key is an error, as 0.7 holds both in
    one table.

    Before:

    ```mlir
    et.data_file @w layout_0_6 tensor_alignment 16 {
      et.blob @segment_0 align 16 segment = dense<1> : tensor<40xi8>
      et.data_tensor "a" = @segment_0 offset 0
          layout #et.tensor_layout<float [4] dim_order [0]>
      et.data_tensor "b" = @segment_0 offset 16
          layout #et.tensor_layout<float [6] dim_order [0]>
    }
    ```

    After:

    ```mlir
    et.data_file @w {
      et.blob @segment_0_0 align 16 segment = dense_resource<...> : tensor<16xi8>
      et.blob @segment_0_16 align 16 segment = dense_resource<...> : tensor<24xi8>
      et.named_data "a" = @segment_0_0
          layout #et.tensor_layout<float [4] dim_order [0]>
      et.named_data "b" = @segment_0_16
          layout #et.tensor_layout<float [6] dim_order [0]>
    }
    ```
  }];
  let dependentDialects = ["::emit::et::ETDialect"];
}

def PTDTo0_6Layout : Pass<"et-ptd-to-0.6-layout", "::mlir::ModuleOp"> {
  let summary = "Rewrite data files in ExecuTorch 0.6's layout";
  let description = [{
    For ExecuTorch 0.6, which reads a `.ptd`'s tensor table and nothing
    else: each `et.named_data` entry with a tensor layout of a data file
    becomes an `et.data_tensor` at offset 0 of its blob, and the file is
    marked `layout_0_6` with 0.6's `tensor_alignment` of 16. Named data
    without a layout stay (0.6's schema has them; its runtime never reads
    them). Files already in 0.6's layout are left alone.

    Before:

    ```mlir
    et.data_file @w {
      et.blob @segment_0 align 16 segment = dense<1> : tensor<16xi8>
      et.named_data "a" = @segment_0
          layout #et.tensor_layout<float [4] dim_order [0]>
    }
    ```

    After:

    ```mlir
    et.data_file @w layout_0_6 tensor_alignment 16 {
      et.blob @segment_0 align 16 segment = dense<1> : tensor<16xi8>
      et.data_tensor "a" = @segment_0 offset 0
          layout #et.tensor_layout<float [4] dim_order [0]>
    }
    ```
  }];
  let dependentDialects = ["::emit::et::ETDialect"];
}

def ExplicitCompileSpecs
    : Pass<"et-explicit-compile-specs", "::mlir::ModuleOp"> {
  let summary = "Give every delegate entry a compile spec list, empty if none";
  let description = [{
    Gives each `et.delegate` without `specs` an empty list, which the writer
    stores as an empty `compile_specs` vector instead of none. Runtimes
    before 1.3 read the vector's size without checking it is there, and
    crash on an entry that has none; ExecuTorch's own exporter always writes
    one. Entries with specs are untouched.

    Before:

    ```mlir
    %qnn = et.delegate "QnnBackend" @payload_0
    ```

    After:

    ```mlir
    %qnn = et.delegate "QnnBackend" @payload_0 specs []
    ```
  }];
  let dependentDialects = ["::emit::et::ETDialect"];
}

def ShareBlobs : Pass<"et-share-blobs", "::mlir::ModuleOp"> {
  let summary = "Store blobs of equal bytes once";
  let description = [{
    In every `et.program` and every `et.data_file`, groups the blobs
    (delegate payloads, named data, data file segments; not the constant
    and mutable segments, whose entries `et-share-segment-entries` shares)
    by content and keeps one blob per group: the first in program order,
    with the least common multiple of the group's alignments and the fused
    locations of all of them. Everything that named a merged blob (delegate
    entries, named data keys) names it; merged blobs go. Blobs nothing names
    stay, and a blob placed inline never merges with a segment.

    Every merge is confirmed byte for byte, so a hash collision never merges
    different data. Items are bucketed by size and a 128-bit content hash
    (XXH3); items of 1 MiB or more are hashed by a sample first (their first
    and last 64 KiB and 16 spaced 4 KiB windows): one whose size and sample
    no other item shares is never read whole, two that share them are
    compared directly, and more are split by a hash of all their bytes
    before comparing. Resource names and element signedness play no part.
    Hashing and comparing run on MLIR's thread pool; payloads in files are
    read with `pread`. Names and groups follow program order whatever the
    scheduling.

    `scope=method` shares bytes only among users in one method, `min-size=N`
    leaves blobs under N bytes apart, `same-backend` merges only payloads
    whose delegate entries name one backend id. `remarks` states each merge,
    and each group kept apart, as an MLIR remark.

    Before:

    ```mlir
    et.program @p {
      et.blob @payload_0 align 16 = dense_resource<a> : tensor<4xi8>
      et.blob @payload_1 align 64 = dense_resource<b> : tensor<4xi8>
      et.method @prefill {
        ...
        %qnn = et.delegate "QnnBackend" @payload_0
        ...
      }
      et.method @decode {
        ...
        %qnn = et.delegate "QnnBackend" @payload_1
        ...
      }
    }
    // with resources a and b holding the same four bytes
    ```

    After:

    ```mlir
    et.program @p {
      et.blob @payload_0 align 64 = dense_resource<a> : tensor<4xi8>
      et.method @prefill {
        ...
        %qnn = et.delegate "QnnBackend" @payload_0
        ...
      }
      et.method @decode {
        ...
        %qnn = et.delegate "QnnBackend" @payload_0
        ...
      }
    }
    ```
  }];
  let options = [
    Option<"scope", "scope", "std::string", /*default=*/"\"program\"",
           "Where blobs may be shared: `program` (across methods) or "
           "`method` (only among users in one method)">,
    Option<"minSize", "min-size", "uint64_t", /*default=*/"0",
           "Leave blobs smaller than this many bytes unmerged">,
    Option<"sameBackend", "same-backend", "bool", /*default=*/"false",
           "Merge only payloads whose calls all name the same backend id">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark on every blob that now serves several and on "
           "every group kept apart">,
    Option<"testForceHashCollisions", "test-force-hash-collisions", "bool",
           /*default=*/"false",
           "Testing only: give every blob the same hash, so that only the "
           "byte comparison keeps different blobs apart">,
  ];
  let dependentDialects = ["::emit::et::ETDialect"];
}

def ShareSegmentEntries
    : Pass<"et-share-segment-entries", "::mlir::ModuleOp"> {
  let summary = "Store equal entries of constant and mutable segments once";
  let description = [{
    Groups the entries of each program's constant segment, and of each of
    its mutable data segments, that tensors read by content (the bytes each
    entry's largest reader needs). When some entries are equal, the segment
    is rebuilt with every entry once, in the order of the old offsets, each
    at the next multiple of the alignment all the old offsets shared; equal
    entries then point at one offset. Entries no tensor reads are left out
    of the new segment. Mutable initial states are only read (the runtime
    copies them into planned memory) and never share with constants.

    `scope=method` shares only entries that tensors of one method alone
    read, `min-size=N` leaves entries under N bytes apart, `compact` also
    rebuilds segments with no equal entries whose bytes some entries no
    tensor reads hold (after constants moved to a data file, say).
    `remarks` states each rebuilt segment as an MLIR remark.

    Before:

    ```mlir
    et.program @p {
      et.blob @segment_0 align 16 = dense<...> : tensor<48xi8>
      et.constant_segment @segment_0 offsets [0, 16, 32]
      et.method @forward {
        %0 = et.tensor float [4] dim_order [0] data(1)
        %1 = et.tensor float [4] dim_order [0] data(2)
        ...
      }
    }
    // with entries 1 and 2 holding the same 16 bytes
    ```

    After:

    ```mlir
    et.program @p {
      et.blob @segment_0 align 16 = dense<...> : tensor<16xi8>
      et.constant_segment @segment_0 offsets [0, 0, 0]
      ...
    }
    ```
  }];
  let options = [
    Option<"scope", "scope", "std::string", /*default=*/"\"program\"",
           "Where entries may be shared: `program` (across methods) or "
           "`method` (only among entries that one method reads)">,
    Option<"minSize", "min-size", "uint64_t", /*default=*/"0",
           "Leave entries smaller than this many bytes apart">,
    Option<"compact", "compact", "bool", /*default=*/"false",
           "Also rebuild segments whose bytes some entries no tensor reads "
           "hold, keeping only what tensors read">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark on every segment whose entries were shared">,
    Option<"testForceHashCollisions", "test-force-hash-collisions", "bool",
           /*default=*/"false",
           "Testing only: give every entry the same hash, so that only the "
           "byte comparison keeps different entries apart">,
  ];
  let dependentDialects = ["::emit::et::ETDialect"];
}

def ShareDelegateEntries
    : Pass<"et-share-delegate-entries", "::mlir::ModuleOp"> {
  let summary = "Let calls share one delegate entry when entries are equal";
  let description = [{
    Within each method, makes the calls of delegate entries that are equal
    in backend id, compile specs and payload blob call the first such entry,
    and erases the others: the runtime then initializes the backend once for
    all of them. Entries with inline payloads are never shared, nor entries
    of different methods. The surviving entry takes the fused locations of
    the entries it replaces; `remarks` states each sharing as a remark.

    ExecuTorch's runtime initializes a backend once per delegate entry, so
    this changes what backends see: it is not part of `dedup-delegate-blobs`
    unless `share-entries` asks for it.

    Before:

    ```mlir
    %a = et.delegate "XnnpackBackend" @payload_0
        specs [#et.compile_spec<"k" = "v">]
    %b = et.delegate "XnnpackBackend" @payload_0
        specs [#et.compile_spec<"k" = "v">]
    et.chain inputs() outputs() {
      et.call_delegate %a (%0)
      et.call_delegate %b (%0)
    }
    ```

    After:

    ```mlir
    %a = et.delegate "XnnpackBackend" @payload_0
        specs [#et.compile_spec<"k" = "v">]
    et.chain inputs() outputs() {
      et.call_delegate %a (%0)
      et.call_delegate %a (%0)
    }
    ```
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark on every entry that now serves several">,
  ];
  let dependentDialects = ["::emit::et::ETDialect"];
}

def DedupDelegateBlobs : Pass<"dedup-delegate-blobs", "::mlir::ModuleOp"> {
  let summary = "Store identical data once, never merging calls";
  let description = [{
    Stores each distinct piece of data once in every `et.program` and every
    `et.data_file`, and never shares anything else. It is a pipeline of the
    passes below, each with one job (`et-hoist-inline-payloads`,
    `et-share-blobs`, `et-share-segment-entries`, and with `share-entries`
    `et-share-delegate-entries`), run on the module; it checks the payload
    files once for all of them and gathers one report:

    1. Inline payloads (`#et.blob` on an `et.delegate`) are hoisted into
       `et.blob` symbols (the `et.program` canonicalization).
    2. Blobs (delegate payloads, named data, data file segments) are
       grouped by content, and every merge is confirmed byte for byte, so
       a hash collision can never merge different data. Items are
       bucketed by size and a 128-bit content hash (XXH3); items of 1 MiB
       or more are hashed by a sample first (their first and last 64 KiB
       and 16 spaced 4 KiB windows): one whose size and sample no other
       item shares is never read whole, two that share them are compared
       directly, and more are split by a hash of all their bytes before
       comparing. Resource names and element signedness play no part.
    3. In each group the first blob in program order survives, takes the
       least common multiple of the group's alignments and the fused
       locations of all of them; everything that named a duplicate (delegate
       entries, named data keys) now names it, and the duplicates go.
       Blobs nothing named stay, as do blobs placed inline, which never
       merge with segments.
    4. The entries of the constant segment and of each mutable data segment
       that tensors read are grouped the same way; when some are equal, the
       segment is rebuilt with each entry once, and equal entries point at
       one offset. Mutable initial states are only read (the runtime copies
       them into planned memory) and never share with constants.

    Hashing and comparing run on MLIR's thread pool; payloads that alias a
    mapped file are read with `pread`, so they never enter the resident
    set. Groups and names follow program order whatever the scheduling.

    Policy options narrow what may be shared: `scope=method` shares bytes
    only among users in one method, `min-size=N` leaves data under N bytes
    unmerged (and inline payloads inline), `same-backend` merges only
    payloads whose delegate entries name one backend id. `share-entries`
    also lets calls share one delegate entry when their entries are equal
    in backend id, compile specs and payload. `dry-run` changes nothing;
    `report=FILE` writes every group with its users or keys, the bytes
    before and after per kind of data, the segments whose entries were
    shared, and what was kept apart and why (docs/DedupReport.md);
    `remarks` states the same facts as MLIR remarks.

    Each `et.delegate` keeps its own backend id and compile specs: only the
    bytes are shared. The result does not depend on hash values (names
    come from program order) and a second run changes nothing.

    Before:

    ```mlir
    et.program @p {
      et.method @prefill {
        ...
        %qnn = et.delegate "QnnBackend"
            #et.blob<dense_resource<a> : tensor<4xi8>, align 16>
            specs [#et.compile_spec<"graph" = "prefill">]
        ...
      }
      et.method @decode {
        ...
        %qnn = et.delegate "QnnBackend"
            #et.blob<dense_resource<b> : tensor<4xi8>, align 64>
            specs [#et.compile_spec<"graph" = "decode">]
        ...
      }
    }
    // with resources a and b holding the same four bytes
    ```

    After:

    ```mlir
    et.program @p {
      et.blob @payload_0 align 64 = dense_resource<a> : tensor<4xi8>
      et.method @prefill {
        ...
        %QnnBackend = et.delegate "QnnBackend" @payload_0
            specs [#et.compile_spec<"graph" = "prefill">]
        ...
      }
      et.method @decode {
        ...
        %QnnBackend = et.delegate "QnnBackend" @payload_0
            specs [#et.compile_spec<"graph" = "decode">]
        ...
      }
    }
    ```
  }];
  let options = [
    Option<"scope", "scope", "std::string", /*default=*/"\"program\"",
           "Where data may be shared: `program` (across methods) or "
           "`method` (only among users in one method)">,
    Option<"minSize", "min-size", "uint64_t", /*default=*/"0",
           "Leave data smaller than this many bytes unmerged (and inline "
           "payloads inline)">,
    Option<"sameBackend", "same-backend", "bool", /*default=*/"false",
           "Merge only payloads whose calls all name the same backend id">,
    Option<"dryRun", "dry-run", "bool", /*default=*/"false",
           "Change nothing; only report what would be merged">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of the merge to this file (`-` for stdout); "
           "see docs/DedupReport.md">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark on every blob that now serves several, on every "
           "segment whose entries were shared, and on every group kept "
           "apart">,
    Option<"compactSegments", "compact-segments", "bool", /*default=*/"false",
           "Also rebuild constant and mutable segments whose bytes some "
           "entries no tensor reads hold (after constants moved to a data "
           "file, say), keeping only what tensors read">,
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
