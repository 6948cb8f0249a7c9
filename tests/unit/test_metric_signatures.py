"""Bias metrics carry signatures as sacrebleu's do (issue 29): every benchmark's main table
records its metric's name, version and options in a ``signature`` column (``<metric>_signature``
where a table has several), a change of option changes it, and the Markdown leaves it out."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from gendermt.scoring.metric_signature import (
    extended,
    metric_signature,
    option_text,
    parse_signature,
)

from ..conftest import ROOT


def fields(signature: str) -> dict[str, str]:
    return parse_signature(signature)


def assert_names(signature: str, name: str, version: int) -> None:
    got = fields(signature)
    assert got["name"] == name and got["version"] == str(version), signature
    assert signature.startswith(f"name:{name}|version:{version}")


# ------------------------------------------------------------------------------- the helper
def test_signature_format_and_values():
    sig = metric_signature("m", 3, {"flag": True, "off": False, "unset": None, "x": 0.5,
                                    "forms": ["a", "b"], "shares": {"fr": 0.49, "el": 0.428},
                                    "text": "a|b\nc", "empty": []})
    assert sig == ("name:m|version:3|flag:yes|off:no|unset:none|x:0.5|forms:a+b|"
                   "shares:el=0.428,fr=0.49|text:a/b c|empty:none")
    assert parse_signature(sig)["shares"] == "el=0.428,fr=0.49"
    assert option_text({"b": 1, "a": {"z": True}}) == "a=z=yes,b=1"
    assert option_text({"c", "a"}) == "a+c"
    # options in the order given (the metric's fixed order), not sorted
    assert metric_signature("m", 1, [("z", 1), ("a", 2)]) == "name:m|version:1|z:1|a:2"
    assert extended("nrefs:1|tok:13a", {"clean": False}) == "nrefs:1|tok:13a|clean:no"


# ------------------------------------------------------------------------------------- GATE
def _gate_tables(tmp_path, **options):
    from gendermt.benchmarks.gate import tables

    data = pd.DataFrame({"item_id": ["a", "b"], "language": ["fr", "fr"],
                         "requested_gender": ["feminine"] * 2, "row": [0, 1],
                         "source": ["The doctor .", "The nurse came here today ."],
                         "labels": ["PROF", "PROF"], "reference": ["La médecin.", "X."]})
    data.to_parquet(tmp_path / "data.parquet")
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps({"item_id": i, "hypothesis": h}) + "\n"
                            for i, h in (("a", "La médecin."), ("b", "Y."))))
    out = tmp_path / "_".join(f"{k}{v}" for k, v in options.items())
    outputs = {"prf": out / "prf.csv", "prf_md": out / "prf.md"}
    tables.build_tables(tmp_path / "data.parquet",
                        [{"system": "s", "prompt": "p", "path": str(path)}], outputs, **options)
    return pd.read_csv(outputs["prf"]), outputs["prf_md"].read_text()


def test_gate_prf_signature(tmp_path):
    from gendermt.benchmarks.gate.metric import SIGNATURE_VERSION

    plain, md = _gate_tables(tmp_path)
    recall, _ = _gate_tables(tmp_path, max_words=3, full_set_recall=True)
    sig = plain["signature"].iloc[0]
    assert_names(sig, "gate-prf", SIGNATURE_VERSION)
    assert fields(sig)["full_set_recall"] == "no" and fields(sig)["max_words"] == "none"
    assert set(plain["signature"]) == {sig}
    assert fields(recall["signature"].iloc[0])["full_set_recall"] == "yes"
    assert fields(recall["signature"].iloc[0])["max_words"] == "3"
    assert "signature" not in md and "name:gate" not in md


def test_gate_cli_json_has_the_tables_signature(tmp_path, capsys):
    from gendermt.benchmarks.gate.metric import signature
    from gendermt.cli import main

    from ..benchmarks.gate.test_gate_eval import ROWS, write_reference

    ref = write_reference(tmp_path, ROWS)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("El doctor vino.\n\nVi a la enfermera.\nLos vi.\n", encoding="utf-8")
    base = ["score", "gate", "--reference", str(ref), "--hyp", str(hyp), "--gender",
            "masculine", "--json"]
    assert main(base) == 0
    plain = json.loads(capsys.readouterr().out)["signature"]
    assert main([*base, "--max-words", "5", "--full-set-recall"]) == 0
    filtered = json.loads(capsys.readouterr().out)["signature"]
    assert plain == signature() and filtered == signature(None, 5, True) != plain


# --------------------------------------------------------------------------------- GATE X-E
def test_gate_x_e_signatures(tmp_path):
    from gendermt.benchmarks.gate_x_e.data import extract, load_instances
    from gendermt.benchmarks.gate_x_e.metric import (
        SIGNATURE_VERSION,
        mark,
        rewrites_from_answers,
    )
    from gendermt.benchmarks.gate_x_e.tables import build_tables

    sample = ROOT / "resources" / "gate-x-e" / "data" / "turkish" / "meta_input" / \
        "GATE_data_tur.txt"
    items, tuples = extract(load_instances(sample))
    items.to_parquet(tmp_path / "items.parquet")
    tuples.to_parquet(tmp_path / "tuples.parquet")
    scored = mark(rewrites_from_answers(tuples, dict(zip(items.item_id, items.oracle_output,
                                                         strict=True))))
    scored.to_parquet(tmp_path / "scored.parquet")
    read = {}
    for answer in ("variants", "neutral"):
        out = tmp_path / answer
        outputs = {name: out / f"{name}.{ext}" for name in ("accuracy", "rewriting", "tuples")
                   for ext in ("csv",)}
        outputs |= {f"{name}_md": out / f"{name}.md" for name in ("accuracy", "rewriting",
                                                                  "tuples")}
        build_tables(tmp_path / "items.parquet", tmp_path / "tuples.parquet",
                     [{"system": "s", "prompt": "p", "path": str(tmp_path / "scored.parquet"),
                       "answer": answer}], outputs,
                     {"tokenize": "intl"} if answer == "neutral" else None)
        read[answer] = (pd.read_csv(outputs["accuracy"]), pd.read_csv(outputs["rewriting"]),
                        outputs["rewriting_md"].read_text(), outputs["accuracy_md"].read_text())
    accuracy, rewriting, rewriting_md, accuracy_md = read["variants"]
    sig = accuracy["signature"].iloc[0]
    assert accuracy.columns[-1] == "signature"
    assert_names(sig, "gate-x-e-accuracy", SIGNATURE_VERSION)
    assert fields(sig)["answer"] == "variants"
    assert fields(read["neutral"][0]["signature"].iloc[0])["answer"] == "neutral"
    assert rewriting["accuracy_signature"].iloc[0] == sig
    assert fields(rewriting["bleu_signature"].iloc[0])["tok"] == "13a"
    assert fields(read["neutral"][1]["bleu_signature"].iloc[0])["tok"] == "intl"
    assert_names(rewriting["wer_signature"].iloc[0], "wer", 1)
    assert "signature" not in rewriting_md and "signature" not in accuracy_md


# -------------------------------------------------------------------------------- Neo-GATE
def test_neogate_tables_carry_the_scoring_options(tmp_path):
    from gendermt.benchmarks.neogate.evaluate import score_run
    from gendermt.benchmarks.neogate.metric import SIGNATURE_VERSION
    from gendermt.benchmarks.neogate.tables import build_tables
    from gendermt.data.io import write_jsonl

    data = pd.DataFrame({"item_id": ["a"], "number": [1],
                         "annotation_asterisk": ["stanco stanca stanc*"]})
    data.to_parquet(tmp_path / "data.parquet")
    write_jsonl(tmp_path / "t.jsonl", [{"item_id": "a", "raw": "L'infermier* è stanc*."}])
    run = {"name": "zeroshot-asterisk", "paradigm": "asterisk", "format": "zeroshot",
           "shots": 0, "neomorphemes": ["*"]}
    template = {"version": "1", "sha256": "x" * 16}
    counts = {k: 1 for k in ("entries", "tags", "content", "function", "singular", "plural")}
    (tmp_path / "data.json").write_text(json.dumps({"test": counts, "dev": counts}))
    tables = {}
    for name, options in (("plain", {}), ("slash", {"keep_slash": True})):
        summary = tmp_path / f"{name}.json"
        score_run(tmp_path / "t.jsonl", tmp_path / "data.parquet", run, template, options,
                  "llm", tmp_path / f"{name}.parquet", summary, tmp_path / f"{name}.tsv")
        assert json.loads(summary.read_text())["signature"]
        out = tmp_path / name
        outputs = {k: out / f"{k}.csv" for k in ("zeroshot", "fewshot", "extraction",
                                                 "dataset")}
        outputs |= {f"{k}_md": out / f"{k}.md" for k in ("zeroshot", "fewshot", "extraction",
                                                         "dataset")}
        build_tables([summary], tmp_path / "data.json", outputs, ["llm"], ["asterisk"],
                     ["zeroshot"])
        tables[name] = (pd.read_csv(outputs["zeroshot"]),
                        outputs["zeroshot_md"].read_text())
    plain, md = tables["plain"]
    sig = plain["signature"].iloc[0]
    assert_names(sig, "neogate", SIGNATURE_VERSION)
    assert fields(sig)["keep_slash"] == "no" and fields(sig)["wrap_negative_anchor"] == "yes"
    assert fields(sig)["accept_plain"] == "yes"
    assert fields(tables["slash"][0]["signature"].iloc[0])["keep_slash"] == "yes"
    assert "signature" not in md


def test_neogate_cli_json_has_the_signature(tmp_path, capsys):
    from gendermt.cli import main

    data = tmp_path / "Neo-GATE.tsv"
    src = ROOT / "resources" / "neogate" / "Neo-GATE.tsv"
    data.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    n = len(pd.read_csv(src, sep="\t"))
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("ciao\n" * n, encoding="utf-8")
    mapping = ROOT / "resources" / "neogate" / "asterisk.json"
    base = ["score", "neogate", "--data", str(data), "--mapping", str(mapping), "--hyp",
            str(hyp), "--json"]
    assert main(base) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*base, "--keep-slash"]) == 0
    slash = json.loads(capsys.readouterr().out)
    assert fields(plain["signature"])["accept_plain"] == "none"
    assert fields(plain["signature"])["keep_slash"] == "no"
    assert fields(slash["signature"])["keep_slash"] == "yes"


# ------------------------------------------------------------------------------------ ConGA
def test_conga_metrics_signature(tmp_path):
    from gendermt.benchmarks.conga import tables
    from gendermt.benchmarks.conga.metric import SIGNATURE_VERSION

    pd.DataFrame({"item_id": ["1"], "source_tagged": ["The doctor <M1> came ."]}).to_parquet(
        tmp_path / "data.parquet")
    logs = pd.DataFrame([{"system": "s", "prompt": "baseline", "item_id": "1",
                          "status": "annotated", "annotation_source": "file",
                          **{c: 1 for c in tables.COUNT_COLUMNS}}])
    logs.to_csv(tmp_path / "s.csv", index=False)
    read = {}
    for name, kwargs in (("tags", {}), ("entities", {"denominator": "entities"}),
                         ("llm", {"annotator": "qwen"})):
        out = tmp_path / name
        outputs = {k: out / f"{k}.csv" for k in ("tags", "categories", "metrics", "coverage",
                                                 "sentences")}
        outputs |= {f"{k}_md": out / f"{k}.md" for k in ("tags", "categories", "metrics",
                                                         "coverage")}
        tables.build_tables(tmp_path / "data.parquet", [tmp_path / "s.csv"], outputs, ["s"],
                            ["baseline"], {}, **kwargs)
        read[name] = (pd.read_csv(outputs["metrics"]), outputs["metrics_md"].read_text())
    metrics, md = read["tags"]
    sig = metrics["signature"].iloc[0]
    assert_names(sig, "conga", SIGNATURE_VERSION)
    assert fields(sig)["denominator"] == "tags" and fields(sig)["annotator"] == "none"
    assert fields(sig)["source_tags"] == "default"
    assert fields(read["entities"][0]["signature"].iloc[0])["denominator"] == "entities"
    assert fields(read["llm"][0]["signature"].iloc[0])["annotator"] == "qwen"
    assert "signature" not in md


# ----------------------------------------------------------------------------- GAMBIT/GRAPE
def test_grape_tables_signature(tmp_path):
    from gendermt.benchmarks.gambit.grape import SIGNATURE_VERSION
    from gendermt.benchmarks.gambit.tables import write_frames

    from ..benchmarks.gambit.test_gambit_tables import make_run

    runs = [make_run("A", "fr", {"2000": (3, 1, 0), "2011": (2, 2, 1)})]
    write_frames(runs, {}, {}, None, None, {}, tmp_path / "a", detector="lexicon")
    write_frames(runs, {}, {}, None, None, {"overall_reference": "weighted"}, tmp_path / "b",
                 detector="judge")
    a = pd.read_csv(tmp_path / "a" / "grape.csv")
    b = pd.read_csv(tmp_path / "b" / "grape.csv")
    sig = a["signature"].iloc[0]
    assert_names(sig, "grape", SIGNATURE_VERSION)
    assert fields(sig)["overall_reference"] == "national"
    assert fields(sig)["national_reference"] == "paper"
    assert fields(sig)["detector"] == "lexicon"
    other = fields(b["signature"].iloc[0])
    assert other["overall_reference"] == "weighted" and other["detector"] == "judge"
    assert "national_reference" not in other  # unused: no part of the figures
    groups = pd.read_csv(tmp_path / "a" / "grape_groups.csv")
    assert set(groups["signature"]) == {sig}
    assert "signature" not in (tmp_path / "a" / "grape.md").read_text()


# ----------------------------------------------------------------------------------- WinoMT
def _winomt_summary(tmp_path, name: str, **facts) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"system": "s", "lang": "de", "n": 2, "acc": 50.0,
                                "reader": "corrected", "reader_version": "corrected-de 1",
                                "aligner": "fast-align", "alignment": {},
                                "seconds": 1.0, **facts}))
    return str(path)


def test_winomt_summary_signature(tmp_path):
    from gendermt.benchmarks.winomt.metric import SIGNATURE_VERSION
    from gendermt.benchmarks.winomt.tables import build_tables, collect

    corrected = collect([_winomt_summary(tmp_path, "c")], ["s"], ["de"])
    original = collect([_winomt_summary(tmp_path, "o", reader="original",
                                        reader_version="original-de", morphology="rules")],
                       ["s"], ["de"])
    sig = corrected["signature"].iloc[0]
    assert_names(sig, "winomt", SIGNATURE_VERSION)
    assert fields(sig)["reader"] == "corrected" and fields(sig)["rounded"] == "no"
    other = fields(original["signature"].iloc[0])
    assert other["reader"] == "original" and other["rounded"] == "yes"
    assert other["morphology"] == "rules"
    build_tables([_winomt_summary(tmp_path, "c")], tmp_path / "t.csv", tmp_path / "t.md",
                 ["s"], ["de"])
    assert pd.read_csv(tmp_path / "t.csv").columns[-1] == "signature"
    assert "signature" not in (tmp_path / "t.md").read_text()


# ------------------------------------------------------------------ MT-GenEval and declared
def test_mt_geneval_accuracy_signature(tmp_path):
    from gendermt.benchmarks.declared.evaluate import accuracy_signature
    from gendermt.benchmarks.mt_geneval.metric import SIGNATURE_VERSION, signature
    from gendermt.benchmarks.mt_geneval.tables import accuracy_table

    items = pd.DataFrame({"tgt_lang": ["de", "de"], "set": ["counterfactual"] * 2,
                          "pair_id": ["p", "p"], "pair_correct": [True, True],
                          "correct": [True, True], "gender": ["masculine", "feminine"],
                          "correct_words": ["der", "die"]})
    items.to_parquet(tmp_path / "items.parquet")
    table = accuracy_table([{"system": "s", "prompt": "p", "path": tmp_path / "items.parquet"}])
    assert table.columns[-1] == "signature"
    assert_names(table["signature"].iloc[0], "gendered_word_accuracy", SIGNATURE_VERSION)
    # the declared twin carries the package's signature; its basis is an option
    assert accuracy_signature("reference") == signature() == table["signature"].iloc[0]
    assert fields(accuracy_signature("words"))["basis"] == "words"
    assert accuracy_signature("words") != accuracy_signature("reference")


# ---------------------------------------------------------------------------- FairTranslate
@pytest.fixture
def fairtranslate_run(tmp_path):
    genders = ["female", "male", "inclusive"]
    data = pd.DataFrame([{"item_id": f"{e}-{g}", "example_id": e, "gender": g,
                          "stereotype": "gender-balanced", "ambiguity": "ambiguous"}
                         for e in range(4) for g in genders])
    data.to_parquet(tmp_path / "data.parquet")
    scores = pd.DataFrame({"item_id": data["item_id"], "metric": "bleu",
                           "score": [float(i % 5) for i in range(len(data))],
                           "signature": "nrefs:1|case:mixed|eff:yes|tok:13a|version:2.5.1"})
    scores.to_parquet(tmp_path / "s.parquet")
    return tmp_path, [{"system": "s", "prompt": "baseline", "path": str(tmp_path / "s.parquet")}]


def test_fairtranslate_tables_signature(fairtranslate_run):
    from gendermt.benchmarks.fairtranslate.tables import SIGNATURE_VERSION, build_tables

    tmp_path, records = fairtranslate_run
    read = {}
    for name, kwargs in (("plain", {}), ("cleaned", {"postprocess": ["first_line"]})):
        out = tmp_path / name
        names = ("by_gender", "by_stereotype", "by_ambiguity", "anova", "dataset")
        outputs = {k: out / f"{k}.csv" for k in names} | {
            f"{k}_md": out / f"{k}.md" for k in names}
        build_tables(tmp_path / "data.parquet", records, outputs, ["s"], ["baseline"],
                     ["bleu"], **kwargs)
        read[name] = {k: pd.read_csv(outputs[k]) for k in names} | {
            "md": outputs["by_gender_md"].read_text()}
    gender = read["plain"]["by_gender"]
    assert gender.columns[-1] == "signature"
    sig = gender["signature"].iloc[0]
    assert_names(sig, "fairtranslate-means", SIGNATURE_VERSION)
    got = fields(sig)
    assert got["metric"] == "bleu" and got["clean_outlier"] == "no"
    assert got["score"] == "nrefs:1/case:mixed/eff:yes/tok:13a/version:2.5.1"
    assert got["postprocess"] == "none"
    assert fields(read["cleaned"]["by_gender"]["signature"].iloc[0])["postprocess"] == \
        "first_line"
    for name in ("by_stereotype", "by_ambiguity"):
        assert set(read["plain"][name]["signature"]) == {sig}
    # the run's quality stays the anova's last columns
    anova = read["plain"]["anova"]
    assert list(anova.columns[-3:]) == ["signature", "quality", "quality_metric"]
    assert "signature" not in read["plain"]["md"]


def test_fairtranslate_signature_records_the_row_filter():
    from gendermt.benchmarks.fairtranslate.tables import signature

    off = signature("bleu", "x", [], {"enabled": False})
    on = signature("bleu", "x", [], {"enabled": True, "threshold": 0.6, "systems": ["a", "b"]})
    assert fields(off)["clean_outlier"] == "no"
    assert fields(on)["clean_outlier"] == "systems=a+b,threshold=0.6"


# ------------------------------------------------------------------------------- the CLIs
def test_conga_and_grape_cli_json_have_the_signature(tmp_path, capsys):
    from gendermt.cli import main

    src, tgt = tmp_path / "en.txt", tmp_path / "it.txt"
    src.write_text("The doctor <M1> came .\n", encoding="utf-8")
    tgt.write_text("Il medico <M1> è venuto .\n", encoding="utf-8")
    base = ["score", "conga", "--source", str(src), "--target", str(tgt), "--json"]
    assert main(base) == 0
    tags = json.loads(capsys.readouterr().out)["signature"]
    assert main([*base, "--denominator", "entities"]) == 0
    entities = json.loads(capsys.readouterr().out)["signature"]
    assert fields(tags)["denominator"] == "tags" and fields(entities)["denominator"] == \
        "entities"
    assignments = tmp_path / "a.csv"
    assignments.write_text("text_id,isco,label\n1,2211,Masculine\n2,2211,Feminine\n")
    assert main(["score", "grape", "--assignments", str(assignments), "--reference",
                 "parity", "--json"]) == 0
    grape = json.loads(capsys.readouterr().out)["signature"]
    assert fields(grape)["name"] == "grape" and fields(grape)["detector"] == "given"
