import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from gendermt.cli import main
from gendermt.scoring.sacrebleu_metrics import corpus_score

GENDERMT = shutil.which("gendermt", path=str(Path(sys.executable).parent))


@pytest.fixture
def male_oracle_hyps(tmp_path, sample_data):
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("\n".join(sample_data["ref_male"]) + "\n", encoding="utf-8")
    return hyp


def test_score_fairtranslate_json(sample_path, sample_data, male_oracle_hyps, capsys):
    assert main(["score", "fairtranslate", "--data", str(sample_path), "--hyp",
                 str(male_oracle_hyps), "--metrics", "bleu,chrf", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result) == ["bleu", "chrf"]
    bleu = result["bleu"]
    assert set(bleu) == {"signature", "corpus", "sentence_mean", "sentence_signature", "n",
                         "clean_share", "low_quality"}
    # French references as outputs: clean (issue 48: the outputs' check beside each metric)
    assert bleu["clean_share"] == 1.0 and bleu["low_quality"] is False
    assert list(bleu["corpus"]) == ["all", "female", "male", "inclusive"]
    assert bleu["corpus"]["male"] == pytest.approx(100)
    assert bleu["sentence_mean"]["male"] == pytest.approx(100)
    assert bleu["corpus"]["female"] < 90 and bleu["corpus"]["inclusive"] < 90
    female = sample_data[sample_data["gender"] == "female"]
    assert bleu["corpus"]["female"] == pytest.approx(
        corpus_score("bleu", female["ref_male"], female["reference"]).score)
    assert bleu["n"] == {"all": 54, "female": 18, "male": 18, "inclusive": 18}
    assert bleu["signature"].startswith("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp")
    assert result["chrf"]["signature"].startswith("nrefs:1|case:mixed|eff:yes|nc:6|nw:0")


@pytest.mark.skipif(GENDERMT is None, reason="console script not installed")
def test_console_script(sample_path, male_oracle_hyps):
    out = subprocess.run([GENDERMT, "score", "fairtranslate", "--data", str(sample_path),
                          "--hyp", str(male_oracle_hyps), "--metrics", "chrf", "--json"],
                         capture_output=True, text=True, check=True)
    assert list(json.loads(out.stdout)) == ["chrf"]


def test_text_output(sample_path, male_oracle_hyps, capsys):
    assert main(["score", "fairtranslate", "--data", str(sample_path), "--hyp",
                 str(male_oracle_hyps)]) == 0
    out = capsys.readouterr().out
    assert "bleu" in out and "inclusive" in out and "tok:13a" in out


def test_wrong_number_of_lines(sample_path, tmp_path, capsys):
    hyp = tmp_path / "short.txt"
    hyp.write_text("Bonjour\n")
    assert main(["score", "fairtranslate", "--data", str(sample_path), "--hyp", str(hyp)]) == 2
    assert "has 1 lines but" in capsys.readouterr().err


def test_malformed_data(sample_path, male_oracle_hyps, tmp_path, capsys):
    bad = pd.read_parquet(sample_path)
    bad.loc[6, "gender"] = "Male"
    bad_path = tmp_path / "bad.parquet"
    bad.to_parquet(bad_path)
    assert main(["score", "fairtranslate", "--data", str(bad_path), "--hyp",
                 str(male_oracle_hyps)]) == 2
    err = capsys.readouterr().err
    assert str(bad_path) in err and "row 7" in err and "'gender'" in err and "'Male'" in err
