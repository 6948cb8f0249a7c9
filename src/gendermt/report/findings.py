"""The findings page (docs/findings.md) of one run, written from that run's own files.

Every figure on the page is read from the run's scorecard (``scorecard/scorecard.json`` and
``scorecard/legend.csv``, the scorecard stage's outputs) and printed as the scorecard prints
it (two decimals, CIs in brackets); the data sets come from the run summary
(``report/run.json``). The sentences that say what the figures show are generated from the
same values (which system is best on each figure, by the figure's own "better" direction);
only what the figures *cannot* show is fixed text, per benchmark, and it lives in the
benchmark's own package (its ``findings`` module's :class:`Part`, which its contract names):
this module assembles the page and names no benchmark. Nothing on the page is typed by hand:
``gendermt findings`` rewrites it, and a test checks the page equals the run's.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.core import registry
from gendermt.core.contract import resolve
from gendermt.core.errors import GenderMTError
from gendermt.report.mdtext import md_cells, md_code, md_text

UNDEFINED = "–"  # as the scorecard: the system ran, the figure is undefined there
DIGITS = 2  # as the scorecard's Markdown

#: What a run can be made of, as far as every benchmark's fixed text depends on it (a
#: benchmark's facts, :func:`run_facts`): an LLM ran it ("llm"); only reference points and
#: baselines did ("reference-only"); none of its data is a project sample ("real"); and the
#: facts a benchmark's :class:`Part` adds of its own (which backend ran it, whose outputs).
SHARED_FACTS = frozenset({"llm", "reference-only", "real"})
#: A benchmark's own fact: whether it holds, from the run summary and the systems that ran
#: the benchmark (their entries of the summary's ``systems``).
Fact = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]]], bool]
#: A benchmark's tables the page reads, by name (``<name>.csv`` of its tables folder).
Tables = Mapping[str, pd.DataFrame]


@dataclass(frozen=True)
class Part:
    """A benchmark's own part of the page, from its package (its contract's
    ``scorecard.findings`` names the function that returns it): only what the figures cannot
    say is fixed text, and it lives beside the benchmark, never here."""

    #: Its position on the page (lower first).
    order: int
    #: facts → what its figures cannot show, said only of what the run has ("" for none).
    limits: Callable[[frozenset[str]], str] | None = None
    #: Its own facts (name → whether it holds) beyond :data:`SHARED_FACTS`.
    facts: Mapping[str, Fact] = field(default_factory=dict)
    #: What a run on a subset adds to its paragraph where an LLM takes part ("" for nothing).
    subset_limits: str = ""
    #: Its figures an LLM's on a small subset are only checked to be there for (column
    #: names' beginnings; :func:`differences`).
    llm_unchecked: tuple[str, ...] = ()
    #: Its tables the page reads beside the scorecard (results/<run>/<name>/tables/*.csv).
    tables: tuple[str, ...] = ()
    #: Lines after its table's "Runs" line (its tables → lines).
    after_runs: Callable[[Tables], list[str]] | None = None
    #: Sections after its full-set table (its tables → lines).
    sections: Callable[[Tables], list[str]] | None = None


@dataclass(frozen=True)
class OnPage:
    """A benchmark on the page: its scorecard key, results folder, label and part."""

    key: str
    folder: str
    label: str
    part: Part


@cache
def on_page() -> dict[str, OnPage]:
    """The benchmarks the page knows (those whose contract names a part), by scorecard key,
    in the page's order."""
    found = [OnPage(b.scorecard.key, b.name, b.label, resolve(b.scorecard.findings)())
             for b in registry.benchmarks() if b.scorecard and b.scorecard.findings]
    return {b.key: b for b in sorted(found, key=lambda b: b.part.order)}


def _part(key: str) -> Part | None:
    known = on_page().get(key)
    return known.part if known else None


def labels() -> dict[str, str]:
    """The benchmarks' labels on the page, by scorecard key, in the page's order."""
    return {key: b.label for key, b in on_page().items()}


def facts() -> frozenset[str]:
    """Every fact any benchmark's text depends on (what the public study has)."""
    return SHARED_FACTS.union(*(b.part.facts for b in on_page().values()))


def backend_ran(backend: str) -> Fact:
    """The fact that a system of ``backend`` ran the benchmark."""
    return lambda summary, ran: any(s.get("backend", "") == backend for s in ran)


def limits_text(key: str, facts: frozenset[str] | set[str]) -> str:
    """What the figures of benchmark ``key`` cannot show (fixed text: no figure in it), said
    only of what the run has (``facts``: those of :func:`facts` that hold for it); "" for
    none. With every fact (the public study) it is :func:`limits`."""
    part = _part(key)
    return part.limits(frozenset(facts)) if part and part.limits else ""


def limits() -> dict[str, str]:
    """What the figures of each benchmark with such text cannot show, for a run with every
    fact (the public study's; each run's own: :func:`limits_text`)."""
    return {key: limits_text(key, facts()) for key, b in on_page().items() if b.part.limits}


def subset_limits() -> dict[str, str]:
    """What a run on a subset adds to a benchmark's paragraph where an LLM takes part (fixed
    text: no figure in it; the subset itself is named by the table's heading)."""
    return {key: b.part.subset_limits for key, b in on_page().items() if b.part.subset_limits}


#: How far an LLM's figure on the committed page may be from CI's run's, in the figure's own
#: unit (accuracy points, BLEU points, ...). Greedy decoding is deterministic on one machine
#: (the request cache and the test of batch 1 vs 8 show it), but another CPU's float kernels
#: (other SIMD widths, another summation order in the 4-bit matrix products) can break a
#: near-tie between two tokens the other way, and that item's output changes from there on.
#: On the subset's 24 WinoMT sentences one changed output moves an accuracy by 4.17 points and
#: a ΔS or ΔG by up to twice that over 12 sentences; on GATE X-E's 64 tuples one changed
#: answer (a request: its two or three tuples) moves the rewriting accuracy by 3 to 5
#: points. A tolerance of 10 points allows about two changed outputs per figure and still
#: catches a page from another config, prompt or model (figures differ by tens of points
#: there). Every other figure must be equal.
LLM_TOLERANCE = 10.0
#: What the page says of an LLM's figures (with the tolerance above).
LLM_NOTE = (
    "Gemma 3 270M is a base model of 270 M parameters, 4-bit (Q4_K_M), prompted few-shot "
    "(three of the project's own demonstrations per language, greedy, each answer ending at "
    "its newline): it says nothing of larger or instruction-tuned models, and its figures "
    "are of a small subset, so their confidence intervals are wide. Greedy decoding is "
    "deterministic on one machine, but another CPU's arithmetic can break a near-tie "
    "between two tokens the other way: CI checks Gemma's figures on this page within "
    f"±{LLM_TOLERANCE:g} points of its own run (on WinoMT's 24 sentences or GATE X-E's "
    "64 tuples, about two changed outputs per figure), except its per-language MT-GenEval "
    "figures, which rest on 5 contextual items and 2 counterfactual pairs a language (one "
    "changed output moves them by 20 to 50 points) and are only checked to be there; every "
    "other system's figures exactly.")
#: What the page says when neither the run nor a run on subsets it is given has an LLM.
NO_LLM = ("No LLM ran in run {run} (no system of an LLM backend: hf-causal, "
          "openai-compatible, vllm), and no run on subsets was given (`--subset-results`): "
          "the tables above are of its other systems only.")



def num(x: Any) -> float:
    """A figure read from JSON or a table (None: NaN)."""
    return math.nan if x is None else float(x)


def fmt(value: float, ci: Sequence[Any] | None = None, digits: int = DIGITS) -> str:
    """A figure as the page prints it (the scorecard's format; ``digits``: a figure
    published with fewer, such as the paper's one decimal)."""
    if value is None or math.isnan(value):
        return UNDEFINED
    text = f"{value:.{digits}f}"
    if ci is not None and ci[0] is not None and not math.isnan(float(ci[0])):
        text += f" [{float(ci[0]):.{DIGITS}f}, {float(ci[1]):.{DIGITS}f}]"
    return text


def read_run(results: str | Path) -> dict[str, Any]:
    """The run's scorecard records, legend and summary, and the tables the benchmarks' parts
    read (``tables``: scorecard key → table name → table)."""
    results = Path(results)
    files = {"card": results / "scorecard" / "scorecard.json",
             "legend": results / "scorecard" / "legend.csv",
             "summary": results / "report" / "run.json"}
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        raise GenderMTError(f"{results}: not a finished run's results folder (missing "
                            f"{', '.join(missing)}; run the study first)")
    return {"card": json.loads(files["card"].read_text(encoding="utf-8")),
            "legend": pd.read_csv(files["legend"], dtype=str, keep_default_na=False),
            "summary": json.loads(files["summary"].read_text(encoding="utf-8")),
            "low": low_quality(results / "scorecard" / "scorecard.md"),
            "tables": {key: read_tables(results / b.folder / "tables", b.part.tables)
                       for key, b in on_page().items() if b.part.tables}}


def read_tables(folder: Path, names: Sequence[str]) -> dict[str, pd.DataFrame]:
    """The tables ``names`` of a benchmark's tables folder that the run has."""
    return {name: pd.read_csv(path) for name, path in
            ((name, folder / f"{name}.csv") for name in names) if path.is_file()}


def low_quality(markdown: Path) -> set[tuple[str, str]]:
    """(system, column) of the cells the run's scorecard marks "(low quality)": below its
    benchmark's quality floor (the JSON form does not carry the mark)."""
    if not markdown.is_file():
        return set()
    rows = [line for line in markdown.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ")]
    if not rows:
        return set()
    head = md_cells(rows[0])
    marked = set()
    for row in rows[1:]:
        cells = [c.replace("\\|", "|") for c in md_cells(row)]
        marked |= {(cells[0], head[i]) for i, c in enumerate(cells)
                   if i and c.endswith("(low quality)")}
    return marked


def _kind_of(summary: Mapping[str, Any]) -> dict[str, str]:
    from gendermt.core.backends import system_kind

    return {s["system"]: system_kind({"backend": s.get("backend", "")})
            for s in summary.get("systems", [])}


#: How "What the figures show" reads its figures (gendermt.analysis.resample: paired
#: bootstrap of each contender against the leader on the same items, Holm-corrected).
CLAIMS_INTRO = (
    "Per figure, the lead group: the leader and every system that a paired test on the "
    "same items (bootstrap, Holm-corrected within the figure) cannot separate from it; one "
    "system is named as leading only where the test separates it from every other; oracles, "
    "and figures below their quality floor, are left out")


def _units(n: Any, unit: str) -> str:
    """``n = 3,888 sentences`` (the units a figure rests on; ``unit``: their plural), ""
    where unknown."""
    if n is None or (isinstance(n, float) and math.isnan(n)):
        return ""
    if int(n) == 1:  # its singular: "1 counterfactual pair (per language)"
        unit = re.sub(r"s( \(|$)", r"\1", unit, count=1)
    return f"n = {int(n):,}{f' {unit}' if unit else ''}"


def claim(fig: Any, pool: Mapping[str, float], parts: Mapping[str, Mapping[str, Any]]
          ) -> str:
    """What one figure shows about its contenders (``pool``: system → value), from the
    scorecard's paired tests (``<key>_lead``) and units (``<key>_n``); "" where it has no
    contender. A single system is named only where the test separates it; a lone system,
    an exact tie or a lead the test cannot separate are said as such, with n."""
    if not pool:
        return ""
    label = str(fig.column).split(" · ", 1)[-1]
    # the units resampled, as the legend's interval method names them ("... over sentences")
    found = re.search(r" over ([^();]+?)(?: \(|;|$)", str(getattr(fig, "interval", "") or ""))
    unit = found.group(1).strip() if found else ""
    ns = {s: (parts.get(s) or {}).get(f"{fig.key}_n") for s in pool}
    known = sorted({int(n) for n in ns.values() if n is not None})
    n = _units(known[0], unit) if len(known) == 1 else (
        "n = " + ", ".join(f"{s} {int(v):,}" for s, v in ns.items() if v is not None)
        + (f" {unit}" if unit else "") if known else "")
    at = f", {n}" if n else ""
    if len(pool) == 1:
        (system, value), = pool.items()
        return f"{label}: {system} alone ({fmt(value)}{at}; no other system to compare)"
    if len({round(v, DIGITS) for v in pool.values()}) == 1:
        return (f"{label}: tie, {', '.join(pool)} ({fmt(next(iter(pool.values())))}"
                f"{at})")
    leads = {s: (parts.get(s) or {}).get(f"{fig.key}_lead") for s in pool}
    group = [s for s in pool if leads[s]]
    if all(v is None for v in leads.values()) or not group:
        return f"{label}: no paired test, so no leader named ({n or 'n unknown'})"
    if len(group) == 1:
        others = "the other" if len(pool) == 2 else f"each of the {len(pool) - 1} others"
        return (f"{label}: {group[0]} leads ({fmt(pool[group[0]])}; separated from "
                f"{others}{at})")
    if len(group) == len(pool):
        return f"{label}: not separable: {', '.join(group)} ({n or 'n unknown'})"
    return (f"{label}: not separable: {', '.join(group)} (ahead of "
            f"{', '.join(s for s in pool if s not in group)}{at})")


def benchmark_section(key: str, run: Mapping[str, Any], level: str = "##",
                      subset: str = "") -> list[str]:
    """One benchmark's table (every figure of the scorecard, every system that ran it) and
    its paragraph; ``subset`` names the items when the run has a subset of them."""
    legend = run["legend"][run["legend"]["benchmark"] == key]
    kinds = _kind_of(run["summary"])
    records = [r for r in run["card"] if r.get(key) is not None]
    if legend.empty or not records:
        return []
    label = labels().get(key, key)
    own = _part(key)
    head = ["system", *[md_text(str(c).split(" · ", 1)[-1]) for c in legend["column"]]]
    title = f"{label}, on a subset: {md_text(subset)}" if subset else label
    lines = [f"{level} {title}", "",
             "| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] + ["--:"] * (len(head) - 1)) + "|"]
    values: dict[str, dict[str, float]] = {}
    for record in records:
        system, part = record["system"], record[key]
        cells = []
        for fig in legend.itertuples():
            value = num(part.get(fig.key))
            values.setdefault(fig.key, {})[system] = value
            low = " (low quality)" if (system, fig.column) in run.get("low", ()) else ""
            cells.append(fmt(value, part.get(f"{fig.key}_ci")) + low)
        shown = md_text(system) if kinds.get(system, "model") == "model" else \
            f"{md_text(system)} ({kinds[system]})"
        lines.append("| " + " | ".join([shown, *cells]) + " |")
    lines.append("")
    # each run once, in the systems' order (a system's `run` may list several)
    runs = list(dict.fromkeys(p for r in records if r[key].get("run")
                              for p in str(r[key]["run"]).split(", ") if p))
    units = "; ".join(md_text(f"{str(f.column).split(' · ', 1)[-1]}: {f.unit}, better "
                              f"{f.better}") for f in legend.itertuples())
    lines += [f"Run{'s' if len(runs) > 1 else ''}: "
              f"{', '.join(map(md_text, runs)) or 'the only one'}. "
              f"{units}.", ""]
    if own and own.after_runs:
        lines += own.after_runs(run.get("tables", {}).get(key, {}))
    # what the figures show: per figure, its lead group by the paired test (never a
    # plain max: oracles, figures below their quality floor and undefined ones left out)
    def contenders(fig) -> dict[str, float]:
        return {s: v for s, v in values.get(fig.key, {}).items()
                if kinds.get(s, "model") != "oracle" and not math.isnan(v)
                and (s, fig.column) not in run.get("low", ())}

    systems = sorted({s for fig in legend.itertuples() for s in contenders(fig)})
    # the claims name systems as the table does (as text, never as Markdown)
    parts = {md_text(r["system"]): r[key] for r in records}
    shown = [c for fig in legend.itertuples()
             if (c := claim(fig, {md_text(s): v for s, v in contenders(fig).items()}, parts))]
    if shown:
        named = ", ".join(map(md_text, systems))
        lines += [f"**What the figures show.** {CLAIMS_INTRO} (of {named}): "
                  + "; ".join(shown) + ".", ""]
    cannot = limits_text(key, run_facts(key, run["summary"]))
    if cannot:
        on = (f" Every row of this table is of the same subset, {subset}, never of the "
              "full set: compare it with the full-set table above only through the "
              "systems both have." if subset else "")
        llm = (f" {own.subset_limits}" if subset and own and own.subset_limits
               and any(_is_llm(run["summary"], r["system"]) for r in records) else "")
        lines += [f"**What they cannot show.** {cannot}{llm}{on}", ""]
    return lines


def run_facts(key: str, summary: Mapping[str, Any]) -> frozenset[str]:
    """The facts (:func:`facts`) that hold for benchmark ``key`` in a run (its summary,
    report/run.json): what its systems are and whether its data are the project's samples. A
    summary without systems' benchmarks or sources (an older run's) has every fact: the text
    as it was."""
    systems = summary.get("systems") or []
    if not systems or any("benchmarks" not in s for s in systems):
        return facts()
    ran = [s for s in systems if key in s["benchmarks"]]
    part = _part(key)
    found = {name for name, holds in (part.facts if part else {}).items()
             if holds(summary, ran)}
    if any(_is_llm(summary, s["system"]) for s in ran):
        found.add("llm")
    if ran and all(s.get("kind", "model") in ("oracle", "baseline") for s in ran):
        found.add("reference-only")
    data = [s for s in summary.get("sources") or [] if s.get("benchmark") == key
            and s.get("data", True)]
    if not any(s.get("sample") for s in data):
        found.add("real")
    return frozenset(found)


def sample_warning(summary: Mapping[str, Any]) -> list[str]:
    """The page's warning where any of the run's data is a project sample (as the report's
    front page warns, gendermt.report.frontpage.verdict); [] where none is."""
    data = [s for s in summary.get("sources") or [] if s.get("data", True)]
    samples = sorted({str(s.get("benchmark", "")) for s in data if s.get("sample")})
    if not samples:
        return []
    if all(s.get("sample") for s in data):
        return ["> **Sample data.** Every data set of this run is a sample the project wrote "
                "itself (resources/), not a benchmark's published data: these figures check "
                "the workflow end to end; they are not findings about any system.", ""]
    return [f"> **Sample data.** The data of {', '.join(map(md_text, samples))} in this run "
            "are samples the project wrote itself (resources/), not the published data: "
            "their figures check the workflow; they are not findings about any system.", ""]


def subset_of(results: str | Path, key: str) -> str:
    """A run's subset of a benchmark's items in words (its data.json), "" for the whole
    set."""
    from gendermt.data.subsets import describe

    path = Path(results) / key / "data.json"
    if not path.is_file():
        return ""
    return describe(json.loads(path.read_text(encoding="utf-8")).get("subset") or {})


def known_benchmarks(results: str | Path, card: Sequence[Mapping[str, Any]]) -> list[str]:
    """The benchmarks of a run's scorecard that the page knows (:func:`labels`), in the
    page's order; none is an error naming what the run has, not an empty page."""
    benchmarks = [k for k in labels() if any(r.get(k) is not None for r in card)]
    if not benchmarks:
        has = sorted({k for r in card for k, v in r.items() if k != "system" and v})
        raise GenderMTError(f"{results}: no benchmark the findings page knows in its "
                            f"scorecard (it has {', '.join(has) or 'none'}; the page knows "
                            f"{', '.join(labels())}); run one of those first")
    return benchmarks


def subset_sections(results: str | Path) -> list[str]:
    """A run on subsets (config/study/public-gemma.yaml): its benchmarks' tables, each
    naming its subset, under a heading of their own."""
    run = read_run(results)
    summary = run["summary"]
    name = summary.get("run", Path(results).name)
    configs = ", ".join(md_code(c["path"]) for c in summary.get("config_files", []))
    benchmarks = known_benchmarks(results, run["card"])
    llms = [md_text(s) for s in _kind_of(summary) if _is_llm(summary, s)]
    lines = [f"## On subsets: run {md_code(name)}", "",
             f"Run {md_code(name)} ({configs or 'no config file'}) scores "
             f"{', '.join(llms) or 'its systems'} beside systems of the full-set tables on a "
             "fixed, stratified, seeded subset of each benchmark's items (every system on "
             "the same items; the subset is recorded in each benchmark's `data.json`). Its "
             "figures are of the subset only and are never mixed with the tables above.", ""]
    if llms:
        lines += [LLM_NOTE, ""]
    for key in benchmarks:
        lines += benchmark_section(key, run, "###", subset_of(results, key) or "the whole set")
    return lines


def data_section(summary: Mapping[str, Any]) -> list[str]:
    sets = summary.get("datasets") or []
    if not sets:
        return []
    lines = ["## Data", "", "| data set | repository | commit | licence | files |",
             "|---|---|---|---|--:|"]
    for d in sets:
        lines.append(f"| {md_text(d['dataset'])} | {md_text(d['repository'])} | "
                     f"{md_code(d['commit'][:12]).replace('|', chr(92) + '|')} | "
                     f"{md_text(d['licence'])} | {len(d['files'])} |")
    return lines + ["", "Every file's sha256 is in the run summary (`report/run.json`) and in "
                        "each benchmark's `data.json`; the manifests are listed in "
                        "docs/data-sources.md.", ""]


def page(results: str | Path, command: str, subsets: Sequence[str | Path] = ()) -> str:
    """The findings page of the run in ``results`` (and of runs on subsets, ``subsets``)."""
    run = read_run(results)
    summary = run["summary"]
    configs = ", ".join(md_code(c["path"]) for c in summary.get("config_files", []))
    benchmarks = known_benchmarks(results, run["card"])
    kinds = _kind_of(summary)
    lines = [f"# Findings: run {md_code(summary.get('run', Path(results).name))}", "",
             f"Written by {md_code(command)} from that run's scorecard (every figure as the "
             "scorecard prints it: two decimals, its confidence interval in brackets, a "
             "bootstrap over the benchmark's own unit (sentence, item, pair, instance, row), "
             "paired across the systems scored on the same items, whose level, unit, "
             "resamples and seed are in the run's scorecard/legend.csv and each table's "
             "signature; – where a figure is undefined or the system did not run that part, "
             "e.g. a language pair it lacks). Do not edit: regenerate (the command also "
             "writes findings.json, the page's figures, claims and text, which its check "
             f"compares the page with). Config: {configs or '(none)'}.", ""]
    lines += sample_warning(summary)
    lines += data_section(summary)
    for key in benchmarks:
        subset = subset_of(results, key)
        lines += benchmark_section(key, run, subset=subset)
        own = _part(key)
        if own and own.sections and not subset:
            lines += own.sections(run.get("tables", {}).get(key, {}))
    parts = [subset_sections(r) for r in subsets]
    runs_llm = any(k == "model" and _is_llm(summary, s) for s, k in kinds.items())
    if not runs_llm and not any(LLM_NOTE in part for part in parts):
        name = md_code(summary.get("run", Path(results).name))
        lines += ["## LLMs", "", NO_LLM.format(run=name), ""]
    for part in parts:
        lines += part
    return "\n".join(lines).rstrip("\n") + "\n"


def _is_llm(summary: Mapping[str, Any], system: str) -> bool:
    llm = {"hf-causal", "openai-compatible", "vllm"}
    return any(s["system"] == system and s.get("backend") in llm
               for s in summary.get("systems", []))


def figures_of(text: str) -> list[str]:
    """Every figure printed in a page's benchmark tables (cells of table rows, the system
    column and the data table left out), in order: what the test compares with the run's."""
    return [row[-1] for row in rows_of(text)]


def rows_of(text: str) -> list[tuple[str, str, str, str]]:
    """(section, system, column, figure) of every figure of a page's benchmark tables, in
    order."""
    found, section, head = [], "", []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        elif _is_head(lines, k):
            head = md_cells(line)
        elif section != "Data" and line.startswith("| "):
            cells = md_cells(line)
            found += [(section, cells[0], head[i] if i < len(head) else "",
                       c.removesuffix(" (low quality)")) for i, c in enumerate(cells) if i]
    return found


def _unchecked(section: str, column: str) -> bool:
    label = section.split(",", 1)[0]
    unchecked = next((b.part.llm_unchecked for b in on_page().values() if b.label == label), ())
    return any(column.startswith(c) for c in unchecked)


def llm_systems(results: str | Path) -> set[str]:
    """The LLM systems of a run (those whose figures the page's check allows a tolerance)."""
    summary = read_run(results)["summary"]
    return {s for s in _kind_of(summary) if _is_llm(summary, s)}


def _numbers(figure: str) -> list[float] | None:
    try:
        return [float(x) for x in figure.replace("[", " ").replace("]", " ")
                .replace(",", " ").split()]
    except ValueError:
        return None


def _masked(text: str, tolerant: set[str]) -> list[str]:
    """The page's lines with what may differ by the tolerance masked: the figures of the
    tolerant systems' rows, and the sentences generated from figures in subset sections."""
    out, on_subsets = [], False
    for line in text.splitlines():
        on_subsets = on_subsets or line.startswith("## On subsets")
        cells = md_cells(line)
        if line.startswith("| ") and cells[0].split(" (")[0] in tolerant:
            out.append(f"| {cells[0]} | (within the tolerance)")
        elif on_subsets and line.startswith("**What the figures show.**"):
            out.append("**What the figures show.** (from the figures)")
        else:
            out.append(line)
    return out


def differences(committed: str, regenerated: str, tolerant: set[str] = frozenset(),
                tolerance: float = LLM_TOLERANCE) -> list[str]:
    """How a committed page differs from the one regenerated from a run: every figure must
    be equal, except those of ``tolerant`` systems (LLMs), which may differ by
    ``tolerance`` in their own unit; the rest of the text must be equal. [] when it is the
    run's page."""
    found = []
    tolerant = {md_text(s) for s in tolerant}  # as the page names them
    a, b = rows_of(committed), rows_of(regenerated)
    if [r[:3] for r in a] != [r[:3] for r in b]:
        return ["the tables' rows differ from the run's (regenerate the page)"]
    for (section, system, column, x), (*_, y) in zip(a, b, strict=True):
        if x == y:
            continue
        nx, ny = _numbers(x), _numbers(y)
        comparable = (system.split(" (")[0] in tolerant and nx is not None
                      and ny is not None and len(nx) == len(ny))
        if comparable and (_unchecked(section, column) or all(
                abs(p - q) <= tolerance + 1e-9 for p, q in zip(nx, ny, strict=True))):
            continue
        found.append(f"{section} · {system}: {x} on the page, {y} in the run")
    if _masked(committed, tolerant) != _masked(regenerated, tolerant):
        found.append("the page's text differs from the run's (regenerate it)")
    return found


def _is_head(lines: Sequence[str], k: int) -> bool:
    """Whether line ``k`` is a Markdown table's header (the separator line follows it)."""
    return (lines[k].startswith("| ") and k + 1 < len(lines)
            and lines[k + 1].startswith("|--"))


def cells_of(text: str) -> list[dict[str, str]]:
    """Every cell of a page's tables as printed (marks and intervals included), with its
    section, row and column: what the page's machine-readable copy holds."""
    found, section, head = [], "", []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        elif line.startswith("| "):
            cells = md_cells(line)
            if _is_head(lines, k):
                head = cells
                continue
            found += [{"section": section, "row": cells[0],
                       "column": head[i] if i < len(head) else "", "text": c}
                      for i, c in enumerate(cells) if i]
    return found


def claims_of(text: str) -> list[str]:
    """The page's generated sentences about its figures ("What the figures show")."""
    return [line for line in text.splitlines()
            if line.startswith("**What the figures show.**")]


def prose_of(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line of a page that is neither a table row nor a claim:
    headings and paragraphs, whose figures (the WinoMT reader's differences from the paper,
    counts of items) a hand edit could change as well."""
    return [(n, line) for n, line in enumerate(text.splitlines(), 1)
            if not line.startswith("| ") and not line.startswith("**What the figures show.**")]


def copy_of(text: str, command: str) -> dict[str, Any]:
    """The page's machine-readable copy (docs/findings.json beside docs/findings.md): every
    table cell as printed, every claim and every other line (``text``), so that a hand edit
    of the page (a figure, an interval, a "(low quality)" mark, anywhere) is caught without
    the run's results."""
    return {"command": command, "cells": cells_of(text), "claims": claims_of(text),
            "text": [line for _, line in prose_of(text)]}


def copy_text(copy: Mapping[str, Any]) -> str:
    """The copy as JSON, one cell and one claim a line (a diff shows what moved)."""
    def items(values: Sequence[Any]) -> str:
        return ",\n".join(f"    {json.dumps(v, ensure_ascii=False)}" for v in values)

    return (f'{{\n  "command": {json.dumps(copy["command"], ensure_ascii=False)},\n'
            f'  "cells": [\n{items(copy["cells"])}\n  ],\n'
            f'  "claims": [\n{items(copy["claims"])}\n  ],\n'
            f'  "text": [\n{items(copy.get("text", []))}\n  ]\n}}\n')


def copy_differences(text: str, copy: Mapping[str, Any]) -> list[str]:
    """How a page differs from its machine-readable copy ([] when it is the copy's)."""
    found = []
    cells = cells_of(text)
    if len(cells) != len(copy.get("cells", [])):
        found.append(f"the page has {len(cells)} table cells, its copy "
                     f"{len(copy.get('cells', []))}")
    for got, want in zip(cells, copy.get("cells", []), strict=False):
        if got != want:
            found.append(f"{want['section']} · {want['row']} · {want['column']}: "
                         f"{got['text']!r} on the page, {want['text']!r} in its copy")
    if claims_of(text) != list(copy.get("claims", [])):
        found.append("the page's claims differ from its copy's (regenerate the page)")
    if "text" not in copy:
        found.append("its copy has no text lines (regenerate the page and its copy with the "
                     "command the page names)")
        return found
    prose, want = prose_of(text), list(copy["text"])
    for (n, line), wanted in zip(prose, want, strict=False):
        if line != wanted:
            found.append(f"line {n}: the page's text differs from its copy's "
                         f"(regenerate the page)")
            break
    else:
        if len(prose) != len(want):
            found.append(f"the page has {len(prose)} lines of text, its copy {len(want)} "
                         f"(regenerate the page)")
    return found

