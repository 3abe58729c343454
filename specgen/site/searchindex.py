"""The search index: one file per language, instruction pages as one entry each, the exact mnemonic first.

A theme's search makes one entry per section of every page and writes one index
for the whole site: on the corpus 15 MB that every page downloads, English and
Chinese hits interleaved, snippets starting with the breadcrumb. specgen makes
its pages' entries itself (:mod:`specgen.site.searchentries`) and shapes them:

* :func:`shape_entries`: an instruction page becomes a single entry: title =
  mnemonic, text = the summary section (summary sentence, signature, IDs, class,
  engine) and its normative clause IDs, tags = the mnemonic and the IDs
  (Material's ``tags`` field, boost 10⁶, so an ID or a mnemonic typed in full
  finds its page before any prose that mentions it). A document boost that falls
  with the mnemonic's length puts ``TMUL`` before ``TMULS`` for the query ``TMUL``
  (Material appends a wildcard to every term, so both match equally otherwise).
  Other generated pages drop their breadcrumb/language-switch text.
* :func:`split_index` (:mod:`specgen.site.sitesearch` writes the index with it):
  ``search/search_index.json`` keeps the main language's pages and the
  hand-written ones, ``<lang>/search/search_index.json`` gets each other
  language's pages (with ``lang`` set for its segmentation), plus one entry per
  ASL definition (name → its line); a page loads only its own language's file,
  and only once its search box is used (:data:`LAZY_INDEX`). Locations stay
  relative to the site root, which is what Material resolves them against (its
  ``base``).
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any, Iterable

from ..render.plan import Search
from ..render.symbols import SYMBOLS

# an ID: upper-case words joined by hyphens (PTO-TILE-TMUL, PTO-TMUL-CONTRACT-001)
_ID = re.compile(r"<code>([A-Z][A-Z0-9]*(?:-[A-Z0-9.]+)+)</code>")
_CLAUSE = re.compile(r"([A-Z][A-Z0-9]*(?:-[A-Z0-9]+){2,})\u00b6")
_CRUMBS = re.compile(r"^\s*<ol>.*?</ol>\s*", re.S)
# the separator for lunr: whitespace and punctuation, but not '-' or '.', so an ID or a
# version is one token (material's default splits on '-', and PTO-TILE-TMUL matched 2,000 entries)
SEPARATOR = r'[\s\u200b_,:;!=\[\]()"`/<>]+|\.(?!\d)|&[lg]t;'
# material's lunr language per language directory (Chinese also tokenises English words)
LUNR_LANG: dict[str, list[str]] = {"en": ["en"], "zh": ["en", "zh"]}


def mnemonic_boost(mnemonic: str) -> float:
    """Falls by 3 % per character, so of the mnemonics a typed prefix matches the shortest (the exact one) wins."""
    return round(2.0 * 0.97 ** len(mnemonic), 4)


def _ids(text: str) -> list[str]:
    seen: list[str] = []
    for m in _ID.finditer(text):
        if m.group(1) not in seen:
            seen.append(m.group(1))
    return seen


_FIRST_P = re.compile(r"<p>.*?</p>", re.S)
# a labelled cell or a term of a description list with plain words (no code): what the page calls a thing
_LABEL = re.compile(r"<(?:td data-label=\"[^\"]*\"|dt)>([^<>]{1,30})</(?:td|dt)>")


def instruction_entry(url: str, title: str, entries: list[dict[str, Any]], extra_tags: Iterable[str] = (),
                      extra_labels: Iterable[str] = (), does: dict[str, int] | None = None) -> dict[str, Any]:
    """The one entry of an instruction page: its summary (snippet), the first paragraph of its semantics
    (the page's own language: the generated sentences, what a Chinese word finds on the zh site), the
    page's labels (``extra_labels``, :func:`page_labels`: 填充值 on the zh TMUL page), IDs and clause IDs; tags: the mnemonic, IDs, clause IDs and the unit's path;
    ``does``: the words the tree declares about it with their weights (:func:`page_does`), which the site
    script ranks instructions by (not searched: no field of the index)."""
    by_anchor = {str(e.get("location", "")).partition("#")[2]: e for e in entries}
    summary = str(by_anchor.get("summary", {}).get("text", ""))
    lead = _FIRST_P.search(str(by_anchor.get("semantics", {}).get("text", "")))
    clauses = _CLAUSE.findall(str(by_anchor.get("ndf", {}).get("text", "")))
    ids = _ids(summary)
    labels = list(extra_labels)
    text = summary + (lead.group(0) if lead else "") + (f"<p>{' '.join(clauses)}</p>" if clauses else "") + \
        (f"<p>{' · '.join(labels)}</p>" if labels else "")
    tags = [title, *ids]
    for extra in [*clauses, *extra_tags]:
        if extra not in tags:
            tags.append(extra)
    entry = {"location": url, "title": title, "text": text, "tags": tags,
             "boost": mnemonic_boost(title), "kind": "instruction"}
    if does:
        entry["does"] = dict(does)
    return entry


def ids_entry(url: str, entries: list[dict[str, Any]], extra_tags: Iterable[str] = ()) -> dict[str, Any]:
    """The one entry of a page searched by its IDs only (a unit's tests): its title, and each section
    heading (a test's ID) as a tag, so the ID typed in full finds the page; no text, so the page's many
    values and listings cost the index nothing."""
    title = _page_title(entries)
    tags: list[str] = []
    for e in entries:
        if "#" in str(e.get("location", "")):
            heading = re.sub(r"<[^>]+>", "", str(e.get("title", ""))).strip()
            if heading and heading not in tags:
                tags.append(heading)
    for extra in extra_tags:
        if extra not in tags:
            tags.append(extra)
    return {"location": url, "title": title, "text": "", "tags": tags}


def shape_entries(entries: list[dict[str, Any]], shapes: dict[str, Search],
                  tags: dict[str, list[str]] | None = None,
                  labels: dict[str, list[str]] | None = None,
                  does: dict[str, dict[str, int]] | None = None) -> list[dict[str, Any]]:
    """Entries as the site searches them; ``shapes`` maps a generated page's site URL to the search shape
    its kind declares, ``tags`` to the IDs and path its page answers to exactly (its unit's path, an
    ADR's ID; the site script puts a hit whose tag is the query first). Pages of an excluded kind are
    dropped (material honours ``search.exclude`` itself, mkdocs' own search does not)."""
    tags = tags or {}
    labels = labels or {}
    does = does or {}
    out: list[dict[str, Any]] = []
    grouped: dict[str, list[dict[str, Any]]] = {}
    order: list[str] = []
    for e in entries:
        page = str(e.get("location", "")).partition("#")[0]
        shape = shapes.get(page)
        if shape is Search.EXCLUDED:
            continue
        if shape is Search.ONE_ENTRY or shape is Search.IDS:
            if page not in grouped:
                grouped[page] = []
                order.append(page)
                out.append({"location": page})  # placeholder, filled below in place
            grouped[page].append(e)
            continue
        if shape is not None and "#" not in str(e.get("location", "")):
            e = dict(e, text=_CRUMBS.sub("", str(e.get("text", ""))))  # no breadcrumb as the snippet
            if tags.get(page):
                e["tags"] = list(tags[page])
        out.append(e)
    shaped = {p: instruction_entry(p, _page_title(grouped[p]), grouped[p], tags.get(p, ()), labels.get(p, ()),
                                   does.get(p))
              if shapes.get(p) is Search.ONE_ENTRY else ids_entry(p, grouped[p]) for p in order}
    return [shaped.get(e["location"], e) if len(e) == 1 else e for e in out]


_TAG_ID = re.compile(r"<code>([A-Z][A-Z0-9]*(?:-[A-Z0-9.]+)+)</code>")
# a unit's path; an instruction page writes its own as <code class="sg-path">
_TAG_PATH = re.compile(r"<code(?: class=\"sg-path\")?>([\w.-]+(?:/[\w.-]+)+\.asl)</code>")
_TITLE_ID = re.compile(r"^([A-Z][A-Z0-9]*-[0-9A-Z][A-Z0-9-]*)\b")


def _page_title(entries: list[dict[str, Any]]) -> str:
    first = next((e for e in entries if "#" not in str(e.get("location", ""))), entries[0])
    return str(first.get("title", ""))


def page_labels(content: str, limit: int = 16) -> list[str]:
    """The page's own words for what it shows, in its language (an operand's meaning 填充值, a worked
    example's labels), once each: what a reader who saw them on the page searches for."""
    out: list[str] = []
    for m in _LABEL.finditer(content):  # as HTML text, its characters themselves (a body may hold references)
        word = html.escape(html.unescape(m.group(1)).strip(), quote=False)
        if word and word not in out and not word.isdigit():
            out.append(word)
            if len(out) >= limit:
                break
    return out


_DOES = re.compile(r'data-sg-does="([^"]*)"')


def page_does(content: str) -> dict[str, int]:
    """The words an instruction page declares it is about, with their weights (``data-sg-does="乘法:2 …"``,
    written by the instruction template from :func:`specgen.render.instr_prose.declared_words`)."""
    m = _DOES.search(content)
    out: dict[str, int] = {}
    for item in (html.unescape(m.group(1)).split() if m else []):
        word, _, n = item.rpartition(":")
        if word and n.isdigit():
            out[word] = int(n)
    return out


def page_tags(title: str, content: str) -> list[str]:
    """What a generated page answers to exactly: the ID its title starts with (``ADR-0080``); else the first
    ASL path and the first ID its opening states (a unit's or an instruction's own path and ID)."""
    m = _TITLE_ID.match(title)
    if m:
        return [m.group(1)]
    head = content[:6000]
    path = _TAG_PATH.search(head)
    first = _TAG_ID.search(head)
    return [x.group(1) for x in (path, first) if x is not None]


def language_of_location(location: str, langs: Iterable[str]) -> str | None:
    head = location.split("/", 1)[0]
    return head if "/" in location and head in set(langs) else None


def split_index(site_dir: Path, data: dict[str, Any], main: str, langs: list[str], separator: str | None,
                extra: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, int]:
    """Write the index ``data`` (the theme's ``config`` and every entry) as one per language, each with its
    ``extra`` entries (the ASL definitions), each in two files: ``search_index.json``, what the first
    keystroke downloads (:func:`is_first_part`), and :data:`MORE`, the rest, which the page script adds to
    the search worker's index once the first is ready; the bytes of each language's first file."""
    path = site_dir / "search" / "search_index.json"
    docs: list[dict[str, Any]] = data.get("docs", [])
    groups: dict[str, list[dict[str, Any]]] = {lang: [] for lang in langs}
    for d in docs:
        lang = language_of_location(str(d.get("location", "")), langs) or main
        groups.setdefault(lang, []).append(d)
    for lang, entries in (extra or {}).items():
        groups.setdefault(lang, []).extend(entries)
    sizes: dict[str, int] = {}
    for lang, items in groups.items():
        config = dict(data.get("config", {}), lang=LUNR_LANG.get(lang, [lang]))
        if separator:
            config["separator"] = separator
        first = [d for d in items if is_first_part(d)]
        rest = [d for d in items if not is_first_part(d)]
        target = path if lang == main else site_dir / lang / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        sizes[lang] = _write_json(target, {"config": config, "docs": first})
        _write_json(target.with_name(MORE), {"docs": rest})
    return sizes


# the rest of a language's index, which the page script fetches once the first part is searchable
MORE = "search_index.more.json"


def is_first_part(entry: dict[str, Any]) -> bool:
    """Whether an entry is in the part of the index the first keystroke downloads: each page's own entry
    (title, opening text, tags: every ID, path and mnemonic a reader types in full) and every entry with
    tags (an instruction's, a test page's); its sections and the ASL definitions come in the second part
    (on the corpus 0.58.3 the whole was 3.5 MB per language, the first part is under 1 MB)."""
    return "#" not in str(entry.get("location", "")) or bool(entry.get("tags"))


def _write_json(target: Path, value: Any) -> int:
    body = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    tmp = target.with_suffix(".json.tmp")
    tmp.write_text(body, encoding="utf-8")
    tmp.replace(target)
    return len(body.encode("utf-8"))


# material requests ``<base>/search/search_index.json`` (XMLHttpRequest) as soon as a page loads: on the
# corpus 2 MB, four fifths of a first visit, before anyone searches. This script, first in <head>, holds
# that one request until the search box is first used (focused, opened by its label or a shortcut) or
# the address asks for a search or a highlight (``?q=``, ``?h=``), then sends it; on a page of another
# language than the site's main one it also asks for ``<base>/<lang>/search/search_index.json``. Search
# needs JavaScript anyway; nothing else is touched.
#
# It also ranks what material's search worker answers, before material renders it (RANK): the worker
# scores by lunr's tf-idf, and its query lexer splits an ID on '-' (ADR-0080 -> ADR*, 0080*), so the page
# an ID names was scored like any page mentioning ADRs. The groups of hits are put in three tiers, the
# worker's order kept within each: (0) a hit whose title is the query, starts with it ("ADR-0080: …") or
# has it as a tag (an instruction's IDs and clause IDs, a unit's path, a test page's test IDs); (1) an
# instruction page that matched every term of the query (an operation word finds the instruction before
# the ADRs and documents that discuss it), by the share of its declared words' weight the query covers, then
# by that weight itself (比较: TCMP, whose summary, class and handler say it, before CAS, whose handler and
# summary do, at the same share); (2) the rest. material's worker is wrapped (window.Worker),
# its messages are kept: a query (type 2) is remembered, a result (type 3) is reordered; once the second part
# of the index is in the worker, the remembered query is asked again, so the list shown is the whole index's
# (an ASL definition's name typed at once first lists the pages that mention it, then its definition;
# ``window.__sgWhole`` says the whole index is in).
# A Chinese query is cut into the index's own words first (longest match against the jieba words the
# index's texts hold, read when the index loads): material's segmenter never matches a word that ends
# the query (its inner loop stops one character short), so 逐元素乘法 searched 逐* and 元素 but not 乘法.
LAZY_INDEX = """<script>(function(){var lang=%s,idxUrl="",X=window.XMLHttpRequest;if(!X)return;var P=X.prototype,open=P.open,send=P.send,held=[],
go=/[?&][qh]=/.test(location.search);P.open=function(m,u){var s=String(u);if(/\\/search\\/search_index\\.json$/.test(s)){this.__sgIndex=1;
if(lang&&s.indexOf("/"+lang+"/search/")<0){arguments[1]=s.replace(/search\\/search_index\\.json$/,lang+"/search/search_index.json");}idxUrl=arguments[1];}
return open.apply(this,arguments);};P.send=function(){if(this.__sgIndex){if(!go){held.push([this,arguments]);return;}}return send.apply(this,arguments);};
function use(){if(go)return;go=true;held.splice(0).forEach(function(h){send.apply(h[0],h[1]);});}
document.addEventListener("focusin",function(e){var t=e.target;if(t&&t.matches&&t.matches("input.md-search__input"))use();},true);
document.addEventListener("change",function(e){var t=e.target;if(t&&t.id==="__search"&&t.checked)use();},true);
document.addEventListener("pointerdown",function(e){var t=e.target;if(t&&t.closest&&t.closest("label[for=__search],.md-search"))use();},true);
%s})();</script>"""

# the ranking of the worker's answer (see above); ``window.__sgRank`` is the function, for the browser tests
RANK = """var W=window.Worker;function norm(s){return String(s||"").replace(/<[^>]*>/g,"").replace(/\\s+/g," ").trim().toLowerCase();}
function tier(q,g){var best=2;for(var i=0;i<g.length;i++){var it=g[i],t=norm(it.title),c=t.charAt(q.length);
if(t===q||(t.indexOf(q)===0&&/[\\s:\\uff1a(]/.test(c)))return 0;var tags=it.tags||[];for(var j=0;j<tags.length;j++){if(norm(tags[j])===q)return 0;}
if(it.kind==="instruction"){var ks=Object.keys(it.terms||{});if(ks.length&&ks.every(function(k){return it.terms[k];}))best=1;}}return best;}
function cover(terms,g){var d=g[0]&&g[0].does;if(!d)return[0,0];var all=0,hit=0;for(var w in d){all+=d[w];
for(var k=0;k<terms.length;k++){if(terms[k]&&w.toLowerCase().indexOf(terms[k])===0){hit+=d[w];break;}}}return all?[hit/all,hit]:[0,0];}
function rank(query,groups){var q=norm(query);if(!q||!groups||!groups.map)return groups;var terms=norm(seg(query)).split(" ");
return groups.map(function(g,i){var t=tier(q,g),c=t===1?cover(terms,g):[0,0];return[t,-c[0],-c[1],i,g];})
.sort(function(a,b){return a[0]-b[0]||a[1]-b[1]||a[2]-b[2]||a[3]-b[3];}).map(function(x){return x[4];});}
var dict=null;function words(idx){var d={},han=/[\\u3400-\\u9fff]+/g,docs=(idx&&idx.docs)||[];for(var i=0;i<docs.length;i++){var m=String(docs[i].text||"").match(han)||[];
for(var j=0;j<m.length;j++)d[m[j]]=1;}if(docs.length)dict=d;}
function seg(query){if(!dict)return query;return query.replace(/[\\u3400-\\u9fff]{2,}/g,function(run){var out=[],rest="",i=0;while(i<run.length){var n=Math.min(8,run.length-i);
while(n>0&&!dict[run.substr(i,n)])n--;if(!n){rest+=run.charAt(i);i+=1;continue;}if(rest){out.push(rest);rest="";}out.push(run.substr(i,n));i+=n;}
if(rest)out.push(rest);return out.join(" ");});}
window.__sgRank=rank;window.__sgSeg=seg;if(W){var R=function(u,o){var w=new W(u,o),q="",post=w.postMessage,add=w.addEventListener,setup=null,readies=0;
function more(){if(!setup||!window.fetch||!idxUrl)return;var s=setup;setup=null;fetch(idxUrl.replace(/\\.json$/,".more.json")).then(function(r){if(!r.ok)throw r.status;return r.json();})
.then(function(x){var docs=(x&&x.docs)||[];if(!docs.length)return;var all=s.docs.concat(docs);words({docs:all});post.call(w,{type:0,data:{config:s.config,docs:all,options:s.options}});}).catch(function(){});}
w.postMessage=function(m){if(m&&m.type===0&&m.data&&!readies){setup=m.data;words(m.data);}
if(m&&m.type===2){q=String(m.data||"");m={type:2,data:seg(q)};return post.call(w,m);}return post.apply(w,arguments);};
w.addEventListener=function(type,fn,opt){if(type==="message"&&typeof fn==="function"){var f=fn;fn=function(e){var d=e&&e.data;
if(d&&d.type===1){readies+=1;if(readies>1){window.__sgWhole=true;if(q)post.call(w,{type:2,data:seg(q)});return;}more();}
if(d&&d.type===3&&d.data&&d.data.items){try{var r={};for(var k in d.data)r[k]=d.data[k];r.items=rank(q,d.data.items);window.__sgLast={query:q,items:r.items};
return f.call(this,{data:{type:3,data:r}});}catch(x){}}return f.apply(this,arguments);};}return add.call(w,type,fn,opt);};return w;};
R.prototype=W.prototype;window.Worker=R;}"""


def lazy_index(output: str, lang: str | None) -> str:
    """Insert :data:`LAZY_INDEX` right after ``<head>`` (``lang``: the language whose index a page of
    another language than the main one loads; a page without ``<head>`` is left alone)."""
    i = output.find("<head>")
    if i < 0:
        return output
    i += len("<head>")
    return output[:i] + LAZY_INDEX % (json.dumps(lang), RANK) + output[i:]


def definitions(graph: Any, langs: list[str], options: Any) -> dict[str, list[dict[str, Any]]]:
    """Each language's entries for the spec's ASL definitions (name → its line; the exact name is moved
    first by the site script, like an instruction's mnemonic)."""
    from ..render.xref import definition_entries
    if graph is None:
        return {}
    return {lang: definition_entries(graph, lang, options.directory_urls, options.source_url, options.commit)
            for lang in langs}


def definitions_key(graph: Any, langs: list[str], options: Any) -> str:
    """Digest of what :func:`definitions` lists: each definition's name, kind, place and signature, in each
    language, with the link options (``options.key()``)."""
    h = hashlib.blake2b("|".join([*langs, options.key()]).encode(), digest_size=16)
    for name, ds in sorted(SYMBOLS(graph).defs.items()):
        for d in ds:
            h.update(f"{name}\0{d.kind}\0{d.path}\0{d.line}\0{d.signature}\n".encode())
    return h.hexdigest()


def separator_of(config: Any) -> str:
    """The separator ``mkdocs.yml`` gives the search plugin, else :data:`SEPARATOR`."""
    from mkdocs.utils import yaml_load

    try:
        with open(config.config_file_path, encoding="utf-8") as f:
            raw = yaml_load(f) or {}
    except (OSError, TypeError, ValueError):
        return SEPARATOR
    plugins = raw.get("plugins") if isinstance(raw, dict) else None
    items = plugins.items() if isinstance(plugins, dict) else \
        [next(iter(x.items())) for x in plugins or [] if isinstance(x, dict) and len(x) == 1]
    for name, value in items:
        if name in ("search", "material/search") and isinstance(value, dict) and value.get("separator"):
            return str(value["separator"])
    return SEPARATOR
