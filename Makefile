# The two commands a new machine needs (see README):
#   make serve   install specgen and its runtime dependencies into .venv, then build and serve the bundled spec's site
#   make test    install specgen with its test extras into .venv (and Debian's chromium unless installed), then run
#                the whole suite in two tiers (the browser tests after the rest, each whatever the other did)
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
	$(PY) -m pip install --quiet -e '.[site]'
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
# screenshots show Chinese rather than empty boxes. What is installed already is used as it is; only
# installing needs root (as root, or through a sudo that asks no password), and apt waits up to 10 minutes
# for a lock another process holds instead of failing. Without root, one message says what to run.
BROWSER_PACKAGES := chromium fonts-wqy-microhei
APT := apt-get -o DPkg::Lock::Timeout=600
define BROWSER_SETUP
if command -v chromium >/dev/null 2>&1 && fc-list :lang=zh-cn 2>/dev/null | grep -q .; then :; \
elif [ "$$(id -u)" = 0 ]; then $(APT) update -qq && $(APT) install -y -qq --no-install-recommends $(BROWSER_PACKAGES); \
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
  sudo $(APT) update -qq && sudo $(APT) install -y -qq --no-install-recommends $(BROWSER_PACKAGES); \
elif command -v chromium >/dev/null 2>&1; then \
  echo "make: no Chinese font: the zh screenshots show boxes; as root: apt-get install fonts-wqy-microhei" >&2; \
else echo "make: the browser tests need Debian's chromium, and installing it needs root: run" \
  "'sudo apt-get install --no-install-recommends $(BROWSER_PACKAGES)' (or make test as root)" >&2; false; fi
endef

browser:
	@$(BROWSER_SETUP)

# Two tiers: the browser tests run on their own after the rest (with the ASL corpus tests beside them on
# 2 cores, material's search worker in chromium can starve). Each tier runs whatever the other did; the
# last line gives both results and the exit status is non-zero when either failed.
# Expect 10-20 min for the first tier and ~6 min for the browser tier on 2 cores (README, "The two commands").
test: $(STAMP)
	@browser=0; { $(BROWSER_SETUP); } || browser=$$?; \
	rest=0; $(VENV)/bin/pytest -n 2 --dist loadgroup -q -m "not browser" || rest=$$?; \
	if [ $$browser = 0 ]; then $(VENV)/bin/pytest -q -m browser -p no:cacheprovider || browser=$$?; fi; \
	say() { if [ $$1 = 0 ]; then echo passed; else echo "FAILED (exit $$1)"; fi; }; \
	echo "make test: tests: $$(say $$rest); browser tests: $$(say $$browser)"; \
	[ $$rest = 0 ] && [ $$browser = 0 ]

bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) build .pytest_cache
