"""Scores equal sacrebleu's own command line on the same files."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from gendermt.core.errors import GenderMTError
from gendermt.data.io import write_jsonl
from gendermt.scoring.sacrebleu_metrics import corpus_score, sentence_scores
from gendermt.scoring.score import score_file

SACREBLEU = shutil.which("sacrebleu", path=str(Path(sys.executable).parent)) or "sacrebleu"


def sacrebleu_cli(ref: Path, hyp: Path, *args: str) -> str:
    return subprocess.run([SACREBLEU, str(ref), "-i", str(hyp), "-w", "6", *args],
                          check=True, capture_output=True, text=True).stdout


@pytest.fixture
def files(tmp_path, sample_data):
    """A plausible system: the male reference everywhere (wrong gender on 2/3 of rows)."""
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("\n".join(sample_data["reference"]) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(sample_data["ref_male"]) + "\n", encoding="utf-8")
    return ref, hyp, list(sample_data["ref_male"]), list(sample_data["reference"])


def test_corpus_scores_match_the_command_line(files):
    ref, hyp, hyps, refs = files
    cli = {m["name"]: m for m in json.loads(sacrebleu_cli(ref, hyp, "-m", "bleu", "chrf"))}
    bleu, chrf = corpus_score("bleu", hyps, refs), corpus_score("chrf", hyps, refs)
    assert bleu.score == pytest.approx(cli["BLEU"]["score"], abs=1e-6)
    assert chrf.score == pytest.approx(cli["chrF2"]["score"], abs=1e-6)
    assert bleu.signature == cli["BLEU"]["signature"]
    assert chrf.signature == cli["chrF2"]["signature"]
    assert 0 < bleu.score < 100


@pytest.mark.parametrize("metric, flag", [("bleu", "bleu"), ("chrf", "chrf")])
def test_sentence_scores_match_the_command_line(files, metric, flag):
    ref, hyp, hyps, refs = files
    lines = sacrebleu_cli(ref, hyp, "-m", flag, "--sentence-level").splitlines()
    expected = [float(line.split(" = ")[1].split()[0]) for line in lines]
    scores, signature = sentence_scores(metric, hyps, refs)
    assert scores == pytest.approx(expected, abs=1e-6)
    assert signature == lines[0].split(" = ")[0].split("|", 1)[1]


def test_tokenizer_option_reaches_sacrebleu(files):
    ref, hyp, hyps, refs = files
    cli = json.loads(sacrebleu_cli(ref, hyp, "-m", "bleu", "-tok", "intl"))
    ours = corpus_score("bleu", hyps, refs, {"tokenize": "intl"})
    assert ours.score == pytest.approx(cli["score"], abs=1e-6)
    assert "tok:intl" in ours.signature


@pytest.mark.parametrize("metric, options", [
    ("bleu", {"tokenize": "13a"}), ("bleu", {"tokenize": "char", "lowercase": True}),
    ("chrf", {}), ("chrf", {"word_order": 2}), ("ter", {}), ("ter", {"case_sensitive": True}),
    ("bleu_nltk_m4", None)])
def test_grouped_corpus_scores_equal_one_corpus_score_per_group(files, metric, options):
    """Each group's score from the segments' statistics extracted once equals sacrebleu's
    corpus_score of that group alone, to the bit: overlapping groups, every segment, one."""
    from gendermt.scoring.metrics import corpus_score as any_corpus_score
    from gendermt.scoring.metrics import corpus_scores

    _, _, hyps, refs = files
    n = len(hyps)
    groups = [list(range(n)), list(range(0, n, 2)), list(range(1, n, 3)), [n - 1]]
    scored = corpus_scores(metric, hyps, refs, groups, options)
    for group, score in zip(groups, scored, strict=True):
        alone = any_corpus_score(metric, [hyps[i] for i in group], [refs[i] for i in group],
                                 options)
        assert (score.score, score.signature) == (alone.score, alone.signature)


def test_sacrebleu_still_has_what_grouped_scores_use():
    """corpus_scores falls back to one corpus_score per group without these (right, slower):
    this fails if sacrebleu renames them."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    for cls in (BLEU, CHRF, TER):
        for name in ("_check_corpus_score_args", "_extract_corpus_statistics",
                     "_aggregate_and_compute"):
            assert callable(getattr(cls, name, None)), (cls.__name__, name)


def test_length_mismatch_and_unknown_metric():
    with pytest.raises(GenderMTError, match="2 hypotheses but 1 references"):
        corpus_score("bleu", ["a", "b"], ["a"])
    with pytest.raises(GenderMTError, match="unknown metric 'meteor'"):
        sentence_scores("meteor", ["a"], ["a"])


def test_score_file_per_item_and_per_gender(tmp_path, sample_data):
    data = tmp_path / "data.parquet"
    sample_data.to_parquet(data)
    translations = tmp_path / "t.jsonl"
    write_jsonl(translations, ({"item_id": r.item_id, "raw": r.ref_female,
                                "hypothesis": r.ref_female} for r in sample_data.itertuples()))
    score_file(translations, data, tmp_path / "s.parquet", tmp_path / "s.json", ["bleu", "chrf"],
               {"bleu": {"tokenize": "13a"}}, ["gender"])
    scores = pd.read_parquet(tmp_path / "s.parquet")
    assert list(scores.columns) == ["item_id", "metric", "score", "signature"]
    assert len(scores) == 2 * len(sample_data)
    female = set(sample_data.loc[sample_data["gender"] == "female", "item_id"])
    bleu = scores[scores["metric"] == "bleu"]
    assert bleu[bleu["item_id"].isin(female)]["score"].tolist() == pytest.approx([100.0] * 18)
    assert (bleu[~bleu["item_id"].isin(female)]["score"] < 99.9).all()
    summary = json.loads((tmp_path / "s.json").read_text())["metrics"]
    assert summary["bleu"]["corpus"]["female"] == pytest.approx(100)
    assert summary["bleu"]["corpus"]["male"] < 100
    assert summary["bleu"]["n"] == {"all": 54, "female": 18, "male": 18, "inclusive": 18}
    male = sample_data[sample_data["gender"] == "male"]
    assert summary["bleu"]["corpus"]["male"] == pytest.approx(
        corpus_score("bleu", male["ref_female"], male["reference"]).score)
    assert summary["bleu"]["signature"].startswith("nrefs:1|case:mixed|eff:no|tok:13a")
    assert summary["bleu"]["sentence_signature"].startswith("nrefs:1|case:mixed|eff:yes")


def test_score_file_refuses_missing_items(tmp_path, sample_data):
    data = tmp_path / "data.parquet"
    sample_data.to_parquet(data)
    translations = tmp_path / "t.jsonl"
    write_jsonl(translations, ({"item_id": r.item_id, "hypothesis": r.source}
                               for r in sample_data.head(50).itertuples()))
    with pytest.raises(GenderMTError, match="4 of 54 items have no hypothesis"):
        score_file(translations, data, tmp_path / "s.parquet", tmp_path / "s.json", ["bleu"])
    assert not (tmp_path / "s.parquet").exists()


def test_hypothesis_normalisation_is_a_scoring_option_in_the_signature(tmp_path, sample_data):
    """The authors' non_binary_standardization before scoring: the hypotheses are rewritten
    (never the references), the stored outputs are not, and every signature says so."""
    from gendermt.benchmarks.fairtranslate.authors import non_binary_standardization
    from gendermt.scoring import nltk_bleu

    data = tmp_path / "data.parquet"
    sample_data.to_parquet(data)
    row = sample_data[sample_data["gender"] == "inclusive"].iloc[0]
    # an inclusive reference written with middle dots and "il ou elle": the authors'
    # normaliser turns it back towards the reference's spelling
    hyp = row.reference.replace(".", "·").replace("Iel ", "Il ou elle ")
    assert non_binary_standardization(hyp) != hyp
    translations = tmp_path / "t.jsonl"
    write_jsonl(translations, [{"item_id": r.item_id, "raw": r.source,
                                "hypothesis": hyp if r.item_id == row.item_id else r.source}
                               for r in sample_data.itertuples()])
    runs = {}
    for name in (None, "non_binary_standardization"):
        out = tmp_path / f"{name}.parquet"
        score_file(translations, data, out, out.with_suffix(".json"), ["bleu_nltk_m4", "chrf"],
                   normalize=name)
        runs[name] = (pd.read_parquet(out), json.loads(out.with_suffix(".json").read_text()))
    plain, normed = runs[None], runs["non_binary_standardization"]
    one = {k: s[(s["item_id"] == row.item_id) & (s["metric"] == "bleu_nltk_m4")]["score"].item()
           for k, (s, _) in runs.items()}
    assert one["non_binary_standardization"] == pytest.approx(nltk_bleu.sentence_bleu_m4(
        non_binary_standardization(hyp), row.reference))
    assert one["non_binary_standardization"] != pytest.approx(one[None])
    for metric in ("bleu_nltk_m4", "chrf"):
        assert normed[1]["metrics"][metric]["signature"].endswith(
            "|hyp:non_binary_standardization")
        assert normed[1]["metrics"][metric]["sentence_signature"].endswith(
            "|hyp:non_binary_standardization")
        assert "|hyp:" not in plain[1]["metrics"][metric]["signature"]
    assert set(normed[0]["signature"].str.endswith("|hyp:non_binary_standardization")) == {True}
    assert normed[1]["hypothesis_normalization"] == "non_binary_standardization"
    with pytest.raises(GenderMTError, match="unknown hypothesis normaliser"):
        score_file(translations, data, tmp_path / "x.parquet", tmp_path / "x.json", ["chrf"],
                   normalize="lowercase")


def test_score_file_as_a_job_never_imports_pandas(tmp_path, sample_data):
    # the score job reads and writes Parquet with pyarrow alone: pandas was half its CPU
    data = tmp_path / "data.parquet"
    sample_data.to_parquet(data)
    translations = tmp_path / "t.jsonl"
    write_jsonl(translations, ({"item_id": r.item_id, "hypothesis": r.ref_male}
                               for r in sample_data.itertuples()))
    code = ("import sys\nfrom gendermt.scoring.score import score_file\n"
            f"score_file({str(translations)!r}, {str(data)!r}, {str(tmp_path / 's.parquet')!r}, "
            f"{str(tmp_path / 's.json')!r}, ['bleu', 'chrf'], None, ['gender'])\n"
            "assert 'pandas' not in sys.modules, 'pandas was imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True)
    scores = pd.read_parquet(tmp_path / "s.parquet")
    assert len(scores) == 2 * len(sample_data)
    assert scores["item_id"].tolist() == list(sample_data["item_id"]) * 2


def test_score_file_refuses_an_item_translated_twice(tmp_path, sample_data):
    data = tmp_path / "data.parquet"
    sample_data.to_parquet(data)
    translations = tmp_path / "t.jsonl"
    first = sample_data.iloc[0]
    write_jsonl(translations, [*({"item_id": r.item_id, "hypothesis": r.source}
                                 for r in sample_data.itertuples()),
                               {"item_id": first.item_id, "hypothesis": "again"}])
    with pytest.raises(GenderMTError, match=f"item '{first.item_id}' appears twice"):
        score_file(translations, data, tmp_path / "s.parquet", tmp_path / "s.json", ["bleu"])


def test_arrow_arrays_equal_pyarrows_own_conversion():
    import pyarrow as pa

    from gendermt.data.arrow_arrays import floats, strings

    text = ["", "médecin", "l'infirmière · iel", "x" * 300]
    assert strings(text).equals(pa.array(text, type=pa.large_string()))
    assert strings([]).equals(pa.array([], type=pa.large_string()))
    values = [1.5, float("nan"), None, -0.0, 100.0]
    assert floats(values).equals(pa.array(values, type=pa.float64(), from_pandas=True))
    assert floats(values).null_count == 2
    assert floats([2.0, 3.0]).equals(pa.array([2.0, 3.0]))
