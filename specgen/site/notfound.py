"""404 pages that work under any sub-path: each language's page, the release root's and the site root's.

A host serves ``404.html`` for an address the site lacks, at whatever depth the
reader asked for (GitHub Pages: the site root's; Cloudflare Pages and others:
the nearest one up the path), and mkdocs writes its own with root-absolute
asset URLs (``/assets/…``): unstyled under a sub-path. So every 404 of the site
is the generated page of its language (:mod:`specgen.render.kinds.notfound`,
relative URLs like any page) with one script first in ``<head>`` that reads the
address asked for, finds the site root in it (the segment that is a release
name on a multi-release site, else a language directory) and writes a
``<base href>`` there before any URL of the page is read; a second one, before
material's bundle, makes material's own base absolute the same way. When the
address lies in another language or release than the page's, the page is
replaced by that one's 404 (same address, right language). A site whose
address has neither (``/nonsense``) takes the root from ``site_url``, else ``/``.

Without JavaScript the page still says where to go; its links then resolve
against the address asked for (right when the host serves the nearest 404).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

NAME = "404.html"

# First in <head>: find the root in the address asked for. Where it lies in this page's language and release,
# write a <base href> there before any URL of the page is read. Where it lies in another language or release,
# or names neither (``/docs/pto/nothing``: the root is then found by asking which prefix of the address has
# this page), stop the parser (``<plaintext>``: nothing of this page loads) and replace the address with the
# right 404 page, carrying the address asked for in ``?from=``.
BASE = """<script>(function(){var D=%s;var from=new URLSearchParams(location.search).get("from");
var p=location.pathname.split("/"),root=null,rel=D.release,lang=D.lang,i;
for(i=1;i<p.length-1;i++){if(D.releases.length){if(D.releases.indexOf(p[i])>=0){root=p.slice(0,i).join("/")+"/";rel=p[i];
if(i+1<p.length-1&&D.langs.indexOf(p[i+1])>=0)lang=p[i+1];break;}}else if(D.langs.indexOf(p[i])>=0){root=p.slice(0,i).join("/")+"/";lang=p[i];break;}}
var tail=(rel?rel+"/":"")+lang+"/";function go(r){location.replace(r+tail+"404.html?from="+encodeURIComponent(from||location.pathname));}
if(root!==null&&lang===D.lang&&rel===D.release){window.__sgNotFound={from:from||location.pathname};
document.write('<base href="'+(root+tail).replace(/"/g,"%%22")+'">');return;}
document.write("<plaintext hidden>");if(root!==null){go(root);return;}
var c=[];for(i=p.length-1;i>0;i--)c.push(p.slice(0,i).join("/")+"/");if(c.indexOf(D.fallback)<0)c.push(D.fallback);
(function next(){var r=c.shift();if(r===undefined){document.documentElement.textContent=D.title;return;}
fetch(r+tail+"404.html",{method:"HEAD"}).then(function(x){if(x.ok)go(r);else next();},next);})();})();</script>"""

# Before material's bundle: its base is resolved against the address, not <base>; make it absolute.
CONFIG = """<script>(function(){var c=document.getElementById("__config");if(!c)return;var j=JSON.parse(c.textContent);
j.base=new URL(j.base,document.baseURI).href;c.textContent=JSON.stringify(j);})();</script>"""

# At the end of <body>: the address asked for, and the search link with the missing page's name as its query.
FILL = """<script>(function(){var s=window.__sgNotFound;if(!s)return;var code=document.getElementById("sg-notfound-path");
if(code){code.textContent=decodeURI(s.from);code.parentElement.hidden=false;}var a=document.getElementById("sg-notfound-search");
var stem=decodeURIComponent((s.from.split("/").pop()||"").replace(/\\.html?$/,"").replace(/[-_]+/g," ")).trim();
if(a&&stem&&stem!=="index"&&stem!=="404"){a.href=a.getAttribute("href")+"?q="+encodeURIComponent(stem);
a.textContent=(a.getAttribute("data-label")||"{query}").replace("{query}",stem);}})();</script>"""

_BUNDLE = re.compile(r'<script src="[^"]*assets/javascripts/bundle\.[^"]*"')


def fallback_root(site_url: str | None) -> str:
    """The root path when the address names no language or release: ``site_url``'s, else ``/``."""
    path = urlsplit(site_url or "").path or "/"
    return path if path.endswith("/") else path + "/"


def with_scripts(page: str, langs: list[str], lang: str, releases: list[str], release: str, root: str) -> str:
    """The language's generated 404 with its base, config and fill scripts."""
    title = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)
    data = json.dumps({"langs": langs, "lang": lang, "releases": releases, "release": release, "fallback": root,
                       "title": re.sub(r"<[^>]+>", "", title.group(1)).strip() if title else "404"},
                      separators=(",", ":"), ensure_ascii=False)
    i = page.find("<head>")
    if i < 0:
        return page
    i += len("<head>")
    page = page[:i] + BASE % data + page[i:]
    m = _BUNDLE.search(page)
    if m is not None:
        page = page[:m.start()] + CONFIG + page[m.start():]
    j = page.rfind("</body>")
    return page[:j] + FILL + page[j:] if j >= 0 else page + FILL


def place(site_dir: Path, langs: list[str], releases: list[str], release: str, site_url: str | None) -> list[Path]:
    """Give each language's ``<lang>/404.html`` its scripts and make the main language's the release
    root's ``404.html`` (replacing mkdocs' own); the files written."""
    written: list[Path] = []
    root = fallback_root(site_url)
    for lang in langs:
        path = site_dir / lang / NAME
        if not path.is_file():
            continue
        page = with_scripts(path.read_text(encoding="utf-8"), langs, lang, releases, release, root)
        path.write_text(page, encoding="utf-8")
        written.append(path)
        if lang == langs[0]:
            # at the root, its relative URLs still resolve: the <base> points into <lang>/
            (site_dir / NAME).write_text(page, encoding="utf-8")
            written.append(site_dir / NAME)
    return written
