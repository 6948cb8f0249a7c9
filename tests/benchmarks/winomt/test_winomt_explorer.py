"""WinoMT's explorer (gendermt.benchmarks.winomt.explorer): a sentence found with every
system's translation, the gender read from it and its evidence, in the page's data and in the
page as headless Chromium renders it; the filters' data (gold, stereotype, correctness)."""

import html

import pandas as pd
import pytest

from gendermt.benchmarks.winomt.explorer import read
from gendermt.report.explorer_page import write_page

from ...explorer_support import CHROMIUM, page_rows, rendered

SENTENCE = "The developer argued with the designer because she did not like the design."
# rows of the public study's per-sentence tables (gender/corrected/<system>/<lang>.parquet),
# as the reader wrote them; copy-source's (the English again) is the project's own
ROWS = {
    ("google", "fr"): [
        ("0000", "female", "anti", "developer", SENTENCE,
         "Le développeur s'est disputé avec la designer car elle n'aimait pas le design.",
         "développeur", "male", "'développeur': determiner 'Le'", False, False),
        ("1700", "male", "pro", "laborer",
         "The nurse was running from the laborer because he smelled awful.",
         "L'infirmière fuyait le travailleur parce qu'il sentait mauvais.", "travailleur",
         "male", "'travailleur': determiner 'le'", True, False)],
    ("bing", "fr"): [
        ("0000", "female", "anti", "developer", SENTENCE,
         "Le développeur a discuté avec le concepteur parce qu'elle n'a pas aimé la "
         "conception.", "développeur", "male", "'développeur': determiner 'Le'", False, False),
        ("1700", "male", "pro", "laborer",
         "The nurse was running from the laborer because he smelled awful.",
         "L'infirmière était en cours d'exécution de l'ouvrier parce qu'il sentait terrible.",
         "ouvrier", "male", "'ouvrier': Gender=Masc (NOUN)", True, False)],
    ("apertium-en-fr-via-es", "fr"): [
        ("0000", "female", "anti", "developer", SENTENCE,
         "Le développeur disputé avec le diseñador parce que ne lui a pas plu la création.",
         "développeur", "male", "'développeur': determiner 'Le'", False, False),
        ("1700", "male", "pro", "laborer",
         "The nurse was running from the laborer because he smelled awful.",
         "L'infirmier courait du peón parce qu'olió   terrible.", "peón", "male",
         "'peón': determiner 'du'", True, True)],
    ("copy-source", "fr"): [
        ("0000", "female", "anti", "developer", SENTENCE, SENTENCE, None, "unknown", "", False,
         False),
        ("1700", "male", "pro", "laborer",
         "The nurse was running from the laborer because he smelled awful.",
         "The nurse was running from the laborer because he smelled awful.", None, "unknown",
         "", False, False)],
    ("google", "de"): [
        ("0000", "female", "anti", "developer", SENTENCE,
         "Die Entwicklerin argumentierte mit dem Designer, weil sie das Design nicht mochte.",
         "Entwicklerin", "female", "'Entwicklerin': suffix -in", True, False)],
}
COLUMNS = ["item_id", "gold", "stereotype", "entity", "source", "translation", "aligned",
           "predicted", "evidence", "correct", "artefact"]
SYSTEMS = ["google", "bing", "copy-source", "apertium-en-fr-via-es"]


@pytest.fixture
def runs(tmp_path):
    found = []
    for (system, lang), rows in ROWS.items():
        frame = pd.DataFrame(rows, columns=COLUMNS).assign(
            head=lambda f: f["aligned"], system=system, lang=lang, reader="corrected")
        path = tmp_path / "gender" / "corrected" / system / f"{lang}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        frame.to_parquet(path)
        found.append({"system": system, "prompt": lang, "path": str(path)})
    return found


def test_a_sentence_with_every_systems_output_reading_and_evidence(runs, tmp_path):
    data, rows = page_rows(read(runs, systems=SYSTEMS), tmp_path)
    assert data["systems"] == SYSTEMS and data["runs"] == ["fr", "de"]
    (row,) = [r for r in rows if r["run"] == "fr" and r["source"] == SENTENCE]
    assert row["gold"] == "female" and row["groups"] == {"stereotype": "anti",
                                                         "entity": "developer"}
    for system in ("google", "bing", "apertium-en-fr-via-es", "copy-source"):
        (want,) = [r for r in ROWS[(system, "fr")] if r[0] == "0000"]
        got = row["outputs"][system]
        assert got["text"] == want[5] and got["read"] == want[7] and got["correct"] is False
        assert want[8] in got["evidence"]
    # German: only Google ran it, and read the gold gender
    (de,) = [r for r in rows if r["run"] == "de"]
    assert set(de["outputs"]) == {"google"} and de["outputs"]["google"]["correct"] is True
    # an alignment artefact is said so
    (laborer,) = [r for r in rows if r["run"] == "fr" and r["item_id"] == "1700"]
    assert "artefact" in laborer["outputs"]["apertium-en-fr-via-es"]["evidence"]


def test_the_filters_data(runs, tmp_path):
    data, rows = page_rows(read(runs, systems=SYSTEMS), tmp_path)
    assert data["gold_label"] == "gold gender"
    assert {r["gold"] for r in rows} == {"female", "male"}
    assert {r["groups"]["stereotype"] for r in rows} == {"anti", "pro"}
    # correctness per system and item; the readings the "systems disagree" view compares
    fr = [r for r in rows if r["run"] == "fr"]
    assert [{s: o["correct"] for s, o in r["outputs"].items()} for r in fr][1] == {
        "google": True, "bing": True, "apertium-en-fr-via-es": True, "copy-source": False}
    assert [len({o["read"] for o in r["outputs"].values()}) for r in fr] == [2, 2]


@pytest.mark.skipif(not CHROMIUM, reason="chromium is not installed")
def test_chromium_renders_the_sentence_with_every_system(runs, tmp_path):
    path = tmp_path / "page" / "explorer.html"
    write_page(read(runs, systems=SYSTEMS), path)
    dom = rendered(path, "run=fr&q=" + "because she did not like")
    assert 'data-state="ready"' in dom
    table = dom.split('<table id="gmt-table">', 1)[1].split("</table>", 1)[0]
    assert table.count("<tr data-item=") == 1 and 'data-item="0000"' in table
    assert html.escape(SENTENCE, quote=False) in table
    for system in SYSTEMS[:2] + SYSTEMS[3:]:
        (want,) = [r for r in ROWS[(system, "fr")] if r[0] == "0000"]
        assert html.escape(want[5], quote=False) in table, system
        assert html.escape(want[8], quote=False) in table, system
    assert table.count('class="read v0">male<') == 3 and 'class="read v0">unknown<' in table
    # only copy-source and Apertium shown: they disagree on both French sentences; Google
    # and Bing agree on both
    dom = rendered(path, "run=fr&d=1&sys=copy-source,apertium-en-fr-via-es")
    assert "<b>2</b> of 3 items" in dom
    dom = rendered(path, "run=fr&d=1&sys=google,bing")
    assert "<b>0</b> of 3 items" in dom
