"""``gendermt score grape``: GRAPE of detected gender assignments, without the workflow."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pandas as pd

from gendermt.errors import DatasetError

from .grape import ENTRY_KEYS, load_assignments, score

LABOUR_COLUMNS = ("isco", "female_share")


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    p = score_commands.add_parser(
        "grape", help="GRAPE of gender assignments (GAMBIT, Mastromichalakis et al. 2025)",
        description="GRAPE_m and GRAPE_f (Definition 1 of the paper) of detected gender "
                    "assignments, overall and per ISCO-08 group, against parity or a labour "
                    "file's share of women. Not Clear assignments are counted but left out of "
                    "p_m and p_f. Values that cannot be computed are null, with a note.",
        epilog="JSON: {\"overall\": ENTRY, \"groups\": {CODE: ENTRY}}; ENTRY keys: "
               + ", ".join(ENTRY_KEYS) + ". reference is parity or real, reference_f the "
               "reference share of women, reference_code the labour code matched (real, "
               "groups only). The overall real reference is the groups' shares weighted by "
               "their gendered assignments; groups without one are left out of it.")
    p.add_argument("--assignments", required=True,
                   help="CSV, one row per text × occupation: text_id, isco (4 digits), label "
                        "(Masculine | Feminine | Not Clear)")
    p.add_argument("--reference", required=True, metavar="parity|LABOUR.csv",
                   help="'parity' (0.5), or a labour CSV with isco (1-4 digits) and "
                        "female_share (0-1); each group takes the share of its most specific "
                        "code present among the code and its ancestors")
    p.add_argument("--level", type=int, choices=(4, 3), default=4,
                   help="ISCO-08 level of the groups (default 4)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def read_labour(path: str | Path) -> pd.DataFrame:
    """A labour file: CSV with ``isco`` (1-4 digits) and ``female_share`` (0-1), other columns
    (country, period, source) kept. Errors name the file, row and column."""
    path = Path(path)
    if not path.is_file():
        raise DatasetError(path, "no such file (give 'parity' or a labour CSV)")
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise DatasetError(path, "empty file: expected a header with isco, female_share"
                           ) from None
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise DatasetError(path, f"not a readable CSV file ({exc})") from None
    for column in LABOUR_COLUMNS:
        if column not in frame.columns:
            raise DatasetError(path, "missing column", column=column)
    frame["isco"] = frame["isco"].str.strip()
    shares = []
    for row, (code, text) in enumerate(zip(frame["isco"], frame["female_share"],
                                           strict=True), 1):
        if not (code.isdigit() and 1 <= len(code) <= 4):
            raise DatasetError(path, f"{code!r} is not an ISCO-08 code of 1 to 4 digits",
                               row=row, column="isco")
        try:
            share = float(text)
        except ValueError:
            share = math.nan
        if not 0.0 <= share <= 1.0:  # also NaN
            raise DatasetError(path, f"{text!r} is not a share between 0 and 1", row=row,
                               column="female_share")
        shares.append(share)
    frame["female_share"] = shares
    duplicated = frame["isco"].duplicated(keep=False)
    if duplicated.any():
        rows = [i + 1 for i in duplicated.to_numpy().nonzero()[0]]
        raise DatasetError(path, f"code {frame['isco'][duplicated].iloc[0]} appears more than "
                                 f"once (rows {', '.join(map(str, rows))})", row=rows[1],
                           column="isco")
    return frame


def _entry(entry: dict) -> dict:
    return {k: entry[k] for k in ENTRY_KEYS}


def _show(value) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def render(result: dict, level: int) -> str:
    """The result as a readable table: the overall row first, then one row per group."""
    rows = [{"group": "overall", **result["overall"]}]
    rows += [{"group": code, **entry} for code, entry in result["groups"].items()]
    shown = pd.DataFrame([{k: _show(v) if k != "note" else v for k, v in row.items()
                           if k not in ("reference", "reference_code")} for row in rows])
    reference = result["overall"]["reference"]
    return (f"GRAPE, reference {reference}, ISCO-08 level {level} (n/a: see note)\n"
            + shown.to_markdown(index=False, disable_numparse=True))


def run(args: argparse.Namespace) -> int:
    assignments = load_assignments(args.assignments)
    labour = None if args.reference == "parity" else read_labour(args.reference)
    result = score(assignments, args.level, labour)
    result = {"overall": _entry(result["overall"]),
              "groups": {code: _entry(e) for code, e in result["groups"].items()}}
    if args.json:
        # allow_nan=False: a NaN that slipped through is a bug, not an output
        print(json.dumps(result, indent=2, allow_nan=False))
    else:
        print(render(result, args.level))
    return 0
