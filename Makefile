# Two verbs do all the set-up on a fresh clone: `make demo` and `make test`.
# Each creates .venv (Python 3.11+) if missing and installs what it needs.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml setup.py | cksum | cut -d' ' -f1)

.PHONY: demo test test-fast lint bench validate clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml setup.py
	$(BIN)/python -m pip install -q -e '.[dev,postgres]'
	rm -f $(VENV)/.installed-* && touch $@

demo: $(STAMP)  ## the main job: an evaluation campaign on the embedded SQLite backend
	$(BIN)/tb-env demo

test: $(STAMP)  ## every test CI runs
	$(BIN)/python -m pytest -q -p no:cacheprovider; rc=$$?; [ $$rc -eq 5 ] && rc=0; exit $$rc

test-fast: $(STAMP)  ## the inner loop: skips tests marked slow
	$(BIN)/python -m pytest -q -x -m "not slow" -p no:cacheprovider; rc=$$?; [ $$rc -eq 5 ] && rc=0; exit $$rc

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/tb-env bench

validate: $(STAMP)
	$(BIN)/tb-env validate

clean:
	rm -rf $(VENV) build dist *.egg-info
