"""The findings page (docs/findings.md) of one run, written from that run's own files.

Every figure on the page is read from the run's scorecard (``scorecard/scorecard.json`` and
``scorecard/legend.csv``, the scorecard stage's outputs) and printed as the scorecard prints
it (two decimals, CIs in brackets); the data sets come from the run summary
(``report/run.json``). The sentences that say what the figures show are generated from the
same values (which system is best on each figure, by the figure's own "better" direction);
only what the figures *cannot* show is fixed text, per benchmark. Nothing on the page is
typed by hand: ``gendermt findings`` rewrites it, and a test checks the page equals the run's.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import GenderMTError

UNDEFINED = "–"  # as the scorecard: the system ran, the figure is undefined there
DIGITS = 2  # as the scorecard's Markdown

#: Benchmarks' labels and order on the page (the scorecard's keys).
LABELS = {"fairtranslate": "FairTranslate", "winomt": "WinoMT", "mt-geneval": "MT-GenEval",
          "gate-x-e": "GATE X-E", "gate": "GATE", "neogate": "Neo-GATE",
          "grape": "GAMBIT", "conga": "ConGA"}

#: What the figures of each benchmark cannot show (fixed text: no figure in it).
LIMITS: dict[str, str] = {
    "winomt": (
        "The commercial systems' outputs are the ones published with WinoMT (translated "
        "in 2019 from an earlier en.txt: two rows differ from today's sentences) and say "
        "nothing about those services today. Apertium has no English→French or "
        "English→Italian pair: its fr and it outputs are English→Spanish→French/Italian, "
        "so they carry the Spanish step's gender choices and errors (the system names say "
        "`via-es`). Gender is read from the output by word alignment and morphology, not by "
        "a person: an output the reader cannot parse counts as wrong, and ΔS and ΔG "
        "compare systems only where accuracy is comparable."),
    "mt-geneval": (
        "Accuracy counts an output with none of the gendered words of either reference as "
        "correct (the official rule), so a system that drops or garbles the gendered word "
        "is not penalised: read it beside BLEU (and chrF, in mt-geneval/tables/quality.csv). "
        "The counterfactual accuracy is the authors' official figure: a pair counts only "
        "when both its masculine and its feminine translations are correct, so it sits "
        "below both genders' own accuracies; the gap beside it says which gender fails. "
        "Only a system that reads the prompt (an LLM) is shown a contextual item's context "
        "sentence; Apertium and the reference points translate the sentence without its "
        "context (the summary table's context_shown), so their contextual accuracy "
        "measures what they guess, not how they use the context. "
        "Apertium's French and Italian go through Spanish. The references are one human "
        "translation each: BLEU and chrF under-rate valid alternatives."),
    "gate-x-e": (
        "The rule-based rewriter changes pronouns only (he/she/they and their forms): "
        "instances whose gendered words are nouns (brother/sister) cannot be rewritten "
        "by it, and the oracle and keep-original rows are reference points, not systems."),
    "gate": (
        "No system that runs offline rewrites Spanish, French or Italian gender: the rows "
        "are the metric's reference points on the real data (the references themselves "
        "and the input left unchanged), not findings about any rewriter. Gemma 3 270M, "
        "prompted few-shot as on the other benchmarks (three demonstrations of a gender "
        "swap, then the request), was tried on a handful of GATE's Spanish requests and "
        "gave back the translation unchanged or shortened, never the rewrite: what the "
        "unchanged-input row already shows, so it does not run GATE here."),
}
#: What a run on a subset adds to a benchmark's paragraph where an LLM takes part (fixed
#: text: no figure in it; the subset itself is named by the table's heading).
SUBSET_LIMITS: dict[str, str] = {
    "gate-x-e": (
        "Gemma is asked for the all-neutral rewrite alone, one line after three "
        "demonstrations in the source language (the paper's GPT-3.5 setting, Appendix B, "
        "with the source sentence shown): its feminine and masculine rewrites are made from "
        "the original translation by the same pronoun rule (her/his read from its neutral "
        "answer), so its figure on gendered requests is partly the rule's, and an answer "
        "that rewrites a noun (brother → sibling) is right only for the neutral request. An "
        "answer that changes any other word is wrong: the metric is exact match. A few "
        "dozen tuples from a few instances a language say which rewriter is far ahead, not "
        "by how much."),
}
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
#: Figures of an LLM on a subset too small for any tolerance to mean anything: MT-GenEval's
#: per-language figures of config/study/public-gemma.yaml rest on 5 contextual items and 2
#: counterfactual pairs a language, where one changed output moves them by 20 to 50 points.
#: The check only requires them to be figures (or – where the page has –); the benchmark's
#: BLEU over all its items is checked within LLM_TOLERANCE.
LLM_UNCHECKED = {"MT-GenEval": ("counterfactual gap", "counterfactual correct words",
                                "contextual accuracy", "contextual correct words")}
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
#: What the page says where an LLM's figures would go and none has run yet.
PENDING_LLM = ("No LLM has run in this study yet: the Gemma 3 270M few-shot rows (a fixed, "
               "seeded, stratified subset per benchmark and language) are added by another "
               "change; a model of 270 M parameters, on a subset, will not speak for larger "
               "models or for the full test sets.")


def _num(x: Any) -> float:
    return math.nan if x is None else float(x)


def fmt(value: float, ci: Sequence[Any] | None = None) -> str:
    """A figure as the page prints it (the scorecard's format)."""
    if value is None or math.isnan(value):
        return UNDEFINED
    text = f"{value:.{DIGITS}f}"
    if ci is not None and ci[0] is not None and not math.isnan(float(ci[0])):
        text += f" [{float(ci[0]):.{DIGITS}f}, {float(ci[1]):.{DIGITS}f}]"
    return text


def read_run(results: str | Path) -> dict[str, Any]:
    """The run's scorecard records, legend and summary."""
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
            "low": low_quality(results / "scorecard" / "scorecard.md")}


def low_quality(markdown: Path) -> set[tuple[str, str]]:
    """(system, column) of the cells the run's scorecard marks "(low quality)": below its
    benchmark's quality floor (the JSON form does not carry the mark)."""
    if not markdown.is_file():
        return set()
    rows = [line for line in markdown.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ")]
    if not rows:
        return set()
    head = [c.strip() for c in rows[0].strip().strip("|").split("|")]
    marked = set()
    for row in rows[1:]:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        marked |= {(cells[0], head[i]) for i, c in enumerate(cells)
                   if i and c.endswith("(low quality)")}
    return marked


def _kind_of(summary: Mapping[str, Any]) -> dict[str, str]:
    from .backends import system_kind

    return {s["system"]: system_kind({"backend": s.get("backend", "")})
            for s in summary.get("systems", [])}


def _best(values: dict[str, float], better: str) -> tuple[str, float] | None:
    values = {s: v for s, v in values.items() if not math.isnan(v)}
    if not values:
        return None
    if better == "higher":
        key = max(values, key=lambda s: values[s])
    elif better == "lower":
        key = min(values, key=lambda s: values[s])
    elif better.startswith("closer to "):
        target = float(better.removeprefix("closer to ").split()[0])
        key = min(values, key=lambda s: abs(values[s] - target))
    else:
        return None
    return key, values[key]


def benchmark_section(key: str, run: Mapping[str, Any], level: str = "##",
                      subset: str = "") -> list[str]:
    """One benchmark's table (every figure of the scorecard, every system that ran it) and
    its paragraph; ``subset`` names the items when the run has a subset of them."""
    legend = run["legend"][run["legend"]["benchmark"] == key]
    kinds = _kind_of(run["summary"])
    records = [r for r in run["card"] if r.get(key) is not None]
    if legend.empty or not records:
        return []
    label = LABELS.get(key, key)
    head = ["system", *[str(c).split(" · ", 1)[-1] for c in legend["column"]]]
    title = f"{label}, on a subset: {subset}" if subset else label
    lines = [f"{level} {title}", "",
             "| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] + ["--:"] * (len(head) - 1)) + "|"]
    values: dict[str, dict[str, float]] = {}
    for record in records:
        system, part = record["system"], record[key]
        cells = []
        for fig in legend.itertuples():
            value = _num(part.get(fig.key))
            values.setdefault(fig.key, {})[system] = value
            low = " (low quality)" if (system, fig.column) in run.get("low", ()) else ""
            cells.append(fmt(value, part.get(f"{fig.key}_ci")) + low)
        shown = system if kinds.get(system, "model") == "model" else \
            f"{system} ({kinds[system]})"
        lines.append("| " + " | ".join([shown, *cells]) + " |")
    lines.append("")
    # each run once, in the systems' order (a system's `run` may list several)
    runs = list(dict.fromkeys(p for r in records if r[key].get("run")
                              for p in str(r[key]["run"]).split(", ") if p))
    units = "; ".join(f"{str(f.column).split(' · ', 1)[-1]}: {f.unit}, better {f.better}"
                      for f in legend.itertuples())
    lines += [f"Run{'s' if len(runs) > 1 else ''}: {', '.join(runs) or 'the only one'}. "
              f"{units}.", ""]
    # what the figures show, from the figures: the best system on each (oracles are
    # reference points, not contenders; nor is a figure below its quality floor)
    def contenders(fig) -> dict[str, float]:
        return {s: v for s, v in values.get(fig.key, {}).items()
                if kinds.get(s, "model") != "oracle" and not math.isnan(v)
                and (s, fig.column) not in run.get("low", ())}

    systems = sorted({s for fig in legend.itertuples() for s in contenders(fig)})
    shown = []
    for fig in legend.itertuples():
        pool = contenders(fig)
        best = _best(pool, fig.better)
        if best:
            of = f", of {len(pool)}" if len(pool) > 1 else ", the only one"
            shown.append(f"{str(fig.column).split(' · ', 1)[-1]}: {best[0]} "
                         f"({fmt(best[1])}{of})")
    if shown:
        lines += [f"**What the figures show.** The best system on each figure (of "
                  f"{', '.join(systems)}; oracles, and figures below their quality floor, "
                  "left out): " + "; ".join(shown) + ".", ""]
    if key in LIMITS:
        on = (f" Every row of this table is of the same subset, {subset}, never of the "
              "full set: compare it with the full-set table above only through the "
              "systems both have." if subset else "")
        llm = (f" {SUBSET_LIMITS[key]}" if subset and key in SUBSET_LIMITS
               and any(_is_llm(run["summary"], r["system"]) for r in records) else "")
        lines += [f"**What they cannot show.** {LIMITS[key]}{llm}{on}", ""]
    return lines


def subset_of(results: str | Path, key: str) -> str:
    """A run's subset of a benchmark's items in words (its data.json), "" for the whole
    set."""
    from .subsets import describe

    path = Path(results) / key / "data.json"
    if not path.is_file():
        return ""
    return describe(json.loads(path.read_text(encoding="utf-8")).get("subset") or {})


def subset_sections(results: str | Path) -> list[str]:
    """A run on subsets (config/study/public-gemma.yaml): its benchmarks' tables, each
    naming its subset, under a heading of their own."""
    run = read_run(results)
    summary = run["summary"]
    name = summary.get("run", Path(results).name)
    configs = ", ".join(f"`{c['path']}`" for c in summary.get("config_files", []))
    benchmarks = [k for k in LABELS if any(r.get(k) is not None for r in run["card"])]
    llms = [s for s in _kind_of(summary) if _is_llm(summary, s)]
    lines = [f"## On subsets: run `{name}`", "",
             f"Run `{name}` ({configs or 'no config file'}) scores "
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
        lines.append(f"| {d['dataset']} | {d['repository']} | `{d['commit'][:12]}` | "
                     f"{d['licence']} | {len(d['files'])} |")
    return lines + ["", "Every file's sha256 is in the run summary (`report/run.json`) and in "
                        "each benchmark's `data.json`; the manifests are listed in "
                        "docs/data-sources.md.", ""]


def page(results: str | Path, command: str, subsets: Sequence[str | Path] = ()) -> str:
    """The findings page of the run in ``results`` (and of runs on subsets, ``subsets``)."""
    run = read_run(results)
    summary = run["summary"]
    configs = ", ".join(f"`{c['path']}`" for c in summary.get("config_files", []))
    benchmarks = [k for k in LABELS if any(r.get(k) is not None for r in run["card"])]
    kinds = _kind_of(summary)
    lines = [f"# Findings: run `{summary.get('run', Path(results).name)}`", "",
             f"Written by `{command}` from that run's scorecard (every figure as the "
             "scorecard prints it: two decimals, confidence intervals in brackets where the "
             "scorecard has them; – where a figure is undefined or the system did not run "
             "that part, e.g. a language pair it lacks). Do not edit: regenerate. "
             f"Config: {configs or '(none)'}.", ""]
    lines += data_section(summary)
    for key in benchmarks:
        lines += benchmark_section(key, run, subset=subset_of(results, key))
    parts = [subset_sections(r) for r in subsets]
    runs_llm = any(k == "model" and _is_llm(summary, s) for s, k in kinds.items())
    if not runs_llm and not any(LLM_NOTE in part for part in parts):
        lines += ["## LLMs", "", PENDING_LLM, ""]
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
    for line in text.splitlines():
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        elif line.startswith("| system"):
            head = [c.strip() for c in line.strip().strip("|").split("|")]
        elif section != "Data" and line.startswith("| "):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            found += [(section, cells[0], head[i] if i < len(head) else "",
                       c.removesuffix(" (low quality)")) for i, c in enumerate(cells) if i]
    return found


def _unchecked(section: str, column: str) -> bool:
    benchmark = section.split(",", 1)[0]
    return any(column.startswith(c) for c in LLM_UNCHECKED.get(benchmark, ()))


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
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
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
