"""FairTranslate's explorer (gendermt.benchmarks.fairtranslate.explorer): every variant of the
sample with each system's output per prompt, the occupation form read from it (checked against
the variant's gender), indicators and sentence scores; on the inclusive-language stage's real
per-output table (inclusive_tables.analyse)."""

import pandas as pd

from gendermt.benchmarks.fairtranslate.explorer import read
from gendermt.benchmarks.fairtranslate.inclusive_tables import analyse

from ...explorer_support import listed, page_rows

SYSTEMS = ["oracle-male", "oracle-inclusive"]
PROMPTS = ["baseline", "moral"]


def test_every_variant_with_each_systems_occupation_form(tmp_path, sample_data):
    data = sample_data.head(6)
    data_path = tmp_path / "data.parquet"
    data.to_parquet(data_path)
    outputs = pd.DataFrame([
        {"system": s, "prompt": p, "item_id": i, "raw": h, "hypothesis": h, "check": "ok"}
        for s, column in zip(SYSTEMS, ["ref_male", "ref_inclusive"], strict=True)
        for p in PROMPTS
        for i, h in zip(data["item_id"], data[column], strict=True)])
    analysed = tmp_path / "outputs.parquet"
    analyse(data, outputs).to_parquet(analysed)
    scores = []
    for p in PROMPTS:
        path = tmp_path / f"oracle-male-{p}.parquet"
        pd.DataFrame({"item_id": data["item_id"], "metric": "bleu", "score": 100.0,
                      "signature": "bleu"}).to_parquet(path)
        scores.append({"system": "oracle-male", "prompt": p, "path": str(path)})

    page, rows = page_rows(read(str(analysed), str(data_path), scores, SYSTEMS, PROMPTS),
                           tmp_path)
    listed(page, rows, SYSTEMS, PROMPTS)
    assert len(rows) == 6 * len(PROMPTS) and page["groups"] == ["stereotype", "ambiguity"]
    for row in rows:
        male = row["outputs"]["oracle-male"]
        assert male["text"] == data.set_index("item_id").loc[row["item_id"], "ref_male"]
        assert male["read"] == "masculine" and male["correct"] == (row["gold"] == "male")
        assert "bleu 100.0" in male["evidence"]
        inclusive = row["outputs"]["oracle-inclusive"]
        assert inclusive["read"] == "inclusive"
        assert inclusive["correct"] == (row["gold"] == "inclusive")
