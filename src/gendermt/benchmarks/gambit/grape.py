"""GRAPE, the Gender RAtio ProbabilitiEs of Mastromichalakis et al. (2025), Definition 1.

Within a set M of gender assignments (one per text × detected occupation) with counts n_m,
n_f and n_nc (Not Clear): p_m = n_m / (n_m + n_f) and p_f = 1 − p_m — Not Clear is left out
of p, as in the paper, and reported beside it. GRAPE_g = (p_g − pref_g) / pref_g.

References: ``parity`` (pref_m = pref_f = 0.5) or ``real`` (pref_f = a labour file's share of
women). Assignments are grouped by the first ``level`` digits of their 4-digit ISCO-08 code
(level 4: the occupation, level 3: its minor group). A group's real reference is the labour
file's ``female_share`` for the group's own code; where the file has no entry for it but has
entries for codes inside the group (a 3-digit group with only its 4-digit members listed),
those members pooled, each weighted by the group's gendered assignments (n_m + n_f) that fall
in it (2221 at .85 with 4 and 2222 at .99 with 2 give 222 (4 × .85 + 2 × .99) / 6 = .897);
otherwise the most specific ancestor present (3, 2, 1 digits).

The overall value (an aggregate of groups) has two real references (``overall_reference``):

* ``weighted``: the mean of its groups' pref_f weighted by their gendered assignments, i.e.
  the share of women expected for that system's mix of occupations; groups without a
  reference are left out of the real aggregate (counts and all) and the note says how many.
* ``national``: one constant share of women per country, the same for every system, over all
  assignments. This is what the paper's Table 2 implies: back-solving pref_f from its
  ref=parity and ref=real columns (p_m = (1 + GRAPE_m^parity) / 2, pref_m = p_m /
  (1 + GRAPE_m^real)) gives, for all six systems, 0.489-0.492 for France (mean 0.490) and
  0.425-0.430 for Greece (mean 0.428) — a per-system weighting would differ from system to
  system. :data:`PAPER_NATIONAL` holds those means; a study can give its own.

Guards: a value that cannot be computed is ``None`` (JSON null; an empty CSV cell, "n/a" in
Markdown) and the entry's ``note`` says why: an empty group, no gendered assignment
(n_m + n_f = 0), no reference for the code, a reference share of 0 or 1 for one gender
(GRAPE of that gender divides by zero). Never NaN, never an exception.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gendermt.benchmarks.gambit.labels import FEMININE, LABELS, MASCULINE, NOT_CLEAR
from gendermt.benchmarks.gambit.references import lookup_share
from gendermt.core.errors import DatasetError
from gendermt.scoring.metric_signature import metric_signature

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

REQUIRED_COLUMNS = ("text_id", "isco", "label")
COUNT_KEYS = ("n_masculine", "n_feminine", "n_not_clear")
# Keys of every GRAPE entry, in the order the JSON and the tables show them.
ENTRY_KEYS = ("grape_m", "grape_f", "n_masculine", "n_feminine", "n_not_clear", "p_masculine",
              "p_feminine", "reference", "reference_f", "reference_code", "note")
PARITY = 0.5
# The share of women the paper's Table 2 implies for the whole workforce of each target
# language's country (see the module docstring): fr France, el Greece.
PAPER_NATIONAL = {"fr": 0.490, "el": 0.428}
OVERALL_REFERENCES = ("weighted", "national")
#: Bumped when the computation in this module changes (the tables' signatures say which).
SIGNATURE_VERSION = 1


def signature(overall_reference: str, national: Mapping[str, float] | float | None = None,
              detector: str | None = None) -> str:
    """GRAPE's signature: Not Clear left out of p, the overall real reference
    (``weighted`` or ``national``; with ``national``, its shares: ``paper`` for
    :data:`PAPER_NATIONAL`) and the detector whose assignments were scored (``given``:
    assignments as read)."""
    options: dict[str, Any] = {"not_clear": "excluded", "overall_reference": overall_reference}
    if overall_reference == "national":
        options["national_reference"] = national if national or national == 0 else "paper"
    options["detector"] = detector or "given"
    return metric_signature("grape", SIGNATURE_VERSION, options)
_CODE = re.compile(r"^[0-9]{4}$")  # ASCII digits only


def load_assignments(path: str | Path) -> pd.DataFrame:
    """Read detected assignments (CSV: ``text_id``, ``isco``, ``label``, other columns kept).

    ``isco`` must be a 4-digit ISCO-08 code (kept as a string: "0110"), ``label`` one of
    Masculine, Feminine, Not Clear exactly. Errors name the file, row (from 1, header
    excluded) and column.
    """
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise DatasetError(path, "no such file")
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise DatasetError(path, "empty file: expected a header with text_id, isco, label"
                           ) from None
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise DatasetError(path, f"not a readable CSV file ({exc})") from None
    for column in REQUIRED_COLUMNS:
        if column not in frame.columns:
            raise DatasetError(path, f"missing column (the header has: "
                                     f"{', '.join(map(str, frame.columns))})", column=column)
    frame["isco"] = frame["isco"].str.strip()
    bad = ~frame["isco"].map(lambda c: bool(_CODE.match(c)))
    if bad.any():
        row = int(bad.to_numpy().argmax())
        raise DatasetError(path, f"{frame['isco'].iloc[row]!r} is not a 4-digit ISCO-08 code",
                           row=row + 1, column="isco")
    bad = ~frame["label"].isin(LABELS)
    if bad.any():
        row = int(bad.to_numpy().argmax())
        raise DatasetError(path, f"label {frame['label'].iloc[row]!r} is not one of "
                                 f"{', '.join(LABELS)}", row=row + 1, column="label")
    return frame


def label_counts(labels: Iterable[str]) -> dict[str, int]:
    """``n_masculine``, ``n_feminine``, ``n_not_clear`` of a sequence of labels."""
    values = list(labels)
    return {"n_masculine": values.count(MASCULINE), "n_feminine": values.count(FEMININE),
            "n_not_clear": values.count(NOT_CLEAR)}


def grape(n_masculine: int, n_feminine: int, n_not_clear: int = 0,
          reference_f: float | None = PARITY, *, reference: str = "parity",
          reference_code: str | None = None, reference_note: str = "") -> dict:
    """One GRAPE entry (Definition 1) from counts and the reference share of women.

    ``reference_f`` None means no reference is available (``reference_note`` says why).
    Returns the keys of ``ENTRY_KEYS``; undefined values are None with a ``note``.
    """
    notes = []
    gendered = n_masculine + n_feminine
    if gendered + n_not_clear == 0:
        notes.append("empty group: no assignment")
    elif gendered == 0:
        notes.append("no gendered assignment (all Not Clear)")
    p_m = n_masculine / gendered if gendered else None
    p_f = n_feminine / gendered if gendered else None
    grape_m = grape_f = None
    if reference_f is None:
        notes.append(reference_note or "no reference")
    else:
        if not 0.0 <= reference_f <= 1.0 or math.isnan(reference_f):
            raise ValueError(f"reference share of women {reference_f!r} is not in [0, 1]")
        if reference_note:
            notes.append(reference_note)
        pref_m = 1.0 - reference_f
        if pref_m == 0.0:
            notes.append("reference share of women is 1 (of men 0): GRAPE_m undefined")
        elif p_m is not None:
            grape_m = (p_m - pref_m) / pref_m
        if reference_f == 0.0:
            notes.append("reference share of women is 0: GRAPE_f undefined")
        elif p_f is not None:
            grape_f = (p_f - reference_f) / reference_f
    return {"grape_m": grape_m, "grape_f": grape_f, "n_masculine": int(n_masculine),
            "n_feminine": int(n_feminine), "n_not_clear": int(n_not_clear),
            "p_masculine": p_m, "p_feminine": p_f, "reference": reference,
            "reference_f": reference_f, "reference_code": reference_code,
            "note": "; ".join(notes)}


def group_of(code: str, level: int) -> str:
    """The ISCO-08 group of ``code`` at ``level`` (its first ``level`` digits)."""
    if level not in (1, 2, 3, 4):
        raise ValueError(f"ISCO-08 level must be 1 to 4, not {level!r}")
    return str(code)[:level]


def group_counts(assignments: pd.DataFrame, level: int = 4) -> pd.DataFrame:
    """Counts per ISCO group at ``level``: index ``code`` (sorted), columns ``COUNT_KEYS``."""
    import pandas as pd

    if assignments.empty:
        return pd.DataFrame({k: pd.Series(dtype=int) for k in COUNT_KEYS},
                            index=pd.Index([], name="code", dtype=str))
    codes = assignments["isco"].astype(str).map(lambda c: group_of(c, level))
    table = pd.crosstab(codes, assignments["label"]).reindex(columns=list(LABELS), fill_value=0)
    table.columns = list(COUNT_KEYS)
    table.index = table.index.astype(str).rename("code")
    return table.astype(int).sort_index()


def reference_shares(labour: pd.DataFrame | None) -> dict[str, float]:
    """A labour table (columns ``isco``, ``female_share``) as ``{code: share}``."""
    if labour is None:
        return {}
    return {str(code).strip(): float(share)
            for code, share in zip(labour["isco"], labour["female_share"], strict=True)}


def weighted_reference(members: Iterable[tuple[float, int]]) -> float | None:
    """The mean of the members' pref_f weighted by their gendered assignments; the plain mean
    when no member has a gendered assignment; None without members."""
    members = list(members)
    if not members:
        return None
    total = sum(w for _, w in members)
    if total == 0:
        return sum(s for s, _ in members) / len(members)
    return sum(s * w for s, w in members) / total


def fixed_reference(counts: pd.DataFrame, reference_f: float | None = PARITY,
                    **entry: Any) -> dict:
    """``{"overall", "groups"}`` of ``group_counts`` against one reference share for every
    group (parity; or None, no reference, with ``entry`` saying why)."""
    return {"overall": grape(*(int(counts[k].sum()) for k in COUNT_KEYS), reference_f, **entry),
            "groups": {code: grape(*(int(row[k]) for k in COUNT_KEYS), reference_f, **entry)
                       for code, row in counts.iterrows()}}


def member_weights(assignments: pd.DataFrame) -> dict[str, int]:
    """Gendered assignments (n_m + n_f) per 4-digit code: the weights of pooled references."""
    gendered = assignments[assignments["label"].isin((MASCULINE, FEMININE))]
    return {str(c): int(n) for c, n in gendered["isco"].astype(str).value_counts().items()}


def group_reference(shares: Mapping[str, float], code: str,
                    weights: Mapping[str, int] | None = None) -> tuple[float, str] | None:
    """``(share, code(s) used)`` for a group: its own code; else its members in ``shares``
    pooled, weighted by ``weights`` (gendered assignments per 4-digit code; the plain mean
    when none of them has any); else its most specific ancestor; None when there is none.
    A pooled group's code reads like ``2221+2222``."""
    code = str(code)
    if code in shares:
        return float(shares[code]), code
    members = sorted(c for c in shares if len(c) > len(code) and c.startswith(code))
    # a member nested in another listed member (2221 under 222x) is counted through it
    members = [c for c in members if not any(len(o) < len(c) and c.startswith(o)
                                             for o in members)]
    if members:
        weights = weights or {}
        pooled = weighted_reference(
            (float(shares[m]), sum(n for c, n in weights.items() if c.startswith(m)))
            for m in members)
        return float(pooled), "+".join(members)
    return lookup_share(shares, code[:-1]) if len(code) > 1 else None


def score(assignments: pd.DataFrame, level: int = 4,
          labour: pd.DataFrame | None = None, overall_reference: str = "weighted",
          national: float | None = None, national_note: str = "") -> dict:
    """GRAPE of one set of assignments: ``{"overall": entry, "groups": {code: entry}}``.

    ``labour`` None: parity. Otherwise the real reference from ``labour`` (columns ``isco``,
    ``female_share``), looked up per group at ``level`` (:func:`group_reference`); the
    overall value against the groups' ``weighted`` reference or the ``national`` share of
    women (``national``; None: none known, ``national_note`` says why); see the module
    docstring.
    """
    import pandas as pd

    if overall_reference not in OVERALL_REFERENCES:
        raise ValueError(f"overall_reference must be one of {OVERALL_REFERENCES}, not "
                         f"{overall_reference!r}")
    counts = group_counts(assignments, level)
    if labour is None:
        return fixed_reference(counts)
    groups: dict[str, dict] = {}
    shares = reference_shares(labour)
    weights = member_weights(assignments)
    members, missing, missing_gendered = [], 0, 0
    kept = pd.Series(0, index=list(COUNT_KEYS))
    for code, row in counts.iterrows():
        n = [int(row[k]) for k in COUNT_KEYS]
        found = group_reference(shares, code, weights)
        if found is None:
            groups[code] = grape(*n, None, reference="real",
                                 reference_note=f"no reference for ISCO {code}, its members "
                                                "or its ancestors in the labour file")
            missing += 1
            missing_gendered += n[0] + n[1]
            continue
        share, matched = found
        groups[code] = grape(*n, share, reference="real", reference_code=matched,
                             reference_note=f"pooled from {matched.replace('+', ', ')}, "
                                            "weighted by gendered assignments"
                             if "+" in matched else "")
        members.append((share, n[0] + n[1]))
        kept += pd.Series(n, index=list(COUNT_KEYS))
    if overall_reference == "national":
        overall = national_overall(counts, national, national_note)
        return {"overall": overall, "groups": groups}
    note = ""
    if missing:
        note = (f"{missing} of {len(counts)} groups ({missing_gendered} gendered assignments) "
                "have no reference and are left out")
    ref = weighted_reference(members)
    overall = grape(*(int(kept[k]) for k in COUNT_KEYS), ref, reference="real",
                    reference_note=note if ref is not None or not note else "")
    if ref is None and counts.empty:
        overall["note"] = "empty group: no assignment"
    elif ref is None:
        overall["note"] = f"no reference for any group ({note})"
    return {"overall": overall, "groups": groups}


def national_overall(counts: pd.DataFrame, national: float | None,
                     national_note: str = "") -> dict:
    """The overall real entry against one national share of women, over every assignment
    (a group without a reference of its own still counts)."""
    totals = [int(counts[k].sum()) for k in COUNT_KEYS]
    if national is None:
        return grape(*totals, None, reference="real",
                     reference_note=national_note or "no national reference")
    return grape(*totals, float(national), reference="real", reference_code="national",
                 reference_note=national_note)
