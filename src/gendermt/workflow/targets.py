"""What the workflow makes and how its report shows it: the targets each rule file
declares, the tables and figures of the report, each benchmark's interval tables, explorer
and scorecard inputs (``workflow/rules/common.smk`` binds the functions by name).

Declarations, keyed by who makes them (a benchmark's name, or a shared rule file's), made
while the rule files are parsed and read through functions once they are: ``rule all`` asks
for every declared target, report.smk renders every registered table as an HTML page and
makes each explorer's rule, the scorecard reads its inputs and the interval tables. A rule
file never touches another's declarations, and one that declares after its kind was read
(a rule file included after the file that reads it) stops the run naming both, instead of
being left out.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from snakemake.exceptions import WorkflowError
from snakemake.io import report

from gendermt.core.errors import GenderMTError
from gendermt.report.labels import labels_for
from gendermt.workflow.system_files import check_system_files


class Targets:
    """The targets and report entries of one run's results folder."""

    def __init__(self, results: str, rule_file_dir: Callable[[], str] | None = None,
                 pages_dir: str = "workflow/rules") -> None:
        self.results = results
        # a table's caption is written relative to the rule file that names it (a benchmark's,
        # in its folder) and read relative to the rule file of the page rules (report.smk)
        self.rule_file_dir = rule_file_dir or (lambda: pages_dir)
        self.pages_dir = pages_dir
        # the tables and figures each rule file makes: (who declares it, path), in the order
        # declared
        self._targets: list[tuple[str, str]] = []
        # files a benchmark's scorecard reader reads beyond its tables, by keyword argument
        # of the reader (its rule file declares them; e.g. FairTranslate's per-item scores for
        # its gaps' CIs): scorecard key → keyword → files
        self._scorecard_inputs: dict[str, dict[str, list[Any]]] = {}
        # each benchmark's intervals and paired tests of its headline figures (its
        # `*_intervals` rule, gendermt.analysis.intervals): benchmark folder → [intervals.csv,
        # pairs.csv]; the scorecard attaches them to its cells
        self._interval_tables: dict[str, list[str]] = {}
        # each benchmark's explorer page (gendermt.report.explorer): benchmark name →
        # {"module": its explorer module, "label": its name in the report, "inputs": the
        # keyword arguments of the module's ``read``, files or ``{system, prompt, path}``
        # records}; report.smk makes one page job per entry
        self._explorers: dict[str, dict[str, Any]] = {}
        # tables of the report: csv path → its report entry; rule report_tables renders each
        # as an HTML page the report shows inline (Snakemake shows CSVs only as download links)
        self._report_tables: dict[str, dict] = {}
        # the kinds of declaration read for good (→ by what), which refuse any further one
        self._read: dict[str, str] = {}

    def _declaring(self, kind: str, who: str) -> None:
        if kind in self._read:
            raise WorkflowError(
                f"{who}: declares {kind} after {self._read[kind]} read them: include its rule "
                f"file before that one (the Snakefile includes the benchmarks' rule files "
                f"before scorecard.smk and report.smk)")

    def _reading(self, kind: str, by: str) -> None:
        self._read.setdefault(kind, by)

    def declare_targets(self, who: str, paths: Iterable[str]) -> None:
        """Files ``rule all`` asks for, declared by ``who`` (a benchmark's name, or a shared
        rule file's)."""
        self._declaring("targets", who)
        self._targets.extend((who, path) for path in paths)

    def declared_targets(self) -> list[str]:
        """The targets declared so far, in the order declared."""
        return [path for _, path in self._targets]

    def declare_explorer(self, name: str, module: str, label: str,
                         inputs: Mapping[str, Any]) -> None:
        """Benchmark ``name``'s explorer page: its module, its label in the report and the
        keyword arguments of the module's ``read``."""
        self._declaring("explorers", name)
        if name in self._explorers:
            raise WorkflowError(f"{name}: its explorer is declared twice")
        self._explorers[name] = {"module": module, "label": label, "inputs": dict(inputs)}

    def explorers(self, by: str = "report.smk") -> dict[str, dict[str, Any]]:
        """Every declared explorer, by benchmark name (read once, by the file that makes
        their rules: no explorer may be declared after)."""
        self._reading("explorers", by)
        return dict(self._explorers)

    def declare_scorecard_inputs(self, key: str, inputs: Mapping[str, list[Any]]) -> None:
        """What benchmark ``key``'s scorecard reader reads beyond its tables, by keyword."""
        self._declaring("scorecard inputs", key)
        if key in self._scorecard_inputs:
            raise WorkflowError(f"{key}: its scorecard inputs are declared twice")
        self._scorecard_inputs[key] = dict(inputs)

    def scorecard_inputs(self, by: str = "scorecard.smk") -> dict[str, dict[str, list[Any]]]:
        """Every benchmark's scorecard inputs, by scorecard key (read once, by the scorecard's
        rule file)."""
        self._reading("scorecard inputs", by)
        return dict(self._scorecard_inputs)

    def interval_tables(self, folder: str, by: str = "scorecard.smk") -> list[str]:
        """A benchmark's interval tables ([] where it has no `*_intervals` rule): read by the
        scorecard's rule file, after which none may be declared."""
        self._reading("interval tables", by)
        return list(self._interval_tables.get(folder, []))

    def report_tables(self, benchmarks: Iterable[str], by: str = "report.smk"
                      ) -> dict[str, dict]:
        """Every registered table of the report, by csv path; a table every benchmark writes
        (registered once as a pattern with ``{benchmark}``: finish_reasons, output_checks)
        also once per benchmark in ``benchmarks``, after the others (read once, by the file
        that makes the tables' pages)."""
        self._reading("report tables", by)
        tables = dict(self._report_tables)
        for pattern, spec in list(tables.items()):
            if "{benchmark}" in pattern:
                for name in benchmarks:
                    path = pattern.replace("{benchmark}", name)
                    tables.setdefault(path, {
                        **spec, "subcategory": spec["subcategory"].replace("{benchmark}", name),
                        "labels": labels_for(path, spec["category"])})
        return tables

    def table_report(self, path: str, caption: str, category: str, subcategory: str,
                     labels: dict | None = None) -> str:
        """A table (CSV) for the report: registered for its HTML page; returns the plain path."""
        return self._register(path, os.path.relpath(
            os.path.join(self.rule_file_dir(), caption), self.pages_dir), category, subcategory,
            labels)

    def _register(self, path: str, caption: str, category: str, subcategory: str,
                  labels: dict | None = None) -> str:
        self._declaring("report tables", path)
        self._report_tables[path] = {
            "caption": caption,
            "category": category,
            "subcategory": subcategory,
            "labels": labels or labels_for(path, category),
        }
        return path

    def figure_report(self, path: str, caption: str, category: str, subcategory: str,
                      labels: dict | None = None) -> Any:
        """A figure for the report, labelled (benchmark, figure, paper figure)."""
        return report(
            path,
            caption=caption,
            category=category,
            subcategory=subcategory,
            labels=labels or labels_for(path, category),
        )

    def interval_outputs(self, folder: str, category: str) -> dict[str, str]:
        """The outputs of a benchmark's `*_intervals` rule (tables/intervals.csv and pairs.csv,
        each in the report, with their Markdown), declared as its interval tables and
        targets."""
        self._declaring("interval tables", folder)
        base = f"{self.results}/{folder}/tables"
        self._interval_tables[folder] = [f"{base}/intervals.csv", f"{base}/pairs.csv"]
        self.declare_targets(folder, self._interval_tables[folder])
        return {
            # the shared captions, as from the page rules' file
            "intervals": self._register(
                f"{base}/intervals.csv",
                caption="../report/intervals.rst",
                category=category,
                subcategory="Tables",
            ),
            "intervals_md": f"{base}/intervals.md",
            "pairs": self._register(
                f"{base}/pairs.csv",
                caption="../report/pairs.rst",
                category=category,
                subcategory="Tables",
            ),
            "pairs_md": f"{base}/pairs.md",
        }

    def output_checks_table(self, folder: str) -> str:
        """A benchmark's per-run counts of echoes and wrong-language outputs (the output_checks
        rule), which its figures read to draw a run below the clean-share floor as low
        quality."""
        return f"{self.results}/{folder}/tables/output_checks.csv"

    def optional_intervals(self, folder: str) -> Callable[[Any], list[str]]:
        """Input function of a benchmark's figures rule: its ``tables/intervals.csv`` where the
        workflow has a rule that writes it (declared by the benchmark's `*_intervals` rule,
        :meth:`interval_outputs`), else nothing, and the figure draws without error bars. A
        function, so that the declarations are read once every rule file is parsed."""

        def intervals(wildcards: Any) -> list[str]:
            tables = self._interval_tables.get(folder, [])
            return [t for t in tables if os.path.basename(t) == "intervals.csv"]

        return intervals

    def all_targets(self, config: dict, runs_of: dict[str, list[dict]]) -> list[str]:
        """Every declared target (read for good: ``rule all``), once every file a planned run's
        systems need (stored outputs per benchmark and prompt, GGUF files, local model
        folders) is found (gendermt.workflow.system_files); `runs_of`: each benchmark's run
        records."""
        try:
            check_system_files(config, runs_of)
        except GenderMTError as exc:
            raise WorkflowError(str(exc)) from exc
        self._reading("targets", "rule all")
        return self.declared_targets()


def explorer_files(inputs: dict[str, Any], results: str) -> list[str]:
    """The files among an explorer's inputs (its declared ``inputs``): paths under the run's
    results folder, alone or in lists, and the paths of run records (``{…, "path"}``, and a
    GAMBIT run's ``assignments``)."""
    found = []
    for value in inputs.values():
        for one in value if isinstance(value, list) else [value]:
            paths = ([one[k] for k in ("path", "assignments") if k in one]
                     if isinstance(one, dict) else [one])
            found.extend(p for p in paths if isinstance(p, str) and p.startswith(f"{results}/"))
    return found
