/* specgen: the language switch keeps the reader's place; an exact mnemonic or ID is the first hit.
 *
 * #lang-switch is a plain link to the same page in the other language (complete without
 * JavaScript); here it also carries the #anchor the reader is at, so switching on a section
 * or a clause lands on the same section or clause. Re-run on material's instant navigation.
 *
 * Search: material appends a wildcard to every query term, so "TMUL" also matches TMULS, and
 * lunr's idf (counted over all fields) favours the mnemonic that prose mentions less. An
 * instruction's entry carries its mnemonic and IDs as tags (specgen.site.searchindex), an ASL
 * definition's entry its name as title (shown under the page that holds its line); when a rendered
 * hit's title, a title inside it or one of its tags is exactly the query, it is moved to the top.
 */
(function () {
  "use strict";
  function carry(ev) {
    var a = ev.currentTarget;
    var base = a.getAttribute("href").split("#")[0];
    if (window.location.hash) { a.setAttribute("href", base + window.location.hash); }
  }
  function exactFirst(list, input) {
    var q = (input.value || "").trim().toLowerCase();
    if (!q) { return; }
    var items = list.children;
    for (var i = 0; i < items.length; i += 1) {
      var li = items[i];
      var names = Array.prototype.map.call(li.querySelectorAll("article > h1, article > h2, .md-tag"),
        function (el) { return (el.textContent || "").trim().toLowerCase(); });
      if (names.indexOf(q) !== -1) {
        if (i > 0) { list.insertBefore(li, list.firstElementChild); }
        return;
      }
    }
  }
  function setupSearch() {
    var list = document.querySelector(".md-search-result__list");
    var input = document.querySelector("input.md-search__input");
    if (!list || !input || list.dataset.sgExact || !window.MutationObserver) { return; }
    list.dataset.sgExact = "1";
    new MutationObserver(function () { exactFirst(list, input); }).observe(list, { childList: true });
  }
  function setup() {
    setupSearch();
    var a = document.getElementById("lang-switch");
    if (!a || a.dataset.sgCarry) { return; }
    a.dataset.sgCarry = "1";
    a.addEventListener("click", carry);
    a.addEventListener("auxclick", carry);
    a.addEventListener("focus", carry);
    a.addEventListener("mouseenter", carry);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
  if (window.document$ && window.document$.subscribe) { window.document$.subscribe(setup); }
})();
