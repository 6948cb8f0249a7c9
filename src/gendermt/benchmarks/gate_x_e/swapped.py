"""Instances whose ``female translation`` and ``male translation`` are swapped or mixed.

GATE X-E's feminine column should hold the all-feminine rewrite and the masculine column the
all-masculine one. In a few published instances they are the other way round (``tr-0186``:
female "… for him …", male "… for her …") or each mixes both genders (``tr-0060``: female
"She's got a Turkish boyfriend", male "He's got a Turkish girlfriend"). Their test tuples then
reward a rewriter for the wrong gender.

The detector compares the two columns word by word (the stretches where they differ, aligned
one word to one word) and reads the gender of each differing word (``english.gender_of``):
a pair whose female-column word is masculine and whose male-column word is feminine is
*reversed*, the other way round *right*. An instance with reversed pairs only is ``swapped``;
with both, ``mixed``. Words that do not differ (a non-AGME's "his" in both columns) and pairs
of unequal length are not read: the detector finds no more than it can show.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from gendermt.benchmarks.gate_x_e.english import gender_of, tokens

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

COLUMNS = ["instance_id", "language", "row", "kind", "reversed", "right", "female",
           "male", "excluded"]


def read_pairs(female: str, male: str) -> tuple[list[str], list[str]]:
    """(reversed, right) differing word pairs of one instance, as ``f-word/m-word``."""
    f_words, m_words = tokens(female), tokens(male)
    reversed_, right = [], []
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=f_words, b=m_words,
                                               autojunk=False).get_opcodes():
        if tag != "replace" or i2 - i1 != j2 - j1:
            continue
        for a, b in zip(f_words[i1:i2], m_words[j1:j2], strict=True):
            ga, gb = gender_of(a), gender_of(b)
            if (ga, gb) == ("masculine", "feminine"):
                reversed_.append(f"{a}/{b}")
            elif (ga, gb) == ("feminine", "masculine"):
                right.append(f"{a}/{b}")
    return reversed_, right


def kind_of(female: str, male: str) -> str | None:
    """``swapped``, ``mixed`` or None (the columns look right, or cannot be read)."""
    reversed_, right = read_pairs(female, male)
    if not reversed_:
        return None
    return "mixed" if right else "swapped"


def flag(instances: pd.DataFrame) -> pd.DataFrame:
    """The instances (as ``data.load_instances`` reads them) whose f and m columns are swapped
    or mixed: ``COLUMNS`` (``excluded`` False; the caller sets it)."""
    import pandas as pd

    rows = []
    for inst in instances.itertuples(index=False):
        if not inst.female or not inst.male:
            continue
        reversed_, right = read_pairs(inst.female, inst.male)
        if reversed_:
            rows.append({"instance_id": inst.instance_id, "language": inst.language,
                         "row": int(inst.row), "kind": "mixed" if right else "swapped",
                         "reversed": " ".join(reversed_), "right": " ".join(right),
                         "female": inst.female, "male": inst.male, "excluded": False})
    return pd.DataFrame(rows, columns=COLUMNS)
