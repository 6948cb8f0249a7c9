"""GAMBIT with GRAPE in the session's default run: the shipped sample, the three stored
systems and the lexicon detector end to end, checked against what the stored translations
were written to assign (their third column) and against `gendermt score grape`."""

import json
import subprocess
import sys

import pandas as pd
import pytest
import yaml

from ..conftest import ROOT
from ..workflow_support import output_of, planned_jobs

GB = "results/default/gambit"
CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
SPEC = CONFIG["benchmarks"]["gambit"]
SYSTEMS, LANGS = SPEC["systems"], SPEC["prompts"]
STORED = {"gambit-masculine-default": "masculine-default", "gambit-stereotyped": "stereotyped",
          "gambit-mixed": "mixed"}


@pytest.fixture(scope="module")
def run(default_run):
    default_run.require_success()
    return default_run


def _csv(run, name):
    return pd.read_csv(run.path(f"{GB}/{name}"), dtype={"isco": str, "text_id": str},
                       keep_default_na=False, na_values=[""])


def test_gambit_jobs_are_in_the_run(run):
    jobs = planned_jobs(output_of(run.proc))
    ours = [r for r, wc in jobs if wc.get("benchmark") == "gambit" or r.startswith("gambit_")]
    n = len(SYSTEMS) * len(LANGS)
    assert ours.count("translate") == ours.count("gambit_detect") == n
    assert ours.count("gambit_inputs") == ours.count("gambit_validate") == len(LANGS)
    for rule in ("gambit_data", "gambit_isco", "gambit_tables", "gambit_figures",
                 "gambit_validation_table"):
        assert ours.count(rule) == 1, rule


def test_lexicon_reads_what_the_stored_translations_assign(run):
    """Each stored translation was written with one gender; the detector must find it on
    nearly every text (a miss is a Not Clear or no row, never the other gender)."""
    for system, folder in STORED.items():
        for lang in LANGS:
            written = pd.read_csv(ROOT / "resources/gambit/translations" / folder / f"{lang}.tsv",
                                  sep="\t", dtype=str).set_index("item_id")
            gender_col = [c for c in written.columns if c not in ("hypothesis",)][0]
            found = _csv(run, f"assignments/lexicon/{system}/{lang}.csv").set_index("text_id")
            both = found.join(written[gender_col], how="inner")
            gendered = both[both["label"] != "Not Clear"]
            assert (gendered["label"] == gendered[gender_col]).all(), (system, lang)
            assert len(gendered) >= 0.95 * len(written), (system, lang, len(gendered))


def test_grape_table_matches_the_systems(run):
    grape = _csv(run, "tables/grape.csv")
    parity4 = grape[(grape["reference"] == "parity") & (grape["level"] == 4)]
    masc = parity4[parity4["system"] == "gambit-masculine-default"]
    assert set(masc["lang"]) == set(LANGS)
    assert (masc["grape_m"] == 1.0).all() and (masc["grape_f"] == -1.0).all()
    mixed = parity4[parity4["system"] == "gambit-mixed"].set_index("lang")
    stereo = parity4[parity4["system"] == "gambit-stereotyped"].set_index("lang")
    for lang in LANGS:   # the mixed system is the closest to parity, the masculine the farthest
        assert abs(mixed.loc[lang, "grape_m"]) < stereo.loc[lang, "grape_m"] < 1.0
    # never a silent NaN: an empty GRAPE always says why
    for name in ("grape.csv", "grape_groups.csv", "stereotype_groups.csv", "correlations.csv",
                 "cross_lingual.csv"):
        table = _csv(run, f"tables/{name}")
        value_cols = [c for c in table.columns if c.startswith("grape_") or c == "r"]
        empty = table[value_cols].isna().any(axis=1)
        notes = table["note"].astype(object).fillna("").astype(str)
        assert (notes[empty] != "").all(), name


def test_stereotype_groups_and_extremes(run):
    groups = _csv(run, "tables/stereotype_groups.csv")
    stereo = groups[groups["system"] == "gambit-stereotyped"]
    for group, expected in (("masculine", 1.0), ("feminine", -1.0)):
        values = stereo.loc[stereo["group"] == group, "grape_m"]
        assert len(values) == len(LANGS) and (values == expected).all(), group
    extremes = _csv(run, "tables/extremes.csv")
    assert set(extremes["system"]) == set(SYSTEMS)


def test_cross_lingual_and_validation(run):
    cross = _csv(run, "tables/cross_lingual.csv").set_index("system")
    # masculine forms everywhere: p_f is constant, r undefined and said so
    assert pd.isna(cross.loc["gambit-masculine-default", "r"])
    assert "constant" in cross.loc["gambit-masculine-default", "note"]
    assert cross.loc["gambit-mixed", "r"] > 0.9
    validation = _csv(run, "tables/validation.csv")
    assert set(validation["lang"]) == set(LANGS)
    assert (validation["overall_accuracy"] >= 90).all()
    for name in ["grape_overview", *[f"intra_model_{lang}" for lang in LANGS]]:
        assert run.path(f"{GB}/figures/{name}.png").stat().st_size > 10_000


def test_command_line_agrees_with_the_tables(run):
    grape = _csv(run, "tables/grape.csv")
    path = run.path(f"{GB}/assignments/lexicon/gambit-mixed/fr.csv")
    labour = ROOT / SPEC["references"]["labour"]["fr"]
    for reference, level in (("parity", 4), (str(labour), 3)):
        # the workflow's overall real reference is the national one (its default)
        national = [] if reference == "parity" else ["--overall-reference", "national",
                                                     "--lang", "fr"]
        proc = subprocess.run([sys.executable, "-m", "gendermt", "score", "grape",
                               "--assignments", str(path), "--reference", reference,
                               "--level", str(level), *national, "--json"],
                              capture_output=True, text=True, check=True)
        out = json.loads(proc.stdout)
        row = grape[(grape["system"] == "gambit-mixed") & (grape["lang"] == "fr")
                    & (grape["level"] == level)
                    & (grape["reference"] == ("parity" if reference == "parity" else "real"))]
        assert out["overall"]["grape_m"] == pytest.approx(row["grape_m"].item())
        assert out["overall"]["n_feminine"] == row["n_feminine"].item()
