// RUN: emit-opt %s --dedup-delegate-blobs --mlir-print-debuginfo | FileCheck %s

// The survivor carries the locations of every blob merged into it; a blob
// that merged with nothing keeps its own.

// CHECK-LABEL: et.program @locations
// CHECK-NEXT: et.blob @kept {{.*}} loc(#[[FUSED:loc[0-9]*]])
// CHECK-NEXT: et.blob @alone {{.*}} loc(#[[ALONE:loc[0-9]*]])
// CHECK-DAG: #[[KEPT_LOC:loc[0-9]*]] = loc("kept.bin":1:1)
// CHECK-DAG: #[[DUP_LOC:loc[0-9]*]] = loc("dup.bin":2:2)
// CHECK-DAG: #[[ALONE]] = loc("alone.bin":3:3)
// CHECK-DAG: #[[FUSED]] = loc(fused[#[[KEPT_LOC]], #[[DUP_LOC]]])
et.program @locations {
  et.blob @kept align 1 = dense<[1]> : tensor<1xi8> loc("kept.bin":1:1)
  et.blob @dup align 1 = dense<[1]> : tensor<1xi8> loc("dup.bin":2:2)
  et.blob @alone align 1 = dense<[2]> : tensor<1xi8> loc("alone.bin":3:3)
  et.method @m {
    %d0 = et.delegate "B" @kept
    %d1 = et.delegate "B" @dup
    %d2 = et.delegate "B" @alone
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
      et.call_delegate %d2 ()
    }
    et.signature inputs() outputs()
  }
}
