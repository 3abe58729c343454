/* specgen listings: progressive enhancement only (every listing is complete without this file).
   - #<anchor>-<a>:<b> (e.g. #L-12:18) marks lines a..b of the listing whose lines are <anchor>-<n>;
     #<anchor>-<n> is marked by CSS :target already; both open a closed <details> holding the line.
   - clicking a line number puts that line in the address bar; shift-click extends it to a range. */
(function () {
  "use strict";
  var RANGE = /^(.*)-(\d+)(?::(\d+))?$/;
  function lineOf(id) { return id ? document.getElementById(id) : null; }
  function clear() {
    Array.prototype.forEach.call(document.querySelectorAll(".sg-asl .ln.sg-hl"), function (el) {
      el.classList.remove("sg-hl");
    });
  }
  function reveal(el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      if (p.tagName === "DETAILS" && !p.open) { p.open = true; }
    }
  }
  function mark() {
    var hash = decodeURIComponent(window.location.hash.slice(1));
    var m = RANGE.exec(hash);
    clear();
    if (!m) { return; }
    var first = lineOf(m[1] + "-" + m[2]);
    if (!first || !first.classList.contains("ln") || !first.closest(".sg-asl")) { return; }
    var a = parseInt(m[2], 10), b = m[3] ? parseInt(m[3], 10) : a;
    if (b < a) { var t = a; a = b; b = t; first = lineOf(m[1] + "-" + a) || first; }
    if (m[3]) {
      for (var n = a; n <= b; n += 1) {
        var el = lineOf(m[1] + "-" + n);
        if (el) { el.classList.add("sg-hl"); }
      }
    }
    var hidden = first.closest("details:not([open])");
    reveal(first);
    if (m[3] || hidden) { first.scrollIntoView({ block: "start" }); }
  }
  function gutterClick(ev) {
    var line = ev.target;
    if (!(line instanceof Element) || !line.classList.contains("ln") || !line.id || !line.closest(".sg-asl")) { return; }
    var gutter = parseFloat(window.getComputedStyle(line, "::before").width) || 0;
    var code = line.closest("code");
    var left = code.getBoundingClientRect().left + (parseFloat(window.getComputedStyle(code).paddingLeft) || 0);
    if (ev.clientX > Math.max(left, line.getBoundingClientRect().left) + gutter) { return; }
    var m = RANGE.exec(line.id);
    if (!m) { return; }
    var target = line.id;
    var cur = RANGE.exec(decodeURIComponent(window.location.hash.slice(1)));
    if (ev.shiftKey && cur && cur[1] === m[1] && lineOf(cur[1] + "-" + cur[2])) {
      var a = parseInt(cur[2], 10), b = parseInt(m[2], 10);
      target = m[1] + "-" + Math.min(a, b) + ":" + Math.max(a, b);
      history.replaceState(null, "", "#" + target);
      mark();
    } else {
      window.location.hash = target;
    }
  }
  function setup() {
    if (!document.body || document.body.dataset.sgCode) { mark(); return; }
    document.body.dataset.sgCode = "1";
    document.addEventListener("click", gutterClick);
    window.addEventListener("hashchange", mark);
    mark();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
  if (window.document$ && window.document$.subscribe) { window.document$.subscribe(setup); }
})();
