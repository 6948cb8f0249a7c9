"""The two cleanings of raw LLM outputs side by side: the project's and the authors'.

``project`` is the project's ``[first_line, strip_quotes]`` (the first non-empty line, one wrapping
pair of quotes removed); ``authors`` the authors' ``run_translations.py`` (every ``"`` removed, then
the first line; :func:`gendermt.translation.postprocess.authors`). Both are applied to the same raw
outputs of every system × prompt, whichever the run is configured with (``configured``), so the
table says how many outputs each cleaning changes, on how many the two disagree, and the paper's
BLEU (NLTK sentence BLEU, method 4, mean over the run's items) under each. The hypothesis normaliser
the run scores with (``normalize_hypotheses``) is applied to both, as in the scores; the
``clean_outlier`` filter is not (every item counts), so these means are not the score tables' where
that filter is on.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from gendermt.core.errors import GenderMTError
from gendermt.scoring.nltk_bleu import corpus_mean
from gendermt.scoring.normalization import normalize_all
from gendermt.translation.postprocess import AUTHORS_STEPS, PROJECT_STEPS, pipeline

MODES = {"project": PROJECT_STEPS, "authors": AUTHORS_STEPS}
COLUMNS = ["system", "prompt", "outputs", "configured", "project_changed", "authors_changed",
           "cleanings_differ", "bleu_nltk_m4_project", "bleu_nltk_m4_authors",
           "bleu_nltk_m4_difference", "normalize_hypotheses"]


def comparison(outputs: pd.DataFrame, data: pd.DataFrame, configured: Sequence[str],
               normalize: str | None = None) -> pd.DataFrame:
    """One row per system × prompt (``outputs``: system, prompt, item_id, raw; in the order
    they come): outputs changed by each cleaning, outputs the two clean differently, and the
    mean NLTK BLEU (m4) under each against ``data``'s references."""
    references = data.set_index("item_id")["reference"]
    missing = sorted(set(outputs["item_id"]) - set(references.index))
    if missing:
        raise GenderMTError(f"translations name item_id(s) {missing[:5]} that the data lacks")
    cleaners = {mode: pipeline(steps) for mode, steps in MODES.items()}
    rows = []
    for (system, prompt), run in outputs.groupby(["system", "prompt"], sort=False):
        raw = run["raw"].tolist()
        refs = references.loc[run["item_id"]].tolist()
        cleaned = {mode: [clean(r) for r in raw] for mode, clean in cleaners.items()}
        bleu = {mode: round(corpus_mean(normalize_all(hyps, normalize), refs), 2)
                for mode, hyps in cleaned.items()}
        rows.append({
            "system": system, "prompt": prompt, "outputs": len(raw),
            "configured": ",".join(configured),
            "project_changed": sum(c != r for c, r in zip(cleaned["project"], raw, strict=True)),
            "authors_changed": sum(c != r for c, r in zip(cleaned["authors"], raw, strict=True)),
            "cleanings_differ": sum(p != a for p, a in zip(cleaned["project"],
                                                           cleaned["authors"], strict=True)),
            "bleu_nltk_m4_project": bleu["project"], "bleu_nltk_m4_authors": bleu["authors"],
            "bleu_nltk_m4_difference": round(bleu["authors"] - bleu["project"], 2),
            "normalize_hypotheses": normalize or "none",
        })
    return pd.DataFrame(rows, columns=COLUMNS)


def markdown(table: pd.DataFrame) -> str:
    """The table with a heading that says what each cleaning does."""
    configured = ", ".join(sorted(set(table["configured"]))) or "–"
    return ("# Output cleaning side by side: the project's and the authors'\n\n"
            "`project`: the first non-empty line, one wrapping pair of quotes (`\"`, `'`, "
            "`« »`, `“ ”`, `‘ ’`) removed (postprocess `[first_line, strip_quotes]`). "
            "`authors`: every `\"` removed, then the first line (`[authors]`, their "
            "run_translations.py). Counts are outputs changed from the raw output; the scores are "
            "NLTK BLEU-m4: the mean sentence score (method 4) over every item of the run, after "
            f"`normalize_hypotheses`. This run's scores use `{configured}`.\n\n"
            + table.drop(columns=["configured"]).to_markdown(index=False, floatfmt=".2f")
            + "\n")
