// RUN: not emit-translate --to-pte %s --pte-segment-alignment=100 -o %t.pte 2>&1 | FileCheck %s --check-prefix=SEG
// RUN: not emit-translate --to-pte %s --pte-constant-alignment=3 -o %t.pte 2>&1 | FileCheck %s --check-prefix=CONST
// RUN: not emit-translate --to-pte %s --pte-inline-alignment=0 -o %t.pte 2>&1 | FileCheck %s --check-prefix=INLINE
// RUN: not emit-translate --to-pte %s --pte-inline-alignment=8192 -o %t.pte 2>&1 | FileCheck %s --check-prefix=INLINE-BIG
// RUN: not test -e %t.pte

// SEG: error: invalid option --pte-segment-alignment=100: the value must be a power of two
// CONST: error: invalid option --pte-constant-alignment=3: the value must be a power of two
// INLINE: error: invalid option --pte-inline-alignment=0: the value must be a power of two
// INLINE-BIG: error: invalid option --pte-inline-alignment=8192: data inside the flatbuffer can be aligned to at most 4096

et.program @p {
  et.method @m {
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
