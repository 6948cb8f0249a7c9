"""What a benchmark declares for the workflow, the command line and the scorecard.

Each benchmark package has a ``contract.py`` with ``CONTRACTS``: one :class:`Benchmark` per
config block it owns (Neo-GATE owns ``neogate`` and ``neogate-flores``). The shared files (the
Snakefile, the config schema, the CLI, the scorecard, the report's labels, the data-source
checks) iterate over :mod:`gendermt.core.registry` instead of naming benchmarks.

A contract module imports nothing of its own benchmark: it names modules and functions as
strings (``"module:function"``), so that reading the registry costs nothing and each job's code
fingerprint covers only the modules that job runs.

The stage vocabulary of a package (the same module and entry-point names in each; a benchmark
without a stage has no module for it):

===========  =====================================================  ==================
module       what it does                                           entry point
===========  =====================================================  ==================
``data``     published files → ``data.parquet`` + ``data.json``     ``build``
``inputs``   data × prompt template → requests (``inputs/*.jsonl``)  ``build_inputs``
``evaluate`` one run (system × prompt) → per-item results           ``score_run``
``metric``   pure functions: the official scorer's definitions      (any)
``tables``   every run's results → the benchmark's tables           ``build_tables``
``figures``  tables → figures                                       ``build_figures``
``cli``      ``gendermt score <name>``                              ``register``
``scorecard`` the scorecard's figures, read from the tables          ``read``
``findings`` its part of the findings page (docs/findings.md)       ``part``
===========  =====================================================  ==================

A new field of :class:`Benchmark` reruns nothing: a job's ``code`` param is the declared
version of its stages (gendermt.workflow.stage_versions), never the code of this module.

Aggregate stages receive their runs as records (``[{"system", "prompt", "path", ...}]``) from
the rule, never by parsing paths.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: The columns every benchmark's data table holds (the ``build_inputs``, ``translate`` and
#: ``score`` stages read them): column → kind, ``string`` (every value a str), ``number``,
#: ``boolean``, ``any``.
DATA_COLUMNS: Mapping[str, str] = {"item_id": "string", "source": "string",
                                   "src_lang": "string", "tgt_lang": "string"}


def resolve(ref: str) -> Callable[..., Any]:
    """``"package.module:function"`` → the function (imported on first use)."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Scorecard:
    """A benchmark's part of the cross-benchmark scorecard."""

    #: The scorecard's key of the benchmark (its JSON key; GAMBIT's is ``grape``).
    key: str
    #: Column-group label, e.g. "GATE X-E".
    label: str
    #: The tables its figures are read from, relative to ``results/<run>/`` (the scorecard
    #: rule's inputs; the scorecard leaves out a benchmark whose tables are missing).
    tables: tuple[str, ...]
    #: ``"module:function"``: results folder → ``gendermt.scorecard.figures.Part`` (its
    #: figures carry unit and better direction).
    reader: str
    #: Its figures as the README's scorecard table lists them: (JSON key pattern with
    #: ``{lang}``/``{paradigm}``/``{metric}``, what it is, which way is better); the clean
    #: share every benchmark has is added by tools/gen_docs.py.
    figures: tuple[tuple[str, str, str], ...] = ()
    #: Floors of its own quality figures beyond the shared ones (gendermt.scorecard.build),
    #: figure key → the value below which a run is marked low quality (WinoMT's readable
    #: share: ``{"readable": 75.0}``, per language ``readable_<lang>``).
    floors: Mapping[str, float] = field(default_factory=dict)
    #: Its headline figures, the front page's compact scorecard shows them (one or two
    #: per benchmark): key patterns as in ``figures`` (``acc_{lang}``: every language's).
    #: Empty: its first figure that is not a quality figure.
    headline: tuple[str, ...] = ()
    #: ``"module:function"`` of ``part() -> gendermt.report.findings.Part``: its part of the
    #: findings page (docs/findings.md: its place there, what its figures cannot show, its own
    #: sections), from its package's ``findings`` module. None: not on the findings page.
    findings: str | None = None


@dataclass(frozen=True)
class StoredFormat:
    """A file format of the ``stored`` backend that a benchmark provides (``format: <name>``
    in a system's settings): how its published systems' outputs are laid out."""

    #: ``"module:function"`` of ``read(path, data, **settings) -> {item_id: output}``: the
    #: file's output of every item of ``data`` (the benchmark's data table, a study's subset
    #: with its ``row`` column), raising ``DatasetError`` for a file that does not cover them.
    reader: str
    #: Its own settings (keys of the system's block beside ``path`` and ``format``) → the
    #: values each may take, the first the default.
    settings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class NodeRule:
    """A rule of the benchmark whose jobs need a node of their own (they load or call a
    model): a cluster run submits them, with these resources per attempt (a job killed for
    time or memory gets more on its retry). Every other rule of its file is a `localrule`."""

    #: Minutes per attempt (SLURM's runtime).
    runtime: int
    #: MB of memory per attempt.
    mem_mb: int
    #: CPUs of the job.
    cpus_per_task: int = 1


@dataclass(frozen=True)
class Benchmark:
    """One config block under ``benchmarks:`` and everything the shared files need of it."""

    #: The config key (``benchmarks.<name>``), also the results folder's name.
    name: str
    #: Human name, e.g. "GATE X-E".
    label: str
    #: Position among benchmarks (scorecard columns, report, listings): lower first.
    order: int
    #: The package, e.g. ``gendermt.benchmarks.gate_x_e``.
    package: str
    #: Its rule file, relative to its package's folder (``rules.smk``): the Snakefile includes
    #: :func:`gendermt.core.registry.rules_file`, so the package works wherever it is installed.
    rules: str
    #: Its row of the README's benchmark table (tools/gen_docs.py): language directions,
    #: e.g. "en→fr", and what is measured.
    direction: str = ""
    description: str = ""
    #: Its page under ``docs/benchmarks/`` ("": ``<name>.md``).
    page: str = ""
    #: Its config schema fragment (the ``benchmarks.<name>`` object), a file in the package.
    schema: str = "schema.yaml"
    #: Config keys (dotted, ``*`` for any key, a trailing ``/`` for a folder) of the files and
    #: folders its block names: all must exist before anything runs.
    data_keys: tuple[str, ...] = ()
    #: Those of them the data stage reads (its ``data_sources`` identity param).
    data_stage_keys: tuple[str, ...] = ()
    #: Its public data sets' manifests (files in the package: source at a fixed commit,
    #: licence, sha256 of every file; gendermt.data.datasets), which a config names by
    #: ``dataset:<name>/<file>``.
    datasets: tuple[str, ...] = ()
    #: Template placeholders beyond the generic ones
    #: (``gendermt.config.templates.PLACEHOLDERS``).
    placeholders: frozenset[str] = frozenset()
    #: ``"module:function"`` of ``check(spec, config) -> None``: raises ``GenderMTError``
    #: (message starting with the key below ``benchmarks.<name>``) for what the schema cannot
    #: check. Plain Python, run at start-up before anything is planned.
    check: str | None = None
    #: ``"module:function"`` of ``source_texts(name, spec, prompts) -> {prompt: {target
    #: language: [source text, ...]}}`` or None: the plain source texts each prompt's run
    #: would send a system that reads only the source, read from the config block's data files
    #: without running the workflow (the paid-work estimate of commercial MT services at
    #: start-up, before their inputs are built; None: no estimate, e.g. under a ``subset``).
    #: It must be cheap (no pandas, each file read once): start-up runs it on every
    #: ``snakemake`` call that plans a service system. None: no estimate for this benchmark.
    source_texts: str | None = None
    #: ``"module:function"`` of ``data_files(name, block) -> [(key, path)]``: the files its
    #: runs read that its config block does not name (a declared benchmark's file and data
    #: files), recorded as its data sources (their sha256 on the report's front page).
    data_files: str | None = None
    #: ``"module:function"`` of ``check_templates(spec) -> {prompt: template}``, for a
    #: benchmark that renders its own messages (Neo-GATE); None: the generic templates file
    #: (a prompt per key, placeholders checked by ``gendermt.config.checks``).
    templates: str | None = None
    #: The module with ``register(score_commands, metrics_list)`` that adds
    #: ``gendermt score <name>`` (None: no subcommand).
    cli: str | None = None
    #: Modules with ``register(commands)`` that add top-level commands of its own
    #: (FairTranslate's ``gendermt inclusive``).
    commands: tuple[str, ...] = ()
    #: Its part of the scorecard (None: not on the scorecard).
    scorecard: Scorecard | None = None
    #: Report labels: path below ``results/<run>/`` without extension → (entry name, the
    #: paper's table or figure), so that the report lists "Table 6 · ANOVA", not paths.
    labels: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: Report labels by pattern (a regular expression over that path; groups fill ``{0}``).
    label_patterns: tuple[tuple[str, tuple[str, str]], ...] = ()
    #: Hypothesis normalisers it provides (a config's ``normalize_hypotheses`` names one):
    #: name → ``"module:function"`` (text → text). gendermt.scoring.normalization finds them
    #: here; the score and COMET jobs' fingerprints cover the module (normalizer_modules).
    normalizers: Mapping[str, str] = field(default_factory=dict)
    #: Formats of the ``stored`` backend it provides: name → :class:`StoredFormat`
    #: (gendermt.translation.backends.stored finds them here; a translation job of a system in one
    #: of them covers the reader's module in its code fingerprint).
    stored_formats: Mapping[str, StoredFormat] = field(default_factory=dict)
    #: Columns its data table (``data.parquet``) must hold beyond the generic ones
    #: (:data:`DATA_COLUMNS`), column → kind (``string``, ``number``,
    #: ``boolean``, ``any``): checked when its data stage writes the table.
    data_columns: Mapping[str, str] = field(default_factory=dict)
    #: Columns its data table always holds that a study's ``subset`` may stratify by
    #: (``by``) or keep together (``unit``), beyond the generic ones: a subset naming
    #: another stops the run at start-up, naming the config key (issue 51); the data stage
    #: requires them of its table (:func:`gendermt.core.registry.data_columns`).
    subset_columns: tuple[str, ...] = ()
    #: Its rules that need a node (load or call a model) → their resources; the rule file
    #: gives them with ``resources: **node_resources("<rule>")`` (common.smk), the tests find
    #: them here (tests/unit/test_localrules.py, tests/workflow/test_placement.py).
    node_rules: Mapping[str, NodeRule] = field(default_factory=dict)
    #: The project's stand-in for each file a study config names that the project does not
    #: ship (the user's data): config key below ``benchmarks.<name>`` (dotted), or from the
    #: config's root for a system's file (``systems.<system>.path``) → a shipped sample in
    #: the same published format. A ``{prompt}`` in the configured path is filled with each
    #: of the benchmark's prompts, in the sample's path too. The study configs' dry runs
    #: (tests/workflow/test_study_configs.py) put the samples there.
    samples: Mapping[str, str] = field(default_factory=dict)

    def check_config(self, spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
        """Run the benchmark's own config checks (nothing when it declares none)."""
        if self.check:
            resolve(self.check)(spec, config)
