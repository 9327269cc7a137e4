// Fast memory: a new planned buffer of at most the given bytes takes the
// tensors accessed most per byte (or the largest live at the peak); the
// rest are re-planned where they were, and the method plans one buffer more.
// RUN: emit-opt --et-replan-memory="fast-memory=32" %s | FileCheck %s --check-prefix=ACCESSES
// RUN: emit-opt --et-replan-memory="fast-memory=64,order=peak" %s | FileCheck %s --check-prefix=PEAK
// RUN: emit-opt --et-replan-memory="fast-memory=16,id=4" %s | FileCheck %s --check-prefix=ID
// RUN: emit-opt --et-replan-memory="fast-memory=32" %s | emit-translate --to-pte -o %t.pte
// RUN: emit-memory --format=json %t.pte | %memory-lines | FileCheck %s --check-prefix=SOUND
// RUN: emit-verify %t.pte | FileCheck %s --check-prefix=VERIFY

// SOUND-NOT: memory-overlap
// VERIFY: 0 errors

et.program @fast {
  // %1 (16 bytes) is read and written three times; %0 and %2 (64 bytes)
  // once or twice each.
  // ACCESSES-LABEL: et.method @hot buffers [0, 128, 16]
  // ACCESSES-NEXT: %0 = et.tensor float [16] dim_order [0] mem(1, 0)
  // ACCESSES-NEXT: %1 = et.tensor float [4] dim_order [0] mem(2, 0)
  // ACCESSES-NEXT: %2 = et.tensor float [16] dim_order [0] mem(1, 64)
  // PEAK-LABEL: et.method @hot buffers [0, 80, 64]
  // PEAK-NEXT: %0 = et.tensor float [16] dim_order [0] mem(2, 0)
  // PEAK-NEXT: %1 = et.tensor float [4] dim_order [0] mem(1, 64)
  // PEAK-NEXT: %2 = et.tensor float [16] dim_order [0] mem(1, 0)
  // ID-LABEL: et.method @hot buffers [0, 128, 0, 0, 16]
  // ID-NEXT: %0 = et.tensor float [16] dim_order [0] mem(1, 0)
  // ID-NEXT: %1 = et.tensor float [4] dim_order [0] mem(4, 0)
  et.method @hot buffers [0, 256] {
    %0 = et.tensor float [16] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 64)
    %2 = et.tensor float [16] dim_order [0] mem(1, 128)
    %relu = et.operator "aten::relu" overload "out"
    %sum = et.operator "aten::sum" overload "IntList_out"
    %add = et.operator "aten::add" overload "out"
    %one = et.int 1
    et.chain inputs() outputs() {
      et.kernel_call %sum (%0, %1)
      et.kernel_call %relu (%1, %1)
      et.kernel_call %add (%0, %1, %one, %2)
    }
    et.signature inputs(%0) outputs(%2)
  }
}
