"""What the workflow makes and how its report shows it: the target list the rule files
extend, the tables and figures of the report, each benchmark's interval tables
(``workflow/rules/common.smk`` binds these by name).

Registries, filled while the rule files are parsed and read once all are: report.smk renders
every registered table as an HTML page, the scorecard reads the interval tables.
"""

from __future__ import annotations

import os
from collections.abc import Callable
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
        # each benchmark's rule file adds the tables and figures it makes
        self.targets: list[str] = []
        # files a benchmark's scorecard reader reads beyond its tables, by keyword argument
        # of the reader (its rule file sets them; e.g. FairTranslate's per-item scores for
        # its gaps' CIs)
        self.scorecard_inputs: dict[str, dict[str, list[str]]] = {}
        # each benchmark's intervals and paired tests of its headline figures (its
        # `*_intervals` rule, gendermt.analysis.intervals): benchmark folder → [intervals.csv,
        # pairs.csv]; the scorecard attaches them to its cells
        self.interval_tables: dict[str, list[str]] = {}
        # each benchmark's explorer page (gendermt.report.explorer): benchmark name →
        # {"module": its explorer module, "label": its name in the report, "inputs": the
        # keyword arguments of the module's ``read``, files or ``{system, prompt, path}``
        # records}; report.smk makes one page job per entry
        self.explorer_inputs: dict[str, dict[str, Any]] = {}
        # tables of the report: csv path → its report entry; rule report_tables renders each
        # as an HTML page the report shows inline (Snakemake shows CSVs only as download links)
        self.report_tables: dict[str, dict] = {}

    def table_report(self, path: str, caption: str, category: str, subcategory: str,
                     labels: dict | None = None) -> str:
        """A table (CSV) for the report: registered for its HTML page; returns the plain path."""
        return self._register(path, os.path.relpath(
            os.path.join(self.rule_file_dir(), caption), self.pages_dir), category, subcategory,
            labels)

    def _register(self, path: str, caption: str, category: str, subcategory: str,
                  labels: dict | None = None) -> str:
        self.report_tables[path] = {
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
        each in the report, with their Markdown), registered in INTERVAL_TABLES."""
        base = f"{self.results}/{folder}/tables"
        self.interval_tables[folder] = [f"{base}/intervals.csv", f"{base}/pairs.csv"]
        self.targets.extend(self.interval_tables[folder])
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
        workflow has a rule that writes it (registered in INTERVAL_TABLES by the benchmark's
        `*_intervals` rule), else nothing, and the figure draws without error bars. A function,
        so that the registry is read once every rule file is parsed."""

        def intervals(wildcards: Any) -> list[str]:
            tables = self.interval_tables.get(folder, [])
            return [t for t in tables if os.path.basename(t) == "intervals.csv"]

        return intervals

    def all_targets(self, config: dict, runs_of: dict[str, list[dict]]) -> list[str]:
        """The targets, once every file a planned run's systems need (stored outputs per
        benchmark and prompt, GGUF files, local model folders) is found
        (gendermt.workflow.system_files); `runs_of`: each benchmark's run records."""
        try:
            check_system_files(config, runs_of)
        except GenderMTError as exc:
            raise WorkflowError(str(exc)) from exc
        return self.targets


def explorer_files(inputs: dict[str, Any], results: str) -> list[str]:
    """The files among an explorer's inputs (EXPLORER_INPUTS' ``inputs``): paths under the run's
    results folder, alone or in lists, and the paths of run records (``{…, "path"}``, and a
    GAMBIT run's ``assignments``)."""
    found = []
    for value in inputs.values():
        for one in value if isinstance(value, list) else [value]:
            paths = ([one[k] for k in ("path", "assignments") if k in one]
                     if isinstance(one, dict) else [one])
            found.extend(p for p in paths if isinstance(p, str) and p.startswith(f"{results}/"))
    return found
