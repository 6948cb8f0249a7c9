"""Each run's output quality beside the benchmark tables whose figures depend on the system
translating (issue 33): the share of the run's outputs that neither echo the prompt's
instruction nor are in another language (``clean_share``, from the benchmark's
``tables/output_checks.csv``, :mod:`gendermt.scoring.output_checks`) and whether it is below the
scorecard's floor (``low_quality``), so that a table never shows a non-translating run's
figures (F1, rewriting accuracy, GRAPE) unmarked beside real ones.

The floor is the scorecard's own (:data:`CLEAN_SHARE_FLOOR`, overridden by
``scorecard.quality_floors`` in config exactly as the scorecard reads it:
:func:`clean_share_floor`), so a table and the scorecard never disagree about which run is
low quality. One helper for every benchmark: :func:`with_run_quality` adds the two columns
to a table with one row (or several) per run, :func:`mark` writes the Markdown mark and
:func:`note` the sentence that explains it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

#: The scorecard's default floor of ``clean_share``, in % (gendermt.scorecard.build uses it).
CLEAN_SHARE_FLOOR = 90.0
#: The Markdown mark of a run below the floor (the scorecard's words).
LOW_QUALITY = "(low quality)"


def clean_share_floor(floors: Mapping[str, Any] | None, *names: str) -> float:
    """The clean-share floor (%) of a benchmark known by ``names`` (its config name and its
    scorecard key, e.g. ``gambit``, ``grape``): the default, then ``scorecard.quality_floors``
    in config order, a flat ``clean_share`` for every benchmark, a mapping under one of the
    names for that one (the rule of gendermt.scorecard.build.floors_by_benchmark)."""
    floor = CLEAN_SHARE_FLOOR
    for key, value in (floors or {}).items():
        if isinstance(value, Mapping):
            if str(key) in names and "clean_share" in value:
                floor = float(value["clean_share"])
        elif str(key) == "clean_share":
            floor = float(value)
    return floor


def read_checks(path: str | Path) -> pd.DataFrame:
    """A benchmark's ``output_checks.csv``: system, prompt (the run: a prompt, or GAMBIT's
    language), clean_share (0–1)."""
    import pandas as pd

    table = pd.read_csv(path, dtype={"system": str, "prompt": str}, keep_default_na=False,
                        na_values={"clean_share": [""]})
    missing = {"system", "prompt", "clean_share"} - set(table.columns)
    if missing:
        from gendermt.core.errors import GenderMTError

        raise GenderMTError(f"{path}: no column {', '.join(sorted(missing))}")
    return table[["system", "prompt", "clean_share"]]


def with_run_quality(table: pd.DataFrame, checks: pd.DataFrame | str | Path | None,
                     floor: float = CLEAN_SHARE_FLOOR,
                     run: Sequence[str] = ("system", "prompt")) -> pd.DataFrame:
    """``table`` with two last columns: ``clean_share`` (0–1) of each row's run and
    ``low_quality`` (True where it is below ``floor``, in %). ``run``: the table's columns
    that name the run, matched to the checks' ``system`` and ``prompt`` (GAMBIT's runs are
    languages: ``("system", "lang")``). Rows of no run (a reference row) get NaN / False;
    without checks (None) the table is returned as it is."""
    import pandas as pd

    if checks is None:
        return table
    if not isinstance(checks, pd.DataFrame):
        checks = read_checks(checks)
    shares = {(str(s), str(p)): float(v) for s, p, v in
              zip(checks["system"], checks["prompt"], checks["clean_share"], strict=True)}
    keys = list(zip(*(table[c].astype(str) for c in run), strict=True)) if len(table) else []
    share = [shares.get(tuple(k), float("nan")) for k in keys]
    low = [bool(v == v and 100 * v < floor) for v in share]
    return table.assign(clean_share=share, low_quality=low)


def mark(label: str, low: Any) -> str:
    """``label`` with the low-quality mark where ``low`` is true."""
    return f"{label} {LOW_QUALITY}" if bool(low) and low == low else label


def share_text(value: Any) -> str:
    """A clean share (0–1) as the Markdown's percent ("" where there is none)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return ""
    return "" if v != v else f"{100 * v:.0f}%"


def note(floor: float) -> str:
    """The Markdown sentence that explains the quality column and the mark."""
    return (f"clean: % of the run's outputs that neither echo the prompt's instruction nor "
            f"are in another language (tables/output_checks.csv); {LOW_QUALITY}: below the "
            f"scorecard's floor of {floor:g}% (scorecard.quality_floors.clean_share), so its "
            "figures say little about the system's gender handling.")


def output_quality(outputs: Sequence[str], tgt_lang: str | None = None,
                   sources: Sequence[str] | None = None, src_lang: str | None = "en",
                   floor: float = CLEAN_SHARE_FLOOR) -> dict[str, Any]:
    """The score commands' check of the outputs they score (the workflow's rule, without the
    prompt: :func:`gendermt.scoring.output_checks.check_output`): each output is ``untranslated``
    (the same words as its source, where ``sources`` are given), ``wrong_language`` (more
    function words of the source's language or English than of ``tgt_lang``'s), or ``ok``.
    Returns ``{"clean_share": 0–1 (None: no outputs, or nothing to check them against:
    neither sources nor a target language with a word list), "low_quality": clean share
    below ``floor`` (%), "counts": {check: outputs}}``."""
    from gendermt.scoring.output_checks import FUNCTION_WORDS, check_output, words

    if sources is not None and len(sources) != len(outputs):
        raise ValueError(f"{len(outputs)} outputs but {len(sources)} sources")
    counts = {"ok": 0, "untranslated": 0, "wrong_language": 0}
    for i, output in enumerate(outputs):
        tokens = words(output)
        if sources is not None and tokens and tokens == words(sources[i]) \
                and _base(tgt_lang) != _base(src_lang):
            counts["untranslated"] += 1
            continue
        counts[check_output(output, "", tgt_lang, src_lang)] += 1
    checked = sources is not None or _base(tgt_lang) in FUNCTION_WORDS
    share = counts["ok"] / len(outputs) if len(outputs) and checked else None
    return {"clean_share": share, "low_quality": bool(share is not None and 100 * share < floor),
            "counts": counts}


def _base(lang: str | None) -> str:
    return str(lang or "").lower().replace("_", "-").split("-")[0]


def quality_warning(quality: Mapping[str, Any], floor: float = CLEAN_SHARE_FLOOR) -> str | None:
    """One line for stderr where :func:`output_quality` found the outputs below the floor:
    what they are (untranslated copies, another language) and why the figures say little;
    None where they are clean enough."""
    if not quality.get("low_quality"):
        return None
    counts = quality["counts"]
    total = sum(counts.values())
    what = [f"{counts[k]} of {total} {text}" for k, text in
            (("untranslated", "are the source, untranslated"),
             ("wrong_language", "are in the wrong language (mostly English)"))
            if counts.get(k)]
    return (f"warning: low quality: {'; '.join(what)} (clean share "
            f"{100 * quality['clean_share']:.1f}% < {floor:g}%): these figures say nothing "
            "about the system's handling of gender")


def add_quality(result: dict[str, Any], quality: Mapping[str, Any]) -> dict[str, Any]:
    """``result`` with the JSON's two added keys, ``clean_share`` and ``low_quality``; the
    warning line, if any, goes to stderr."""
    import sys

    line = quality_warning(quality)
    if line:
        print(line, file=sys.stderr)
    return {**result, "clean_share": quality["clean_share"],
            "low_quality": quality["low_quality"]}
