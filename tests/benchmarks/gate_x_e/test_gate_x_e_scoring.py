"""GATE X-E scoring (Table 2, §5.3's relaxed score, Table 6) and `gendermt score gate-x-e`,
on the shipped sample and on the real Turkish file."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from gendermt.benchmarks.gate_x_e.data import extract, load_instances
from gendermt.benchmarks.gate_x_e.metric import (
    accuracy_long,
    mark,
    rewrites_from_answers,
    rewriting_quality,
    table2,
)
from gendermt.cli import main

from ...conftest import ROOT

SAMPLE = ROOT / "resources" / "gate-x-e" / "data" / "turkish" / "meta_input" / \
    "GATE_data_tur.txt"
REAL = ROOT.parent / "shared" / "data" / "gate-x-e" / "turkish" / "meta_input" / \
    "GATE_data_tur.txt"


@pytest.fixture(scope="module")
def sample():
    return extract(load_instances(SAMPLE))


def cell(long: pd.DataFrame, subtype: str, original: str, requested: str) -> pd.Series:
    row = long[(long.subtype == subtype) & (long.original == original)
               & (long.requested == requested)]
    assert len(row) == 1
    return row.iloc[0]


def test_oracle_answers_score_one_and_none_answers_score_negatives(sample):
    items, tuples = sample
    oracle = mark(rewrites_from_answers(tuples, dict(zip(items.item_id,
                                                         items.oracle_output, strict=True))))
    assert oracle["match"].all()
    keep = mark(rewrites_from_answers(tuples, dict.fromkeys(items.item_id, "None")))
    long = accuracy_long(keep)
    positive = long[long.original != "Negative"]
    assert (positive["accuracy"] == 0).all()
    assert (long[long.original == "Negative"]["accuracy"] == 1).all()
    assert cell(long, "Overall", "Negative", "Gender")["n"] == 3  # instances, not tuples


def test_negative_gender_needs_both_variants_and_relaxed_neutral(sample):
    items, tuples = sample
    raws = dict.fromkeys(items.item_id, "None")
    # tr-0001: feminine kept, masculine changed; neutral = the all-neutral form
    raws["tr-0001-neg"] = ("Neutral: My mother read their book.\nFeminine: My mother read her "
                           "book.\nMasculine: My mother read his book.")
    long = accuracy_long(mark(rewrites_from_answers(tuples, raws)))
    assert cell(long, "Overall", "Negative", "Gender")["correct"] == 2
    assert cell(long, "Overall", "Negative", "Neut")["correct"] == 2
    assert cell(long, "Overall", "Negative", "Neut (relaxed)")["correct"] == 3


def test_table2_layout(sample):
    items, tuples = sample
    scored = mark(rewrites_from_answers(tuples, dict(zip(items.item_id, items.oracle_output,
                                                         strict=True))))
    wide = table2(accuracy_long(scored))
    assert list(wide.columns[:2]) == ["language", "subtype"]
    assert list(wide["subtype"]) == ["Overall", "Pronoun-Only", "Gendered-Noun"]
    assert "Mixed Orig → Neut" in wide.columns and "Negative → Neut (relaxed)" in wide.columns
    quality = rewriting_quality(scored).iloc[0]
    assert quality["neutral_accuracy"] == 100.0 and quality["neutral_wer"] == 0.0


def test_unparseable_answer_is_wrong_not_an_error(sample):
    items, tuples = sample
    raws = dict(zip(items.item_id, items.oracle_output, strict=True))
    raws["tr-0003-f"] = "I am not sure what you mean."
    scored = mark(rewrites_from_answers(tuples, raws))
    assert not scored.loc[scored.item_id == "tr-0003-f", "match"].any()
    assert set(scored.loc[scored.item_id == "tr-0003-f", "answer"]) == {"unparsed"}


def test_cli_scores_a_rewrites_table(tmp_path, capsys, sample):
    tuples_csv = tmp_path / "tuples.csv"
    assert main(["score", "gate-x-e", "--data", str(SAMPLE), "--write-tuples",
                 str(tuples_csv)]) == 0
    tuples = pd.read_csv(tuples_csv, keep_default_na=False)
    assert len(tuples) == len(sample[1])
    rewrites = tuples[["tuple_id"]].assign(rewrite=tuples["reference"])
    rewrites.loc[rewrites.tuple_id == "tr-0003-f-m", "rewrite"] = "wrong"
    path = tmp_path / "rewrites.jsonl"
    rewrites.to_json(path, orient="records", lines=True, force_ascii=False)
    assert main(["score", "gate-x-e", "--data", str(SAMPLE), "--rewrites", str(path),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"language", "tuples", "correct", "accuracy", "n", "signature",
                        "clean_share", "low_quality"}
    # English rewrites: clean (issue 48's added keys); the source itself is not
    assert out["clean_share"] == 1.0 and out["low_quality"] is False
    assert out["signature"].startswith("name:gate-x-e-accuracy|version:")
    assert out["language"] == "tr" and out["tuples"] == len(tuples)
    assert out["correct"] == len(tuples) - 1
    assert set(out["accuracy"]) == {"Overall", "Pronoun-Only", "Gendered-Noun"}
    assert out["accuracy"]["Overall"]["Negative"] == {"Gender": 1.0, "Neut": 1.0,
                                                      "Neut (relaxed)": 1.0}
    assert out["n"]["Pronoun-Only"]["Fem Orig"]["M"] == 6
    assert out["accuracy"]["Pronoun-Only"]["Fem Orig"]["M"] == pytest.approx(5 / 6)
    tuples[["tuple_id"]].assign(rewrite=tuples["source"]).to_json(
        path, orient="records", lines=True, force_ascii=False)
    assert main(["score", "gate-x-e", "--data", str(SAMPLE), "--rewrites", str(path),
                 "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["clean_share"] == 0.0 and out["low_quality"] is True
    assert captured.err.count("warning:") == 1 and "untranslated" in captured.err


def test_cli_names_missing_and_unknown_tuples(tmp_path, capsys):
    path = tmp_path / "rewrites.csv"
    pd.DataFrame({"tuple_id": ["tr-0003-f-m"], "rewrite": ["He runs every morning."]}
                 ).to_csv(path, index=False)
    assert main(["score", "gate-x-e", "--data", str(SAMPLE), "--rewrites", str(path)]) == 2
    assert "no rewrite for" in capsys.readouterr().err
    pd.DataFrame({"tuple_id": ["nope"], "rewrite": ["x"]}).to_csv(path, index=False)
    assert main(["score", "gate-x-e", "--data", str(SAMPLE), "--rewrites", str(path)]) == 2
    assert "not in the data" in capsys.readouterr().err
    pd.DataFrame({"id": ["x"]}).to_csv(path, index=False)
    assert main(["score", "gate-x-e", "--data", str(SAMPLE), "--rewrites", str(path)]) == 2
    assert "no column 'tuple_id'" in capsys.readouterr().err


@pytest.mark.skipif(not REAL.exists(), reason="../shared/data/gate-x-e not here")
def test_cli_on_the_real_turkish_file(tmp_path, capsys):
    tuples_path = tmp_path / "tuples.parquet"
    assert main(["score", "gate-x-e", "--data", str(REAL), "--write-tuples",
                 str(tuples_path)]) == 0
    tuples = pd.read_parquet(tuples_path)
    # a rewriter that keeps the original: right on every negative, wrong on every positive
    # tuple except where the data's variants coincide
    path = tmp_path / "keep.parquet"
    tuples[["tuple_id"]].assign(rewrite=tuples["original"]).to_parquet(path)
    assert main(["score", "gate-x-e", "--data", str(REAL), "--rewrites", str(path),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = int((tuples["original"].str.strip() == tuples["reference"].str.strip()).sum())
    assert out["correct"] == expected
    assert out["accuracy"]["Overall"]["Negative"]["Gender"] == 1.0
    assert out["n"]["Overall"]["Negative"]["Gender"] == 300
    assert out["accuracy"]["Pronoun-Only"]["Fem Orig"]["M"] == 0.0


def test_cli_reads_none_as_keep_the_original_and_prints_dashes(tmp_path, capsys, sample):
    tuples = sample[1]
    # "None" everywhere: what the workflow reads as keep-the-original
    path = tmp_path / "none.csv"
    tuples[["tuple_id"]].assign(rewrite="None").to_csv(path, index=False)
    assert main(["score", "gate-x-e", "--data", str(SAMPLE), "--rewrites", str(path),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    keep = mark(rewrites_from_answers(tuples, dict.fromkeys(tuples.item_id, "None")))
    assert out["correct"] == int(keep["match"].sum()) > 0
    assert out["accuracy"]["Overall"]["Negative"]["Gender"] == 1.0
    # the text table: cells with no tuple are "-", never nan
    assert main(["score", "gate-x-e", "--data", str(SAMPLE), "--rewrites", str(path)]) == 0
    text = capsys.readouterr().out
    assert "nan" not in text.lower() and " - " in text


def test_table_markdown_prints_dashes_for_empty_cells():
    from gendermt.benchmarks.gate_x_e.tables import _markdown

    frame = pd.DataFrame({"a": ["x", "y"], "b": [0.5, float("nan")]})
    text = _markdown(frame, "t")
    assert "nan" not in text and "0.50" in text and "| -" in text


def test_accuracy_figure_tells_an_empty_cell_from_a_zero_and_shows_n():
    import matplotlib.pyplot as plt

    from gendermt.benchmarks.gate_x_e.figures import accuracy_figure

    frame = pd.DataFrame([
        {"system": "s", "prompt": "p", "language": "tr", "subtype": "Overall",
         "original": "Fem Orig", "requested": "M", "n": 7, "correct": 0, "accuracy": 0.0},
        {"system": "s", "prompt": "p", "language": "tr", "subtype": "Overall",
         "original": "Negative", "requested": "Gender", "n": 3, "correct": 3,
         "accuracy": 1.0},
    ])
    fig = accuracy_figure(frame)
    # the first axes is the runs' headline accuracy; then the grid's panels
    assert fig.axes[0].get_title(loc="left").startswith("headline: rewriting accuracy")
    ax = next(a for a in fig.axes if a.get_title().startswith("tr · s · p"))
    texts = [t.get_text() for t in ax.texts]
    assert "7" in texts and "3" in texts
    # 10 columns × 3 subtypes, 2 measured: 28 cells say "–"
    assert texts.count("–") == 28
    # the measured zero has an outline bar on the axis (unfilled patch)
    assert any(not p.get_fill() for p in ax.patches)
    plt.close(fig)


def test_gpt35_templates_render_the_translation_only():
    from gendermt.benchmarks.gate_x_e.inputs import render
    from gendermt.config.templates import load_templates

    templates = load_templates(ROOT / "src/gendermt/benchmarks/gate_x_e/prompts/rewrite.yaml")
    zero, few = templates["gpt35_zero_shot"], templates["gpt35_few_shot"]
    assert zero["answer"] == few["answer"] == "neutral" and zero["version"] == 1
    assert "answer" not in templates["step_by_step"]
    messages = render(few, "Onu gördüm.", "I saw him.", "tr")
    text = messages[-1]["content"]
    assert text.endswith("Text: I saw him.\nRewrite:") and "Onu" not in text
    assert text.count("Rewrite:") == 6  # five examples and the task
    assert render(zero, "Onu gördüm.", "I saw him.", "tr")[-1]["content"].count(
        "Rewrite:") == 1


def test_neutral_answers_make_the_gendered_rewrites_by_rule(sample):
    from gendermt.benchmarks.gate_x_e.neutral_answers import (
        neutral_of,
        rewrites_from_neutral_answers,
    )

    assert neutral_of("Rewrite: They saw them.") == "They saw them."
    assert neutral_of("\"They saw them.\"") == "They saw them."
    assert neutral_of("None") is None and neutral_of("") == ""
    assert neutral_of("Neutral: A\nFeminine: B\nMasculine: C") == "A"
    items, tuples = sample
    pronoun = tuples[(tuples["category"] == "Pronoun-Only")
                     & (tuples["original_gender"] == "feminine")]
    # a perfect neutral rewriter: its answers are the neutral references
    neutral_refs = {r.item_id: r.reference for r in pronoun.itertuples(index=False)
                    if r.requested_gender == "neutral"}
    raws = dict.fromkeys(tuples["item_id"], "None") | neutral_refs
    scored = mark(rewrites_from_neutral_answers(tuples, raws))
    mine = scored[scored["item_id"].isin(neutral_refs)]
    assert mine[mine["requested_gender"] == "neutral"]["match"].all()
    # the masculine rewrites come from the feminine originals by rule
    masc = mine[mine["requested_gender"] == "masculine"]
    assert masc["match"].mean() > 0.8
    assert set(scored["answer"]) == {"none", "complete"}


def test_answer_statuses_tell_unreadable_from_wrong(tmp_path, sample):
    """The trial's 46/46 "incomplete" answers were cut off at 64 tokens: the status says so,
    and the answer table counts each status per run."""
    from gendermt.benchmarks.gate_x_e.parse import answer_status
    from gendermt.benchmarks.gate_x_e.tables import answer_table

    assert answer_status("") == "empty"
    assert answer_status("None") == "none"
    assert answer_status("I'm sorry, I cannot help with that.") == "refused"
    assert answer_status("Step 1: the sentence has a pronoun, so") == "unparsed"
    assert answer_status("Step 1: the sentence has a pronoun, so", finish_reason="length") \
        == "cut off"
    assert answer_status("Neutral: They are here.\nFeminine: She is here.") == "incomplete"
    items, tuples = sample
    raws = dict(zip(items.item_id, items.oracle_output, strict=True))
    first, second = list(raws)[:2]
    raws[first] = "Let me think step by step about the"
    raws[second] = "I cannot rewrite this."
    scored = mark(rewrites_from_answers(tuples, raws, {first: "length"}))
    path = tmp_path / "rewrites" / "llm" / "step_by_step.parquet"
    path.parent.mkdir(parents=True)
    scored.to_parquet(path)
    row = answer_table([{"system": "llm", "prompt": "step_by_step", "path": path}]).iloc[0]
    assert (row["system"], row["prompt"], row["requests"]) == ("llm", "step_by_step", len(raws))
    assert row["cut off"] == 1 and row["refused"] == 1
    assert row["complete"] + row["none"] == len(raws) - 2
    assert row["read_share"] == pytest.approx((len(raws) - 2) / len(raws))
