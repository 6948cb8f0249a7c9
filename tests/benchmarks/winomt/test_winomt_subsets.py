"""A WinoMT subset reads like the full set: a system with a whole file (``alignment_corpus:
whole``) is aligned on it and its subset read after (gendermt.benchmarks.winomt.whole_file).

The equality test runs on the published Google outputs in ../shared/data/winomt (skipped where
absent); the rest needs no data."""

import json

import pandas as pd
import pytest

from gendermt.benchmarks.winomt.cli import read_hypotheses
from gendermt.benchmarks.winomt.data import load
from gendermt.benchmarks.winomt.evaluate import score_run
from gendermt.benchmarks.winomt.whole_file import check, translate_whole, whole_lines
from gendermt.core.errors import GenderMTError
from gendermt.data.subsets import choose

from ...conftest import ROOT

WINOMT = ROOT.parent / "shared" / "data" / "winomt"


def _jsonl(path, ids, lines):
    path.write_text("".join(json.dumps({"item_id": i, "hypothesis": h}) + "\n"
                            for i, h in zip(ids, lines, strict=True)), encoding="utf-8")
    return str(path)


def _score(tmp_path, name, lang, data_path, translations, **whole):
    out = tmp_path / name / "corrected" / "google"
    out.mkdir(parents=True)
    score_run(lang, ["google"], [translations], str(data_path), {"aligner": "fast-align"},
              ["corrected"], [str(out / f"{lang}.parquet")], [str(out / f"{lang}.csv")],
              [str(out / f"{lang}.json")], **whole)
    return (pd.read_parquet(out / f"{lang}.parquet"),
            json.loads((out / f"{lang}.json").read_text(encoding="utf-8")))


@pytest.mark.skipif(not WINOMT.is_dir(), reason="the shared WinoMT data is absent")
def test_a_subset_reads_as_the_full_run_reads_the_same_items(tmp_path):
    # a "full set" of the first 600 sentences and Google's published Spanish of them; the
    # subset as a study draws it (stratified, seeded)
    full = load(WINOMT / "en.txt", WINOMT / "en_pro.txt", WINOMT / "en_anti.txt").head(600)
    hyps = read_hypotheses(str(WINOMT / "translations" / "google" / "en-es.txt"),
                           load(WINOMT / "en.txt")["source"].tolist())[:600]
    subset, _ = choose(full, 24, 32, ["gold", "stereotype"])
    full.to_parquet(tmp_path / "full.parquet", index=False)
    subset.to_parquet(tmp_path / "data.parquet", index=False)
    whole = _jsonl(tmp_path / "whole.jsonl", full["item_id"], hyps)
    rows = subset["full_set_row"].tolist()
    scored = _jsonl(tmp_path / "subset.jsonl", subset["item_id"], [hyps[r] for r in rows])

    full_run, _ = _score(tmp_path, "full", "es", tmp_path / "full.parquet", whole)
    read, summary = _score(tmp_path, "whole", "es", tmp_path / "data.parquet", scored,
                           whole={"google": whole},
                           full_data_path=str(tmp_path / "full.parquet"))
    expected = full_run.set_index("item_id").loc[subset["item_id"]].reset_index()
    for column in ("aligned", "predicted", "evidence", "correct"):
        assert read[column].tolist() == expected[column].tolist(), column
    assert summary["alignment_corpus"] == {"corpus": "whole", "pairs": 600, "items": 24}

    # its own 24 lines as the corpus (what becbf63 did) read other words for some entities
    own, own_summary = _score(tmp_path, "own", "es", tmp_path / "data.parquet", scored)
    assert own["aligned"].tolist() != expected["aligned"].tolist()
    assert own_summary["alignment_corpus"] == {"corpus": "own", "pairs": 24, "items": 24}


def test_the_whole_file_must_hold_the_lines_scored():
    full = pd.DataFrame({"item_id": ["a", "b", "c"]})
    subset = pd.DataFrame({"item_id": ["c", "a"]})
    assert whole_lines(full, subset, ["A", "B", "C"], ["C", "A"], "w.jsonl") == [2, 0]
    with pytest.raises(GenderMTError, match=r"1 of the subset's 2 translations differ .* 'c'"):
        whole_lines(full, subset, ["A", "B", "C"], ["C2", "A"], "w.jsonl")
    with pytest.raises(GenderMTError, match="2 translations for the whole set's 3 items"):
        whole_lines(full, subset, ["A", "B"], ["C", "A"], "w.jsonl")
    with pytest.raises(GenderMTError, match="no item 'z'"):
        whole_lines(full, pd.DataFrame({"item_id": ["z"]}), ["A", "B", "C"], ["Z"], "w.jsonl")


def test_a_stored_file_is_read_in_full_for_alignment(tmp_path):
    full = pd.DataFrame({"item_id": ["0000", "0001", "0002"],
                         "source": ["The nurse is here.", "The cook ate.", "I am here."],
                         "src_lang": "en", "tgt_lang": ""})
    full.to_parquet(tmp_path / "full.parquet", index=False)
    (tmp_path / "google-es.txt").write_text(" La enfermera está aquí. \nEl cocinero comió.\n"
                                            "Estoy aquí.\n", encoding="utf-8")
    settings = {"backend": "stored", "path": str(tmp_path / "google-{prompt}.txt")}
    translate_whole(settings, tmp_path / "full.parquet", "es", tmp_path / "whole.jsonl",
                    postprocess=["strip"])
    records = [json.loads(line) for line in
               (tmp_path / "whole.jsonl").read_text(encoding="utf-8").splitlines()]
    assert records == [{"item_id": "0000", "hypothesis": "La enfermera está aquí."},
                       {"item_id": "0001", "hypothesis": "El cocinero comió."},
                       {"item_id": "0002", "hypothesis": "Estoy aquí."}]
    with pytest.raises(GenderMTError, match="cannot give a whole set's translations"):
        translate_whole({"backend": "copy-source"}, tmp_path / "full.parquet", "es",
                        tmp_path / "x.jsonl")


def test_the_config_check_allows_whole_only_where_a_whole_file_can_be_made():
    config = {"systems": {"google": {"backend": "stored", "path": "x"},
                          "llm": {"backend": "hf-causal", "model": "m"}}}
    spec = {"systems": ["google", "llm"]}
    check({**spec, "alignment_corpus": {"google": "whole", "llm": "own"}}, config)
    with pytest.raises(GenderMTError, match=r"alignment_corpus\.llm: whole needs"):
        check({**spec, "alignment_corpus": {"llm": "whole"}}, config)
    with pytest.raises(GenderMTError, match="names 'bing', which is not one"):
        check({**spec, "alignment_corpus": {"bing": "whole"}}, config)
    with pytest.raises(GenderMTError, match="'all' is not one of whole, own"):
        check({**spec, "alignment_corpus": {"google": "all"}}, config)
