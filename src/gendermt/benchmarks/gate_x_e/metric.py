"""Exact-match accuracy of rewrites (Table 2), the relaxed negative-neutral score (§5.3), and
BLEU / WER of rewrites (Table 6).

A tuple matches when its rewrite equals its reference after stripping surrounding
whitespace, as GATE's evaluation compares. Negative→Gender counts an instance as right when
both its feminine and its masculine rewrites equal the original (§5.3); Negative→Neut
(relaxed) also accepts the original with every pronoun made neutral (the data's
all-neutral column).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from gendermt.benchmarks.gate_x_e import SUBTYPES
from gendermt.benchmarks.gate_x_e.parse import answer_status, parse_answer
from gendermt.core.errors import GenderMTError
from gendermt.scoring.metric_signature import metric_signature
from gendermt.scoring.sacrebleu_metrics import corpus_score
from gendermt.scoring.wer import SIGNATURE as WER_SIGNATURE
from gendermt.scoring.wer import corpus_wer

ORIGINAL_HEADER = {"feminine": "Fem Orig", "masculine": "Masc Orig", "mixed": "Mixed Orig",
                   "negative": "Negative"}
REQUESTED_HEADER = {"feminine": "F", "masculine": "M", "neutral": "Neut"}
# Table 2's columns, in its order.
COLUMNS = [("Fem Orig", "M"), ("Fem Orig", "Neut"), ("Masc Orig", "F"), ("Masc Orig", "Neut"),
           ("Mixed Orig", "F"), ("Mixed Orig", "M"), ("Mixed Orig", "Neut"),
           ("Negative", "Gender"), ("Negative", "Neut"), ("Negative", "Neut (relaxed)")]
#: Bumped when the accuracy's computation (mark, accuracy_long) changes.
SIGNATURE_VERSION = 1


def accuracy_signature(answer: str) -> str:
    """The accuracy's signature: exact match after stripping, Negative→Gender over both
    variants, the relaxed score's all-neutral reference, and how the rewrites were read
    (``answer``: the template's ``variants`` or ``neutral``, ``table`` for given rewrites)."""
    return metric_signature("gate-x-e-accuracy", SIGNATURE_VERSION, {
        "match": "exact-stripped", "negative_gender": "both-variants",
        "relaxed": "all-neutral", "answer": answer})


def rewrites_from_answers(tuples: pd.DataFrame, raws: Mapping[str, str],
                          finishes: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Each tuple with the rewrite of its requested gender, read from its request's raw
    answer (``raws``: item_id → raw output), and how the answer was read (``answer``: one
    of :data:`.parse.ANSWER_STATUSES`; ``finishes``: item_id → finish reason)."""
    missing = sorted(set(tuples["item_id"]) - set(raws))
    if missing:
        raise GenderMTError(f"no output for {len(missing)} request(s), e.g. {missing[:3]}")
    answers = {item: parse_answer(raw) for item, raw in raws.items()}
    finishes = finishes or {}
    out = tuples.copy()
    out["rewrite"] = [answers[t.item_id].rewrite(t.requested_gender, t.original)
                      for t in tuples.itertuples(index=False)]
    out["answer"] = [answer_status(raws[i], answers[i], finishes.get(i))
                     for i in tuples["item_id"]]
    return out


def rewrites_from_table(tuples: pd.DataFrame, table: pd.DataFrame, where: str) -> pd.DataFrame:
    """Each tuple with its rewrite from a table keyed by ``tuple_id`` (column ``rewrite``)."""
    for column in ("tuple_id", "rewrite"):
        if column not in table.columns:
            raise GenderMTError(f"{where}: no column {column!r} (columns: "
                                f"{', '.join(map(str, table.columns))})")
    dup = table["tuple_id"][table["tuple_id"].duplicated()]
    if len(dup):
        raise GenderMTError(f"{where}: tuple_id {dup.iloc[0]!r} appears more than once")
    unknown = sorted(set(table["tuple_id"]) - set(tuples["tuple_id"]))
    if unknown:
        raise GenderMTError(f"{where}: {len(unknown)} tuple_id(s) not in the data, e.g. "
                            f"{unknown[:3]}")
    missing = sorted(set(tuples["tuple_id"]) - set(table["tuple_id"]))
    if missing:
        raise GenderMTError(f"{where}: no rewrite for {len(missing)} tuple(s), e.g. "
                            f"{missing[:3]}")
    rewrites = table.set_index("tuple_id")["rewrite"].fillna("").astype(str)
    return tuples.assign(rewrite=tuples["tuple_id"].map(rewrites))


def mark(tuples: pd.DataFrame) -> pd.DataFrame:
    """Adds ``match`` (exact) and ``relaxed_match``."""
    rewrite = tuples["rewrite"].fillna("").astype(str).str.strip()
    return tuples.assign(
        match=rewrite == tuples["reference"].str.strip(),
        relaxed_match=(rewrite == tuples["reference"].str.strip())
        | (rewrite == tuples["relaxed_reference"].str.strip()))


def accuracy_long(scored: pd.DataFrame) -> pd.DataFrame:
    """One row per language × subtype × original × requested: ``n``, ``correct``,
    ``accuracy`` (Table 2's cells)."""
    rows = []
    for language, lang in scored.groupby("language", sort=False):
        positive = lang[lang["original_gender"] != "negative"]
        for subtype in SUBTYPES:
            part = positive if subtype == "Overall" else positive[positive["category"] == subtype]
            for (orig, req), cell in part.groupby(["original_gender", "requested_gender"]):
                rows.append((language, subtype, ORIGINAL_HEADER[orig], REQUESTED_HEADER[req],
                             len(cell), int(cell["match"].sum())))
        negative = lang[lang["original_gender"] == "negative"]
        if len(negative):
            gendered = negative[negative["requested_gender"] != "neutral"]
            both = gendered.groupby("instance_id")["match"].all()
            neutral = negative[negative["requested_gender"] == "neutral"]
            rows += [(language, "Overall", "Negative", "Gender", len(both), int(both.sum())),
                     (language, "Overall", "Negative", "Neut", len(neutral),
                      int(neutral["match"].sum())),
                     (language, "Overall", "Negative", "Neut (relaxed)", len(neutral),
                      int(neutral["relaxed_match"].sum()))]
    frame = pd.DataFrame(rows, columns=["language", "subtype", "original", "requested", "n",
                                        "correct"])
    frame["accuracy"] = frame["correct"] / frame["n"]
    return frame


def table2(long: pd.DataFrame) -> pd.DataFrame:
    """Table 2's layout: rows language × subtype, columns original / requested."""
    wide = long.pivot_table(index=["language", "subtype"], columns=["original", "requested"],
                            values="accuracy", aggfunc="first")
    wide = wide.reindex(columns=pd.MultiIndex.from_tuples(COLUMNS))
    order = [(lang, s) for lang in dict.fromkeys(long["language"]) for s in SUBTYPES]
    wide = wide.reindex([o for o in order if o in wide.index])
    wide.columns = [f"{o} → {r}" for o, r in wide.columns]
    return wide.reset_index()


def nested(long: pd.DataFrame, value: str) -> dict:
    """``{subtype: {original: {requested: value}}}`` for one language (the CLI's JSON)."""
    out: dict = {}
    for row in long.itertuples(index=False):
        cell = getattr(row, value)
        out.setdefault(row.subtype, {}).setdefault(row.original, {})[row.requested] = (
            float(cell) if value == "accuracy" else int(cell))
    return out


def rewriting_quality(scored: pd.DataFrame, bleu_options: dict | None = None,
                      answer: str | None = None) -> pd.DataFrame:
    """Table 6's layout on the Pronoun-Only tuples: accuracy (%), BLEU and WER (%) of the
    neutral rewrites and of the gendered ones, per language; with ``answer`` (how the
    rewrites were read), each metric's signature after them."""
    rows = []
    pronoun = scored[scored["category"] == "Pronoun-Only"]
    for language, lang in pronoun.groupby("language", sort=False):
        row = {"language": language}
        bleu_signature = ""
        for name, part in (("neutral", lang[lang["requested_gender"] == "neutral"]),
                           ("gendered", lang[lang["requested_gender"] != "neutral"])):
            hyps = part["rewrite"].fillna("").astype(str).str.strip().tolist()
            refs = part["reference"].str.strip().tolist()
            row[f"{name}_n"] = len(part)
            row[f"{name}_accuracy"] = 100.0 * part["match"].mean() if len(part) else None
            bleu = corpus_score("bleu", hyps, refs, bleu_options) if len(part) else None
            row[f"{name}_bleu"] = None if bleu is None else bleu.score
            bleu_signature = bleu_signature or (bleu.signature if bleu else "")
            row[f"{name}_wer"] = corpus_wer(hyps, refs) if len(part) else None
        if answer is not None:
            row.update(accuracy_signature=accuracy_signature(answer),
                       bleu_signature=bleu_signature, wer_signature=WER_SIGNATURE)
        rows.append(row)
    return pd.DataFrame(rows)
