"""The site wing's shape: the plugin sits on top, serve keeps its own state, nothing imports back up."""

from __future__ import annotations

import ast
from pathlib import Path

SITE = Path(__file__).resolve().parent.parent / "specgen" / "site"


def _imports(module: str) -> set[str]:
    """Sibling modules of ``specgen/site/`` that ``module`` imports, at any depth of its code."""
    out: set[str] = set()
    for node in ast.walk(ast.parse((SITE / f"{module}.py").read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out |= {node.module} if node.module else {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("specgen.site."):
            out.add(node.module.rsplit(".", 1)[1])
    return out


def test_site_modules_import_one_way_only() -> None:
    assert _imports("engine") == {"mkdocs_engine"}
    assert _imports("mkdocs_engine") == set()  # the adapter: MkDocs' private names, nothing of specgen
    assert _imports("inputs") == {"engine"}
    assert _imports("prepare") == {"stats"}
    assert _imports("budget") == set()
    assert _imports("build") == {"budget", "engine", "guard", "inputs", "prepare", "publish", "releases", "stats"}
    assert _imports("guard") == {"releases"}
    assert _imports("publish") == set()
    assert _imports("releases") == {"inputs"}
    assert _imports("serve") == {"engine", "inputs", "liveresults", "pagestate", "serveguard", "servesearch",
                                 "servestop", "servewatch", "stats"}
    assert _imports("serveguard") == set()
    assert _imports("servestop") == set()
    assert _imports("servewatch") == {"engine"}
    assert _imports("servesearch") == {"pagestate"}  # mkdocs' outputs, kept by the page digest query
    assert _imports("pagestate") == {"searchentries"}  # the pages as workspace inputs; entries are queries
    assert _imports("searchentries") == {"searchindex"}
    assert _imports("sitesearch") == {"pagestate", "searchindex"}
    assert _imports("liveresults") == {"bgpool", "bgworker"}  # the pool runs the tests; results stay here
    assert _imports("bgpool") == {"bgworker"}
    assert _imports("bgworker") == set()  # a worker process imports nothing of the site wing
    assert _imports("stored_site") == set()
    assert _imports("stats") == set()
    assert _imports("serve_server") == {"bgpool", "engine", "inputs", "mkdocs_engine", "serveguard", "servestop",
                                        "stored_site"}
    assert _imports("options") == {"budget", "language"}
    assert _imports("language") == set()
    assert _imports("searchindex") == set()
    assert _imports("notfound") == set()
    assert _imports("export") == {"budget", "language", "prepare", "stats"}
    assert _imports("zensical") == {"export", "notfound", "prepare", "publish", "stats"}
    assert _imports("plugin") == {"build", "engine", "guard", "inputs", "language", "liveresults", "notfound",
                                  "options", "pagestate", "prepare", "releases", "searchindex", "serve", "sitesearch",
                                  "stats"}


def test_the_plugin_free_path_never_imports_mkdocs() -> None:
    """Zensical runs no MkDocs plugin, and its path (prepare, export, the Zensical build) needs no mkdocs:
    the renderer's independence from the site engine is what makes that possible. (``language`` serves both:
    only its plugin nav imports mkdocs, inside the function; tests/test_engines.py runs an export and finds no
    mkdocs in ``sys.modules``.) ``budget`` is parsed by the command line before ``--engine`` chooses one."""
    for name in ("prepare", "export", "zensical", "publish", "budget"):
        tree = ast.parse((SITE / f"{name}.py").read_text())
        found = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names} | \
            {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not [m for m in found if m.split(".")[0] in ("mkdocs", "properdocs", "material")], (name, found)


def test_serve_uses_no_private_field_of_the_plugin() -> None:
    tree = ast.parse((SITE / "serve.py").read_text())
    private = sorted({n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                      and isinstance(n.value, ast.Name) and n.value.id == "plugin" and n.attr.startswith("_")})
    assert private == []


def test_plugin_events_are_short() -> None:
    """The plugin hands its work to build and serve: no event method grows a body of its own."""
    tree = ast.parse((SITE / "plugin.py").read_text())
    long = [(f.name, f.end_lineno - f.lineno) for f in ast.walk(tree)  # type: ignore[operator]
            if isinstance(f, ast.FunctionDef) and f.name.startswith("on_") and f.end_lineno - f.lineno > 12]
    assert long == []
