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
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
  if (window.document$ && window.document$.subscribe) { window.document$.subscribe(setup); }
})();
