"""Which run a set of config files makes, and whether a report's config is the run's.

``make run`` / ``make report`` take the run's config files (``CONFIG="a.yaml b.yaml"``) and
need the run's name for the report's path: ``python -m gendermt.config.run report-path
[CONFIG...]`` prints ``results/<run>/report.html``; ``... check [CONFIG...]`` reads every file
strictly first (one line for a folder, a missing, UTF-16 or binary file, or a key given
twice, where ``snakemake --configfile`` gives a traceback or says nothing).

A report made with config files other than
those the run's results were made from says so on its front page (:func:`report_note`,
written by ``workflow/rules/report.smk`` at every start-up, shown by ``workflow.rst``)."""

from __future__ import annotations

import html
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from gendermt.config.files import DEFAULT_CONFIG, read_config
from gendermt.core.errors import GenderMTError

# What the front page compares: what the results were made from, not when or by which commit.
COMPARED = ("config_files", "benchmarks", "systems", "sources")


def run_name(configfiles: Sequence[str], root: str | Path = ".") -> str:
    """The run the files name, as Snakemake merges them (the last ``run:`` wins); none named:
    the embedded default's."""
    files = list(configfiles) or [str(Path(root) / DEFAULT_CONFIG)]
    name = None
    for path in files:
        data = read_config(path)
        if data.get("run") is not None:
            name = str(data["run"])
    return name or "default"


def check_files(configfiles: Sequence[str]) -> None:
    """Every config file readable, UTF-8 YAML, a mapping with no key twice
    (:func:`gendermt.config.files.read_config`): what Snakemake's own loading does not say
    in one line (``make run`` and ``make report`` call this first)."""
    for path in configfiles:
        read_config(path)


def differences(now: dict, last: dict) -> list[str]:
    """What of the run summary differs between this invocation's config and the last run's."""
    out = []
    for key in COMPARED:
        if now.get(key) != last.get(key):
            out.append(key.replace("_", " "))
    return out


def report_note(summary: dict, run_json: str | Path) -> str:
    """An HTML warning when this invocation's config is not the one ``run_json`` (the run
    summary its results were made with) records; empty when they agree."""
    path = Path(run_json)
    if not path.is_file():
        return ""
    last = json.loads(path.read_text(encoding="utf-8"))
    summary = json.loads(json.dumps(summary))  # as the run wrote it: JSON types
    changed = differences(summary, last)
    if not changed:
        return ""

    def files(s: dict) -> str:
        return ", ".join(f"<code>{html.escape(c['path'])}</code> ({c['sha256'][:8]})"
                         for c in s.get("config_files", [])) or "(none)"
    return ('<p class="gmt-config-differs" style="margin:.4em 0;padding:4px 8px;'
            'background:#fde2e1;border-left:4px solid #c0392b"><b>This report\'s config '
            'differs from the one its results were made with</b> (' + ", ".join(changed)
            + "): this report was made from " + files(summary) + "; the results from "
            + files(last) + ". The tables and figures are the last run's: run the workflow "
            "with these config files to bring them up to date.</p>")


def write_report_note(summary: dict, run_json: str | Path, dest: str | Path) -> Path:
    """:func:`report_note` written to ``dest`` (always: the report includes the file)."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    text = report_note(summary, run_json) + "\n"
    if not dest.is_file() or dest.read_text(encoding="utf-8") != text:
        dest.write_text(text, encoding="utf-8")
    return dest


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in ("report-path", "check"):
        print("usage: python -m gendermt.config.run report-path|check [CONFIG ...]",
              file=sys.stderr)
        return 2
    try:
        if args[0] == "check":
            check_files(args[1:])
        else:
            print(f"results/{run_name(args[1:])}/report.html")
    except GenderMTError as err:
        print(f"gendermt: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
