// GraphViewer.js - emit-graph's page: draws a method's graph on a canvas.
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
// The page embeds its graphs as JSON (#graph-data); this lays a method out
// top to bottom (a layer per step of the longest path from the inputs,
// chains one after the other, each layer ordered by its predecessors'
// positions), draws only what is in view, and folds long straight runs of
// nodes into boxes of at most RUN nodes, which open on a click. Pan with
// the mouse, zoom with the wheel; a click shows a node's details; the
// search box finds operators and values (%12). A delegate call whose
// payload emit decodes opens in place into the payload's own graph.
(function () {
  "use strict";
  const RUN = 64, MIN_RUN = 8, W = 210, H = 34, GX = 30, GY = 34;
  const data = JSON.parse(document.getElementById("graph-data").textContent);
  const S = data.strings;
  const KINDS = ["kernel", "delegate", "move", "jump_false", "free", "other",
                 "input", "output", "payload"];
  const COLOR = {kernel: "#4e79a7", delegate: "#f28e2b", input: "#59a14f",
                 output: "#59a14f", move: "#bab0ac", jump_false: "#bab0ac",
                 free: "#bab0ac", other: "#bab0ac", run: "#a0cbe8",
                 payload: "#b07aa1"};
  const canvas = document.getElementById("graph");
  const context = canvas.getContext("2d");
  const details = document.getElementById("details");
  const search = document.getElementById("search");
  const status = document.getElementById("status");
  const picker = document.getElementById("method");
  // Runs fold by default only where a method is too big to read whole.
  const FOLD_FROM = 1000;
  const options = {memory: false, time: false, runs: true};
  let view = null, camera = {x: 0, y: 0, scale: 1}, selected = -1;
  let matches = [], matchAt = -1;

  // A node as an object; nodes are arrays in the data to keep it small.
  function nodeOf(method, i) {
    const n = method.nodes[i];
    return {index: i, kind: KINDS[n[0]], name: S[n[1]], chain: n[2],
            instruction: n[3], inputs: n[4], outputs: n[5], delegate: n[6],
            time: n[7], problems: n[8], payload: n[9]};
  }
  function valueOf(method, v) {
    const a = method.values[v];
    return {id: v, type: S[a[0]], dtype: a[1] < 0 ? "" : S[a[1]],
            shape: a[2] < 0 ? "" : S[a[2]], bytes: a[3], buffer: a[4],
            offset: a[5], first: a[6], last: a[7],
            constant: a[8] < 0 ? "" : S[a[8]], problems: a[9],
            aliasOf: a[10], name: a[11] < 0 ? "" : S[a[11]],
            source: a[12] < 0 ? "" : S[a[12]]};
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
      const d = n[6];
      if (!expanded.has(i) || !d || d.g < 0) {
        nodes.push(n);
        origin.push(i);
        count.push(1);
        return;
      }
      const graph = data.payloads[d.g], writer = new Map();
      graph.n.forEach((p, k) => {
        const at = nodes.length;
        for (const v of p[1]) if (writer.has(v)) inner.push(writer.get(v), at);
        for (const v of p[2]) writer.set(v, at);
        nodes.push([8, p[0], n[2], n[3], [], [], 0, d.t ? d.t[k] : 0, [],
                    {call: i, graph: d.g, node: k}]);
        origin.push(-1);
      });
      count.push(graph.n.length);
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
  function group(method, edges, opened) {
    const count = method.nodes.length, items = [], itemOf = new Int32Array(count);
    let i = 0;
    while (i < count) {
      let j = i;
      while (options.runs && j + 1 < count && j + 1 - i < RUN &&
             edges.succs[j].length === 1 && edges.succs[j][0] === j + 1 &&
             edges.preds[j + 1].length === 1 &&
             method.nodes[j + 1][2] === method.nodes[i][2])
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
      const kind = KINDS[first[0]];
      if (kind === "input") { layer[k] = 0; continue; }
      if (kind === "output") { layer[k] = deepest + 1; continue; }
      if (first[2] !== chain) { chain = first[2]; chainBase = deepest + 1; }
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

  function build(index) {
    const base = data.methods[index];
    options.runs = base.nodes.length >= FOLD_FROM;
    document.getElementById("runs").checked = options.runs;
    // Opened runs and expanded calls by their first node in the method.
    view = {index, base, opened: new Set(), expanded: new Set()};
    relayout();
    camera = {x: 20, y: 20, scale: 1};
    status.textContent = base.nodes.length + " nodes, " +
        view.items.length + " drawn";
    selected = -1;
    details.innerHTML = '<p class="muted">Click a node.</p>';
  }
  function relayout() {
    view.method = expand(view.base, view.expanded);
    view.edges = connect(view.method);
    view.grouped = group(view.method, view.edges, view.opened);
    view.items = place(view.method, view.edges, view.grouped);
    view.live = liveBytes(view.base);
    view.slowest = Math.max(1, ...view.method.nodes.map((n) => n[7]));
  }

  // Planned bytes live at each node, from the values' lifetimes.
  function liveBytes(method) {
    const steps = method.nodes.length + 1, delta = new Float64Array(steps + 1);
    for (const a of method.values)
      if (a[4] >= 0 && a[6] >= 0) { delta[a[6]] += a[3]; delta[a[7] + 1] -= a[3]; }
    const live = new Float64Array(steps);
    let sum = 0, peak = 1;
    for (let s = 0; s < steps; ++s) { sum += delta[s]; live[s] = sum; peak = Math.max(peak, sum); }
    return {live, peak};
  }

  function fill(item) {
    const n = view.method.nodes[item.first];
    if (item.last > item.first) return COLOR.run;
    if (options.time && n[7] > 0) {
      const t = Math.sqrt(n[7] / view.slowest);
      return "rgb(" + Math.round(255 * t) + "," + Math.round(200 * (1 - t)) + ",80)";
    }
    const slot = n[3] < 0 ? -1 : instructionSlot(item.first);
    if (options.memory && slot >= 0) {
      const t = view.live.live[slot] / view.live.peak;
      return "rgb(" + Math.round(80 + 175 * t) + "," + Math.round(150 * (1 - t)) + ",200)";
    }
    return COLOR[KINDS[n[0]]];
  }
  function instructionSlot(i) {
    const o = view.method.origin[i];
    return o < 0 || view.base.nodes[o][0] >= 6 ? -1 : o - view.base.inputs.length;
  }
  function isPeak(item) {
    for (let i = item.first; i <= item.last; ++i) {
      const slot = instructionSlot(i);
      if (view.method.peaks.some((p) => p[1] === slot && p[0] > 0)) return true;
    }
    return false;
  }
  function label(item) {
    const n = view.method.nodes[item.first];
    if (item.last === item.first)
      return (n[0] === 6 ? "in " : n[0] === 7 ? "out " : "") + S[n[1]];
    return (item.last - item.first + 1) + " nodes: " + S[n[1]] + " ...";
  }

  // A label that fits `width`: without its operator's namespace, then cut.
  const fitted = new Map();
  function fit(text, width) {
    if (fitted.has(text)) return fitted.get(text);
    let shown = text;
    if (context.measureText(shown).width > width && shown.includes("::"))
      shown = shown.slice(shown.indexOf("::") + 2);
    while (shown.length > 1 && context.measureText(shown).width > width)
      shown = shown.slice(0, -2) + "\u2026";
    fitted.set(text, shown);
    return shown;
  }

  // What the overlays' colours mean.
  function describeOverlays() {
    const parts = [];
    if (options.memory)
      parts.push("memory: blue to red, planned bytes live at a node (peak " +
                 view.live.peak + " B, outlined)");
    if (options.time)
      parts.push("time: green to red, a node's total (slowest " +
                 view.slowest + " ns)");
    document.getElementById("legend").textContent = parts.join("; ");
  }

  function draw() {
    describeOverlays();
    const ratio = window.devicePixelRatio || 1;
    canvas.width = canvas.clientWidth * ratio;
    canvas.height = canvas.clientHeight * ratio;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, canvas.clientWidth, canvas.clientHeight);
    if (!view) return;
    const s = camera.scale, left = -camera.x / s, top = -camera.y / s;
    const right = left + canvas.clientWidth / s, bottom = top + canvas.clientHeight / s;
    const visible = (item) => item.x + W >= left && item.x <= right &&
                              item.y + H >= top && item.y <= bottom;
    context.setTransform(ratio * s, 0, 0, ratio * s, ratio * camera.x, ratio * camera.y);
    context.strokeStyle = "#999";
    context.lineWidth = 1 / s;
    const {items, itemOf} = view.grouped;
    context.beginPath();
    for (let k = 0; k < view.items.length; ++k) {
      const to = view.items[k];
      for (const p of view.edges.preds[to.first]) {
        const from = view.items[itemOf[p]];
        if (from === to || (!visible(from) && !visible(to) &&
            (Math.max(from.y, to.y) < top || Math.min(from.y, to.y) > bottom)))
          continue;
        context.moveTo(from.x + W / 2, from.y + H);
        context.lineTo(to.x + W / 2, to.y);
      }
    }
    context.stroke();
    let drawn = 0;
    context.font = "12px system-ui, sans-serif";
    context.textBaseline = "middle";
    for (let k = 0; k < view.items.length; ++k) {
      const item = view.items[k];
      if (!visible(item)) continue;
      ++drawn;
      context.fillStyle = fill(item);
      context.fillRect(item.x, item.y, W, H);
      const n = view.method.nodes[item.first];
      const problem = n[8].length > 0, selectedHere = selected >= item.first &&
                                                      selected <= item.last;
      if (problem || selectedHere || (options.memory && isPeak(item))) {
        context.strokeStyle = selectedHere ? "#000" : "#e15759";
        context.lineWidth = 3 / s;
        context.strokeRect(item.x, item.y, W, H);
      }
      if (s > 0.4) {
        context.fillStyle = "#fff";
        context.fillText(fit(label(item), W - 12), item.x + 6, item.y + H / 2);
      }
    }
    canvas.dataset.drawn = drawn;
  }

  function itemAt(clientX, clientY) {
    const box = canvas.getBoundingClientRect();
    const x = (clientX - box.left - camera.x) / camera.scale;
    const y = (clientY - box.top - camera.y) / camera.scale;
    return view.items.findIndex((item) => x >= item.x && x <= item.x + W &&
                                          y >= item.y && y <= item.y + H);
  }

  function escape(text) {
    return String(text).replace(/[&<>"]/g, (c) =>
        ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  }
  function describeValues(ids) {
    return ids.map((v) => {
      const value = valueOf(view.method, v);
      let text = "%" + v + " " + value.type;
      if (value.dtype) text += " " + value.dtype + "[" + value.shape + "]";
      if (value.buffer >= 0) text += ", " + value.bytes + " B @" + value.buffer + "+" + value.offset;
      if (value.constant) text += ", " + value.constant + " (" + value.bytes + " B)";
      if (value.source) text += " in " + value.source;
      else if (value.constant === "external") text += ", its key in no file given";
      if (value.aliasOf >= 0) text += ", a view of %" + value.aliasOf;
      if (value.name) text += " '" + value.name + "'";
      if (value.first >= 0) text += ", live " + value.first + ".." + value.last;
      const problems = value.problems.map((p) =>
          " <span class=\"finding error\">" + escape(S[p]) + "</span>");
      return "<li>" + escape(text) + problems.join("") + "</li>";
    }).join("");
  }
  // A payload node's operands, as its graph describes them.
  function describePayloadValues(graph, ids) {
    if (!graph.byId) graph.byId = new Map(graph.v.map((v) => [v[0], S[v[1]]]));
    return ids.map((v) => "<li>%" + v + " " +
        escape(graph.byId.has(v) ? graph.byId.get(v) : "no such value") +
        "</li>").join("");
  }
  // Opens a delegate call's payload graph in place, or closes it; shows
  // the first payload node, or the call.
  function toggle(call, open) {
    if (open) view.expanded.add(call); else view.expanded.delete(call);
    relayout();
    const at = view.method.nodes.findIndex((n, i) =>
        open ? n[9] && n[9].call === call : view.method.origin[i] === call);
    focusNode(at);
  }
  function showPayloadNode(node) {
    const ref = node.payload, graph = data.payloads[ref.graph];
    const p = graph.n[ref.node], call = view.base.nodes[ref.call];
    let html = "<h3 id=\"selected-name\">" + escape(S[p[0]]) + "</h3><p>" +
        escape(graph.d) + " node " + ref.node + " of the payload of " +
        escape(S[call[1]]) + " (instruction " + call[2] + ":" + call[3] +
        ")</p>";
    if (S[p[3]]) html += "<p>" + escape(S[p[3]]) + "</p>";
    if (node.time > 0) html += "<p>" + node.time + " ns in all, by the call's own events</p>";
    html += "<p><button id=\"close-payload\">close the call's graph</button></p>";
    html += "<h4>reads</h4><ul>" + describePayloadValues(graph, p[1]) + "</ul>";
    html += "<h4>writes</h4><ul>" + describePayloadValues(graph, p[2]) + "</ul>";
    details.innerHTML = html;
    document.getElementById("close-payload").onclick = () => toggle(ref.call, false);
    draw();
  }
  function show(index) {
    selected = index;
    const node = nodeOf(view.method, index);
    if (node.payload) return showPayloadNode(node);
    let html = "<h3 id=\"selected-name\">" + escape(node.name) + "</h3><p>" +
        node.kind + (node.chain >= 0 ? ", instruction " + node.chain + ":" +
                                           node.instruction : "") + "</p>";
    if (node.time > 0) html += "<p>" + node.time + " ns in all</p>";
    const d = node.delegate;
    if (d) {
      html += "<p>delegate " + d.i + " (" + escape(d.b) + "): " + d.p +
          " B payload in " + d.s + " " + d.d +
          (d.m ? ", magic " + escape(d.m) : "") + "</p>";
      if (d.w.length) html += "<p>shared with " + escape(d.w.join(", ")) + "</p>";
      if (d.c.length)
        html += "<ul>" + d.c.map((c) => "<li>" + escape(c[0]) + " = " +
                                         escape(c[1]) + "</li>").join("") + "</ul>";
      if (d.n.length)
        html += "<p>loads from named data</p><ul class=\"named-parts\">" +
            d.n.map((n) =>
            "<li>" + escape(n[0]) + ": " + escape(n[1]) + "</li>").join("") +
            "</ul>";
      if (d.g >= 0)
        html += "<p><button id=\"open-payload\">open its " +
            escape(data.payloads[d.g].d) + " graph here (" +
            data.payloads[d.g].n.length + " nodes)</button></p>";
    }
    for (const p of node.problems) html += "<p class=\"finding error\">" + escape(S[p]) + "</p>";
    html += "<h4>reads</h4><ul>" + describeValues(node.inputs) + "</ul>";
    html += "<h4>writes</h4><ul>" + describeValues(node.outputs) + "</ul>";
    details.innerHTML = html;
    const open = document.getElementById("open-payload");
    if (open) open.onclick = () => toggle(view.method.origin[index], true);
    draw();
  }
  function showRun(k) {
    const item = view.items[k];
    let html = "<h3>" + (item.last - item.first + 1) + " nodes in a run</h3>" +
        "<p><button id=\"open-run\">open it</button></p><ol start=\"" +
        item.first + "\">";
    for (let i = item.first; i <= item.last && i < item.first + 64; ++i)
      html += "<li>" + escape(S[view.method.nodes[i][1]]) + "</li>";
    details.innerHTML = html + "</ol>";
    document.getElementById("open-run").onclick = () => {
      view.opened.add(view.method.origin[item.first]);
      relayout();
      show(item.first);
    };
  }
  function select(k) {
    const item = view.items[k];
    if (item.last > item.first) showRun(k); else show(item.first);
  }
  function focusNode(index) {
    let k = view.grouped.itemOf[index];
    if (view.items[k].last > view.items[k].first) {
      view.opened.add(view.method.origin[view.items[k].first]);
      relayout();
      k = view.grouped.itemOf[index];
    }
    const item = view.items[k];
    camera.x = canvas.clientWidth / 2 - (item.x + W / 2) * camera.scale;
    camera.y = canvas.clientHeight / 2 - (item.y + H / 2) * camera.scale;
    show(index);
  }

  function find(text) {
    matches = [];
    matchAt = -1;
    const query = text.trim().toLowerCase();
    if (!query) return;
    const value = /^%(\d+)$/.exec(query);
    // Values whose name has the query: nodes that read or write one match.
    const named = new Set();
    if (!value)
      view.method.values.forEach((a, v) => {
        if (a[11] >= 0 && S[a[11]].toLowerCase().includes(query)) named.add(v);
      });
    const names = (ids) => ids.some((v) => named.has(v));
    view.method.nodes.forEach((n, i) => {
      if (value ? n[4].includes(+value[1]) || n[5].includes(+value[1])
                : S[n[1]].toLowerCase().includes(query) || names(n[4]) ||
                  names(n[5]))
        matches.push(i);
    });
    status.textContent = matches.length + " found";
  }
  function next() {
    if (!matches.length) return;
    matchAt = (matchAt + 1) % matches.length;
    focusNode(matches[matchAt]);
  }

  let drag = null;
  canvas.addEventListener("mousedown", (e) => {
    drag = {x: e.clientX, y: e.clientY, cx: camera.x, cy: camera.y, moved: false};
  });
  window.addEventListener("mousemove", (e) => {
    if (!drag) return;
    if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 3) drag.moved = true;
    camera.x = drag.cx + e.clientX - drag.x;
    camera.y = drag.cy + e.clientY - drag.y;
    draw();
  });
  window.addEventListener("mouseup", () => { drag = null; });
  canvas.addEventListener("click", (e) => {
    if (drag && drag.moved) return;
    const k = itemAt(e.clientX, e.clientY);
    if (k >= 0) select(k);
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const box = canvas.getBoundingClientRect();
    const factor = Math.exp(-e.deltaY / 500), old = camera.scale;
    camera.scale = Math.min(4, Math.max(0.02, old * factor));
    const px = e.clientX - box.left, py = e.clientY - box.top;
    camera.x = px - (px - camera.x) * camera.scale / old;
    camera.y = py - (py - camera.y) * camera.scale / old;
    draw();
  }, {passive: false});
  search.addEventListener("input", () => find(search.value));
  search.addEventListener("keydown", (e) => { if (e.key === "Enter") next(); });
  for (const name of Object.keys(options)) {
    const box = document.getElementById(name);
    if (!box) continue;
    box.checked = options[name];
    box.addEventListener("change", () => {
      options[name] = box.checked;
      if (name === "runs") relayout();
      draw();
    });
  }
  picker.addEventListener("change", () => { build(+picker.value); draw(); });
  window.addEventListener("resize", draw);

  // #selftest: a click on the first kernel or delegate node and a search,
  // through the page's own handlers; what they did, in #selftest's text.
  function selftest() {
    const out = document.getElementById("selftest");
    const results = ["drawn=" + canvas.dataset.drawn];
    const k = view.items.findIndex((item) => item.last === item.first &&
        view.method.nodes[item.first][0] <= 1);
    if (k >= 0) {
      const item = view.items[k], box = canvas.getBoundingClientRect();
      camera = {x: 20 - item.x, y: 20 - item.y, scale: 1};
      draw();
      canvas.dispatchEvent(new MouseEvent("click", {
        clientX: box.left + 20 + W / 2, clientY: box.top + 20 + H / 2,
        bubbles: true}));
      const shown = document.getElementById("selected-name");
      results.push("click=" + (shown ? shown.textContent : "none"));
    }
    // The search, as a user types: an operator, a value, a tensor's name.
    function searchFor(text) {
      search.value = text;
      search.dispatchEvent(new Event("input"));
      search.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter"}));
      const shown = document.getElementById("selected-name");
      return matches.length + " " + (shown ? shown.textContent : "none");
    }
    const method = view.method;
    const first = method.nodes[Math.min(method.inputs.length,
                                        method.nodes.length - 1)];
    results.push("search=" + searchFor(S[first[1]]));
    if (first[5].length)
      results.push("value=%" + first[5][0] + " " + searchFor("%" + first[5][0]));
    const named = method.values.find((a) => a[11] >= 0);
    if (named) results.push("name=" + S[named[11]] + " " + searchFor(S[named[11]]));
    // A call that loads parts from named data lists them.
    const loads = view.base.nodes.findIndex((n) => n[6] && n[6].n.length);
    if (loads >= 0) {
      show(view.method.origin.indexOf(loads));
      const items = document.querySelectorAll("#details .named-parts li");
      results.push("named=" + [...items].map((li) => li.textContent)
          .join("; "));
    }
    // A call whose payload emit decodes opens in place, and closes.
    const call = view.base.nodes.findIndex((n) => n[6] && n[6].g >= 0);
    if (call >= 0) {
      const shown = () => document.getElementById("selected-name").textContent;
      show(view.method.origin.indexOf(call));
      document.getElementById("open-payload").click();
      results.push("open=" + view.method.nodes.length + " nodes, " +
                   view.edges.preds.reduce((s, p) => s + p.length, 0) +
                   " edges, drawn=" + canvas.dataset.drawn + " " + shown());
      document.getElementById("close-payload").click();
      results.push("close=" + view.method.nodes.length + " nodes " + shown());
    }
    out.textContent = results.join("\n");
  }

  if (!data.methods.length) return;
  build(0);
  // A link may switch overlays on: page.html#memory, #time.
  for (const name of ["memory", "time"])
    if (location.hash === "#" + name && !document.getElementById(name).disabled) {
      options[name] = document.getElementById(name).checked = true;
    }
  draw();
  if (location.hash === "#selftest") selftest();
})();
