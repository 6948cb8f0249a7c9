"""Neo-GATE's explorer (gendermt.benchmarks.neogate.explorer): every sentence with each
system's output per run and the words Neo-GATE's metric found, on per-item score tables in the
scoring stage's format (evaluate.per_item_frame's columns, as the default run writes them)."""

import pandas as pd

from gendermt.benchmarks.neogate.explorer import read

from ...explorer_support import listed, page_rows

DATA = pd.DataFrame({
    "item_id": ["neogate-1"], "number": [1], "gate_id": ["IT_2_variants001"], "row": [1],
    "src_lang": "en", "tgt_lang": "it",
    "source": ["The new teacher is a little absent-minded."],
    "ref_male": ["Il nuovo insegnante è un po' distratto."],
    "ref_asterisk": ["L* nuov* insegnante è un po' distratt*."],
    "ref_schwa": ["Lə nuovə insegnante è un po' distrattə."]})


def scores(hypothesis, correct, masculine, mis):
    words = {"correct": correct, "masculine": masculine, "feminine": [],
             "misgenerations": mis}
    row = {"item_id": "neogate-1", "number": 1, "extraction": "plain",
           "hypothesis": hypothesis, "n_annotations": 3, "matched": len(correct + masculine)}
    for key, found in words.items():
        row[key], row[f"{key}_words"] = len(found), " ".join(found)
    return pd.DataFrame([{**row, "check": "ok"}])


def test_every_sentence_with_each_output_and_the_words_found(tmp_path):
    data_path = tmp_path / "data.parquet"
    DATA.to_parquet(data_path)
    tables = {
        ("oracle-male", "zeroshot-asterisk"): scores(
            DATA["ref_male"][0], [], ["il", "nuovo", "distratto"], []),
        ("oracle-asterisk", "zeroshot-asterisk"): scores(
            DATA["ref_asterisk"][0], ["l*", "nuov*", "distratt*"], [], []),
        ("oracle-male", "zeroshot-schwa"): scores(
            DATA["ref_male"][0], [], ["il", "nuovo", "distratto"], ["*"]),
    }
    runs = []
    for (system, run), frame in tables.items():
        path = tmp_path / system / f"{run}.parquet"
        path.parent.mkdir(exist_ok=True)
        frame.to_parquet(path)
        runs.append({"system": system, "prompt": run, "paradigm": run.split("-")[-1],
                     "path": str(path)})
    systems = ["oracle-male", "oracle-asterisk"]
    page, rows = page_rows(read(runs, str(data_path), systems), tmp_path)
    listed(page, rows, systems, ["zeroshot-asterisk", "zeroshot-schwa"])
    asterisk, schwa = rows
    assert asterisk["gold"] == "asterisk" and asterisk["reference"] == DATA["ref_asterisk"][0]
    assert asterisk["outputs"]["oracle-asterisk"]["read"] == "3 of 3 in asterisk"
    assert asterisk["outputs"]["oracle-asterisk"]["correct"] is True
    male = asterisk["outputs"]["oracle-male"]
    assert male["correct"] is False and "masculine: il nuovo distratto" in male["evidence"]
    assert schwa["reference"] == DATA["ref_schwa"][0] and set(schwa["outputs"]) == {
        "oracle-male"}
    assert schwa["outputs"]["oracle-male"]["read"] == "0 of 3 in schwa, 1 mis-generated"
