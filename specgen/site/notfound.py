"""404 pages that work under any sub-path: a small ``404.html`` wherever a host may look, and a real page per language.

A host answers an address the site lacks with a ``404.html``, served at the
address asked for, at any depth (GitHub Pages: the site root's; Cloudflare
Pages and others: the nearest one up the path). A page with relative URLs (or
mkdocs' own, with root-absolute ``/assets/…``) breaks there: unstyled, failed
requests. So every ``404.html`` of the site (the site root's, each release
root's, each language directory's) is a small document that loads nothing: one
script reads the address asked for, finds the site root in it (the segment that
is a release name on a multi-release site, else a language directory; an
address with neither, ``/docs/pto/nothing``, is answered by asking which prefix
of it holds the site, longest first, then ``site_url``'s path or ``/``) and
sends the reader to ``<root>/<release>/<lang>/not-found.html?from=<address>``:
the generated page of that language and release
(:mod:`specgen.render.kinds.notfound`), an ordinary page at its own address, so
styled like every other. Its script shows the address asked for and makes the
search link search for the missing page's name. Without JavaScript the small
document says "page not found" in the site's languages and links the home page
under ``site_url`` (or ``/``).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

NAME = "404.html"
PAGE = "not-found.html"  # the generated page of each language (render.kinds.notfound)

BOOT = """<!doctype html>
<html><head><meta charset="utf-8"><meta name="robots" content="noindex">
<meta name="description" content="%(title)s"><title>%(title)s</title>
<script>(function(){var D=%(data)s;var p=location.pathname.split("/"),root=null,rel=D.release,lang=D.lang,i;
for(i=1;i<p.length-1;i++){if(D.releases.length){if(D.releases.indexOf(p[i])>=0){root=p.slice(0,i).join("/")+"/";rel=p[i];
if(i+1<p.length-1&&D.langs.indexOf(p[i+1])>=0)lang=p[i+1];break;}}else if(D.langs.indexOf(p[i])>=0){root=p.slice(0,i).join("/")+"/";lang=p[i];break;}}
var tail=(rel?rel+"/":"")+lang+"/"+D.page;function go(r){location.replace(r+tail+"?from="+encodeURIComponent(location.pathname));}
if(root!==null){go(root);return;}var c=[];for(i=p.length-1;i>0;i--)c.push(p.slice(0,i).join("/")+"/");
if(c.indexOf(D.fallback)<0)c.push(D.fallback);
(function next(){var r=c.shift();if(r===undefined)return;fetch(r+tail,{method:"HEAD"}).then(function(x){if(x.ok)go(r);else next();},next);})();})();</script>
</head><body style="font-family:system-ui,sans-serif;margin:2rem"><noscript>%(noscript)s</noscript></body></html>
"""

# At the end of the page's <body>: the address asked for, and the search link with the missing page's name.
FILL = """<script>(function(){var from=new URLSearchParams(location.search).get("from");if(!from)return;
var code=document.getElementById("sg-notfound-path");if(code){code.textContent=decodeURI(from);code.parentElement.hidden=false;}
var a=document.getElementById("sg-notfound-search");var stem=decodeURIComponent((from.split("/").pop()||"")
.replace(/\\.html?$/,"").replace(/[-_]+/g," ")).trim();if(a&&stem&&stem!=="index"&&stem!=="404"){
a.href=a.getAttribute("href")+"?q="+encodeURIComponent(stem);a.textContent=(a.getAttribute("data-label")||"{query}").replace("{query}",stem);}})();</script>"""


def fallback_root(site_url: str | None) -> str:
    """The root path when the address names no language or release: ``site_url``'s, else ``/``."""
    path = urlsplit(site_url or "").path or "/"
    return path if path.endswith("/") else path + "/"


def _title(page: str) -> str:
    m = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1))).strip() if m else "404"


def boot(langs: list[str], lang: str, releases: list[str], release: str, root: str,
         titles: dict[str, str]) -> str:
    """The small ``404.html``: no resource to load, one script that sends the reader to the right page."""
    data = json.dumps({"langs": langs, "lang": lang, "releases": releases, "release": release, "fallback": root,
                       "page": PAGE}, separators=(",", ":"))
    home = html.escape(root + (f"{release}/" if release else "") + f"{lang}/index.html", quote=True)
    noscript = " · ".join(f'<a href="{home}">{html.escape(titles.get(x, "404"))}</a>' for x in langs)
    return BOOT % {"title": html.escape(" / ".join(titles.get(x, "404") for x in langs)), "data": data,
                   "noscript": noscript}


def place(site_dir: Path, langs: list[str], releases: list[str], release: str, site_url: str | None) -> list[Path]:
    """Give each language's page its script and write the small ``404.html`` of each language directory and
    of the release root (replacing mkdocs' own); the files written."""
    root = fallback_root(site_url)
    titles: dict[str, str] = {}
    written: list[Path] = []
    for lang in langs:
        path = site_dir / lang / PAGE
        if not path.is_file():
            continue
        page = path.read_text(encoding="utf-8")
        titles[lang] = _title(page)
        j = page.rfind("</body>")
        path.write_text(page[:j] + FILL + page[j:] if j >= 0 else page + FILL, encoding="utf-8")
        written.append(path)
    if not titles:
        return written
    for lang in titles:
        (site_dir / lang / NAME).write_text(boot(langs, lang, releases, release, root, titles), encoding="utf-8")
        written.append(site_dir / lang / NAME)
    (site_dir / NAME).write_text(boot(langs, langs[0], releases, release, root, titles), encoding="utf-8")
    written.append(site_dir / NAME)
    return written
