"""WinoMT's readers against the project's labelled sample (resources/winomt/labels/, issue 49;
docs/winomt-labels.md): the sample is the seeded draw, every row is labelled, and the default
reader agrees with the labels at least as well as the authors' reader (as published, 2019)
on the published outputs, reading "neutral" where the labels say so. The held-out Italian
sample (resources/winomt/labels-heldout/, drawn and labelled under the protocol's rule 10
after the first Italian comparison) is checked the same way, with the documented counts."""

from __future__ import annotations

import importlib.util

import pandas as pd
import pytest

from gendermt.benchmarks.winomt.validation import (
    LABELS,
    agreement,
    label_files,
    read_items,
    read_labels,
)

from ...conftest import ROOT

LABEL_DIR = ROOT / "resources" / "winomt" / "labels"
DATA = ROOT.parent / "shared" / "data" / "winomt"
LANGS = ("de", "es", "fr", "it")
HELDOUT_DIR = ROOT / "resources" / "winomt" / "labels-heldout"
# agree of n, on every row and on the sure rows, of each reader with the held-out Italian
# labels on the real published files: docs/winomt-labels.md, "Italian, held out"; change the
# two together
HELDOUT_AGREE = {"corrected": (119, 120, 98, 99), "published": (113, 120, 92, 99),
                 "original": (103, 120, 86, 99)}


def _sampler():
    spec = importlib.util.spec_from_file_location(
        "winomt_label_sample", ROOT / "tools" / "winomt_label_sample.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_language_has_its_labelled_draw():
    files = label_files(LABEL_DIR)
    assert [f.stem for f in files] == list(LANGS)
    for path in files:
        labels = read_labels(path)  # refuses an empty or unknown label
        assert len(labels) >= 100 and set(labels["label"]) <= set(LABELS)
        assert set(labels["lang"]) == {path.stem}
        assert (labels["note"].str.len() > 0).all()
        # four systems, 30 entities each, none twice
        assert labels.groupby("system").size().to_dict() == {
            "aws": 30, "bing": 30, "google": 30, "systran": 30}
        assert not labels.duplicated(["item_id"]).any()


@pytest.mark.skipif(not (DATA / "en.txt").is_file(), reason="no ../shared/data/winomt")
def test_the_labelled_rows_are_the_seeded_draw_of_the_published_outputs():
    sample = _sampler()
    for lang in LANGS:
        drawn = pd.DataFrame(sample.draw(DATA, lang))
        labels = read_labels(LABEL_DIR / f"{lang}.tsv")
        assert list(zip(labels["system"], labels["item_id"], strict=True)) == list(
            zip(drawn["system"], drawn["item_id"], strict=True))
        assert list(labels["translation"]) == [t.strip() for t in drawn["translation"]]


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    if not (DATA / "en.txt").is_file():
        pytest.skip("no ../shared/data/winomt (the published outputs)")
    from gendermt.benchmarks.winomt.cli import read_hypotheses
    from gendermt.benchmarks.winomt.data import load

    labels = pd.concat([read_labels(f) for f in label_files(LABEL_DIR)], ignore_index=True)
    data = load(DATA / "en.txt")
    hypotheses = {(s, g): read_hypotheses(str(DATA / "translations" / s / f"en-{g}.txt"),
                                          data["source"].tolist())
                  for s, g in sorted(set(zip(labels["system"], labels["lang"], strict=True)))}
    readings = read_items(labels, data, hypotheses, ["corrected", "published"])
    return agreement(labels, readings).set_index(["lang", "reader"])


def test_the_default_reader_agrees_at_least_as_well_as_the_published(table):
    for lang in LANGS:
        ours, theirs = table.loc[(lang, "corrected")], table.loc[(lang, "published")]
        # on the rows the annotators were sure of (marked before any comparison)
        assert ours["agree_sure"] >= theirs["agree_sure"], lang
        # on every row in es, fr and de; in it, the seven "qualcuno" rows (labelled male by
        # the Italian annotator's rule, read neutral by the reader, flagged uncertain before
        # the comparison) put it below: docs/winomt-labels.md; the held-out Italian sample,
        # labelled under the convention decided since, is checked below
        if lang != "it":
            assert ours["agree"] >= theirs["agree"], lang


def test_the_default_reader_reads_neutral_where_the_labels_say_so(table):
    for lang in LANGS:
        confusion = table.loc[(lang, "corrected"), "confusion"]
        neutral = confusion.get("neutral", {})
        assert sum(neutral.values()) > 0
        # most labelled-neutral entities are read neutral (the rest: la guardia/la garde,
        # grammatically feminine, flagged uncertain)
        assert neutral.get("neutral", 0) >= 0.6 * sum(neutral.values()), (lang, neutral)


def test_the_heldout_italian_sample_is_labelled_and_shares_no_sentence():
    labels = read_labels(HELDOUT_DIR / "it.tsv")
    assert [f.stem for f in label_files(HELDOUT_DIR)] == ["it"]
    assert len(labels) == 120 and set(labels["lang"]) == {"it"}
    assert (labels["note"].str.len() > 0).all()
    assert labels.groupby("system").size().to_dict() == {
        "aws": 30, "bing": 30, "google": 30, "systran": 30}
    assert labels["label"].value_counts().to_dict() == {"male": 96, "neutral": 13,
                                                        "female": 11}
    assert int((labels["uncertain"] == "yes").sum()) == 21
    first = set(read_labels(LABEL_DIR / "it.tsv")["item_id"])
    assert not labels.duplicated(["item_id"]).any()
    assert not set(labels["item_id"]) & first


@pytest.mark.skipif(not (DATA / "en.txt").is_file(), reason="no ../shared/data/winomt")
def test_the_heldout_rows_are_their_own_seeded_draw():
    sample = _sampler()
    first = set(read_labels(LABEL_DIR / "it.tsv")["item_id"])
    drawn = pd.DataFrame(sample.draw(DATA, "it", sample.HELDOUT_SEED, exclude=first))
    labels = read_labels(HELDOUT_DIR / "it.tsv")
    assert list(zip(labels["system"], labels["item_id"], strict=True)) == list(
        zip(drawn["system"], drawn["item_id"], strict=True))
    assert list(labels["translation"]) == list(drawn["translation"])
    # without the exclusion the seed draws some of the first sample's sentences: the
    # exclusion is what keeps the two apart
    assert set(pd.DataFrame(sample.draw(DATA, "it", sample.HELDOUT_SEED))["item_id"]) & first


@pytest.fixture(scope="module")
def heldout() -> tuple[pd.DataFrame, dict[str, list[str]], pd.DataFrame]:
    if not (DATA / "en.txt").is_file():
        pytest.skip("no ../shared/data/winomt (the published outputs)")
    from gendermt.benchmarks.winomt.cli import read_hypotheses
    from gendermt.benchmarks.winomt.data import load

    labels = read_labels(HELDOUT_DIR / "it.tsv")
    data = load(DATA / "en.txt")
    hypotheses = {(s, "it"): read_hypotheses(str(DATA / "translations" / s / "en-it.txt"),
                                             data["source"].tolist())
                  for s in sorted(set(labels["system"]))}
    readings = read_items(labels, data, hypotheses, list(HELDOUT_AGREE))
    return labels, readings, agreement(labels, readings).set_index("reader")


def test_the_heldout_comparison_is_the_documented_one(heldout):
    _, _, table = heldout
    got = {reader: (int(row["agree"]), int(row["n"]), int(row["agree_sure"]),
                    int(row["n_sure"])) for reader, row in table.iterrows()}
    assert got == HELDOUT_AGREE
    # the clause, on labels no reader and no protocol decision has seen
    assert table.loc["corrected", "agree"] >= table.loc["published", "agree"]
    assert table.loc["corrected", "agree_sure"] >= table.loc["published", "agree_sure"]


def test_the_heldout_someone_rows_are_neutral_for_the_default_reader_only(heldout):
    labels, readings, table = heldout
    # every labelled-neutral entity (epicene nouns after l', and qualcuno) is read neutral
    assert table.loc["corrected", "confusion"]["neutral"] == {"neutral": 13}
    someone = [k for k, t in enumerate(labels["translation"])
               if "qualcuno" in t.lower() and labels["entity"].iloc[k] == "someone"]
    assert len(someone) == 2
    assert {readings["corrected"][k] for k in someone} == {"neutral"}
    assert {readings["published"][k] for k in someone} == {"male"}
