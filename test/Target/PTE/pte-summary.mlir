// --pte-summary on a program before and after deduplication: as text, and
// as an SVG page checked by structure (it parses as XML; one bar per blob,
// with its size, users and a tooltip naming them).
//
// RUN: emit-opt %s --canonicalize | emit-translate --to-pte -o %t.before.pte
// RUN: emit-translate --pte-to-pte %t.before.pte -o %t.after.pte
// RUN: emit-translate --pte-summary %t.before.pte | FileCheck %s --check-prefix=BEFORE
// RUN: emit-translate --pte-summary %t.after.pte | FileCheck %s --check-prefix=AFTER
// RUN: emit-translate --pte-summary --pte-summary-format=svg %t.after.pte -o %t.svg
// RUN: %python -c "import sys, xml.etree.ElementTree as ET; root = ET.parse(sys.argv[1]).getroot(); print(root.tag); [print('bar', g.get('data-name'), g.get('data-size'), g.get('data-users'), g.find('{http://www.w3.org/2000/svg}title').text) for g in root.iter('{http://www.w3.org/2000/svg}g')]" %t.svg | FileCheck %s --check-prefix=SVG

// RUN: emit-translate --pte-summary --pte-summary-format=json %t.before.pte | FileCheck %s --check-prefix=JSON
// RUN: emit-translate --pte-summary --pte-summary-format=html %t.before.pte -o %t.html
// RUN: %python -c "import sys, html.parser; text = open(sys.argv[1]).read(); html.parser.HTMLParser().feed(text); print('script' if '<script' in text else 'no script', 'network' if 'http' in text else 'self-contained')" %t.html | FileCheck %s --check-prefix=HTML

// BEFORE: program {{.*}}: 2 methods, 3 delegate entries, 3 delegate calls, 4 blobs
// BEFORE-NEXT: delegate payloads: 24 B referenced by entries, 24 B stored
// BEFORE: prefill: 1 values, 1 chains, 2 instructions, 2 delegate entries, 2 delegate calls
// BEFORE: segment_0: 0 B, align 128; constant segment
// BEFORE: segment_1: 8 B, align 128; delegate payload: prefill#0 (QnnBackend)
// BEFORE: after --dedup-delegate-blobs: 3 blobs, 16 B of payloads stored (saves 8 B)
// BEFORE-NEXT: where the bytes go:
// BEFORE-NEXT:   flatbuffer: {{.*}}
// BEFORE-NEXT:   delegate payloads: 24 B
// BEFORE-NEXT: by backend:
// BEFORE-NEXT:   QnnBackend: 2 entries in prefill, decode; 16 B referenced, 16 B distinct
// BEFORE-NEXT:   XnnpackBackend: 1 entry in prefill; 8 B referenced, 8 B distinct
// BEFORE-NEXT: identical bytes:
// BEFORE-NEXT:   2 x 8 B: segment_1, segment_3

// JSON: "schema": "emit-summary-2",
// JSON: "dedup_saves": 8,
// JSON: "bytes_by_kind": {
// JSON-NEXT: "delegate": 24,
// JSON: "backends": [
// JSON: "id": "QnnBackend",
// JSON-NEXT: "delegate_entries": 2,
// JSON: "identical": [
// JSON-NEXT: {
// JSON-NEXT: "size": 8,
// JSON-NEXT: "blobs": [
// JSON-NEXT: "segment_1",
// JSON-NEXT: "segment_3"

// HTML: no script self-contained

// AFTER: delegate payloads: 24 B referenced by entries, 16 B stored
// AFTER: segment_1: 8 B, align 128; delegate payload; shared by 2 entries: prefill#0 (QnnBackend), decode#0 (QnnBackend)
// AFTER: segment_2: 8 B, align 128; delegate payload: prefill#1 (XnnpackBackend)
// AFTER: after --dedup-delegate-blobs: 3 blobs, 16 B of payloads stored (saves 0 B)

// SVG: {http://www.w3.org/2000/svg}svg
// SVG-NEXT: bar segment_0 0 0 segment_0: 0 B, align 128; constant segment
// SVG-NEXT: bar segment_1 8 2 segment_1: 8 B, align 128; delegate payload; used by prefill#0 (QnnBackend), decode#0 (QnnBackend)
// SVG-NEXT: bar segment_2 8 1 segment_2: 8 B, align 128; delegate payload; used by prefill#1 (XnnpackBackend)

et.program @summary {
  et.method @prefill {
    %0 = et.tensor float [1] dim_order [0]
    %d0 = et.delegate "QnnBackend" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 1>
    %d1 = et.delegate "XnnpackBackend" #et.blob<dense<[8, 7, 6, 5, 4, 3, 2, 1]> : tensor<8xi8>, align 1>
    et.chain inputs() outputs() {
      et.call_delegate %d0 (%0)
      et.call_delegate %d1 (%0)
    }
    et.signature inputs() outputs()
  }
  et.method @decode {
    %d0 = et.delegate "QnnBackend" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 1>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}
