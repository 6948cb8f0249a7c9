import json

import pytest

from gendermt.core.errors import GenderMTError
from gendermt.data.io import read_jsonl
from gendermt.translation.backends import BACKENDS, Request, build_backend, system_gpus
from gendermt.translation.backends.base import Backend
from gendermt.translation.postprocess import first_line, pipeline, strip_quotes
from gendermt.translation.runner import translate_file


def requests_for(data):
    return [Request(r.item_id, r.source) for r in data.itertuples()]


@pytest.mark.parametrize("gender", ["male", "female", "inclusive"])
def test_oracle_returns_the_reference_of_that_gender(sample_data, gender):
    oracle = build_backend({"backend": "reference-oracle", "reference": f"ref_{gender}"},
                           sample_data)
    outputs = oracle.translate(requests_for(sample_data))
    for (_, row), out in zip(sample_data.iterrows(), outputs, strict=True):
        siblings = sample_data[(sample_data["example_id"] == row["example_id"])
                               & (sample_data["gender"] == gender)]
        assert out == siblings["reference"].item()
        if row["gender"] == gender:
            assert out == row["reference"]
        else:
            assert out != row["reference"]


def test_oracle_with_an_unknown_column(sample_data):
    with pytest.raises(GenderMTError, match="ref_nonbinary.*reference columns"):
        build_backend({"backend": "reference-oracle", "reference": "ref_nonbinary"}, sample_data)


def test_copy_source(sample_data):
    backend = build_backend({"backend": "copy-source"}, sample_data)
    assert backend.translate(requests_for(sample_data)) == list(sample_data["source"])


def test_unknown_backend(sample_data):
    with pytest.raises(GenderMTError, match="unknown backend 'nllb'.*copy-source"):
        build_backend({"backend": "nllb"}, sample_data)


def test_gpu_requests():
    assert system_gpus({"backend": "copy-source"}) == 0
    assert system_gpus({"backend": "copy-source", "gpus": 2}) == 2


@pytest.mark.parametrize("raw, steps, expected", [
    ('"Le chat dort."', ["strip_quotes"], "Le chat dort."),
    ("« Le chat dort. »", ["strip_quotes"], "Le chat dort."),
    ("'L'infirmière'", ["strip_quotes"], "L'infirmière"),
    ("L'infirmière est là.", ["strip_quotes"], "L'infirmière est là."),
    ("\n\nLe chat.\nNote: I kept the gender.", ["first_line"], "Le chat."),
    ('"Le chat."\nExplanation', ["first_line", "strip_quotes"], "Le chat."),
])
def test_postprocess(raw, steps, expected):
    assert pipeline(steps)(raw) == expected


def test_postprocess_unknown_step():
    with pytest.raises(GenderMTError, match="unknown post-processing"):
        pipeline(["lowercase"])
    assert first_line("") == "" and strip_quotes('"') == '"'


def test_translate_file_writes_every_item_in_order(stage, sample_data):
    data, inputs, out, meta = stage
    translate_file(inputs, data, "oracle-male", {"backend": "reference-oracle",
                   "reference": "ref_male"}, out, meta, ["first_line", "strip_quotes"])
    records = read_jsonl(out)
    assert [r["item_id"] for r in records] == list(sample_data["item_id"])
    assert [r["hypothesis"] for r in records] == list(sample_data["ref_male"])
    assert all(set(r) == {"item_id", "key", "raw", "hypothesis", "seconds", "finish_reason"}
               for r in records)
    assert {r["finish_reason"] for r in records} == {"n/a"}  # an oracle does not generate
    info = json.loads(meta.read_text())
    assert info["items"] == 54 and info["translated_this_run"] == 54
    assert info["backend"] == {"backend": "reference-oracle", "reference": "ref_male"}
    assert info["postprocess"] == ["first_line", "strip_quotes"]
    assert not out.with_name(out.name + ".partial").exists()


class Counting(Backend):
    name = "counting"
    default_batch_size = 5
    seen: list[str] = []

    def translate(self, batch):
        Counting.seen.extend(r.item_id for r in batch)
        return [f"« {r.source} »" for r in batch]


def test_resume_translates_only_missing_items(stage, sample_data, monkeypatch):
    """A killed job leaves a partial file (possibly with a torn last line); the rerun
    translates only what is missing and the output has every item once, in order."""
    data, inputs, out, meta = stage
    monkeypatch.setitem(BACKENDS, "counting", Counting)
    ids = list(sample_data["item_id"])
    source = dict(zip(sample_data["item_id"], sample_data["source"], strict=True))
    counting = Counting({"backend": "counting"}, None)  # its request digest: the key
    partial = out.with_name(out.name + ".partial")
    partial.parent.mkdir(parents=True)
    done = [ids[3], ids[0], ids[10]]  # any order, as batches may finish
    stale = ids[20]  # made for another prompt: must be translated again
    with partial.open("w") as fh:
        for item in done:
            key = counting.request_digest(Request(item, source[item], []))[:16]
            fh.write(json.dumps({"item_id": item, "key": key, "raw": '"kept"',
                                 "seconds": 0.1}) + "\n")
        key = counting.request_digest(Request(stale, source[stale], [{"role": "user",
                                                                       "content": "other"}]))[:16]
        fh.write(json.dumps({"item_id": stale, "key": key, "raw": "old", "seconds": 0}) + "\n")
        fh.write('{"item_id": "' + ids[11] + '", "raw": "tor')  # killed mid-write
    Counting.seen = []
    translate_file(inputs, data, "counting", {"backend": "counting"}, out, meta, ["strip_quotes"])
    # every missing item is translated; items with the same source (the same request) once
    missing = set(ids) - set(done)
    assert set(Counting.seen) <= missing
    assert sorted(source[i] for i in Counting.seen) == sorted({source[i] for i in missing})
    records = read_jsonl(out)
    assert [r["item_id"] for r in records] == ids
    by_id = {r["item_id"]: r for r in records}
    # post-processing applies to resumed outputs too
    assert all(by_id[i]["raw"] == '"kept"' and by_id[i]["hypothesis"] == "kept" for i in done)
    assert by_id[stale]["raw"] == f"« {source[stale]} »"
    first_new = next(i for i in ids if i not in done)
    assert by_id[first_new]["raw"].startswith("« ")
    assert by_id[first_new]["hypothesis"] == source[first_new]
    info = json.loads(meta.read_text())
    assert info["resumed_items"] == 3 and info["translated_this_run"] == 51
    assert not partial.exists()


class Failing(Backend):
    name = "failing"
    default_batch_size = 10
    calls = 0

    def translate(self, batch):
        Failing.calls += 1
        if Failing.calls == 3:
            raise RuntimeError("GPU fell off the bus")
        return [r.source for r in batch]


def test_a_failed_job_leaves_no_output_but_keeps_its_progress(stage, monkeypatch):
    data, inputs, out, meta = stage
    monkeypatch.setitem(BACKENDS, "failing", Failing)
    Failing.calls = 0
    with pytest.raises(RuntimeError, match="bus"):
        translate_file(inputs, data, "failing", {"backend": "failing"}, out, meta)
    assert not out.exists() and not meta.exists()
    assert len(read_jsonl(out.with_name(out.name + ".partial"))) == 20
    translate_file(inputs, data, "failing", {"backend": "failing"}, out, meta)
    assert len(read_jsonl(out)) == 54
    assert json.loads(meta.read_text())["resumed_items"] == 20


@pytest.mark.parametrize("settings, message", [
    ({"backend": "reference-oracle"}, r"needs \['reference'\]"),
    ({"backend": "copy-source", "model": "x"}, r"has no setting\(s\) \['model'\]"),
    ({"backend": "marian"}, "unknown backend 'marian'"),
])
def test_system_settings_are_checked_up_front(settings, message):
    from gendermt.core.backends import check_system

    with pytest.raises(GenderMTError, match=message):
        check_system(settings)
    check_system({"backend": "reference-oracle", "reference": "ref_male", "batch_size": 8})


def test_translation_logs_progress_lines_with_rate_and_eta(stage, caplog):
    """A job's log gets readable progress lines (not only tqdm's carriage-return bar)."""
    data, inputs, out, meta = stage
    with caplog.at_level("INFO", logger="gendermt.data.progress"):
        translate_file(inputs, data, "copy", {"backend": "copy-source"}, out, meta)
    lines = [r.getMessage() for r in caplog.records if r.name == "gendermt.data.progress"]
    assert lines and lines[-1].startswith("translate copy: 54/54 items (100%)")
    assert "items/s" in lines[-1]
