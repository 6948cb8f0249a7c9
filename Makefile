# The two quick-start commands: `make run` (the default study) and `make test`.
# Both create a local virtual environment (.venv) on first use and reinstall when
# pyproject.toml changes.
PYTHON ?= python3
VENV   ?= .venv
CORES  ?= 2
BIN    := $(VENV)/bin

.PHONY: run report test lint clean

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "gendermt needs Python >= 3.10, found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

run: $(VENV)/.installed
	$(BIN)/snakemake --cores $(CORES)
	$(BIN)/snakemake --report results/report.html

report: $(VENV)/.installed
	$(BIN)/snakemake --report results/report.html

test: $(VENV)/.installed
	$(BIN)/pytest

lint: $(VENV)/.installed
	$(BIN)/ruff check src tests workflow/scripts
	$(BIN)/snakemake --lint

clean:
	rm -rf results .snakemake
