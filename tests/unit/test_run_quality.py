"""Each run's output quality beside the benchmark tables whose figures depend on the system
translating (issue 33): ConGA's, GATE's and GRAPE's tables carry the run's clean share and
the scorecard's low-quality mark; FairTranslate's singular-"they" table counts echoed
instructions apart from "no pronoun"."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from gendermt.scorecard.build import floors_by_benchmark
from gendermt.scoring.output_quality import CLEAN_SHARE_FLOOR, clean_share_floor, with_run_quality

CHECKS = pd.DataFrame({"system": ["good", "echoer", "good", "echoer"],
                       "prompt": ["baseline", "baseline", "fr", "fr"],
                       "clean_share": [1.0, 0.25, 0.95, 0.85]})


@pytest.mark.parametrize("floors", [
    None, {}, {"clean_share": 50}, {"conga": {"clean_share": 70}},
    {"clean_share": 50, "gambit": {"clean_share": 95}},
    {"grape": {"clean_share": 80}, "clean_share": 40}, {"bleu_all": 5},
])
def test_the_tables_floor_is_the_scorecards(floors):
    for name, key in (("conga", "conga"), ("gate", "gate"), ("gambit", "grape")):
        card = floors_by_benchmark(floors, [key])[key]["clean_share"]
        assert clean_share_floor(floors, name, key) == card


def test_with_run_quality_marks_runs_below_the_floor():
    table = pd.DataFrame({"system": ["good", "echoer", "nobody"],
                          "prompt": ["baseline"] * 3, "f1": [0.5, 0.0, 0.1]})
    out = with_run_quality(table, CHECKS)
    assert list(out.columns) == ["system", "prompt", "f1", "clean_share", "low_quality"]
    assert out["clean_share"].iloc[:2].tolist() == [1.0, 0.25]
    assert pd.isna(out["clean_share"].iloc[2])  # a row of no checked run: not marked
    assert out["low_quality"].tolist() == [False, True, False]
    # GAMBIT's runs are languages; the floor is a parameter
    langs = pd.DataFrame({"system": ["good", "echoer"], "lang": ["fr", "fr"]})
    assert with_run_quality(langs, CHECKS, 90.0, ("system", "lang"))[
        "low_quality"].tolist() == [False, True]
    assert with_run_quality(langs, CHECKS, 80.0, ("system", "lang"))[
        "low_quality"].tolist() == [False, False]
    assert CLEAN_SHARE_FLOOR == 90.0
    assert with_run_quality(table, None) is table


def test_conga_tables_mark_a_low_quality_run():
    from gendermt.benchmarks.conga import tables

    logs = pd.DataFrame([{
        "system": s, "prompt": "baseline", "item_id": "1", "status": "annotated",
        "annotation_source": "file", **{c: 1 for c in tables.COUNT_COLUMNS}}
        for s in ("good", "echoer")])
    for c in tables.COUNT_COLUMNS:
        logs[c] = logs[c].astype("Int64")
    cats = with_run_quality(tables.categories(logs, ["good", "echoer"], ["baseline"]), CHECKS)
    assert set(cats.loc[cats["system"] == "echoer", "low_quality"]) == {True}
    md = tables._categories_md(cats, ["baseline"])
    assert "echoer (low quality)" in md
    assert "good (low quality)" not in md and "floor of 90%" in md
    mets = with_run_quality(tables.metrics(logs, ["good", "echoer"], ["baseline"], "tags"),
                            CHECKS)
    md = tables._metrics_md(mets, ["baseline"])
    assert "echoer (low quality)" in md and "| Clean" in md and "25%" in md


def test_gate_table_carries_the_clean_share(tmp_path):
    from gendermt.benchmarks.gate import tables

    data = pd.DataFrame({"item_id": ["a"], "language": ["fr"], "requested_gender": ["feminine"],
                         "row": [0], "source": ["The doctor."], "labels": ["Target-Gender"],
                         "reference": ["La médecin."]})
    data.to_parquet(tmp_path / "data.parquet")
    runs = []
    for system, hyp in (("good", "La médecin."), ("echoer", "Rewrite the sentence.")):
        path = tmp_path / f"{system}.jsonl"
        path.write_text(json.dumps({"item_id": "a", "hypothesis": hyp}) + "\n")
        runs.append({"system": system, "prompt": "baseline", "path": str(path)})
    checks = tmp_path / "output_checks.csv"
    CHECKS.to_csv(checks, index=False)
    outputs = {"prf": tmp_path / "prf.csv", "prf_md": tmp_path / "prf.md"}
    tables.build_tables(tmp_path / "data.parquet", runs, outputs, checks=checks, floor=90.0)
    prf = pd.read_csv(outputs["prf"])
    assert prf.columns[-2:].tolist() == ["clean_share", "low_quality"]
    assert prf.groupby("system")["low_quality"].first().to_dict() == {"echoer": True,
                                                                      "good": False}
    md = outputs["prf_md"].read_text()
    assert "echoer (low quality)" in md and "good (low quality)" not in md
    assert "| clean" in md and "floor of 90%" in md


def test_grape_tables_carry_the_clean_share(tmp_path):
    from gendermt.benchmarks.gambit.tables import write_frames

    from ..benchmarks.gambit.test_gambit_tables import make_run

    counts = {"2000": (3, 1, 0), "2011": (2, 2, 0)}
    runs = [make_run("Good", "fr", counts, "good"), make_run("Echoer", "fr", counts, "echoer")]
    write_frames(runs, {}, {}, None, None, {}, tmp_path, checks=CHECKS, floor=90.0)
    grape = pd.read_csv(tmp_path / "grape.csv")
    assert grape.groupby("system")["low_quality"].first().to_dict() == {"echoer": True,
                                                                        "good": False}
    assert grape.groupby("system")["clean_share"].first().to_dict() == {"echoer": 0.85,
                                                                        "good": 0.95}
    assert "Echoer (low quality)" in (tmp_path / "grape.md").read_text()
    paper = (tmp_path / "grape_paper.md").read_text()
    assert "Echoer (low quality: French)" in paper and "Good (low" not in paper
    assert "floor of 90%" in paper
    # without checks the tables are as before
    write_frames(runs, {}, {}, None, None, {}, tmp_path / "plain")
    assert "low_quality" not in pd.read_csv(tmp_path / "plain" / "grape.csv").columns


def test_echoed_instructions_are_not_no_pronoun(tmp_path):
    from gendermt.benchmarks.fairtranslate import inclusive_tables
    from gendermt.benchmarks.fairtranslate.pronouns import CLASSES, classify_they

    english = "The nurse arrived early. They were tired."
    instruction = ("Translate the following sentence into French. Only give the "
                   "translation, without any explanation.")
    echo = "Only give the translation, without any explanation."
    assert classify_they(english, echo).cls == "no-pronoun"  # what it was counted as
    assert classify_they(english, echo, "echo").cls == "echo"
    assert "echo" in CLASSES
    data = pd.DataFrame({"item_id": ["i1", "i2"], "source": [english] * 2,
                         "reference": ["x", "y"], "gender": ["inclusive"] * 2,
                         "ambiguity": ["unambiguous"] * 2,
                         "stereotype": ["female-stereotyped"] * 2,
                         "occupation": [["infirmier", "infirmière", "infirmier.ère"]] * 2})
    hyps = {"i1": echo, "i2": "L'infirmière est arrivée tôt. Elle était fatiguée."}
    path, inputs = tmp_path / "t.jsonl", tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps({"item_id": i, "raw": h, "hypothesis": h}) + "\n"
                            for i, h in hyps.items()))
    inputs.write_text("".join(json.dumps({
        "item_id": i, "source": english, "src_lang": "en", "tgt_lang": "fr",
        "messages": [{"role": "user", "content": f"{instruction}\n{english}"}]}) + "\n"
        for i in hyps))
    outputs = inclusive_tables.read_translations([{"system": "s", "prompt": "baseline",
                                                   "path": path, "inputs": inputs}])
    assert outputs["check"].tolist() == ["echo", "ok"]
    they = inclusive_tables.they_table(inclusive_tables.analyse(data, outputs))
    rows = they[they["ambiguity"] == "all"].set_index("pronoun")["rows"]
    assert (rows["echo"], rows["none"], rows["elle"]) == (1, 0, 1)
    md = inclusive_tables._they_md(they)
    assert "|   echo |" in md and "`echo`" in md
