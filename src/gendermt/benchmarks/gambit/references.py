"""Reference distributions for GRAPE: real labour statistics and stereotype ratings.

Labour CSV (one file per country; comma-separated, UTF-8, a header row):

* ``isco`` (required): an ISCO-08 code of 1-4 digits (``"0110"`` keeps its zero; the paper
  used 3-digit minor groups from EU-LFS microdata);
* ``female_share`` (required): the share of women among the group's employed, 0-1;
* ``country``, ``period``, ``source`` (optional): kept for provenance (``""`` when absent).

A code may appear once. :func:`female_share_for` looks a code up at the most specific level
present: the code itself, then its 3-, 2- and 1-digit ancestors.

Stereotype CSV (comma-separated, UTF-8, a header row): ``occupation`` (a name, once each),
``rating`` (1 = most masculine ... 7 = most feminine, as Shinar 1975), ``isco`` (the 4-digit
unit group the occupation is mapped to); optional ``source``. :func:`stereotype_by_code`
averages the ratings per group and drops groups whose ratings disagree (the paper's variance
filter, variance >= 1.5).

The project ships EXAMPLES of both formats (``resources/gambit/references/``) with invented
numbers: they are not EU-LFS statistics nor Shinar's ratings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.core.errors import DatasetError, MissingResourceError

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    pass

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

LABOUR_COLUMNS = ["isco", "female_share", "country", "period", "source"]
STEREOTYPE_COLUMNS = ["occupation", "rating", "isco", "source"]
RATING_RANGE = (1.0, 7.0)


def _read(path: str | Path, what: str, required: tuple[str, ...]) -> pd.DataFrame:
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(f"{what} file {path} does not exist")
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except pd.errors.EmptyDataError as exc:
        raise DatasetError(path, "the file is empty (no header row)") from exc
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise DatasetError(path, f"not a readable comma-separated file: {exc}") from exc
    frame.columns = [str(c).strip() for c in frame.columns]
    for column in required:
        if column not in frame.columns:
            raise DatasetError(path, f"missing from the header (a {what} file has "
                                     f"{', '.join(required)}; found "
                                     f"{', '.join(frame.columns)})", column=column)
    if frame.empty:
        raise DatasetError(path, "the file has no rows")
    return frame.apply(lambda s: s.str.strip())


def _numbers(frame: pd.DataFrame, column: str, path: Path, low: float, high: float,
             meaning: str) -> list[float]:
    import numpy as np

    values = []
    for n, text in enumerate(frame[column], 1):
        try:
            value = float(text)
        except ValueError:
            raise DatasetError(path, f"{text!r} is not a number", row=n,
                               column=column) from None
        if not np.isfinite(value) or not low <= value <= high:
            raise DatasetError(path, f"{text} is outside [{low:g}, {high:g}] ({meaning})",
                               row=n, column=column)
        values.append(value)
    return values


def _no_duplicates(values: pd.Series, path: Path, column: str, what: str) -> None:
    first: dict[str, int] = {}
    for n, value in enumerate(values, 1):
        if value in first:
            raise DatasetError(path, f"{what} {value!r} appears twice (rows {first[value]} and "
                                     f"{n})", row=n, column=column)
        first[value] = n


def load_labour(path: str | Path) -> pd.DataFrame:
    """A labour file (see the module docstring) as ``isco``, ``female_share``, ``country``,
    ``period``, ``source``, validated: codes of 1-4 digits, shares in [0, 1], no code twice."""
    import pandas as pd

    path = Path(path)
    frame = _read(path, "labour statistics", ("isco", "female_share"))
    for n, code in enumerate(frame["isco"], 1):
        if not re.fullmatch(r"[0-9]{1,4}", code):
            raise DatasetError(path, f"ISCO-08 code {code!r} is not 1-4 digits", row=n,
                               column="isco")
    shares = _numbers(frame, "female_share", path, 0.0, 1.0, "a share of women is 0-1")
    _no_duplicates(frame["isco"], path, "isco", "code")
    out = pd.DataFrame({"isco": frame["isco"], "female_share": shares})
    for column in ("country", "period", "source"):
        out[column] = frame[column] if column in frame.columns else ""
    return out[LABOUR_COLUMNS]


def lookup_share(shares: Mapping[str, float], code: str) -> tuple[float, str] | None:
    """``(share, matched code)`` for the most specific group present among ``code`` and its
    ancestors (4, 3, 2, 1 digits) in ``{code: share}``, or None when none of them is."""
    code = str(code)
    for level in range(len(code), 0, -1):
        if code[:level] in shares:
            return float(shares[code[:level]]), code[:level]
    return None


def female_share_for(labour: pd.DataFrame, code: str) -> tuple[float, str] | None:
    """:func:`lookup_share` in a labour table (columns ``isco``, ``female_share``)."""
    return lookup_share(dict(zip(labour["isco"].astype(str), labour["female_share"],
                                 strict=True)), code)


def load_stereotypes(path: str | Path) -> pd.DataFrame:
    """A stereotype file (see the module docstring) as ``occupation``, ``rating``, ``isco``,
    ``source``, validated: ratings in [1, 7], 4-digit codes, each occupation once."""
    import pandas as pd

    path = Path(path)
    frame = _read(path, "stereotype ratings", ("occupation", "rating", "isco"))
    for n, (name, code) in enumerate(zip(frame["occupation"], frame["isco"], strict=True), 1):
        if not name:
            raise DatasetError(path, "empty occupation", row=n, column="occupation")
        if not re.fullmatch(r"[0-9]{4}", code):
            raise DatasetError(path, f"ISCO-08 code {code!r} is not a 4-digit unit group",
                               row=n, column="isco")
    ratings = _numbers(frame, "rating", path, *RATING_RANGE,
                       "1 = most masculine ... 7 = most feminine")
    _no_duplicates(frame["occupation"], path, "occupation", "occupation")
    out = pd.DataFrame({"occupation": frame["occupation"], "rating": ratings,
                        "isco": frame["isco"]})
    out["source"] = frame["source"] if "source" in frame.columns else ""
    return out[STEREOTYPE_COLUMNS]


def _spread(values: pd.Series, ddof: int) -> float:
    # one value has no spread: 0, not NaN, so that a lone rating passes the filter
    return float(values.var(ddof=ddof)) if len(values) > ddof else 0.0


def stereotype_by_code(ratings: pd.DataFrame, level: int, max_variance: float = 1.5,
                       ddof: int = 1) -> pd.DataFrame:
    """Ratings per ISCO-08 group: ``code``, ``rating`` (mean), ``n``, ``variance``, ``kept``.

    Level 4: the mean of the occupations mapped to a unit group; ``n`` occupations, their
    variance (``ddof``; 0 for a single occupation). Level 3: the mean of the group's KEPT
    unit-group ratings, ``n`` such unit groups, the variance among them; minor groups with
    no kept unit group are left out. ``kept`` is False when the variance is >= max_variance
    (the paper's filter, applied at each level). Sorted by code.
    """
    if level not in (3, 4):
        raise ValueError(f"stereotype ratings are aggregated at level 4 or 3, not {level}")
    by_unit = _aggregate(ratings["isco"].astype(str), ratings["rating"].astype(float),
                         max_variance, ddof)
    if level == 4:
        return by_unit
    kept = by_unit[by_unit["kept"]]
    return _aggregate(kept["code"].str[:3], kept["rating"], max_variance, ddof)


def _aggregate(codes: pd.Series, values: pd.Series, max_variance: float,
               ddof: int) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame({"code": codes.to_numpy(), "value": values.to_numpy()})
    rows = []
    for code, group in frame.groupby("code", sort=True):
        variance = _spread(group["value"], ddof)
        rows.append({"code": str(code), "rating": float(group["value"].mean()),
                     "n": int(len(group)), "variance": variance,
                     "kept": bool(variance < max_variance)})
    return pd.DataFrame(rows, columns=["code", "rating", "n", "variance", "kept"])
