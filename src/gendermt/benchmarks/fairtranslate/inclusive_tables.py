"""FairTranslate's inclusive-language analyses (§7, §8, appendices A, E, F) as tables.

One stage reads every system × prompt's translations, normalises each hypothesis
(:mod:`.normalize`) and classifies it (:mod:`.indicators`, :mod:`.occupations`,
:mod:`.pronouns`). It writes the per-output results (raw output, hypothesis and normalised
text side by side, with every class) and these tables, each as a tidy CSV and a Markdown
file in the paper's layout:

* ``normalization``: outputs the normaliser changed, and by which rules, per system ×
  prompt; ``normalized_outputs`` lists each changed output beside its raw text;
* ``inclusive_indicators`` (Table 4): outputs with at least one inclusive indicator among the
  rows labelled inclusive, after and before normalisation, and among the other rows;
* ``occupation_forms`` (§7, appendix E): the occupation form found per gold gender, with the
  rows kept and dropped (and why);
* ``they_pronouns`` (Fig. 7, Figs. 11–14): the rendering of singular "they" on the inclusive,
  non-ambiguous rows whose English has "they", overall and per ambiguity;
* ``word_counts`` (Table 5): mean words per example, English and French, by ambiguity;
* ``classifier_modes``: Table 4, the occupation forms and singular "they" by the authors'
  rules and by the corrected ones side by side, with the paper's numbers
  (:mod:`.mode_tables`). The other tables are the ``corrected`` mode.
* ``postprocess_modes``: the project's and the authors' cleaning of the same raw outputs,
  the outputs each changes and the BLEU under each (:mod:`.postprocess_modes`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.analysis.stats import wilson_interval
from gendermt.analysis.tables import ordered
from gendermt.benchmarks.fairtranslate import (
    AMBIGUITIES,
    GENDERS,
    authors,
    mode_tables,
    postprocess_modes,
)
from gendermt.benchmarks.fairtranslate.indicators import indicators
from gendermt.benchmarks.fairtranslate.mode_tables import PAPER_TABLE4
from gendermt.benchmarks.fairtranslate.normalize import normalize_with_rules
from gendermt.benchmarks.fairtranslate.occupations import (
    FORMS,
    NOT_FOUND,
    TWO_REFERENTS,
    UNDECIDED,
    occupation_form,
)
from gendermt.benchmarks.fairtranslate.pronouns import (
    CLASSES,
    ECHO,
    NO_PRONOUN,
    PRONOUN_CLASS,
    PRONOUNS,
    UNTRANSLATED,
    classify_they,
    has_they,
)
from gendermt.core.errors import GenderMTError
from gendermt.data.io import read_jsonl, write_parquet, write_table, write_text
from gendermt.data.progress import Progress

log = logging.getLogger(__name__)

GOLD_FORM = {"male": "masculine", "female": "feminine", "inclusive": "inclusive"}
_OTHER_CLASS = {NO_PRONOUN: "no-pronoun", UNTRANSLATED: "untranslated", ECHO: "echo"}
THEY_AMBIGUITIES = ("unambiguous", "long unambiguous")
# Appendix A, Table 5 (the full dataset): printed beside ours in the Markdown.
PAPER_WORD_COUNTS = {"ambiguous": (15.775, 13.564), "unambiguous": (22.153, 19.102),
                     "long unambiguous": (48.599, 40.104),
                     "mean of the ambiguity means": (28.842, 24.257)}



# --------------------------------------------------------------------------- per output
def read_translations(runs: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Every run's translation file (``runs``: ``{system, prompt, path}`` records, with
    ``inputs``, the requests it answered, where there are) as one frame: system, prompt,
    item_id, raw, hypothesis, check (gendermt.scoring.output_checks: ``ok``, ``echo``,
    ``wrong_language``; the echo check needs ``inputs``)."""
    from gendermt.scoring.output_checks import item_checks

    parts = []
    for run in runs:
        system, prompt, path = run["system"], run["prompt"], run["path"]
        records = read_jsonl(path)
        for i, rec in enumerate(records, start=1):
            missing = [k for k in ("item_id", "raw", "hypothesis") if k not in rec]
            if missing:
                raise GenderMTError(f"{path}: line {i} has no {', '.join(missing)}")
        checks = item_checks(path, run.get("inputs"))
        parts.append(pd.DataFrame({
            "system": system, "prompt": prompt,
            "item_id": [r["item_id"] for r in records],
            "raw": [r["raw"] for r in records],
            "hypothesis": [r["hypothesis"] for r in records],
            "check": [checks.get(str(r["item_id"]), "ok") for r in records]}))
    if not parts:
        raise GenderMTError("no translation files to analyse")
    return pd.concat(parts, ignore_index=True)


def they_rows(data: pd.DataFrame) -> pd.Series:
    """The paper's singular-"they" rows: inclusive, not ambiguous, "they" in the English.

    Ambiguous rows are left out as in appendix F: their English is the same in all three
    variants, so a "they" there is not the person's singular pronoun."""
    return ((data["gender"] == "inclusive") & data["ambiguity"].isin(THEY_AMBIGUITIES)
            & data["source"].map(has_they))


def analyse(data: pd.DataFrame, outputs: pd.DataFrame) -> pd.DataFrame:
    """One row per output with its normalised text and every class."""
    meta = data[["item_id", "source", "gender", "ambiguity", "stereotype", "occupation"]]
    frame = outputs.merge(meta, on="item_id", how="left", validate="many_to_one",
                          indicator=True)
    unknown = frame[frame["_merge"] == "left_only"]
    if len(unknown):
        first = unknown.iloc[0]
        raise GenderMTError(f"translations of {first['system']}/{first['prompt']} have item "
                            f"{first['item_id']!r}, which the data does not have "
                            f"({len(unknown)} such outputs)")
    frame = frame.drop(columns="_merge")
    they_ids = set(data.loc[they_rows(data), "item_id"])
    rows = []
    progress = Progress(len(frame), "inclusive", unit="output")
    for rec in frame.itertuples(index=False):
        hyp = rec.hypothesis or ""
        normalized, rules = normalize_with_rules(hyp)
        occupation = occupation_form(normalized, list(rec.occupation))
        is_they = rec.item_id in they_ids
        they = (classify_they(rec.source, normalized, getattr(rec, "check", "ok"))
                if is_they else None)
        found = indicators(normalized)
        found_raw = indicators(hyp)
        # the authors' mode: their normaliser, then their notebook's rules (authors.py)
        by_authors = authors.non_binary_standardization(hyp)
        authors_they = (rec.gender == "inclusive" and rec.ambiguity != "ambiguous"
                        and authors.has_they(rec.source))
        rows.append({
            "normalized": normalized, "normalization_rules": "; ".join(rules),
            "indicators": "; ".join(found), "has_indicator": bool(found),
            "indicators_unnormalized": "; ".join(found_raw),
            "has_indicator_unnormalized": bool(found_raw),
            "occupation_form": occupation.form, "occupation_doublet": occupation.doublet,
            "occupation_dropped": occupation.dropped, "they_row": is_they,
            "they_class": they.cls if they else None,
            "they_pronoun": they.pronoun if they else None,
            "authors_normalized": by_authors,
            "authors_has_indicator": authors.is_inclusive_indic(by_authors),
            "authors_occupation": authors.determine_gender(by_authors, list(rec.occupation)),
            "authors_they_row": authors_they,
            "authors_they_pronouns": ("; ".join(authors.pronouns_present(by_authors))
                                      if authors_they else None),
        })
        progress.update()
    progress.close()
    out = pd.concat([frame.drop(columns=["occupation", "source"]).reset_index(drop=True),
                     pd.DataFrame(rows)], axis=1)
    return out


# --------------------------------------------------------------------------- tables
def normalization_summary(items: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (system, prompt), part in items.groupby(["system", "prompt"], observed=True,
                                                sort=True):
        changed = part[part["normalized"] != part["hypothesis"].fillna("")]
        rules = changed["normalization_rules"].str.split("; ").explode().value_counts()
        rows.append({"system": system, "prompt": prompt, "outputs": len(part),
                     "changed": len(changed),
                     "rules": "; ".join(f"{r} ({n})" for r, n in rules.items() if r)})
    return pd.DataFrame(rows)


def changed_outputs(items: pd.DataFrame) -> pd.DataFrame:
    changed = items[items["normalized"] != items["hypothesis"].fillna("")]
    return changed[["system", "prompt", "item_id", "gender", "raw", "hypothesis",
                    "normalized", "normalization_rules"]].reset_index(drop=True)


def indicator_table(items: pd.DataFrame) -> pd.DataFrame:
    """Table 4: outputs with at least one inclusive indicator, per system × prompt."""
    rows = []
    for (system, prompt), part in items.groupby(["system", "prompt"], observed=True,
                                                sort=True):
        inclusive = part[part["gender"] == "inclusive"]
        other = part[part["gender"] != "inclusive"]
        hits = int(inclusive["has_indicator"].sum())
        rows.append({
            "system": system, "prompt": prompt, "inclusive_rows": len(inclusive),
            "with_indicator": hits,
            "share": hits / len(inclusive) if len(inclusive) else float("nan"),
            "with_indicator_unnormalized": int(inclusive["has_indicator_unnormalized"].sum()),
            "other_rows": len(other), "other_with_indicator": int(other["has_indicator"].sum()),
        })
    return pd.DataFrame(rows)


def occupation_table(items: pd.DataFrame) -> pd.DataFrame:
    """§7: form found per gold gender, with rows kept and dropped; shares of kept rows."""
    rows = []
    for (system, prompt, gender), part in items.groupby(["system", "prompt", "gender"],
                                                        observed=True, sort=True):
        kept = part[part["occupation_form"].notna()]
        counts = kept["occupation_form"].value_counts()
        row = {"system": system, "prompt": prompt, "gender": gender, "rows": len(part),
               "kept": len(kept), "dropped": len(part) - len(kept),
               "dropped_not_found": int((part["occupation_dropped"] == NOT_FOUND).sum()),
               "dropped_undecided": int((part["occupation_dropped"] == UNDECIDED).sum()),
               "dropped_two_referents": int((part["occupation_dropped"] == TWO_REFERENTS)
                                            .sum()),
               **{form: int(counts.get(form, 0)) for form in FORMS},
               "doublets": int(kept["occupation_doublet"].sum())}
        for form in FORMS:
            row[f"share_{form}"] = row[form] / len(kept) if len(kept) else float("nan")
        row["share_gold"] = row[f"share_{GOLD_FORM[gender]}"]
        # the share's n is `kept`: 1 of 18 rows kept gives 1.0, with a wide interval
        row["share_gold_low"], row["share_gold_high"] = wilson_interval(
            row[GOLD_FORM[gender]], len(kept))
        rows.append(row)
    return pd.DataFrame(rows)


def they_table(items: pd.DataFrame) -> pd.DataFrame:
    """Figs. 7, 11–14: rendering of singular "they", overall and per ambiguity (long)."""
    they = items[items["they_row"]]
    rows = []
    groups = [("all", they), *[(a, they[they["ambiguity"] == a]) for a in THEY_AMBIGUITIES]]
    pairs = items[["system", "prompt"]].drop_duplicates().itertuples(index=False)
    for system, prompt in sorted(pairs):
        for ambiguity, group in groups:
            part = group[(group["system"] == system) & (group["prompt"] == prompt)]
            counts = part["they_pronoun"].value_counts()
            for pronoun in (*PRONOUNS, NO_PRONOUN, UNTRANSLATED, ECHO):
                n = int(counts.get(pronoun, 0))
                rows.append({"system": system, "prompt": prompt, "ambiguity": ambiguity,
                             "class": PRONOUN_CLASS.get(pronoun, _OTHER_CLASS.get(pronoun)),
                             "pronoun": pronoun, "rows": n, "they_rows": len(part),
                             "share": n / len(part) if len(part) else float("nan")})
    return pd.DataFrame(rows, columns=["system", "prompt", "ambiguity", "class", "pronoun",
                                       "rows", "they_rows", "share"])


def word_count_table(data: pd.DataFrame) -> pd.DataFrame:
    """Table 5: mean whitespace-separated words per example (English source, French
    reference), by ambiguity; the paper's last row is the mean of the three means."""
    words = data.assign(english_words=data["source"].str.split().str.len(),
                        french_words=data["reference"].str.split().str.len())
    table = ordered(words, {"ambiguity": AMBIGUITIES}).groupby(
        "ambiguity", observed=True).agg(rows=("item_id", "count"),
                                        french=("french_words", "mean"),
                                        english=("english_words", "mean")).reset_index()
    table["ambiguity"] = table["ambiguity"].astype(str)
    extra = pd.DataFrame([
        {"ambiguity": "mean of the ambiguity means", "rows": int(table["rows"].sum()),
         "french": table["french"].mean(), "english": table["english"].mean()},
        {"ambiguity": "all rows", "rows": len(words), "french": words["french_words"].mean(),
         "english": words["english_words"].mean()}])
    return pd.concat([table, extra], ignore_index=True)


# --------------------------------------------------------------------------- Markdown
def _md(frame: pd.DataFrame, floatfmt: str = ".1f", **kwargs) -> str:
    return frame.to_markdown(index=False, floatfmt=floatfmt, **kwargs)


def _pivot(frame: pd.DataFrame, index: str, columns: str, values: str) -> pd.DataFrame:
    # rows and columns in the order of the tidy table (the config's order)
    pivot = frame.pivot_table(index=index, columns=columns, values=values, aggfunc="first",
                              observed=True, sort=False)
    pivot.columns = [str(c) for c in pivot.columns]
    return pivot.reset_index()


def _indicator_md(table: pd.DataFrame) -> str:
    shown = table.assign(
        cell=table["with_indicator"].astype(str) + " / " + table["inclusive_rows"].astype(str),
        raw=table["with_indicator_unnormalized"].astype(str) + " / "
        + table["inclusive_rows"].astype(str))
    return ("# Inclusive indicators (Table 4)\n\nOutputs with at least one inclusive indicator "
            "(iel, le.a, un.e, ce.tte, or an inclusive occupation ending) among the rows "
            "labelled inclusive, after normalisation:\n\n"
            + _md(_pivot(shown, "system", "prompt", "cell"), disable_numparse=True)
            + "\n\nThe same on the hypotheses as written (without normalisation):\n\n"
            + _md(_pivot(shown, "system", "prompt", "raw"), disable_numparse=True)
            + "\n\nThe paper's Table 4, for comparison (out of 806 inclusive rows):\n\n"
            + _md(pd.DataFrame([(m, *v) for m, v in PAPER_TABLE4.items()],
                               columns=["model", "baseline", "moral", "linguistic",
                                        "moral_linguistic"]))
            + "\n")


def _occupation_md(table: pd.DataFrame) -> str:
    out = ["# Occupation forms (§7, appendix E)\n\nPercent of kept rows whose output uses "
           "the masculine, feminine or inclusive form of the occupation, by gold gender; "
           "rows are kept when the output contains one of the three forms; gold_95ci: the "
           "Wilson 95% interval of the gold form's share, over the kept rows (its n).\n"]
    for system, part in table.groupby("system", observed=True, sort=False):
        shown = part.assign(**{f: 100 * part[f"share_{f}"] for f in FORMS}, gold_95ci=[
            f"[{100 * lo:.0f}, {100 * hi:.0f}]" if pd.notna(lo) else ""
            for lo, hi in zip(part["share_gold_low"], part["share_gold_high"], strict=True)])[
            ["prompt", "gender", "rows", "kept", "dropped_not_found", "dropped_undecided",
             "dropped_two_referents", *FORMS, "gold_95ci", "doublets"]]
        out += [f"\n## {system}\n", _md(shown)]
    return "\n".join(out) + "\n"


def _they_md(table: pd.DataFrame) -> str:
    classes = table.groupby(["system", "prompt", "ambiguity", "class"], observed=True,
                            sort=False).agg(rows=("rows", "sum"), n=("they_rows", "first"))
    classes = classes.reset_index()
    classes["pct"] = 100 * classes["rows"] / classes["n"].where(classes["n"] > 0)
    out = ["# Singular \"they\" (§8.2, Fig. 7, Figs. 11–14)\n\nPercent of the inclusive, "
           "non-ambiguous rows with \"they\" in the English whose French uses a plural "
           "(ils/elles/iels), a gendered singular (il/elle), the inclusive iel, or no "
           "subject pronoun; `untranslated`: empty outputs and copies of the English, and "
           "`echo`: outputs that echo the prompt's instruction (tables/output_checks.csv), "
           "both counted apart from \"no pronoun\".\n"]
    for ambiguity in ("all", *THEY_AMBIGUITIES):
        part = classes[classes["ambiguity"] == ambiguity]
        if part.empty:
            continue
        wide = part.pivot_table(index=["system", "prompt"], columns="class", values="pct",
                                aggfunc="first", observed=True, sort=False)
        wide = wide.reindex(columns=list(CLASSES)).reset_index()
        wide.insert(2, "n", part.groupby(["system", "prompt"], sort=False)["n"].first()
                    .to_numpy())
        out += [f"\n## {ambiguity}\n", _md(wide)]
    return "\n".join(out) + "\n"


def _word_count_md(table: pd.DataFrame) -> str:
    def paper(i: int):
        return table["ambiguity"].map(
            lambda a: f"{PAPER_WORD_COUNTS[a][i]:.3f}" if a in PAPER_WORD_COUNTS else "")

    shown = table.assign(paper_french=paper(0), paper_english=paper(1))
    return ("# Average words per example (Table 5)\n\nWhitespace-separated words of the "
            "French reference and the English source; `paper_*` are the paper's values on the "
            "full dataset (2,418 rows).\n\n" + _md(shown, floatfmt=".3f") + "\n")


# --------------------------------------------------------------------------- the stage
def build_inclusive_tables(data_path: str | Path, runs: Sequence[Mapping[str, Any]],
                           analysed_path: str | Path, outputs: dict, systems: Sequence[str],
                           prompts: Sequence[str], comet: str | Path | None = None,
                           clean_outlier: dict | None = None,
                           postprocess: Sequence[str] = (),
                           normalize: str | None = None) -> None:
    """Workflow stage: data + every run's translation file (``{system, prompt, path}``
    records) → per-output results and the tables; ``postprocess`` (the run's cleaning steps)
    and ``normalize`` (its hypothesis normaliser) are what ``postprocess_modes`` records;
    ``outputs`` maps table name (and ``<name>_md``) → path. With ``clean_outlier`` enabled,
    ``comet`` (``scores/comet.parquet``) gives the authors' mode its COMET filter of the
    singular-"they" rows (:mod:`.mode_tables`)."""
    data = pd.read_parquet(data_path)
    items = analyse(data, read_translations(runs))
    items = ordered(items, {"system": systems, "prompt": prompts, "gender": GENDERS,
                            "ambiguity": AMBIGUITIES})
    items = items.sort_values(["system", "prompt"], kind="stable", ignore_index=True)
    log.info("%d outputs analysed; %d singular-they outputs", len(items),
             int(items["they_row"].sum()))
    write_parquet(analysed_path, items.astype({c: str for c in ("system", "prompt", "gender",
                                                              "ambiguity")}))

    normalization = normalization_summary(items)
    write_table(normalization, outputs["normalization"], outputs["normalization_md"])
    write_table(changed_outputs(items), outputs["normalized_outputs"],
                outputs["normalized_outputs_md"])

    table4 = indicator_table(items)
    write_table(table4, outputs["inclusive_indicators"])
    write_text(outputs["inclusive_indicators_md"], _indicator_md(table4))

    forms = occupation_table(items)
    write_table(forms, outputs["occupation_forms"])
    write_text(outputs["occupation_forms_md"], _occupation_md(forms))

    they = ordered(they_table(items), {"system": systems, "prompt": prompts,
                                       "ambiguity": ["all", *THEY_AMBIGUITIES]})
    they = they.sort_values(["system", "prompt", "ambiguity"], kind="stable",
                            ignore_index=True)
    write_table(they, outputs["they_pronouns"])
    write_text(outputs["they_pronouns_md"], _they_md(they))

    words = word_count_table(data)
    write_table(words, outputs["word_counts"])
    write_text(outputs["word_counts_md"], _word_count_md(words))

    if "classifier_modes" in outputs:
        comet_scores = pd.read_parquet(comet) if comet else None
        modes = mode_tables.comparison(items, comet_scores, clean_outlier)
        write_table(modes, outputs["classifier_modes"])
        write_text(outputs["classifier_modes_md"], mode_tables.markdown(modes))

    if "postprocess_modes" in outputs:
        cleanings = postprocess_modes.comparison(items, data, postprocess, normalize)
        write_table(cleanings, outputs["postprocess_modes"])
        write_text(outputs["postprocess_modes_md"], postprocess_modes.markdown(cleanings))
