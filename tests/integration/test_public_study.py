"""The public study's figures against an independent tool, on that run's own outputs
(config/study/public.yaml; skipped where results/public does not exist, e.g. before CI has
run the study): MT-GenEval's BLEU and chrF against sacrebleu itself, its accuracy against
the official rule, WinoMT's original reader against its own command line, GATE X-E's
rewriting accuracy against exact match on the raw answers (the full set, and the subset of
config/study/public-gemma.yaml, whose tuples are checked to be the full run's of the kept
requests)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from ..conftest import ROOT

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
        # tables keep 10 significant digits (gendermt.data.io.TABLE_DIGITS)
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
    from ..benchmarks.mt_geneval.test_mt_geneval import official_decisions, write

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


@pytest.mark.skipif(not (WINOMT / "tables" / "adjectives.csv").is_file(),
                    reason="no results/public with the adjective experiment")
def test_winomt_adjective_figures_follow_from_the_runs_readings():
    """tables/adjectives.csv's accuracies are the run's readings of the same items: without
    the adjective, the plain system's per-sentence table (its full file) at the adjective
    items; with it, the adjective file's readings; the change their difference, inside its
    interval."""
    table = pd.read_csv(WINOMT / "tables" / "adjectives.csv")
    assert not table.empty
    for row in table.itertuples():
        read = pd.read_parquet(WINOMT / "adjectives" / row.system / f"{row.lang}.parquet")
        read = read[read["reader"] == row.reader]
        plain = pd.read_parquet(WINOMT / "gender" / row.reader / row.system
                                / f"{row.lang}.parquet").set_index("item_id")
        assert len(read) == row.n == 1584 and set(read["stereotype"]) == {"anti"}
        assert read["source"].str.contains(r"\b(?:pretty|handsome)\b").all()
        assert row.acc_adj == pytest.approx(100 * read["correct"].mean())
        assert row.acc_plain == pytest.approx(
            100 * plain.loc[read["item_id"], "correct"].mean())
        assert row.change == pytest.approx(row.acc_adj - row.acc_plain)
        assert row.ci_low <= row.change <= row.ci_high


@pytest.mark.skipif(not (WINOMT / "tables" / "paper.csv").is_file(),
                    reason="no results/public with tables/paper.csv")
def test_winomt_paper_table_values_are_the_readers_summaries():
    """tables/paper.csv (findings' Table 2 section) holds each reader's own summary figures,
    inside their intervals, and names the published file each run read."""
    table = pd.read_csv(WINOMT / "tables" / "paper.csv", keep_default_na=False)
    for row in table.itertuples():
        summary = json.loads((WINOMT / "gender" / row.reader / row.system
                              / f"{row.lang}.json").read_text())
        assert float(row.value) == pytest.approx(summary[row.metric]), row
        assert float(row.ci_low) <= float(row.value) + 0.05 + 1e-9
        assert float(row.value) - 0.05 - 1e-9 <= float(row.ci_high)
        if not row.system.startswith("apertium"):
            assert row.source.endswith(f"/en-{row.lang}.txt") and len(row.commit) == 40


PUBLIC_GEMMA = ROOT / "results" / "public-gemma"
GATE_X_E_LABELS = {"Neutral": "neutral", "Feminine": "feminine", "Masculine": "masculine"}


def _variants(raw: str) -> dict[str, str] | None:
    """A rewriter's three-variant answer read here on its own ("None": keep the original),
    strictly in the format the rule-based and reference rewriters write."""
    if raw.strip() == "None":
        return None
    found = {}
    for line in raw.splitlines():
        label, _, text = line.partition(": ")
        if label in GATE_X_E_LABELS:
            found[GATE_X_E_LABELS[label]] = text
    return found


def _gate_x_e_accuracy(tuples: pd.DataFrame, rewrite: dict[str, str]) -> float:
    """The scorecard's GATE X-E figure, from the paper's rule (§4.2, §5.3) as written here:
    an exact match (surrounding spaces aside) per tuple with a gender-marked original; per
    negative instance, both its feminine and masculine rewrites equal to the original; per
    negative neutral tuple, a match."""
    match = pd.Series([rewrite[t].strip() == r.strip() for t, r in
                       zip(tuples["tuple_id"], tuples["reference"], strict=True)],
                      index=tuples.index)
    negative = tuples["original_gender"] == "negative"
    neutral = tuples["requested_gender"] == "neutral"
    gendered = tuples[negative & ~neutral].assign(match=match[negative & ~neutral])
    both = gendered.groupby("instance_id")["match"].all()
    correct = match[~negative].sum() + both.sum() + match[negative & neutral].sum()
    n = (~negative).sum() + len(both) + (negative & neutral).sum()
    return 100 * correct / n


def _card(results, benchmark: str) -> dict[str, float]:
    card = json.loads((results / "scorecard" / "scorecard.json").read_text())
    return {r["system"]: r[benchmark]["accuracy"] for r in card if r.get(benchmark)}


@pytest.mark.parametrize("results", [PUBLIC, PUBLIC_GEMMA], ids=["full set", "subset"])
def test_gate_x_e_rewriting_accuracy_is_exact_match_on_the_runs_answers(results):
    """The scorecard's GATE X-E figure of every rewriter that answers in three variants (the
    rule-based one, the reference points), from its raw answers and the tuples alone; and
    Gemma's (answering the neutral rewrite alone, the gendered ones derived by the pronoun
    rule that gate_x_e's own tests cover) from its tuples' rewrites: its neutral requests'
    rewrites are its answers as written."""
    folder = results / "gate-x-e"
    if not (results / "scorecard" / "scorecard.json").is_file() or not folder.is_dir():
        pytest.skip(f"no {results} (run its study config first)")
    tuples = pd.read_parquet(folder / "tuples.parquet")
    figures = _card(results, "gate-x-e")
    checked = set()
    for system, figure in figures.items():
        [path] = list((folder / "translations" / system).glob("*.jsonl"))
        with open(path, encoding="utf-8") as fh:
            raws = {r["item_id"]: r["raw"] for r in map(json.loads, fh)}
        if path.stem == "fewshot":  # the neutral rewrite alone
            scored = pd.read_parquet(folder / "rewrites" / system / "fewshot.parquet")
            rewrite = dict(zip(scored["tuple_id"], scored["rewrite"].fillna(""), strict=True))
            for t in tuples[tuples["requested_gender"] == "neutral"].itertuples():
                answer = raws[t.item_id].strip()
                none = answer.rstrip(".").lower() == "none"
                assert rewrite[t.tuple_id] == (t.original if none else answer), t.tuple_id
        else:
            rewrite = {}
            for t in tuples.itertuples():
                variants = _variants(raws[t.item_id])
                rewrite[t.tuple_id] = (t.original if variants is None
                                       else variants.get(t.requested_gender, ""))
        assert figure == pytest.approx(_gate_x_e_accuracy(tuples, rewrite), rel=1e-9), system
        checked.add(system)
    assert {"rule-rewriter", "oracle-rewriter", "keep-original"} <= checked
    assert figures["oracle-rewriter"] == 100


@pytest.mark.skipif(not (PUBLIC / "gate-x-e" / "tuples.parquet").is_file()
                    or not (PUBLIC_GEMMA / "gate-x-e" / "tuples.parquet").is_file(),
                    reason="no results/public and results/public-gemma (run both configs)")
def test_the_gate_x_e_subset_is_whole_instances_with_all_their_tuples():
    """The subset's requests and tuples are the full run's, of whole instances: every request
    of each kept instance, every tuple of each kept request, nothing else."""
    full = pd.read_parquet(PUBLIC / "gate-x-e" / "data.parquet")
    full_tuples = pd.read_parquet(PUBLIC / "gate-x-e" / "tuples.parquet")
    sub = pd.read_parquet(PUBLIC_GEMMA / "gate-x-e" / "data.parquet")
    sub_tuples = pd.read_parquet(PUBLIC_GEMMA / "gate-x-e" / "tuples.parquet")
    instances = set(sub["instance_id"])
    assert list(sub["item_id"]) == list(full[full["instance_id"].isin(instances)]["item_id"])
    expected = full_tuples[full_tuples["item_id"].isin(set(sub["item_id"]))]
    pd.testing.assert_frame_equal(sub_tuples.reset_index(drop=True),
                                  expected.reset_index(drop=True))
    recorded = json.loads((PUBLIC_GEMMA / "gate-x-e" / "data.json").read_text())["subset"]
    assert (recorded["units"], recorded["items"]) == (len(instances), len(sub))
    assert recorded["follow"]["tuples"] == {"rows": len(sub_tuples),
                                            "of_rows": len(full_tuples)}
    # in proportion to language × category: every language has some
    assert set(sub["language"]) == set(full["language"])
