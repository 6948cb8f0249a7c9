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
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.core.errors import GenderMTError
from gendermt.report.mdtext import md_cells, md_code, md_text

UNDEFINED = "–"  # as the scorecard: the system ran, the figure is undefined there
DIGITS = 2  # as the scorecard's Markdown

#: Benchmarks' labels and order on the page (the scorecard's keys).
LABELS = {"fairtranslate": "FairTranslate", "winomt": "WinoMT", "mt-geneval": "MT-GenEval",
          "gate-x-e": "GATE X-E", "gate": "GATE", "neogate": "Neo-GATE",
          "grape": "GAMBIT", "conga": "ConGA"}

#: What a run can be made of, as far as the fixed text below depends on it (a benchmark's
#: facts, :func:`run_facts`): an Apertium system ran it ("apertium"); WinoMT's published
#: commercial outputs did ("published"); the project's rule-based rewriter did
#: ("rule-rewriter"); an LLM did ("llm"); only reference points and baselines did
#: ("reference-only"); none of its data is a project sample ("real").
FACTS = frozenset({"apertium", "published", "rule-rewriter", "llm", "reference-only", "real"})


def limits_text(key: str, facts: frozenset[str] | set[str]) -> str:
    """What the figures of benchmark ``key`` cannot show (fixed text: no figure in it), said
    only of what the run has (``facts``: :data:`FACTS` that hold for it); "" for none. With
    every fact (the public study) it is :data:`LIMITS`."""
    real = "real" in facts
    if key == "winomt":
        parts = [
            "The commercial systems' outputs are the ones published with WinoMT (translated "
            "in 2019 from an earlier en.txt: two rows differ from today's sentences) and say "
            "nothing about those services today." if "published" in facts else "",
            "Apertium has no English→French or English→Italian pair: its fr and it outputs are "
            "English→Spanish→French/Italian, so they carry the Spanish step's gender choices "
            "and errors (the system names say `via-es`). Apertium gives each occupation the "
            "same gender in nearly every sentence, whatever the English says: its ΔS comes "
            "from which gender its dictionaries give each occupation (the occupations table "
            "below), not from resisting stereotypes, so its ΔS near or below 0 is no sign of "
            "fairness." if "apertium" in facts else "",
            "Gender is read from the output by word alignment and morphology, not by a person"
            + (" (the readers' agreement with labelled entities is below)" if real else "")
            + ": an output the reader cannot parse counts as wrong, and ΔS and ΔG compare "
            "systems only where accuracy is comparable."]
    elif key == "mt-geneval":
        without_context = ("Apertium and the reference points" if "apertium" in facts
                           else "the other systems")
        parts = [
            "Accuracy counts an output with none of the gendered words of either reference as "
            "correct (the official rule), so a system that drops or garbles the gendered word "
            "is not penalised: read it beside BLEU (and chrF, in mt-geneval/tables/quality.csv).",
            "The counterfactual accuracy is the authors' official figure: a pair counts only "
            "when both its masculine and its feminine translations are correct, so it sits "
            "below both genders' own accuracies; the gap beside it says which gender fails.",
            "Only a system that reads the prompt (an LLM) is shown a contextual item's context "
            f"sentence; {without_context} translate the sentence without its context (the "
            "summary table's context_shown), so their contextual accuracy measures what they "
            "guess, not how they use the context.",
            "Apertium's French and Italian go through Spanish." if "apertium" in facts else "",
            "The references are one " + ("human " if real else "") + "translation each: BLEU "
            "and chrF under-rate valid alternatives."]
    elif key == "gate-x-e":
        rewriter = "rule-rewriter" in facts
        parts = [
            "The rule-based rewriter (rule-rewriter) is the project's own word-list pronoun "
            "rewriter, not the paper's rule-based baseline (Appendix B's is Sun et al. 2021), "
            "and it was developed on GATE X-E's real pronoun-only pairs, so its figure here is "
            "not a held-out estimate. It changes pronouns only (he/she/they and their forms): "
            "instances whose gendered words are nouns (brother/sister) cannot be rewritten "
            "by it, and the oracle and keep-original rows are reference points, not systems."
            if rewriter else
            "The oracle and keep-original rows are reference points, not systems."]
    elif key == "gate":
        parts = [
            "No system that runs offline rewrites Spanish, French or Italian gender: the rows "
            "are the metric's reference points on the "
            + ("real data" if real else "project's sample") + " (the references themselves "
            "and the input left unchanged), not findings about any rewriter."
            if "reference-only" in facts else "",
            "Gemma 3 270M, prompted few-shot as on the other benchmarks (three demonstrations "
            "of a gender swap, then the request), was tried on a handful of GATE's Spanish "
            "requests and gave back the translation unchanged or shortened, never the "
            "rewrite: what the unchanged-input row already shows, so it does not run GATE "
            "here." if real and "reference-only" in facts else ""]
    else:
        return ""
    return " ".join(p for p in parts if p)


#: What the figures of each benchmark cannot show, for a run with every fact (the public
#: study's; each run's own: :func:`limits_text`).
LIMITS: dict[str, str] = {key: limits_text(key, FACTS)
                          for key in ("winomt", "mt-geneval", "gate-x-e", "gate")}
#: What a run on a subset adds to a benchmark's paragraph where an LLM takes part (fixed
#: text: no figure in it; the subset itself is named by the table's heading).
SUBSET_LIMITS: dict[str, str] = {
    "winomt": (
        "On the subset, the published systems' and Apertium's lines are aligned with their "
        "translations of all 3,888 sentences, so their figures are the full run's reading "
        "of the same items; the LLM's lines, the only ones it translated, are aligned on "
        "their own, a corpus of a few dozen pairs that gives poorer links (the summary "
        "table's alignment_corpus)."),
    "gate-x-e": (
        "Gemma is asked for the all-neutral rewrite alone, one line after three "
        "demonstrations in the source language (the task of the paper's GPT-3.5 rewriter, "
        "Appendix B, which sees no source sentence and, few-shot, five demonstrations): its "
        "feminine and masculine rewrites are made from "
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
#: What the page says when neither the run nor a run on subsets it is given has an LLM.
NO_LLM = ("No LLM ran in run {run} (no system of an LLM backend: hf-causal, "
          "openai-compatible, vllm), and no run on subsets was given (`--subset-results`): "
          "the tables above are of its other systems only.")


#: WinoMT's tables the page reads beside the scorecard (the reader's signature, the paper's
#: Table 2 beside each reader, the occupations that carry ΔS).
WINOMT_TABLES = ("summary", "readers", "occupations", "validation", "validation_heldout",
                 "validation_people", "paper", "adjectives")
#: Occupations named per system and language as carrying its ΔS (largest contributions).
TOP_OCCUPATIONS = 3
#: Where the labelled sample and its protocol are described.
LABELS_PAGE = "docs/winomt-labels.md"
#: Where the readers' differences are measured and explained.
FIDELITY = "docs/winomt-fidelity.md"


def _num(x: Any) -> float:
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
            "low": low_quality(results / "scorecard" / "scorecard.md"),
            "tables": {name: pd.read_csv(path) for name, path in (
                (name, results / "winomt" / "tables" / f"{name}.csv")
                for name in WINOMT_TABLES) if path.is_file()}}


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
    label = LABELS.get(key, key)
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
            value = _num(part.get(fig.key))
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
    if key == "winomt":
        lines += winomt_reader_lines(run.get("tables", {}))
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
    limits = limits_text(key, run_facts(key, run["summary"]))
    if limits:
        on = (f" Every row of this table is of the same subset, {subset}, never of the "
              "full set: compare it with the full-set table above only through the "
              "systems both have." if subset else "")
        llm = (f" {SUBSET_LIMITS[key]}" if subset and key in SUBSET_LIMITS
               and any(_is_llm(run["summary"], r["system"]) for r in records) else "")
        lines += [f"**What they cannot show.** {limits}{llm}{on}", ""]
    return lines


def run_facts(key: str, summary: Mapping[str, Any]) -> frozenset[str]:
    """The :data:`FACTS` that hold for benchmark ``key`` in a run (its summary, report/run.json):
    what its systems are and whether its data are the project's samples. A summary without
    systems' benchmarks or sources (an older run's) has every fact: the text as it was."""
    systems = summary.get("systems") or []
    if not systems or any("benchmarks" not in s for s in systems):
        return FACTS
    ran = [s for s in systems if key in s["benchmarks"]]
    backends = {s.get("backend", "") for s in ran}
    commits = [d.get("commit", "") for d in summary.get("datasets") or []
               if d.get("dataset") == "winomt" and d.get("commit")]
    facts = set()
    if "apertium" in backends:
        facts.add("apertium")
    if "rule-rewriter" in backends:
        facts.add("rule-rewriter")
    if any(_is_llm(summary, s["system"]) for s in ran):
        facts.add("llm")
    if any(s.get("backend") == "stored" and any(c in str(s.get("model", "")) for c in commits)
           for s in ran):
        facts.add("published")
    if ran and all(s.get("kind", "model") in ("oracle", "baseline") for s in ran):
        facts.add("reference-only")
    data = [s for s in summary.get("sources") or [] if s.get("benchmark") == key
            and s.get("data", True)]
    if not any(s.get("sample") for s in data):
        facts.add("real")
    return frozenset(facts)


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


def winomt_reader_lines(tables: Mapping[str, pd.DataFrame]) -> list[str]:
    """The reader behind WinoMT's table (its name and signature) and the entities it read
    from a word that is no translation of the occupation (``artefacts``), per system."""
    summary = tables.get("summary")
    if summary is None or "signature" not in summary:
        return []
    readers = ", ".join(md_code(r) for r in dict.fromkeys(summary["reader"].astype(str)))
    signatures = "; ".join(md_code(s) for s in dict.fromkeys(summary["signature"].astype(str)))
    lines = [f"Reader: {readers}, the project's default reader (gender read from the "
             f"aligned words of each entity; signature {signatures}). The paper's figures and "
             f"the authors' own reader are beside it below; {FIDELITY} says where and why "
             "they differ.", ""]
    if "artefacts" in summary:
        counts = [f"{md_text(r.system)} ({md_text(r.lang)}) {int(r.artefacts)}"
                  for r in summary.itertuples() if not pd.isna(r.artefacts)]
        lines += ["Artefacts (entities read from a word that is not a translation of the "
                  "occupation, e.g. *la motor* for driver; per system and language, of "
                  f"{int(summary['n'].max()):,} sentences): {', '.join(counts)}. An entity read "
                  "from an artefact says nothing about the system's gender choice for that "
                  "person; Apertium's are mostly English or Spanish words it left "
                  f"untranslated ({FIDELITY}).", ""]
    return lines


def paper_section(tables: Mapping[str, pd.DataFrame], level: str = "###") -> list[str]:
    """The paper's Table 2 (Stanovsky et al. 2019) beside the authors' reader as published
    (``published``) and the project's default reader, per system and language, with the
    measured causes of each difference (readers.csv)."""
    readers = tables.get("readers")
    if readers is None or readers.empty:
        return []
    figures = (("acc", "accuracy"), ("delta_g", "ΔG"), ("delta_s", "ΔS"))
    sources = (("published", "paper"), ("published_reader", "authors' reader"),
               ("corrected", "default reader"))
    head = ["system", "lang"] + [f"{label}: {who}" for _, label in figures
                                 for _, who in sources]
    lines = [f"{level} WinoMT: the paper's Table 2 beside the readers", "",
             "Stanovsky et al. (ACL 2019), Table 2, over the same published outputs and all "
             "3,888 sentences: the paper's figure, the authors' reader as its code was in "
             "2019 (`published`, which the project re-implements and checks against the "
             "paper's logs) and the project's default reader. – where the paper has no "
             f"figure (Apertium is not in the paper). Causes of the differences: {FIDELITY}.",
             "", "| " + " | ".join(head) + " |",
             "|" + "|".join(["---", "---"] + ["--:"] * (len(head) - 2)) + "|"]
    for r in readers.to_dict("records"):
        # the paper and the authors' reader print one decimal (the authors' rounding)
        cells = [fmt(_num(r.get(f"{fig}_{src}")), digits=DIGITS if src == "corrected" else 1)
                 for fig, _ in figures for src, _ in sources]
        lines.append("| " + " | ".join([md_text(r["system"]), md_text(r["lang"]), *cells])
                     + " |")
    lines.append("")
    off = [f"{md_text(r['system'])} ({md_text(r['lang'])}): {r['published_off']}"
           for r in readers.to_dict("records")
           if isinstance(r.get("published_off"), str) and r["published_off"]]
    if off:
        lines += ["Where the authors' reader misses the paper by more than its goal (fr and "
                  "de 0.5, es and it 1.0 points): " + "; ".join(off) + f". The measured "
                  f"cause of each is in readers.csv and {FIDELITY} (fr: spaCy's French "
                  "model of 2019 is not installable; es and it: word lists stand in for "
                  "spaCy 2's models).", ""]
    return lines


#: The readers of the paper's tables on the page, in order, and their names there.
PAPER_READERS = (("published", "authors' reader"), ("corrected", "default reader"))
#: The figures of the paper's tables, in order, and their names on the page.
PAPER_METRICS = (("acc", "accuracy"), ("delta_g", "ΔG"), ("delta_s", "ΔS"))


def _source_cell(source: Any, commit: Any) -> str:
    """A published file and its commit as the page names them (`repo/path` @ `abc123def456`;
    a file of no declared data set: its path alone), "run here" for a system with no file."""
    if not isinstance(source, str) or not source:
        return "run here"
    if not isinstance(commit, str) or not commit:
        return f"`{source}`"
    return f"`{source}` @ `{commit[:12]}`"


def _unchecked_note(rows: pd.DataFrame, column: str, what: str) -> list[str]:
    """A sentence naming the paper's figures no second source has confirmed (their CSV's
    ``checked`` says "not checked ..."), [] where there are none."""
    if column not in rows:
        return []
    marked = rows[rows[column].astype(str).str.startswith("not checked")]
    if marked.empty:
        return []
    runs = ", ".join(dict.fromkeys(f"{s} ({lang})" for s, lang in
                                   zip(marked["system"], marked["lang"], strict=True)))
    return [f"The paper's {what} for {runs} were typed in without the paper's text at hand "
            "and no log of them was published: their resource file marks them unchecked; "
            "check them against the paper before quoting them.", ""]


def paper_intervals_section(tables: Mapping[str, pd.DataFrame], level: str = "###"
                            ) -> list[str]:
    """The paper's Table 2 and its academic systems' table beside the authors' reader as
    published and the project's default reader, each reader's figure with its interval over
    sentences (paper.csv), n, the file read and its commit; [] where the run has no
    paper.csv (the readers-only section then stands in)."""
    table = tables.get("paper")
    if table is None or table.empty:
        return []
    readers = [(r, name) for r, name in PAPER_READERS if r in set(table["reader"])]
    head = ["system", "lang", "n"] + [f"{label}: {who}" for _, label in PAPER_METRICS
                                      for who in ("paper", *(n for _, n in readers))]
    head += ["paper's table", "source @ commit"]
    lines = [f"{level} WinoMT: the paper's tables beside the readers, with intervals", "",
             "Stanovsky et al. (ACL 2019), Table 2 (the commercial systems) and the academic "
             "systems' table, over the same published outputs and all 3,888 sentences: the "
             "paper's figure, the authors' reader as its code was in 2019 (`published`, which "
             "the project re-implements and checks against the paper's logs; one decimal, "
             "rounded as its code rounds) and the project's default reader, each reader's "
             "figure with its 95 % bootstrap interval over sentences (winomt/tables/paper.csv), "
             "and the published file each row was read from, at the commit it was taken at. "
             f"– where the paper has no figure. Causes of the differences: {FIDELITY}.", "",
             "| " + " | ".join(head) + " |",
             "|" + "|".join(["---", "---"] + ["--:"] * (len(head) - 4) + ["---", "---"]) + "|"]
    keyed = table.set_index(["system", "lang", "reader", "metric"])
    for (system, lang), part in table.groupby(["system", "lang"], sort=False):
        cells = [f"{int(part['n'].max()):,}"]
        first = part.iloc[0]
        for metric, _ in PAPER_METRICS:
            paper = part[part["metric"] == metric]["paper"]
            cells.append(fmt(_num(paper.iloc[0]) if len(paper) else math.nan, digits=1))
            for reader, _ in readers:
                key = (system, lang, reader, metric)
                if key not in keyed.index:
                    cells.append(UNDEFINED)
                    continue
                row = keyed.loc[key]
                cells.append(fmt(_num(row["value"]), (row["ci_low"], row["ci_high"]),
                                 digits=1 if reader == "published" else DIGITS))
        where = first["where"] if isinstance(first["where"], str) and not pd.isna(
            part["paper"]).all() else ""
        cells += [where or UNDEFINED, _source_cell(first["source"], first["commit"])]
        lines.append("| " + " | ".join([str(system), str(lang), *cells]) + " |")
    lines.append("")
    checked = table.drop_duplicates(["system", "lang"])
    lines += _unchecked_note(checked, "checked", "figures")
    readers_table = tables.get("readers")
    if readers_table is not None and "published_off" in readers_table:
        off = [f"{r['system']} ({r['lang']}): {r['published_off']}"
               for r in readers_table.to_dict("records")
               if isinstance(r.get("published_off"), str) and r["published_off"]]
        if off:
            lines += ["Where the authors' reader misses the paper by more than its goal "
                      "(winomt/tables/readers.csv, per language): " + "; ".join(off)
                      + f". The measured cause of each is in readers.csv and {FIDELITY}.", ""]
    return lines


def adjectives_section(tables: Mapping[str, pd.DataFrame], level: str = "###") -> list[str]:
    """The adjective experiment (adjectives.csv): per system, language and reader, accuracy
    without and with the adjective on the same items, the change with its paired interval,
    beside the paper's figures."""
    table = tables.get("adjectives")
    if table is None or table.empty:
        return []
    names = dict(PAPER_READERS)
    # the page shows the authors' and the default reader (the CSV has every reader's rows)
    table = table[table["reader"].isin(names)]
    if table.empty:
        return []
    head = ["system", "lang", "reader", "n", "without", "with", "change",
            "paper: without", "paper: with", "paper: change", "source @ commit"]
    lines = [f"{level} WinoMT: stereotypical adjectives (\"fighting bias with bias\")", "",
             "The paper's adjective experiment: the 1,584 anti-stereotypical sentences with "
             "\"pretty\" before a woman and \"handsome\" before a man (\"the pretty "
             "developer ... she\"), as the authors had Google and Bing translate them. Per "
             "system, language and reader: accuracy (%) of the system's ordinary translation "
             "of the same items (read in its full file), with the adjective (aligned to the "
             "adjective sentences), and the change in points with its 95 % interval from a "
             "paired bootstrap over the items (winomt/tables/adjectives.csv). "
             + ("The paper's own figures are beside them where the project has transcribed "
                "them. " if table["change_published"].notna().any() else
                "The paper's own figures (its Table 4) are not transcribed yet: "
                "resources/winomt/README.md says why; \"–\" in the paper's columns. ")
             + "The adjective is itself a "
             "gendered word beside the noun in the translation (*el apuesto asistente*): "
             "in es, fr, it and de the default reader reads that agreement, the authors' "
             "reader reads the noun alone (an epicene *asistente* is neutral to it), which "
             "is much of the difference between the two readers' changes there.", "",
             "| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] * 3 + ["--:"] * 7 + ["---"]) + "|"]
    for r in table.to_dict("records"):
        reader = names.get(str(r["reader"]), str(r["reader"]))
        lines.append("| " + " | ".join([
            str(r["system"]), str(r["lang"]), reader, f"{int(r['n']):,}",
            fmt(_num(r["acc_plain"])), fmt(_num(r["acc_adj"])),
            fmt(_num(r["change"]), (r["ci_low"], r["ci_high"])),
            fmt(_num(r.get("acc_plain_published")), digits=1),
            fmt(_num(r.get("acc_adj_published")), digits=1),
            fmt(_num(r.get("change_published")), digits=1),
            _source_cell(r.get("source"), r.get("commit"))]) + " |")
    lines.append("")
    up = table[table["ci_low"] > 0]
    down = table[table["ci_high"] < 0]
    lines += [f"Of {len(table)} system × language × reader cells, the paired interval lies "
              f"above 0 in {len(up)} and below 0 in {len(down)}; in the others it includes 0.",
              ""]
    lines += _full_set_baseline(table, tables.get("paper"))
    lines += _unchecked_note(table.drop_duplicates(["system", "lang"]),
                             "checked_published", "adjective figures")
    return lines


def _full_set_baseline(table: pd.DataFrame, paper: pd.DataFrame | None) -> list[str]:
    """Where the paper's "without" figure is its Table 2 accuracy over all 3,888 sentences
    (paper.csv's ``paper`` of acc), the sentence that says it is not of the adjective items,
    with the authors' reader's figure on those items; [] where none is."""
    if paper is None or paper.empty or "acc_plain_published" not in table:
        return []
    full = {(s, lang): v for s, lang, m, v in
            zip(paper["system"], paper["lang"], paper["metric"], paper["paper"], strict=True)
            if m == "acc" and not pd.isna(v)}
    found = []
    for r in table[table["reader"] == "published"].to_dict("records"):
        value = _num(r.get("acc_plain_published"))
        if not math.isnan(value) and full.get((r["system"], r["lang"])) == value:
            found.append(f"{r['system']} ({r['lang']}): {value:.1f}, where the authors' reader "
                         f"gives {r['acc_plain']:.1f} on the {int(r['n']):,} items")
    if not found:
        return []
    return ["The paper's \"without\" figure equals its Table 2 accuracy over all 3,888 "
            "sentences, not over the anti-stereotypical sentences the adjectives were added "
            "to, so its change compares different items: " + "; ".join(found) + ".", ""]


def occupations_section(tables: Mapping[str, pd.DataFrame], level: str = "###"
                        ) -> list[str]:
    """Which occupations carry each system's ΔS (occupations.csv: each occupation's
    contribution, which add up to ΔS), with the artefacts among them."""
    table = tables.get("occupations")
    if table is None or table.empty:
        return []
    lines = [f"{level} WinoMT: the occupations that carry ΔS", "",
             "Per system and language, ΔS (default reader) and the "
             f"{TOP_OCCUPATIONS} occupations that contribute most to it (points of ΔS: "
             "100 × (right pro − right anti) / items of each; the contributions of all 40 "
             "add up to ΔS), each with the entities read from a word that is no translation "
             "of it (artefacts, of its items). Every occupation's row is in "
             "winomt/tables/occupations.csv.", "",
             "| system | lang | ΔS | artefacts | occupations carrying most of it |",
             "|---|---|--:|--:|---|"]
    for (system, lang), part in table.groupby(["system", "lang"], sort=False):
        top = part.reindex(part["delta_s_contribution"].abs()
                           .sort_values(ascending=False).index).head(TOP_OCCUPATIONS)
        named = ", ".join(f"{md_text(r.occupation)} {r.delta_s_contribution:+.2f}"
                          + (f" ({int(r.artefacts)} of {int(r.n)} artefacts)"
                             if pd.notna(r.artefacts) and r.artefacts else "")
                          for r in top.itertuples())
        # a language without the artefact flag (no default reader of its own yet): "–"
        artefacts = (str(int(part["artefacts"].sum())) if part["artefacts"].notna().any()
                     else "–")
        lines.append(f"| {md_text(system)} | {md_text(lang)} | "
                     f"{fmt(part['delta_s_contribution'].sum())} | {artefacts} | {named} |")
    return lines + [""]


#: The label sets the page shows (the run's table, heading, what the labels are)
VALIDATION_SETS = (
    ("validation", "WinoMT: the readers against labelled entities",
     "Agreement (%) of each reader with labels written by reading the translations "
     f"({LABELS_PAGE}: 30 entities per published system and language, drawn with a fixed "
     "seed; written by an AI language model acting as annotator, before any reader was "
     "compared with them, not by native speakers), Wilson 95 % intervals; \"sure rows\": "
     "those the annotators did not flag as uncertain. The readers read the same entities of "
     "the run's own readings (links of the whole file)."),
    ("validation_heldout", "WinoMT: the readers against a held-out labelled sample",
     "Agreement (%) of each reader with a second, held-out Italian sample labelled the same "
     f"way ({LABELS_PAGE}, \"Italian, held out\": 30 entities per published system, none of "
     "the first sample's sentences; drawn and labelled after the first Italian comparison, "
     "under the protocol's rule 10, the unmarked \"someone\" pronoun neutral), Wilson 95 % "
     "intervals; \"sure rows\": those the annotator did not flag as uncertain."),
    ("validation_people", "WinoMT: the readers against people's labels",
     "Agreement (%) of each reader with the gender labels the WinoMT authors' native-speaker "
     "annotators wrote (resources/winomt/people, from gabrielStanovsky/mt_gender at the "
     "pinned commit: about 100 entities of one published system per language; no reader was "
     "built on them), Wilson 95 % intervals; \"sure rows\": those without the annotators' "
     "own doubt (French) or a second Italian annotator's disagreement. The annotators did not "
     "follow one convention: in French and German their label often follows the pronoun, "
     "not the entity's own form, so these figures say how often a reader reads what these "
     f"annotators wrote, not which reader is right ({LABELS_PAGE} says per language)."),
)


def validation_section(tables: Mapping[str, pd.DataFrame], level: str = "###",
                       key: str = "validation") -> list[str]:
    """Each reader's agreement with a label set (``key``: validation.csv, the run's own
    labelled sample; validation_people.csv, the authors' annotators), per language."""
    table = tables.get(key)
    if table is None or table.empty:
        return []
    title, intro = next((t, i) for k, t, i in VALIDATION_SETS if k == key)
    readers = list(dict.fromkeys(table["reader"]))
    sure = [r for r in ("corrected", "published") if r in readers] or readers[:2]
    head = ["lang", "n", *map(md_text, readers), *(f"{md_text(r)}, sure rows" for r in sure)]
    lines = [f"{level} {title}", "", intro,
             "", "| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] + ["--:"] * (len(head) - 1)) + "|"]
    for lang, part in table.groupby("lang", sort=False):
        rows = part.set_index("reader")
        cells = [fmt(rows.loc[r, "agreement"], (rows.loc[r, "ci_low"], rows.loc[r, "ci_high"]))
                 for r in readers]
        if "agreement_sure" in rows:
            cells += [fmt(rows.loc[r, "agreement_sure"], (rows.loc[r, "ci_low_sure"],
                                                          rows.loc[r, "ci_high_sure"]))
                      + f" of {int(rows.loc[r, 'n_sure'])}" for r in sure]
        lines.append("| " + " | ".join([md_text(lang), str(int(part["n"].iloc[0])), *cells])
                     + " |")
    lines.append("")
    below = [md_text(lang) for lang, part in table.groupby("lang", sort=False)
             if {"corrected", "published"} <= set(part["reader"])
             and (rows := part.set_index("reader")).loc["corrected", "agree"]
             < rows.loc["published", "agree"]]
    if below:
        lines += [f"Where the default reader agrees less often than the authors' reader "
                  f"({', '.join(below)}), {LABELS_PAGE} says which entities the two read "
                  "differently and why; neither the reader nor the labels were changed after "
                  "the comparison.", ""]
    return lines


def subset_of(results: str | Path, key: str) -> str:
    """A run's subset of a benchmark's items in words (its data.json), "" for the whole
    set."""
    from gendermt.data.subsets import describe

    path = Path(results) / key / "data.json"
    if not path.is_file():
        return ""
    return describe(json.loads(path.read_text(encoding="utf-8")).get("subset") or {})


def known_benchmarks(results: str | Path, card: Sequence[Mapping[str, Any]]) -> list[str]:
    """The benchmarks of a run's scorecard that the page knows (``LABELS``), in the page's
    order; none is an error naming what the run has, not an empty page."""
    benchmarks = [k for k in LABELS if any(r.get(k) is not None for r in card)]
    if not benchmarks:
        has = sorted({k for r in card for k, v in r.items() if k != "system" and v})
        raise GenderMTError(f"{results}: no benchmark the findings page knows in its "
                            f"scorecard (it has {', '.join(has) or 'none'}; the page knows "
                            f"{', '.join(LABELS)}); run one of those first")
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
        if key == "winomt" and not subset:
            tables = run.get("tables", {})
            lines += ((paper_intervals_section(tables) or paper_section(tables))
                      + adjectives_section(tables) + occupations_section(tables)
                      + [line for key, _, _ in VALIDATION_SETS
                         for line in validation_section(tables, key=key)])
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

