// The two-system diff's filters: text to look for, which system scores higher, and order. A
// document's line (where documents are known) shows while any of its segments shows; ordered by
// documents, the documents come largest difference first, each with its segments in order.
(function () {
  "use strict";
  var table = document.getElementById("diff-table");
  if (!table) { return; }
  var body = table.tBodies[0];
  var all = Array.prototype.slice.call(body.rows);
  var heads = all.filter(function (row) { return row.classList.contains("doc"); });
  var rows = all.filter(function (row) { return !row.classList.contains("doc"); });
  var text = document.getElementById("diff-text");
  var which = document.getElementById("diff-which");
  var order = document.getElementById("diff-order");
  var shown = document.getElementById("diff-shown");
  function delta(row) { return parseFloat(row.getAttribute("data-delta")); }
  function doc(row) { return row.getAttribute("data-doc"); }
  function keep(row, needle, mode) {
    var d = delta(row);
    if (mode === "a" && !(d > 0)) { return false; }
    if (mode === "b" && !(d < 0)) { return false; }
    if (mode === "same" && d !== 0) { return false; }
    return !needle || row.textContent.toLowerCase().indexOf(needle) !== -1;
  }
  function arranged() {
    if (order.value === "difference") {
      return rows.slice().sort(function (x, y) { return Math.abs(delta(y)) - Math.abs(delta(x)); });
    }
    if (order.value === "document") {
      var sorted = heads.slice().sort(function (x, y) { return Math.abs(delta(y)) - Math.abs(delta(x)); });
      var out = [];
      sorted.forEach(function (head) {
        out.push(head);
        rows.forEach(function (row) { if (doc(row) === doc(head)) { out.push(row); } });
      });
      return out;
    }
    return all;
  }
  function apply() {
    var needle = text.value.toLowerCase();
    var mode = which.value;
    var count = 0;
    var visible = {};
    rows.forEach(function (row) {
      row.hidden = !keep(row, needle, mode);
      if (!row.hidden) { count += 1; visible[doc(row)] = true; }
    });
    heads.forEach(function (head) { head.hidden = order.value === "difference" || !visible[doc(head)]; });
    arranged().forEach(function (row) { body.appendChild(row); });
    shown.textContent = count + " of " + rows.length + " segments shown";
  }
  text.addEventListener("input", apply);
  which.addEventListener("change", apply);
  order.addEventListener("change", apply);
  apply();
}());

// The rankings table: a click on a metric's header sorts the systems by it, best first by the
// metric's direction; a second click reverses the order.
(function () {
  "use strict";
  var table = document.getElementById("rankings");
  if (!table) { return; }
  var body = table.tBodies[0];
  var headers = Array.prototype.slice.call(table.querySelectorAll("th.sortable"));
  headers.forEach(function (th) {
    th.addEventListener("click", function () {
      var descending = th.getAttribute("data-order") === "desc";
      var current = th.getAttribute("aria-sort");
      if (current) { descending = current !== "descending"; }
      headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", descending ? "descending" : "ascending");
      var column = th.cellIndex;
      function value(row) { return parseFloat(row.cells[column].getAttribute("data-value")); }
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (x, y) { return descending ? value(y) - value(x) : value(x) - value(y); });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
}());

// The bucket plots: pointing at a system's row in a table picks its line out of the plot above
// (the other lines fade), so that sixteen systems stay readable.
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll("table.buckets[data-figure]"), function (table) {
    var id = table.getAttribute("data-figure");
    var figure = document.querySelector('figure[data-figure="' + id + '"]');
    if (!figure) { return; }
    var lines = Array.prototype.slice.call(figure.querySelectorAll('g[id^="' + id + '-s"]'));
    function show(k) {
      lines.forEach(function (line) {
        line.style.opacity = (k === null || line.id === id + "-s" + k) ? "" : "0.12";
      });
    }
    Array.prototype.forEach.call(table.querySelectorAll("tr[data-line]"), function (row) {
      row.addEventListener("mouseenter", function () { show(row.getAttribute("data-line")); });
      row.addEventListener("mouseleave", function () { show(null); });
    });
  });
}());

