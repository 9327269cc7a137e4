// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %pte-json %t.pte | FileCheck %s --check-prefix=JSON
// RUN: emit-translate --from-pte %t.pte | FileCheck %s
// RUN: emit-translate --pte-to-pte %t.pte -o %t.again.pte
// RUN: %pte-json %t.again.pte | FileCheck %s --check-prefix=JSON

// A named_data table with no entries, as 1.x serializers write one, is
// kept: ExecuTorch 0.7 makes a data map of it, and then refuses a data
// file beside it, which it loads when the table is absent.

// JSON: "named_data": []
// CHECK-LABEL: et.program @{{.*}} attributes {empty_named_data} {

et.program @empty_named_data attributes {empty_named_data} {
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    et.chain inputs(%0) outputs(%0) {
    }
    et.signature inputs(%0) outputs(%0)
  }
}
