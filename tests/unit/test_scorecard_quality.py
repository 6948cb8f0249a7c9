"""The scorecard never flatters a broken system: each system's headline prompt (a system
that ran only a few-shot prompt has its row, and every cell names its prompt), quality floors
per benchmark (WinoMT's readable genders), low-quality cells never tinted in the HTML, and
headers that wrap."""

import re

import pandas as pd
import pytest

from gendermt.core.errors import GenderMTError
from gendermt.scorecard.build import build, floors_by_benchmark, to_records
from gendermt.scorecard.page import frame_and_styles, scorecard_table
from gendermt.scorecard.write import markdown


def _write(path, frame):
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False)


def _by_gender(rows):
    """rows: (system, prompt, (male, female, inclusive) BLEU means)."""
    out = []
    for system, prompt, means in rows:
        for gender, mean in zip(("male", "female", "inclusive"), means, strict=True):
            out.append({"metric": "bleu", "system": system, "prompt": prompt,
                        "gender": gender, "n": 4, "mean": mean})
    return pd.DataFrame(out)


@pytest.fixture
def fewshot(tmp_path):
    """FairTranslate: `chat` ran baseline and moral; `base` ran only `fewshot` (a base LLM's
    completion prompt); `broken` ran baseline and does not translate (BLEU 2)."""
    res = tmp_path / "results"
    _write(res / "fairtranslate" / "tables" / "by_gender.csv", _by_gender([
        ("chat", "baseline", (30.0, 25.0, 20.0)), ("chat", "moral", (31.0, 31.0, 31.0)),
        ("base", "fewshot", (22.0, 21.0, 14.0)), ("broken", "baseline", (2.0, 2.0, 2.1))]))
    return res


def test_a_system_that_ran_only_another_prompt_has_its_row(fewshot):
    card = build(fewshot, prompt_order={"fairtranslate": ["baseline", "moral", "fewshot"]})
    assert card.systems == ["chat", "base", "broken"]
    records = {r["system"]: r["fairtranslate"] for r in to_records(card)}
    assert records["base"]["run"] == "fewshot"
    assert records["base"]["bleu_male_minus_inclusive"] == pytest.approx(8.0)
    assert records["chat"]["run"] == "baseline"
    assert records["chat"]["bleu_male_minus_inclusive"] == pytest.approx(10.0)
    # every cell names its prompt: a prompt column in the Markdown and HTML, one per row
    md = markdown(card)
    assert "FairTranslate · prompt" in md
    assert re.search(r"^\| base \| fewshot \|", md, re.M)
    assert re.search(r"^\| chat \| baseline \|", md, re.M)
    frame, _ = frame_and_styles(card)
    assert frame.set_index("system").loc["base", "prompt"] == "fewshot"
    assert card.wide().set_index("system").loc["base", "FairTranslate · prompt"] == "fewshot"
    gap = next(f for f in card.figures if f.key == "bleu_male_minus_inclusive")
    assert gap.run == "baseline (base: fewshot)"


def test_the_headline_prompt_is_configurable(fewshot):
    card = build(fewshot, headline={"fairtranslate": {"chat": "moral"}},
                 prompt_order={"fairtranslate": ["baseline", "moral", "fewshot"]})
    records = {r["system"]: r["fairtranslate"] for r in to_records(card)}
    assert records["chat"]["run"] == "moral"
    assert records["chat"]["bleu_male_minus_inclusive"] == pytest.approx(0.0)
    with pytest.raises(GenderMTError, match=r"headline_prompts\.fairtranslate\.chat: "
                                            r"'fewshot' was not run"):
        build(fewshot, headline={"fairtranslate": {"chat": "fewshot"}})
    with pytest.raises(GenderMTError, match=r"headline_prompts\.nosuch"):
        build(fewshot, headline={"nosuch": {"chat": "moral"}})


def test_low_quality_cells_are_never_tinted_and_headers_wrap(fewshot):
    card = build(fewshot)
    frame, styles = frame_and_styles(card)
    rows = list(frame["system"])
    gap = list(frame.columns).index("BLEU male−inclusive")
    broken = rows.index("broken")
    # the broken system's gap (0.05) is the closest to 0: before, it was the greenest
    assert "(low quality)" in frame.iloc[broken, gap]
    assert styles[broken][gap] is None
    # no lead group tested: nothing is shaded (no column is stretched from worst to best)
    assert all(s is None for row in styles for s in row)
    html = scorecard_table(card)
    cells = re.findall(r"<td[^>]*>(?:(?!</td>).)*\(low quality\)(?:(?!</td>).)*</td>", html)
    assert cells and all("gmt-lead" not in c and "style=" not in c for c in cells)
    # the wrapping rule comes after the table's own nowrap rule and is more specific
    wrap = html.index(".gmt-score .gmt-table thead th{white-space:normal")
    assert html.index("white-space:nowrap}") < wrap
    assert "(low quality)" in html.split("gmt-note")[-1]  # the legend explains it
    assert "BLEU 10" in html.split("gmt-note")[-1] or "bleu_all 10" in html


def _winomt(res, rows):
    _write(res / "winomt" / "tables" / "summary.csv", pd.DataFrame(rows))


def test_winomt_has_a_quality_floor(tmp_path):
    """SmolLM2's loops: 40 % of genders unreadable and a ΔS near 0, which was coloured as the
    best; the system that translates had the worst colour."""
    res = tmp_path / "results"
    _winomt(res, [
        {"system": "looper", "lang": "fr", "n": 100, "acc": 33.0, "delta_g": 1.0,
         "delta_s": -2.0, "share_unknown": 40.0},
        {"system": "translator", "lang": "fr", "n": 100, "acc": 51.0, "delta_g": 20.0,
         "delta_s": 46.0, "share_unknown": 8.0},
        {"system": "other", "lang": "fr", "n": 100, "acc": 60.0, "delta_g": 10.0,
         "delta_s": 18.0, "share_unknown": 5.0}])
    card = build(res)
    delta_s = next(f for f in card.figures if f.key == "delta_s_fr")
    assert delta_s.quality == "readable_fr"
    assert card.cells[("looper", "winomt", "readable_fr")].value == 60
    assert card.below_floor("looper", delta_s) and not card.below_floor("translator", delta_s)
    assert "over 100 sentences" in delta_s.how
    frame, styles = frame_and_styles(card)
    j = list(frame.columns).index("ΔS (fr)")
    assert styles[list(frame["system"]).index("looper")][j] is None
    # a floor per benchmark from the config
    card = build(res, floors={"winomt": {"readable": 50}})
    assert not card.below_floor("looper", delta_s)


def test_floors_by_benchmark():
    floors = floors_by_benchmark({"bleu_all": 12, "winomt": {"readable": 80},
                                  "gambit": {"clean_share": 50}}, ["fairtranslate", "winomt",
                                                                   "grape"])
    assert floors["fairtranslate"] == {"clean_share": 90.0, "bleu_all": 12.0}
    assert floors["winomt"]["readable"] == 80 and floors["grape"]["clean_share"] == 50
    with pytest.raises(GenderMTError, match=r"quality_floors\.nosuch: no such benchmark"):
        floors_by_benchmark({"nosuch": {"x": 1}}, ["winomt"])


def test_the_schema_takes_floors_per_benchmark_and_headline_prompts():
    from pathlib import Path

    import yaml

    from gendermt.config.checks import check_schema

    root = Path(__file__).parents[2]
    schema = root / "workflow/schemas/config.schema.yaml"
    base = yaml.safe_load((root / "config/config.yaml").read_text(encoding="utf-8"))
    check_schema(base, schema)
    check_schema({**base, "scorecard": {
        "quality_floors": {"bleu_all": 10, "winomt": {"readable": 75}},
        "headline_prompts": {"fairtranslate": {"g": "fewshot"}}}}, schema)
    for bad in ({"quality_floors": {"winomt": {"readable": "high"}}},
                {"quality_floors": {"bleu_all": "ten"}},
                {"headline_prompts": {"fairtranslate": "fewshot"}}):
        with pytest.raises(GenderMTError, match="scorecard"):
            check_schema({**base, "scorecard": bad}, schema)


def test_config_check_names_a_bad_headline_prompt_at_start_up():
    from pathlib import Path

    import yaml

    from gendermt.config.checks import check_scorecard

    root = Path(__file__).parents[2]
    config = yaml.safe_load((root / "config/config.yaml").read_text(encoding="utf-8"))
    check_scorecard({**config, "scorecard": {"headline_prompts": {
        "fairtranslate": {"copy-source": "moral"}}}})
    for bad, match in (
            ({"headline_prompts": {"fairtranslate": {"gemma3-270m": "moral"}}},
             r"headline_prompts\.fairtranslate\.gemma3-270m: 'moral' is not one of the "
             r"prompts it runs \(fewshot\)"),
            ({"headline_prompts": {"nosuch": {"copy-source": "baseline"}}},
             r"headline_prompts\.nosuch: not a configured benchmark"),
            ({"headline_prompts": {"fairtranslate": {"ghost": "baseline"}}},
             r"headline_prompts\.fairtranslate\.ghost: not defined"),
            ({"quality_floors": {"wino": {"readable": 70}}},
             r"quality_floors\.wino: not a benchmark")):
        with pytest.raises(GenderMTError, match=match):
            check_scorecard({**config, "scorecard": bad})
