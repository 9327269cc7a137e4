// The HTML summary of a .ptd data file speaks of segments and keys: which
// segments hold the same bytes, under which keys, and what dedup saves.
//
// RUN: emit-translate --to-ptd %s -o %t.ptd
// RUN: emit-translate --pte-summary --pte-summary-format=html %t.ptd | FileCheck %s

// CHECK-LABEL: <h1>
// CHECK: Data file of {{[0-9]+}} B: 3 segments, 3 keys.
// CHECK-SAME: Deduplication would save 4 B</strong> (33.3% of the 12 B of data stored).
// CHECK-LABEL: <section id="kinds">
// CHECK: data-kind="named_data" data-bytes="12"
// CHECK-LABEL: <section id="identical">
// CHECK: <p>1 group of segments holds byte-identical data: storing each once would save 4 B.
// CHECK: <th>segments and their keys</th>
// CHECK: <tr class="group" data-copies="2" data-size="4">
// CHECK-SAME: <b>segment_0</b> (&quot;layer.0&quot; #et.tensor_layout&lt;int [1] dim_order [0]&gt;); <b>segment_1</b> (&quot;layer.1&quot;
// CHECK-LABEL: <section id="blobs"><h2>Largest segments</h2>
// CHECK: <tr class="blob" data-name="segment_2" data-size="4">
// CHECK-SAME: &quot;near&quot;

et.data_file @weights segment_alignment 128 {
  et.blob @a align 128 segment = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @b align 256 segment = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @c align 128 segment = dense<[1, 2, 3, 5]> : tensor<4xi8>
  et.named_data "layer.0" = @a layout #et.tensor_layout<int [1] dim_order [0]>
  et.named_data "layer.1" = @b layout #et.tensor_layout<float [1] dim_order [0]>
  et.named_data "near" = @c
}
