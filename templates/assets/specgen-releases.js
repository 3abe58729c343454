/* A multi-release site only: switching release in material's version selector keeps the page.
 *
 * Material goes to the same page of the other release only when every sitemap carries absolute
 * URLs (a configured site_url); without one it lands on that release's home. Here a switch asks
 * the other release for the same path (HEAD) and goes there when it exists; otherwise it walks up
 * the path and lands on the nearest directory index that release has (else its home), and the
 * page it lands on says which page was missing (p.sg-release-notice, its sentence from the page's
 * language catalog). Runs in the capture phase, before material's own handler on <body>.
 */
(function () {
  "use strict";
  var KEY = "specgen-release-missing";
  function releaseRoot() {
    var el = document.getElementById("__config");
    var base = el ? JSON.parse(el.textContent).base : ".";
    return new URL(base.replace(/\/?$/, "/"), window.location.href);
  }
  function exists(url) {
    return fetch(url, { method: "HEAD" }).then(function (r) { return r.ok; }, function () { return false; });
  }
  // candidates after the page itself: <dir>/index.html up to the release root
  function candidates(rest) {
    var parts = rest.split("/");
    var out = [];
    for (var i = parts.length - 1; i > 0; i -= 1) { out.push(parts.slice(0, i).join("/") + "/index.html"); }
    return out.filter(function (c) { return c !== rest; });
  }
  function firstExisting(target, list) {
    if (!list.length) { return Promise.resolve(null); }
    var url = new URL(list[0], target).href;
    return exists(url).then(function (ok) { return ok ? url : firstExisting(target, list.slice(1)); });
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
    if (!rest) { window.location.href = target.href; return; }
    var same = new URL(rest, target);
    exists(same.href).then(function (ok) {
      if (ok) { window.location.href = same.href + window.location.hash; return; }
      var title = document.getElementById("page-title");
      var name = (title ? title.textContent : "").trim() || rest;
      var release = (a.textContent || "").trim();
      firstExisting(target, candidates(rest)).then(function (url) {
        try { sessionStorage.setItem(KEY, JSON.stringify({ page: name, release: release })); } catch (e) { /* private mode */ }
        window.location.href = url || target.href;
      });
    });
  }, true);
  function notice() {
    var raw = null;
    try { raw = sessionStorage.getItem(KEY); sessionStorage.removeItem(KEY); } catch (e) { return; }
    var box = document.querySelector(".sg-release-notice");
    if (!raw || !box) { return; }
    var info = JSON.parse(raw);
    box.textContent = (box.getAttribute("data-template") || "{page}")
      .replace("{page}", info.page).replace("{release}", info.release) + " ";
    var close = document.createElement("button");
    close.type = "button";
    close.className = "sg-dismiss";
    close.textContent = box.getAttribute("data-dismiss") || "×";
    close.addEventListener("click", function () { box.hidden = true; });
    box.appendChild(close);
    box.hidden = false;
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", notice); } else { notice(); }
})();
