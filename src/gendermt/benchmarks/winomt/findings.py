"""WinoMT's part of the findings page (docs/findings.md; gendermt.report.findings assembles
it): what its figures cannot show, the reader behind its table, and the sections that follow
its full-set table (the paper's tables beside the readers, the adjective experiment, the
occupations that carry ΔS, the readers against labelled entities), each read from the run's
own winomt/tables/*.csv."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from gendermt.report.findings import DIGITS, UNDEFINED, Part, backend_ran, fmt, num
from gendermt.report.mdtext import md_code, md_text

#: Its tables the page reads beside the scorecard (the reader's signature, the paper's
#: Table 2 beside each reader, the occupations that carry ΔS).
TABLES = ("summary", "readers", "occupations", "validation", "validation_heldout",
                 "validation_people", "paper", "adjectives")
#: Occupations named per system and language as carrying its ΔS (largest contributions).
TOP_OCCUPATIONS = 3
#: Where the labelled sample and its protocol are described.
LABELS_PAGE = "docs/winomt-labels.md"
#: Where the readers' differences are measured and explained.
FIDELITY = "docs/winomt-fidelity.md"

def reader_lines(tables: Mapping[str, pd.DataFrame]) -> list[str]:
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
        cells = [fmt(num(r.get(f"{fig}_{src}")), digits=DIGITS if src == "corrected" else 1)
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
            cells.append(fmt(num(paper.iloc[0]) if len(paper) else math.nan, digits=1))
            for reader, _ in readers:
                key = (system, lang, reader, metric)
                if key not in keyed.index:
                    cells.append(UNDEFINED)
                    continue
                row = keyed.loc[key]
                cells.append(fmt(num(row["value"]), (row["ci_low"], row["ci_high"]),
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
            fmt(num(r["acc_plain"])), fmt(num(r["acc_adj"])),
            fmt(num(r["change"]), (r["ci_low"], r["ci_high"])),
            fmt(num(r.get("acc_plain_published")), digits=1),
            fmt(num(r.get("acc_adj_published")), digits=1),
            fmt(num(r.get("change_published")), digits=1),
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
        value = num(r.get("acc_plain_published"))
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


def limits_text(facts: frozenset[str] | set[str]) -> str:
    """What its figures cannot show, said only of what the run has (``facts``)."""
    real = "real" in facts
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
    return " ".join(p for p in parts if p)


#: What a run on a subset adds to its paragraph where an LLM takes part.
SUBSET_LIMITS = (
    "On the subset, the published systems' and Apertium's lines are aligned with their "
    "translations of all 3,888 sentences, so their figures are the full run's reading "
    "of the same items; the LLM's lines, the only ones it translated, are aligned on "
    "their own, a corpus of a few dozen pairs that gives poorer links (the summary "
    "table's alignment_corpus).")


def published_ran(summary: Mapping[str, Any], ran: list[Mapping[str, Any]]) -> bool:
    """Whether the outputs published with WinoMT ran (a ``stored`` system whose file is of
    the winomt data set's commit)."""
    commits = [d.get("commit", "") for d in summary.get("datasets") or []
               if d.get("dataset") == "winomt" and d.get("commit")]
    return any(s.get("backend") == "stored" and any(c in str(s.get("model", "")) for c in commits)
               for s in ran)


def sections(tables: Mapping[str, pd.DataFrame]) -> list[str]:
    """The sections after its full-set table."""
    return ((paper_intervals_section(tables) or paper_section(tables))
            + adjectives_section(tables) + occupations_section(tables)
            + [line for key, _, _ in VALIDATION_SETS
               for line in validation_section(tables, key=key)])


def part() -> Part:
    """Its part of the findings page (its contract's ``scorecard.findings``)."""
    return Part(order=20, limits=limits_text, subset_limits=SUBSET_LIMITS,
                facts={"apertium": backend_ran("apertium"), "published": published_ran},
                tables=TABLES, after_runs=reader_lines, sections=sections)
