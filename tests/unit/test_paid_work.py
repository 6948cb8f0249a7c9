"""The budget of a commercial MT service is per system: the paid_work stage counts all its
jobs (gendermt.translation.paid_work) before any of them sends."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from gendermt.config.errors import GenderMTError
from gendermt.translation.paid_work import service_jobs, write
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
