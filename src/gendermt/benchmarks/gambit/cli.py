"""``gendermt score grape``: GRAPE of detected gender assignments, without the workflow."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.benchmarks.gambit.analyses import national_share
from gendermt.benchmarks.gambit.grape import (
    ENTRY_KEYS,
    OVERALL_REFERENCES,
    load_assignments,
    score,
    signature,
)
from gendermt.benchmarks.gambit.references import load_labour
from gendermt.core.errors import DatasetError, GenderMTError
from gendermt.data.json_output import print_json

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    pass


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    p = score_commands.add_parser(
        "grape", help="GRAPE of gender assignments (GAMBIT, Mastromichalakis et al. 2025)",
        description="GRAPE_m and GRAPE_f (Definition 1 of the paper) of detected gender "
                    "assignments, overall and per ISCO-08 group, against parity or a labour "
                    "file's share of women. Not Clear assignments are counted but left out of "
                    "p_m and p_f. Values that cannot be computed are null, with a note.",
        epilog="JSON: {\"overall\": ENTRY, \"groups\": {CODE: ENTRY}, \"signature\": "
               "GRAPE's name, version and options}; ENTRY keys: "
               + ", ".join(ENTRY_KEYS) + ". reference is parity or real, reference_f the "
               "reference share of women, reference_code the labour code matched (real, "
               "groups only; 'A+B' when a group's members were pooled, 'national' for the "
               "overall national reference). --overall-reference weighted (default): the "
               "overall real reference is the groups' shares weighted by their gendered "
               "assignments, groups without one left out; national: one share of women for "
               "the country (--national-share, or --lang fr|el for the paper's constants "
               "0.490, 0.428), over every assignment.")
    p.add_argument("--assignments", required=True,
                   help="CSV, one row per text × occupation: text_id, isco (4 digits), label "
                        "(Masculine | Feminine | Not Clear)")
    p.add_argument("--reference", required=True, metavar="parity|LABOUR.csv",
                   help="'parity' (0.5), or a labour CSV with isco (1-4 digits) and "
                        "female_share (0-1); each group takes the share of its most specific "
                        "code present among the code and its ancestors")
    p.add_argument("--level", type=int, choices=(4, 3), default=4,
                   help="ISCO-08 level of the groups (default 4)")
    p.add_argument("--overall-reference", choices=OVERALL_REFERENCES, default="weighted",
                   help="the overall value's real reference (default weighted; the workflow's "
                        "default, national, is what the paper's Table 2 implies)")
    p.add_argument("--national-share", type=float, metavar="F",
                   help="the national share of women (0-1) for --overall-reference national")
    p.add_argument("--lang", help="target language, for the paper's national share (fr, el)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _entry(entry: dict) -> dict:
    return {k: entry[k] for k in ENTRY_KEYS}


def _show(value) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def render(result: dict, level: int) -> str:
    """The result as a readable table: the overall row first, then one row per group."""
    import pandas as pd

    rows = [{"group": "overall", **result["overall"]}]
    rows += [{"group": code, **entry} for code, entry in result["groups"].items()]
    shown = pd.DataFrame([{k: _show(v) if k != "note" else v for k, v in row.items()
                           if k not in ("reference", "reference_code")} for row in rows])
    reference = result["overall"]["reference"]
    return (f"GRAPE, reference {reference}, ISCO-08 level {level} (n/a: see note)\n"
            + shown.to_markdown(index=False, disable_numparse=True))


def run(args: argparse.Namespace) -> int:
    assignments = load_assignments(args.assignments)
    if args.reference != "parity" and not Path(args.reference).is_file():
        raise DatasetError(args.reference, "no such file (give 'parity' or a labour CSV)")
    labour = None if args.reference == "parity" else load_labour(args.reference)
    share, note = None, ""
    if args.overall_reference == "national":
        if labour is None:
            raise GenderMTError("--overall-reference national needs a labour file as "
                                "--reference (the groups' references)")
        if args.national_share is not None:
            if not 0.0 <= args.national_share <= 1.0:
                raise GenderMTError(f"--national-share {args.national_share} is not in [0, 1]")
            share, note = args.national_share, f"national reference {args.national_share:.3f}"
        elif args.lang:
            share, note = national_share(args.lang)
            if share is None:
                raise GenderMTError(f"{note}: give --national-share")
        else:
            raise GenderMTError("--overall-reference national needs --national-share or "
                                "--lang (fr, el: the paper's constants)")
    result = score(assignments, args.level, labour, args.overall_reference, share, note)
    result = {"overall": _entry(result["overall"]),
              "groups": {code: _entry(e) for code, e in result["groups"].items()},
              "signature": signature(args.overall_reference,
                                     share if args.national_share is not None else None)}
    if args.json:
        # allow_nan=False: a NaN that slipped through is a bug, not an output
        print_json(result, getattr(args, "precision", None))
    else:
        print(render(result, args.level))
    return 0
