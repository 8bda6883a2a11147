"use strict";
(function () {
  const table = document.getElementById("results");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const heads = Array.from(table.tHead.rows[0].cells);
  const nameBox = document.getElementById("filter-system");
  const tagBox = document.getElementById("filter-tag");
  const shown = document.getElementById("shown");

  function value(row, k) {
    const text = row.cells[k].dataset.value;
    return text === "" ? null : Number(text);
  }

  function sortBy(k) {
    const head = heads[k];
    const best = head.dataset.higher === "1" ? "descending" : "ascending";
    const order = head.getAttribute("aria-sort") === best ? (best === "ascending" ? "descending" : "ascending") : best;
    heads.forEach((h) => h.setAttribute("aria-sort", "none"));
    head.setAttribute("aria-sort", order);
    const sign = order === "ascending" ? 1 : -1;
    const sorted = rows.slice().sort((a, b) => {
      if (k === 0) return sign * a.dataset.system.localeCompare(b.dataset.system);
      const x = value(a, k), y = value(b, k);
      if (x === null || y === null) return (x === null) - (y === null);
      return sign * (x - y);
    });
    sorted.forEach((row) => body.appendChild(row));
  }

  function filter() {
    const part = nameBox.value.toLowerCase();
    const tag = tagBox.value;
    let count = 0;
    rows.forEach((row) => {
      const visible = row.dataset.system.toLowerCase().includes(part) &&
        (tag === "" || JSON.parse(row.dataset.tags).includes(tag));
      row.hidden = !visible;
      count += visible ? 1 : 0;
    });
    shown.textContent = count + " of " + rows.length + " systems shown";
  }

  heads.forEach((head, k) => head.querySelector("button").addEventListener("click", () => sortBy(k)));
  nameBox.addEventListener("input", filter);
  tagBox.addEventListener("change", filter);
})();
