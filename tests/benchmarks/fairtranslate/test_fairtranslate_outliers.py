"""The authors' clean_outlier row filter: per prompt, a row is kept only if every listed
system's COMET is above the threshold; counts per prompt and gender; tables on kept rows."""

import pandas as pd
import pytest

from gendermt.benchmarks.fairtranslate import outliers
from gendermt.benchmarks.fairtranslate.tables import by_gender
from gendermt.core.errors import GenderMTError

SYSTEMS = ["a", "b"]


def _pairs(frame):
    return sorted(set(zip(frame["prompt"], frame["item_id"], strict=True)))


def _scores():
    rows = []
    comet = {  # (prompt, item) → COMET ×100 of systems a, b
        ("p1", "i1"): (90, 70), ("p1", "i2"): (90, 60),  # 60 is not above 0.6: dropped
        ("p1", "i3"): (50, 90), ("p2", "i1"): (61, 61), ("p2", "i2"): (90, 90),
        ("p2", "i3"): (90, None)}  # b has no COMET for it: dropped
    gender = {"i1": "male", "i2": "female", "i3": "inclusive"}
    for (prompt, item), values in comet.items():
        for system, value in zip(SYSTEMS, values, strict=True):
            rows.append((system, prompt, "bleu", item, 10.0, gender[item]))
            if value is not None:
                rows.append((system, prompt, "comet", item, float(value), gender[item]))
    return pd.DataFrame(rows, columns=["system", "prompt", "metric", "item_id", "score",
                                       "gender"])


def test_rows_kept_only_when_every_system_is_above_the_threshold():
    settings = outliers.settings_of({"enabled": True}, SYSTEMS)
    kept, counts = outliers.apply(_scores(), settings)
    assert _pairs(kept) == [("p1", "i1"), ("p2", "i1"), ("p2", "i2")]
    # every metric of a kept row stays, for every system
    assert len(kept) == 3 * 2 * 2
    overall = counts[counts["gender"] == "all"].set_index("prompt")
    assert overall.loc["p1", ["rows", "kept", "dropped"]].tolist() == [3, 1, 2]
    assert overall.loc["p2", ["rows", "kept", "dropped"]].tolist() == [3, 2, 1]
    per_gender = counts.set_index(["prompt", "gender"])
    assert per_gender.loc[("p1", "female"), "dropped"] == 1
    note = outliers.note(counts)
    assert "COMET > 0.6 for every one of a, b" in note
    assert "p1 1 of 3 (2 dropped)" in note and "p2 2 of 3 (1 dropped)" in note
    # the tables are computed on the kept rows
    assert by_gender(kept[kept["metric"] == "bleu"])["n"].sum() == 3 * 2


def test_threshold_and_systems_are_settings():
    looser = outliers.settings_of({"enabled": True, "threshold": 0.5, "systems": ["a"]},
                                  SYSTEMS)
    kept, _ = outliers.apply(_scores(), looser)
    # only a decides, and 0.5 keeps a's 61s; a's 50 (p1, i3) is not above 0.5
    assert _pairs(kept) == [
        ("p1", "i1"), ("p1", "i2"), ("p2", "i1"), ("p2", "i2"), ("p2", "i3")]
    with pytest.raises(GenderMTError, match="names c"):
        outliers.settings_of({"enabled": True, "systems": ["c"]}, SYSTEMS)


def test_off_keeps_everything_and_says_so():
    kept, counts = outliers.apply(_scores(), outliers.settings_of(None, SYSTEMS))
    assert len(kept) == len(_scores())
    assert (counts["dropped"] == 0).all()
    assert "filter is off" in outliers.note(counts)


def test_enabled_without_comet_is_an_error():
    scores = _scores()
    with pytest.raises(GenderMTError, match="no COMET scores"):
        outliers.apply(scores[scores["metric"] != "comet"],
                       outliers.settings_of({"enabled": True}, SYSTEMS))
