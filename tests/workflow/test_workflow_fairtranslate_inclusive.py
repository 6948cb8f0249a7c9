"""FairTranslate's inclusive-language tables and figures in the session's default run.

The default systems give real signal: the inclusive oracle writes the inclusive references
(iel, le.a, un.e, dotted occupations), the male and female oracles the gendered ones, and
copy-source English.
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pandas as pd
import pytest

from .. import default_plan as plan
from ..workflow_support import Run, explain, snakemake

pytestmark = pytest.mark.workflow

FT = Path("results/default/fairtranslate")
TABLES = ["normalization", "normalized_outputs", "inclusive_indicators", "occupation_forms",
          "they_pronouns", "word_counts", "classifier_modes"]
FIGURES = ["occupation_forms", "they_by_prompt", "they_by_ambiguity"]
PROMPTS = ["baseline", "moral", "linguistic", "moral_linguistic"]
ORACLES = {"oracle-male": "masculine", "oracle-female": "feminine",
           "oracle-inclusive": "inclusive"}
SYSTEMS = [*ORACLES, "copy-source"]
# every run of the default (config/config.yaml: the real LLMs run one prompt each)
RUNS = set(plan.runs("fairtranslate"))
ORACLE_PRONOUN = {"oracle-male": "il", "oracle-female": "elle", "oracle-inclusive": "iel",
                  "copy-source": "untranslated"}


def read_table(run: Run, name: str) -> pd.DataFrame:
    run.require_success()
    return pd.read_csv(run.path(FT / "tables" / f"{name}.csv"))


def test_every_inclusive_table_and_figure_is_written(default_run):
    default_run.require_success()
    for table, ext in product(TABLES, ["csv", "md"]):
        path = default_run.path(FT / "tables" / f"{table}.{ext}")
        assert path.is_file() and path.stat().st_size > 0, path
    for figure in FIGURES:
        png = default_run.path(FT / "figures" / f"{figure}.png").read_bytes()
        pdf = default_run.path(FT / "figures" / f"{figure}.pdf").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000, figure
        assert pdf.startswith(b"%PDF") and len(pdf) > 1000, figure


def test_table4_inclusive_oracle_has_an_indicator_on_every_inclusive_row(default_run):
    table = read_table(default_run, "inclusive_indicators").set_index(["system", "prompt"])
    assert set(table.index) == RUNS
    assert set(product(SYSTEMS, PROMPTS)) <= RUNS
    assert (table["inclusive_rows"] == 18).all()
    for prompt in PROMPTS:
        inclusive = table.loc[("oracle-inclusive", prompt)]
        assert inclusive["with_indicator"] == 18
        assert inclusive["share"] == pytest.approx(1.0)
        # "L'infirmier.ière" has no indicator until normalised to "infirmier.ère"
        assert inclusive["with_indicator_unnormalized"] == 17
        assert inclusive["other_with_indicator"] == 36  # its outputs on gendered rows
        for system in ("oracle-male", "oracle-female", "copy-source"):
            row = table.loc[(system, prompt)]
            assert row["with_indicator"] == 0, (system, prompt)
            assert row["with_indicator_unnormalized"] == 0, (system, prompt)
            assert row["other_with_indicator"] == 0, (system, prompt)
    markdown = default_run.path(FT / "tables" / "inclusive_indicators.md").read_text(
        encoding="utf-8")
    header = next(line for line in markdown.splitlines() if line.startswith("| system"))
    assert [c.strip() for c in header.strip("|").split("|")] == [
        "system", *plan.prompts("fairtranslate")]
    assert "| oracle-inclusive | 18 / 18" in markdown
    assert "Gemma2-2B" in markdown  # the paper's values beside ours


def test_occupation_forms_follow_each_oracle(default_run):
    table = read_table(default_run, "occupation_forms")
    assert len(table) == len(RUNS) * 3
    assert (table["rows"] == 18).all()
    assert (table["kept"] + table["dropped"] == table["rows"]).all()
    for oracle, form in ORACLES.items():
        part = table[table["system"] == oracle]
        assert (part["kept"] == 18).all(), part
        assert (part[form] == part["kept"]).all(), part
        assert (part[f"share_{form}"] == 1.0).all(), part
        others = [f for f in ORACLES.values() if f != form]
        assert (part[others] == 0).all().all(), part
        own = part[part["gender"] == {"masculine": "male", "feminine": "female",
                                      "inclusive": "inclusive"}[form]]
        assert (own["share_gold"] == 1.0).all()
    copy = table[table["system"] == "copy-source"]
    assert (copy["kept"] == 0).all() and (copy["dropped_not_found"] == 18).all()


def test_singular_they_follows_each_oracle(default_run):
    table = read_table(default_run, "they_pronouns")
    assert set(table["ambiguity"]) == {"all", "unambiguous", "long unambiguous"}
    overall = table[table["ambiguity"] == "all"]
    assert (overall["they_rows"] == 12).all()  # the sample's 12 rows with singular "they"
    split = table[table["ambiguity"] != "all"]
    assert (split["they_rows"] == 6).all()
    for (system, prompt, ambiguity), part in table.groupby(["system", "prompt", "ambiguity"]):
        assert part["rows"].sum() == part["they_rows"].iloc[0], (system, prompt, ambiguity)
        chosen = part[part["rows"] > 0]
        if system not in ORACLE_PRONOUN:  # the real LLM: whatever it wrote
            continue
        assert list(chosen["pronoun"]) == [ORACLE_PRONOUN[system]], (system, prompt, ambiguity)
    classes = overall[overall["rows"] > 0].set_index(["system", "prompt"])["class"]
    assert (classes.xs("oracle-inclusive") == "inclusive").all()
    assert (classes.xs("oracle-male") == "singular-gendered").all()
    # a copy of the English is untranslated: its own bucket, not the inclusive "no pronoun"
    assert (classes.xs("copy-source") == "untranslated").all()


def test_word_counts_come_from_the_data(default_run):
    table = read_table(default_run, "word_counts").set_index("ambiguity")
    data = pd.read_parquet(default_run.path(FT / "data.parquet"))
    for ambiguity, part in data.groupby("ambiguity"):
        assert table.loc[ambiguity, "rows"] == len(part)
        assert table.loc[ambiguity, "english"] == pytest.approx(
            part["source"].str.split().str.len().mean())
        assert table.loc[ambiguity, "french"] == pytest.approx(
            part["reference"].str.split().str.len().mean())
    markdown = default_run.path(FT / "tables" / "word_counts.md").read_text(encoding="utf-8")
    assert "48.599" in markdown  # the paper's values beside ours


def test_normalised_text_is_reported_beside_the_raw_text(default_run):
    summary = read_table(default_run, "normalization").set_index(["system", "prompt"])
    changed = read_table(default_run, "normalized_outputs")
    for system, prompt in product(SYSTEMS, PROMPTS):
        expected = 6 if system == "oracle-inclusive" else 0  # the two "-ier.ière" examples
        assert summary.loc[(system, prompt), "changed"] == expected, (system, prompt)
    assert (changed["normalized"] != changed["hypothesis"]).all()
    changed = changed[changed["system"].isin(SYSTEMS)]  # a real LLM's: whatever it wrote
    assert len(changed) == 6 * len(PROMPTS)
    assert changed["raw"].str.contains("ier.ière").all()
    assert changed["normalized"].str.contains("ier.ère").all()
    outputs = pd.read_parquet(default_run.path(FT / "inclusive" / "outputs.parquet"))
    assert len(outputs) == 54 * len(RUNS)
    assert {"raw", "hypothesis", "normalized", "occupation_form", "they_class"} <= set(
        outputs.columns)


def test_inclusive_tables_and_figures_are_in_the_report(default_run):
    default_run.require_success()
    proc = snakemake(default_run.workdir, "--report", "results/default/report-inclusive.html")
    assert proc.returncode == 0, explain(proc)
    html = default_run.path("results/default/report-inclusive.html").read_text(encoding="utf-8")
    for name in [f"{t}.html" for t in TABLES] + [f"{f}.png" for f in FIGURES]:
        assert name in html, name


def test_both_classifier_modes_side_by_side(default_run):
    """The authors' rules and the corrected ones in one table: they agree where the rules
    agree, and differ where the authors' single-token matcher misses multi-word forms and
    where the corrected mode puts copies of the English apart."""
    table = read_table(default_run, "classifier_modes")
    assert set(table["analysis"]) == {"table4", "occupation", "they"}
    t4 = table[table["analysis"] == "table4"].set_index(["system", "prompt"])
    assert (t4.loc["oracle-inclusive", "authors"] == 18).all()
    assert (t4.loc["oracle-inclusive", "corrected"] == 18).all()
    occupation = table[(table["analysis"] == "occupation")
                       & (table["system"] == "oracle-inclusive") & (table["cell"] == "inclusive")]
    # the sample's multi-word occupations (2 rows per gold gender) are n/a for the authors
    assert (occupation["corrected_of"] == 18).all() and (occupation["authors_of"] == 16).all()
    they = table[(table["analysis"] == "they") & (table["system"] == "copy-source")
                 & (table["group"] == "all")].set_index(["prompt", "cell"])
    assert (they.xs("none", level="cell")["authors"] == 12).all()
    assert (they.xs("untranslated", level="cell")["corrected"] == 12).all()
    markdown = default_run.path(FT / "tables" / "classifier_modes.md").read_text("utf-8")
    assert "| system           | prompt           | authors   | corrected   | paper   |" \
        in markdown
