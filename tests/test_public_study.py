"""The public study's figures against an independent tool, on that run's own outputs
(config/study/public.yaml; skipped where results/public does not exist, e.g. before CI has
run the study): MT-GenEval's BLEU and chrF against sacrebleu itself."""

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
