"""MT-GenEval: the loader on the published layout, and the accuracy against an independent
implementation of the official scorer's rules on perturbed outputs."""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path

import pandas as pd
import pytest

from gendermt.benchmarks.mt_geneval import LANGUAGES
from gendermt.benchmarks.mt_geneval.data import (
    load_contextual,
    load_counterfactual,
    read_segments,
    strip_tags,
    tagged_words,
)
from gendermt.benchmarks.mt_geneval.evaluate import (
    evaluate_contextual,
    evaluate_counterfactual,
    summarise,
)
from gendermt.cli import main
from gendermt.core.errors import DatasetError, MissingResourceError

ROOT = Path(__file__).resolve().parents[3]
MTGENEVAL = ROOT.parent / "shared" / "data" / "mt-geneval"
needs_data = pytest.mark.skipif(not MTGENEVAL.is_dir(),
                                reason="the shared MT-GenEval data is not beside the clone")

_PUNCT = re.compile("[" + re.escape(string.punctuation) + "]")


def official_decisions(hyp_file: Path, ref_file: Path, ctf_file: Path) -> list[bool]:
    """The official rules, written independently: files read as the scorer reads them (text
    mode, line by line), ASCII punctuation to spaces after lower-casing, word sets."""
    def lines(path):
        with open(path, encoding="utf-8") as fh:
            return [_PUNCT.sub(" ", line.lower()).split() for line in fh]
    out = []
    for hyp, ref, ctf in zip(lines(hyp_file), lines(ref_file), lines(ctf_file), strict=True):
        hyp, ref, ctf = set(hyp), set(ref), set(ctf)
        out.append(not any(w in hyp for w in ctf if w not in ref))
    return out


def perturb(ours: str, other: str, rng: random.Random) -> str:
    """Outputs a real system might give: the right reference with words from the other gender's
    reference swapped in, words dropped, case and punctuation changed."""
    words, theirs = ours.split(), other.split()
    kind = rng.randrange(6)
    if kind == 0 and theirs:
        words.insert(rng.randrange(len(words) + 1), rng.choice(theirs))
    elif kind == 1 and words:
        del words[rng.randrange(len(words))]
    elif kind == 2:
        words = [w.upper() if rng.random() < 0.3 else w for w in words]
    elif kind == 3:
        words = [w + rng.choice(",.;!?\"'") if rng.random() < 0.3 else w for w in words]
    elif kind == 4:
        return other
    return " ".join(words)


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@needs_data
@pytest.mark.parametrize("lang", LANGUAGES)
def test_counterfactual_equals_official_rules_on_perturbed_outputs(lang, tmp_path):
    data = load_counterfactual(MTGENEVAL, lang, "dev")
    assert len(data) == 1200
    rng = random.Random(lang)
    hyps = {g: [perturb(a, b, rng)
                for a, b in zip(data[f"reference_{g}"], data[f"reference_{o}"], strict=True)]
            for g, o in (("masculine", "feminine"), ("feminine", "masculine"))}
    items = evaluate_counterfactual(data, hyps["masculine"], hyps["feminine"])
    folder = MTGENEVAL / "data" / "sentences" / "dev"
    ref = {g: folder / f"geneval-sentences-{g}-dev.en_{lang}.{lang}" for g in hyps}
    expected = {g: official_decisions(write(tmp_path / g, hyps[g]), ref[g], ref[o])
                for g, o in (("masculine", "feminine"), ("feminine", "masculine"))}
    assert items["correct_masculine"].tolist() == expected["masculine"]
    assert items["correct_feminine"].tolist() == expected["feminine"]
    both = [m and f for m, f in zip(expected["masculine"], expected["feminine"], strict=True)]
    summary = summarise(items)
    assert summary["accuracy"] == sum(both) / len(both)
    assert 0 < summary["accuracy"] < 1  # the perturbations make some outputs wrong, not all
    assert summary["accuracy_masculine"] == sum(expected["masculine"]) / 1200


@needs_data
@pytest.mark.parametrize("lang", ["de", "hi", "ru"])
def test_contextual_equals_official_rules_on_perturbed_outputs(lang, tmp_path):
    data = load_contextual(MTGENEVAL, lang, "test")
    rng = random.Random(lang)
    hyps = [perturb(a, b, rng)
            for a, b in zip(data["reference"], data["reference_flipped"], strict=True)]
    items = evaluate_contextual(data, hyps)
    folder = MTGENEVAL / "data" / "context"
    expected = official_decisions(
        write(tmp_path / "hyp", hyps),
        folder / f"geneval-context-wikiprofessions-original-test.en_{lang}.{lang}",
        folder / f"geneval-context-wikiprofessions-flipped-test.en_{lang}.{lang}")
    assert items["correct"].tolist() == expected
    assert 0 < summarise(items)["accuracy"] < 1


def test_decisions_name_the_words():
    from gendermt.benchmarks.mt_geneval.metric import decide

    d = decide("Elle est infirmière.", "Elle est infirmière.", "Il est infirmier.")
    assert d.correct and d.correct_words == {"elle", "infirmière"} and not d.incorrect_words
    d = decide("IL est infirmière!", "Elle est infirmière.", "Il est infirmier.")
    assert not d.correct and d.incorrect_words == {"il"}
    # no word of either reference: correct, as the official scorer counts it
    assert decide("Bonjour.", "Elle est là.", "Il est là.").correct


@needs_data
def test_loader_reads_every_language_and_the_annotations():
    for lang in LANGUAGES:
        for split, n in (("dev", 1200), ("test", 300)):
            frame = load_counterfactual(MTGENEVAL / "data", lang, split)
            assert len(frame) == n and frame["item_id"].is_unique
        ctx = load_contextual(MTGENEVAL, lang, "test")
        assert (ctx["source"].str.len() > 0).all()
        # a published quirk: a few lines have nothing before '<sep>' (1-9 per file)
        assert 0 < (ctx["context"] == "").sum() < 10
    frame = load_counterfactual(MTGENEVAL, "fr", "test")
    marked = frame.loc[0, "annotated_reference_feminine"]
    assert ("F", "elle") in tagged_words(marked)
    assert strip_tags(marked) == frame.loc[0, "reference_feminine"]


def _layout(root: Path, n: int = 2, lang: str = "fr") -> Path:
    sent = root / "data" / "sentences" / "test"
    sent.mkdir(parents=True)
    for g in ("masculine", "feminine"):
        write(sent / f"geneval-sentences-{g}-test.en_{lang}.en", [f"{g} {i}" for i in range(n)])
        write(sent / f"geneval-sentences-{g}-test.en_{lang}.{lang}", [f"{g} {i}" for i in range(n)])
    ctx = root / "data" / "context"
    ctx.mkdir(parents=True)
    write(ctx / f"geneval-context-wikiprofessions-2to1-test.en_{lang}.en",
          [f"She works. <sep> The doctor {i}." for i in range(n)])
    for kind in ("original", "flipped"):
        write(ctx / f"geneval-context-wikiprofessions-{kind}-test.en_{lang}.{lang}",
              [f"{kind} {i}" for i in range(n)])
    return root


def test_loader_errors_name_file_and_line(tmp_path):
    root = _layout(tmp_path / "a")
    bad = root / "data" / "sentences" / "test" / "geneval-sentences-feminine-test.en_fr.fr"
    write(bad, ["only one line"])
    with pytest.raises(DatasetError, match="as many lines"):
        load_counterfactual(root, "fr", "test")
    bad.write_bytes(b"ok\n\xff\xfe\n")
    with pytest.raises(DatasetError, match=r"en_fr\.fr: not UTF-8 text: byte 0xff on line 2"):
        load_counterfactual(root, "fr", "test")
    bad.unlink()
    with pytest.raises(MissingResourceError, match="not found"):
        load_counterfactual(root, "fr", "test")
    src = root / "data" / "context" / "geneval-context-wikiprofessions-2to1-test.en_fr.en"
    write(src, ["a <sep> b", "no separator"])
    with pytest.raises(DatasetError, match=r"row 2: expected one '<sep>'"):
        load_contextual(root, "fr", "test")
    with pytest.raises(MissingResourceError, match="not MT-GenEval's data folder"):
        load_contextual(tmp_path, "fr", "test")


def test_segments_split_on_newline_only(tmp_path):
    path = tmp_path / "x"
    path.write_text("a\u2028b\nc\r\n\ufeff", encoding="utf-8")
    assert read_segments(path) == ["a\u2028b", "c", "\ufeff"]


def test_cli_json_items_and_errors(tmp_path, capsys, monkeypatch):
    import io

    root = _layout(tmp_path / "rel")
    hyp_m = write(tmp_path / "m.txt", ["masculine 0", "feminine 1"])
    hyp_f = write(tmp_path / "f.txt", ["feminine 0", "feminine 1"])
    items = tmp_path / "items.jsonl"
    assert main(["score", "mt-geneval", "--data", str(root), "--lang", "fr", "--split", "test",
                 "--set", "counterfactual", "--hyp-masculine", str(hyp_m), "--hyp-feminine",
                 str(hyp_f), "--items", str(items), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["accuracy"] == 0.5 and out["accuracy_masculine"] == 0.5
    assert out["accuracy_feminine"] == 1.0 and out["n"] == 2
    rows = [json.loads(line) for line in items.read_text().splitlines()]
    assert rows[1]["incorrect_words_masculine"] == "feminine" and rows[1]["correct"] is False
    monkeypatch.setattr("sys.stdin", io.StringIO("original 0\nflipped 1\n"))
    assert main(["score", "mt-geneval", "--data", str(root / "data"), "--lang", "fr",
                 "--split", "test", "--set", "contextual", "--hyp", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["accuracy"] == 0.5
    # wrong line count, wrong options: exit 2 with a message
    assert main(["score", "mt-geneval", "--data", str(root), "--lang", "fr", "--split", "test",
                 "--set", "contextual", "--hyp", str(write(tmp_path / "h", ["x"]))]) == 2
    assert "1 lines for the set's 2 items" in capsys.readouterr().err
    assert main(["score", "mt-geneval", "--data", str(root), "--lang", "fr", "--split", "test",
                 "--set", "counterfactual", "--hyp", str(hyp_m)]) == 2
    assert "--hyp-masculine and --hyp-feminine" in capsys.readouterr().err


SAMPLE = ROOT / "resources" / "mt-geneval"


def test_the_shipped_sample_is_in_the_published_layout():
    for lang in ("fr", "de", "es"):
        cf = load_counterfactual(SAMPLE, lang, "test")
        assert len(cf) == 6 and cf["annotated_reference_feminine"].str.contains("<F>").all()
        ctx = load_contextual(SAMPLE, lang, "test")
        assert len(ctx) == 6 and (ctx["context"] == "").sum() == 1
        # the right references are always correct, the flipped ones never (but where the two
        # references are the same)
        right = summarise(evaluate_contextual(ctx, ctx["reference"].tolist()))
        assert right["accuracy"] == 1.0
        same = (ctx["reference"] == ctx["reference_flipped"]).sum()
        wrong = summarise(evaluate_contextual(ctx, ctx["reference_flipped"].tolist()))
        assert wrong["accuracy"] == same / 6
        swapped = evaluate_counterfactual(cf, cf["reference_feminine"].tolist(),
                                          cf["reference_masculine"].tolist())
        assert summarise(swapped)["accuracy"] == 0.0


def test_build_sample_writes_the_shipped_files(tmp_path):
    import importlib.util
    import shutil

    copy = tmp_path / "mt-geneval"
    shutil.copy(SAMPLE / "build_sample.py", tmp_path / "build_sample.py")
    spec = importlib.util.spec_from_file_location("build_sample", tmp_path / "build_sample.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.HERE = copy
    module.main()
    for path in (SAMPLE / "data").rglob("*"):
        if path.is_file():
            assert (copy / path.relative_to(SAMPLE)).read_bytes() == path.read_bytes(), path


def test_segments_tables_and_figure_on_the_sample(tmp_path):
    from gendermt.benchmarks.mt_geneval.data import segments
    from gendermt.benchmarks.mt_geneval.evaluate import evaluate_segments
    from gendermt.benchmarks.mt_geneval.figures import accuracy_figure
    from gendermt.benchmarks.mt_geneval.tables import accuracy_table, paper_layout

    data = segments(SAMPLE, ["fr", "de"], "test", ["counterfactual", "contextual"])
    assert len(data) == 2 * (2 * 6 + 6) and data["item_id"].is_unique
    # an oracle that always answers in the masculine: every masculine segment right, every
    # feminine one wrong, so no counterfactual pair is correct
    masc = data["reference"].where(data["gender"] != "feminine", data["counterfactual_reference"])
    runs = []
    for name, hyps in (("oracle", data["reference"]), ("masculine", masc)):
        path = tmp_path / f"{name}.parquet"
        evaluate_segments(data, hyps.tolist()).to_parquet(path)
        runs.append({"system": name, "prompt": "baseline", "path": path})
    table = accuracy_table(runs)
    cf = table[(table["set"] == "counterfactual") & (table["system"] == "masculine")]
    assert cf["accuracy"].tolist() == [0.0, 0.0]
    assert cf["accuracy_masculine"].tolist() == [1.0, 1.0]
    assert cf["accuracy_gap"].tolist() == [1.0, 1.0] and cf["n"].tolist() == [6, 6]
    assert table.loc[table["system"] == "oracle", "accuracy"].eq(1.0).all()
    layout = paper_layout(table)
    assert list(layout.columns[:3]) == ["system", "prompt", "de contextual"]
    accuracy_figure(table, tmp_path / "f.png", tmp_path / "f.pdf")
    assert (tmp_path / "f.png").stat().st_size > 10_000


# ---------------------------------------------------------------- the workflow's stages
def _build(tmp_path, langs=("fr", "de"), sets=("counterfactual", "contextual")):
    from gendermt.benchmarks.mt_geneval.data import build, published_files

    files = published_files(SAMPLE, list(langs), "test", list(sets))
    build(files, list(langs), "test", list(sets), tmp_path / "data.parquet",
          tmp_path / "data.json")
    import pandas as pd
    return pd.read_parquet(tmp_path / "data.parquet")


def _run(tmp_path, data, name, hypotheses):
    from gendermt.benchmarks.mt_geneval.evaluate import score_run

    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps({"item_id": i, "hypothesis": h}) + "\n"
                            for i, h in zip(data["item_id"], hypotheses, strict=True)),
                    encoding="utf-8")
    out = {k: tmp_path / "items" / f"{name}.{k}" for k in ("parquet", "csv", "json")}
    score_run(path, tmp_path / "data.parquet", out["parquet"], out["csv"], out["json"],
              ["bleu", "chrf"])
    return {"system": name, "prompt": "baseline", "path": str(out["parquet"]),
            "summary": str(out["json"])}


def test_data_stage_writes_segments_and_provenance(tmp_path):
    data = _build(tmp_path)
    assert len(data) == 2 * (2 * 6 + 6) and data["item_id"].is_unique
    provenance = json.loads((tmp_path / "data.json").read_text(encoding="utf-8"))
    # 4 plain + 4 annotated counterfactual files and 3 contextual files per language
    assert len(provenance["files"]) == 2 * 11
    assert all(len(f["sha256"]) == 64 for f in provenance["files"])
    assert {(c["tgt_lang"], c["set"], c["items"]) for c in provenance["items"]} == {
        (lang, which, 6) for lang in ("fr", "de") for which in ("counterfactual", "contextual")}
    ctx = data[data["set"] == "contextual"].iloc[0]
    # the sentence alone is the source; the published line and its context are kept beside
    assert "<sep>" not in ctx["source"] and ctx["source_with_context"].endswith(ctx["source"])
    assert ctx["context"] and ctx["context"] in ctx["source_with_context"]


def test_data_stage_reads_only_the_configured_set(tmp_path):
    data = _build(tmp_path, langs=("es",), sets=("contextual",))
    assert set(data["set"]) == {"contextual"} and len(data) == 6


def test_inputs_show_the_context_and_ask_for_the_sentence_only(tmp_path):
    from gendermt.benchmarks.mt_geneval.inputs import build_inputs
    from gendermt.config.templates import load_templates

    _build(tmp_path)
    templates = load_templates(ROOT / "src/gendermt/benchmarks/mt_geneval/prompts/translate.yaml")
    build_inputs(tmp_path / "data.parquet", templates["baseline"],
                 templates["baseline_context"], tmp_path / "inputs.jsonl")
    records = [json.loads(line) for line in
               (tmp_path / "inputs.jsonl").read_text(encoding="utf-8").splitlines()]
    sentence = next(r for r in records if r["item_id"] == "de-test-cf-0001-f")
    user = sentence["messages"][-1]["content"]
    assert "to German" in user and user.endswith(sentence["source"])
    assert "Context" not in user and sentence["template"] == "baseline"
    ctx = next(r for r in records if r["item_id"].startswith("fr-test-ctx"))
    user = ctx["messages"][-1]["content"]
    assert ctx["template"] == "baseline_context" and "<sep>" not in user
    assert f"Sentence: {ctx['source']}" in user and "Context: " in user
    assert "to French" in user and "do not translate the context" in user


def test_inputs_without_a_context_template_fail_on_contextual_items(tmp_path):
    from gendermt.benchmarks.mt_geneval.inputs import build_inputs
    from gendermt.config.templates import load_templates

    _build(tmp_path)
    templates = load_templates(ROOT / "src/gendermt/benchmarks/mt_geneval/prompts/translate.yaml")
    with pytest.raises(ValueError, match="no _context template"):
        build_inputs(tmp_path / "data.parquet", templates["baseline"], None,
                     tmp_path / "inputs.jsonl")


def test_score_run_oracles_score_one_and_zero(tmp_path):
    data = _build(tmp_path)
    right = json.loads(Path(_run(tmp_path, data, "right", data["reference"])["summary"])
                       .read_text(encoding="utf-8"))
    assert all(r["accuracy"] == 1.0 for r in right["accuracy"])
    wrong = _run(tmp_path, data, "wrong", data["counterfactual_reference"])
    rows = {(r["lang"], r["set"]): r for r in
            json.loads(Path(wrong["summary"]).read_text(encoding="utf-8"))["accuracy"]}
    assert rows["de", "counterfactual"]["accuracy"] == 0.0
    assert rows["fr", "counterfactual"]["accuracy_feminine"] == 0.0
    assert rows["de", "contextual"]["accuracy"] == 0.0
    # the sample's epicene French item (same original and flipped reference) is always
    # correct, as the official metric counts it: 1 of 6
    assert rows["fr", "contextual"]["accuracy"] == pytest.approx(1 / 6)
    quality = json.loads(Path(wrong["summary"]).read_text(encoding="utf-8"))["quality"]
    against = {(q["lang"], q["set"], q["gender"], q["metric"], q["reference"]): q["score"]
               for q in quality}
    assert against["fr", "all", "all", "bleu", "counterfactual"] == pytest.approx(100)
    assert against["fr", "all", "all", "bleu", "correct"] < 100
    assert "nrefs:1" in quality[0]["signature"]
    items = pd.read_parquet(wrong["path"])
    assert set(items.columns) >= {"item_id", "hypothesis", "correct", "correct_words",
                                  "incorrect_words", "pair_correct"}
    assert pd.read_csv(Path(wrong["path"]).with_suffix(".csv")).shape[0] == len(data)


def test_score_run_names_a_missing_output(tmp_path):
    from gendermt.benchmarks.mt_geneval.evaluate import score_run
    from gendermt.core.errors import GenderMTError

    data = _build(tmp_path)
    path = tmp_path / "short.jsonl"
    path.write_text(json.dumps({"item_id": data["item_id"][0], "hypothesis": "x"}) + "\n",
                    encoding="utf-8")
    with pytest.raises(GenderMTError, match="35 of 36 segments have no output"):
        score_run(path, tmp_path / "data.parquet", tmp_path / "i.parquet", tmp_path / "i.csv",
                  tmp_path / "i.json", ["bleu"])


def test_tables_figures_and_scorecard_from_runs(tmp_path):
    from gendermt.benchmarks.mt_geneval.figures import build_figures
    from gendermt.benchmarks.mt_geneval.scorecard import read
    from gendermt.benchmarks.mt_geneval.tables import build_tables

    data = _build(tmp_path)
    runs = [_run(tmp_path, data, "right", data["reference"]),
            _run(tmp_path, data, "copy", data["source"])]
    tables = tmp_path / "mt-geneval" / "tables"
    outputs = {}
    for name in ("accuracy", "paper", "quality", "summary"):
        outputs[name] = str(tables / f"{name}.csv")
        outputs[f"{name}_md"] = str(tables / f"{name}.md")
    build_tables(runs, outputs)
    accuracy = pd.read_csv(outputs["accuracy"])
    copy = accuracy[accuracy["system"] == "copy"].set_index(["lang", "set"])
    # English left untranslated has no gendered word of either reference: the official
    # metric counts it correct; the correct-word rate says it is not
    assert copy.loc[("fr", "contextual"), "accuracy"] == 1.0
    assert copy.loc[("fr", "contextual"), "correct_word_rate"] == 0.0
    paper = pd.read_csv(outputs["paper"])
    assert list(paper.columns) == ["system", "prompt", "de contextual",
                                   "de counterfactual feminine", "de counterfactual masculine",
                                   "fr contextual", "fr counterfactual feminine",
                                   "fr counterfactual masculine", "de correct words",
                                   "de BLEU", "fr correct words", "fr BLEU"]
    accuracy_columns = [c for c in paper.columns if "contextual" in c or "counterfactual" in c]
    layout = paper.set_index("system")
    assert layout.loc["right", accuracy_columns].eq(100).all()
    # the copy scores 100 on the contextual set as the oracle does: its quality beside it
    # tells them apart
    assert layout.loc["copy", "fr contextual"] == 100
    assert layout.loc["copy", "fr correct words"] < 100 == layout.loc["right", "fr correct words"]
    assert layout.loc["copy", "fr BLEU"] < 10 < layout.loc["right", "fr BLEU"]
    summary = pd.read_csv(outputs["summary"])
    assert set(summary["lang"]) == {"fr", "de"} and {"bleu", "chrf"} <= set(summary.columns)
    rates = summary.set_index(["system", "lang"])
    assert rates.loc[("copy", "fr"), "contextual_correct_word_rate"] == 0.0
    assert rates.loc[("right", "fr"), "correct_word_rate"] == 1.0
    build_figures(outputs["accuracy"], tmp_path / "f.png", tmp_path / "f.pdf")
    assert (tmp_path / "f.png").read_bytes().startswith(b"\x89PNG")

    part = read(tmp_path)
    figures = {f.key: f for f in part.figures}
    assert list(figures) == ["bleu_all", "gap_de", "counterfactual_accuracy_de",
                             "correct_word_rate_de", "contextual_de",
                             "contextual_correct_word_rate_de", "gap_fr",
                             "counterfactual_accuracy_fr", "correct_word_rate_fr",
                             "contextual_fr", "contextual_correct_word_rate_fr"]
    # the authors' headline, a pair correct only when both its genders are, beside the gap
    assert figures["counterfactual_accuracy_fr"].label == "counterfactual accuracy (fr)"
    assert figures["counterfactual_accuracy_fr"].better == "higher"
    assert part.cells[("right", "counterfactual_accuracy_fr")].value == 100
    assert part.cells[("copy", "counterfactual_accuracy_fr")].value == pytest.approx(
        100 * rates.loc[("copy", "fr"), "counterfactual_accuracy"])
    assert part.cells[("copy", "contextual_correct_word_rate_fr")].value == 0
    assert part.cells[("copy", "contextual_fr")].prompt == "baseline"
    assert figures["gap_fr"].better == "closer to 0" and figures["gap_fr"].quality == "bleu_all"
    assert figures["contextual_fr"].unit == "%" and figures["contextual_fr"].better == "higher"
    assert figures["bleu_all"].better == "higher"
    assert part.systems == ["right", "copy"]
    assert part.cells[("right", "contextual_de")].value == 100
    assert part.cells[("right", "gap_de")].value == 0
    assert part.cells[("copy", "bleu_all")].value < 10  # below the scorecard's quality floor


def test_scorecard_reader_without_a_set_has_no_column_for_it(tmp_path):
    from gendermt.benchmarks.mt_geneval.scorecard import read
    from gendermt.benchmarks.mt_geneval.tables import build_tables

    data = _build(tmp_path, sets=("counterfactual",))
    runs = [_run(tmp_path, data, "right", data["reference"])]
    tables = tmp_path / "mt-geneval" / "tables"
    outputs = {k: str(tables / f"{k.removesuffix('_md')}.{'md' if k.endswith('_md') else 'csv'}")
               for n in ("accuracy", "paper", "quality", "summary") for k in (n, f"{n}_md")}
    build_tables(runs, outputs)
    assert [f.key for f in read(tmp_path).figures] == ["bleu_all", "gap_de",
                                                        "counterfactual_accuracy_de",
                                                        "correct_word_rate_de", "gap_fr",
                                                        "counterfactual_accuracy_fr",
                                                        "correct_word_rate_fr"]


def test_scorecard_reader_names_a_missing_table(tmp_path):
    from gendermt.benchmarks.mt_geneval.scorecard import read

    with pytest.raises(DatasetError, match="summary.csv"):
        read(tmp_path)


# ---------------------------------------------------------------- contract and config
def _spec(**data):
    return {"data": {"root": str(SAMPLE), "languages": ["fr", "de"], **data},
            "templates": str(ROOT / "src/gendermt/benchmarks/mt_geneval/prompts/translate.yaml"),
            "prompts": ["baseline"], "systems": ["copy-source"]}


def test_config_check_accepts_the_default_and_names_what_is_missing(tmp_path):
    from gendermt.benchmarks.mt_geneval.config import check
    from gendermt.core.errors import GenderMTError

    check(_spec(), {})
    check(_spec(sets=["counterfactual"]), {})
    key = r"^benchmarks\.mt-geneval\."
    with pytest.raises(GenderMTError, match=key + r"data: .*geneval-sentences-masculine-test"
                                                  r"\.en_it\.en: MT-GenEval file not found"):
        check(_spec(languages=["fr", "it"]), {})
    # the sample has no dev split
    with pytest.raises(GenderMTError, match=key + r"data: .*-dev\.en_fr"):
        check(_spec(split="dev"), {})
    with pytest.raises(GenderMTError, match=key + r"data: .*not MT-GenEval's data folder"):
        check(_spec(root=str(tmp_path)), {})
    only = tmp_path / "prompts.yaml"
    only.write_text("fragments: {t: 'Translate {source}'}\n"
                    "templates: {plain: {version: 1, user: [t]}}\n", encoding="utf-8")
    spec = {**_spec(), "templates": str(only), "prompts": ["plain"]}
    with pytest.raises(GenderMTError, match=key + r"prompts: plain have no template for the "
                                                  r"contextual set .* plain_context"):
        check(spec, {})
    check({**spec, "data": {**spec["data"], "sets": ["counterfactual"]}}, {})


def test_contract_is_registered_and_its_schema_fragment_composes():
    from jsonschema import Draft202012Validator, ValidationError

    from gendermt.core import registry

    bench = registry.get("mt-geneval")
    assert bench.label == "MT-GenEval" and bench.order == 80
    assert registry.rules_file(bench).is_file()
    assert bench.scorecard.tables == ("mt-geneval/tables/summary.csv",)
    for ref in (bench.check, bench.scorecard.reader):
        assert callable(__import__("gendermt.core.contract", fromlist=["resolve"])
                        .resolve(ref))
    schema = registry.config_schema(ROOT / "workflow/schemas/config.schema.yaml")
    validator = Draft202012Validator(schema)
    import yaml
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
    validator.validate(config)
    block = config["benchmarks"]["mt-geneval"]
    for bad in ({**block, "langs": ["fr"]}, {**block, "data": {**block["data"], "split": "x"}},
                {**block, "data": {**block["data"], "languages": ["nl"]}}):
        with pytest.raises(ValidationError):
            validator.validate({**config, "benchmarks": {"mt-geneval": bad}})
    # every key of the fragment says what it is
    fragment = registry.schema_fragment(bench)

    def described(node, path):
        for key, sub in node.get("properties", {}).items():
            assert "description" in sub or "$ref" in sub, f"{path}.{key}"
            described(sub, f"{path}.{key}")
    described(fragment, "mt-geneval")


def test_labels_name_every_table_and_figure_the_rule_file_writes():
    from gendermt.core import registry

    rules = registry.rules_file(registry.get("mt-geneval")).read_text(encoding="utf-8")
    written = set(re.findall(r'\{RESULTS\}/(mt-geneval/(?:tables|figures)/[a-z_]+)\.(?:csv|png)',
                             rules))
    written |= {f"mt-geneval/tables/{t}" for t in
                re.search(r"MT_GENEVAL_TABLES = \[(.*?)\]", rules)[1].replace('"', "")
                .split(", ")}
    assert set(registry.get("mt-geneval").labels) == written


def test_start_up_checks_run_ours_and_name_the_key(monkeypatch):
    """gendermt.config.checks.check_config runs the contract's check on the default config:
    the message names the key under benchmarks.mt-geneval; {context} is a placeholder of
    ours, so the templates pass the generic placeholder check."""
    import copy

    import yaml

    from gendermt.config.checks import check_config
    from gendermt.core.errors import GenderMTError

    monkeypatch.chdir(ROOT)
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
    templates = check_config(config)
    assert {"baseline", "baseline_context"} <= set(templates["mt-geneval"])
    bad = copy.deepcopy(config)
    bad["benchmarks"]["mt-geneval"]["data"]["languages"] = ["fr", "ru"]
    with pytest.raises(GenderMTError, match=r"^benchmarks\.mt-geneval\.data: .*en_ru"):
        check_config(bad)


def test_context_shown_only_to_a_system_that_reads_the_prompt():
    from gendermt.benchmarks.mt_geneval.context import context_shown

    templates = {"baseline": {"user": "{source}"},
                 "baseline_context": {"user": "Context: {context}\nSentence: {source}"},
                 "bare": {"user": "{source}"}, "bare_context": {"user": "{source}"}}
    both = ["counterfactual", "contextual"]
    llm = {"backend": "openai-compatible", "model": "m", "base_url": "http://x/v1"}
    assert context_shown(llm, templates, "baseline", both) is True
    # a context template that never shows the context sentence
    assert context_shown(llm, templates, "bare", both) is False
    for reads_source in ({"backend": "apertium", "modes": ["eng-spa"]},
                         {"backend": "copy-source"}, {"backend": "stored", "path": "x"}):
        assert context_shown(reads_source, templates, "baseline", both) is False
    assert context_shown(llm, templates, "baseline", ["counterfactual"]) is None


def test_summary_says_which_system_saw_the_context(tmp_path):
    from gendermt.benchmarks.mt_geneval.tables import build_tables

    data = _build(tmp_path)
    runs = [{**_run(tmp_path, data, "right", data["reference"]), "context_shown": True},
            {**_run(tmp_path, data, "copy", data["source"]), "context_shown": False}]
    tables = tmp_path / "mt-geneval" / "tables"
    outputs = {k: str(tables / f"{k.removesuffix('_md')}.{'md' if k.endswith('_md') else 'csv'}")
               for n in ("accuracy", "paper", "quality", "summary") for k in (n, f"{n}_md")}
    build_tables(runs, outputs)
    summary = pd.read_csv(outputs["summary"]).set_index(["system", "lang"])
    assert summary.loc[("right", "fr"), "context_shown"] == True  # noqa: E712
    assert summary.loc[("copy", "fr"), "context_shown"] == False  # noqa: E712
