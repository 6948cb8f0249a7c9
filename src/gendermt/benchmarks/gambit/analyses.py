"""The paper's analyses of GRAPE over runs (one run = a model's assignments in one language).

Table 2 (overall GRAPE, parity and real), the per-group GRAPE behind it, Table 8 (extreme and
balanced occupations), Table 3 (GRAPE_m^parity by stereotype group), Table 9 (correlations of
GRAPE_f^parity with stereotype ratings and with the real share of women, 3-digit groups),
Table 10 (cross-lingual correlation per model) and the data of Figures 2-3 (model × model
correlations within a language). Every function takes loaded frames (assignments as read by
``grape.load_assignments``; labour: ``isco``, ``female_share``; stereotype ratings per code:
``code``, ``rating``, ``kept``) and returns a frame whose undefined values are NaN with a
``note`` saying why; the writers in ``tables.py`` print them as empty cells / "n/a".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from gendermt.analysis.stats import correlation
from gendermt.benchmarks.gambit.grape import (
    COUNT_KEYS,
    ENTRY_KEYS,
    PAPER_NATIONAL,
    fixed_reference,
    grape,
    group_counts,
    group_reference,
    member_weights,
    national_overall,
    reference_shares,
    score,
)

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    pass

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

DEFAULT_SETTINGS = {
    "levels": [4, 3], "extreme": [0.2, 0.8], "balanced": [0.3, 0.7],
    "stereotype_groups": {"masculine": [None, 2.5], "neutral": [3, 5],
                          "feminine": [5.5, None]},
    "stereotype_max_variance": 1.5, "min_assignments": 1,
    # Table 2's overall real reference: the paper's constant share per country (national)
    # or the groups' shares weighted by the system's assignments (weighted); grape.py.
    "overall_reference": "national", "national_reference": {},
}
CORRELATION_KEYS = ("n", "r", "ci_low", "ci_high", "p_value")


@dataclass
class Run:
    """One model's detected assignments in one target language."""

    model: str
    system: str
    lang: str
    assignments: pd.DataFrame

    def key(self) -> dict[str, str]:
        return {"model": self.model, "system": self.system, "lang": self.lang}


def _join(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


def _frame(rows: list[dict], columns: Sequence[str]) -> pd.DataFrame:
    """Rows → frame with ``columns``; None → NaN in numeric columns, "" in ``note``."""
    import pandas as pd

    frame = pd.DataFrame(rows, columns=list(columns))
    if "note" in frame:
        frame["note"] = frame["note"].fillna("").astype(str)
    return frame


# ---- Table 2 and the per-group table ------------------------------------------------------

OVERALL_COLUMNS = ["model", "system", "lang", "level", "reference", "grape_m", "grape_f",
                   "n_masculine", "n_feminine", "n_not_clear", "p_masculine", "p_feminine",
                   "reference_f", "note"]
GROUP_COLUMNS = ["model", "system", "lang", "level", "code", "title", "reference", "grape_m",
                 "grape_f", "n_masculine", "n_feminine", "n_not_clear", "p_masculine",
                 "p_feminine", "reference_f", "reference_code", "note"]


def _references(run: Run, labour: Mapping[str, pd.DataFrame | None]
                ) -> list[tuple[str, pd.DataFrame | None, str]]:
    """(reference name, labour frame or None for parity, note when real is unavailable)."""
    refs: list[tuple[str, pd.DataFrame | None, str]] = [("parity", None, "")]
    table = labour.get(run.lang)
    refs.append(("real", table, "" if table is not None
                 else f"no labour file for language {run.lang!r}"))
    return refs


def national_share(lang: str, given: Mapping[str, float] | None = None
                   ) -> tuple[float | None, str]:
    """The national share of women for ``lang`` (``given`` first, then the paper's constant)
    and the note saying where it comes from."""
    given = given or {}
    if lang in given:
        return float(given[lang]), f"national reference {float(given[lang]):.3f} women (config)"
    if lang in PAPER_NATIONAL:
        return PAPER_NATIONAL[lang], (f"national reference {PAPER_NATIONAL[lang]:.3f} women "
                                      "(the paper's constant, back-solved from its Table 2)")
    return None, (f"no national reference for language {lang!r} (give "
                  "analysis.national_reference)")


def grape_tables(runs: Sequence[Run], labour: Mapping[str, pd.DataFrame | None],
                 levels: Sequence[int] = (4, 3),
                 titles: Mapping[str, str] | None = None,
                 overall_reference: str = "weighted",
                 national: Mapping[str, float] | None = None
                 ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Table 2 (overall, one row per run × level × reference) and the per-group table (one row
    per run × level × reference × ISCO group). ``labour`` maps a language to its labour frame
    (a language without one gets real rows whose note says so). ``overall_reference``: the
    overall real row against the groups' ``weighted`` shares or the ``national`` share of
    women (``national``: language → share; the paper's constants otherwise)."""
    titles = titles or {}
    overall, groups = [], []
    for run in runs:
        share, share_note = national_share(run.lang, national)
        for level in levels:
            for name, table, missing in _references(run, labour):
                if name == "real" and table is None:
                    counts = group_counts(run.assignments, level)
                    result = fixed_reference(counts, None, reference="real",
                                             reference_note=missing)
                    if overall_reference == "national":
                        result["overall"] = national_overall(counts, share, share_note)
                else:
                    result = score(run.assignments, level, table,
                                   overall_reference if name == "real" else "weighted",
                                   share, share_note)
                overall.append({**run.key(), "level": level, **result["overall"]})
                for code, entry in result["groups"].items():
                    groups.append({**run.key(), "level": level, "code": code,
                                   "title": titles.get(code, ""), **entry})
    return _frame(overall, OVERALL_COLUMNS), _frame(groups, GROUP_COLUMNS)


# ---- per-occupation shares (Tables 8, 10; Figures 2-3) ----------------------------------

def occupation_shares(assignments: pd.DataFrame, level: int = 4,
                      min_assignments: int = 1) -> pd.DataFrame:
    """Per ISCO group at ``level``: the counts and ``p_feminine`` among gendered assignments
    (NaN when the group has fewer than ``min_assignments`` gendered assignments)."""
    import numpy as np

    counts = group_counts(assignments, level)
    gendered = counts["n_masculine"] + counts["n_feminine"]
    out = counts.copy()
    out["n_gendered"] = gendered
    with np.errstate(divide="ignore", invalid="ignore"):
        share = counts["n_feminine"] / gendered.where(gendered > 0)
    out["p_feminine"] = share.where(gendered >= max(min_assignments, 1))
    return out


EXTREME_COLUMNS = ["model", "system", "lang", "n_occupations", "n_extreme",
                   "n_extreme_masculine", "n_extreme_feminine", "n_balanced", "n_one_gender",
                   "n_no_gendered", "n_below_min", "note"]


def extremes_table(runs: Sequence[Run], extreme: Sequence[float] = (0.2, 0.8),
                   balanced: Sequence[float] = (0.3, 0.7),
                   min_assignments: int = 1) -> pd.DataFrame:
    """Table 8: per run, the 4-digit occupations whose p_f among gendered assignments is
    extreme (p_f < extreme[0]: masculine, p_f > extreme[1]: feminine) or balanced
    (balanced[0] ≤ p_f ≤ balanced[1]); ``n_one_gender``: p_f 0 or 1 (GRAPE^parity = 1);
    ``n_no_gendered``: occupations detected only as Not Clear; ``n_below_min``: occupations
    with gendered assignments but fewer than ``min_assignments`` (not classified)."""
    low, high = extreme
    b_low, b_high = balanced
    eps = 1e-12  # 3/10 and 0.3 must compare equal at the closed bounds
    rows = []
    for run in runs:
        shares = occupation_shares(run.assignments, 4, min_assignments)
        p = shares["p_feminine"].dropna()
        no_gendered = int((shares["n_gendered"] == 0).sum())
        below = int(((shares["n_gendered"] > 0) & shares["p_feminine"].isna()).sum())
        notes = []
        if shares.empty:
            notes.append("no assignment")
        elif p.empty:
            notes.append("no occupation with a gendered assignment")
        if no_gendered:
            notes.append(f"{no_gendered} occupation(s) with no gendered assignment not counted")
        if below:
            notes.append(f"{below} occupation(s) with fewer than {min_assignments} gendered "
                         "assignments not counted")
        rows.append({**run.key(), "n_occupations": int(len(p)),
                     "n_extreme": int(((p < low) | (p > high)).sum()),
                     "n_extreme_masculine": int((p < low).sum()),
                     "n_extreme_feminine": int((p > high).sum()),
                     "n_balanced": int(((p >= b_low - eps) & (p <= b_high + eps)).sum()),
                     "n_one_gender": int(((p == 0) | (p == 1)).sum()),
                     "n_no_gendered": no_gendered, "n_below_min": below,
                     "note": _join(*notes)})
    return _frame(rows, EXTREME_COLUMNS)


# ---- Table 3 ------------------------------------------------------------------------------

STEREOTYPE_COLUMNS = ["model", "system", "lang", "group", "rating_range", "n_codes",
                      "n_occupations", "grape_m", "n_masculine", "n_feminine", "n_not_clear",
                      "p_masculine", "note"]


def in_group(rating: float, bounds: Sequence[float | None]) -> bool:
    """The paper's groups: below ``hi`` when ``lo`` is None, above ``lo`` when ``hi`` is
    None, between ``lo`` and ``hi`` inclusive otherwise ("below 2.5, above 5.5, between 3
    and 5")."""
    lo, hi = bounds
    if lo is None and hi is None:
        return True
    if lo is None:
        return rating < hi
    if hi is None:
        return rating > lo
    return lo <= rating <= hi


def rating_range(bounds: Sequence[float | None]) -> str:
    lo, hi = bounds
    if lo is None:
        return f"< {hi:g}"
    if hi is None:
        return f"> {lo:g}"
    return f"{lo:g}–{hi:g}"


def stereotype_codes(stereotype: pd.DataFrame, groups: Mapping[str, Sequence[float | None]]
                     ) -> dict[str, set[str]]:
    """The kept 4-digit codes of each stereotype group (``stereotype``: code, rating, kept)."""
    import pandas as pd

    kept = stereotype[stereotype["kept"].astype(bool)]
    return {name: {str(c) for c, r in zip(kept["code"], kept["rating"], strict=True)
                   if not pd.isna(r) and in_group(float(r), bounds)}
            for name, bounds in groups.items()}


def stereotype_table(runs: Sequence[Run], stereotype: pd.DataFrame | None,
                     groups: Mapping[str, Sequence[float | None]]) -> pd.DataFrame:
    """Table 3: GRAPE_m^parity pooled over the assignments of the occupations (4-digit codes
    with a kept stereotype rating) in each group; one row per run × group."""
    rows = []
    members = stereotype_codes(stereotype, groups) if stereotype is not None else None
    for run in runs:
        counts = group_counts(run.assignments, 4)
        for name, bounds in groups.items():
            base = {**run.key(), "group": name, "rating_range": rating_range(bounds)}
            if members is None:
                rows.append({**base, "n_codes": 0, "n_occupations": 0,
                             **grape(0, 0, 0, None), "note": "no stereotype ratings"})
                continue
            part = counts[counts.index.isin(members[name])]
            entry = grape(*(int(part[k].sum()) for k in COUNT_KEYS))
            note = entry["note"]
            if not members[name]:
                note = "empty group: no rated occupation in this range"
            elif part.empty:
                note = "empty group: no assignment of its occupations"
            rows.append({**base, "n_codes": len(members[name]), "n_occupations": len(part),
                         **entry, "note": note})
    return _frame(rows, STEREOTYPE_COLUMNS)


# ---- Tables 9 and 10, Figures 2-3 --------------------------------------------------------

CORRELATION_COLUMNS = ["model", "system", "lang", "target", "method", "n", "r", "ci_low",
                       "ci_high", "p_value", "note"]


def _correlate(x: Sequence[float], y: Sequence[float]) -> dict:
    """Pearson with its CI and p; the note says why a value is missing."""
    result = correlation(x, y, "pearson")
    out = {k: result[k] for k in CORRELATION_KEYS}
    note = ""
    if result["n"] < 3:
        note = f"too few pairs ({result['n']}; at least 3 needed)"
    elif math.isnan(result["r"]):
        note = "a constant variable (zero variance): r undefined"
    elif math.isnan(result["ci_low"]):
        note = "confidence interval needs at least 4 pairs"
    return {**out, "note": note}


def correlation_table(runs: Sequence[Run], stereotype3: pd.DataFrame | None,
                      labour: Mapping[str, pd.DataFrame | None]) -> pd.DataFrame:
    """Table 9: per run, Pearson's r between each 3-digit group's GRAPE_f^parity and (1) its
    stereotype rating (``stereotype3``: code, rating, kept at level 3; kept groups only) and
    (2) its real share of women (labour lookup of the group's code), over the same groups.
    Without stereotype ratings, (2) runs over every group with a reference (noted)."""
    rows = []
    kept = None
    if stereotype3 is not None:
        part = stereotype3[stereotype3["kept"].astype(bool)]
        kept = {str(c): float(r) for c, r in zip(part["code"], part["rating"], strict=True)}
    for run in runs:
        groups = score(run.assignments, 3)["groups"]
        values = {c: e["grape_f"] for c, e in groups.items() if e["grape_f"] is not None}
        undefined = len(groups) - len(values)
        base_note = (f"{undefined} group(s) without a gendered assignment left out"
                     if undefined else "")
        if kept is None:
            rows.append({**run.key(), "target": "stereotype", "method": "pearson",
                         **_correlate([], []), "note": "no stereotype ratings"})
            codes = sorted(values)
        else:
            codes = sorted(set(values) & set(kept))
            result = _correlate([values[c] for c in codes], [kept[c] for c in codes])
            rows.append({**run.key(), "target": "stereotype", "method": "pearson", **result,
                         "note": _join(result["note"], base_note)})
        table = labour.get(run.lang)
        if table is None:
            rows.append({**run.key(), "target": "real", "method": "pearson",
                         **_correlate([], []),
                         "note": f"no labour file for language {run.lang!r}"})
            continue
        shares = reference_shares(table)
        weights = member_weights(run.assignments)
        pairs = [(values[c], found[0]) for c in codes
                 if (found := group_reference(shares, c, weights)) is not None]
        result = _correlate([a for a, _ in pairs], [b for _, b in pairs])
        missing = len(codes) - len(pairs)
        rows.append({**run.key(), "target": "real", "method": "pearson", **result,
                     "note": _join(result["note"], base_note,
                                   f"{missing} group(s) without a reference left out"
                                   if missing else "",
                                   "all groups (no stereotype ratings to restrict to)"
                                   if kept is None else "")})
    return _frame(rows, CORRELATION_COLUMNS)


CROSS_COLUMNS = ["model", "system", "lang_a", "lang_b", "n", "r", "ci_low", "ci_high",
                 "p_value", "note"]


def _langs(runs: Sequence[Run]) -> list[str]:
    return list(dict.fromkeys(r.lang for r in runs))


def _models(runs: Sequence[Run]) -> list[str]:
    return list(dict.fromkeys(r.model for r in runs))


def _pf(run: Run, min_assignments: int) -> pd.Series:
    return occupation_shares(run.assignments, 4, min_assignments)["p_feminine"].dropna()


def _pair(a: pd.Series, b: pd.Series) -> dict:
    common = a.index.intersection(b.index)
    return _correlate(a[common].to_numpy(), b[common].to_numpy())


def cross_lingual_table(runs: Sequence[Run], min_assignments: int = 1) -> pd.DataFrame:
    """Table 10: per model and pair of languages, Pearson's r between its per-occupation
    (4-digit) p_f in the two languages, over the occupations gendered in both."""
    rows = []
    langs = _langs(runs)
    by_key = {(r.model, r.lang): r for r in runs}
    for model in _models(runs):
        system = next(r.system for r in runs if r.model == model)
        if len(langs) < 2:
            rows.append({"model": model, "system": system, "lang_a": langs[0] if langs else "",
                         "lang_b": "", **_correlate([], []),
                         "note": "only one target language: nothing to compare"})
            continue
        for a, b in combinations(langs, 2):
            base = {"model": model, "system": system, "lang_a": a, "lang_b": b}
            missing = [lang for lang in (a, b) if (model, lang) not in by_key]
            if missing:
                rows.append({**base, **_correlate([], []),
                             "note": f"no run in {', '.join(missing)}"})
                continue
            rows.append({**base, **_pair(_pf(by_key[model, a], min_assignments),
                                         _pf(by_key[model, b], min_assignments))})
    return _frame(rows, CROSS_COLUMNS)


INTRA_COLUMNS = ["lang", "model_a", "model_b", "n", "r", "ci_low", "ci_high", "p_value",
                 "note"]


def intra_model_pairs(runs: Sequence[Run], min_assignments: int = 1) -> pd.DataFrame:
    """Figures 2-3 as numbers: per language and ordered pair of models, Pearson's r between
    their per-occupation p_f (occupations gendered by both); the diagonal included."""
    rows = []
    for lang in _langs(runs):
        part = [r for r in runs if r.lang == lang]
        shares = {r.model: _pf(r, min_assignments) for r in part}
        for a in shares:
            for b in shares:
                rows.append({"lang": lang, "model_a": a, "model_b": b,
                             **_pair(shares[a], shares[b])})
    return _frame(rows, INTRA_COLUMNS)


def intra_model_matrix(pairs: pd.DataFrame, lang: str) -> pd.DataFrame:
    """The model × model matrix of r in ``lang`` (rows and columns in run order)."""
    part = pairs[pairs["lang"] == lang]
    models = list(dict.fromkeys(part["model_a"]))
    matrix = part.pivot(index="model_a", columns="model_b", values="r")
    matrix = matrix.reindex(index=models, columns=models)
    matrix.index.name = "model"
    matrix.columns.name = None
    return matrix


__all__ = ["DEFAULT_SETTINGS", "ENTRY_KEYS", "Run", "correlation_table", "cross_lingual_table",
           "extremes_table", "grape_tables", "intra_model_matrix", "intra_model_pairs",
           "occupation_shares", "stereotype_table"]
