# `make` builds every output from sources/ into build/; `make test` runs all tests.
# Both set up the local virtual environment (.venv) first when it is missing or stale.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: all build test check clean

all: build

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

build: $(STAMP)
	$(PY) -m pipeline build --sources sources --out build

check: build
	$(PY) -m pipeline check --out build

test: $(STAMP)
	$(PY) -m pytest -q

clean:
	rm -rf build build.tmp* build.old*
