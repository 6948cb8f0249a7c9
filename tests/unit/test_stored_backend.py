"""The `stored` backend: reading outputs made elsewhere, and refusing files that do not
cover the benchmark's items exactly."""

import json
import logging

import pandas as pd
import pytest

from gendermt.core.backends import check_system
from gendermt.core.errors import DatasetError, GenderMTError, MissingResourceError
from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.translation.backends import BACKENDS, Request, build_backend
from gendermt.translation.runner import translate_file

DATA = pd.DataFrame({"item_id": ["a", "b", "c"],
                     "source": ["The nurse ate.", "The  doctor slept.", "The cook left."]})


def outputs(backend, data=DATA):
    return backend.translate([Request(i, s) for i, s in zip(data.item_id, data.source,
                                                               strict=True)])


def stored(path, **settings):
    return build_backend({"backend": "stored", "path": str(path), **settings}, DATA)


def test_registered():
    assert BACKENDS["stored"].name == "stored"


def test_lines_in_item_order(tmp_path):
    path = tmp_path / "hyp.txt"
    path.write_text("L'infirmière a mangé.\n\nLe cuisinier est parti.\n", encoding="utf-8")
    assert outputs(stored(path)) == ["L'infirmière a mangé.", "", "Le cuisinier est parti."]


@pytest.mark.parametrize("text, message", [
    ("one\ntwo\n", r"hyp\.txt: 2 lines for 3 items: the last 1 items \(lines 3-3\) have no"),
    ("1\n2\n3\n4\n5\n", r"hyp\.txt: 5 lines for 3 items: lines 4-5 are outputs for items "),
])
def test_lines_must_cover_every_item(tmp_path, text, message):
    path = tmp_path / "hyp.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasetError, match=message):
        stored(path)


def test_path_placeholders_come_from_the_job(tmp_path):
    (tmp_path / "winomt-fr.txt").write_text("x\ny\nz\n", encoding="utf-8")
    settings = {"backend": "stored", "path": str(tmp_path / "{benchmark}-{prompt}.txt")}
    backend = build_backend(settings, DATA, {"benchmark": "winomt", "prompt": "fr"})
    assert outputs(backend) == ["x", "y", "z"]
    assert backend.identity()["path"] == str(tmp_path / "winomt-fr.txt")


def test_missing_file_names_the_resolved_path(tmp_path):
    with pytest.raises(MissingResourceError, match="nope-fr.txt do not exist"):
        build_backend({"backend": "stored", "path": str(tmp_path / "nope-{prompt}.txt")}, DATA,
                      {"prompt": "fr"})


@pytest.mark.parametrize("settings, message", [
    ({"path": "x.txt", "format": "xml"}, "format 'xml' is not one of"),
    ({"path": "x.txt", "column": "hyp"}, "`column` applies only to format: table"),
    ({"path": "x.txt", "source_mismatch": "warn"}, "applies only to format: winomt"),
    ({"path": "x.txt", "format": "winomt", "source_mismatch": "skip"}, "error or warn"),
    ({"path": "out/{system}.txt"}, "may use only {benchmark} and {prompt}"),
    ({"path": "x.txt", "model": "m"}, "has no setting"),
    ({}, "needs \\['path'\\]"),
])
def test_settings_are_checked_at_start_up(settings, message):
    with pytest.raises(GenderMTError, match=message):
        check_system({"backend": "stored", **settings})


def test_table_csv_tsv_jsonl(tmp_path):
    frame = pd.DataFrame({"item_id": ["c", "a", "b"], "hyp": ["C", "A", "B"]})
    frame.to_csv(tmp_path / "h.csv", index=False)
    frame.to_csv(tmp_path / "h.tsv", sep="\t", index=False)
    write_jsonl(tmp_path / "h.jsonl", frame.to_dict("records"))
    for name in ("h.csv", "h.tsv", "h.jsonl"):
        assert outputs(stored(tmp_path / name, format="table", column="hyp")) == ["A", "B", "C"]


@pytest.mark.parametrize("rows, message", [
    ([("a", "A"), ("b", "B")], r"h\.csv, column 'item_id': no output for 1 items \(c\)"),
    ([("a", "A"), ("b", "B"), ("c", "C"), ("d", "D"), ("e", "E")],
     r"outputs for 2 items the benchmark does not have \(d, e\)"),
    ([("a", "A"), ("b", "B"), ("x", "X")], r"no output for 1 items \(c\); outputs for 1 items"),
    ([("a", "A"), ("a", "A2"), ("b", "B"), ("c", "C")], r"items a appear more than once"),
])
def test_table_must_cover_exactly_the_items(tmp_path, rows, message):
    pd.DataFrame(rows, columns=["item_id", "hypothesis"]).to_csv(tmp_path / "h.csv", index=False)
    with pytest.raises(DatasetError, match=message):
        stored(tmp_path / "h.csv", format="table")


def test_table_without_the_column(tmp_path):
    pd.DataFrame({"item_id": ["a", "b", "c"], "output": list("ABC")}).to_csv(
        tmp_path / "h.csv", index=False)
    with pytest.raises(DatasetError, match=r"h\.csv: no column 'hypothesis'.*'output'"):
        stored(tmp_path / "h.csv", format="table")


def test_winomt_lines_check_the_source_side(tmp_path, caplog):
    path = tmp_path / "en-fr.txt"
    path.write_text("The nurse ate. ||| L'infirmière a mangé.\n"
                    "The doctor slept. ||| Le médecin a dormi.\n"   # spaces normalised
                    "The cook left. ||| Le cuisinier est parti.\n", encoding="utf-8")
    assert outputs(stored(path, format="winomt")) == [
        "L'infirmière a mangé.", "Le médecin a dormi.", "Le cuisinier est parti."]
    path.write_text("The nurse ate. ||| L'infirmière a mangé.\n"
                    "The cook left. ||| Le cuisinier est parti.\n"
                    "The doctor slept. ||| Le médecin a dormi.\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"en-fr\.txt, row 2: the source side 'The cook "
                                           r"left\.' is not item b's sentence"):
        stored(path, format="winomt")
    with caplog.at_level(logging.WARNING):
        backend = stored(path, format="winomt", source_mismatch="warn")
    assert outputs(backend)[1] == "Le cuisinier est parti."
    assert "rows [2, 3]" in caplog.text


def test_winomt_line_without_separator(tmp_path):
    path = tmp_path / "en-fr.txt"
    path.write_text("The nurse ate. ||| a\nThe doctor slept. b\nThe cook left. ||| c\n",
                    encoding="utf-8")
    with pytest.raises(DatasetError, match=r"row 2: no '\|\|\|'"):
        stored(path, format="winomt")


def test_translate_file_with_a_stored_system(tmp_path):
    data = tmp_path / "data.parquet"
    DATA.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, [{"item_id": i, "source": s, "messages": [], "prompt": "fr"}
                         for i, s in zip(DATA.item_id, DATA.source, strict=True)])
    (tmp_path / "winomt-fr.txt").write_text("x\ny\nz\n", encoding="utf-8")
    settings = {"backend": "stored", "path": str(tmp_path / "{benchmark}-{prompt}.txt")}
    out, meta = tmp_path / "t.jsonl", tmp_path / "t.meta.json"
    translate_file(inputs, data, "s", settings, out, meta, benchmark="winomt")
    assert [r["hypothesis"] for r in read_jsonl(out)] == ["x", "y", "z"]
    assert json.loads(meta.read_text())["backend"]["path"].endswith("winomt-fr.txt")


def test_a_subset_reads_its_items_lines_of_the_full_sets_file(tmp_path):
    # a study's subset (gendermt.data.subsets) keeps each item's row of the full set: a stored
    # file of the full set is read at those lines, never by position in the subset
    from gendermt.data.subsets import choose

    full = pd.DataFrame({"item_id": [f"{i:02d}" for i in range(10)],
                         "source": [f"Sentence {i}." for i in range(10)]})
    subset, _ = choose(full, 3, 5)
    lines = tmp_path / "hyp.txt"
    lines.write_text("".join(f"Phrase {i}.\n" for i in range(10)), encoding="utf-8")
    rows = [int(i) for i in subset.item_id]
    got = outputs(build_backend({"backend": "stored", "path": str(lines)}, subset), subset)
    assert got == [f"Phrase {i}." for i in rows] and rows != [0, 1, 2]
    winomt = tmp_path / "en-fr.txt"
    winomt.write_text("".join(f"Sentence {i}. ||| Phrase {i}.\n" for i in range(10)),
                      encoding="utf-8")
    got = outputs(build_backend({"backend": "stored", "path": str(winomt), "format": "winomt"},
                                subset), subset)
    assert got == [f"Phrase {i}." for i in rows]
    # a file shorter than the full set's row still says so
    lines.write_text("Phrase 0.\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="1 lines for"):
        build_backend({"backend": "stored", "path": str(lines)}, subset)


def test_a_benchmarks_format_comes_from_its_contract(monkeypatch):
    """`format: winomt` is WinoMT's (its contract's stored_formats), not the backend's: the
    backend knows its own two, and loads the reader of a provided one by name."""
    from gendermt.benchmarks.winomt import stored_format
    from gendermt.core import registry
    from gendermt.core.contract import StoredFormat, resolve
    from gendermt.translation.backends import stored as stored_module
    from gendermt.translation.backends import system_modules

    assert stored_module.FORMATS == ("lines", "table")
    provided = registry.get("winomt").stored_formats["winomt"]
    assert resolve(provided.reader) is stored_format.read
    assert stored_module.formats()["winomt"] is provided
    settings = {"backend": "stored", "path": "x.txt", "format": "winomt"}
    assert system_modules(settings) == ["gendermt.translation.backends.stored",
                                        "gendermt.benchmarks.winomt.stored_format"]
    assert system_modules({"backend": "stored", "path": "x.txt"}) == [
        "gendermt.translation.backends.stored"]
    # a contract cannot take over one of the backend's own formats
    monkeypatch.setattr(registry, "stored_formats",
                        lambda: {"lines": StoredFormat("m:f"), "winomt": provided})
    with pytest.raises(GenderMTError, match="lines are the backend's own"):
        check_system({"backend": "stored", "path": "x.txt"})


def read_probe(path, data, case="upper"):
    """A format's reader, as a contract names it (test_a_provided_formats_settings_...)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {str(i): getattr(line, case)() for i, line in zip(data.item_id, lines, strict=True)}


def test_a_provided_formats_settings_are_its_own(tmp_path, monkeypatch):
    """A format's settings are checked against what its contract declares, and the first
    allowed value is the default the reader gets."""
    from gendermt.core import registry
    from gendermt.core.contract import StoredFormat

    monkeypatch.setattr(registry, "stored_formats", lambda: {
        "probe": StoredFormat("tests.unit.test_stored_backend:read_probe",
                              settings={"case": ("upper", "lower")})})
    path = tmp_path / "h.txt"
    path.write_text("Un\nDeux\nTrois\n", encoding="utf-8")
    assert outputs(stored(path, format="probe")) == ["UN", "DEUX", "TROIS"]
    assert outputs(stored(path, format="probe", case="lower")) == ["un", "deux", "trois"]
    with pytest.raises(GenderMTError, match="case must be upper or lower"):
        check_system({"backend": "stored", "path": "x", "format": "probe", "case": "title"})
    with pytest.raises(GenderMTError, match="`case` applies only to format: probe"):
        check_system({"backend": "stored", "path": "x", "case": "lower"})
    with pytest.raises(GenderMTError, match="format 'winomt' is not one of"):
        check_system({"backend": "stored", "path": "x", "format": "winomt"})
