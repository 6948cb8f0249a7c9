"""Commercial MT services through the workflow, against loopback stand-ins of their APIs
(tests/mt_standins.py): a WinoMT slice (fr, de) and MT-GenEval's sample (fr, de) translated by
one DeepL system and one Google system: outputs in order, requests within the APIs' limits, the
characters and cost stated before the first request, a SIGKILL mid-run resumed without paying
twice, a 429 storm that ends in bounded time with one named line, a max_characters budget that
stops the run at start-up, and the keys in no file written."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml

from gendermt.data.io import read_jsonl

from ..conftest import ROOT
from ..mt_standins import DeepLStandIn, GoogleStandIn
from ..workflow_support import copy_project, explain, output_of, snakemake, snakemake_exe

pytestmark = pytest.mark.workflow
pytest.importorskip("deepl", reason="the `deepl` extra is not installed")

WINOMT = ROOT.parent / "shared" / "data" / "winomt"
DEEPL_KEY = "test-key-DEEPL-0123456789"
GOOGLE_KEY = "test-key-GOOGLE-0123456789"
# WinoMT rows: anti-stereotypical ones, then pro-stereotypical ones (60 requests: fr, de)
ROWS = [*range(0, 15), *range(1584, 1599)]
TARGETS = ["results/default/winomt/raw/svc/fr.jsonl", "results/default/winomt/raw/svc/de.jsonl",
           "results/default/mt-geneval/raw/svc/baseline.jsonl"]


def winomt_slice(dest: Path) -> Path:
    dest.mkdir(parents=True)
    en = (WINOMT / "en.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    en = [en[i] for i in ROWS]
    (dest / "en.txt").write_text("".join(en), encoding="utf-8")
    for name in ("en_pro.txt", "en_anti.txt"):
        rows = (WINOMT / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (dest / name).write_text("".join(r for r in rows if r in set(en)), encoding="utf-8")
    return dest


def project(tmp_path: Path, system: dict) -> Path:
    """A copy of the project whose config translates the WinoMT slice and MT-GenEval's sample
    with the system ``svc``."""
    if not WINOMT.is_dir():
        pytest.skip("the shared WinoMT data is not here")
    workdir = copy_project(tmp_path / "project", share_cache=False)
    data = winomt_slice(tmp_path / "winomt")
    default = yaml.safe_load((workdir / "config" / "config.yaml").read_text(encoding="utf-8"))
    mg = default["benchmarks"]["mt-geneval"]
    mg.pop("system_prompts", None)
    config = {
        "run": "default",
        "benchmarks": {
            "winomt": {"data": {"path": str(data / "en.txt"), "pro": str(data / "en_pro.txt"),
                                "anti": str(data / "en_anti.txt")},
                       "templates": "src/gendermt/benchmarks/winomt/prompts/translate.yaml",
                       "prompts": ["fr", "de"], "systems": ["svc"]},
            "mt-geneval": {**mg, "systems": ["svc"], "prompts": ["baseline"]}},
        "systems": {"svc": system},
        "cache": {"dir": str(tmp_path / "cache"), "enabled": True},
    }
    (workdir / "svc.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return workdir


def run(workdir: Path, *extra: str) -> subprocess.CompletedProcess:
    return snakemake(workdir, *TARGETS, "--configfile", "svc.yaml", "--cores", "2", *extra)


def sources(workdir: Path) -> list[tuple[str, str]]:
    """(source, target language) of every request the targets' jobs make."""
    found = []
    for target in TARGETS:
        inputs = workdir / target.replace("/raw/svc/", "/inputs/")
        found += [(r["source"], r["tgt_lang"]) for r in read_jsonl(inputs)]
    return found


def check_outputs(workdir: Path, code: dict[str, str]) -> None:
    for target in TARGETS:
        inputs = {r["item_id"]: r for r in read_jsonl(workdir / target.replace("/raw/svc/",
                                                                               "/inputs/"))}
        rows = read_jsonl(workdir / target)
        assert [r["item_id"] for r in rows] == list(inputs)  # in order, every item
        for r in rows:
            item = inputs[r["item_id"]]
            assert r["raw"] == f"{code[item['tgt_lang']]}| {item['source']}"


def no_key_written(workdir: Path, cache: Path, *keys: str) -> None:
    written = [p for d in (workdir / "results", workdir / "logs", workdir / ".snakemake", cache)
               if d.exists() for p in d.rglob("*") if p.is_file()]
    assert any(p.name == "requests.sqlite" for p in written)
    leaked = [str(p) for p in written for k in keys if k.encode() in p.read_bytes()]
    assert not leaked


def drop_outputs(workdir: Path) -> None:
    """The targets' protected outputs removed, so that their jobs run again."""
    for target in TARGETS:
        shutil.rmtree((workdir / target).parent, ignore_errors=True)


def logs_of(workdir: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in (workdir / "logs").rglob("*.log"))


def test_deepl_through_the_workflow_kill_resume_storm_and_budget(tmp_path, monkeypatch):
    monkeypatch.setenv("DEEPL_TEST_KEY", DEEPL_KEY)
    server = DeepLStandIn(DEEPL_KEY, delay=0.3)
    with server:
        system = {"backend": "deepl", "api_key_env": "DEEPL_TEST_KEY",
                  "endpoint": server.url, "formality": "prefer_less", "batch_size": 10,
                  "max_characters": 100_000}
        workdir = project(tmp_path, system)
        # a dry run before anything is built: the bill estimated from both benchmarks' data
        # (checked against the exact count below)
        fresh = snakemake(workdir, *TARGETS, "--configfile", "svc.yaml", "-n")
        assert fresh.returncode == 0, explain(fresh)
        assert "not counted yet" not in output_of(fresh) and \
            "0 characters" not in output_of(fresh), explain(fresh)
        # a run killed (SIGKILL, the whole process group) once the service answered some
        # requests, then unlocked and run again
        proc = subprocess.Popen([snakemake_exe(), *TARGETS, "--configfile", "svc.yaml",
                                 "--cores", "1"], cwd=workdir, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 300
        while len(server.answered) < 25 and proc.poll() is None and \
                time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        received_before = [list(r["texts"]) for r in server.requests]
        assert received_before and len(server.answered) >= 25
        snakemake(workdir, "--unlock", "--configfile", "svc.yaml")
        server.delay = 0.0
        done = run(workdir, "--rerun-incomplete")
        assert done.returncode == 0, explain(done)
    check_outputs(workdir, {"fr": "FR", "de": "DE"})
    wanted = sources(workdir)
    distinct = {s for s, _ in wanted}
    # the estimate from the data was the exact bill; the paid_work job counted it before the
    # first request (the cache empty then), over all three jobs
    chars = sum(len(s) for s, _ in set(wanted))
    assert f"svc (DeepL): about {chars:,} characters ({len(set(wanted)):,} distinct texts; " \
        f"estimated from the data" in output_of(fresh), explain(fresh)
    assert f"{chars * 25 / 1e6:,.2f} USD at 25 USD" in output_of(fresh)
    bill = json.loads((workdir / "results/default/paid_work.json").read_text())
    assert bill == {"svc": {"service": "DeepL", "characters": chars,
                            "requests": len(set(wanted)), "price": 25.0,
                            "cost": round(chars * 25 / 1e6, 2), "max_characters": 100_000}}
    # nothing paid twice: a text received twice is one of the request in flight at the kill
    counts = Counter((t, r["target"]) for r in server.requests for t in r["texts"])
    twice = {k for k, n in counts.items() if n > 1}
    in_flight = received_before[-1]
    assert twice <= {(t, r["target"]) for r in server.requests[len(received_before) - 1:
                                                              len(received_before)]
                     for t in r["texts"]}
    paid = sum(len(t) * n for (t, _), n in counts.items())
    assert paid - sum(map(len, in_flight)) <= sum(len(s) for s, _ in set(wanted))
    assert {t for t, _ in counts} == distinct
    assert not server.breaches
    assert all(len(r["texts"]) <= 10 for r in server.requests)  # batch_size: engine batches
    assert {b["formality"] for b in server.bodies} == {"prefer_less"}
    text = logs_of(workdir)
    assert "DeepL (deepl at " in text and "characters to send" in text and "USD at 25 USD" in text

    # a 429 storm: bounded, one line naming the service and what to do
    storm = DeepLStandIn(DEEPL_KEY, always="429", retry_after="1")
    with storm:
        cfg = yaml.safe_load((workdir / "svc.yaml").read_text())
        cfg["systems"]["svc"].update(endpoint=storm.url, max_retries=2)
        (workdir / "svc.yaml").write_text(yaml.safe_dump(cfg))
        drop_outputs(workdir)
        t0 = time.monotonic()
        failed = run(workdir)
        seconds = time.monotonic() - t0
    assert failed.returncode != 0
    lines = [ln for ln in logs_of(workdir).splitlines() if "gave up on" in ln and "DeepL" in ln]
    assert lines and all("rate-limiting this key" in ln for ln in lines), explain(failed)
    assert len(storm.requests) <= 3 * 3  # 3 attempts a job, at most 3 jobs
    assert seconds < 120
    print(f"deepl: {len(server.requests)} requests, {len(received_before)} before the kill; "
          f"{paid} characters received for {sum(len(s) for s, _ in set(wanted))} wanted "
          f"({sum(map(len, in_flight))} in flight at the kill); 429 storm: "
          f"{len(storm.requests)} requests, {seconds:.1f} s")

    # a budget below what a run would send stops it at start-up, naming the setting
    cfg["systems"]["svc"].update(endpoint=server.url, max_characters=10, max_retries=6)
    (workdir / "svc.yaml").write_text(yaml.safe_dump(cfg))
    (tmp_path / "cache" / "requests.sqlite").rename(tmp_path / "old.sqlite")
    drop_outputs(workdir)
    dry = snakemake(workdir, *TARGETS, "--configfile", "svc.yaml", "-n")
    assert f"svc (DeepL): {chars:,} characters to send" in output_of(dry), explain(dry)
    assert f"{chars * 25 / 1e6:,.2f} USD at 25 USD" in output_of(dry)
    assert "over max_characters 10: a run stops" in output_of(dry)
    stopped = run(workdir)
    assert stopped.returncode != 0
    assert "exceed max_characters 10" in output_of(stopped), explain(stopped)
    (tmp_path / "old.sqlite").rename(tmp_path / "cache" / "requests.sqlite")
    no_key_written(workdir, tmp_path / "cache", DEEPL_KEY)


def test_google_through_the_workflow_and_a_quota_error(tmp_path, monkeypatch):
    monkeypatch.setenv("GOOGLE_TEST_KEY", GOOGLE_KEY)
    with GoogleStandIn(GOOGLE_KEY, plan=["429", "drop", "malformed"],
                       retry_after="0") as server:
        system = {"backend": "google-translate", "api_key_env": "GOOGLE_TEST_KEY",
                  "endpoint": server.url, "backoff": 0.1, "concurrency": 2}
        workdir = project(tmp_path, system)
        # a budget that each job's own characters would keep but all three together
        # exceed, on a fresh folder (start-up cannot count: no input built): the inputs are
        # built (free), then the paid_work job stops the run, naming the system; nothing sent
        fresh = snakemake(workdir, *TARGETS, "--configfile", "svc.yaml", "-n")
        found = re.search(r"svc \(Google Cloud Translation\): about ([\d,]+) characters",
                          output_of(fresh))
        assert found, explain(fresh)
        budget = int(found.group(1).replace(",", "")) - 1
        cfg = yaml.safe_load((workdir / "svc.yaml").read_text())
        cfg["systems"]["svc"]["max_characters"] = budget
        (workdir / "svc.yaml").write_text(yaml.safe_dump(cfg))
        over = run(workdir)
        assert over.returncode != 0 and not server.requests, explain(over)

        def chars_of(*files: str) -> int:
            return sum(len(s) for s, _ in {(r["source"], r["tgt_lang"]) for f in files
                                           for r in read_jsonl(workdir / f)})

        # the two jobs that would send: WinoMT's distinct sources (fr, de), MT-GenEval's
        jobs = [chars_of("results/default/winomt/inputs/fr.jsonl",
                         "results/default/winomt/inputs/de.jsonl"),
                chars_of("results/default/mt-geneval/inputs/baseline.jsonl")]
        total = sum(len(s) for s, _ in set(sources(workdir)))
        assert max(jobs) <= budget < total, (jobs, budget, total)
        assert f"systems.svc: {total:,} characters to send over all its jobs exceed " \
            f"max_characters {budget:,}; nothing was sent" in \
            output_of(over) + logs_of(workdir), explain(over)
        assert not (workdir / "results/default/paid_work.json").exists()
        del cfg["systems"]["svc"]["max_characters"]
        (workdir / "svc.yaml").write_text(yaml.safe_dump(cfg))
        # then, the inputs built, a dry run states the whole bill
        dry = snakemake(workdir, *TARGETS, "--configfile", "svc.yaml", "-n")
        chars = sum(len(s) for s, _ in set(sources(workdir)))
        assert f"svc (Google Cloud Translation): {chars:,} characters to send" in \
            output_of(dry), explain(dry)
        assert "not counted yet" not in output_of(dry)
        done = run(workdir)
        assert done.returncode == 0, explain(done)
    check_outputs(workdir, {"fr": "fr", "de": "de"})
    assert not server.breaches
    # each job's languages, each in one request (its texts fit): 3 retried, fr, de, fr+de
    assert len(server.requests) == 3 + 4
    assert "USD at 20 USD" in logs_of(workdir)
    with GoogleStandIn(GOOGLE_KEY, always="quota") as quota:
        cfg = yaml.safe_load((workdir / "svc.yaml").read_text())
        cfg["systems"]["svc"]["endpoint"] = quota.url  # another endpoint: sent again
        (workdir / "svc.yaml").write_text(yaml.safe_dump(cfg))
        drop_outputs(workdir)
        failed = run(workdir)
    assert failed.returncode != 0
    lines = [ln for ln in logs_of(workdir).splitlines() if "quota exceeded" in ln]
    assert lines and "GOOGLE_TEST_KEY" in lines[0] and "dailyLimitExceeded" in lines[0]
    # not retried: each request sent once (two jobs, each its two languages at once: its
    # concurrency is 2, so both may be in flight when the first quota error comes)
    sent = [(r["target"], tuple(r["texts"])) for r in quota.requests]
    assert len(sent) == len(set(sent)) <= 4, sent
    no_key_written(workdir, tmp_path / "cache", GOOGLE_KEY)


def test_without_the_key_start_up_names_it(tmp_path, monkeypatch):
    monkeypatch.delenv("DEEPL_TEST_KEY", raising=False)
    workdir = project(tmp_path, {"backend": "deepl", "api_key_env": "DEEPL_TEST_KEY",
                                 "endpoint": "http://127.0.0.1:9"})
    proc = run(workdir)
    assert proc.returncode != 0
    assert "the environment variable DEEPL_TEST_KEY is not set" in output_of(proc), explain(proc)
    assert not (workdir / "results" / "default" / "mt-geneval" / "raw").exists()
