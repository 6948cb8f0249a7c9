"""MT-GenEval's headline figures with intervals and paired tests
(gendermt.analysis.intervals), per target language: the counterfactual accuracy gap
(masculine − feminine), the official counterfactual accuracy (a pair correct when both its
outputs are) and correct-word rate over counterfactual pairs (a pair's two
outputs are resampled together: the gap is a within-pair difference), the contextual
accuracy and correct-word rate over contextual items.

Each resample recomputes the figure as :func:`.tables.accuracy_rows` does, from summed
per-unit counts (accuracy per gender = correct segments / segments of that gender; the
contextual accuracy = correct items / items; a correct-word rate = segments whose output has
a right-gender word / segments), × 100 as the scorecard shows them.

BLEU over all segments (``bleu_all``: the mean over target languages of each language's
corpus BLEU) is resampled as sacrebleu's paired bootstrap resamples it: sacrebleu's own
per-segment statistics (``_extract_corpus_statistics``) summed over the resampled segments
and scored by sacrebleu (``_compute_score_from_stats``), the same segments for every run; the
languages are strata (each language's segments resampled on their own, language i's draws
seeded by ``seed + i``), and a resample's figure is the mean of its languages' BLEU.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.analysis.intervals import (
    Group,
    Spec,
    by_units,
    ratio,
    run_rows,
    write_intervals,
)
from gendermt.analysis.resample import Settings, point, resampled
from gendermt.benchmarks.mt_geneval.tables import accuracy_rows

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import numpy as np
    import pandas as pd

PAIR = "counterfactual pair"
ITEM = "contextual item"
# per unit counts, in column order
COUNTS = ("correct_masculine", "masculine", "correct_feminine", "feminine", "correct_words",
          "segments", "pair_correct", "pairs")
C = {name: i for i, name in enumerate(COUNTS)}


def unit_counts(part: pd.DataFrame) -> pd.DataFrame:
    """One set's segments → one row per pair (``pair_id``) with the counts of
    :data:`COUNTS`."""
    import pandas as pd

    seg = pd.DataFrame({
        "pair_id": part["pair_id"].astype(str).to_numpy(),
        "correct_masculine": ((part["gender"] == "masculine") & part["correct"]).to_numpy(),
        "masculine": (part["gender"] == "masculine").to_numpy(),
        "correct_feminine": ((part["gender"] == "feminine") & part["correct"]).to_numpy(),
        "feminine": (part["gender"] == "feminine").to_numpy(),
        "correct_words": (part["correct_words"].fillna("") != "").to_numpy(),
        "segments": True})
    units = seg.groupby("pair_id", sort=True).sum().astype(float)
    # the official decision of a pair (or contextual item): every segment of it correct
    units["pair_correct"] = part.groupby(part["pair_id"].astype(str))["pair_correct"] \
        .first().reindex(units.index).astype(float)
    units["pairs"] = 1.0
    return units.reset_index()


def gap(sums: np.ndarray) -> np.ndarray:
    return 100 * (sums[:, C["correct_masculine"]] / sums[:, C["masculine"]]
                  - sums[:, C["correct_feminine"]] / sums[:, C["feminine"]])


def specs(lang: str, which: str) -> list[Spec]:
    """The scorecard's MT-GenEval figures of one language and set."""
    words = ratio(C["correct_words"], C["segments"])
    if which == "counterfactual":
        # the official counterfactual accuracy: pairs whose both outputs are correct
        return [Spec(f"gap_{lang}", "closer to 0", gap),
                Spec(f"counterfactual_accuracy_{lang}", "higher",
                     ratio(C["pair_correct"], C["pairs"]),
                     proportion=(C["pair_correct"], C["pairs"])),
                Spec(f"correct_word_rate_{lang}", "higher", words)]
    return [Spec(f"contextual_{lang}", "higher", ratio(C["pair_correct"], C["pairs"]),
                 proportion=(C["pair_correct"], C["pairs"])),
            Spec(f"contextual_correct_word_rate_{lang}", "higher", words)]


def _values(items: pd.DataFrame, run: tuple[str, str]) -> dict[tuple[str, str, str], float]:
    """The figures as the summary table has them (accuracy_rows), × 100."""
    out = {}
    for row in accuracy_rows(items):
        lang = row["lang"]
        if row["set"] == "counterfactual":
            pairs = (("gap", "accuracy_gap"), ("counterfactual_accuracy", "accuracy"),
                     ("correct_word_rate", "correct_word_rate"))
        else:
            pairs = (("contextual", "accuracy"),
                     ("contextual_correct_word_rate", "correct_word_rate"))
        for key, column in pairs:
            if row.get(column) is not None:
                out[(f"{key}_{lang}", *run)] = 100 * row[column]
    return out


def groups(runs: Sequence[Mapping[str, str]]) -> list[Group]:
    """``runs``: records ``{system, prompt, path}`` of the per-segment decisions
    (``items/{system}/{prompt}.parquet``) → per language and set, the groups of runs scored on
    the same units."""
    import pandas as pd

    units: dict[tuple[str, str], dict[tuple[str, str], pd.DataFrame]] = {}
    values: dict[tuple[str, str, str], float] = {}
    for record in runs:
        run = (str(record["system"]), str(record.get("prompt", "")))
        items = pd.read_parquet(record["path"])
        values.update(_values(items, run))
        for (lang, which), part in items.groupby(["tgt_lang", "set"], sort=True):
            units.setdefault((str(lang), str(which)), {})[run] = unit_counts(part)
    out = []
    for (lang, which), of_set in units.items():
        for members in by_units(of_set, "pair_id"):
            group = Group(PAIR if which == "counterfactual" else ITEM, specs(lang, which))
            for run, frame in members.items():
                group.columns[run] = frame[list(COUNTS)].to_numpy(dtype=float)
            group.values = {k: v for k, v in values.items()
                            if (k[1], k[2]) in members
                            and k[0] in {s.figure for s in group.specs}}
            out.append(group)
    return out


SEGMENT = "segment (per language, stratified)"


def bleu_rows(runs: Sequence[Mapping[str, str]], data_path: str | Path, settings: Settings,
              options: Mapping | None = None, tokenize: Mapping[str, str] | None = None
              ) -> tuple[list[dict], list[dict]]:
    """``bleu_all`` of every run (the summary's value: the mean over languages of corpus BLEU
    of every segment against its right-gender reference) with its stratified paired
    bootstrap interval, and the paired tests of every two runs."""
    import numpy as np
    import pandas as pd

    from gendermt.scoring.sacrebleu_metrics import _make, with_tokenizer

    data = pd.read_parquet(data_path)
    hyps = {}
    for record in runs:
        items = pd.read_parquet(record["path"], columns=["item_id", "hypothesis"])
        hyps[(str(record["system"]), str(record.get("prompt", "")))] = dict(
            zip(items["item_id"], items["hypothesis"].fillna("").astype(str), strict=True))
    if not hyps:
        return [], []
    per_lang_values: dict[tuple[str, str], list[float]] = {run: [] for run in hyps}
    per_lang_boot: dict[tuple[str, str], list] = {run: [] for run in hyps}
    n = 0
    for i, (lang, part) in enumerate(data.groupby("tgt_lang", sort=True)):
        scorer = _make("bleu", with_tokenizer("bleu", dict((options or {}).get("bleu") or {}),
                                              str(lang), dict(tokenize or {})), sentence=False)
        refs = part["reference"].astype(str).tolist()
        columns = {}
        for run, outputs in hyps.items():
            texts = [outputs.get(item, "") for item in part["item_id"]]
            columns[run] = np.asarray(scorer._extract_corpus_statistics(texts, [refs]),
                                      dtype=float)

        def bleu(sums: np.ndarray, scorer=scorer) -> np.ndarray:
            return np.array([scorer._compute_score_from_stats(list(row)).score
                             for row in sums])

        keys = {run: f"{run[0]}\x00{run[1]}" for run in columns}
        strata = Settings(settings.resamples, settings.seed + i, settings.level,
                          settings.small_n)
        boot = resampled({keys[r]: c for r, c in columns.items()}, {"bleu": bleu}, strata)
        for run, counts in columns.items():
            per_lang_values[run].append(point(counts, bleu))
            per_lang_boot[run].append(boot[("bleu", keys[run])])
        n += len(part)
    values = {run: float(np.mean(v)) for run, v in per_lang_values.items()}
    boots = {run: np.mean(np.vstack(v), axis=0) for run, v in per_lang_boot.items()}
    return run_rows("bleu_all", "higher", values, boots, n, SEGMENT, settings)


def build_intervals(runs: Sequence[Mapping[str, str]], outputs: Mapping[str, str | Path],
                    bootstrap: Mapping | None = None, data: str | Path | None = None,
                    options: Mapping | None = None,
                    tokenize: Mapping[str, str] | None = None) -> None:
    """Workflow stage: every run's per-segment decisions → ``tables/intervals.csv`` and
    ``tables/pairs.csv`` (gendermt.analysis.intervals); with ``data`` (data.parquet: the
    references), ``bleu_all`` too (``options``: the sacrebleu options per metric,
    ``tokenize``: BLEU's tokenizer per target language, as the scoring jobs take them)."""
    extra = ([], [])
    if data is not None:
        extra = bleu_rows(runs, data, Settings.of(bootstrap), options, tokenize)
    write_intervals(groups(runs), bootstrap, outputs, extra)
