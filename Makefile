# The two commands a new machine needs (see README):
#   make serve   install specgen and its runtime dependencies into .venv, then build and serve the bundled spec's site
#   make test    install specgen with its test extras into .venv (and Debian's chromium), then run the whole test suite
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
# two stamps: serving needs the runtime dependencies only (no playwright, hypothesis, pre-commit or
# the other site engines); the test stamp adds the test extras on top of the same venv
RUNTIME := $(VENV)/.specgen-runtime
STAMP := $(VENV)/.specgen-installed

.PHONY: serve build test browser bench clean

$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(RUNTIME)

$(STAMP): $(RUNTIME)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

serve: $(RUNTIME)
	$(VENV)/bin/specgen serve --root sample

build: $(RUNTIME)
	$(VENV)/bin/specgen build --root sample

# Debian's chromium drives the browser tests (Playwright cannot download its own here); a CJK font
# (fonts-wqy-microhei, the smallest Debian package with Simplified Chinese glyphs: 1.6 MB) lets the zh
# screenshots show Chinese rather than empty boxes.
BROWSER_PACKAGES := chromium fonts-wqy-microhei
browser:
	@{ command -v chromium >/dev/null 2>&1 && fc-list :lang=zh-cn | grep -q .; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq --no-install-recommends $(BROWSER_PACKAGES); \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends $(BROWSER_PACKAGES); fi; }

# The browser tests run on their own after the rest: with the ASL corpus tests beside them on
# 2 cores, material's search worker in chromium can starve. Together the two runs are the whole suite.
test: $(STAMP) browser
	$(VENV)/bin/pytest -n 2 --dist loadgroup -q -m "not browser"
	$(VENV)/bin/pytest -q -m browser -p no:cacheprovider

bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) build .pytest_cache
