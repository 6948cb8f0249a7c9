"""How every `gendermt score` command reads the files it is given (issues 18 and 24): lines end
at "\\n" only, one shared reader (gendermt.data.textfiles); `-` is stdin; a missing or non-UTF-8
file is one line naming it and exit 2, never a traceback."""

from __future__ import annotations

import io
import json

import pytest

from gendermt.benchmarks.neogate.data import load as load_neogate
from gendermt.benchmarks.neogate.paradigm import load_mapping
from gendermt.cli import main
from gendermt.data.textfiles import is_blank, read_delimited, split_lines

from ..conftest import ROOT

FT = ROOT / "resources" / "fairtranslate" / "data" / "train-00000-of-00001.parquet"
NEOGATE = ROOT / "resources" / "neogate"
WINOMT = ROOT.parent / "shared" / "data" / "winomt" / "en.txt"
GATE_HEADER = "labels\tsource\tf\tm\tkw_s\tkw_f\tkw_m\tdata_split"


def test_split_lines_and_blank_text():
    assert split_lines("a\u2028b\x85c\x0cd\ne\r\n\rf\n") == ["a\u2028b\x85c\x0cd", "e", "\rf"]
    assert split_lines("") == [] and split_lines("\n") == [""] and split_lines("x") == ["x"]
    assert is_blank("\u200b \u200d\ufeff\u2060") and not is_blank("\u200ba")


def test_read_delimited_numbers_physical_lines(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text('\ufeffh1\th2\n\na\t"b\nc"\nd\te\n', encoding="utf-8")
    import csv

    assert read_delimited(path) == [(1, ["h1", "h2"]), (2, []), (3, ["a", '"b']),
                                    (4, ['c"']), (5, ["d", "e"])]
    assert read_delimited(path, quoting=csv.QUOTE_MINIMAL)[2:] == [(3, ["a", "b\nc"]),
                                                                   (5, ["d", "e"])]


# ------------------------------------------------------------ one case per command
def _fairtranslate(tmp_path, lines):
    import pandas as pd

    n = len(pd.read_parquet(FT))
    hyp = tmp_path / "hyp.txt"
    return hyp, ["score", "fairtranslate", "--data", str(FT), "--hyp", str(hyp),
                 "--metrics", "chrf", "--json"], n


def _mt(tmp_path, lines):
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"line number {i}\n" for i in range(len(lines))), encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    return hyp, ["score", "mt", "--hyp", str(hyp), "--ref", str(ref), "--metrics", "chrf",
                 "--json"], len(lines)


def _gate(tmp_path, lines):
    ref = tmp_path / "ES_2_variants.tsv"
    ref.write_text(GATE_HEADER + "\n" + "".join(f"A\ts {i} .\tf{i}\tm{i}\tx\tx\tx\tdev\n"
                                                for i in range(len(lines))), encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    return hyp, ["score", "gate", "--reference", str(ref), "--hyp", str(hyp), "--gender",
                 "masculine", "--json"], len(lines)


def _neogate(tmp_path, lines):
    hyp = tmp_path / "hyp.txt"
    return hyp, ["score", "neogate", "--data", str(NEOGATE / "Neo-GATE.tsv"), "--mapping",
                 str(NEOGATE / "schwa.json"), "--hyp", str(hyp), "--json"], 12


def _conga(tmp_path, lines):
    src = tmp_path / "en.txt"
    src.write_text("".join("we <F1> are tired\n" for _ in lines), encoding="utf-8")
    hyp = tmp_path / "it.txt"
    return hyp, ["score", "conga", "--source", str(src), "--target", str(hyp), "--json"], \
        len(lines)


COMMANDS = {"fairtranslate": _fairtranslate, "mt": _mt, "gate": _gate, "neogate": _neogate,
            "conga": _conga}


@pytest.mark.parametrize("command", COMMANDS)
def test_unicode_line_separators_inside_an_output_do_not_shift_the_lines(tmp_path, capsys,
                                                                         command):
    hyp, argv, n = COMMANDS[command](tmp_path, ["x"] * 3)
    if command == "neogate":
        data = load_neogate(NEOGATE / "Neo-GATE.tsv",
                            {"s": load_mapping(NEOGATE / "schwa.json")})
        lines = list(data["ref_s"])
    else:
        lines = [f"m{i}" if command == "gate" else "siamo stanche <F1>" if command == "conga"
                 else f"line number {i}" for i in range(n)]
    # U+2028, NEL and a form feed inside the first output: still one output per line
    lines[0] = lines[0] + "\u2028\x85\x0c"
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(argv) == 0, capsys.readouterr().err
    json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("command", [*COMMANDS, "winomt"])
def test_a_missing_or_non_utf8_file_is_one_line_and_exit_2(tmp_path, capsys, command):
    if command == "winomt":
        if not WINOMT.exists():
            pytest.skip("../shared/data/winomt not here")
        hyp = tmp_path / "hyp.txt"
        argv = ["score", "winomt", "--data", str(WINOMT), "--hyp", str(hyp), "--lang", "fr"]
    else:
        hyp, argv, _ = COMMANDS[command](tmp_path, ["x"] * 3)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(hyp) in err and "does not exist" in err, err
    hyp.write_bytes(b"caf\xe9\n")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(hyp) in err and "not UTF-8 text: byte 0xe9 on line 1" \
        in err, err


def test_dash_reads_the_hypotheses_from_stdin(tmp_path, capsys, monkeypatch):
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
        "\ufeffthe cat sat on the mat\r\nhello world\r\n".encode()), encoding="utf-8"))
    assert main(["score", "mt", "--hyp", "-", "--ref", str(ref), "--metrics", "bleu",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bleu"]["score"] == pytest.approx(100)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(ref.read_bytes()),
                                                      encoding="utf-8"))
    assert main(["score", "mt", "--hyp", str(hyp), "--ref", "-", "--metrics", "bleu",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bleu"]["score"] == pytest.approx(100)


def test_winomt_data_files_non_utf8_and_line_separators(tmp_path):
    from gendermt.benchmarks.winomt.data import read_rows
    from gendermt.core.errors import DatasetError

    path = tmp_path / "en.txt"
    path.write_bytes("male\t1\tThe doctor\u2028 ate .\tdoctor\n".encode())
    assert read_rows(path) == [("male", 1, "The doctor\u2028 ate .", "doctor")]
    path.write_bytes(b"male\t1\tThe doctor ate .\tdoctor\nfemale\t1\tThe nurse caf\xe9 .\tnurse\n")
    with pytest.raises(DatasetError, match=r"en.txt: not UTF-8 text: byte 0xe9 on line 2"):
        read_rows(path)


# ------------------------------------------------------------ issue 24: options and output
def test_metrics_are_checked_before_any_file_is_read_or_score_computed(tmp_path, capsys,
                                                                       monkeypatch):
    from gendermt.scoring import sacrebleu_metrics

    def no_work(*args, **kwargs):
        raise AssertionError("a score was computed before the options were checked")

    monkeypatch.setattr(sacrebleu_metrics, "corpus_score", no_work)
    monkeypatch.setattr(sacrebleu_metrics, "sentence_scores", no_work)
    missing = str(tmp_path / "missing.txt")
    assert main(["score", "mt", "--hyp", missing, "--ref", missing, "--metrics",
                 "bleu,blue"]) == 2
    assert "--metrics: unknown metric 'blue'" in capsys.readouterr().err
    assert main(["score", "fairtranslate", "--data", missing, "--hyp", missing, "--metrics",
                 "bleu,comet"]) == 2
    err = capsys.readouterr().err
    assert "--metrics: unknown metric 'comet'" in err and "gendermt score mt" in err
    assert main(["score", "mt", "--hyp", missing, "--ref", missing, "--tokenize", "13b"]) == 2
    assert "--tokenize: '13b' is not a sacrebleu tokenizer" in capsys.readouterr().err
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n", encoding="utf-8")
    assert main(["score", "mt", "--hyp", str(ref), "--ref", str(ref), "--src", str(ref),
                 "--metrics", "bleu,comet"]) == 2
    err = capsys.readouterr().err
    import importlib.util

    if importlib.util.find_spec("comet") is None:
        assert "--metrics comet: COMET is not installed" in err
    else:
        assert "a score was computed" not in err


def test_top_help_is_plain_text(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "``" not in out and ":mod:" not in out
    assert "gendermt score BENCHMARK" in out and "--precision" in out and "--quiet" in out


def test_json_numbers_are_rounded_to_the_stated_precision(tmp_path, capsys):
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    argv = ["score", "mt", "--hyp", str(ref), "--ref", str(ref), "--metrics", "bleu", "--json"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert '"score": 100.0,' in text  # sacrebleu's 100.00000000000004
    ref.write_text("the cat sat on the mat\nhello there world\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("the cat sat on a mat\nhello world\n", encoding="utf-8")
    for args in (["--precision", "2"], []):
        assert main([*args, "score", "mt", "--hyp", str(hyp), "--ref", str(ref), "--metrics",
                     "bleu", "--json", *args]) == 0
        score = json.loads(capsys.readouterr().out)["bleu"]["score"]
        places = len(repr(score).split(".")[1])
        assert places <= (2 if args else 10), score


def test_no_progress_bar_when_stderr_is_not_a_terminal(capsys):
    import pandas as pd

    hyp_lines = list(pd.read_parquet(FT)["french"])
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        hyp = f"{tmp}/hyp.txt"
        with open(hyp, "w", encoding="utf-8") as fh:
            fh.write("\n".join(hyp_lines) + "\n")
        assert main(["score", "fairtranslate", "--data", str(FT), "--hyp", hyp, "--json"]) == 0
    assert capsys.readouterr().err == ""


def test_progress_logs_rate_and_eta_lines_and_quiet_silences_it(caplog, monkeypatch):
    from gendermt.data import progress

    ticks = iter(range(0, 10000, 20))  # twenty seconds per reading of the clock
    monkeypatch.setattr(progress.time, "monotonic", lambda: float(next(ticks)))
    with caplog.at_level("INFO", logger="gendermt.data.progress"), \
            progress.Progress(40, "translate fairtranslate/baseline", every=10) as bar:
        for _ in range(40):
            bar.update()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 4, lines  # at 10, 20, 30 and the end
    assert lines[0].startswith("translate fairtranslate/baseline: 10/40 items (25%), ")
    assert "items/s, ETA " in lines[0]
    assert lines[-1].startswith("translate fairtranslate/baseline: 40/40 items (100%)")
    assert "done in" in lines[-1]
    caplog.clear()
    progress.set_quiet(True)
    try:
        with caplog.at_level("INFO", logger="gendermt.data.progress"), \
                progress.Progress(40, "x", every=10) as bar:
            bar.update(40)
        assert caplog.records == []
    finally:
        progress.set_quiet(False)
    assert progress.duration(3725) == "1h02m" and progress.duration(393) == "6m33s"
    # a loop faster than MIN_INTERVAL logs its last line only
    monkeypatch.setattr(progress.time, "monotonic", lambda: 0.0)
    with caplog.at_level("INFO", logger="gendermt.data.progress"), \
            progress.Progress(40, "fast", every=10) as bar:
        for _ in range(40):
            bar.update()
    assert [r.getMessage().split(":")[0] for r in caplog.records] == ["fast"]
