"""GATE's evaluation (`gendermt score gate`): definitions on small files, and the real
corpus in ../shared/data/gate.

GateEval.py is not in ../shared/data/gate (GATE's data folder only), so it cannot be run
here; the expected figures below are computed independently in this file from the
definitions GateEval.py uses (datasets.md 3.2): its csv reading, per-sentence outcome,
precision, recall, F0.5, length filter and per-label rows.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from gendermt.benchmarks.gate.data import load_json, load_variants
from gendermt.benchmarks.gate.metric import evaluate
from gendermt.cli import main
from gendermt.core.errors import DatasetError, GenderMTError

from ...conftest import ROOT

REAL = ROOT.parent / "shared" / "data" / "gate"
needs_real = pytest.mark.skipif(not REAL.exists(), reason="../shared/data/gate not here")
HEADER = "labels\tsource\tf\tm\tkw_s\tkw_f\tkw_m\tdata_split"


def write_reference(tmp_path: Path, rows: list[tuple[str, str, str, str]]) -> Path:
    path = tmp_path / "ES_2_variants.tsv"
    lines = [HEADER] + [f"{lab}\t{src}\t{f}\t{m}\tx\tx\tx\tdev" for lab, src, f, m in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


ROWS = [
    ("SUBJ;PROF", "The doctor came .", "La doctora vino.", "El doctor vino."),
    ("SUBJ;PROF;PROF", "The long sentence with many words here .", "Ella A.", "Él A."),
    ("DOBJ;XTRA", "Saw the nurse .", "Vi a la enfermera.", "Vi al enfermero."),
    ("DOBJ", "Saw them .", "Las vi.", "Los vi."),
]


def run_cli(capsys, *args: str) -> dict:
    assert main(["score", "gate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_blank_lines_cost_recall_only(tmp_path, capsys):
    ref = write_reference(tmp_path, ROWS)
    hyp = tmp_path / "hyp.txt"
    # match, blank, mismatch, match (with surrounding spaces)
    hyp.write_text("El doctor vino.\n\nVi a la enfermera.\n  Los vi. \n", encoding="utf-8")
    out = run_cli(capsys, "--reference", str(ref), "--hyp", str(hyp), "--gender", "masculine")
    assert out["overall"] == {"count": 4, "matches": 2, "mismatches": 1,
                              "precision": pytest.approx(2 / 3), "recall": 0.5,
                              "f05": pytest.approx(1.25 * (2 / 3) * 0.5 / (0.25 * 2 / 3 + 0.5)),
                              # the given outputs are Spanish: clean (issue 48's added keys)
                              "clean_share": 1.0, "low_quality": False}
    # labels in GateEval's order, unknown ones after; a duplicated label counts a row once
    # (and the metric's signature last, tests/unit/test_metric_signatures.py)
    assert list(out) == ["overall", "PROF", "SUBJ", "DOBJ", "XTRA", "signature"]
    assert out["PROF"]["count"] == 2 and out["PROF"]["matches"] == 1
    assert out["DOBJ"] == {"count": 2, "matches": 1, "mismatches": 1, "precision": 0.5,
                           "recall": 0.5, "f05": pytest.approx(0.5)}
    assert out["XTRA"]["f05"] == 0.0  # P = R = 0


def test_length_filters_and_full_set_recall(tmp_path, capsys):
    ref = write_reference(tmp_path, ROWS)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("El doctor vino.\nÉl A.\nVi al enfermero.\nLos vi.\n", encoding="utf-8")
    base = ["--reference", str(ref), "--hyp", str(hyp), "--gender", "masculine"]
    out = run_cli(capsys, *base, "--max-words", "5")
    assert out["overall"]["count"] == 3 and out["overall"]["recall"] == 1.0
    assert out["PROF"]["count"] == 1
    out = run_cli(capsys, *base, "--max-words", "5", "--full-set-recall")
    assert out["overall"]["count"] == 4 and out["overall"]["recall"] == 0.75
    assert out["overall"]["precision"] == 1.0
    assert out["PROF"] == {"count": 2, "matches": 1, "mismatches": 0, "precision": 1.0,
                           "recall": 0.5, "f05": pytest.approx(1.25 * 0.5 / 0.75)}
    out = run_cli(capsys, *base, "--min-words", "4")
    assert out["overall"]["count"] == 3  # "Saw them ." has 3 words


def test_wrong_number_of_lines_is_an_error(tmp_path, capsys):
    ref = write_reference(tmp_path, ROWS)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("one\ntwo\n", encoding="utf-8")
    assert main(["score", "gate", "--reference", str(ref), "--hyp", str(hyp), "--gender",
                 "feminine", "--json"]) == 2
    assert "2 outputs for 4 reference rows" in capsys.readouterr().err


def test_bad_reference_files(tmp_path):
    path = tmp_path / "ES_2_variants.tsv"
    path.write_text("labels\tsource\tx\ty\nA\tb\tc\td\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="variant columns"):
        load_variants(path)
    path.write_text("", encoding="utf-8")
    with pytest.raises(DatasetError, match="empty"):
        load_variants(path)
    with pytest.raises(GenderMTError, match="gender"):
        evaluate(load_variants(write_reference(tmp_path, ROWS)), ["a"] * 4, "neutral")


# ------------------------------------------------------------------- the real corpus
def gateeval_reference(path: Path) -> list[dict]:
    """How GateEval.py reads a reference: csv's default quoting, rows of the wrong width
    skipped."""
    with path.open(encoding="utf-8") as fh:
        reader = csv.reader(fh, delimiter="\t")
        header = next(reader)
        return [dict(zip(header, row, strict=True)) for row in reader if len(row) == len(header)]


def expected_overall(rows: list[dict], hyps: list[str], column: str) -> dict:
    matches = sum(bool(h.strip()) and h.strip() == r[column].strip()
                  for h, r in zip(hyps, rows, strict=True))
    empty = sum(not h.strip() for h in hyps)
    mismatches = len(rows) - matches - empty
    p = matches / (matches + mismatches) if matches + mismatches else 0.0
    r = matches / len(rows)
    f = 1.25 * p * r / (0.25 * p + r) if (0.25 * p + r) else 0.0
    return {"count": len(rows), "matches": matches, "mismatches": mismatches, "precision": p,
            "recall": r, "f05": f}


@needs_real
@pytest.mark.parametrize("lang", ["ES", "FR", "IT"])
@pytest.mark.parametrize("gender,column,other", [("masculine", "m", "f"),
                                                 ("feminine", "f", "m")])
def test_real_corpus_oracle_and_unchanged_original(tmp_path, capsys, lang, gender, column,
                                                   other):
    path = REAL / lang / f"{lang}_2_variants.tsv"
    rows = gateeval_reference(path)
    base = ["--reference", str(path), "--gender", gender]
    # a rewriter returning the reference: 1.0 everywhere
    oracle = tmp_path / "oracle.txt"
    oracle.write_text("".join(r[column] + "\n" for r in rows), encoding="utf-8")
    out = run_cli(capsys, *base, "--hyp", str(oracle))
    # every category (the signature is the JSON's one string)
    categories = {k: v for k, v in out.items() if k != "signature"}
    assert categories and all(
        v["precision"] == v["recall"] == v["f05"] == 1.0 for v in categories.values())
    assert out["overall"]["count"] == len(rows)
    # a rewriter returning the original (the other gender's translation): matches exactly
    # where the data's two variants are the same
    keep = tmp_path / "keep.txt"
    keep.write_text("".join(r[other] + "\n" for r in rows), encoding="utf-8")
    out = run_cli(capsys, *base, "--hyp", str(keep))
    expected = expected_overall(rows, [r[other] for r in rows], column)
    overall = out["overall"]
    # the unchanged originals are in the target language: clean (issue 48's added keys)
    assert overall.pop("clean_share") == 1.0 and overall.pop("low_quality") is False
    assert overall == pytest.approx(expected)
    per_label = {}
    for r in rows:
        for label in set(r["labels"].strip().split(";")):
            per_label.setdefault(label, []).append(r)
    assert set(out) - {"overall", "signature"} == set(per_label)
    for label, subset in per_label.items():
        assert out[label] == pytest.approx(expected_overall(subset, [r[other] for r in subset],
                                                            column)), label


@needs_real
def test_real_es_quoted_fields_read_as_gateeval_reads_them():
    path = REAL / "ES" / "ES_2_variants.tsv"
    gateeval = load_variants(path)
    raw = load_variants(path, quoting="none")
    assert len(gateeval) == len(raw) == 1501
    differs = gateeval.index[(gateeval["f"] != raw["f"]) | (gateeval["source"] !=
                                                            raw["source"])].tolist()
    assert [gateeval.loc[i, "row"] for i in differs] == [364, 383, 1313]
    assert raw.loc[382, "f"].startswith('"') and not gateeval.loc[382, "f"].startswith('"')


@needs_real
def test_real_row_counts_and_json():
    expected = {"ES_2": 1501, "ES_4": 300, "ES_8": 23, "FR_2": 1550, "FR_4": 444,
                "IT_2": 1127, "IT_4": 518, "IT_8": 39}
    for name, count in expected.items():
        lang = name[:2]
        frame = load_variants(REAL / lang / f"{name}_variants.tsv")
        assert len(frame) == count
        assert frame["n_variants"].iat[0] == int(name[3:])
    items, problems = load_json(REAL / "ES" / "ES_compact.json")
    assert (items["n_variants"].value_counts().to_dict() == {2: 1501, 4: 300, 8: 23})
    assert len(problems) == 45


@needs_real
def test_score_gate_refuses_files_with_more_variants(tmp_path, capsys):
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("x\n", encoding="utf-8")
    assert main(["score", "gate", "--reference", str(REAL / "ES" / "ES_4_variants.tsv"),
                 "--hyp", str(hyp), "--gender", "feminine"]) == 2
    assert "2-variant" in capsys.readouterr().err


# ------------------------------------------------------------------- malformed files (issue 18)
def test_a_row_with_an_extra_tab_stops_the_load_naming_row_and_column(tmp_path):
    path = write_reference(tmp_path, ROWS)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[2] = lines[2] + "\textra"  # data row 2
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"ES_2_variants.tsv, row 2, column 'data_split': "
                                           r"9 tab-separated fields where the header has 8"):
        load_variants(path)
    lines[2] = "\t".join(lines[2].split("\t")[:5])  # too few
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"row 2, column 'kw_f': 5 tab-separated"):
        load_variants(path)


def test_an_unclosed_quote_stops_the_load_instead_of_swallowing_rows(tmp_path):
    rows = list(ROWS)
    rows[1] = (rows[1][0], rows[1][1], '"Ella A.', rows[1][3])
    rows[3] = (rows[3][0], rows[3][1], 'Las "vi".', rows[3][3])  # closes the quote
    path = write_reference(tmp_path, rows)
    with pytest.raises(DatasetError, match=r"row 2, column 'f': a field that starts with"):
        load_variants(path)
    # as published (no quoting) the same file reads every row
    assert len(load_variants(path, quoting="none")) == 4


def test_a_header_only_file_is_an_error_and_blank_lines_count_in_row_numbers(tmp_path):
    path = tmp_path / "ES_2_variants.tsv"
    path.write_text(HEADER + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="a header and no data rows"):
        load_variants(path)
    path = write_reference(tmp_path, ROWS)
    text = path.read_text(encoding="utf-8").replace("\n", "\n\n", 1)  # blank line 2
    path.write_text("\ufeff" + text, encoding="utf-8")  # and a BOM before the header
    frame = load_variants(path)
    assert frame["row"].tolist() == [2, 3, 4, 5]
    assert frame["labels"].iat[0] == "SUBJ;PROF"


def test_huge_fields_and_non_utf8_files_are_named(tmp_path):
    rows = list(ROWS)
    rows[0] = (rows[0][0], "x" * 200_000, rows[0][2], rows[0][3])
    assert len(load_variants(write_reference(tmp_path, rows))["source"].iat[0]) == 200_000
    path = tmp_path / "ES_2_variants.tsv"
    path.write_bytes(HEADER.encode() + b"\nA\tb\xe9\tc\td\tx\tx\tx\tdev\n")
    with pytest.raises(DatasetError, match=r"ES_2_variants.tsv: not UTF-8 text: byte 0xe9 "
                                           r"on line 2"):
        load_variants(path)
