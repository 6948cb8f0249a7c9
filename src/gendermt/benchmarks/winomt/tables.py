"""WinoMT's tables: the comparison of systems (one row per system and language, the
original's metrics, by the headline reader) and the comparison of readers with the paper's
published figures."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gendermt.io import write_table, write_text

COLUMNS = ["system", "lang", "n", "acc", "f1_male", "f1_female", "delta_g", "acc_pro",
           "acc_anti", "delta_s", "precision_male", "recall_male", "precision_female",
           "recall_female", "share_male", "share_female", "share_neutral", "share_unknown",
           "reader", "reader_version", "aligner", "seconds"]
METRICS = ("acc", "delta_g", "delta_s")
# Why the two readers' numbers differ, one sentence per language (see original.py and
# morphology.py for the rules themselves).
READER_DIFFERENCES = {
    "fr": "original parses the linked words on their own with spaCy and takes their majority "
          "gender, so a noun after an elided l' (l'assistant) gets no gender from today's "
          "small model and a linked neighbour (à la, du) can decide, whereas corrected reads "
          "the linked noun in its sentence and checks it against the determiner before it, "
          "feminine suffixes and its lemma.",
    "es": "original takes the majority gender of the whitespace words forward-linked to the "
          "entity and its article (punctuation attached, a neighbour's article counting as "
          "much as the noun), whereas corrected reads the noun both link directions agree on, "
          "prefers its own article up to two tokens back, and calls shared-form nouns "
          "(-ista, -ante) and participles after haber unknown.",
    "it": "as for Spanish, original votes over the forward-linked words of the entity and its "
          "article (any dell'... counting male, an elided l' counting nothing), whereas "
          "corrected reads the agreed noun with its own article and calls shared forms "
          "(-ista, -ante, -e) and participles after avere unknown.",
    "de": "original takes the determiner or pronoun nearest to the entity anywhere in the "
          "sentence (any linked word in -in: female; nurse, an unaligned entity or a sentence "
          "without one: male), whereas corrected reads the linked noun itself (-in/-innen, "
          "-frau, feminine epicenes, the determiner only for adjectival nouns) and calls an "
          "unaligned entity unknown.",
}


def collect(summaries: Sequence[str | Path], systems: Sequence[str], langs: Sequence[str]
            ) -> pd.DataFrame:
    """The summaries of every system × language, in config order."""
    rows = [json.loads(Path(p).read_text(encoding="utf-8")) for p in summaries]
    frame = pd.DataFrame(rows)
    frame["system"] = pd.Categorical(frame["system"], categories=list(systems), ordered=True)
    frame["lang"] = pd.Categorical(frame["lang"], categories=list(langs), ordered=True)
    frame = frame.sort_values(["lang", "system"]).reset_index(drop=True)
    for col in COLUMNS:
        if col not in frame:
            frame[col] = float("nan")
    frame["system"] = frame["system"].astype(str)
    frame["lang"] = frame["lang"].astype(str)
    return frame[COLUMNS]


def build_tables(summaries: Sequence[str | Path], csv: str | Path, md: str | Path,
                 systems: Sequence[str], langs: Sequence[str]) -> None:
    """Workflow stage: every ``gender/{system}/{lang}.json`` → ``tables/summary.{csv,md}``."""
    write_table(collect(summaries, systems, langs), csv, md, floatfmt=".1f")


def readers_table(summaries: Sequence[str | Path], published: str | Path,
                  systems: Sequence[str], langs: Sequence[str], readers: Sequence[str]
                  ) -> pd.DataFrame:
    """One row per system × language: accuracy, ΔG, ΔS as published and by each reader."""
    rows = [json.loads(Path(p).read_text(encoding="utf-8")) for p in summaries]
    scores = pd.DataFrame(rows)
    paper = pd.read_csv(published, dtype={"system": str, "lang": str})
    missing = {"system", "lang", *METRICS} - set(paper)
    if missing:
        from gendermt.errors import DatasetError
        raise DatasetError(published, f"no column(s) {', '.join(sorted(missing))}")
    # every run (a system that runs only some languages has no row for the others)
    ran = set(zip(scores["system"], scores["lang"], strict=True))
    out = pd.DataFrame([(s, lang) for lang in langs for s in systems if (s, lang) in ran],
                       columns=["system", "lang"])
    paper = paper.rename(columns={m: f"{m}_published" for m in METRICS})
    out = out.merge(paper, on=["system", "lang"], how="left")
    for reader in readers:
        part = scores[scores["reader"] == reader][["system", "lang", *METRICS]]
        part = part.rename(columns={m: f"{m}_{reader}" for m in METRICS})
        out = out.merge(part, on=["system", "lang"], how="left")
    columns = ["system", "lang"] + [f"{m}_{r}" for m in METRICS
                                    for r in ("published", *readers)]
    if "checked" in out:
        columns.append("checked")
    return out[[c for c in columns if c in out]]


def build_readers_table(summaries: Sequence[str | Path], published: str | Path,
                        csv: str | Path, md: str | Path, systems: Sequence[str],
                        langs: Sequence[str], readers: Sequence[str]) -> None:
    """Workflow stage: every reader's summaries + the published figures →
    ``tables/readers.{csv,md}`` (the Markdown adds why the readers differ, per language)."""
    table = readers_table(summaries, published, systems, langs, readers)
    write_table(table, csv)
    notes = [table.to_markdown(index=False, floatfmt=".1f"), "",
             "Published: Stanovsky et al. (ACL 2019), Table 2 "
             f"(`{Path(published).name}`; `checked` says which figures a second source "
             "confirms).", ""]
    notes += [f"- **{lang}**: {READER_DIFFERENCES[lang]}" for lang in langs
              if lang in READER_DIFFERENCES]
    write_text(md, "\n".join(notes) + "\n")
