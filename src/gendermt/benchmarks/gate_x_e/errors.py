"""Table 3: the types of error in rewrites that miss their reference, found automatically.

The paper's Table 3 is a human annotation of Turkish outputs: for each wrong rewrite, whether
a noun or a pronoun was changed where the original and the reference agree (*extraneous*
change) and whether one that should have changed was not (*missing* change). Here the same
types come from diffing, word by word (``english.tokens``), the rewrite against the original
and the original against the reference:

* the original's words inside the stretches where it differs from the reference *should
  change*; the others *should stay*;
* a word that should stay but differs in the rewrite (original → rewrite diff) is an
  extraneous change; a word that should change but is kept, or is changed into another word
  than the reference's ("her" → "his" where "him" is wanted), is a missing change (the
  latter also counted as a *wrong form*, a row of its own);
* each such word is one error, of type noun or pronoun by the word (``english.kind_of``: the
  gendered pronouns and their neutral forms; gendered nouns and titles and their neutral
  forms), or *other* (any other word: "Does she come" → "Does they come" leaves the verb, an
  unrelated edit changes some word). The paper's four types and its "total errors" (the sum
  of those four) are reported; other changes are counted in a row of their own, not mixed in.

Percentages are of the column's total errors, per language × subset (Pronoun-Only,
Gendered-Noun, Negative) × requested output (gendered: feminine and masculine together, as
the paper shows them; neutral), over the tuples whose rewrite does not match.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

import pandas as pd

from gendermt.benchmarks.gate_x_e.english import kind_of, tokens

TYPES = ["extraneous noun change", "extraneous pronoun change", "missing noun change",
         "missing pronoun change"]
OTHER = ["extraneous other change", "missing other change"]
# Of the missing changes: those where the word changed, but not into the reference's.
WRONG_FORM = ["wrong noun form", "wrong pronoun form"]
# Wrong tuples whose answer had no rewrite of the requested gender (nothing to diff).
NO_REWRITE = "no rewrite"
SUBSETS = ["Pronoun-Only", "Gendered-Noun", "Negative"]
REQUESTS = {"gendered": "Gen", "neutral": "Neut"}


Opcodes = list[tuple[str, int, int, int, int]]


def opcodes(a: list[str], b: list[str]) -> Opcodes:
    """The word diff of ``a`` into ``b`` (difflib, no junk heuristic), which the three
    readings below share: :func:`error_words` diffs each pair once, not once a reading."""
    return SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()


def changed_positions(ops: Opcodes) -> set[int]:
    """Indices of ``a``'s words that lie in a stretch where ``b`` differs (replaced or
    deleted), from ``opcodes(a, b)``. An insertion changes no word of ``a``:
    :func:`inserted` lists those."""
    out: set[int] = set()
    for tag, i1, i2, _, _ in ops:
        if tag in ("replace", "delete"):
            out.update(range(i1, i2))
    return out


def word_map(ops: Opcodes, b: list[str]) -> dict[int, str]:
    """``a``'s word index → the word ``b`` has in its place, where the diff ``opcodes(a, b)``
    pairs them one to one (equal stretches, and replaced stretches of equal length)."""
    out: dict[int, str] = {}
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            out.update(zip(range(i1, i2), b[j1:j2], strict=True))
    return out


def inserted(ops: Opcodes, b: list[str]) -> list[str]:
    """The words ``b`` inserts where ``a`` has none (``ops``: ``opcodes(a, b)``)."""
    return [w for tag, _, _, j1, j2 in ops if tag == "insert" for w in b[j1:j2]]


def error_words(original: str, reference: str, rewrite: str) -> Counter:
    """Errors of one wrong rewrite, by type (``TYPES`` and ``OTHER``). Punctuation is not a
    word here: a comma added or dropped is a difference but not an error of these types."""
    o, r, w = tokens(original), tokens(reference), tokens(rewrite)
    ops_r, ops_w = opcodes(o, r), opcodes(o, w)
    should, did = changed_positions(ops_r), changed_positions(ops_w)
    to_r, to_w = word_map(ops_r, r), word_map(ops_w, w)
    out: Counter = Counter()
    for i, word in enumerate(o):
        if not any(c.isalnum() for c in word):
            continue
        kind = kind_of(word)
        if i in did and i not in should:
            out[f"extraneous {kind} change"] += 1
        elif i in should and i not in did:
            out[f"missing {kind} change"] += 1
        elif i in should and i in to_r and i in to_w and to_r[i] != to_w[i]:
            # changed, but not into the reference's word ("her" → "his" where "him" is
            # wanted): the right change is missing, as the paper's annotation counts it
            out[f"missing {kind} change"] += 1
            out[f"wrong {kind} form"] += 1
    # words the rewrite adds that the reference does not (reference insertions are fine)
    wanted = Counter(inserted(ops_r, r))
    for word in inserted(ops_w, w):
        if not any(c.isalnum() for c in word):
            continue
        if wanted[word]:
            wanted[word] -= 1
            continue
        out[f"extraneous {kind_of(word)} change"] += 1
    return out


def error_rows(scored: pd.DataFrame) -> pd.DataFrame:
    """Per wrong tuple (``match`` False) of one run: its language, subset, request
    (gendered / neutral) and error counts by type."""
    wrong = scored[~scored["match"].astype(bool)]
    rows = []
    for t in wrong.itertuples(index=False):
        rewrite = "" if pd.isna(t.rewrite) else str(t.rewrite).strip()
        counts = error_words(t.original, t.reference, rewrite) if rewrite else Counter()
        rows.append({"tuple_id": t.tuple_id, "language": t.language, "subset": t.category,
                     "request": "neutral" if t.requested_gender == "neutral" else "gendered",
                     **{k: int(counts.get(k, 0)) for k in TYPES + WRONG_FORM + OTHER},
                     NO_REWRITE: int(not rewrite)})
    return pd.DataFrame(rows, columns=["tuple_id", "language", "subset", "request",
                                       *TYPES, *WRONG_FORM, *OTHER, NO_REWRITE])


def error_table(scored: pd.DataFrame) -> pd.DataFrame:
    """Table 3 (long form) for one run: per language × subset × request × type, ``errors``
    and ``percent`` of the column's total errors (the paper's four types; NaN where the
    column has none), plus the tuples behind it (``wrong_tuples`` of ``tuples``). Negative
    tuples have no missing change by construction (their reference is the original): NaN,
    printed "-" as in the paper."""
    rows = error_rows(scored)
    out = []
    for language in dict.fromkeys(scored["language"]):
        for subset in SUBSETS:
            for request in REQUESTS:
                part_all = scored[(scored["language"] == language)
                                  & (scored["category"] == subset)
                                  & ((scored["requested_gender"] == "neutral")
                                     == (request == "neutral"))]
                part = rows[(rows["language"] == language) & (rows["subset"] == subset)
                            & (rows["request"] == request)]
                total = int(part[TYPES].to_numpy().sum()) if len(part) else 0
                for kind in [*TYPES, "total errors", *WRONG_FORM, *OTHER, NO_REWRITE]:
                    if kind == "total errors":
                        errors: float = total
                    elif subset == "Negative" and kind.startswith(("missing", "wrong")):
                        errors = float("nan")
                    else:
                        errors = int(part[kind].sum()) if len(part) else 0
                    percent = (100.0 * errors / total
                               if kind in TYPES and total and errors == errors else float("nan"))
                    out.append({"language": language, "subset": subset,
                                "request": REQUESTS[request], "error_type": kind,
                                "errors": errors, "percent": percent,
                                "wrong_tuples": int(len(part)), "tuples": int(len(part_all))})
    frame = pd.DataFrame(out)
    frame["errors"] = frame["errors"].astype("Float64").astype("Int64")
    return frame


def table3(long: pd.DataFrame) -> pd.DataFrame:
    """Table 3's layout for one run and language set: rows error type, columns subset ×
    request (percent; the total-errors and other rows in counts)."""
    rows = []
    for (language, kind), part in long.groupby(["language", "error_type"], sort=False):
        row = {"language": language, "error type": kind}
        for t in part.itertuples(index=False):
            value = t.percent if kind in TYPES else t.errors
            row[f"{t.subset} {t.request}" + (" (%)" if kind in TYPES else "")] = value
        rows.append(row)
        if kind == NO_REWRITE:
            rows.append({"language": language, "error type": "wrong tuples",
                         **{f"{t.subset} {t.request}": t.wrong_tuples
                            for t in part.itertuples(index=False)}})
            rows.append({"language": language, "error type": "tuples",
                         **{f"{t.subset} {t.request}": t.tuples
                            for t in part.itertuples(index=False)}})
    frame = pd.DataFrame(rows)
    # one column per subset × request: percent rows and count rows share it
    merged = pd.DataFrame({"language": frame["language"], "error type": frame["error type"]})
    for subset in SUBSETS:
        for request in REQUESTS.values():
            pct, cnt = f"{subset} {request} (%)", f"{subset} {request}"
            a = frame[pct] if pct in frame else pd.Series(float("nan"), index=frame.index)
            b = frame[cnt] if cnt in frame else pd.Series(float("nan"), index=frame.index)
            merged[f"{subset} {request}"] = a.where(a.notna(), b)
    return merged


def _cell(value, kind: str) -> str:
    if value is None or pd.isna(value):
        return "-"
    return f"{float(value):.1f}" if kind in TYPES else str(int(value))


def build_errors(runs: list[dict], csv_out: str, md_out: str) -> None:
    """Workflow stage: every run's rewrites (``{system, prompt, path}`` records of
    ``rewrites/{system}/{prompt}.parquet``) →
    ``tables/errors.csv`` (long form, all runs) and ``errors.md`` (Table 3's layout per run
    and language; "-" where a cell is undefined)."""
    from gendermt.data.io import csv_text, write_text

    parts, sections = [], []
    for run in runs:
        system, prompt = run["system"], run["prompt"]
        long = error_table(pd.read_parquet(run["path"]))
        parts.append(long.assign(system=system, prompt=prompt))
        wide = table3(long)
        for language, table in wide.groupby("language", sort=False):
            shown = table.drop(columns="language").copy()
            for column in shown.columns[1:]:
                shown[column] = [_cell(v, k) for v, k in
                                 zip(shown[column], shown["error type"], strict=True)]
            sections.append(f"## {system} · {prompt} · {language}\n\n"
                            + shown.to_markdown(index=False, disable_numparse=True) + "\n")
    frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    if len(frame):
        frame = frame[["system", "prompt", *[c for c in frame.columns
                                             if c not in ("system", "prompt")]]]
    write_text(csv_out, csv_text(frame))
    write_text(md_out, "# Error types of rewrites that miss their reference (GATE X-E "
               "Table 3, found by diffing)\n\nRows: the paper's four types in % of the "
               "column's total errors (their sum); other changes (words that are neither "
               "nouns nor pronouns of gender), wrong tuples with no rewrite of the "
               "requested gender, the wrong tuples and all tuples in counts. Gen: feminine "
               "and masculine requests together; "
               "'-': undefined (Negative tuples cannot miss a change; no error).\n\n"
               + "\n".join(sections))
