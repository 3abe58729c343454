/* specgen: progressive enhancement only. Every section is complete without this file. */
(function () {
  "use strict";
  function setup() {
    var input = document.getElementById("trace-filter");
    var count = document.getElementById("trace-count");
    var list = document.getElementById("trace-list");
    if (!input || !count || !list || input.dataset.sgReady) { return; }
    input.dataset.sgReady = "1";
    var box = input.closest(".sg-filter");
    if (box) { box.hidden = false; }
    var items = Array.prototype.slice.call(list.querySelectorAll(".sg-trace-entry"));
    var template = count.getAttribute("data-template") || "{count}";
    function apply() {
      var q = input.value.trim().toLowerCase();
      var n = 0;
      items.forEach(function (li) {
        var hit = !q || (li.getAttribute("data-filter") || "").indexOf(q) !== -1;
        li.hidden = !hit;
        if (hit) { n += 1; }
      });
      count.textContent = template.replace("{count}", String(n));
    }
    input.addEventListener("input", apply);
    apply();
  }
  // Filterable tables: a hidden .sg-table-filter names its table (data-table); each control's
  // data-key is a row attribute (data-<key>; with data-match="token" one of its space-separated
  // words) or "text" (substring of data-text). Rows that do not match get [hidden]; the
  // .sg-table-count after the controls says how many remain. The filter is in the URL (?text=…&
  // surface=…, replaceState), so a filtered list can be linked and survives a reload. For a text
  // query the row whose data-name is the query comes first, then names that start with it, then
  // the rest in their order (typing "tmul" puts TMUL first, not thirteenth).
  function setupTableFilters() {
    Array.prototype.forEach.call(document.querySelectorAll(".sg-table-filter[data-table]"), function (box) {
      if (box.dataset.sgReady) { return; }
      var table = document.getElementById(box.getAttribute("data-table"));
      if (!table || !table.tBodies.length) { return; }
      box.dataset.sgReady = "1";
      box.hidden = false;
      var count = box.nextElementSibling && box.nextElementSibling.classList.contains("sg-table-count")
        ? box.nextElementSibling : null;
      var template = count ? (count.getAttribute("data-template") || "{count}") : "";
      var controls = Array.prototype.slice.call(box.querySelectorAll("[data-key]"));
      var body = table.tBodies[0];
      var original = Array.prototype.slice.call(body.rows);
      var params = new URLSearchParams(window.location.search);
      controls.forEach(function (c) {
        var v = params.get(c.getAttribute("data-key"));
        if (v !== null) { c.value = v; }
      });
      function rank(tr, q) {
        var name = (tr.getAttribute("data-name") || "").toLowerCase();
        if (!q || !name) { return 2; }
        return name === q ? 0 : (name.indexOf(q) === 0 ? 1 : 2);
      }
      function remember() {
        if (!window.history || !window.history.replaceState) { return; }
        var url = new URL(window.location.href);
        controls.forEach(function (c) {
          var v = c.value.trim();
          if (v) { url.searchParams.set(c.getAttribute("data-key"), v); } else { url.searchParams.delete(c.getAttribute("data-key")); }
        });
        if (url.href !== window.location.href) { window.history.replaceState(window.history.state, "", url.href); }
      }
      function apply() {
        var n = 0;
        var text = "";
        original.forEach(function (tr) {
          var hit = controls.every(function (c) {
            var v = c.value.trim().toLowerCase();
            if (!v) { return true; }
            var key = c.getAttribute("data-key");
            if (key === "text") { text = v; return (tr.getAttribute("data-text") || "").indexOf(v) !== -1; }
            var have = (tr.getAttribute("data-" + key) || "").toLowerCase();
            return c.getAttribute("data-match") === "token" ? (" " + have + " ").indexOf(" " + v + " ") !== -1 : have === v;
          });
          tr.hidden = !hit;
          if (hit) { n += 1; }
        });
        if (!table.hasAttribute("data-sorted")) {  // a column the reader sorted by keeps its order
          original.slice().sort(function (a, b) {
            return (rank(a, text) - rank(b, text)) || (original.indexOf(a) - original.indexOf(b));
          }).forEach(function (tr) { body.appendChild(tr); });
        }
        if (count) { count.textContent = template.replace("{count}", String(n)); }
        remember();
      }
      controls.forEach(function (c) { c.addEventListener("input", apply); c.addEventListener("change", apply); });
      apply();
    });
  }
  // Sortable tables (table[data-sortable]): each column heading becomes a button; a click sorts by
  // that column's text (numbers as numbers), a second click reverses; aria-sort tells assistive tech.
  function setupSortable() {
    Array.prototype.forEach.call(document.querySelectorAll("table[data-sortable]"), function (table) {
      if (table.dataset.sgReady || !table.tHead || !table.tBodies.length) { return; }
      table.dataset.sgReady = "1";
      var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
      heads.forEach(function (th, col) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "sg-sort";
        while (th.firstChild) { button.appendChild(th.firstChild); }
        th.appendChild(button);
        button.addEventListener("click", function () {
          var asc = th.getAttribute("aria-sort") !== "ascending";
          sortBy(asc);
          // the sort is kept in the address (?sort=<column>&order=asc|desc): a reload or a shared link keeps it
          if (window.history && window.URL) {
            var u = new URL(window.location.href);
            u.searchParams.set("sort", String(col + 1));
            u.searchParams.set("order", asc ? "asc" : "desc");
            window.history.replaceState(window.history.state, "", u.toString());
          }
        });
        th.sgSortBy = sortBy;
        function sortBy(asc) {
          heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
          th.setAttribute("aria-sort", asc ? "ascending" : "descending");
          table.setAttribute("data-sorted", "");
          var body = table.tBodies[0];
          var rows = Array.prototype.slice.call(body.rows);
          var key = function (tr) { return (tr.cells[col] ? tr.cells[col].textContent : "").trim(); };
          rows.sort(function (a, b) {
            var x = key(a), y = key(b);
            var nx = parseFloat(x), ny = parseFloat(y);
            var r = (!isNaN(nx) && !isNaN(ny) && String(nx) === x && String(ny) === y)
              ? nx - ny : x.localeCompare(y, undefined, {numeric: true, sensitivity: "base"});
            return asc ? r : -r;
          });
          rows.forEach(function (tr) { body.appendChild(tr); });
        }
      });
      var params = window.URLSearchParams ? new URLSearchParams(window.location.search) : null;
      var wanted = params ? parseInt(params.get("sort") || "", 10) : NaN;
      if (wanted >= 1 && wanted <= heads.length && table === document.querySelector("table[data-sortable]")) {
        heads[wanted - 1].sgSortBy(params.get("order") !== "desc");
      }
    });
  }
  // A box that scrolls sideways on this screen (a diagram, a listing, a wide table) must be reachable
  // by keyboard to be scrolled: give it a tab stop while it overflows (axe scrollable-region-focusable).
  function focusableScrollers() {
    Array.prototype.forEach.call(document.querySelectorAll(".sg-diagram, .sg-page pre, .md-typeset pre > code, .sg-page table[class], .sg-page .sg-table, .sg-page .sg-items, .sg-page .sg-tile"), function (el) {
      if (el.scrollWidth > el.clientWidth + 1 && !el.hasAttribute("tabindex") && !el.querySelector("a, button, input, select, [tabindex]")) {
        el.setAttribute("tabindex", "0");
      }
    });
  }
  function all() { setup(); setupTableFilters(); setupSortable(); focusableScrollers(); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", all);
  } else {
    all();
  }
  if (window.document$ && window.document$.subscribe) { window.document$.subscribe(all); }
})();
