"""GAMBIT's tables: every analysis of ``analyses.py`` as CSV + Markdown, and the paper's layouts
(Tables 2, 3, 8, 9) as CSV + Markdown + LaTeX.

Undefined values (see ``grape.py``): an empty cell in the long CSVs, "n/a" in their Markdown
and in the paper layouts, always with the reason in the row's ``note`` (the layouts point to
the long table's notes).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from gendermt.analysis.layout import p_value, write_layout
from gendermt.benchmarks.gambit import analyses
from gendermt.benchmarks.gambit.analyses import Run
from gendermt.benchmarks.gambit.grape import load_assignments, signature
from gendermt.data.io import csv_text, write_text
from gendermt.scoring.output_quality import (
    CLEAN_SHARE_FLOOR,
    LOW_QUALITY,
    mark,
    note,
    share_text,
    with_run_quality,
)
from gendermt.translation.prompts import LANGUAGE_NAMES

log = logging.getLogger(__name__)

NA = "n/a"
# Table name → what it holds (the Markdown title).
TITLES = {
    "grape": "GRAPE overall (Table 2, long form)",
    "grape_groups": "GRAPE per ISCO-08 group",
    "extremes": "Extreme and balanced occupations (Table 8, long form)",
    "stereotype_groups": "GRAPE_m^parity by stereotype group (Table 3, long form)",
    "correlations": "Correlations of GRAPE_f^parity, 3-digit groups (Table 9, long form)",
    "cross_lingual": "Cross-lingual Pearson correlation per model (Table 10)",
    "intra_model_pairs": "Intra-model correlations of per-occupation p_f (Figures 2-3)",
}


def _lang(code: str) -> str:
    return LANGUAGE_NAMES.get(code, code)


def _fmt(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return NA
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def two_decimals(value) -> str:
    """The layouts' number format (the paper prints two decimals); "n/a" when undefined."""
    return _fmt(value, 2)


def count(value) -> str:
    return NA if value is None or (isinstance(value, float) and math.isnan(value)) \
        else str(int(value))


def write_long(frame: pd.DataFrame, outdir: Path, name: str, note: str = "") -> dict[str, Path]:
    """``name.csv`` (floats at gendermt.data.io.TABLE_DIGITS significant digits, undefined = empty
    cell) and ``name.md`` ("n/a"; a run's clean share as ``clean``, its model marked
    "(low quality)" below the floor)."""
    csv, md = outdir / f"{name}.csv", outdir / f"{name}.md"
    write_text(csv, csv_text(frame))
    # the metric's signature is in the CSV only (too wide to read)
    shown = frame.drop(columns=[c for c in ("signature",) if c in frame.columns])
    if "low_quality" in shown.columns:
        shown["model"] = [mark(str(m), q) for m, q in
                          zip(shown["model"], shown["low_quality"], strict=True)]
        shown["clean"] = shown.pop("clean_share").map(share_text)
        shown = shown.drop(columns="low_quality")
    for column in shown.columns:
        if column == "p_value":
            shown[column] = shown[column].map(lambda v: p_value(v) or NA)
        elif column not in ("note", "clean"):
            shown[column] = shown[column].map(_fmt)
    body = shown.to_markdown(index=False, disable_numparse=True) if not shown.empty \
        else "(no rows)"
    head = f"# {TITLES.get(name, name)}\n\n" + (f"{note}\n\n" if note else "")
    write_text(md, head + body + "\n")
    return {f"{name}_csv": csv, f"{name}_md": md}


def _layout(frame: pd.DataFrame, labels: int, outdir: Path, name: str, title: str, note: str,
            fmt=two_decimals) -> dict[str, Path]:
    paths = {ext: outdir / f"{name}.{ext}" for ext in ("csv", "md", "tex")}
    write_layout(frame, labels, paths, title, note, fmt=fmt)
    return {f"{name}_{ext}": path for ext, path in paths.items()}


def _wide(frame: pd.DataFrame, index: list[str], column_keys: list[tuple], value: str,
          key_columns: list[str], rename=None) -> pd.DataFrame:
    """Rows per ``index`` (in first-appearance order), one column per ``column_keys`` entry
    (a tuple of the ``key_columns`` values) holding ``value``; absent cells are NaN."""
    rows = []
    for keys, part in frame.groupby(index, sort=False):
        keys = keys if isinstance(keys, tuple) else (keys,)
        row = dict(zip(index, keys, strict=True))
        for ck in column_keys:
            mask = pd.Series(True, index=part.index)
            for col, val in zip(key_columns, ck, strict=True):
                mask &= part[col] == val
            hit = part.loc[mask, value]
            row[rename(ck) if rename else ck] = hit.iloc[0] if len(hit) else math.nan
        rows.append(row)
    columns = [*index, *(rename(ck) if rename else ck for ck in column_keys)]
    return pd.DataFrame(rows, columns=columns)


def _low_quality_labels(overall: pd.DataFrame) -> dict[str, str]:
    """Model → its layout label, "(low quality: French)" added for the languages whose run
    is below the clean-share floor (the layouts' rows are models, their columns languages)."""
    if "low_quality" not in overall.columns:
        return {}
    low = overall[overall["low_quality"].astype(bool)]
    langs = {m: list(dict.fromkeys(_lang(str(x)) for x in part["lang"]))
             for m, part in low.groupby("model", sort=False)}
    return {m: f"{m} {LOW_QUALITY[:-1]}: {', '.join(ls)})" for m, ls in langs.items()}


def paper_layouts(tables: Mapping[str, pd.DataFrame], outdir: Path,
                  floor: float = CLEAN_SHARE_FLOOR) -> dict[str, Path]:
    """Tables 2, 8, 3 and 9 in the paper's layout (rows: models; columns: language groups);
    a model whose run of a language is below the clean-share floor is marked."""
    out: dict[str, Path] = {}
    overall = tables["grape"]
    labels = _low_quality_labels(overall)
    quality = f" {note(floor)}" if labels else ""

    def layout(frame: pd.DataFrame, n: int, name: str, title: str, text: str,
               fmt=two_decimals) -> dict[str, Path]:
        frame = frame.assign(MT=frame["MT"].map(lambda m: labels.get(m, m)))
        return _layout(frame, n, outdir, name, title, text + quality, fmt=fmt)

    langs = list(dict.fromkeys(overall["lang"]))
    refs = ["parity", "real"]
    keys = [(ref, lang, g) for ref in refs for lang in langs for g in ("m", "f")]
    long = overall.melt(id_vars=["model", "level", "reference", "lang"],
                        value_vars=["grape_m", "grape_f"], var_name="g", value_name="v")
    long["g"] = long["g"].str[-1]
    wide = _wide(long, ["level", "model"], keys, "v", ["reference", "lang", "g"],
                 rename=lambda k: (f"ref={k[0]}, {_lang(k[1])}", k[2]))
    wide = wide.rename(columns={"level": "ISCO level", "model": "MT"})
    out |= layout(wide, 2, "grape_paper", "GRAPE on the whole dataset (Table 2)",
                   "Not Clear left out of p; real = labour reference (national share or "
                   "weighted by gendered assignments: grape.csv's note says which); "
                   f"{NA}: see the note in grape.csv.")

    extremes = tables["extremes"]
    keys = [(lang, kind) for lang in langs for kind in ("n_extreme", "n_balanced")]
    long = extremes.melt(id_vars=["model", "lang"], value_vars=["n_extreme", "n_balanced"],
                         var_name="kind", value_name="v")
    wide = _wide(long, ["model"], keys, "v", ["lang", "kind"],
                 rename=lambda k: (_lang(k[0]), "Extreme" if k[1] == "n_extreme"
                                   else "Moderate"))
    out |= layout(wide.rename(columns={"model": "MT"}), 1, "extremes_paper",
                   "ISCO occupations with extreme or balanced gender assignments (Table 8)",
                   "4-digit occupations; extreme: p_f < 20% or > 80%, balanced: 30-70%, among "
                   "gendered assignments; see extremes.csv for the occupations not counted.",
                   fmt=count)

    stereo = tables["stereotype_groups"]
    groups = list(dict.fromkeys(stereo["group"]))
    keys = [(group, lang) for group in groups for lang in langs]
    wide = _wide(stereo, ["model"], keys, "grape_m", ["group", "lang"],
                 rename=lambda k: (k[0], _lang(k[1])))
    out |= layout(wide.rename(columns={"model": "MT"}), 1,
                  "stereotype_groups_paper",
                   "GRAPE_m^parity for stereotypically masculine, neutral and feminine "
                   "occupations (Table 3)",
                   f"{NA}: empty group or no rating; see stereotype_groups.csv.")

    corr = tables["correlations"]
    keys = [(target, lang) for target in ("real", "stereotype") for lang in langs]
    wide = _wide(corr, ["model"], keys, "r", ["target", "lang"],
                 rename=lambda k: (k[0].capitalize(), _lang(k[1])))
    out |= layout(wide.rename(columns={"model": "MT"}), 1, "correlations_paper",
                   "Correlations between model outputs, real data and stereotype ratings "
                   "(Table 9)",
                   "Pearson's r of GRAPE_f^parity per 3-digit ISCO group; CIs, p and notes in "
                   "correlations.csv.")
    return out


def write_frames(runs: Sequence[Run], titles: Mapping[str, str],
                 labour: Mapping[str, pd.DataFrame | None], stereotype4: pd.DataFrame | None,
                 stereotype3: pd.DataFrame | None, settings: Mapping,
                 outdir: str | Path, checks: pd.DataFrame | str | Path | None = None,
                 floor: float = CLEAN_SHARE_FLOOR, detector: str | None = None
                 ) -> dict[str, Path]:
    """Every table from loaded frames (see ``build_tables``); returns name → path.
    ``checks``: the benchmark's output_checks.csv (runs named by language): the tables of
    one row per system and language carry its run's clean share and low-quality mark.
    The GRAPE tables carry GRAPE's signature (``detector``: whose assignments)."""
    settings = {**analyses.DEFAULT_SETTINGS, **settings}
    outdir = Path(outdir)
    minimum = int(settings["min_assignments"])
    overall, groups = analyses.grape_tables(runs, labour, settings["levels"], titles,
                                            settings["overall_reference"],
                                            settings["national_reference"])
    tables = {
        "grape": overall, "grape_groups": groups,
        "extremes": analyses.extremes_table(runs, settings["extreme"], settings["balanced"],
                                            minimum),
        "stereotype_groups": analyses.stereotype_table(runs, stereotype4,
                                                       settings["stereotype_groups"]),
        "correlations": analyses.correlation_table(runs, stereotype3, labour),
        "cross_lingual": analyses.cross_lingual_table(runs, minimum),
        "intra_model_pairs": analyses.intra_model_pairs(runs, minimum),
    }
    # GRAPE's signature after its figures, before the run's quality (the last columns)
    grape_signature = signature(settings["overall_reference"], settings["national_reference"],
                                detector)
    for name in ("grape", "grape_groups"):
        tables[name] = tables[name].assign(signature=grape_signature)
    for name in ("grape", "grape_groups", "extremes", "stereotype_groups", "correlations"):
        tables[name] = with_run_quality(tables[name], checks, floor, ("system", "lang"))
    ranges = ", ".join(f"{k} {analyses.rating_range(v)}"
                       for k, v in settings["stereotype_groups"].items())
    notes = {
        "grape": "p excludes Not Clear; reference_f is the reference share of women (parity "
                 "0.5; real: labour share of each group's code, or its members pooled; "
                 + ("overall: one national share per country, "
                    if settings["overall_reference"] == "national" else
                    "overall: the groups' shares weighted by gendered assignments, ")
                 + f"overall_reference: {settings['overall_reference']}). Empty cell in the "
                 f"CSV / {NA} here: see note.",
        "extremes": f"Settings: extreme {settings['extreme']}, balanced "
                    f"{settings['balanced']}, min_assignments {minimum}.",
        "stereotype_groups": f"Groups by mean rating (1 = most masculine): {ranges}; codes "
                             "whose ratings vary by ≥ "
                             f"{settings['stereotype_max_variance']} (variance) dropped.",
    }
    if checks is not None:
        notes = {name: " ".join(t for t in (notes.get(name, ""), note(floor)) if t)
                 for name in tables if "low_quality" in tables[name].columns} | {
            name: text for name, text in notes.items() if name not in tables}
    out: dict[str, Path] = {}
    for name, frame in tables.items():
        out |= write_long(frame, outdir, name, notes.get(name, ""))
    pairs = tables["intra_model_pairs"]
    for lang in dict.fromkeys(r.lang for r in runs):
        matrix = analyses.intra_model_matrix(pairs, lang).reset_index()
        out |= write_long(matrix, outdir, f"intra_model_{lang}",
                          f"Pearson's r of per-occupation p_f between models, "
                          f"{_lang(lang)}; n and CIs in intra_model_pairs.csv.")
    out |= paper_layouts(tables, outdir, floor)
    log.info("GAMBIT tables: %d runs → %d files in %s", len(runs), len(out), outdir)
    return out


def load_runs(runs: Sequence[Mapping]) -> list[Run]:
    """``[{"model", "system", "lang", "assignments": CSV path}]`` → runs with their
    assignments loaded (and validated)."""
    return [Run(str(r["model"]), str(r["system"]), str(r["lang"]),
                load_assignments(r["assignments"])) for r in runs]


def load_titles(isco: str | Path | None) -> dict[str, str]:
    """ISCO code → title from ``isco.parquet`` (columns code, title); {} without one."""
    if isco is None:
        return {}
    frame = pd.read_parquet(isco, columns=["code", "title"])
    return dict(zip(frame["code"].astype(str), frame["title"].astype(str), strict=True))


def build_tables(runs: Sequence[Mapping], isco: str | Path | None,
                 labour: Mapping[str, str | Path], stereotype: str | Path | None,
                 settings: Mapping, outdir: str | Path, checks: str | Path | None = None,
                 floor: float = CLEAN_SHARE_FLOOR, detector: str | None = None
                 ) -> dict[str, Path]:
    """Workflow stage: every run's assignments → ``outdir``'s tables.

    ``runs``: ``[{"model": label, "system": name, "lang": code, "assignments": CSV}]``;
    ``isco``: isco.parquet (titles); ``labour``: language → labour CSV (a language without
    one gets real rows with a note); ``stereotype``: the stereotype CSV or None; ``settings``:
    levels, extreme, balanced, stereotype_groups, stereotype_max_variance, min_assignments
    (``analyses.DEFAULT_SETTINGS`` fills what is missing); ``checks``/``floor``: see
    :func:`write_frames`; ``detector``: the detector whose assignments ``runs`` are (in the
    GRAPE tables' signature). Returns name → path written.
    """
    from gendermt.benchmarks.gambit.references import (
        load_labour,
        load_stereotypes,
        stereotype_by_code,
    )

    settings = {**analyses.DEFAULT_SETTINGS, **settings}
    frames = {lang: load_labour(path) for lang, path in labour.items() if path}
    stereotype4 = stereotype3 = None
    if stereotype:
        ratings = load_stereotypes(stereotype)
        variance = float(settings["stereotype_max_variance"])
        stereotype4 = stereotype_by_code(ratings, 4, max_variance=variance)
        stereotype3 = stereotype_by_code(ratings, 3, max_variance=variance)
    return write_frames(load_runs(runs), load_titles(isco), frames, stereotype4, stereotype3,
                        settings, outdir, checks, floor, detector)
