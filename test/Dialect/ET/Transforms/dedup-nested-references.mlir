// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs | FileCheck %s

// References to a merged blob are rewritten wherever they are: in the ops'
// own attributes, and nested inside arrays and dictionaries of attributes
// the pass does not know, so that no reference is left dangling.

// CHECK-LABEL: et.program @nested
// CHECK-NEXT: et.blob @a align 4
// CHECK-NOT: et.blob
// CHECK: et.delegate "X" @a
// CHECK-NEXT: et.delegate "Y" @a
// CHECK-NEXT: et.delegate "Z" @a
// CHECK: et.call_delegate %X () {note.dict = {blob = @a, other = "kept"}}
// CHECK-NEXT: et.call_delegate %Y () {note.list = [@a, 1 : i32]}
// CHECK-NEXT: et.call_delegate %Z () {note.ref = @a}
et.program @nested {
  et.blob @a align 4 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @a_copy align 4 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @a_third align 4 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.method @m {
    %d0 = et.delegate "X" @a_copy
    %d1 = et.delegate "Y" @a_third
    %d2 = et.delegate "Z" @a
    et.chain inputs() outputs() {
      et.call_delegate %d0 () {note.dict = {blob = @a_third, other = "kept"}}
      et.call_delegate %d1 () {note.list = [@a_copy, 1 : i32]}
      et.call_delegate %d2 () {note.ref = @a_copy}
    }
    et.signature inputs() outputs()
  }
}

// -----

// A blob referenced only from a nested attribute keeps its references.
// CHECK-LABEL: et.program @only_nested
// CHECK-NEXT: et.blob @a align 4
// CHECK-NEXT: et.blob @b align 4
// CHECK: et.call_delegate %X () {note.dict = {blob = @b}}
et.program @only_nested {
  et.blob @a align 4 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @b align 4 = dense<[5, 6, 7, 8]> : tensor<4xi8>
  et.method @m {
    %d0 = et.delegate "X" @a
    et.chain inputs() outputs() {
      et.call_delegate %d0 () {note.dict = {blob = @b}}
    }
    et.signature inputs() outputs()
  }
}
