/* specgen: the language switch keeps the reader's place.
 *
 * #lang-switch is a plain link to the same page in the other language (complete without
 * JavaScript); here it also carries the #anchor the reader is at, so switching on a section
 * or a clause lands on the same section or clause. Re-run on material's instant navigation.
 */
(function () {
  "use strict";
  function carry(ev) {
    var a = ev.currentTarget;
    var base = a.getAttribute("href").split("#")[0];
    if (window.location.hash) { a.setAttribute("href", base + window.location.hash); }
  }
  function setup() {
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
