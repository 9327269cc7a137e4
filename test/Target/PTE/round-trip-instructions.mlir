// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %pte-json %t.pte | FileCheck %s --check-prefix=JSON
// RUN: emit-translate --from-pte %t.pte -o %t.mlir
// RUN: FileCheck %s --check-prefix=IMPORT < %t.mlir
// RUN: emit-translate --to-pte %t.mlir -o %t.again.pte
// RUN: cmp %t.pte %t.again.pte

// All five instructions, two chains, stack traces, and the operator and
// delegate tables in declaration order.

// JSON-LABEL: "chains": [
// JSON:         "inputs": [0],
// JSON-NEXT:    "outputs": [1],
// JSON-NEXT:    "instructions": [
// JSON:           "instr_args_type": "KernelCall",
// JSON-NEXT:      "instr_args": {
// JSON-NEXT:        "op_index": 0,
// JSON-NEXT:        "args": [0, 0, 2, 1]
// JSON:           "instr_args_type": "KernelCall",
// JSON-NEXT:      "instr_args": {
// JSON-NEXT:        "op_index": 1,
// JSON-NEXT:        "args": [1, 1]
// JSON:           "instr_args_type": "KernelCall",
// JSON-NEXT:      "instr_args": {
// JSON-NEXT:        "op_index": 0,
// JSON:           "instr_args_type": "DelegateCall",
// JSON-NEXT:      "instr_args": {
// JSON-NEXT:        "delegate_index": 0,
// JSON-NEXT:        "args": [1, 0]
// JSON:           "instr_args_type": "MoveCall",
// JSON-NEXT:      "instr_args": {
// JSON-NEXT:        "move_from": 1,
// JSON-NEXT:        "move_to": 0
// JSON:           "instr_args_type": "JumpFalseCall",
// JSON-NEXT:      "instr_args": {
// JSON-NEXT:        "cond_value_index": 3,
// JSON-NEXT:        "destination_instruction": 1
// JSON:           "instr_args_type": "FreeCall",
// JSON-NEXT:      "instr_args": {
// JSON-NEXT:        "value_index": 1
// JSON:         "stacktrace": [
// JSON-NEXT:      {
// JSON-NEXT:        "items": [
// JSON-NEXT:          {
// JSON-NEXT:            "filename": "model.py",
// JSON-NEXT:            "lineno": 7,
// JSON-NEXT:            "name": "forward",
// JSON-NEXT:            "context": "y = x + x"
// JSON:           "items": []
// JSON:         "instructions": [
// JSON:           "instr_args_type": "FreeCall",
// JSON:       "operators": [
// JSON-NEXT:    {
// JSON-NEXT:      "name": "aten::add",
// JSON-NEXT:      "overload": "out"
// JSON-NEXT:    },
// JSON-NEXT:    {
// JSON-NEXT:      "name": "aten::relu",
// JSON-NEXT:      "overload": ""
// JSON-NEXT:    }
// JSON-NEXT:  ],

// IMPORT-LABEL: et.method @forward
// IMPORT: %aten.add.out = et.operator "aten::add" overload "out"
// IMPORT-NEXT: %aten.relu = et.operator "aten::relu" overload ""
// IMPORT-NEXT: %B = et.delegate "B" @segment_1
// IMPORT-NEXT: et.chain inputs(%0) outputs(%1) attributes {stacktrace = {{\[\[}}#et.frame<file = "model.py", line = 7, name = "forward", source_context = "y = x + x">], []]} {
// IMPORT-NEXT: et.kernel_call %aten.add.out (%0, %0, %2, %1)
// IMPORT-NEXT: et.kernel_call %aten.relu (%1, %1)
// IMPORT-NEXT: et.kernel_call %aten.add.out (%1, %1, %2, %1)
// IMPORT-NEXT: et.call_delegate %B (%1, %0)
// IMPORT-NEXT: et.move %1 to %0
// IMPORT-NEXT: et.jump_false %3 to 1
// IMPORT-NEXT: et.free %1
// IMPORT-NEXT: }
// IMPORT-NEXT: et.chain inputs() outputs() {
// IMPORT-NEXT: et.free %0
et.program @instructions {
  et.method @forward buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.int 1
    %3 = et.bool true
    %aten.add.out = et.operator "aten::add" overload "out"
    %aten.relu = et.operator "aten::relu" overload ""
    %d0 = et.delegate "B" #et.blob<dense<[1, 2, 3]> : tensor<3xi8>, align 1>
    et.chain inputs(%0) outputs(%1) attributes {stacktrace = [[#et.frame<file = "model.py", line = 7, name = "forward", source_context = "y = x + x">], []]} {
      et.kernel_call %aten.add.out (%0, %0, %2, %1)
      et.kernel_call %aten.relu (%1, %1)
      et.kernel_call %aten.add.out (%1, %1, %2, %1)
      et.call_delegate %d0 (%1, %0)
      et.move %1 to %0
      et.jump_false %3 to 1
      et.free %1
    }
    et.chain inputs() outputs() {
      et.free %0
    }
    et.signature inputs(%0) outputs(%1)
  }
}
