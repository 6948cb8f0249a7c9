"""The change between two systems on the same WinoMT sentences: per configured pair
(``benchmarks.winomt.compare``: ``before`` → ``after``, e.g. a service's 2019 published output
→ the live service today), per target language, accuracy and ΔG of each and the change
(after − before) with its paired bootstrap interval over sentences.

Both systems are read by the headline reader (the first of ``readers:``) on the sentences
both were scored on (normally all of them; ``n`` says how many). The values are the summary's
(:func:`.metric.compute`, rounded where the reader rounds); the interval and the two-sided p
come from one seeded bootstrap that draws the same sentences for both systems
(:func:`gendermt.analysis.resample.resampled`, the statistics of
:mod:`gendermt.benchmarks.winomt.intervals`), so that a change every sentence shares is not
lost in the noise of either system's own interval.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gendermt.analysis.resample import (
    BOOTSTRAP_METHOD,
    Settings,
    paired_test,
    resampled,
    signature,
)
from gendermt.benchmarks.winomt import ORIGINAL_READERS
from gendermt.benchmarks.winomt.whole_file import check as check_alignment_corpus
from gendermt.core.errors import GenderMTError

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan (the
    # metrics' modules import pandas)
    import pandas as pd

    from gendermt.analysis.resample import Statistic

KEY = "benchmarks.winomt.compare"
#: The figures compared: (summary key, what it is)
FIGURES = (("acc", "accuracy (%)"), ("delta_g", "ΔG = F1 male − F1 female"))
UNIT = "sentence"  # as gendermt.benchmarks.winomt.intervals resamples
COLUMNS = ["label", "before", "after", "figure", "before_value", "after_value", "change",
           "ci_low", "ci_high", "p", "n", "reader", "unit", "method", "resamples", "seed",
           "level", "signature"]


def pairs_of(spec: Mapping[str, Any]) -> list[dict[str, str]]:
    """The benchmark's ``compare`` pairs, each with its ``label`` (default ``before → after``)."""
    return [{"before": str(p["before"]), "after": str(p["after"]),
             "label": str(p.get("label") or f"{p['before']} → {p['after']}")}
            for p in spec.get("compare") or []]


def languages_of(spec: Mapping[str, Any], system: str) -> list[str]:
    """The target languages a system runs: its ``system_prompts``, else every prompt."""
    return list((spec.get("system_prompts") or {}).get(system, spec.get("prompts", [])))


def pair_languages(spec: Mapping[str, Any], pair: Mapping[str, str]) -> list[str]:
    """The languages both systems of a pair run, in the benchmark's prompt order."""
    after = set(languages_of(spec, pair["after"]))
    return [lang for lang in languages_of(spec, pair["before"]) if lang in after]


def compare_languages(spec: Mapping[str, Any]) -> list[str]:
    """The languages with a comparison table and figure: those at least one pair runs."""
    found = {lang for pair in pairs_of(spec) for lang in pair_languages(spec, pair)}
    return [lang for lang in spec.get("prompts", []) if lang in found]


def check_pairs(spec: Mapping[str, Any]) -> None:
    """Each pair names two different systems of the benchmark that share a language, and
    no label is used twice (the tables' rows are told apart by it)."""
    systems = list(spec.get("systems", []))
    labels: set[str] = set()
    for k, pair in enumerate(pairs_of(spec)):
        for side in ("before", "after"):
            if pair[side] not in systems:
                raise GenderMTError(
                    f"{KEY}[{k}].{side}: {pair[side]!r} is not one of the benchmark's systems "
                    f"({', '.join(systems)}); add it to benchmarks.winomt.systems or fix the "
                    "name")
        if pair["before"] == pair["after"]:
            raise GenderMTError(f"{KEY}[{k}]: before and after are both {pair['before']!r}; "
                                "a comparison needs two systems")
        if not pair_languages(spec, pair):
            raise GenderMTError(
                f"{KEY}[{k}]: {pair['before']} runs {languages_of(spec, pair['before'])} and "
                f"{pair['after']} runs {languages_of(spec, pair['after'])}: no language in "
                "common to compare them on (see system_prompts)")
        if pair["label"] in labels:
            raise GenderMTError(f"{KEY}[{k}].label: {pair['label']!r} is used twice; give "
                                "each pair its own label")
        labels.add(pair["label"])


def check(spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    """The benchmark's config check (its contract's ``check``): the alignment corpus
    (:func:`.whole_file.check`) and the comparison pairs, at start-up."""
    check_alignment_corpus(spec, config)
    check_pairs(spec)


def statistics() -> dict[str, Statistic]:
    """Each figure's bootstrap statistic of summed per-sentence counts (winomt.intervals)."""
    from gendermt.analysis.intervals import ratio
    from gendermt.benchmarks.winomt.intervals import C, delta_g

    return {"acc": ratio(C["correct"], C["sentences"]), "delta_g": delta_g}


def common_items(before: pd.DataFrame, after: pd.DataFrame
                 ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Both per-sentence tables on the sentences both were scored on, sorted by ``item_id``
    so that row k is the same sentence in both."""
    shared = set(before["item_id"]) & set(after["item_id"])
    if not shared:
        raise GenderMTError("the two systems of a comparison share no sentence (item_id)")

    def keep(frame: pd.DataFrame) -> pd.DataFrame:
        kept = frame[frame["item_id"].isin(shared)]
        return kept.sort_values("item_id", kind="stable").reset_index(drop=True)

    return keep(before), keep(after)


def compare_pair(before: pd.DataFrame, after: pd.DataFrame, settings: Settings,
                 reader: str = "corrected") -> list[dict[str, Any]]:
    """One row per figure (:data:`FIGURES`): both systems' values on their common sentences,
    the change after − before, its paired percentile interval and two-sided p, and n."""
    from gendermt.benchmarks.winomt.intervals import counts
    from gendermt.benchmarks.winomt.metric import compute

    before, after = common_items(before, after)
    rounded = reader in ORIGINAL_READERS
    values = {"before": compute(before, rounded=rounded), "after": compute(after, rounded=rounded)}
    boot = resampled({"before": counts(before), "after": counts(after)},
                     statistics(), settings)
    rows = []
    for key, _ in FIGURES:
        b, a = float(values["before"][key]), float(values["after"][key])
        # goodness "higher" is the value itself: difference = after − before, as is
        result = paired_test(a, b, boot[(key, "after")], boot[(key, "before")], "higher",
                             settings.level)
        change = round(a - b, 1) if rounded else a - b  # two one-decimal figures: no noise
        rows.append({"figure": key, "before_value": b, "after_value": a, "change": change,
                     "ci_low": result.ci_low, "ci_high": result.ci_high, "p": result.p,
                     "n": int(len(before)), "reader": reader, "unit": UNIT,
                     "method": BOOTSTRAP_METHOD, "resamples": settings.resamples,
                     "seed": settings.seed, "level": settings.level,
                     "signature": signature(UNIT, settings)})
    return rows


def compare_tables(frames: Mapping[tuple[str, str], pd.DataFrame],
                   pairs: Sequence[Mapping[str, str]], languages: Sequence[str],
                   bootstrap: Mapping | None = None, reader: str = "corrected"
                   ) -> dict[str, pd.DataFrame]:
    """Per language, the table of every pair that has both runs there (``frames``: the
    headline reader's per-sentence table of each (system, language))."""
    import pandas as pd

    settings = Settings.of(bootstrap)
    out = {}
    for lang in languages:
        rows = []
        for pair in pairs:
            runs = (pair["before"], lang), (pair["after"], lang)
            if not all(run in frames for run in runs):
                continue  # a system that does not run this language
            for row in compare_pair(frames[runs[0]], frames[runs[1]], settings, reader):
                rows.append({"label": pair["label"], "before": pair["before"],
                             "after": pair["after"], **row})
        out[lang] = pd.DataFrame(rows, columns=COLUMNS)
    return out


def build_compare(runs: Sequence[Mapping[str, str]], pairs: Sequence[Mapping[str, str]],
                  outputs: Mapping[str, str | Path], bootstrap: Mapping | None = None,
                  reader: str = "corrected") -> None:
    """Workflow stage: the per-sentence tables of every compared run (records ``{system,
    lang, path}``) → ``tables/compare_{lang}.csv`` and ``.md`` (``outputs``: ``csv_{lang}``,
    ``md_{lang}``)."""
    import pandas as pd

    from gendermt.data.io import write_table

    frames = {(str(r["system"]), str(r["lang"])): pd.read_parquet(r["path"]) for r in runs}
    languages = [key.removeprefix("csv_") for key in outputs if key.startswith("csv_")]
    for lang, table in compare_tables(frames, pairs, languages, bootstrap, reader).items():
        write_table(table, outputs[f"csv_{lang}"], outputs.get(f"md_{lang}"),
                    md_without=["signature", "unit", "method"])
