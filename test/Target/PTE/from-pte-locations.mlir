// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: emit-translate --from-pte %t.pte --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: emit-translate --from-pte %t.pte --pte-entry-locations --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=ENTRY

// Imported ops are located in the file. The entries of the tables a
// program has many of (segments, inline data, values, delegates,
// instructions) share their table's location, named by its path; the
// other tables have their own, also named by their path.

// CHECK-LABEL: et.program
// CHECK: et.blob @segment_1 {{.*}} loc("segments"("{{.*}}.pte":0:{{[0-9]+}}))
// CHECK: et.method @forward {{.*}} {
// CHECK-NEXT: et.int 7 loc("execution_plan[0] 'forward'.values"("{{.*}}.pte":0:[[VALUES:[0-9]+]]))
// CHECK-NEXT: et.tensor {{.*}} loc("execution_plan[0] 'forward'.values"("{{.*}}.pte":0:[[VALUES]]))
// CHECK-NEXT: et.delegate "B" {{.*}} loc("execution_plan[0] 'forward'.delegates"("{{.*}}.pte":0:{{[0-9]+}}))
// CHECK-NEXT: et.chain {{.*}} {
// CHECK-NEXT: et.call_delegate %B {{.*}} loc("execution_plan[0] 'forward'.chains[0].instructions"("{{.*}}.pte":0:{{[0-9]+}}))
// CHECK-NEXT: } loc("execution_plan[0] 'forward'.chains[0]"("{{.*}}.pte":0:{{[0-9]+}}))
// CHECK-NEXT: et.signature {{.*}} loc("execution_plan[0] 'forward'.signature"(
// CHECK-NEXT: } loc("execution_plan[0] 'forward'"("{{.*}}.pte":0:{{[0-9]+}}))

// With --pte-entry-locations, each entry is at a plain `file:0:<offset>`
// of its own (its path is spelled only in a diagnostic).

// ENTRY-LABEL: et.program
// ENTRY: et.blob @segment_1 {{.*}} loc("{{[^"]*}}.pte":0:{{[0-9]+}})
// ENTRY: et.method @forward {{.*}} {
// ENTRY-NEXT: et.int 7 loc("{{[^"]*}}.pte":0:[[INT:[0-9]+]])
// ENTRY-NOT: loc("{{[^"]*}}.pte":0:[[INT]])
// ENTRY: et.tensor {{.*}} loc("{{[^"]*}}.pte":0:{{[0-9]+}})
// ENTRY-NEXT: et.delegate "B" {{.*}} loc("{{[^"]*}}.pte":0:{{[0-9]+}})
// ENTRY-NEXT: et.chain {{.*}} {
// ENTRY-NEXT: et.call_delegate %B {{.*}} loc("{{[^"]*}}.pte":0:{{[0-9]+}})
// ENTRY-NEXT: } loc("execution_plan[0] 'forward'.chains[0]"("{{.*}}.pte":0:{{[0-9]+}}))
et.program @p {
  et.blob @payload align 16 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.method @forward buffers [0] {
    %0 = et.int 7
    %1 = et.tensor float [2] dim_order [0]
    %d0 = et.delegate "B" @payload
    et.chain inputs(%1) outputs(%1) {
      et.call_delegate %d0 (%0, %1)
    }
    et.signature inputs(%1) outputs(%1)
  }
}
