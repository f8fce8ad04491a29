# `make` builds every output from sources/ into build/; `make test` runs all tests.
# Both set up the local virtual environment (.venv) first when it is missing or stale;
# `make test` also installs Debian's Chromium and the npm package axe-core for the browser tests, and
# Debian's pandoc for the tests of Word files, when they are missing, and both install Debian's Graphviz
# (its `dot` lays out the site's graph page) when it is missing.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The cache of readings, inside the project (never a folder above it; docs/performance.md).
CACHE := .cache/lawbook

.PHONY: all build venv browser axe graphviz pandoc test test-fast check align site-with-reference watch bench bench-peers fuzz screenshots clean

all: build

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

# Debian's Chromium drives the browser tests (never `playwright install`: no downloads).
browser:
	@bash scripts/install-debian.sh /usr/bin/chromium "the browser tests drive /usr/bin/chromium" chromium fonts-dejavu-core

# axe-core, the accessibility rules the browser tests run on every page: the npm package, into .cache/axe
# (not committed; never from a CDN). npm itself from Debian when it is missing.
AXE_VERSION := 4.14.1
AXE := .cache/axe/node_modules/axe-core/axe.min.js

axe: $(AXE)

$(AXE):
	@bash scripts/install-debian.sh npm "axe-core, which the browser tests run, is installed with npm" nodejs npm
	npm install --no-save --no-audit --no-fund --no-package-lock --prefix .cache/axe axe-core@$(AXE_VERSION)
	@test -f $(AXE)

# Debian's Graphviz: `dot` lays out the site's graph page (docs/html.md).
graphviz:
	@bash scripts/install-debian.sh dot "the site's graph page is laid out by Graphviz's dot" graphviz

# Debian's pandoc: the tests of Word files (tests/test_docx.py) make one from Markdown with it; the build never runs it.
pandoc:
	@bash scripts/install-debian.sh pandoc "the tests of Word files make a .docx with pandoc" pandoc

build: $(STAMP) graphviz
	$(PY) -m pipeline build --sources sources --out build --cache-dir $(CACHE)

check: $(STAMP)
	$(PY) -m pipeline check --sources sources --cache-dir $(CACHE)

# `make align REFERENCE=DIR` compares build/ with the original's build (or its corpus.json), node by
# node (docs/align.md); `make align REFERENCE=DIR PROPOSE=1` prints corrections.toml entries instead.
align: build
	@test -n "$(REFERENCE)" || { echo "make align: give the original's build, e.g. make align REFERENCE=../laws-en/build" >&2; exit 2; }
	$(PY) -m pipeline align build "$(REFERENCE)" $(if $(PROPOSE),--propose)

# `make site-with-reference REFERENCE=DIR` builds build/ with the editor's page comparing the book with the
# original (`lawbook build --reference DIR`, docs/align.md); plain `make` never needs the original.
site-with-reference: $(STAMP) graphviz
	@test -n "$(REFERENCE)" || { echo "make site-with-reference: give the original's build, e.g. make site-with-reference REFERENCE=../laws-en/build" >&2; exit 2; }
	$(PY) -m pipeline build --sources sources --out build --cache-dir $(CACHE) --reference "$(REFERENCE)"

# `make watch`: serve build/html on 127.0.0.1:8000 and rebuild build/ on every change in sources/ (docs/watch.md).
watch: $(STAMP) graphviz
	$(PY) -m pipeline serve --watch --sources sources --out build --cache-dir $(CACHE)

# Every test, on every core (pytest-xdist: each worker a process of its own, each test its own folders and
# ports), the slowest 15 listed at the end: where the suite's time goes.
test: $(STAMP) browser axe graphviz pandoc
	$(PY) -m pytest -q -n auto --durations=15

# The quick loop while editing code: unit and golden tests only (no browser, no PDF compile, no whole-book
# build, no real book), under a minute on two cores; `make test` runs everything (tests/conftest.py, LAYERS).
test-fast: $(STAMP)
	$(PY) -m pytest -q -n auto -m "not slow and not browser and not pdf and not book"

screenshots: build browser
	$(PY) -m pipeline.html_screenshots build
	$(PY) -m pipeline.pdf_screenshots build

bench: $(STAMP) graphviz
	$(PY) -m pipeline.bench --out bench

bench-peers: $(STAMP)
	$(PY) -m pipeline.bench.peers --out bench

fuzz: $(STAMP)
	LAWBOOK_FUZZ=long $(PY) -m pytest -q tests/test_fuzz.py

# Removes build/, build.failed/ and what a killed build left, each only when its marker says the build
# made it there (a folder of yours named like them, or a copy of a build, is left, with a warning). The
# reading cache stays. The venv's Python when there is one, else $(PYTHON): it needs only the standard
# library. `make clean CLEAN_DIR=DIR` cleans another build folder.
CLEAN_DIR := build

clean:
	$(if $(wildcard $(PY)),$(PY),$(PYTHON)) -m pipeline.publish.outdir clean "$(CLEAN_DIR)"
