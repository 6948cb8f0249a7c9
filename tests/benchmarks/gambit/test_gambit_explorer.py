"""GAMBIT's explorer (gendermt.benchmarks.gambit.explorer): every text with each system's
translation per language and the gender the detector assigned its occupation, on translation
files and assignment tables in the workflow's formats (no gold: no verdicts)."""

import pandas as pd

from gendermt.benchmarks.gambit.explorer import read
from gendermt.data.io import write_jsonl

from ...explorer_support import listed, page_rows

DATA = pd.DataFrame({
    "item_id": ["gambit-00000", "gambit-00001"],
    "source": ["The nurse arrived early.", "A nurse was slightly injured."],
    "src_lang": "en", "tgt_lang": "", "text_type": ["short story", "brief news report"],
    "isco": ["2221", "2221"], "isco_title": "Nursing Professionals"})
OUTPUTS = {
    "masculine-default": (["L'infirmier est arrivé tôt.", "Un infirmier a été blessé."],
                          [("gambit-00000", "Masculine", "infirmier"),
                           ("gambit-00001", "Masculine", "infirmier")]),
    "stereotyped": (["L'infirmière est arrivée tôt.", "Une personne a été blessée."],
                    [("gambit-00000", "Feminine", "infirmière")]),
}


def test_every_text_with_each_translation_and_its_assignment(tmp_path):
    data_path = tmp_path / "data.parquet"
    DATA.to_parquet(data_path)
    runs = []
    for system, (hyps, assigned) in OUTPUTS.items():
        path = tmp_path / f"{system}.jsonl"
        write_jsonl(path, [{"item_id": i, "raw": h, "hypothesis": h}
                           for i, h in zip(DATA["item_id"], hyps, strict=True)])
        csv = tmp_path / f"{system}.csv"
        pd.DataFrame([{"text_id": t, "isco": 2221, "label": label, "title": form,
                       "occurrence": form, "description": None, "match_score": 100.0,
                       "similarity": None, "detector": "lexicon"}
                      for t, label, form in assigned]).to_csv(csv, index=False)
        runs.append({"system": system, "prompt": "fr", "path": str(path),
                     "assignments": str(csv)})
    page, rows = page_rows(read(runs, str(data_path), "lexicon", list(OUTPUTS)), tmp_path)
    listed(page, rows, list(OUTPUTS), ["fr"])
    story, news = rows
    assert story["groups"] == {"text type": "short story",
                               "occupation": "Nursing Professionals"}
    assert story["outputs"]["masculine-default"]["read"] == "Masculine"
    assert story["outputs"]["stereotyped"] == {
        "text": "L'infirmière est arrivée tôt.", "read": "Feminine", "correct": None,
        "evidence": "Feminine: infirmière"}
    assert news["outputs"]["stereotyped"]["read"] == "no occupation found"
    assert "lexicon detector" in page["reading"]
