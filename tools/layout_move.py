"""The layout move of issue 54, as one script: every file move and the edits that follow it.

Run once from the repository root on the commit before the move (``python tools/layout_move.py``);
it is kept so that the move can be read, and replayed on a branch that forked before it. What it
does, in order:

1. relative imports in the package become absolute (so that a module can move alone);
2. the package's 45 top-level modules go into ten stage packages (:data:`MODULES`), and every
   reference to them (imports, dotted names in strings, file paths in docs) follows;
3. each benchmark's rule file, job scripts, report captions and prompt templates move into its
   package folder (``src/gendermt/benchmarks/<name>/``), their relative paths rewritten;
4. the tests go into tiers: ``tests/unit``, ``tests/workflow``, ``tests/benchmarks/<name>``.

Only imports, paths and names change: a module's code is otherwise left byte for byte, so the
content fingerprints (gendermt.workflow.fingerprints) of the jobs stay what they were.

The edits made by hand after it, in the same change (the commits after this script's run):
- two modules that find the checkout from ``__file__`` one folder deeper: data/sources.py
  (``PROJECT``, listed as equivalent in tools/legacy_fingerprints.py) and
  workflow/fingerprints.py (``ROOT``);
- GAMBIT's captions that its rule file names through f-strings (``report/{...}.rst``);
- fingerprints that follow content (gendermt.workflow.fingerprints), translation jobs' declared
  fingerprint (gendermt.workflow.translation_code), the legacy table
  (tools/legacy_fingerprints.py), script rules compared by content
  (gendermt.workflow.snakemake_overrides), a table's caption resolved from the rule file that
  names it (gendermt.workflow.targets);
- common.smk's logic into gendermt.workflow.{lookups,runs,targets,startup}, and the shared rule
  files merged to five; the tests' tiers finished by hand (make test-fast).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "gendermt"

#: old top-level module → its new dotted name under gendermt
MODULES = {
    "arrow_arrays": "data.arrow_arrays",
    "backends": "translation.backends",
    "cache": "translation.cache",
    "cache_cli": "cli.cache",
    "canonical": "config.canonical",
    "cli": "cli",
    "config_checks": "config.checks",
    "dag_guard": "workflow.dag_guard",
    "data_cli": "cli.data",
    "data_provenance": "data.provenance",
    "data_sources": "data.sources",
    "datasets": "data.datasets",
    "engine": "translation.engine",
    "env_requirements": "workflow.env_requirements",
    "errors": "config.errors",
    "extract": "translation.extract",
    "figure_marks": "report.figure_marks",
    "findings": "report.findings",
    "findings_cli": "cli.findings",
    "frontpage": "report.frontpage",
    "htmltable": "report.htmltable",
    "io": "data.io",
    "output": "cli.output",
    "output_checks": "scoring.output_checks",
    "placement": "workflow.placement",
    "plots": "report.plots",
    "postprocess": "translation.postprocess",
    "progress": "report.progress",
    "prompts": "translation.prompts",
    "protection": "workflow.protection",
    "provenance": "workflow.fingerprints",
    "report_labels": "report.labels",
    "rewriting": "translation.rewriting",
    "rule_file_cache": "workflow.rule_file_cache",
    "run_config": "config.run",
    "run_quality": "scoring.output_quality",
    "runinfo": "config.run_record",
    "scheduler_timers": "workflow.scheduler_timers",
    "source_translations": "translation.source_translations",
    "stage_tables": "data.stage_tables",
    "startup_cache": "workflow.startup_cache",
    "stored_cli": "cli.stored",
    "subsets": "data.subsets",
    "system_files": "config.system_files",
    "textfiles": "data.textfiles",
    "translate": "translation.runner",
}

#: the new stage packages, with what each holds
PACKAGES = {
    "cli": "The ``gendermt`` command line: the dispatcher and the commands that belong to no "
           "single stage.",
    "config": "A run's configuration: checks beyond the schema, canonical settings, the run's "
              "name and record, the files its systems need, and the errors meant for users.",
    "data": "Data in and out: public data sets and their sources, subsets, the files the tools "
            "read and the results they write (never half-written).",
    "translation": "Translation: prompts, the runner, the engine and its request cache, the "
                   "backends, post-processing and extraction.",
    "report": "What people read: the report's front page and tables, figures' plumbing and "
              "marks, the findings page, progress lines.",
    "workflow": "Helpers only the Snakefile uses: code fingerprints, placement, protection, "
                "and the overrides of Snakemake internals.",
}

#: rule file → (benchmark package, its name there)
RULE_FILES = {
    "conga.smk": ("conga", "rules.smk"),
    "declared.smk": ("declared", "rules.smk"),
    "fairtranslate.smk": ("fairtranslate", "rules.smk"),
    "gambit.smk": ("gambit", "rules.smk"),
    "gate.smk": ("gate", "rules.smk"),
    "gate_x_e.smk": ("gate_x_e", "rules.smk"),
    "mt_geneval.smk": ("mt_geneval", "rules.smk"),
    "neogate.smk": ("neogate", "rules.smk"),
    "neogate_flores.smk": ("neogate", "flores.smk"),
    "winomt.smk": ("winomt", "rules.smk"),
}

#: prompt template → benchmark package (its file name there drops the benchmark's name)
PROMPTS = {
    "conga-annotate.yaml": ("conga", "annotate.yaml"),
    "conga.yaml": ("conga", "translate.yaml"),
    "fairtranslate-code.yaml": ("fairtranslate", "code.yaml"),
    "fairtranslate.yaml": ("fairtranslate", "translate.yaml"),
    "gambit-judge.yaml": ("gambit", "judge.yaml"),
    "gambit.yaml": ("gambit", "translate.yaml"),
    "gate-x-e.yaml": ("gate_x_e", "rewrite.yaml"),
    "gate.yaml": ("gate", "rewrite.yaml"),
    "mt-geneval.yaml": ("mt_geneval", "translate.yaml"),
    "neogate-flores.yaml": ("neogate", "flores.yaml"),
    "neogate.yaml": ("neogate", "translate.yaml"),
    "winomt-fewshot.yaml": ("winomt", "fewshot.yaml"),
    "winomt.yaml": ("winomt", "translate.yaml"),
}

#: test files by benchmark package (the rest: unit or workflow)
TEST_BENCHMARKS = ("conga", "fairtranslate", "gambit", "gate_x_e", "gate", "mt_geneval",
                   "neogate", "winomt", "declared")
#: a test file runs Snakemake (the workflow tier) when it uses one of these
WORKFLOW_MARKS = re.compile(r"default_run|workflow_support|study_plans|dag_params|snakemake"
                            r"|\"make\"|make run")

TEXT_SUFFIXES = {".py", ".smk", ".md", ".yaml", ".yml", ".toml", ".rst", ".txt", ".cfg",
                 ".json", ".sh", ""}
SKIP_DIRS = {".git", ".venv", ".venv-comet", ".envs-check", "results", "logs", ".snakemake",
             "data-cache", "__pycache__", ".pytest_cache", ".ruff_cache", "node_modules"}


def git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True)


def mv(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    git("mv", str(src.relative_to(ROOT)), str(dst.relative_to(ROOT)))


def text_files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if any(part in SKIP_DIRS for part in rel.parts) or not path.is_file():
            continue
        if rel.parts[0] == "tools" and path.name == "layout_move.py":
            continue
        if path.suffix in TEXT_SUFFIXES and (path.suffix or path.name in
                                             {"Makefile", "Snakefile", "run"}):
            found.append(path)
    return found


# --- 1. relative imports → absolute --------------------------------------------------------


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT / "src").with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def absolute_imports(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    lines = source.splitlines(keepends=True)
    edits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            edits.append((node.lineno, node.col_offset, "." * node.level + (node.module or ""),
                          target))
    for lineno, col, old, new in sorted(edits, reverse=True):
        line = lines[lineno - 1]
        head = line[:col]
        rest = line[col:]
        assert rest.startswith("from "), (path, lineno, line)
        after = rest[len("from "):].lstrip()
        assert after.startswith(old), (path, lineno, line, old)
        lines[lineno - 1] = head + "from " + new + after[len(old):]
    path.write_text("".join(lines), encoding="utf-8")


# --- 2. the package's modules --------------------------------------------------------------


def new_path(old: str) -> Path:
    """The file or folder of an old top-level module's new place."""
    new = MODULES[old].split(".")
    if old == "cli":
        return PKG / "cli" / "__init__.py"
    if (PKG / old).is_dir() and old != "cli":
        return PKG.joinpath(*new)
    return PKG.joinpath(*new).with_suffix(".py")


def move_modules() -> None:
    sources = {old: PKG / old if (PKG / old).is_dir() else PKG / f"{old}.py" for old in MODULES}
    for pkg, doc in PACKAGES.items():
        (PKG / pkg).mkdir(exist_ok=True)
        init = PKG / pkg / "__init__.py"
        if pkg != "cli" and not init.exists():  # cli.py becomes cli/__init__.py
            init.write_text(f'"""{doc}"""\n', encoding="utf-8")
            git("add", str(init.relative_to(ROOT)))
    for old, src in sources.items():
        mv(src, new_path(old))


def split_from_gendermt(match: re.Match) -> str:
    """``from gendermt import a, b as c`` → one import per new parent package."""
    indent, names = match.group(1), match.group(2)
    names = names.replace("(", "").replace(")", "").replace("\\\n", " ")
    kept, lines = [], []
    for item in (n.strip() for n in names.split(",")):
        if not item:
            continue
        name, _, alias = (p.strip() for p in item.partition(" as "))
        if name not in MODULES:
            kept.append(item)
            continue
        parent, _, leaf = MODULES[name].rpartition(".")
        local = alias or name
        if not parent:  # a package that keeps its name (cli)
            lines.append(f"{indent}from gendermt import {leaf}" +
                         (f" as {local}" if local != leaf else ""))
        else:
            lines.append(f"{indent}from gendermt.{parent} import {leaf}" +
                         (f" as {local}" if local != leaf else ""))
    if kept:
        lines.insert(0, f"{indent}from gendermt import {', '.join(kept)}")
    return "\n".join(lines)


FROM_GENDERMT = re.compile(r"^([ \t]*)from gendermt import (\([^)]*\)|[^\n]*)", re.M)


def rewrite_references(text: str) -> str:
    text = FROM_GENDERMT.sub(split_from_gendermt, text)
    for old in sorted(MODULES, key=len, reverse=True):
        new = MODULES[old]
        text = re.sub(rf"(?<![\w.])gendermt\.{old}(?![\w])", f"gendermt.{new}", text)
        if old == "cli":
            new_file = "gendermt/cli/__init__.py"
        else:
            new_file = f"gendermt/{new.replace('.', '/')}.py"
        text = re.sub(rf"(?<![\w])gendermt/{old}\.py", new_file, text)
        text = re.sub(rf"(?<![\w])gendermt/{old}/", f"gendermt/{new.replace('.', '/')}/", text)
    return text


# --- 3. each benchmark in its folder -------------------------------------------------------

BENCH = PKG / "benchmarks"
UP = "../../../../"  # from src/gendermt/benchmarks/<name>/ to the repository root


def owned(pattern: str) -> dict[str, set[str]]:
    """A workflow/<kind>/ file → the rule files that name it."""
    found: dict[str, set[str]] = {}
    for rules in (ROOT / "workflow" / "rules").glob("*.smk"):
        for name in re.findall(pattern, rules.read_text(encoding="utf-8")):
            found.setdefault(name, set()).add(rules.name)
    return found


def bench_file_name(name: str, package: str, rules: str) -> str:
    """A script's or caption's name in its benchmark's folder: without the benchmark's prefix
    (neogate_flores_data.py → flores_data.py)."""
    prefix = rules.removesuffix(".smk") + "_"
    if name.startswith(prefix):
        rest = name[len(prefix):]
        return f"flores_{rest}" if rules == "neogate_flores.smk" else rest
    if name.startswith(package + "_"):
        return name[len(package) + 1:]
    return name


def move_benchmark_files() -> dict[str, str]:
    """Moves scripts and captions that one benchmark's rule files name; returns old → new
    path (repository-relative) of everything moved."""
    moved: dict[str, str] = {}
    for kind, pattern in (("scripts", r'"\.\./scripts/([\w.]+\.py)"'),
                          ("report", r'"\.\./report/([\w.]+\.rst)"')):
        for name, rule_files in owned(pattern).items():
            bench_rules = {r for r in rule_files if r in RULE_FILES}
            packages = {RULE_FILES[r][0] for r in bench_rules}
            if len(packages) != 1 or bench_rules != rule_files:
                continue  # shared: stays in workflow/
            (rules,) = sorted(bench_rules)[:1]
            package = RULE_FILES[rules][0]
            src = ROOT / "workflow" / kind / name
            dst = BENCH / package / kind / bench_file_name(name, package, rules)
            mv(src, dst)
            moved[str(src.relative_to(ROOT))] = str(dst.relative_to(ROOT))
    for old, (package, name) in PROMPTS.items():
        src = ROOT / "resources" / "prompts" / old
        dst = BENCH / package / "prompts" / name
        mv(src, dst)
        moved[str(src.relative_to(ROOT))] = str(dst.relative_to(ROOT))
    return moved


def rewrite_rule_file(text: str, moved: dict[str, str], package: str) -> str:
    here = f"src/gendermt/benchmarks/{package}/"

    def relative(match: re.Match) -> str:
        kind, name = match.group(1), match.group(2)
        repo_path = f"workflow/{kind}/{name}"
        if repo_path in moved and moved[repo_path].startswith(here):
            return f'"{moved[repo_path][len(here):]}"'
        return f'"{UP}workflow/{kind}/{name}"'

    text = re.sub(r'"\.\./(scripts|report)/([\w.]+)"', relative, text)
    return text.replace('"../../envs/', f'"{UP}envs/')


def move_rule_files(moved: dict[str, str]) -> None:
    for old, (package, name) in RULE_FILES.items():
        src = ROOT / "workflow" / "rules" / old
        dst = BENCH / package / name
        mv(src, dst)
        moved[str(src.relative_to(ROOT))] = str(dst.relative_to(ROOT))
        dst.write_text(rewrite_rule_file(dst.read_text(encoding="utf-8"), moved, package),
                       encoding="utf-8")


def rewrite_paths(text: str, moved: dict[str, str]) -> str:
    for old in sorted(moved, key=len, reverse=True):
        text = re.sub(rf"(?<![\w/.-]){re.escape(old)}(?![\w])", moved[old], text)
    return text


# --- 4. tests in tiers ---------------------------------------------------------------------


def test_tier(path: Path) -> Path:
    text = path.read_text(encoding="utf-8")
    if WORKFLOW_MARKS.search(text):
        return ROOT / "tests" / "workflow"
    stem = path.stem.removeprefix("test_")
    for bench in TEST_BENCHMARKS:
        if stem == bench or stem.startswith(bench + "_") or stem.startswith(
                bench.replace("_", "") + "_"):
            return ROOT / "tests" / "benchmarks" / bench
    return ROOT / "tests" / "unit"


def deepen(text: str, depth: int) -> str:
    """A test module ``depth`` folders below tests/: its relative imports of the support
    modules and its paths from __file__."""
    dots = "." * (depth + 1)
    text = re.sub(r"^(\s*)from \.(\w)", rf"\1from {dots}\2", text, flags=re.M)
    text = re.sub(r"^(\s*)from \. import", rf"\1from {dots} import", text, flags=re.M)
    text = text.replace("Path(__file__).resolve().parents[1]",
                        f"Path(__file__).resolve().parents[{depth + 1}]")
    text = text.replace("Path(__file__).parents[1]", f"Path(__file__).parents[{depth + 1}]")
    return text.replace('Path(__file__).parent / "data"',
                        f'Path(__file__).parents[{depth}] / "data"')


def move_tests() -> dict[str, str]:
    moved: dict[str, str] = {}
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        tier = test_tier(path)
        dst = tier / path.name
        folder = tier
        while folder != ROOT / "tests":
            init = folder / "__init__.py"
            if not init.exists():
                folder.mkdir(parents=True, exist_ok=True)
                init.write_text("", encoding="utf-8")
                git("add", str(init.relative_to(ROOT)))
            folder = folder.parent
        mv(path, dst)
        depth = len(dst.relative_to(ROOT / "tests").parts) - 1
        dst.write_text(deepen(dst.read_text(encoding="utf-8"), depth), encoding="utf-8")
        moved[str(path.relative_to(ROOT))] = str(dst.relative_to(ROOT))
    return moved


def main() -> int:
    for path in PKG.rglob("*.py"):
        absolute_imports(path)
    move_modules()
    moved = move_benchmark_files()
    move_rule_files(moved)
    moved.update(move_tests())
    for path in text_files():
        text = path.read_text(encoding="utf-8")
        new = rewrite_paths(rewrite_references(text), moved)
        if new != text:
            path.write_text(new, encoding="utf-8")
    print(f"moved {len(MODULES)} modules and {len(moved)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
