"""Where Italian annotations come from: annotators' files (inline, token table), annotated
dataset translations, the LLM annotator; and outputs nobody annotated."""

import json
from typing import ClassVar

import pandas as pd
import pytest

from gendermt.benchmarks.conga.annotations import (
    annotate_file,
    read_alternatives,
    read_inline,
    read_token_table,
    resolve,
    tokens_to_tagged,
)
from gendermt.benchmarks.conga.annotator import load_template, parse_output, render
from gendermt.benchmarks.conga.data import load
from gendermt.benchmarks.conga.tags import TagError, TagScheme
from gendermt.core.errors import DatasetError, GenderMTError
from gendermt.data.io import read_jsonl, write_jsonl, write_parquet
from gendermt.translation.backends import BACKENDS, Backend

from ...conftest import ROOT

SAMPLE = ROOT / "resources" / "conga" / "gENder-IT-sample.tsv"
ALTERNATIVES = ROOT / "resources" / "conga" / "annotations" / "translations.tsv"
TEMPLATES = ROOT / "src/gendermt/benchmarks/conga/prompts/annotate.yaml"
IT = TagScheme.target()


@pytest.fixture(scope="module")
def data():
    return load(SAMPLE)[0]


def _items(data, column="ref_first"):
    return data[["item_id"]].assign(hypothesis=data[column].fillna(""))


def test_alternatives_annotate_outputs_equal_to_a_translation(data):
    records = resolve(_items(data, "ref_last"), [], str(ALTERNATIVES), data, IT)
    assert all(r["status"] == "annotated" for r in records)
    by_id = {r["item_id"]: r for r in records}
    assert by_id["sample-004"]["annotation_source"] == "alternative:G"
    assert by_id["sample-001"]["annotation_source"] == "alternative:C"
    # an output that is no annotated translation stays unannotated: nothing is made up
    other = data[["item_id"]].assign(hypothesis=data["source"])
    assert {r["status"] for r in resolve(other, [], str(ALTERNATIVES), data, IT)} == \
        {"unannotated"}


def test_stale_alternative_annotation_fails(tmp_path, data):
    lines = ALTERNATIVES.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace("sorella", "zia")
    stale = tmp_path / "stale.tsv"
    stale.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="row 1.*stale"):
        read_alternatives(stale, data, IT)


def test_inline_files_txt_and_tsv(tmp_path, data):
    items = _items(data)
    ids = list(items["item_id"])
    txt = tmp_path / "ann.txt"
    tagged = [t.replace("Mia sorella", "Mia <F1> sorella <F1>") for t in items["hypothesis"]]
    txt.write_text("\n".join(tagged) + "\n", encoding="utf-8")
    assert read_inline(txt, ids)["sample-001"].startswith("Mia <F1> sorella <F1>")
    with pytest.raises(DatasetError, match="9 lines for 10 items"):
        txt2 = tmp_path / "short.txt"
        txt2.write_text("\n".join(tagged[:9]) + "\n", encoding="utf-8")
        read_inline(txt2, ids)
    tsv = tmp_path / "ann.tsv"
    pd.DataFrame({"item_id": ["sample-001", "sample-002"],
                  "annotation": [tagged[0], "Testo diverso <M1>."]}).to_csv(
        tsv, sep="\t", index=False)
    records = resolve(items, [{"path": str(tsv), "format": "inline"}], None, data, IT)
    by_id = {r["item_id"]: r for r in records}
    assert by_id["sample-001"]["annotation_source"] == f"inline:{tsv}"
    # annotated text that is not the output is not used
    assert by_id["sample-002"]["status"] == "unannotated"
    assert "differs from the output" in by_id["sample-002"]["notes"][0]
    assert by_id["sample-003"]["status"] == "unannotated"


def test_malformed_tag_in_an_annotators_file_is_an_error(tmp_path, data):
    tsv = tmp_path / "ann.tsv"
    pd.DataFrame({"item_id": ["sample-001"], "annotation": ["Mia <A1> sorella"]}).to_csv(
        tsv, sep="\t", index=False)
    with pytest.raises(TagError, match=r"ann.tsv, item sample-001.*'A'.*no <A> in Italian"):
        resolve(_items(data), [{"path": str(tsv), "format": "inline"}], None, data, IT)


def test_token_table_round_trip_and_offset_check(tmp_path):
    text = "Mio fratello e sua moglie si sono trasferiti a Milano."
    table = tmp_path / "t.tsv"
    table.write_text("item_id\tstart\tend\ttoken\tgender\tentity\n"
                     "x\t0\t3\tMio\tM\t1\n"
                     "x\t4\t12\tfratello\tM\t1\n"
                     "x\t15\t18\tsua\t\t\n"
                     "x\t34\t44\ttrasferiti\tM\t1\n"
                     "x\t34\t44\ttrasferiti\tM\t2\n", encoding="utf-8")
    tokens = read_token_table(table)
    assert tokens_to_tagged(text, tokens["x"], str(table)) == (
        "Mio <M1> fratello <M1> e sua moglie si sono trasferiti <M1> <M2> a Milano.")
    with pytest.raises(GenderMTError, match="row 2: token 'fratello' is not at 4–12"):
        tokens_to_tagged("Mio zio e sua moglie", tokens["x"], str(table))
    bad = tmp_path / "bad.tsv"
    bad.write_text("item_id\tstart\tend\ttoken\tgender\tentity\nx\t0\t3\tMio\tA\t1\n",
                   encoding="utf-8")
    with pytest.raises(DatasetError, match="row 1, column 'gender'"):
        read_token_table(bad)


def test_shipped_token_table_covers_the_first_oracle(data):
    path = ROOT / "resources/conga/annotations/conga-oracle-first/baseline.tokens.tsv"
    records = resolve(_items(data), [{"path": str(path), "format": "token-table"}], None,
                      data, IT)
    assert all(r["annotation_source"] == f"token-table:{path}" for r in records)
    # and it says the same as the annotated translations it was exported from
    again = resolve(_items(data), [], str(ALTERNATIVES), data, IT)
    from gendermt.benchmarks.conga.tags import parse_tagged
    assert [parse_tagged(r["annotation"], IT) for r in records] == \
        [parse_tagged(r["annotation"], IT) for r in again]


def test_empty_output_has_no_gender(data):
    items = _items(data).assign(hypothesis="")
    records = resolve(items, [], None, data, IT)
    assert {r["annotation_source"] for r in records} == {"empty-output"}


def test_parse_annotator_output():
    hyp = "Siamo troppo reattive o sensibili."
    assert parse_output("Siamo troppo reattive <F1> o sensibili.", hyp) == (
        "Siamo troppo reattive <F1> o sensibili.", None)
    assert parse_output('```\n"Siamo troppo reattive <F1> o sensibili."\n```', hyp)[0] == \
        "Siamo troppo reattive <F1> o sensibili."
    tagged, reason = parse_output("Siamo molto reattive <F1> o sensibili.", hyp)
    assert tagged is None and "changed the text" in reason
    tagged, reason = parse_output("Siamo troppo reattive <A1> o sensibili.", hyp)
    assert tagged is None and "malformed tags" in reason
    assert parse_output("", hyp) == (None, "empty answer")


def test_template_renders_the_rules_and_both_sentences():
    template = load_template(TEMPLATES, "conga_rules")
    messages = render(template, "we <F1> are tired", "siamo stanche")
    assert messages[0]["role"] == "system"
    user = messages[1]["content"]
    assert "English: we <F1> are tired" in user and "Italian: siamo stanche" in user
    assert "Never use <A> in Italian" in user and "essere" in user
    with pytest.raises(GenderMTError, match="no annotator template"):
        load_template(TEMPLATES, "nope")


class Scripted(Backend):
    """A chat backend with canned answers, keyed by the Italian it is asked about."""

    name: ClassVar[str] = "scripted"
    answers: ClassVar[dict[str, str]] = {}
    seen: ClassVar[list] = []

    def translate(self, batch):
        Scripted.seen += [r.messages for r in batch]
        return [self.answers.get(r.source, "I cannot do that.") for r in batch]


def _inputs(tmp_path, items, data):
    """The annotator stage's inputs: the items' outputs as a translation file, and the data."""
    translations = tmp_path / "t.jsonl"
    write_jsonl(translations, ({"item_id": i, "raw": h, "hypothesis": h}
                               for i, h in zip(items["item_id"], items["hypothesis"],
                                               strict=True)))
    data_path = tmp_path / "data.parquet"
    write_parquet(data_path, data)
    return translations, data_path


def test_llm_annotator_through_a_backend(tmp_path, data, monkeypatch):
    monkeypatch.setitem(BACKENDS, "scripted", Scripted)
    items = _items(data)
    first = items["hypothesis"].iloc[0]
    Scripted.answers = {first: first.replace("stanca", "stanca <F1>")}
    Scripted.seen = []
    translations, data_path = _inputs(tmp_path, items, data)
    annotator = {"system": "robot", "settings": {"backend": "scripted", "batch_size": 4},
                 "template": load_template(TEMPLATES, "conga_rules")}
    out, summary = tmp_path / "a.jsonl", tmp_path / "a.json"
    annotate_file(translations, data_path, out, summary, alternatives=None,
                  annotator=annotator)
    records = read_jsonl(out)
    assert records[0]["annotation_source"] == "llm:robot@conga_rules:v1"
    assert records[0]["annotator_raw"].endswith("laboratorio.")
    assert all(r["status"] == "unannotated" for r in records[1:])
    assert "rejected" in records[1]["notes"][0]
    assert len(Scripted.seen) == len(records)
    assert "My sister <F1>" in Scripted.seen[0][1]["content"]
    info = json.loads(summary.read_text())
    assert info["by_source"] == {"llm": 1, "unannotated": 9}
    assert info["annotator"]["template"]["version"] == 1


def test_llm_annotator_rerun_sends_nothing_already_answered(tmp_path, data):
    """The annotator goes through the request cache, as translation does: a second run (or a
    run resumed after a kill) asks the loopback server nothing it has already answered."""
    from ...chat_server import ChatServer

    items = _items(data)
    first = items["hypothesis"].iloc[0]

    def responder(body):
        # tags the first output; echoes the others unchanged (no tag: accepted, no entity)
        user = body["messages"][-1]["content"]
        return first.replace("stanca", "stanca <F1>") if first in user else "?"

    translations, data_path = _inputs(tmp_path, items, data)
    with ChatServer(responder=responder) as server:
        annotator = {"system": "robot", "template": load_template(TEMPLATES, "conga_rules"),
                     "settings": {"backend": "openai-compatible", "base_url": server.url,
                                  "model": "scripted-annotator", "temperature": 0,
                                  "timeout": 10, "max_retries": 0, "batch_size": 4}}
        runs = []
        for name in ("first", "second"):
            out, summary = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.json"
            annotate_file(translations, data_path, out, summary, annotator=annotator,
                          cache_dir=tmp_path / "cache")
            runs.append((read_jsonl(out), json.loads(summary.read_text()),
                         len(server.requests)))
    (first_records, first_info, after_first), (records, info, after_second) = runs
    asked = len(items)
    assert after_first == asked and first_info["annotator"]["requests_sent"] == asked
    assert after_second == asked  # nothing sent again
    assert info["annotator"]["requests_sent"] == 0
    assert info["annotator"]["requests_cached"] == asked
    assert records == first_records
    assert records[0]["annotation_source"] == "llm:robot@conga_rules:v1"


class DiesAfter(Scripted):
    """The scripted annotator, killed (an exception) when asked for batch ``limit + 1``."""

    name: ClassVar[str] = "dies-after"
    limit: ClassVar[int | None] = None
    batches: ClassVar[int] = 0

    def translate(self, batch):
        if DiesAfter.limit is not None and DiesAfter.batches >= DiesAfter.limit:
            raise KeyboardInterrupt("killed mid-run")
        DiesAfter.batches += 1
        return super().translate(batch)


def test_llm_annotator_killed_mid_run_resumes_without_asking_again(tmp_path, data,
                                                                   monkeypatch):
    """The engine caches each batch's answers as it returns: an annotator stopped after two
    batches of four, started again, asks only for the items those batches did not cover,
    and writes what an uninterrupted run writes."""
    monkeypatch.setitem(BACKENDS, "dies-after", DiesAfter)
    items = _items(data)
    first = items["hypothesis"].iloc[0]
    monkeypatch.setattr(Scripted, "answers", {first: first.replace("stanca", "stanca <F1>")})
    monkeypatch.setattr(Scripted, "seen", [])
    monkeypatch.setattr(DiesAfter, "limit", 2)
    monkeypatch.setattr(DiesAfter, "batches", 0)
    translations, data_path = _inputs(tmp_path, items, data)
    annotator = {"system": "robot", "settings": {"backend": "dies-after", "batch_size": 4},
                 "template": load_template(TEMPLATES, "conga_rules")}

    def run(name, cache):
        out, summary = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.json"
        annotate_file(translations, data_path, out, summary, annotator=annotator,
                      cache_dir=cache)
        return read_jsonl(out), json.loads(summary.read_text())

    assert len(items) == 10
    with pytest.raises(KeyboardInterrupt):
        run("killed", tmp_path / "cache")
    assert not (tmp_path / "killed.jsonl").exists()
    asked = [m[1]["content"] for m in Scripted.seen]
    assert len(asked) == 8
    Scripted.seen.clear()
    DiesAfter.limit = None
    records, info = run("resumed", tmp_path / "cache")
    again = [m[1]["content"] for m in Scripted.seen]
    assert len(again) == 2 and not set(again) & set(asked)
    assert info["annotator"]["requests_sent"] == 2
    assert info["annotator"]["requests_cached"] == 8
    Scripted.seen.clear()
    uninterrupted, _ = run("fresh", None)
    assert len(Scripted.seen) == 10 and records == uninterrupted
