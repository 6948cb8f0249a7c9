"""The public study's figures against an independent tool, on that run's own outputs
(config/study/public.yaml; skipped where results/public does not exist, e.g. before CI has
run the study): MT-GenEval's BLEU and chrF against sacrebleu itself, its accuracy against
the official rule, WinoMT's original reader against its own command line."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from .conftest import ROOT

PUBLIC = ROOT / "results" / "public"
MT_GENEVAL = PUBLIC / "mt-geneval"
needs_run = pytest.mark.skipif(not (MT_GENEVAL / "tables" / "summary.csv").is_file(),
                               reason="no results/public (run config/study/public.yaml first)")


@needs_run
def test_mt_geneval_bleu_and_chrf_are_sacrebleus():
    import sacrebleu

    data = pd.read_parquet(MT_GENEVAL / "data.parquet")
    summary = pd.read_csv(MT_GENEVAL / "tables" / "summary.csv")
    checked = 0
    for row in summary.itertuples():
        path = MT_GENEVAL / "translations" / row.system / f"{row.prompt}.jsonl"
        with open(path, encoding="utf-8") as fh:
            hyps = {r["item_id"]: r["hypothesis"] for r in map(json.loads, fh)}
        items = data[data["tgt_lang"] == row.lang]
        ours = [hyps[i] for i in items["item_id"]]
        refs = [list(items["reference"])]
        # tables keep 10 significant digits (gendermt.io.TABLE_DIGITS)
        assert sacrebleu.corpus_bleu(ours, refs, tokenize="13a").score == pytest.approx(
            row.bleu, rel=1e-9), (row.system, row.lang)
        assert sacrebleu.corpus_chrf(ours, refs).score == pytest.approx(row.chrf, rel=1e-9)
        checked += 1
    assert checked == 9  # 3 systems × es, fr, it


SHARED = ROOT.parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(),
                                  reason="the shared public data is not beside the clone")


def _hypotheses(system: str, prompt: str) -> dict[str, str]:
    path = MT_GENEVAL / "translations" / system / f"{prompt}.jsonl"
    with open(path, encoding="utf-8") as fh:
        return {r["item_id"]: r["hypothesis"] for r in map(json.loads, fh)}


@needs_run
@needs_shared
def test_mt_geneval_accuracy_follows_the_official_rule(tmp_path):
    """Counterfactual and contextual accuracy of every system and language of the run, from the
    official rule (written independently in test_mt_geneval) on the run's own outputs, read
    against the release's reference files as the official scorer reads them."""
    from .test_mt_geneval import official_decisions, write

    release = SHARED / "mt-geneval" / "data"
    data = pd.read_parquet(MT_GENEVAL / "data.parquet")
    summary = pd.read_csv(MT_GENEVAL / "tables" / "summary.csv")
    for row in summary.itertuples():
        hyps = _hypotheses(row.system, row.prompt)
        lang = data[data["tgt_lang"] == row.lang]
        cf = lang[lang["set"] == "counterfactual"]
        folder = release / "sentences" / "test"
        ref = {g: folder / f"geneval-sentences-{g}-test.en_{row.lang}.{row.lang}"
               for g in ("masculine", "feminine")}
        right = {}
        for g, other in (("masculine", "feminine"), ("feminine", "masculine")):
            items = cf[cf["gender"] == g].sort_values("line")
            out = write(tmp_path / f"{row.system}-{row.lang}-{g}",
                        [hyps[i].replace("\n", " ") for i in items["item_id"]])
            right[g] = official_decisions(out, ref[g], ref[other])
        both = [m and f for m, f in zip(right["masculine"], right["feminine"], strict=True)]
        where = (row.system, row.lang)
        assert row.counterfactual_accuracy == pytest.approx(sum(both) / len(both), rel=1e-9), where
        gap = (sum(right["masculine"]) - sum(right["feminine"])) / len(both)
        assert row.accuracy_gap == pytest.approx(gap, rel=1e-9, abs=1e-12), where
        ctx = lang[lang["set"] == "contextual"].sort_values("line")
        out = write(tmp_path / f"{row.system}-{row.lang}-ctx",
                    [hyps[i].replace("\n", " ") for i in ctx["item_id"]])
        folder = release / "context"
        decided = official_decisions(
            out, folder / f"geneval-context-wikiprofessions-original-test.en_{row.lang}.{row.lang}",
            folder / f"geneval-context-wikiprofessions-flipped-test.en_{row.lang}.{row.lang}")
        assert row.contextual_accuracy == pytest.approx(sum(decided) / len(decided),
                                                        rel=1e-9), where


WINOMT = PUBLIC / "winomt"


@pytest.mark.skipif(not (WINOMT / "tables" / "summary.csv").is_file(),
                    reason="no results/public (run config/study/public.yaml first)")
@needs_shared
def test_winomt_original_reader_equals_its_command_line(capsys):
    """The run's `original` figures for one published system and language (its per-run
    summary and tables/readers.csv) equal what `gendermt score winomt --reader original`
    prints for the same published file."""
    from gendermt.cli import main

    folder = SHARED / "winomt"
    assert main(["score", "winomt", "--data", str(folder / "en.txt"), "--hyp",
                 str(folder / "translations" / "google" / "en-fr.txt"), "--lang", "fr",
                 "--pro", str(folder / "en_pro.txt"), "--anti", str(folder / "en_anti.txt"),
                 "--reader", "original", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    # the run's own summary of that reader (tables/readers.csv shows its acc, ΔG, ΔS)
    run = json.loads((WINOMT / "gender" / "original" / "google" / "fr.json").read_text())
    readers = pd.read_csv(WINOMT / "tables" / "readers.csv")
    row = readers[(readers["system"] == "google") & (readers["lang"] == "fr")].iloc[0]
    for key in ("acc", "delta_g", "delta_s", "f1_male", "f1_female", "acc_pro", "acc_anti"):
        assert run[key] == pytest.approx(printed[key], abs=1e-9), key
    for key in ("acc", "delta_g", "delta_s"):
        assert row[f"{key}_original"] == pytest.approx(printed[key], abs=1e-9), key
