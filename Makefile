# Three commands matter: `make run` (serve the sample vault), `make check` (lint and the fast tests, while you work)
# and `make test` (every gate and every test, then pytest's summary).
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV      := .venv
PY        := $(VENV)/bin/python
BIN       := $(VENV)/bin
STAMP     := $(VENV)/.installed
PLUGIN    := plugin
NODE_MODS := $(PLUGIN)/node_modules/.package-lock.json
MAIN_JS   := $(PLUGIN)/dist/main.js
VAULT     ?= eval/sample-vault
# The eval and bench targets talk to an Ollama (or Ollama-compatible) server: OLLAMA_HOST (what Ollama and askvault
# read; OLLAMA_URL still works, with a notice), default http://127.0.0.1:11434, with `all-minilm` pulled.
# `make eval-corpora` also needs CORPORA_DIR (eval/corpora/README.md).
# EMBED_SERVER_CMD (optional) starts a local stand-in server for eval instead (eval/run-minilm.sh). `make test` needs
# none of them. Variables given on make's command line reach the scripts' environment.
EVAL_CHAT_MODELS ?= smollm2:135m

.PHONY: help setup run check test lint py-lint plugin-check plugin-e2e pytest eval eval-answers eval-corpora bench reliability \
        chromium clean \
        release-check version-bump wheel

help:
	@echo "make run    - install what is missing, build the plugin, serve the sample vault"
	@echo "make check  - lint, types and the fast tests (no browser, no slow-marked test): under two minutes"
	@echo "make test   - install what is missing, run every gate and test"
	@echo "make setup  - install only"
	@echo "make eval   - retrieval evaluation with the real all-minilm embedder (an Ollama at OLLAMA_HOST)"
	@echo "make eval-answers - answers and follow-up rewrites with a real tiny chat model (OLLAMA_HOST)"
	@echo "make eval-corpora - retrieval evaluation on two public vaults (CORPORA_DIR, OLLAMA_HOST)"
	@echo "make bench  - benchmarks (writes bench/results/)"
	@echo "make reliability - long fault, kill -9, fuzz, load and soak runs (about 40 min)"

# The eval extra (matplotlib, rank-bm25: `askvault eval` and `calibrate` only) is not in a user's install; `dev`
# includes it, and it is named here too because `make eval`, `make bench` and the tests need it.
$(STAMP): backend/pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e 'backend[dev,eval]'
	@touch $@

$(NODE_MODS): $(PLUGIN)/package.json $(PLUGIN)/package-lock.json
	cd $(PLUGIN) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(MAIN_JS): $(NODE_MODS) $(shell find $(PLUGIN)/src -name '*.ts' 2>/dev/null) $(PLUGIN)/esbuild.config.mjs
	cd $(PLUGIN) && npm run --silent build

setup: $(STAMP) $(MAIN_JS)

run: setup
	$(BIN)/askvault serve --vault $(VAULT)

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian chromium for the browser tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || { echo "Could not install chromium (needs root and Debian's package registry)"; exit 1; }; }

py-lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy backend tests bench reliability
	$(BIN)/lint-imports

plugin-check: $(MAIN_JS)
	cd $(PLUGIN) && npm run --silent typecheck && npm run --silent lint && npm run --silent test

plugin-e2e: $(MAIN_JS) $(STAMP) chromium
	cd $(PLUGIN) && npm run --silent e2e

lint: py-lint plugin-check

pytest: $(STAMP)
	$(BIN)/pytest

# The quick loop: every lint and type gate, the plugin's unit tests and pytest without the tests marked `slow`
# (subprocesses, wheel builds, big corpora, fuzz, faults, benchmarks; pyproject.toml). No Chromium; the plugin is
# built only when its sources changed (one test reads the build).
check: $(STAMP) $(MAIN_JS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy backend tests bench reliability
	$(BIN)/lint-imports
	cd $(PLUGIN) && npm run --silent typecheck && npm run --silent lint && npm run --silent test
	$(BIN)/pytest -q -m "not slow" -n auto

# pytest runs last so that its summary line closes the run.
test: $(STAMP) chromium py-lint plugin-check plugin-e2e pytest

eval: $(STAMP)
	bash eval/run-minilm.sh

# Answers (and follow-up rewrites) through the real pipeline with EVAL_CHAT_MODELS (comma-separated, default
# smollm2:135m: `ollama pull smollm2:135m`) on the sample vault; writes eval/results/answers/.
eval-answers: $(STAMP)
	WITH_CHAT=1 RESULTS=eval/results/answers bash eval/run-minilm.sh --modes hybrid \
	  --answers --chat-model $(EVAL_CHAT_MODELS) --rewrite eval/conversations.jsonl

eval-corpora: $(STAMP)
	bash eval/run-corpora.sh

# BENCH_ARGS="--sizes 1m --parts sizes" for the million-chunk row (not in the default run: about an hour).
bench: $(STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

# Long runs (about 40 min): 200 kill -9s over a changing vault, the fuzz corpus, disk full, load and soak.
reliability: $(STAMP)
	$(BIN)/python -m reliability

clean:
	rm -rf $(VENV) $(PLUGIN)/node_modules $(MAIN_JS) .mypy_cache .ruff_cache .pytest_cache

# Releases (docs/release.md). One version in manifest.json, versions.json, plugin/package.json (and its lock) and
# askvault/__init__.py: `make version-bump VERSION=x.y.z` writes it everywhere, `make release-check [TAG=x.y.z]`
# fails when they disagree, when manifest.json breaks Obsidian's rules, or when TAG is not the version.
release-check: $(STAMP)
	$(PY) -m scripts.release check $(if $(TAG),--tag $(TAG))

version-bump: $(STAMP)
	@test -n "$(VERSION)" || { echo "usage: make version-bump VERSION=x.y.z"; exit 2; }
	$(PY) -m scripts.release bump $(VERSION)

# The wheel and sdist in dist/ carry the built plugin (askvault/plugin_bundle/), so that `pipx install` then
# `askvault install-plugin` needs no checkout; backend/setup.py refuses to build without a current bundle.
# The build's own output (hundreds of "copying …" and "adding …" lines) goes to dist/build.log, shown only when the
# build fails; `make wheel VERBOSE=1` prints it as it goes. The last line names the wheel and the sdist.
WHEEL_LOG := dist/build.log
wheel: $(STAMP) $(MAIN_JS) release-check
	$(PY) -m scripts.release bundle
	@mkdir -p dist && echo '*' > dist/.gitignore
ifeq ($(VERBOSE),1)
	set -o pipefail; $(PY) -m build --no-isolation --outdir dist backend 2>&1 | tee $(WHEEL_LOG)
else
	@echo "$(PY) -m build --no-isolation --outdir dist backend > $(WHEEL_LOG)"
	@$(PY) -m build --no-isolation --outdir dist backend > $(WHEEL_LOG) 2>&1 || { cat $(WHEEL_LOG); \
		echo "make wheel: the build failed; its output above (also in $(WHEEL_LOG)) says why." >&2; \
		exit 1; }
endif
	@sed -n 's|^Successfully built \(.*\) and \(.*\)$$|Built dist/\2 and dist/\1.|p' $(WHEEL_LOG)
