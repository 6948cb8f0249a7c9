"""The explorer's page (gendermt.report.explorer, .explorer_page): what it embeds, once and
compactly, and that it needs nothing outside itself."""

import re

import pytest

from gendermt.core.errors import GenderMTError
from gendermt.report.explorer import Explorer, Item, Output, encode, pack, unpack
from gendermt.report.explorer_page import page

from ..explorer_support import page_rows


def sample() -> Explorer:
    items = [
        Item(run="fr", item_id="0001", source="The doctor asked the nurse to help her.",
             gold="female", groups={"stereotype": "anti"},
             outputs={"a": Output("Le médecin a demandé …", "male", False, "'médecin': Le"),
                      "b": Output("La médecin a demandé …", "female", True, "'médecin': La")}),
        Item(run="fr", item_id="0002", source="The nurse asked the doctor to help him.",
             gold="male", groups={"stereotype": "pro"},
             outputs={"a": Output("The nurse asked the doctor to help him.", "unknown", False)}),
        Item(run="de", item_id="0001", source="The doctor asked the nurse to help her.",
             gold="female", reference="Die Ärztin …", texts={"context": "Yesterday."},
             groups={"stereotype": "anti"},
             outputs={"b": Output("Die Ärztin bat …", "female", True)}),
    ]
    return Explorer("Bench", "What was read.", ["a", "b"], items, gold_label="gold gender")


def test_the_page_gives_back_every_item_output_and_reading(tmp_path):
    data, rows = page_rows(sample(), tmp_path)
    assert data["runs"] == ["fr", "de"] and data["systems"] == ["a", "b"]
    assert [(r["run"], r["item_id"]) for r in rows] == [("fr", "0001"), ("fr", "0002"),
                                                        ("de", "0001")]
    first = rows[0]
    assert first["gold"] == "female" and first["groups"] == {"stereotype": "anti"}
    assert first["outputs"]["a"] == {"text": "Le médecin a demandé …", "read": "male",
                                     "correct": False, "evidence": "'médecin': Le"}
    assert first["outputs"]["b"]["correct"] is True
    # a system without an output of an item has none there (not an empty one)
    assert set(rows[1]["outputs"]) == {"a"} and set(rows[2]["outputs"]) == {"b"}
    assert rows[2]["reference"] == "Die Ärztin …" and rows[2]["texts"] == {
        "context": "Yesterday."}


def test_the_filters_data_is_in_the_page(tmp_path):
    data, _ = page_rows(sample(), tmp_path)
    strings = data["strings"]
    # gold, stereotype (a group), correctness per system, and each output's reading, which
    # the "systems disagree" view compares
    assert {strings[i] for i in data["items"]["gold"]} == {"female", "male"}
    assert data["groups"] == ["stereotype"]
    assert {strings[i] for i in data["items"]["groups"][0]} == {"anti", "pro"}
    assert data["outputs"][0]["correct"] == "00 " and data["outputs"][1]["correct"] == "1 1"
    assert [strings[i] if i >= 0 else None for i in data["outputs"][0]["read"]] == [
        "male", "unknown", None]
    assert data["gold_label"] == "gold gender" and data["reading"] == "What was read."


def test_every_text_is_stored_once():
    data = encode(sample())
    # the source of 0001 (two runs) and the copied source of 0002 are one string each
    assert data["strings"].count("The doctor asked the nurse to help her.") == 1
    assert data["strings"].count("The nurse asked the doctor to help him.") == 1
    assert unpack(pack(data)) == data


def test_the_page_is_self_contained():
    html = page(sample())
    # no file, script, style or font from elsewhere: it opens offline, without a server
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "@import" not in html
    assert html.count("<script") == 2  # the data, then the program
    # the same data gives the same page, byte for byte
    assert page(sample()) == html


def test_outputs_of_an_unlisted_system_or_no_items_stop_with_a_message():
    bad = sample()
    bad.systems = ["a"]
    with pytest.raises(GenderMTError, match="outputs of systems not in its list: b"):
        encode(bad)
    with pytest.raises(GenderMTError, match="no items to explore"):
        encode(Explorer("Bench", "", ["a"], []))


# ----------------------------------------------------------------- the one loop (issue 64)
def test_explore_makes_each_item_once_with_every_systems_output_in_run_order():
    from gendermt.report.explorer import explore

    runs = [{"system": "b", "prompt": "de"}, {"system": "a", "prompt": "fr"},
            {"system": "b", "prompt": "fr"}]
    table = {("b", "de"): ["2", "1"], ("a", "fr"): ["2"], ("b", "fr"): ["1", "2"]}
    made = []

    def item(run, item_id, rec):
        made.append((run["prompt"], item_id))
        return Item(run=run["prompt"], item_id=item_id, source=f"source {rec}")

    explorer = explore(
        "Bench", "What was read.", runs,
        lambda run: ((i, f"{run['system']}/{i}") for i in table[(run["system"], run["prompt"])]),
        item, lambda run, rec, it: Output(rec, read=f"{it.run}:{it.item_id}"),
        systems=["a", "b", "c"], gold_label="gold gender", groups=["stereotype"])
    # one item per (prompt, item id), made from the first run that has it
    assert sorted(made) == [("de", "1"), ("de", "2"), ("fr", "1"), ("fr", "2")]
    # in run order (prompts as the runs first name them), then by item id
    assert [(i.run, i.item_id) for i in explorer.items] == [
        ("de", "1"), ("de", "2"), ("fr", "1"), ("fr", "2")]
    fr2 = explorer.items[3]
    assert fr2.source == "source a/2"
    assert {s: o.text for s, o in fr2.outputs.items()} == {"a": "a/2", "b": "b/2"}
    assert fr2.outputs["b"].read == "fr:2"
    # the configured systems that ran, in the config's order; the explorer's own labels
    assert explorer.systems == ["a", "b"]
    assert (explorer.gold_label, explorer.groups) == ("gold gender", ["stereotype"])


def test_no_benchmark_repeats_the_loop():
    # a benchmark's explorer says which records, how an item and an output are shown;
    # gendermt.report.explorer.explore (or gather) collects them
    from ..conftest import ROOT

    for path in sorted((ROOT / "src/gendermt/benchmarks").glob("*/explorer.py")):
        code = path.read_text(encoding="utf-8")
        assert "items.get(" not in code and ".outputs[" not in code, path
