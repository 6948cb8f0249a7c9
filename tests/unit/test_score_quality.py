"""The score commands say when what they score is not a translation (issue 48): their JSON adds
``clean_share`` and ``low_quality`` (existing keys and the exit code unchanged) and one warning
line goes to stderr when the outputs are the source untranslated or in another language."""

import json
from pathlib import Path

import pytest

from gendermt.cli import main
from gendermt.scoring.output_quality import output_quality, quality_warning

from ..conftest import needs_extra

ROOT = Path(__file__).resolve().parents[2]
MTG = ROOT / "resources" / "mt-geneval"
WINOMT = ROOT.parent / "shared" / "data" / "winomt" / "en.txt"


def test_output_quality_counts_copies_and_wrong_language():
    sources = ["The doctor asked the nurse for help.", "She is a teacher."]
    copied = output_quality(sources, "fr", sources)
    assert copied == {"clean_share": 0.0, "low_quality": True,
                      "counts": {"ok": 0, "untranslated": 2, "wrong_language": 0}}
    english = output_quality(["The doctor asked the nurse for her help.",
                              "She is the teacher of the class."], "fr", sources)
    assert english["counts"]["wrong_language"] == 2 and english["low_quality"]
    french = output_quality(["Le médecin a demandé de l'aide à l'infirmière.",
                             "Elle est une enseignante."], "fr", sources)
    assert french["clean_share"] == 1.0 and not french["low_quality"]
    assert quality_warning(french) is None
    half = output_quality(["Le médecin a demandé de l'aide à l'infirmière.", sources[1]],
                          "fr", sources)
    assert half["clean_share"] == 0.5 and half["low_quality"]
    line = quality_warning(half)
    assert "\n" not in line and "1 of 2 are the source, untranslated" in line
    # nothing to check against (no sources, a target without a word list): not "clean"
    assert output_quality(["x y z"], None)["clean_share"] is None
    assert output_quality(["x y z"], "fi")["low_quality"] is False


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("warning:")]


def test_mt_geneval_on_copied_english_warns(tmp_path, capsys):
    """Copied English has no gendered word: MT-GenEval's accuracy is 1.0 for it."""
    from gendermt.benchmarks.mt_geneval.data import load

    data = load(MTG, "fr", "test", "counterfactual")
    masc, fem = tmp_path / "m.txt", tmp_path / "f.txt"
    masc.write_text("\n".join(data["source_masculine"]) + "\n", encoding="utf-8")
    fem.write_text("\n".join(data["source_feminine"]) + "\n", encoding="utf-8")
    argv = ["score", "mt-geneval", "--data", str(MTG), "--lang", "fr", "--split", "test",
            "--set", "counterfactual", "--hyp-masculine", str(masc), "--hyp-feminine", str(fem)]
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["accuracy"] == 1.0  # the metric is fooled, as the paper's script is
    assert out["clean_share"] == 0.0 and out["low_quality"] is True
    assert {"lang", "split", "set", "accuracy", "n", "signature"} <= set(out)
    assert len(_warnings(captured.err)) == 1 and "untranslated" in captured.err
    assert captured.err.count("\n") == 1
    # the references as outputs: clean, no warning
    masc.write_text("\n".join(data["reference_masculine"]) + "\n", encoding="utf-8")
    fem.write_text("\n".join(data["reference_feminine"]) + "\n", encoding="utf-8")
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["clean_share"] == 1.0 and out["low_quality"] is False
    assert captured.err == ""


def test_score_mt_adds_the_keys_to_each_metric_and_warns(tmp_path, capsys):
    src = tmp_path / "src.txt"
    src.write_text("The doctor is here.\nThe nurse left early.\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("Le médecin est là.\nL'infirmière est partie tôt.\n", encoding="utf-8")
    assert main(["score", "mt", "--src", str(src), "--hyp", str(src), "--ref", str(ref),
                 "--metrics", "bleu,chrf", "--tgt-lang", "fr", "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert list(out) == ["bleu", "chrf"]
    for info in out.values():
        assert {"score", "signature"} <= set(info)
        assert info["clean_share"] == 0.0 and info["low_quality"] is True
    assert len(_warnings(captured.err)) == 1
    assert main(["score", "mt", "--src", str(src), "--hyp", str(ref), "--ref", str(ref),
                 "--metrics", "chrf", "--tgt-lang", "fr", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["chrf"]["low_quality"] is False and captured.err == ""


@pytest.mark.skipif(not WINOMT.exists(), reason="../shared/data/winomt not here")
def test_winomt_on_copied_english_warns(tmp_path, capsys):
    pytest.importorskip("spacy", reason=needs_extra("spacy"))
    data = tmp_path / "en.txt"
    lines = WINOMT.read_text(encoding="utf-8").splitlines()[:6]
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("\n".join(line.split("\t")[2] for line in lines) + "\n", encoding="utf-8")
    assert main(["score", "winomt", "--data", str(data), "--hyp", str(hyp), "--lang", "fr",
                 "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["clean_share"] == 0.0 and out["low_quality"] is True and "acc" in out
    assert len(_warnings(captured.err)) == 1


def test_conga_on_copied_english_warns(tmp_path, capsys):
    src = tmp_path / "en.txt"
    src.write_text("The doctor <F1> said that she was tired of the work.\n"
                   "The teacher <M1> said that he would be there for them.\n",
                   encoding="utf-8")
    tgt = tmp_path / "it.txt"
    tgt.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")  # copied, tags kept
    assert main(["score", "conga", "--source", str(src), "--target", str(tgt), "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["clean_share"] == 0.0 and out["low_quality"] is True and "signature" in out
    assert len(_warnings(captured.err)) == 1
