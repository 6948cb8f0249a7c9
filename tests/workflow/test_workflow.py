"""The Snakemake workflow end to end, on the default config, in a temporary copy of the project.

The default is run once per test session (the ``default_run`` fixture of conftest.py) and its
results are shared by the tests that read them. The tests that change something (a prompt's
text, the dataset) work on copies of their own, so that they never disturb the shared run.
"""

from __future__ import annotations

import re
import shutil
from itertools import product
from pathlib import Path

import pandas as pd
import pytest
import yaml

from .. import default_plan as plan
from ..workflow_support import (
    RUN_TIMEOUT,
    Run,
    copy_project,
    explain,
    job_stats,
    output_of,
    planned_jobs,
    read_json,
    snakemake,
)

pytestmark = pytest.mark.workflow

FT = Path("results/default/fairtranslate")
TABLES = ["by_gender", "by_stereotype", "by_ambiguity", "anova", "dataset"]
GENDERS = ["female", "male", "inclusive"]
# The paper's four prompting strategies: the oracles and the baseline run each of them.
PAPER = ["baseline", "moral", "linguistic", "moral_linguistic"]
ORACLES = {"oracle-male": "male", "oracle-female": "female", "oracle-inclusive": "inclusive"}
SYSTEMS = [*ORACLES, "copy-source"]
# Every run of the default, from config/config.yaml (the real LLMs run one prompt each there:
# system_prompts), and the prompts those runs use.
RUNS = set(plan.runs("fairtranslate"))
PROMPTS = plan.prompts("fairtranslate")
METRICS = ["bleu", "chrf"]
DATASET = Path("resources/fairtranslate/data/train-00000-of-00001.parquet")


def read_table(run: Run, name: str) -> pd.DataFrame:
    run.require_success()
    return pd.read_csv(run.path(FT / "tables" / f"{name}.csv"))


# ----------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def bad_data_run(tmp_path_factory) -> Run:
    """A fresh copy whose dataset has the gender label 'Male' in row 7 (rows count from 1)."""
    workdir = copy_project(tmp_path_factory.mktemp("bad-data") / "project")
    frame = pd.read_parquet(workdir / DATASET)
    assert frame.loc[6, "gender"] in GENDERS  # the sample is valid before we break it
    frame.loc[6, "gender"] = "Male"
    frame.to_parquet(workdir / DATASET, index=False)
    proc = snakemake(workdir, "--cores", "2", timeout=RUN_TIMEOUT)
    return Run(workdir, proc)


# ----------------------------------------------------------------------------- 1. the run
def test_default_run_succeeds_and_reports_its_jobs(default_run):
    default_run.require_success()
    text = output_of(default_run.proc)
    stats = job_stats(text)
    assert f"{stats['total']} of {stats['total']} steps (100%) done" in text
    # FairTranslate's share of the DAG: data, one input file per prompt, translate + score per
    # system × prompt, tables, figures (other benchmarks add their own jobs)
    jobs = planned_jobs(text)
    ours = [rule for rule, wc in jobs if wc.get("benchmark") == "fairtranslate"]
    assert ours.count("build_inputs") == len(PROMPTS)
    assert ours.count("translate") == ours.count("score") == len(RUNS)
    for rule in ("fairtranslate_data", "fairtranslate_tables", "fairtranslate_figures"):
        assert [r for r, _ in jobs].count(rule) == 1, rule


def test_default_run_writes_every_target(default_run):
    default_run.require_success()
    for table, ext in product(TABLES, ["csv", "md"]):
        path = default_run.path(FT / "tables" / f"{table}.{ext}")
        assert path.is_file(), path
        assert path.stat().st_size > 0, path
    png = default_run.path(FT / "figures" / "score_by_gender.png").read_bytes()
    pdf = default_run.path(FT / "figures" / "score_by_gender.pdf").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) > 1000
    assert pdf.startswith(b"%PDF")
    assert len(pdf) > 1000


# ----------------------------------------------------------------------------- 2. by gender
def test_by_gender_covers_every_cell_with_18_items(default_run):
    table = read_table(default_run, "by_gender")
    assert list(table.columns) == ["metric", "system", "prompt", "gender", "n", "mean", "sd",
                                   "metric_label", "signature"]
    assert set(table["prompt"]) == set(PROMPTS)
    assert set(table["system"]) == set(plan.systems("fairtranslate"))
    assert set(product(SYSTEMS, PAPER)) <= RUNS  # the oracles' and baseline's rows are there
    assert set(table["metric"]) == set(METRICS)
    cells = set(table[["metric", "system", "prompt", "gender"]].itertuples(index=False))
    assert cells == {(m, s, p, g) for m, (s, p), g in product(METRICS, RUNS, GENDERS)}
    assert len(table) == len(cells)
    assert (table["n"] == 18).all(), table[table["n"] != 18]


def test_oracles_score_100_on_their_own_gender_only(default_run):
    table = read_table(default_run, "by_gender").set_index(
        ["metric", "system", "prompt", "gender"])["mean"]
    for metric, (oracle, own), prompt in product(METRICS, ORACLES.items(), PAPER):
        # sacrebleu's BLEU of identical sentences is 100 up to float rounding (1e-14)
        assert table[metric, oracle, prompt, own] == pytest.approx(100, abs=1e-9), \
            (metric, oracle, prompt)
        for other in GENDERS:
            if other != own:
                assert table[metric, oracle, prompt, other] < 100 - 1e-6, \
                    (metric, oracle, prompt, other)


def test_copy_source_scores_below_10_bleu_everywhere(default_run):
    table = read_table(default_run, "by_gender")
    copy_bleu = table[(table["system"] == "copy-source") & (table["metric"] == "bleu")]
    assert len(copy_bleu) == len(PAPER) * len(GENDERS)
    assert (copy_bleu["mean"] < 10).all(), copy_bleu


def test_one_cell_matches_an_independent_sacrebleu_computation(default_run):
    from sacrebleu.metrics import BLEU

    table = read_table(default_run, "by_gender")
    cell = table[(table["metric"] == "bleu") & (table["system"] == "oracle-male")
                 & (table["prompt"] == "baseline") & (table["gender"] == "female")]
    assert len(cell) == 1
    translations = pd.read_json(
        default_run.path(FT / "translations" / "oracle-male" / "baseline.jsonl"), lines=True)
    data = pd.read_parquet(default_run.path(FT / "data.parquet"))
    female = data[data["gender"] == "female"].merge(
        translations[["item_id", "hypothesis"]], on="item_id", how="left", validate="1:1")
    assert len(female) == 18
    assert female["hypothesis"].notna().all()
    bleu = BLEU(effective_order=True)
    scores = [bleu.sentence_score(hyp, [ref]).score
              for hyp, ref in zip(female["hypothesis"], female["reference"], strict=True)]
    assert sum(scores) / len(scores) == pytest.approx(cell["mean"].item(), rel=1e-9)  # 10 digits
    assert cell["n"].item() == len(scores)


# ----------------------------------------------------------------------------- 3. ANOVA, categories
def test_anova_has_one_test_per_metric_system_prompt(default_run):
    table = read_table(default_run, "anova")
    keys = list(table[["metric", "system", "prompt"]].itertuples(index=False, name=None))
    assert len(keys) == len(METRICS) * len(RUNS)
    assert set(keys) == {(m, s, p) for m, (s, p) in product(METRICS, RUNS)}
    offline = table[table["system"].isin(SYSTEMS)]  # a real LLM's scores may be all equal
    assert offline["p_value"].notna().all()
    assert table["p_value"].dropna().between(0, 1).all()
    male_bleu = table[(table["system"] == "oracle-male") & (table["metric"] == "bleu")]
    assert len(male_bleu) == len(PAPER)
    assert (male_bleu["p_value"] < 0.001).all(), male_bleu


@pytest.mark.parametrize("category", ["stereotype", "ambiguity"])
def test_category_tables_have_a_mean_row_of_the_gender_means(default_run, category):
    table = read_table(default_run, f"by_{category}")
    keys = ["metric", "system", "prompt", category]
    groups = table.groupby(keys)
    assert groups.ngroups > 0
    assert groups.ngroups == len(METRICS) * len(RUNS) * table[category].nunique()
    for key, part in groups:
        assert sorted(part["gender"]) == sorted([*GENDERS, "mean"]), key
        means = part.set_index("gender")["mean"]
        expected = sum(means[g] for g in GENDERS) / len(GENDERS)
        assert means["mean"] == pytest.approx(expected, rel=1e-9, abs=1e-12), key


# ----------------------------------------------------------------------------- 4. provenance
def test_scores_carry_signatures_and_corpus_scores_per_gender(default_run):
    default_run.require_success()
    summary = read_json(default_run.path(FT / "scores" / "oracle-male" / "baseline.json"))
    bleu = summary["metrics"]["bleu"]
    assert bleu["signature"].startswith("nrefs:1|case:mixed|eff:no|tok:13a")
    assert set(bleu["corpus"]) == {"all", "female", "male", "inclusive"}
    assert bleu["corpus"]["male"] == pytest.approx(100, abs=1e-9)
    assert bleu["corpus"]["female"] < 100
    assert set(summary["metrics"]) == set(METRICS)
    assert summary["metrics"]["chrf"]["signature"].startswith("nrefs:1|case:mixed")
    assert set(summary["metrics"]["chrf"]["corpus"]) == {"all", *GENDERS}


def test_translation_metadata_records_system_backend_and_template(default_run):
    from gendermt.config.templates import load_templates

    default_run.require_success()
    config = yaml.safe_load(default_run.path("config/config.yaml").read_text(encoding="utf-8"))
    templates = load_templates(
        default_run.path("src/gendermt/benchmarks/fairtranslate/prompts/translate.yaml"))
    for system, prompt in sorted(RUNS):
        meta = read_json(default_run.path(FT / "translations" / system / f"{prompt}.meta.json"))
        where = f"{system}/{prompt}.meta.json"
        assert meta["system"] == system, where
        assert meta["backend"]["backend"] == config["systems"][system]["backend"], where
        assert meta["prompt"] == prompt, where
        assert meta["template_version"] == templates[prompt]["version"], where
        assert re.fullmatch(r"[0-9a-f]{16}", meta["template_sha256"]), where
        assert meta["template_sha256"] == templates[prompt]["sha256"], where
        assert meta["items"] == 54, where


# ----------------------------------------------------------------------------- 5-7. CLI checks
def test_second_dry_run_has_nothing_to_do(default_run):
    default_run.require_success()
    proc = snakemake(default_run.workdir, "-n", "--cores", "2")
    assert proc.returncode == 0, explain(proc)
    assert "Nothing to be done" in output_of(proc), explain(proc)


def test_report_is_written(default_run):
    default_run.require_success()
    proc = snakemake(default_run.workdir, "--report", "results/default/report.html")
    assert proc.returncode == 0, explain(proc)
    report = default_run.path("results/default/report.html")
    assert report.is_file()
    assert report.stat().st_size > 100_000


def test_lint_is_clean(default_run):
    # lints the copy; needs no results, but shares the copy to save a second one
    proc = snakemake(default_run.workdir, "--lint")
    assert proc.returncode == 0, explain(proc)
    assert "Lints for" not in output_of(proc), explain(proc)


# ----------------------------------------------------------------------------- 8. prompt edit
def test_changing_one_prompt_reruns_only_what_used_it(default_run, tmp_path):
    default_run.require_success()
    workdir = tmp_path / "project"
    # copy2 keeps mtimes, so that the copy is as up to date as the run it comes from
    shutil.copytree(default_run.workdir, workdir, copy_function=shutil.copy2, symlinks=True)
    before = snakemake(workdir, "-n", "--cores", "2")
    assert "Nothing to be done" in output_of(before), explain(before)
    # translations are protected(): Snakemake refuses to plan their rerun until the user
    # unlocks them on purpose (README, "Protected outputs"), as here (root is never refused)
    for path in (workdir / FT / "raw").rglob("*"):
        path.chmod(path.stat().st_mode | 0o200)

    prompts_file = workdir / "src/gendermt/benchmarks/fairtranslate/prompts/translate.yaml"
    spec = yaml.safe_load(prompts_file.read_text(encoding="utf-8"))
    assert spec["templates"]["moral"]["user"] == ["moral", "task"]
    spec["fragments"]["moral"] = "You are a careful translator, free of gender bias."
    prompts_file.write_text(yaml.safe_dump(spec, sort_keys=False, allow_unicode=True),
                            encoding="utf-8")

    proc = snakemake(workdir, "-n", "--cores", "2")
    assert proc.returncode == 0, explain(proc)
    text = output_of(proc)
    jobs = planned_jobs(text)
    changed = {"moral", "moral_linguistic"}
    assert {wc.get("prompt") for _, wc in jobs} - {None} == changed, jobs

    by_rule: dict[str, set] = {}
    for rule, wc in jobs:
        by_rule.setdefault(rule, set()).add((wc.get("system"), wc.get("prompt")))
    assert by_rule.pop("build_inputs") == {(None, p) for p in changed}
    # the runs of the two prompts (the config's: each system on the prompts it runs)
    rerun = {(s, p) for s, p in RUNS if p in changed}
    assert rerun >= set(product(SYSTEMS, changed))
    assert by_rule.pop("translate") == rerun
    assert by_rule.pop("extract") == rerun
    assert by_rule.pop("score") == rerun
    # what is left are the benchmark-wide aggregations (tables, figures; each benchmark or
    # analysis may add its own), once each
    assert {"fairtranslate_tables", "fairtranslate_figures", "all"} <= set(by_rule), by_rule
    assert all(wcs == {(None, None)} for wcs in by_rule.values()), by_rule
    n = len(rerun)
    assert job_stats(text) == {"build_inputs": 2, "translate": n, "extract": n, "score": n,
                               **dict.fromkeys(by_rule, 1),
                               "total": 2 + 3 * n + len(by_rule)}


# ----------------------------------------------------------------------------- 9. bad input
def test_bad_dataset_stops_the_run_before_any_translation(bad_data_run):
    proc = bad_data_run.proc
    assert proc.returncode != 0, explain(proc)
    log = bad_data_run.path("logs/default/fairtranslate/data.log")
    text = output_of(proc) + (log.read_text(encoding="utf-8") if log.exists() else "")
    message = next((line for line in text.splitlines() if "row 7" in line), None)
    assert message is not None, explain(proc)
    assert DATASET.name in message, message
    assert "'gender'" in message, message
    assert "'Male'" in message, message
    results = bad_data_run.path(FT)
    assert not (results / "data.parquet").exists()
    assert not (results / "inputs").exists()
    assert not (results / "translations").exists()


# Jobs must run the package of their own checkout (the one the code fingerprints hash),
# even where another gendermt is installed (here: the editable install of the project).
def test_jobs_run_the_package_of_their_own_checkout(bad_data_run):
    log = bad_data_run.path("logs/default/fairtranslate/data.log").read_text(encoding="utf-8")
    ran = re.findall(r'File "([^"]*gendermt[/\\]benchmarks[/\\]fairtranslate[/\\]data\.py)"',
                     log)
    assert ran, log
    own = (bad_data_run.workdir / "src").resolve()
    assert all(Path(p).resolve().is_relative_to(own) for p in ran), (
        f"the job ran {sorted(set(ran))}, not the copy under {own}")
