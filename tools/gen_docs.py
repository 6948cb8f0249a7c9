"""The README's and docs/' facts that the code knows, generated from it: ``make docs``
(``python -m tools.gen_docs``) rewrites every marked section

    <!-- BEGIN generated:NAME -->
    ...
    <!-- END -->

of README.md and docs/**/*.md from the benchmark registry, the embedded default config, the study
configs, the CLI's parser, the package's folders and a dry run of the default; ``--check`` rewrites
nothing and exits 1 naming the files that differ (tests/workflow/test_readme.py runs the same
comparison).

What the code cannot say (a benchmark's direction, what it measures, what its scorecard
figures mean) is written here once, per registry name: a benchmark or scorecard part without
an entry stops the generation, so a new benchmark cannot be left out of the README.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CONFIG = ROOT / "config" / "config.yaml"
STUDY = ROOT / "config" / "study"

MARKER = re.compile(r"(<!-- BEGIN generated:(?P<name>[\w:.-]+) -->)(?P<body>.*?)(<!-- END -->)",
                    re.S)
# A fenced code block: a marker in one is an example (docs/adding-a-benchmark.md gives a
# benchmark page's content), not a section of the page that holds it.
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
# Sections written inline, inside a sentence (no newlines around the body).
INLINE = {"job-count", "default-benchmarks"}

# A benchmark's row (direction, what it measures, its page under docs/benchmarks/) and its
# scorecard figures come from its contract (`direction`, `description`, `page`,
# `Scorecard.figures`); these tables hold only entries a contract does not give.
BENCHMARK_ROWS: dict[str, tuple[str, str, str]] = {}

# scorecard key → its figures: (JSON key pattern, what it is, better). {lang}, {paradigm}, {metric}
# stand for the run's target languages, Neo-GATE paradigms and FairTranslate's metrics (bleu; comet
# when scored). tests/workflow/test_readme.py checks every column of the default run's scorecard
# against these patterns. every benchmark's share of clean outputs (gendermt.scoring.output_checks):
# a quality floor
CLEAN = ("clean_share", "outputs neither an echo of the prompt nor in the wrong language, % "
         "(a quality floor)", "higher")
SCORECARD: dict[str, list[tuple[str, str, str]]] = {}


def key_pattern(pattern: str) -> re.Pattern[str]:
    """A SCORECARD key pattern as a regular expression over the legend's keys."""
    out = re.escape(pattern)
    for name in ("lang", "paradigm", "metric"):
        out = out.replace(re.escape("{" + name + "}"), r"[\w-]+")
    return re.compile(out)


def _registry():
    sys.path.insert(0, str(ROOT / "src"))
    from gendermt.core import registry
    return registry


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def default_config() -> dict:
    return _load(DEFAULT_CONFIG)


def study_configs() -> dict[str, list[str]]:
    """Study config (path from the project root) → the benchmark blocks it configures."""
    return {f"config/study/{p.name}": list(_load(p).get("benchmarks") or {})
            for p in sorted(STUDY.glob("*.yaml"))}


def default_systems(spec: dict) -> list[str]:
    """Every system a benchmark block of the default runs, in the config's order."""
    names = list(spec.get("systems") or [])
    for systems in (spec.get("paradigm_systems") or {}).values():
        names += list(systems)
    return list(dict.fromkeys(names))


def _missing(kind: str, names: list[str]) -> None:
    if names:
        raise SystemExit(f"tools/gen_docs.py: no {kind} for {', '.join(names)} "
                         "(gendermt.core.contract)")


def row_of(b) -> tuple[str, str, str]:
    """(direction, what it measures, page) of a benchmark: its contract's, else BENCHMARK_ROWS'."""
    if b.description:
        return b.direction, b.description, b.page or f"{b.name}.md"
    return BENCHMARK_ROWS[b.name]


def figures_of(card) -> list[tuple[str, str, str]]:
    """A scorecard part's figures: its contract's and the clean share, else SCORECARD's."""
    if card.figures:
        return [*card.figures, CLEAN]
    return SCORECARD[card.key]


def scorecard_figures() -> dict[str, list[tuple[str, str, str]]]:
    """Scorecard key → its figures (figures_of), for every benchmark on the scorecard."""
    return {b.scorecard.key: figures_of(b.scorecard) for b in _registry().benchmarks()
            if b.scorecard}


def _check_known() -> None:
    registry = _registry()
    _missing("direction and description in its contract", [
        b.name for b in registry.benchmarks()
        if not b.description and b.name not in BENCHMARK_ROWS])
    _missing("Scorecard figures in its contract", [
        b.scorecard.key for b in registry.benchmarks()
        if b.scorecard and not b.scorecard.figures and b.scorecard.key not in SCORECARD])


def page(name: str) -> str:
    return os.path.normpath(f"docs/benchmarks/{row_of(_registry().get(name))[2]}")


# ----------------------------------------------------------------------------- sections
def benchmarks_table() -> str:
    registry = _registry()
    default = default_config().get("benchmarks") or {}
    studies = study_configs()
    rows = ["| benchmark | config key | direction | what is measured | in the default | "
            "study config |", "|---|---|---|---|---|---|"]
    for b in registry.benchmarks():
        direction, what, _ = row_of(b)
        study = ", ".join(f"`{Path(p).name}`" for p, names in studies.items()
                          if b.name in names) or "—"
        rows.append(f"| [{b.label}]({page(b.name)}) | `{b.name}` | {direction} | {what} | "
                    f"{'yes' if b.name in default else 'no'} | {study} |")
    return "\n".join(rows)


def default_benchmarks() -> str:
    registry = _registry()
    default = default_config().get("benchmarks") or {}
    inside = [b.label for b in registry.benchmarks() if b.name in default]
    outside = [b.label for b in registry.benchmarks() if b.name not in default]
    total = len(registry.benchmarks())
    text = f"{len(inside)} of the {total} benchmark blocks ({', '.join(inside)})"
    if outside:
        text += f"; not {' nor '.join(outside)}, which run in their study configs"
    return text


def default_systems_table() -> str:
    registry = _registry()
    default = default_config().get("benchmarks") or {}
    rows = ["| benchmark | systems in the default run |", "|---|---|"]
    for b in registry.benchmarks():
        if b.name in default:
            names = ", ".join(f"`{s}`" for s in default_systems(default[b.name]))
            rows.append(f"| {b.label} | {names} |")
    return "\n".join(rows)


def default_systems_of(name: str) -> str:
    spec = (default_config().get("benchmarks") or {}).get(name)
    if spec is None:
        return (f"The default run (`config/config.yaml`) does not run `{name}`: add a "
                f"`benchmarks.{name}` block, or run its study config.")
    text = ("Systems of the default run (`config/config.yaml`, `benchmarks." + name
            + ".systems`" + (", `paradigm_systems`" if spec.get("paradigm_systems") else "")
            + "): " + ", ".join(f"`{s}`" for s in default_systems(spec)) + ".")
    for paradigm, systems in (spec.get("paradigm_systems") or {}).items():
        text += (f" {', '.join(f'`{s}`' for s in systems)} run on the `{paradigm}` runs "
                 "only.")
    for system, prompts in (spec.get("system_prompts") or {}).items():
        text += f" `{system}` runs on {', '.join(f'`{p}`' for p in prompts)} only."
    return text


def scorecard_table() -> str:
    registry = _registry()
    rows = ["| benchmark | JSON key | figure: JSON key (better) | read from |",
            "|---|---|---|---|"]
    for b in registry.benchmarks():
        if not b.scorecard:
            continue
        card = b.scorecard
        figures = "; ".join(f"{what}: `{key}` ({better})"
                            for key, what, better in figures_of(card))
        tables = ", ".join(f"`{t}`" for t in card.tables)
        rows.append(f"| {card.label} | `{card.key}` | {figures} | {tables} |")
    return "\n".join(rows)


def _leaves(parser: argparse.ArgumentParser, help_: str = "") -> Iterator[
        tuple[argparse.ArgumentParser, str]]:
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield parser, help_
    for action in subs:
        helps = {a.dest: a.help or "" for a in action._choices_actions}
        for name, child in action.choices.items():
            yield from _leaves(child, helps.get(name, ""))


def cli_commands() -> list[tuple[str, list[str], str]]:
    """(command, its required options as typed, its help) of every ``gendermt`` command."""
    sys.path.insert(0, str(ROOT / "src"))
    from gendermt.cli import build_parser

    out = []
    for leaf, help_ in _leaves(build_parser()):
        required = []
        for action in leaf._actions:
            if action.required and action.option_strings:
                opt = max(action.option_strings, key=len)
                metavar = action.metavar or action.dest.upper()
                required.append(f"{opt} {metavar}")
        out.append((leaf.prog, required, help_))
    return out


def cli_list() -> str:
    lines = ["```"]
    for prog, required, help_ in cli_commands():
        command = " ".join([prog, *required])
        lines.append(f"{command:<58}  # {help_}" if help_ else command)
    lines.append("```")
    return "\n".join(lines)


def job_count() -> str:
    """The default's jobs, as a dry run of a fresh copy of the project plans them."""
    snakemake = Path(sys.executable).with_name("snakemake")
    exe = str(snakemake) if snakemake.exists() else shutil.which("snakemake")
    if exe is None:
        raise SystemExit("tools/gen_docs.py: no snakemake beside this Python nor on PATH")
    with tempfile.TemporaryDirectory(prefix="gendermt-docs-") as tmp:
        for name in ("Snakefile", "workflow", "config", "resources", "envs", "profiles", "src"):
            src, dest = ROOT / name, Path(tmp) / name
            if src.is_dir():
                shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(src, dest)
        proc = subprocess.run([exe, "-n", "--cores", "2"], cwd=tmp, capture_output=True,
                              text=True, timeout=900)
    total = re.search(r"^total\s+(\d+)\s*$", proc.stdout + proc.stderr, re.M)
    if proc.returncode != 0 or total is None:
        raise SystemExit("tools/gen_docs.py: the default's dry run failed:\n"
                         + (proc.stdout + proc.stderr)[-3000:])
    return total[1]


PACKAGE = ROOT / "src" / "gendermt"

# A benchmark folder's parts (src/gendermt/benchmarks/<pkg>/): the shared ones, what each is.
# A file or folder no entry names is listed as the benchmark's own, so nothing is left out.
BENCHMARK_PARTS: dict[str, str] = {
    "contract.py": "its contract: what the workflow, the CLI, the scorecard and the docs need "
                   "of it (`CONTRACTS`)",
    "schema.yaml": "the schema of its config block `benchmarks.<name>`",
    "rules.smk": "its rule file (the contract's `rules`), included when the config has its "
                 "block",
    "scripts/": "one thin script per rule of its rule file",
    "report/": "the captions of its tables and figures in the report (Jinja `.rst`)",
    "prompts/": "its versioned prompt templates (YAML)",
    "dataset.yaml": "the manifest of its public data set (`gendermt.data.datasets`)",
    "data.py": "stage `data`: published files → `data.parquet` + `data.json`",
    "inputs.py": "stage `inputs`: data × template → `inputs/{prompt}.jsonl`",
    "evaluate.py": "stage `evaluate`: one run (system × prompt) → per-item results",
    "metric.py": "the metric's definitions and its signature",
    "tables.py": "stage `tables`: every run's results → its tables",
    "figures.py": "stage `figures`: tables → figures",
    "cli.py": "`gendermt score <name>`",
    "scorecard.py": "its scorecard figures, read from its tables",
    "explorer.py": "what its explorer page reads from each output, per item "
                   "(`read(**inputs)`: `gendermt.report.explorer`)",
    "findings.py": "its part of the findings page, docs/findings.md: its place there, what its "
                   "figures cannot show, its own sections (`part()`: `gendermt.report.findings`)",
    "config.py": "config checks and lookups of its block",
}


def _first_line(init: Path) -> str:
    """The first line of a module's docstring, as written (its first paragraph, joined)."""
    import ast

    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    return " ".join(doc.strip().split("\n\n")[0].split()) or "(no docstring)"


def packages_table() -> str:
    """Each top-level package of src/gendermt with the first line of its docstring."""
    rows = ["| package | what it holds (its docstring) |", "|---|---|"]
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        rows.append(f"| `src/gendermt/{init.parent.name}/` | {_first_line(init)} |")
    return "\n".join(rows)


def _benchmark_folders() -> list[Path]:
    return sorted(p.parent for p in (PACKAGE / "benchmarks").glob("*/contract.py"))


def _parts(folder: Path) -> list[str]:
    return sorted(p.name + ("/" if p.is_dir() else "") for p in folder.iterdir()
                  if p.name not in {"__init__.py", "__pycache__"})


def benchmark_folder_table() -> str:
    """A benchmark folder's parts (BENCHMARK_PARTS), and the benchmark packages that have
    each; then every part of one benchmark's own."""
    folders = _benchmark_folders()
    parts = {f.name: _parts(f) for f in folders}
    rows = ["| part | what it is | in |", "|---|---|---|"]
    for name, what in BENCHMARK_PARTS.items():
        having = [pkg for pkg, names in parts.items() if name in names]
        if not having:
            continue
        where = "every benchmark" if len(having) == len(folders) else ", ".join(
            f"`{pkg}`" for pkg in having)
        rows.append(f"| `{name}` | {what} | {where} |")
    own = [f"`{pkg}/{name}`" for pkg, names in parts.items() for name in names
           if name not in BENCHMARK_PARTS]
    rows.append(f"| other modules and files | the benchmark's own (analyses, readers, "
                f"extra rule files) | {', '.join(own)} |")
    return "\n".join(rows)


PERF_RESULTS = ROOT / "perf" / "results.json"


def performance_table() -> str:
    """The perf/ scripts' last recorded comparisons (``--record``: perf/results.json), one
    row each, with the date and machine they were measured on: never typed by hand."""
    import json

    if not PERF_RESULTS.is_file():
        return "No recorded measurements (perf/results.json is absent)."
    data = json.loads(PERF_RESULTS.read_text(encoding="utf-8"))
    rows = ["| workload | gendermt (median) | bare (median) | ratio | measured |",
            "|---|---|---|---|---|"]
    for script in sorted(data):
        entry = data[script]
        for c in entry["comparisons"]:
            unit = "s" if "seconds" in c["unit"] else c["unit"]
            rows.append(f"| {c['label']} (`perf/{script}.py`) | {c['median_a']:.3g} {unit} | "
                        f"{c['median_b']:.3g} {unit} | {c['ratio']:.2f}× | {entry['date']}, "
                        f"{entry['machine']}, load {entry['load_average'][0]} |")
    return "\n".join(rows)


def generators(with_job_count: bool = True) -> dict[str, Callable[[], str]]:
    registry = _registry()
    out: dict[str, Callable[[], str]] = {
        "benchmarks": benchmarks_table,
        "default-benchmarks": default_benchmarks,
        "default-systems": default_systems_table,
        "scorecard-columns": scorecard_table,
        "cli": cli_list,
        "performance": performance_table,
        "packages": packages_table,
        "benchmark-folder": benchmark_folder_table,
    }
    for b in registry.benchmarks():
        out[f"default-systems:{b.name}"] = lambda name=b.name: default_systems_of(name)
    if with_job_count:
        out["job-count"] = job_count
    return out


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def render(text: str, sections: dict[str, str], where: str = "") -> str:
    """``text`` with every marked section's body replaced (a section not in ``sections``
    is left as it is)."""
    def body(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in sections or _fenced(text, match.start()):
            return match[0]
        value = sections[name]
        inner = value if name in INLINE else f"\n{value}\n"
        return f"{match[1]}{inner}{match[4]}"
    return MARKER.sub(body, text)


def _fenced(text: str, pos: int) -> bool:
    """Whether ``pos`` of ``text`` is inside a fenced code block."""
    return any(m.start() < pos < m.end() for m in FENCE.finditer(text))


def names_in(text: str) -> list[str]:
    """The marked sections of ``text``, those in fenced code blocks left out."""
    return [m["name"] for m in MARKER.finditer(text) if not _fenced(text, m.start())]


def generate(paths: list[Path] | None = None, with_job_count: bool = True,
             known: dict[str, str] | None = None) -> dict[Path, tuple[str, str]]:
    """path → (committed text, freshly generated text) of every document with markers.
    ``known``: sections already computed (the tests pass the default run's job count)."""
    _check_known()
    gens = generators(with_job_count)
    docs = paths or documents()
    texts = {p: p.read_text(encoding="utf-8") for p in docs}
    wanted = {n for t in texts.values() for n in names_in(t)}
    unknown = sorted(wanted - set(gens) - set(known or {}) - ({"job-count"}
                                                                if not with_job_count else set()))
    if unknown:
        raise SystemExit(f"tools/gen_docs.py: unknown generated section(s) {', '.join(unknown)}")
    sections = {**{n: gens[n]() for n in wanted if n in gens}, **(known or {})}
    return {p: (t, render(t, sections)) for p, t in texts.items() if names_in(t)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.gen_docs", description=__doc__)
    parser.add_argument("--check", action="store_true",
                        help="rewrite nothing; exit 1 naming the files that differ")
    args = parser.parse_args(argv)
    stale = []
    for path, (old, new) in generate().items():
        if old != new:
            stale.append(path.relative_to(ROOT))
            if not args.check:
                path.write_text(new, encoding="utf-8")
    if args.check and stale:
        print("out of date (run `make docs`): " + ", ".join(map(str, stale)), file=sys.stderr)
        return 1
    for path in stale:
        print(f"rewrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
