"""``gendermt score mt``: the public JSON, per-segment files, errors; equal to sacrebleu's CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gendermt.cli import main
from gendermt.scoring import metrics

SACREBLEU = shutil.which("sacrebleu", path=str(Path(sys.executable).parent)) or "sacrebleu"


@pytest.fixture
def files(tmp_path, sample_data):
    """The male oracle against each row's own reference, with the English sources."""
    paths = {}
    for name, column in (("src", "source"), ("hyp", "ref_male"), ("ref", "reference")):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(sample_data[column]) + "\n", encoding="utf-8")
    return paths


def test_json_has_one_object_per_metric_equal_to_sacrebleu(files, capsys):
    assert main(["score", "mt", "--src", str(files["src"]), "--hyp", str(files["hyp"]),
                 "--ref", str(files["ref"]), "--metrics", "BLEU,chrf,ter,bleu_nltk_m4",
                 "--tgt-lang", "fr", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result) == ["bleu", "chrf", "ter", "bleu_nltk_m4"]
    # issue 48 added the outputs' clean share beside each metric (its own test:
    # tests/unit/test_score_quality.py)
    assert all(set(v) == {"score", "signature", "clean_share", "low_quality"}
               for v in result.values())
    cli = json.loads(subprocess.run(
        [SACREBLEU, str(files["ref"]), "-i", str(files["hyp"]), "-m", "bleu", "chrf", "ter",
         "-w", "6", "-tok", "13a"], check=True, capture_output=True, text=True).stdout)
    for entry, name in zip(cli, ["bleu", "chrf", "ter"], strict=True):
        assert result[name]["score"] == pytest.approx(entry["score"], abs=1e-6)
        assert result[name]["signature"] == entry["signature"]
    assert 0 < result["bleu_nltk_m4"]["score"] < 100
    assert result["bleu_nltk_m4"]["signature"].startswith("bleu_nltk_m4|")


@pytest.mark.parametrize("suffix", [".tsv", ".jsonl"])
def test_segments_file(files, tmp_path, sample_data, suffix, capsys):
    out = tmp_path / f"segments{suffix}"
    assert main(["score", "mt", "--hyp", str(files["hyp"]), "--ref", str(files["ref"]),
                 "--metrics", "bleu,ter", "--segments", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("bleu\t") and "\nter\t" in text
    if suffix == ".jsonl":
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    else:
        lines = out.read_text(encoding="utf-8").splitlines()
        assert lines[0] == "segment\tbleu\tter"
        rows = [dict(zip(["segment", "bleu", "ter"], map(float, line.split("\t")), strict=True))
                for line in lines[1:]]
    assert [r["segment"] for r in rows] == list(range(1, len(sample_data) + 1))
    for metric in ("bleu", "ter"):
        expected, _ = metrics.sentence_scores(metric, list(sample_data["ref_male"]),
                                              list(sample_data["reference"]))
        assert [r[metric] for r in rows] == pytest.approx(expected, abs=1e-9)


def test_errors_name_the_files(files, tmp_path, capsys):
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    assert main(["score", "mt", "--hyp", str(short), "--ref", str(files["ref"])]) == 2
    err = capsys.readouterr().err
    assert f"{short} (--hyp) has 1 lines but {files['ref']} (--ref) has 54" in err
    assert main(["score", "mt", "--hyp", str(files["hyp"]), "--ref", str(files["ref"]),
                 "--metrics", "comet"]) == 2
    assert "COMET needs the sources: give --src FILE" in capsys.readouterr().err
    assert main(["score", "mt", "--hyp", str(files["hyp"]), "--ref", str(tmp_path / "no.txt")]
                ) == 2
    assert "no.txt does not exist" in capsys.readouterr().err
    assert main(["score", "mt", "--hyp", str(files["hyp"]), "--ref", str(files["ref"]),
                 "--metrics", "meteor"]) == 2
    assert "unknown metric 'meteor'" in capsys.readouterr().err


def test_comet_outside_its_environment_says_where_it_lives(files, capsys):
    try:
        import comet as _  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("COMET is installed in this environment")
    assert main(["score", "mt", "--src", str(files["src"]), "--hyp", str(files["hyp"]),
                 "--ref", str(files["ref"]), "--metrics", "bleu,comet", "--json"]) == 2
    assert "make comet-env" in capsys.readouterr().err
