"""§7's precision, recall and F1, checked against the paper's own Table 5/6 numbers, and the
``gendermt score conga`` command on Table 4."""

import json

import pytest

from gendermt.benchmarks.conga import CATEGORIES, METRICS
from gendermt.benchmarks.conga.metric import precision_recall
from gendermt.cli import main

from ...conga_table4 import EXAMPLES, EXPECTED


def _counts(match_m, match_f, it_m, it_f, en_m, en_f):
    return {"match_m": match_m, "match_f": match_f, "target_tags_m": it_m,
            "target_tags_f": it_f, "source_tags_m": en_m, "source_tags_f": en_f}


@pytest.mark.parametrize(("counts", "printed"), [
    # TowerLLM and mBART: Table 5's matches over Table 3's tag counts give Table 6
    (_counts(173, 104, 544, 210, 356, 294), {"precision_m": 31.8, "recall_m": 48.6,
                                             "precision_f": 49.5, "recall_f": 35.4,
                                             "f1_f": 41.3}),
    (_counts(165, 88, 570, 181, 356, 294), {"precision_m": 28.9, "recall_m": 46.3,
                                            "precision_f": 48.6, "recall_f": 29.9}),
])
def test_precision_recall_reproduce_table6(counts, printed):
    result = precision_recall(counts)
    for key, value in printed.items():
        assert round(100 * result[key], 1) == value


def test_f1_is_the_harmonic_mean_and_zero_denominators_are_none():
    result = precision_recall(_counts(1, 0, 4, 0, 2, 3))
    assert result["precision_m"] == 0.25 and result["recall_m"] == 0.5
    assert result["f1_m"] == pytest.approx(2 * 0.25 * 0.5 / 0.75)
    assert result["precision_f"] is None and result["recall_f"] == 0.0
    assert result["f1_f"] is None
    assert precision_recall(_counts(0, 0, 1, 1, 1, 1))["f1_m"] == 0.0


def test_entity_denominators():
    counts = {"match_m": 1, "match_f": 1, "target_entities_m": 2, "target_entities_f": 1,
              "source_entities_m": 1, "source_entities_f": 4}
    result = precision_recall(counts, "entities")
    assert result["precision_m"] == 0.5 and result["recall_f"] == 0.25
    with pytest.raises(ValueError):
        precision_recall(counts, "words")


def _write_table4(tmp_path, system):
    numbers = sorted(EXAMPLES)
    src = tmp_path / "en.txt"
    tgt = tmp_path / f"{system}.txt"
    src.write_text("\n".join(EXAMPLES[n]["en"] for n in numbers) + "\n", encoding="utf-8")
    tgt.write_text("\n".join(EXAMPLES[n][system] for n in numbers) + "\n", encoding="utf-8")
    return src, tgt


@pytest.mark.parametrize("system", ["tower", "mbart"])
def test_cli_json_on_table4(tmp_path, capsys, system):
    src, tgt = _write_table4(tmp_path, system)
    assert main(["score", "conga", "--source", str(src), "--target", str(tgt), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    # issue 48 added the outputs' check after the rest: the paper's Italian is clean
    assert list(result) == [*CATEGORIES, *METRICS, "signature", "clean_share", "low_quality"]
    assert result["clean_share"] == 1.0 and result["low_quality"] is False
    for category in CATEGORIES:
        assert result[category] == sum(EXPECTED[(n, system)].get(category, 0)
                                       for n in EXAMPLES)
    # independent recount of the tags: M and F tags in each file
    en = src.read_text(encoding="utf-8")
    it = tgt.read_text(encoding="utf-8")
    assert result["precision_m"] == pytest.approx(result["match_m"] / it.count("<M"))
    assert result["recall_f"] == pytest.approx(result["match_f"] / en.count("<F"))


def test_cli_malformed_tag_names_line_and_sentence(tmp_path, capsys):
    src = tmp_path / "en.txt"
    tgt = tmp_path / "it.txt"
    src.write_text("we <F1> are tired\nthey <M2 left\n", encoding="utf-8")
    tgt.write_text("siamo stanche <F1>\nse ne sono andati <M2>\n", encoding="utf-8")
    assert main(["score", "conga", "--source", str(src), "--target", str(tgt), "--json"]) == 2
    err = capsys.readouterr().err
    assert "line 2 (English)" in err and "unclosed tag" in err and "'they <M2 left'" in err


def test_cli_line_count_mismatch(tmp_path, capsys):
    src = tmp_path / "en.txt"
    tgt = tmp_path / "it.txt"
    src.write_text("we <F1> are\nI <A1> am\n", encoding="utf-8")
    tgt.write_text("siamo\n", encoding="utf-8")
    assert main(["score", "conga", "--source", str(src), "--target", str(tgt)]) == 2
    assert "has 2 lines but" in capsys.readouterr().err
