"""Table 4, the occupation forms and singular "they" in both classifier modes, side by side.

``authors``: the notebook's rules as written (:mod:`.authors`: their normaliser, tokenizer,
``determine_gender``, ``is_inclusive_indic``, pronoun regexes); ``corrected``: the project's
(:mod:`.normalize`, :mod:`.indicators`, :mod:`.occupations`, :mod:`.pronouns`), as in the
other inclusive tables. Each row of ``classifier_modes.csv`` is one cell of one analysis for
one system × prompt, with its count and denominator in each mode and, where the paper gives
the number, the paper's (``paper``, ``paper_of``):

* ``table4`` — inclusive rows whose output has an inclusive indicator (paper: Table 4, out of
  806 rows);
* ``occupation`` — rows of a gold gender (``group``) whose output uses the masculine,
  feminine or inclusive form (``cell``), over the rows where a form was found (paper: the
  notebook's counts behind Fig. 6 and App. E);
* ``they`` — singular-"they" rows (``group``: all, unambiguous, long unambiguous) whose output
  has the pronoun ``cell``: in ``authors`` mode every row that *contains* it (a row can count
  under several pronouns), in ``corrected`` mode the one pronoun that decides its class; the
  paper gives these only as figures. The authors never look for ``iels``; their ``they`` rows
  are those whose English matches ``\\b[Tt]hey\\b``. With ``clean_outlier`` enabled (and
  COMET scores), the ``authors`` counts also take the notebook's COMET filter as it is
  written: its loop over the models narrows one row set model after model, so the *k*-th
  model of ``clean_outlier.systems`` is counted on the rows whose COMET is above the
  threshold for the first *k* models (the last model on the rows every model passes).
  Without it, both modes count every "they" row.

Paper values are matched by system name (:data:`PAPER_SYSTEMS`: the names of
config/study/systems.yaml) and prompt (:data:`PAPER_PROMPTS`).
"""

from __future__ import annotations

import pandas as pd

from gendermt.benchmarks.fairtranslate.pronouns import ECHO, NO_PRONOUN, PRONOUNS, UNTRANSLATED

MODES = ("authors", "corrected")
PAPER_SYSTEMS = {"gemma-2-2b": "Gemma2-2B", "mistral-7b": "Mistral-7B",
                 "llama-3.1-8b": "Llama3.1-8B", "llama-3.3-70b": "Llama3.3-70B"}
PAPER_PROMPTS = ("baseline", "moral", "linguistic", "moral_linguistic")
# Table 4: inclusive rows with an indicator, out of 806, per prompt.
PAPER_TABLE4 = {"Gemma2-2B": (5, 9, 29, 49), "Mistral-7B": (0, 1, 1, 2),
                "Llama3.1-8B": (1, 4, 10, 42), "Llama3.3-70B": (0, 19, 12, 86)}
# The notebook's occupation counts (cell "Predicted Male/Female/Inclusive", Total), ordered by
# prompt and, within each, gold gender male, female, inclusive.
PAPER_OCCUPATION = {
    "Gemma2-2B": {"male": [274, 243, 264, 269, 205, 263, 265, 217, 255, 262, 210, 263],
                  "female": [24, 63, 35, 30, 89, 39, 33, 93, 48, 31, 101, 45],
                  "inclusive": [0, 0, 0, 0, 0, 0, 1, 1, 0, 4, 6, 2],
                  "total": [298, 306, 299, 299, 294, 302, 299, 311, 303, 297, 317, 310]},
    "Mistral-7B": {"male": [322, 264, 311, 312, 300, 311, 320, 309, 317, 301, 301, 300],
                   "female": [30, 88, 36, 28, 30, 26, 14, 15, 15, 17, 17, 20],
                   "inclusive": [0] * 12,
                   "total": [352, 352, 347, 340, 330, 337, 334, 324, 332, 318, 318, 320]},
    "Llama3.1-8B": {"male": [306, 246, 297, 292, 260, 294, 254, 212, 254, 276, 195, 264],
                    "female": [30, 105, 46, 41, 82, 37, 77, 123, 92, 34, 121, 59],
                    "inclusive": [0, 0, 0, 0, 0, 0, 1, 3, 3, 5, 6, 7],
                    "total": [336, 351, 343, 333, 342, 331, 332, 338, 349, 315, 322, 330]},
    "Llama3.3-70B": {"male": [394, 327, 396, 363, 360, 361, 386, 289, 379, 388, 348, 384],
                     "female": [24, 91, 30, 12, 16, 12, 24, 118, 29, 11, 60, 14],
                     "inclusive": [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0],
                     "total": [418, 418, 426, 375, 376, 373, 410, 408, 408, 399, 409, 398]},
}
_FORM_GENDER = {"masculine": "male", "feminine": "female", "inclusive": "inclusive"}
OCCUPATION_GENDERS = ("male", "female", "inclusive")
THEY_GROUPS = ("all", "unambiguous", "long unambiguous")
THEY_CELLS = ("il", "elle", "ils", "elles", "iel", "iels", NO_PRONOUN, UNTRANSLATED, ECHO)
COLUMNS = ["analysis", "system", "prompt", "group", "cell", "authors", "authors_of",
           "corrected", "corrected_of", "paper", "paper_of"]


def _paper_table4(system: str, prompt: str) -> tuple[int | None, int | None]:
    model = PAPER_SYSTEMS.get(system)
    if model is None or prompt not in PAPER_PROMPTS:
        return None, None
    return PAPER_TABLE4[model][PAPER_PROMPTS.index(prompt)], 806


def _paper_occupation(system: str, prompt: str, gold: str, cell: str
                      ) -> tuple[int | None, int | None]:
    model = PAPER_SYSTEMS.get(system)
    if model is None or prompt not in PAPER_PROMPTS:
        return None, None
    i = 3 * PAPER_PROMPTS.index(prompt) + OCCUPATION_GENDERS.index(gold)
    counts = PAPER_OCCUPATION[model]
    return counts[cell][i], counts["total"][i]


def _authors_pronouns(value) -> set[str]:
    return set(value.split("; ")) if isinstance(value, str) and value else set()


def _authors_comet_rows(comet: pd.DataFrame | None, settings: dict | None
                        ) -> dict[tuple[str, str], set[str]] | None:
    """(system, prompt) → the item ids the notebook's cumulative COMET filter leaves for that
    system's "they" counts; None when the filter is off."""
    if comet is None or not settings or not settings.get("enabled"):
        return None
    threshold = 100 * float(settings["threshold"])
    passed = comet[comet["score"] > threshold]
    ok = {(str(s), str(p)): set(part["item_id"])
          for (s, p), part in passed.groupby(["system", "prompt"], sort=False)}
    prompts = {str(p) for p in comet["prompt"]}
    out: dict[tuple[str, str], set[str]] = {}
    for prompt in prompts:
        kept: set[str] | None = None
        for system in settings["systems"]:
            here = ok.get((system, prompt), set())
            kept = here if kept is None else kept & here
            out[(system, prompt)] = kept
    return out


def comparison(items: pd.DataFrame, comet: pd.DataFrame | None = None,
               clean_outlier: dict | None = None) -> pd.DataFrame:
    """Every cell of the three analyses in both modes (see the module doc); ``items`` is the
    per-output frame of :func:`.inclusive_tables.analyse`; ``comet`` (COMET scores) and
    ``clean_outlier`` give the authors' "they" counts their COMET filter."""
    comet_rows = _authors_comet_rows(comet, clean_outlier)
    rows = []
    for (system, prompt), part in items.groupby(["system", "prompt"], observed=True,
                                                sort=True):
        system, prompt = str(system), str(prompt)
        key = {"system": system, "prompt": prompt}
        inclusive = part[part["gender"] == "inclusive"]
        paper, paper_of = _paper_table4(system, prompt)
        rows.append({"analysis": "table4", **key, "group": "inclusive",
                     "cell": "with indicator",
                     "authors": int(inclusive["authors_has_indicator"].sum()),
                     "authors_of": len(inclusive),
                     "corrected": int(inclusive["has_indicator"].sum()),
                     "corrected_of": len(inclusive), "paper": paper, "paper_of": paper_of})
        for gold in OCCUPATION_GENDERS:
            group = part[part["gender"] == gold]
            found_a = group[group["authors_occupation"] != "n/a"]
            found_c = group[group["occupation_form"].notna()]
            corrected = found_c["occupation_form"].map(_FORM_GENDER)
            for cell in OCCUPATION_GENDERS:
                paper, paper_of = _paper_occupation(system, prompt, gold, cell)
                rows.append({"analysis": "occupation", **key, "group": gold, "cell": cell,
                             "authors": int((found_a["authors_occupation"] == cell).sum()),
                             "authors_of": len(found_a),
                             "corrected": int((corrected == cell).sum()),
                             "corrected_of": len(found_c), "paper": paper,
                             "paper_of": paper_of})
        for group_name in THEY_GROUPS:
            chosen = (part if group_name == "all"
                      else part[part["ambiguity"].astype(str) == group_name])
            a_rows = chosen[chosen["authors_they_row"]]
            if comet_rows is not None and (system, prompt) in comet_rows:
                a_rows = a_rows[a_rows["item_id"].isin(comet_rows[(system, prompt)])]
            c_rows = chosen[chosen["they_row"]]
            present = [_authors_pronouns(v) for v in a_rows["authors_they_pronouns"]]
            for cell in THEY_CELLS:
                if cell == NO_PRONOUN:
                    a_count = sum(not p for p in present)
                elif cell in ("iels", UNTRANSLATED, ECHO):
                    a_count = None  # the authors have no such count
                else:
                    a_count = sum(cell in p for p in present)
                rows.append({"analysis": "they", **key, "group": group_name, "cell": cell,
                             "authors": a_count, "authors_of": len(a_rows),
                             "corrected": int((c_rows["they_pronoun"] == cell).sum()),
                             "corrected_of": len(c_rows), "paper": None, "paper_of": None})
    table = pd.DataFrame(rows, columns=COLUMNS)
    for column in ("authors", "authors_of", "corrected", "corrected_of", "paper", "paper_of"):
        table[column] = table[column].astype("Int64")
    return table


def _count(n) -> str:
    return "–" if pd.isna(n) else f"{int(n)}"


def _cell(n, of) -> str:
    if pd.isna(n):
        return "–"
    return f"{int(n)} / {int(of)}" if pd.notna(of) else f"{int(n)}"


def _wide(part: pd.DataFrame, cells: tuple[str, ...], sources: tuple[str, ...]) -> pd.DataFrame:
    """One row per system × prompt × group: per source, the counts of ``cells`` joined by
    " · " and the denominator."""
    rows = []
    for (system, prompt, group), block in part.groupby(["system", "prompt", "group"],
                                                       sort=False):
        block = block.set_index("cell")
        row = {"system": system, "prompt": prompt, "group": group}
        for source in sources:
            row[source] = " · ".join(_count(block.loc[c, source]) for c in cells)
            row[f"{source} of"] = _count(block[f"{source}_of"].iloc[0])
        rows.append(row)
    return pd.DataFrame(rows)


def markdown(table: pd.DataFrame) -> str:
    out = ["# Classifier modes side by side: the authors' rules and the corrected ones\n",
           "`authors`: the notebook's rules as written (their normaliser, tokenizer and "
           "priorities: masculine form first, `Lea` looked for after their normaliser made it "
           "`Le.a`, single-token occupation forms, pronouns counted wherever they occur). "
           "`corrected`: the project's rules, as in the other inclusive tables. `paper`: the "
           "paper's number where it gives one (matched by system name and prompt); – where "
           "there is none.\n"]
    t4 = table[table["analysis"] == "table4"]
    if len(t4):
        shown = t4.assign(**{m: [_cell(n, of) for n, of in zip(t4[m], t4[f"{m}_of"],
                                                                strict=True)]
                             for m in (*MODES, "paper")})
        out += ["\n## Table 4: inclusive rows whose output has an inclusive indicator\n",
                shown[["system", "prompt", *MODES, "paper"]].to_markdown(
                    index=False, disable_numparse=True)]
    occupation = table[table["analysis"] == "occupation"]
    if len(occupation):
        wide = _wide(occupation, OCCUPATION_GENDERS, (*MODES, "paper"))
        out += ["\n## Occupation forms (§7, App. E): masculine · feminine · inclusive form "
                "used, per gold gender (`group`), over the rows where a form was found "
                "(`of`)\n", wide.rename(columns={"group": "gold"}).to_markdown(
                    index=False, disable_numparse=True)]
    they = table[table["analysis"] == "they"]
    if len(they):
        wide = _wide(they, THEY_CELLS, MODES)
        out += ["\n## Singular \"they\" (§8.2, App. F): rows whose output has "
                + " · ".join(THEY_CELLS) + " (authors: every pronoun the output contains, "
                "so a row can count twice, `iels` is not looked for and untranslated outputs are "
                "`none`; corrected: the pronoun that decides the row's class; `none`: no "
                "pronoun; `untranslated`: empty or English outputs; `echo`: the prompt's "
                "instruction echoed)\n",
                wide.rename(columns={"group": "rows"}).to_markdown(
                    index=False, disable_numparse=True)]
    return "\n".join(out) + "\n"


__all__ = ["MODES", "PRONOUNS", "comparison", "markdown"]
