// GraphDiffViewer.js - the graph diff page's behaviour: selecting a node
// and its match, opening and closing a delegate call's payload on both
// sides, and the page's self-test (#self-test).
(function () {
  "use strict";

  function cell(pair, side, id) {
    return document.getElementById(
        "m" + pair.dataset.method + "-" + side + "-" + id);
  }

  function other(side) { return side === "old" ? "new" : "old"; }

  function select(node) {
    document.querySelectorAll(".node.selected").forEach(function (n) {
      n.classList.remove("selected");
    });
    node.classList.add("selected");
    var pair = node.closest(".pair");
    var match = node.dataset.match ?
        cell(pair, other(node.dataset.side), node.dataset.match) : null;
    var text = node.dataset.side + " " + node.title;
    if (match) {
      match.classList.add("selected");
      match.scrollIntoView({block: "nearest"});
      text += "\n" + match.dataset.side + " " + match.title;
    } else {
      text += "\n(" + (node.dataset.side === "old" ? "removed" : "added") + ")";
    }
    document.getElementById("detail").textContent = text;
    return match;
  }

  function toggle(pair, side, call) {
    // The call's payload operators on its side, and its match's on the
    // other.
    var callNode = cell(pair, side, call);
    var match = callNode ? callNode.dataset.match : null;
    var close = null;
    pair.querySelectorAll(".node.payload").forEach(function (n) {
      var mine = n.dataset.side === side ? call : match;
      if (!mine || n.dataset.call !== mine) return;
      if (close === null) close = !n.classList.contains("closed");
      n.classList.toggle("closed", close);
    });
    return close;
  }

  document.addEventListener("click", function (event) {
    var t = event.target.closest(".toggle");
    if (t) {
      toggle(t.closest(".pair"), t.closest(".node").dataset.side,
             t.dataset.call);
      event.stopPropagation();
      return;
    }
    var node = event.target.closest(".node");
    if (node) select(node);
  });

  function selfTest() {
    var failures = [];
    document.querySelectorAll(".pair").forEach(function (pair) {
      var counts = pair.previousElementSibling;
      ["added", "removed", "changed"].forEach(function (state) {
        var drawn = pair.querySelectorAll(".node." + state).length;
        var expected = Number(counts.dataset[state]);
        if (state === "changed") drawn /= 2;
        if (drawn !== expected)
          failures.push("method " + pair.dataset.method + ": " + drawn + " " +
                        state + " drawn, " + expected + " counted");
      });
      pair.querySelectorAll(".node").forEach(function (node) {
        if (!node.dataset.match) return;
        var match = select(node);
        if (!match || !match.classList.contains("selected") ||
            match.dataset.match !== node.dataset.id)
          failures.push("method " + pair.dataset.method + ": " +
                        node.dataset.side + " " + node.dataset.id +
                        " does not select its match " + node.dataset.match);
      });
      pair.querySelectorAll(".toggle").forEach(function (t) {
        var side = t.closest(".node").dataset.side;
        var closed = toggle(pair, side, t.dataset.call);
        var reopened = toggle(pair, side, t.dataset.call);
        if (closed === true && reopened !== false)
          failures.push("call " + t.dataset.call + " does not reopen");
      });
    });
    var out = document.getElementById("self-test");
    out.textContent = failures.length ? "self-test failed:\n" +
        failures.join("\n") : "self-test passed";
    document.title = out.textContent.split("\n")[0] + " - " + document.title;
  }

  if (location.hash === "#self-test") selfTest();
})();
