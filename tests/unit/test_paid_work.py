"""The budget of a commercial MT service is per system: the paid_work stage counts all its
jobs (gendermt.translation.paid_work) before any of them sends."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from gendermt.core.errors import GenderMTError
from gendermt.translation.paid_work import estimated_sources, service_jobs, write
from gendermt.workflow.runs import Runs

DEEPL = {"backend": "deepl", "api_key_env": "DEEPL_AUTH_KEY", "max_characters": 1000,
         "price_per_million_chars": 25, "concurrency": 4, "timeout": 5}


def _inputs(path: Path, lang: str, texts: list[str]) -> str:
    path.write_text("".join(json.dumps({"item_id": f"i{n}", "source": t, "messages": [],
                                        "src_lang": "en", "tgt_lang": lang}) + "\n"
                            for n, t in enumerate(texts)), encoding="utf-8")
    return str(path)


def _config() -> dict:
    return {"benchmarks": {"winomt": {"systems": ["deepl", "nmt"], "prompts": ["es", "fr",
                                                                              "it", "de"]}},
            "systems": {"deepl": DEEPL, "nmt": {"backend": "identity"}}}


def _jobs(tmp_path: Path, texts: list[str]) -> list[dict]:
    (tmp_path / "r/winomt/inputs").mkdir(parents=True)
    config = _config()
    runs = Runs(config["benchmarks"], config["systems"], str(tmp_path / "r"))
    jobs = service_jobs(config, str(tmp_path / "r"), runs.run_records)
    for job in jobs:
        _inputs(Path(job["inputs"]), Path(job["inputs"]).stem, texts)
    return jobs


def test_four_jobs_each_within_the_budget_together_over_it_stop(tmp_path, monkeypatch):
    sent = []
    monkeypatch.setattr("gendermt.translation.backends.deepl_api.DeepL.send_chunk",
                        lambda self, *a: sent.append(a), raising=False)
    # each language's job: 300 characters, under 1,000; the four: 1,200, over it
    jobs = _jobs(tmp_path, ["x" * 100, "y" * 100, "z" * 100])
    assert [j["system"] for j in jobs] == ["deepl"] * 4  # the other system has no paid work
    assert "concurrency" not in jobs[0]["settings"] and "timeout" not in jobs[0]["settings"]
    out = tmp_path / "r/paid_work.json"
    with pytest.raises(GenderMTError, match=r"systems\.deepl: 1,200 characters .* exceed "
                                            r"max_characters 1,000; nothing was sent"):
        write(jobs, tmp_path / "cache", out, lambda line: None)
    assert not out.exists() and not sent


def test_within_the_budget_the_file_states_each_system(tmp_path):
    jobs = _jobs(tmp_path, ["x" * 100, "y" * 100])
    lines: list[str] = []
    counts = write(jobs, tmp_path / "cache", tmp_path / "r/paid_work.json", lines.append)
    assert counts == json.loads((tmp_path / "r/paid_work.json").read_text())
    assert counts["deepl"] == {"service": "DeepL", "characters": 800, "requests": 8,
                               "price": 25.0, "cost": 0.02, "max_characters": 1000}
    assert lines and lines[0].startswith("deepl (DeepL): 800 characters to send")


def test_only_service_systems_translation_jobs_wait_for_the_count(tmp_path):
    config = _config()
    runs = Runs(config["benchmarks"], config["systems"], "results/x")
    assert runs.paid_work_of(SimpleNamespace(system="nmt", benchmark="winomt")) == []
    (found,) = runs.paid_work_of(SimpleNamespace(system="deepl", benchmark="winomt"))
    assert str(found) == "results/x/paid_work.json" and found.flags.get("ancient")
    assert runs.paid_work_inputs() == [f"results/x/winomt/inputs/{p}.jsonl"
                                       for p in ("de", "es", "fr", "it")]


# --- the start-up statement's estimate from the data (the contract's source_texts hook) -----
ROOT = Path(__file__).resolve().parents[2]
WINOMT_EN = ROOT.parent / "shared" / "data" / "winomt" / "en.txt"


def test_startup_states_an_estimate_where_inputs_are_not_built(tmp_path):
    from gendermt.translation.backends.mt_service import startup_statement

    settings = {"backend": "deepl", "api_key_env": "DEEPL_AUTH_KEY", "max_characters": 5}
    texts = [("abc", "en", "fr"), ("abc", "en", "fr"), ("abcd", "en", "de")]
    jobs = [("d", str(tmp_path / "fr.jsonl"), settings, texts[:2]),
            ("d", str(tmp_path / "de.jsonl"), settings, texts[2:])]
    lines, errors = startup_statement({"d": settings}, jobs, None)
    assert lines == ["d (DeepL): about 7 characters (2 distinct texts; estimated from the "
                     "data: inputs not built yet; the paid_work job counts them exactly, less "
                     "the request cache, before the first request), 0.00 USD at 25 USD per "
                     "million characters; over max_characters 5: a run stops before sending"]
    assert not errors  # an estimate stops nothing: the paid_work job does, counting exactly
    # no estimate: no number either (not a misleading 0)
    lines, _ = startup_statement({"d": settings}, [j[:3] for j in jobs], None)
    assert lines[0].startswith("d (DeepL): not counted yet (2 job(s) whose inputs are not "
                               "built") and "0 characters" not in lines[0]
    with pytest.raises(GenderMTError, match="no target language code for 'xx'"):
        startup_statement({"d": settings}, [("d", "none.jsonl", settings,
                                             [("a", "en", "xx")])], None)


@pytest.mark.skipif(not WINOMT_EN.is_file(), reason="the shared WinoMT data is not here")
def test_winomt_source_texts_are_en_txt_per_language():

    spec = {"data": {"path": str(WINOMT_EN)}, "prompts": ["es", "fr", "it", "de"]}
    found = estimated_sources("winomt", spec, spec["prompts"])
    assert list(found) == ["es", "fr", "it", "de"] and list(found["de"]) == ["de"]
    assert len(found["es"]["es"]) == 3888
    distinct = {(t, lang) for p in found.values() for lang, ts in p.items() for t in ts}
    assert len(distinct) == 15_528 and sum(len(t) for t, _ in distinct) == 1_172_680
    assert estimated_sources("winomt", {**spec, "subset": {"n": 10}}, ["es"]) is None


def test_mt_geneval_source_texts_are_what_its_data_stage_sends():
    from gendermt.benchmarks.mt_geneval.data import segments

    data = {"root": str(ROOT / "resources/mt-geneval"), "languages": ["fr", "de"],
            "split": "test", "sets": ["counterfactual", "contextual"]}
    found = estimated_sources("mt-geneval", {"data": data}, ["baseline"])
    table = segments(data["root"], data["languages"], "test", data["sets"])
    assert sorted((t, lang) for lang, ts in found["baseline"].items() for t in ts) == \
        sorted(zip(table["source"], table["tgt_lang"], strict=True))
    assert estimated_sources("mt-geneval", {"data": {**data, "root": "nowhere"}},
                             ["baseline"]) is None


MG_RELEASE = ROOT.parent / "shared" / "data" / "mt-geneval" / "data"


@pytest.mark.skipif(not MG_RELEASE.is_dir(), reason="the shared MT-GenEval release is not here")
def test_declared_source_texts_are_what_its_data_stage_sends():
    from gendermt.benchmarks.declared.config import spec_of
    from gendermt.benchmarks.declared.data import segments

    block = {"data_root": str(MG_RELEASE), "languages": ["fr", "it"]}
    found = estimated_sources("mt-geneval-counterfactual", block, ["baseline"])
    table = segments(spec_of("mt-geneval-counterfactual"), ["fr", "it"], str(MG_RELEASE))
    assert sorted((t, lang) for lang, ts in found["baseline"].items() for t in ts) == \
        sorted(zip(table["source"], table["tgt_lang"], strict=True))
    assert len(table) > 1000
