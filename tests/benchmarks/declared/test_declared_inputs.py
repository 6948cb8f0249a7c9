"""Issue 51 (items 3 and 8): a declared benchmark's blank cells are refused at load (or, when
its file says ``blank_cells: skip``, skipped and counted), an empty reference never scores as
correct, and its data paths stay inside their root and fill only ``{lang}``."""

import json
import os

import pytest
import yaml

from gendermt.benchmarks.declared import evaluate as declared_eval
from gendermt.benchmarks.declared.data import build, files, segments
from gendermt.benchmarks.declared.spec import load
from gendermt.benchmarks.mt_geneval.metric import decide
from gendermt.core.errors import DatasetError, GenderMTError

SPEC = {
    "name": "blank-test", "label": "Blank test", "languages": ["fr"],
    "genders": ["female", "male"],
    "data": {"format": "tsv", "path": "items_{lang}.tsv", "id": "id", "source": "src",
             "reference": {"female": "ref_f", "male": "ref_m"}},
    "metrics": ["gendered_word_accuracy"],
    "fragments": {"task": "Translate into {tgt_lang_name}: {source}"},
    "templates": {"plain": {"version": 1, "user": ["task"]}},
}
HEADER = "id\tsrc\tref_f\tref_m\n"
GOOD = ("1\tThe doctor arrived.\tLa doctoresse est arrivée.\tLe docteur est arrivé.\n"
        "2\tThe nurse left.\tL'infirmière est partie.\tL'infirmier est parti.\n")
BLANK_REF = "3\tThe judge spoke.\t \tLe juge a parlé.\n"  # a space: blank all the same


def write(folder, table, **data):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "items_fr.tsv").write_text(HEADER + table, encoding="utf-8")
    spec = {**SPEC, "data": {**SPEC["data"], **data}}
    path = folder / "benchmark.yaml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    return load(path)


# --- item 3 --------------------------------------------------------------------------------
def test_blank_reference_cell_is_refused_naming_file_row_and_column(tmp_path):
    spec = write(tmp_path / "b", GOOD + BLANK_REF)
    with pytest.raises(DatasetError) as err:
        segments(spec, ["fr"])
    message = str(err.value)
    assert "items_fr.tsv" in message and "row 4" in message and "'ref_f'" in message
    assert "blank" in message and "blank_cells: skip" in message
    assert "\n" not in message


def test_blank_source_cell_is_refused_in_lines_format(tmp_path):
    folder = tmp_path / "lines"
    folder.mkdir()
    (folder / "src.fr").write_text("The doctor arrived.\n\u200b\n", encoding="utf-8")
    (folder / "f.fr").write_text("La doctoresse.\nL'infirmière.\n", encoding="utf-8")
    (folder / "m.fr").write_text("Le docteur.\nL'infirmier.\n", encoding="utf-8")
    spec = {**SPEC, "data": {"format": "lines", "source": "src.{lang}",
                             "reference": {"female": "f.{lang}", "male": "m.{lang}"}}}
    (folder / "benchmark.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"src\.fr, row 2, column 'data\.source'.*blank"):
        segments(load(folder / "benchmark.yaml"), ["fr"])


def test_blank_cells_skip_drops_the_item_and_counts_it(tmp_path):
    spec = write(tmp_path / "b", GOOD + BLANK_REF, blank_cells="skip")
    data = segments(spec, ["fr"])
    assert sorted(data["pair_id"].unique()) == ["fr-1", "fr-2"]
    assert data.attrs["skipped_blank"] == {"fr": 1}
    # (under a registered benchmark's name: the data table is checked against its columns)
    build({**spec, "name": "mt-geneval-counterfactual"}, ["fr"], None,
          tmp_path / "data.parquet", tmp_path / "data.json")
    provenance = json.loads((tmp_path / "data.json").read_text(encoding="utf-8"))
    assert provenance["skipped_blank"] == {"fr": 1}
    # the run's summary reports the count too
    hyps = tmp_path / "t.jsonl"
    hyps.write_text("".join(json.dumps({"item_id": i, "hypothesis": "x"}) + "\n"
                            for i in data["item_id"]), encoding="utf-8")
    declared_eval.score_run(hyps, tmp_path / "data.parquet", tmp_path / "i.parquet",
                            tmp_path / "i.csv", tmp_path / "s.json", ["female", "male"],
                            ["gendered_word_accuracy"], provenance=tmp_path / "data.json")
    summary = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert summary["skipped_blank"] == {"fr": 1}


def test_blank_cells_option_is_schema_checked(tmp_path):
    with pytest.raises(GenderMTError, match="data.blank_cells"):
        write(tmp_path / "b", GOOD, blank_cells="ignore")


def test_an_empty_reference_never_scores_as_correct():
    # before: no word of the reference, no incorrect word → "correct"
    assert not decide("anything at all", "", "Le juge a parlé.").correct
    assert not decide("anything at all", " ", "").correct
    assert decide("Le juge", "Le juge", "La juge").correct


def test_all_wrong_outputs_with_a_blank_reference_score_zero(tmp_path):
    # the item with a blank reference, built past the loader's check: it must count wrong
    spec = write(tmp_path / "b", GOOD + BLANK_REF, blank_cells="skip")
    data = segments(spec, ["fr"])
    row = data[data["pair_id"] == "fr-1"].copy()
    row["pair_id"] = "fr-3"
    row["item_id"] = row["item_id"].str.replace("fr-1", "fr-3")
    row["reference"] = ""
    row.loc[row["gender"] == "male", "counterfactual_reference"] = ""
    import pandas as pd

    data = pd.concat([data, row], ignore_index=True)
    wrong = data["counterfactual_reference"].tolist()
    _, summary = declared_eval.summarise(data, wrong, ["female", "male"],
                                         ["gendered_word_accuracy"])
    assert summary["accuracy"][0]["accuracy"] == 0.0


# --- item 8 --------------------------------------------------------------------------------
@pytest.mark.parametrize(("path", "words"), [
    ("../outside_{lang}.tsv", ["data.path", "'..'"]),
    ("/etc/passwd", ["data.path", "absolute"]),
    ("{lang.__class__}.tsv", ["data.path", "{lang.__class__}", "{lang}"]),
    ("{0}.tsv", ["data.path", "{0}", "{lang}"]),
    ("items_{language}.tsv", ["data.path", "{language}", "{lang}"]),
])
def test_data_paths_are_confined_and_fill_only_lang(tmp_path, path, words):
    with pytest.raises(GenderMTError) as err:
        spec = write(tmp_path / "b", GOOD, path=path)
        files(spec, ["fr"])
    message = str(err.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


def test_a_symlink_out_of_the_root_is_refused_without_its_content(tmp_path):
    secret = tmp_path / "secret.tsv"
    secret.write_text("id\tsrc\nTOPSECRET\tx\n", encoding="utf-8")
    spec = write(tmp_path / "b", GOOD)
    link = tmp_path / "b" / "items_fr.tsv"
    link.unlink()
    os.symlink(secret, link)
    with pytest.raises(GenderMTError) as err:
        segments(spec, ["fr"])
    assert "outside" in str(err.value) and "TOPSECRET" not in str(err.value)
    with pytest.raises(GenderMTError, match="outside"):
        files(spec, ["fr"])
