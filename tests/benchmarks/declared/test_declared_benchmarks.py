"""Benchmarks declared in one YAML file (gendermt.benchmarks.declared): MT-GenEval's
counterfactual set declared as data gives the MT-GenEval package's figures on the same outputs
(the project's sample and the real release), a table-format benchmark with word lists scores
as counted by hand, and a malformed file is one line and exit 2."""

import json
import subprocess
import sys

import pandas as pd
import pytest
import yaml

from gendermt.benchmarks.declared import evaluate as declared_eval
from gendermt.benchmarks.declared.data import segments as declared_segments
from gendermt.benchmarks.declared.spec import load, spec_files
from gendermt.benchmarks.mt_geneval import data as mtg_data
from gendermt.benchmarks.mt_geneval import evaluate as mtg_eval
from gendermt.benchmarks.mt_geneval import tables as mtg_tables
from gendermt.cli import main

from ...conftest import ROOT

NAME = "mt-geneval-counterfactual"
SPEC = ROOT / "resources" / "benchmarks" / NAME / "benchmark.yaml"
SAMPLE = ROOT / "resources" / "mt-geneval"
REAL = ROOT.parent / "shared" / "data" / "mt-geneval"
GENDERS = ["masculine", "feminine"]


def test_every_shipped_benchmark_file_is_valid_and_registered():
    from gendermt.core import registry

    files = spec_files()
    assert SPEC in files
    for path in files:
        spec = load(path)
        contract = registry.get(spec["name"])
        assert contract.package == "gendermt.benchmarks.declared"
        assert contract.scorecard.key == spec["name"]
        assert contract.scorecard.tables == (f"{spec['name']}/tables/summary.csv",)


def outputs_for(frame: pd.DataFrame, kind: str) -> list[str]:
    """Outputs of one kind of system for segments with ``reference``,
    ``counterfactual_reference``, ``source``, ``gender``, ``line``: a mixed system (the right
    gender on odd lines, the masculine reference on even ones: it gets feminine sentences
    wrong), the counterfactual oracle, copy-source."""
    out = []
    for row in frame.itertuples():
        if kind == "mixed":
            right = row.line % 2 == 1 or row.gender == "masculine"
            out.append(row.reference if right else row.counterfactual_reference)
        elif kind == "counterfactual":
            out.append(row.counterfactual_reference)
        else:
            out.append(row.source)
    return out


def package_figures(root, lang: str, kind: str, metrics=("bleu", "chrf")) -> dict:
    """The MT-GenEval package's counterfactual figures of one language."""
    data = mtg_data.segments(root, [lang], "test", ["counterfactual"])
    hyps = outputs_for(data, kind)
    items = mtg_eval.evaluate_segments(data, hyps)
    row = mtg_tables.accuracy_rows(items)[0]
    quality = mtg_eval.quality_rows(data, pd.Series(hyps), list(metrics))
    scores = {(q["gender"], q["metric"], q["reference"]): q["score"] for q in quality
              if q["set"] == "counterfactual"}
    return {"row": row, "scores": scores}


def declared_figures(root, lang: str, kind: str, metrics=("bleu", "chrf")) -> dict:
    spec = load(SPEC)
    data = declared_segments(spec, [lang], root)
    hyps = outputs_for(data, kind)
    _, summary = declared_eval.summarise(data, hyps, GENDERS,
                                         ["gendered_word_accuracy", *metrics])
    against = {"own": "correct", "other": "counterfactual"}
    scores = {(q["gender"], q["metric"], against[q["reference"]]): q["score"]
              for q in summary["quality"]}
    return {"row": summary["accuracy"][0], "scores": scores}


def assert_same(root, lang: str, kind: str, metrics=("bleu", "chrf")) -> None:
    ours = declared_figures(root, lang, kind, metrics)
    theirs = package_figures(root, lang, kind, metrics)
    for key in ("accuracy", "accuracy_masculine", "accuracy_feminine", "accuracy_gap",
                "correct_word_rate", "correct_word_rate_masculine",
                "correct_word_rate_feminine", "n"):
        assert ours["row"][key] == theirs["row"][key], (lang, kind, key)
    assert ours["scores"] == theirs["scores"], (lang, kind)


@pytest.mark.parametrize("kind", ["mixed", "counterfactual", "copy"])
@pytest.mark.parametrize("lang", ["fr", "de", "es"])
def test_declared_twin_equals_the_package_on_the_sample(lang, kind):
    assert_same(SAMPLE / "data", lang, kind)


@pytest.mark.skipif(not REAL.is_dir(), reason="the shared MT-GenEval data is not here")
@pytest.mark.parametrize("lang", ["ar", "de", "es", "fr", "hi", "it", "pt", "ru"])
def test_declared_twin_equals_the_package_on_the_release(lang):
    # BLEU/chrF (chrF takes seconds on 600 segments) in one language, accuracy in all
    for kind in ("mixed", "copy"):
        assert_same(REAL / "data", lang, kind,
                    ("bleu", "chrf") if (lang, kind) == ("fr", "mixed") else ())
    # the figures are not trivially equal: the mixed system's feminine accuracy is lower
    row = declared_figures(REAL / "data", lang, "mixed", ())["row"]
    assert row["n"] == 300 and row["accuracy_gap"] > 0.3


def test_command_equals_gendermt_score_mt_geneval(tmp_path, capsys):
    """The two commands on the same outputs (the sample's French, a mixed system)."""
    data = mtg_data.load_counterfactual(SAMPLE, "fr", "test")
    masc = tmp_path / "m.txt"
    fem = tmp_path / "f.txt"
    masc.write_text("\n".join(data["reference_masculine"]) + "\n", encoding="utf-8")
    mixed = [r.reference_feminine if r.line % 2 else r.reference_masculine
             for r in data.itertuples()]
    fem.write_text("\n".join(mixed) + "\n", encoding="utf-8")
    assert main(["score", "mt-geneval", "--data", str(SAMPLE), "--lang", "fr", "--split",
                 "test", "--set", "counterfactual", "--hyp-masculine", str(masc),
                 "--hyp-feminine", str(fem), "--json"]) == 0
    theirs = json.loads(capsys.readouterr().out)
    assert main(["score", NAME, "--lang", "fr", "--hyp", f"masculine={masc}",
                 "--hyp", f"feminine={fem}", "--json"]) == 0
    ours = json.loads(capsys.readouterr().out)
    assert main(["score", "declared", "--spec", str(SPEC), "--lang", "fr", "--hyp",
                 f"masculine={masc}", "--hyp", f"feminine={fem}", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == ours
    for key in ("accuracy", "accuracy_masculine", "accuracy_feminine", "accuracy_gap", "n"):
        assert ours[key] == theirs[key], key
    assert ours["accuracy_gap"] == 0.5 and ours["bleu_masculine"] == 100.0


# --- a benchmark of the other form: a TSV, one shared source, gendered-word lists ---------
TSV_SPEC = {
    "name": "pronoun-test", "label": "Pronoun test", "languages": ["fr", "it"],
    "genders": ["female", "male"],
    "data": {"format": "tsv", "path": "items.tsv", "language": "lang", "id": "id",
             "source": "src", "words": {"female": "w_f", "male": "w_m"},
             "reference": {"female": "ref_f", "male": "ref_m"}},
    "metrics": ["gendered_word_accuracy", "chrf"],
    "fragments": {"task": "Translate into {tgt_lang_name}: {source}"},
    "templates": {"plain": {"version": 1, "user": ["task"]}},
}
TSV = ("id\tlang\tsrc\tw_f\tw_m\tref_f\tref_m\n"
       "1\tfr\tThe doctor arrived.\tdoctoresse\tdocteur\tLa doctoresse est arrivée.\t"
       "Le docteur est arrivé.\n"
       "2\tfr\tThe nurse left.\tinfirmière\tinfirmier\tL'infirmière est partie.\t"
       "L'infirmier est parti.\n"
       "3\tit\tThe teacher sang.\tmaestra\tmaestro\tLa maestra ha cantato.\t"
       "Il maestro ha cantato.\n")


def write_spec(folder, spec, table=TSV):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "items.tsv").write_text(table, encoding="utf-8")
    path = folder / "benchmark.yaml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    return path


def test_table_format_with_word_lists_scores_as_counted_by_hand(tmp_path):
    spec = load(write_spec(tmp_path / "pronoun-test", TSV_SPEC))
    data = declared_segments(spec, ["fr"])
    assert list(data["item_id"]) == ["fr-1-female", "fr-1-male", "fr-2-female", "fr-2-male"]
    assert set(data["source"]) == {"The doctor arrived.", "The nurse left."}
    # one shared source: a system that always answers in the masculine
    hyps = ["Le docteur est arrivé.", "Le docteur est arrivé.",
            "L'infirmier est parti.", "L'infirmier est parti."]
    items, summary = declared_eval.summarise(data, hyps, ["female", "male"], spec["metrics"])
    row = summary["accuracy"][0]
    # female segments: "docteur"/"infirmier" are the male list's → wrong; male: right
    assert (row["accuracy_female"], row["accuracy_male"], row["accuracy_gap"]) == (0.0, 1.0,
                                                                                  -1.0)
    assert row["accuracy"] == 0.0 and row["n"] == 2
    assert summary["accuracy_signature"].endswith("basis:words")
    assert list(items["incorrect_words"]) == ["docteur", "", "infirmier", ""]
    chrf = {(q["gender"], q["reference"]): q["score"] for q in summary["quality"]}
    assert chrf[("male", "own")] == 100.0 and chrf[("female", "other")] == 100.0


def run_cli(*args):
    """The command as users run it (its own process: exit status and stderr)."""
    return subprocess.run([sys.executable, "-m", "gendermt", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def assert_one_line_error(proc, *words):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0], lines[0]


class InProcess:
    """``gendermt`` called in this process (what most cases need, without a start-up each)."""

    def __init__(self, capsys):
        self.capsys = capsys

    def __call__(self, *args):
        self.capsys.readouterr()
        code = main([str(a) for a in args])
        captured = self.capsys.readouterr()
        return subprocess.CompletedProcess(args, code, captured.out, captured.err)


@pytest.fixture
def cli(capsys):
    return InProcess(capsys)


@pytest.fixture
def hyp_file(tmp_path):
    path = tmp_path / "h.txt"
    path.write_text("a\nb\n", encoding="utf-8")
    return path


def test_unknown_key_is_one_line_naming_file_and_key(tmp_path, hyp_file, cli):
    spec = {**TSV_SPEC, "data": {**TSV_SPEC["data"], "refrence": "ref_f"}}
    path = write_spec(tmp_path / "pronoun-test", spec)
    proc = run_cli("score", "declared", "--spec", path, "--lang", "fr",
                   "--hyp", f"female={hyp_file}", "--hyp", f"male={hyp_file}")
    assert_one_line_error(proc, str(path), "data.refrence", "unknown key")
    top = write_spec(tmp_path / "other" / "pronoun-test", {**TSV_SPEC, "metric": ["bleu"]})
    proc = cli("score", "declared", "--spec", top, "--lang", "fr",
               "--hyp", f"female={hyp_file}", "--hyp", f"male={hyp_file}")
    assert_one_line_error(proc, str(top), "metric: unknown key", "did you mean 'metrics'")


def test_missing_column_is_one_line_naming_file_and_column(tmp_path, hyp_file):
    table = TSV.replace("\tw_m\t", "\tw_male\t")
    path = write_spec(tmp_path / "pronoun-test", TSV_SPEC, table)
    hyps = hyp_file
    proc = run_cli("score", "declared", "--spec", path, "--lang", "fr",
                   "--hyp", f"female={hyps}", "--hyp", f"male={hyps}")
    assert_one_line_error(proc, str(tmp_path / "pronoun-test" / "items.tsv"), "'w_m'",
                          "data.words.male")


@pytest.mark.parametrize(("change", "words"), [
    ({"genders": ["female", "male", "other"]}, ["genders"]),
    ({"data": {**TSV_SPEC["data"], "words": {"female": "w_f"}}}, ["data.words", "male"]),
    ({"data": {k: v for k, v in TSV_SPEC["data"].items() if k != "reference"}},
     ["metrics: chrf need data.reference"]),
    ({"data": {k: v for k, v in TSV_SPEC["data"].items() if k != "language"}},
     ["data.path", "data.language"]),
    ({"fragments": {"task": "Translate: {source} {sentence}"}}, ["{sentence}"]),
])
def test_other_malformed_files(tmp_path, change, words, hyp_file, cli):
    path = write_spec(tmp_path / "pronoun-test", {**TSV_SPEC, **change})
    proc = cli("score", "declared", "--spec", path, "--lang", "fr",
               "--hyp", f"female={hyp_file}", "--hyp", f"male={hyp_file}")
    assert_one_line_error(proc, str(path), *words)


def test_wrong_number_of_outputs(tmp_path, cli):
    path = write_spec(tmp_path / "pronoun-test", TSV_SPEC)
    hyps = tmp_path / "h.txt"
    hyps.write_text("only one\n", encoding="utf-8")
    proc = cli("score", "declared", "--spec", path, "--lang", "fr",
                   "--hyp", f"female={hyps}", "--hyp", f"male={hyps}")
    assert_one_line_error(proc, str(hyps), "1 lines for the 2 items of fr")
    proc = cli("score", "declared", "--spec", path, "--lang", "fr", "--hyp", f"female={hyps}")
    assert_one_line_error(proc, "no outputs for male")


def test_config_block_checks():
    from gendermt.benchmarks.declared.config import check
    from gendermt.core.errors import GenderMTError

    check(NAME, {"languages": ["fr"], "prompts": ["baseline"], "systems": ["x"]}, {})
    with pytest.raises(GenderMTError, match=rf"^benchmarks\.{NAME}\.languages: nl not among"):
        check(NAME, {"languages": ["nl"]}, {})
    # the sample has no Hindi
    with pytest.raises(GenderMTError, match=rf"^benchmarks\.{NAME}\.data_root: .*hi.*not found"):
        check(NAME, {"languages": ["hi"]}, {})


def test_scorecard_reader(tmp_path):
    from gendermt.benchmarks.declared import scorecard

    folder = tmp_path / NAME / "tables"
    folder.mkdir(parents=True)
    pd.DataFrame({"system": ["a", "a", "b"], "prompt": ["baseline"] * 3,
                  "lang": ["fr", "de", "fr"], "accuracy": [0.5, 1.0, 0.0],
                  "accuracy_masculine": [1.0, 1.0, 0.0], "accuracy_feminine": [0.5, 1.0, 0.0],
                  "accuracy_gap": [0.5, 0.0, 0.0], "correct_word_rate": [0.9, 1.0, 0.0],
                  "bleu": [30.0, 50.0, 2.0], "n": [6, 6, 6]}).to_csv(folder / "summary.csv",
                                                                        index=False)
    read = getattr(scorecard, f"read_{NAME}")
    part = read(tmp_path)
    keys = [f.key for f in part.figures]
    assert keys == ["bleu_all", "gap_fr", "correct_word_rate_fr", "gap_de",
                    "correct_word_rate_de"]
    assert part.cells[("a", "bleu_all")].value == 40.0
    assert part.cells[("a", "gap_fr")].value == 50.0
    assert "masculine − feminine" in part.figures[1].unit


def test_comet_scores_per_gender_and_the_gap(tmp_path):
    """The workflow's COMET file (system, prompt, item_id, metric, score, signature) → mean
    per language and gender against the own reference, and the summary's gap."""
    from gendermt.benchmarks.declared.tables import quality_table, summary_table

    spec = load(write_spec(tmp_path / "pronoun-test", TSV_SPEC))
    data = declared_segments(spec, ["fr"])
    data.to_parquet(tmp_path / "data.parquet")
    scores = dict(zip(data["item_id"], [80.0, 60.0, 70.0, 50.0], strict=True))
    pd.DataFrame({"system": "s", "prompt": "plain", "item_id": list(scores), "metric": "comet",
                  "score": list(scores.values()), "signature": "comet:x"}).to_parquet(
        tmp_path / "comet.parquet")
    summary = tmp_path / "run.json"
    summary.write_text(json.dumps({"accuracy": [], "quality": []}), encoding="utf-8")
    runs = [{"system": "s", "prompt": "plain", "summary": str(summary)}]
    quality = quality_table(runs, tmp_path / "comet.parquet", tmp_path / "data.parquet")
    got = {r["gender"]: r["score"] for r in quality.to_dict("records")}
    assert got == {"all": 65.0, "female": 75.0, "male": 55.0}
    assert set(quality["reference"]) == {"own"} and set(quality["signature"]) == {"comet:x"}
    table = summary_table(pd.DataFrame(columns=["system", "prompt", "lang"]), quality,
                          ["female", "male"], ["comet"])
    row = table.iloc[0]
    assert (row["comet"], row["comet_female"], row["comet_male"], row["comet_gap"]) == (
        65.0, 75.0, 55.0, 20.0)


def test_a_malformed_file_stops_the_workflow_naming_the_block(tmp_path, monkeypatch):
    """At start-up (the contract's check): the block's key, the file and the file's key."""
    from gendermt.benchmarks.declared import config
    from gendermt.core.errors import GenderMTError

    text = SPEC.read_text(encoding="utf-8").replace("order: 81", "order: 81\nlanguage: [fr]")
    bad = tmp_path / NAME / "benchmark.yaml"
    bad.parent.mkdir()
    bad.write_text(text, encoding="utf-8")
    monkeypatch.setattr(config, "benchmark_files", lambda: {NAME: str(bad)})
    # its templates still load (the message then names the block, not its templates)
    assert list(config.templates(NAME, {"templates": ""})) == ["baseline"]
    with pytest.raises(GenderMTError) as caught:
        config.check(NAME, {"prompts": ["baseline"], "systems": ["x"]}, {})
    assert str(caught.value) == (
        f"benchmarks.{NAME}: {bad}: language: unknown key (did you mean 'languages'?); "
        "allowed at the top level: name, label, description, order, source_language, "
        "languages, genders, data, joiner, fragments, templates, demonstrations, metrics")


def test_its_files_are_the_run_summarys_data_sources(monkeypatch):
    """The benchmark file and every data file of the configured languages are the declared
    benchmark's data sources in the run summary (their sha256 on the report's front page),
    as a packaged benchmark's configured files are; not only its block's `data_root`."""
    from gendermt.data.sources import sha256_file
    from gendermt.workflow.run_record import summary

    monkeypatch.chdir(ROOT)
    block = {"languages": ["fr", "de"], "prompts": ["baseline"], "systems": ["copy"]}
    found = summary("x", [], {"benchmarks": {NAME: block},
                              "systems": {"copy": {"backend": "copy-source"}}}, ROOT)
    sources = {s["path"]: s for s in found["sources"]}
    spec = f"resources/benchmarks/{NAME}/benchmark.yaml"
    assert sources[spec]["key"] == f"benchmarks.{NAME}.file"
    assert not sources[spec]["data"] and sources[spec]["project_file"]
    files = [p for p in sources if p != spec]
    # per language: each gender's sources and references (the sample's lines files)
    assert len(files) == 2 * 4
    assert {p.split(".en_", 1)[1][:2] for p in files} == {"fr", "de"}
    for path in files:
        assert sources[path]["key"].startswith(f"benchmarks.{NAME}.data.")
        assert sources[path]["data"] and sources[path]["sample"]
        assert sources[path]["sha256"] == sha256_file(ROOT / path)
    assert sources[spec]["sha256"] == sha256_file(ROOT / spec)
