// GraphLayout.js - emit-graph's page: its data and a method's layout.
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
// The page embeds its graphs as JSON (#graph-data): nodes, values, peaks
// and payload graphs as rows whose fields `data.fields` names (the JSON
// report's names); this reads rows by those names (F.node.kind), and lays
// a method out top to bottom: a layer per step of the longest path from
// the inputs, chains one after the other, each layer ordered by its
// predecessors' positions, long straight runs of nodes folded into boxes
// of at most RUN nodes. GraphViewer.js, which shares this scope, draws it.
const RUN = 64, MIN_RUN = 8, W = 210, H = 34, GX = 30, GY = 34;
const data = JSON.parse(document.getElementById("graph-data").textContent);
const S = data.strings;
const KINDS = ["kernel", "delegate", "move", "jump_false", "free", "other",
               "input", "output", "payload"];
const COLOR = {kernel: "#4e79a7", delegate: "#f28e2b", input: "#59a14f",
               output: "#59a14f", move: "#bab0ac", jump_false: "#bab0ac",
               free: "#bab0ac", other: "#bab0ac", run: "#a0cbe8",
               payload: "#b07aa1"};
// Per kind of row, each field's place in it, by name.
const F = Object.fromEntries(Object.entries(data.fields).map(
    ([kind, names]) => [kind, Object.fromEntries(names.map((name, i) => [name, i]))]));
const N = F.node, V = F.value, P = F.peak, PN = F.payload_node,
      PV = F.payload_value;

// A node as an object; nodes are rows in the data to keep it small. A
// payload's node, made by expand(), says where it is from (`payload`).
function nodeOf(method, i) {
  const n = method.nodes[i];
  return {index: i, kind: KINDS[n[N.kind]], name: S[n[N.name]],
          chain: n[N.chain], instruction: n[N.instruction],
          inputs: n[N.inputs], outputs: n[N.outputs], delegate: n[N.delegate],
          time: n[N.time_ns], problems: n[N.problems], payload: n.payload};
}
// The string at `index` of the table, "" for none (-1).
const text = (index) => index < 0 ? "" : S[index];
function valueOf(method, v) {
  const a = method.values[v];
  return {id: v, type: S[a[V.type]], dtype: text(a[V.dtype]),
          shape: text(a[V.shape]), bytes: a[V.bytes], buffer: a[V.buffer],
          offset: a[V.offset], first: a[V.first], last: a[V.last],
          constant: text(a[V.constant]), problems: a[V.problems],
          aliasOf: a[V.alias_of], name: text(a[V.name]),
          source: text(a[V.source])};
}

// Each node's predecessors and successors, from the method's edges
// (emit-graph's: forward only, a loop's way back is none).
function connect(method) {
  const count = method.nodes.length, preds = [], succs = [];
  for (let i = 0; i < count; ++i) { preds.push([]); succs.push([]); }
  const e = method.edges;
  for (let k = 0; k + 1 < e.length; k += 2) {
    const from = e[k], to = e[k + 1];
    if (!preds[to].includes(from)) { preds[to].push(from); succs[from].push(to); }
  }
  return {preds, succs};
}

// A row for payload node `p` of `call`'s payload, where `payload` says.
function payloadNode(call, p, time, payload) {
  const row = [];
  row[N.kind] = KINDS.indexOf("payload");
  row[N.name] = p[PN.op];
  row[N.chain] = call[N.chain];
  row[N.instruction] = call[N.instruction];
  row[N.inputs] = [];
  row[N.outputs] = [];
  row[N.delegate] = 0;
  row[N.time_ns] = time;
  row[N.problems] = [];
  row.payload = payload;
  return row;
}

// The method with each delegate call in `expanded` replaced by its
// payload's graph: the payload's nodes in order, each fed by the node
// that last wrote its operand; those no other payload node feeds fed by
// what fed the call, those that feed none feeding what the call fed.
// `origin`: each node's index in the method, -1 for a payload's.
function expand(base, expanded) {
  if (!expanded.size) {
    if (!base.origin) base.origin = Int32Array.from(base.nodes, (_, i) => i);
    return base;
  }
  const nodes = [], origin = [], first = [], count = [], inner = [];
  base.nodes.forEach((n, i) => {
    first.push(nodes.length);
    const d = n[N.delegate];
    if (!expanded.has(i) || !d || d.payload_graph < 0) {
      nodes.push(n);
      origin.push(i);
      count.push(1);
      return;
    }
    const graph = data.payloads[d.payload_graph], writer = new Map();
    graph.nodes.forEach((p, k) => {
      const at = nodes.length;
      for (const v of p[PN.inputs]) if (writer.has(v)) inner.push(writer.get(v), at);
      for (const v of p[PN.outputs]) writer.set(v, at);
      nodes.push(payloadNode(n, p, d.payload_times ? d.payload_times[k] : 0,
                             {call: i, graph: d.payload_graph, node: k}));
      origin.push(-1);
    });
    count.push(graph.nodes.length);
  });
  const fed = new Uint8Array(nodes.length), feeds = new Uint8Array(nodes.length);
  for (let k = 0; k + 1 < inner.length; k += 2) { feeds[inner[k]] = 1; fed[inner[k + 1]] = 1; }
  // A method node's own index, or its payload's nodes not marked in `marked`.
  const ends = (i, marked) => {
    if (origin[first[i]] === i) return [first[i]];
    const out = [];
    for (let j = first[i]; j < first[i] + count[i]; ++j) if (!marked[j]) out.push(j);
    return out;
  };
  const edges = inner.slice(), e = base.edges;
  for (let k = 0; k + 1 < e.length; k += 2)
    for (const from of ends(e[k], feeds))
      for (const to of ends(e[k + 1], fed)) edges.push(from, to);
  return {name: base.name, inputs: base.inputs, peaks: base.peaks,
          values: base.values, nodes, edges, origin: Int32Array.from(origin)};
}

// Items drawn: a node, or a run of nodes each the only successor of the
// one before, folded into one box unless opened.
function group(method, edges, opened, runs) {
  const count = method.nodes.length, items = [], itemOf = new Int32Array(count);
  let i = 0;
  while (i < count) {
    let j = i;
    while (runs && j + 1 < count && j + 1 - i < RUN &&
           edges.succs[j].length === 1 && edges.succs[j][0] === j + 1 &&
           edges.preds[j + 1].length === 1 &&
           method.nodes[j + 1][N.chain] === method.nodes[i][N.chain])
      ++j;
    if (j - i + 1 >= MIN_RUN && !opened.has(method.origin[i])) {
      for (let k = i; k <= j; ++k) itemOf[k] = items.length;
      items.push({first: i, last: j});
      i = j + 1;
    } else {
      itemOf[i] = items.length;
      items.push({first: i, last: i});
      ++i;
    }
  }
  return {items, itemOf};
}

function place(method, edges, grouped) {
  const {items, itemOf} = grouped, layer = new Int32Array(items.length);
  // Chains one after the other: a chain starts below the one before.
  let chainBase = 1, chain = -1, deepest = 0;
  for (let k = 0; k < items.length; ++k) {
    const first = method.nodes[items[k].first];
    const kind = KINDS[first[N.kind]];
    if (kind === "input") { layer[k] = 0; continue; }
    if (kind === "output") { layer[k] = deepest + 1; continue; }
    if (first[N.chain] !== chain) { chain = first[N.chain]; chainBase = deepest + 1; }
    let depth = chainBase;
    for (const p of edges.preds[items[k].first]) {
      const q = itemOf[p];
      if (q !== k) depth = Math.max(depth, layer[q] + 1);
    }
    layer[k] = depth;
    deepest = Math.max(deepest, depth);
  }
  // Each layer ordered by its items' predecessors' mean position.
  const byLayer = new Map(), x = new Float64Array(items.length);
  for (let k = 0; k < items.length; ++k) {
    if (!byLayer.has(layer[k])) byLayer.set(layer[k], []);
    byLayer.get(layer[k]).push(k);
  }
  for (const l of [...byLayer.keys()].sort((a, b) => a - b)) {
    const row = byLayer.get(l), key = new Map();
    for (const k of row) {
      const ps = edges.preds[items[k].first];
      key.set(k, ps.length ? ps.reduce((s, p) => s + x[itemOf[p]], 0) /
                                 ps.length : k);
    }
    row.sort((a, b) => key.get(a) - key.get(b));
    row.forEach((k, position) => { x[k] = position; });
  }
  return items.map((item, k) => ({
    ...item, x: x[k] * (W + GX), y: layer[k] * (H + GY)}));
}

// Planned bytes live at each node, from the values' lifetimes.
function liveBytes(method) {
  const steps = method.nodes.length + 1, delta = new Float64Array(steps + 1);
  for (const a of method.values)
    if (a[V.buffer] >= 0 && a[V.first] >= 0) {
      delta[a[V.first]] += a[V.bytes];
      delta[a[V.last] + 1] -= a[V.bytes];
    }
  const live = new Float64Array(steps);
  let sum = 0, peak = 1;
  for (let s = 0; s < steps; ++s) { sum += delta[s]; live[s] = sum; peak = Math.max(peak, sum); }
  return {live, peak};
}

