"""One system's outputs on one MT-GenEval set → per-item decisions with the words behind them."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.mt_geneval.metric import accuracy, decisions

log = logging.getLogger(__name__)


def _words(values) -> list[str]:
    return [" ".join(sorted(v)) for v in values]


def evaluate_contextual(data: pd.DataFrame, hypotheses: Sequence[str]) -> pd.DataFrame:
    """Per item: the output, whether it is correct, and the words that decided it."""
    found = decisions(list(hypotheses), data["reference"].tolist(),
                      data["reference_flipped"].tolist())
    return pd.DataFrame({"item_id": data["item_id"], "line": data["line"],
                         "hypothesis": list(hypotheses),
                         "correct": [d.correct for d in found],
                         "correct_words": _words(d.correct_words for d in found),
                         "incorrect_words": _words(d.incorrect_words for d in found)})


def evaluate_counterfactual(data: pd.DataFrame, masculine: Sequence[str],
                            feminine: Sequence[str]) -> pd.DataFrame:
    """Per item: each gender's output against its reference (the other gender's reference as
    the counterfactual), and the item's decision: correct only when both are."""
    out = {"item_id": data["item_id"], "line": data["line"]}
    flags = {}
    for gender, other, hyps in (("masculine", "feminine", masculine),
                                ("feminine", "masculine", feminine)):
        found = decisions(list(hyps), data[f"reference_{gender}"].tolist(),
                          data[f"reference_{other}"].tolist())
        flags[gender] = [d.correct for d in found]
        out[f"hypothesis_{gender}"] = list(hyps)
        out[f"correct_{gender}"] = flags[gender]
        out[f"correct_words_{gender}"] = _words(d.correct_words for d in found)
        out[f"incorrect_words_{gender}"] = _words(d.incorrect_words for d in found)
    out["correct"] = [m and f for m, f in zip(flags["masculine"], flags["feminine"], strict=True)]
    return pd.DataFrame(out)


def summarise(items: pd.DataFrame) -> dict:
    """``accuracy`` (the official figure), per gender on the counterfactual set, and ``n``."""
    result = {"accuracy": accuracy(items["correct"].tolist())}
    if "correct_masculine" in items:
        m = accuracy(items["correct_masculine"].tolist())
        f = accuracy(items["correct_feminine"].tolist())
        result.update(accuracy_masculine=m, accuracy_feminine=f,
                      accuracy_gap=None if m is None or f is None else m - f)
    result["n"] = len(items)
    return result


def evaluate_segments(data: pd.DataFrame, hypotheses: Sequence[str]) -> pd.DataFrame:
    """One run over the workflow's segments (``data.segments``) → per segment: the decision and
    the words behind it, and ``pair_correct``: on the counterfactual set, whether both
    translations of the pair are correct (the official item decision); on the contextual set,
    the segment's own decision."""
    found = decisions(list(hypotheses), data["reference"].tolist(),
                      data["counterfactual_reference"].tolist())
    out = data[["item_id", "pair_id", "set", "gender", "tgt_lang", "line"]].copy()
    out["hypothesis"] = list(hypotheses)
    out["correct"] = [d.correct for d in found]
    out["correct_words"] = _words(d.correct_words for d in found)
    out["incorrect_words"] = _words(d.incorrect_words for d in found)
    out["pair_correct"] = out.groupby("pair_id")["correct"].transform("all")
    return out


# The references a run's outputs are scored against with BLEU/chrF: the one of the segment's
# own gender (its quality) and the counterfactual one (how far it is from the wrong gender).
QUALITY_REFERENCES = {"correct": "reference", "counterfactual": "counterfactual_reference"}


def quality_rows(data: pd.DataFrame, hypotheses: pd.Series, metrics: Sequence[str],
                 options: dict[str, dict] | None = None,
                 tokenize: dict[str, str] | None = None) -> list[dict]:
    """Corpus BLEU/chrF (sacrebleu, with its signature) per target language, set and gender
    (``all`` over both genders of the counterfactual set; set ``all``: every segment of the
    language), against the correct-gender and the counterfactual references."""
    from gendermt.scoring.metrics import corpus_scores
    from gendermt.scoring.sacrebleu_metrics import with_tokenizer

    frame = data.assign(hypothesis=hypotheses.to_numpy()).reset_index(drop=True)
    groups = [(lang, "all", "all", part) for lang, part in frame.groupby("tgt_lang", sort=True)]
    for (lang, which), part in frame.groupby(["tgt_lang", "set"], sort=True):
        groups.append((lang, which, "all", part))
        if which == "counterfactual":
            groups += [(lang, which, g, part[part["gender"] == g]) for g in ("masculine",
                                                                                "feminine")]
    # one language's segments are scored once per metric and reference (corpus_scores), its
    # groups' scores summed from them
    scored = {}
    for lang, lang_part in frame.groupby("tgt_lang", sort=True):
        members = [k for k, group in enumerate(groups) if group[0] == lang]
        positions = [lang_part.index.get_indexer(groups[k][3].index) for k in members]
        for metric in metrics:
            opts = with_tokenizer(metric, (options or {}).get(metric), lang, tokenize)
            for against, column in QUALITY_REFERENCES.items():
                for k, score in zip(members, corpus_scores(
                        metric, lang_part["hypothesis"].tolist(), lang_part[column].tolist(),
                        positions, opts), strict=True):
                    scored[k, metric, against] = score
    return [{"lang": lang, "set": which, "gender": gender, "metric": metric,
             "reference": against, "score": scored[k, metric, against].score,
             "signature": scored[k, metric, against].signature, "n": len(part)}
            for k, (lang, which, gender, part) in enumerate(groups)
            for metric in metrics for against in QUALITY_REFERENCES]


def score_run(translations: str | Path, data_path: str | Path, items_out: str | Path,
              items_csv: str | Path, summary_out: str | Path, metrics: Sequence[str] = (),
              options: dict[str, dict] | None = None,
              tokenize: dict[str, str] | None = None) -> None:
    """Workflow stage: ``translations/{system}/{prompt}.jsonl`` + ``data.parquet`` → the
    per-segment decisions with the words behind them (``items/{system}/{prompt}.parquet`` and
    ``.csv``) and a summary (``.json``: accuracy per language and set as the official scorer
    defines it, and BLEU/chrF against the right and the counterfactual references)."""
    from gendermt.core.errors import GenderMTError
    from gendermt.data.io import read_jsonl, write_json, write_parquet, write_table

    data = pd.read_parquet(data_path)
    hyps = {r["item_id"]: r["hypothesis"] for r in read_jsonl(translations)}
    missing = [i for i in data["item_id"] if i not in hyps]
    if missing:
        raise GenderMTError(f"{translations}: {len(missing)} of {len(data)} segments have no "
                            f"output (first: {missing[0]})")
    hypotheses = data["item_id"].map(hyps).fillna("").astype(str)
    items = evaluate_segments(data, hypotheses.tolist())
    write_parquet(items_out, items)
    write_table(items, items_csv)
    accuracy_rows = []
    for (lang, which), part in items.groupby(["tgt_lang", "set"], sort=True):
        pairs = part.drop_duplicates("pair_id")
        row = {"lang": lang, "set": which, "accuracy": accuracy(pairs["pair_correct"].tolist()),
               "n": len(pairs)}
        if which == "counterfactual":
            for gender in ("masculine", "feminine"):
                row[f"accuracy_{gender}"] = accuracy(
                    part.loc[part["gender"] == gender, "correct"].tolist())
        accuracy_rows.append(row)
    summary = {"translations": str(translations), "segments": len(items),
               "accuracy": accuracy_rows,
               "quality": quality_rows(data, hypotheses, metrics, options, tokenize)}
    log.info("%s: %s", translations, {f"{r['lang']} {r['set']}": round(r["accuracy"], 3)
                                      for r in accuracy_rows})
    write_json(summary_out, summary)
