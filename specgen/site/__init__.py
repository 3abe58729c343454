"""The site wing: the mkdocs plugin, the atomic build, the live-reload server and what they share.

``plugin`` holds mkdocs' event methods only; ``build`` loads the spec, renders
pages and swaps a finished site into place; ``serve`` runs the dev server and
keeps everything a running server remembers between builds; ``inputs`` is what
more than one of them reads (the mkdocs config, the generated-file type). The
renderer underneath (:mod:`specgen.render`) knows nothing of mkdocs.
"""
