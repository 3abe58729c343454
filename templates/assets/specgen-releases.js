/* A multi-release site only: switching release in material's version selector keeps the page.
 *
 * Material goes to the same page of the other release only when every sitemap carries absolute
 * URLs (a configured site_url); without one it lands on that release's home. Here a switch asks
 * the other release for the same path and goes there when it exists, else to that release's home.
 * Runs in the capture phase, before material's own handler on <body>.
 */
(function () {
  "use strict";
  function releaseRoot() {
    var el = document.getElementById("__config");
    var base = el ? JSON.parse(el.textContent).base : ".";
    return new URL(base.replace(/\/?$/, "/"), window.location.href);
  }
  document.addEventListener("click", function (ev) {
    if (ev.metaKey || ev.ctrlKey || ev.shiftKey || !(ev.target instanceof Element)) return;
    var a = ev.target.closest(".md-version a");
    if (!a || a.target) return;
    var here = releaseRoot();
    var target = new URL(a.href);                 // <site>/<release>/
    var rest = window.location.href.startsWith(here.href) ? window.location.pathname.slice(here.pathname.length) : "";
    ev.preventDefault();
    ev.stopPropagation();
    var same = new URL(rest, target);
    if (!rest) { window.location.href = target.href; return; }
    fetch(same.href, { method: "HEAD" }).then(function (r) {
      window.location.href = r.ok ? same.href + window.location.hash : target.href;
    }, function () { window.location.href = target.href; });
  }, true);
})();
