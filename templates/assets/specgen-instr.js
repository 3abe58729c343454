/* specgen instruction page: copy buttons (progressive enhancement; every value is also selectable text). */
(function () {
  "use strict";
  function textOf(button) {
    var target = button.getAttribute("data-copy-target");
    if (!target) { return button.getAttribute("data-copy") || ""; }
    var el = document.getElementById(target);
    if (!el) { return ""; }
    if (!el.matches("code")) { el = el.querySelector("pre code") || el; }
    // a listing line is one element whose number is a CSS counter, so its text is the source alone
    return el.textContent.replace(/\n$/, "");
  }
  function fallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } finally { area.remove(); }
  }
  function copy(button) {
    var text = textOf(button);
    var done = function () {
      var label = button.textContent;
      button.textContent = button.getAttribute("data-done") || label;
      button.setAttribute("data-copied", text);
      setTimeout(function () { button.textContent = label; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { fallback(text); done(); });
    } else {
      fallback(text);
      done();
    }
  }
  function setup() {
    Array.prototype.forEach.call(document.querySelectorAll("button.sg-copy"), function (b) {
      if (b.dataset.sgReady) { return; }
      b.dataset.sgReady = "1";
      b.hidden = false;
      b.addEventListener("click", function () { copy(b); });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
  if (window.document$ && window.document$.subscribe) { window.document$.subscribe(setup); }
})();
