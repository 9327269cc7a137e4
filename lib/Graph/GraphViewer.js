// GraphViewer.js - emit-graph's page: draws a method's graph on a canvas.
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
// Draws the layout GraphLayout.js (whose scope this shares) makes of a
// method, only what is in view; folded runs open on a click. Pan with the
// mouse, zoom with the wheel; a click shows a node's details; the search
// box finds operators and values (%12). A delegate call whose payload emit
// decodes opens in place into the payload's own graph.
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
  view.grouped = group(view.method, view.edges, view.opened, options.runs);
  view.items = place(view.method, view.edges, view.grouped);
  view.live = liveBytes(view.base);
  view.slowest = Math.max(1, ...view.method.nodes.map((n) => n[N.time_ns]));
}

function fill(item) {
  const n = view.method.nodes[item.first];
  if (item.last > item.first) return COLOR.run;
  if (options.time && n[N.time_ns] > 0) {
    const t = Math.sqrt(n[N.time_ns] / view.slowest);
    return "rgb(" + Math.round(255 * t) + "," + Math.round(200 * (1 - t)) + ",80)";
  }
  const slot = n[N.instruction] < 0 ? -1 : instructionSlot(item.first);
  if (options.memory && slot >= 0) {
    const t = view.live.live[slot] / view.live.peak;
    return "rgb(" + Math.round(80 + 175 * t) + "," + Math.round(150 * (1 - t)) + ",200)";
  }
  return COLOR[KINDS[n[N.kind]]];
}
function instructionSlot(i) {
  const o = view.method.origin[i];
  return o < 0 || view.base.nodes[o][N.kind] >= KINDS.indexOf("input")
      ? -1 : o - view.base.inputs.length;
}
function isPeak(item) {
  for (let i = item.first; i <= item.last; ++i) {
    const slot = instructionSlot(i);
    if (view.method.peaks.some((p) => p[P.peak_at] === slot && p[P.peak_bytes] > 0))
      return true;
  }
  return false;
}
function label(item) {
  const node = nodeOf(view.method, item.first);
  if (item.last === item.first)
    return (node.kind === "input" ? "in " : node.kind === "output" ? "out " : "") +
        node.name;
  return (item.last - item.first + 1) + " nodes: " + node.name + " ...";
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
    const problem = n[N.problems].length > 0, selectedHere = selected >= item.first &&
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
  if (!graph.byId)
    graph.byId = new Map(graph.values.map((v) => [v[PV.id], S[v[PV.description]]]));
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
      open ? n.payload && n.payload.call === call : view.method.origin[i] === call);
  focusNode(at);
}
function showPayloadNode(node) {
  const ref = node.payload, graph = data.payloads[ref.graph];
  const p = graph.nodes[ref.node], call = nodeOf(view.base, ref.call);
  let html = "<h3 id=\"selected-name\">" + escape(S[p[PN.op]]) + "</h3><p>" +
      escape(graph.decoder) + " node " + ref.node + " of the payload of " +
      escape(call.name) + " (instruction " + call.chain + ":" +
      call.instruction + ")</p>";
  if (S[p[PN.attrs]]) html += "<p>" + escape(S[p[PN.attrs]]) + "</p>";
  if (node.time > 0) html += "<p>" + node.time + " ns in all, by the call's own events</p>";
  html += "<p><button id=\"close-payload\">close the call's graph</button></p>";
  html += "<h4>reads</h4><ul>" + describePayloadValues(graph, p[PN.inputs]) + "</ul>";
  html += "<h4>writes</h4><ul>" + describePayloadValues(graph, p[PN.outputs]) + "</ul>";
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
    html += "<p>delegate " + d.index + " (" + escape(d.backend) + "): " +
        d.payload_bytes + " B payload in " + d.storage + " " + d.data_index +
        (d.magic ? ", magic " + escape(d.magic) : "") + "</p>";
    if (d.shared_with.length)
      html += "<p>shared with " + escape(d.shared_with.join(", ")) + "</p>";
    // A compile spec and a named part are each [name, description].
    const pairs = (list) => list.map(([name, about]) =>
        "<li>" + escape(name) + (list === d.compile_specs ? " = " : ": ") +
        escape(about) + "</li>").join("");
    if (d.compile_specs.length)
      html += "<ul>" + pairs(d.compile_specs) + "</ul>";
    if (d.named_parts.length)
      html += "<p>loads from named data</p><ul class=\"named-parts\">" +
          pairs(d.named_parts) + "</ul>";
    if (d.payload_graph >= 0) {
      const graph = data.payloads[d.payload_graph];
      html += "<p><button id=\"open-payload\">open its " +
          escape(graph.decoder) + " graph here (" + graph.nodes.length +
          " nodes)</button></p>";
    }
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
    html += "<li>" + escape(nodeOf(view.method, i).name) + "</li>";
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
      if (a[V.name] >= 0 && S[a[V.name]].toLowerCase().includes(query)) named.add(v);
    });
  const names = (ids) => ids.some((v) => named.has(v));
  view.method.nodes.forEach((n, i) => {
    const inputs = n[N.inputs], outputs = n[N.outputs];
    if (value ? inputs.includes(+value[1]) || outputs.includes(+value[1])
              : S[n[N.name]].toLowerCase().includes(query) || names(inputs) ||
                names(outputs))
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
      ["kernel", "delegate"].includes(nodeOf(view.method, item.first).kind));
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
  const first = nodeOf(method, Math.min(method.inputs.length,
                                        method.nodes.length - 1));
  results.push("search=" + searchFor(first.name));
  if (first.outputs.length)
    results.push("value=%" + first.outputs[0] + " " +
                 searchFor("%" + first.outputs[0]));
  const named = method.values.find((a) => a[V.name] >= 0);
  if (named) results.push("name=" + S[named[V.name]] + " " + searchFor(S[named[V.name]]));
  // A call that loads parts from named data lists them.
  const delegateOf = (n) => n[N.delegate];
  const loads = view.base.nodes.findIndex((n) => delegateOf(n) &&
                                                 delegateOf(n).named_parts.length);
  if (loads >= 0) {
    show(view.method.origin.indexOf(loads));
    const items = document.querySelectorAll("#details .named-parts li");
    results.push("named=" + [...items].map((li) => li.textContent)
        .join("; "));
  }
  // A call whose payload emit decodes opens in place, and closes.
  const call = view.base.nodes.findIndex((n) => delegateOf(n) &&
                                                delegateOf(n).payload_graph >= 0);
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

// The first method, drawn; a link may switch overlays on: page.html#memory,
// #time.
if (data.methods.length) {
  build(0);
  for (const name of ["memory", "time"])
    if (location.hash === "#" + name && !document.getElementById(name).disabled)
      options[name] = document.getElementById(name).checked = true;
  draw();
  if (location.hash === "#selftest") selftest();
}
