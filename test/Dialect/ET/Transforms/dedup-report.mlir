// RUN: emit-opt %s --dedup-delegate-blobs='report=%t.json' -o /dev/null
// RUN: FileCheck %s < %t.json
// RUN: emit-opt %s --dedup-delegate-blobs='dry-run=true report=-' | FileCheck %s --check-prefix=DRY
// RUN: emit-opt %s --dedup-delegate-blobs='same-backend=true report=-' -o /dev/null | FileCheck %s --check-prefix=APART
// RUN: emit-opt %s --dedup-delegate-blobs='test-force-hash-collisions=true report=-' -o /dev/null | FileCheck %s --check-prefix=COLLIDE
// Every report meets emit-dedup-report-2 (docs/schemas).
// RUN: emit-opt %s --dedup-delegate-blobs='dry-run=true report=%t.dry.json' -o /dev/null
// RUN: emit-opt %s --dedup-delegate-blobs='same-backend=true report=%t.apart.json' -o /dev/null
// RUN: emit-opt %s --dedup-delegate-blobs='test-force-hash-collisions=true report=%t.collide.json' -o /dev/null
// RUN: %validate-json emit-dedup-report-2 %t.json %t.dry.json %t.apart.json %t.collide.json | FileCheck %s --check-prefix=SCHEMA
// SCHEMA-COUNT-4: 1 valid emit-dedup-report-2

// The JSON report (docs/DedupReport.md), field by field: each group of
// identical payloads with its size, hash, alignment and every user; bytes
// before and after; near misses and why they were kept apart.

// CHECK:      "schema": "emit-dedup-report-2",
// CHECK-NEXT: "programs": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "program": "report",
// CHECK-NEXT:     "dry_run": false,
// CHECK-NEXT:     "bytes_before": 24,
// CHECK-NEXT:     "bytes_after": 16,
// CHECK-NEXT:     "kinds": {
// CHECK-NEXT:       "delegate": {
// CHECK-NEXT:         "bytes_before": 24,
// CHECK-NEXT:         "bytes_after": 16,
// CHECK-NEXT:         "bytes_saved": 8
// CHECK-NEXT:       }
// CHECK-NEXT:     },
// CHECK-NEXT:     "groups": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "blob": "payload_0",
// CHECK-NEXT:         "kind": "delegate",
// CHECK-NEXT:         "size": 8,
// CHECK-NEXT:         "xxh3_128": "{{[0-9a-f]+}}",
// CHECK-NEXT:         "alignment": 64,
// CHECK-NEXT:         "merged": [
// CHECK-NEXT:           "payload_1"
// CHECK-NEXT:         ],
// CHECK-NEXT:         "users": [
// CHECK-NEXT:           {
// CHECK-NEXT:             "method": "prefill",
// CHECK-NEXT:             "delegate": 0,
// CHECK-NEXT:             "calls": 1,
// CHECK-NEXT:             "backend": "QnnBackend",
// CHECK-NEXT:             "compile_specs_digest": "[[PREFILL:[0-9a-f]+]]"
// CHECK-NEXT:           },
// CHECK-NEXT:           {
// CHECK-NEXT:             "method": "decode",
// CHECK-NEXT:             "delegate": 0,
// CHECK-NEXT:             "calls": 1,
// CHECK-NEXT:             "backend": "XnnpackBackend",
// CHECK-NOT:              "[[PREFILL]]"
// CHECK:              }
// CHECK-NEXT:         ],
// CHECK-NEXT:         "keys": []
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "blob": "payload_2",
// CHECK-NEXT:         "kind": "delegate",
// CHECK-NEXT:         "size": 8,
// CHECK:              "merged": [],
// CHECK:          "segments": [],
// CHECK-NEXT:     "near_misses": []
// CHECK:      "data_files": []

// DRY: "dry_run": true,
// DRY: "bytes_after": 16,
// DRY: et.delegate "QnnBackend" #et.blob

// APART: "bytes_after": 24,
// APART: "near_misses": [
// APART:   "reason": "equal bytes kept apart: same-backend"

// With every hash equal, the two different payloads are reported as a near
// miss, and still not merged.
// COLLIDE: "bytes_after": 16,
// COLLIDE: "near_misses": [
// COLLIDE-NEXT: {
// COLLIDE-NEXT:   "blobs": [
// COLLIDE-NEXT:     "payload_0",
// COLLIDE-NEXT:     "payload_2"
// COLLIDE-NEXT:   ],
// COLLIDE-NEXT:   "size": 8,
// COLLIDE-NEXT:   "reason": "same size and hash, different bytes"

et.program @report {
  et.method @prefill {
    %d0 = et.delegate "QnnBackend" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 16> specs [#et.compile_spec<"graph" = "prefill">]
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
  et.method @decode {
    %d0 = et.delegate "XnnpackBackend" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 64> specs [#et.compile_spec<"graph" = "decode">]
    %d1 = et.delegate "Other" #et.blob<dense<[8, 7, 6, 5, 4, 3, 2, 1]> : tensor<8xi8>, align 4>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
    }
    et.signature inputs() outputs()
  }
}
