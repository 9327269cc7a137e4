// The flatbuffer part of a .pte has a 2 GiB ceiling. A layout that would
// cross it stops before anything is written, naming the largest inline items
// and the option that fixes it. The ceiling is lowered here to make the case
// cheap; bench/ checks the real one.
//
// RUN: echo "previous contents" > %t.pte
// RUN: not emit-translate --to-pte %s --pte-inline-max-size=100000 --pte-max-flatbuffer-size=1000 -o %t.pte 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KEPT < %t.pte
//
// The option the message names fixes it:
// RUN: emit-translate --to-pte %s --pte-inline-max-size=16 --pte-max-flatbuffer-size=1000 -o %t.fixed.pte
// RUN: %pte-json %t.fixed.pte | FileCheck %s --check-prefix=FIXED
//
// A flatbuffer over the limit for other reasons is refused after building:
// RUN: not emit-translate --to-pte %s --pte-max-flatbuffer-size=450 -o %t.small.pte 2>&1 | FileCheck %s --check-prefix=BUILT
// RUN: not test -e %t.small.pte

// CHECK: error: the flatbuffer would hold {{[0-9]+}} bytes of inline data, over the limit of 1000 bytes; nothing was written. Move payloads to segments: lower --pte-inline-max-size (now 100000) or drop `inline` from the largest blobs
// CHECK: note: inline payload of a delegate entry for Big: 600 bytes
// CHECK: note: inline payload @medium: 400 bytes
// CHECK: note: inline payload of a delegate entry for Small: 16 bytes
// KEPT: previous contents
// The explicitly inline blob stays inline; the 16-byte payload joins it.
// FIXED-LABEL: "backend_delegate_data": [
// FIXED:           "data": [1, 1, 1,
// FIXED:           "data": [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]
// FIXED-NEXT:    }
// FIXED-NEXT:  ],
// BUILT: error: the program's flatbuffer is {{[0-9]+}} bytes, over the limit of 450 bytes; nothing was written

et.program @limit {
  et.blob @medium align 16 inline = dense<1> : tensor<400xi8>
  et.method @m {
    %d0 = et.delegate "Big" #et.blob<dense<2> : tensor<600xi8>, align 16>
    %d1 = et.delegate "Medium" @medium
    %d2 = et.delegate "Small" #et.blob<dense<7> : tensor<16xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
      et.call_delegate %d2 ()
    }
    et.signature inputs() outputs()
  }
}
