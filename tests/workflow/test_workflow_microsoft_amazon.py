"""microsoft-translator and amazon-translate through the workflow, against their loopback
stand-ins, on a small WinoMT subset (es, de) and MT-GenEval's sample (fr, de), one system
covering every language: without credentials the run stops at start-up naming the
variables; a 429/throttling storm ends the run in bounded time with one named
line and nothing paid; the rerun pays nothing twice (the stand-in's billed characters over
both runs; a run killed mid-way and resumed: DeepL's test); outputs in order; the request limits
kept; the characters and cost stated before the first request; the test keys in no file
under results/ (the request cache included), logs/ or .snakemake/."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
import yaml

from gendermt.translation.backends import BACKENDS

from ..amazon_translate_server import AmazonTranslateServer
from ..azure_translator_server import AzureTranslatorServer
from ..conftest import ROOT
from ..workflow_support import copy_project, explain, output_of, snakemake

WINOMT = ROOT.parent / "shared" / "data" / "winomt"
pytestmark = [pytest.mark.workflow,
              pytest.mark.skipif(not WINOMT.is_dir(), reason="the shared WinoMT data is not here")]

MS_KEY = "ms-WF-FAKE-key-7f3a9c0e1b2d4f68"
AWS_ACCESS, AWS_SECRET = "AKIAWFFAKE0000000000", "wfFAKEsecret/abcdefghijklmnopqrstuvwx0123"
SECRETS = [MS_KEY, AWS_ACCESS, AWS_SECRET]
# of en.txt (its anti-stereotypical rows, then the pro-stereotypical ones), into es and de
WINOMT_ROWS = [*range(0, 6), *range(1584, 1590)]
RUN = "mt"
TARGETS = [f"results/{RUN}/winomt/raw/mt/{lang}.jsonl" for lang in ("es", "de")] + \
    [f"results/{RUN}/mt-geneval/raw/mt/baseline.jsonl"]
# retries bounded small: a storm ends within seconds (runtime settings: none reruns a job)
RETRIES = {"max_retries": 2, "backoff": 0.05, "retry_after_max": 1, "timeout": 10}


def system(backend: str, url: str) -> dict:
    if backend == "microsoft-translator":
        return {"backend": backend, "endpoint": url, "api_key_env": "MS_WF_KEY",
                "region": "westeurope", "batch_size": 4, **RETRIES}
    return {"backend": backend, "endpoint": url, "region": "us-east-1", "formality": "FORMAL",
            "concurrency": 2, "batch_size": 4, **RETRIES}


def project(tmp_path: Path, backend: str, url: str) -> Path:
    workdir = copy_project(tmp_path / "project", share_cache=False)
    data = tmp_path / "winomt"
    data.mkdir()
    en = (WINOMT / "en.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    en = [en[i] for i in WINOMT_ROWS]
    (data / "en.txt").write_text("".join(en), encoding="utf-8")
    for name in ("en_pro.txt", "en_anti.txt"):
        rows = (WINOMT / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (data / name).write_text("".join(r for r in rows if r in set(en)), encoding="utf-8")
    config = {
        "run": RUN,
        "benchmarks": {
            "winomt": {"data": {"path": str(data / "en.txt"), "pro": str(data / "en_pro.txt"),
                                "anti": str(data / "en_anti.txt")},
                       "templates": "src/gendermt/benchmarks/winomt/prompts/translate.yaml",
                       "prompts": ["es", "de"], "systems": ["mt"],
                       "readers": ["corrected"]},
            "mt-geneval": {"data": {"root": "resources/mt-geneval", "languages": ["fr", "de"],
                                    "split": "test", "sets": ["counterfactual", "contextual"]},
                           "templates": "src/gendermt/benchmarks/mt_geneval/prompts/"
                                        "translate.yaml",
                           "prompts": ["baseline"], "systems": ["mt"],
                           "postprocess": ["first_line"], "metrics": ["bleu"]}},
        "systems": {"mt": system(backend, url)},
    }
    (workdir / "mt.yaml").write_text(yaml.safe_dump(config))
    return workdir


def args(*extra: str) -> list[str]:
    return ["--configfile", "mt.yaml", "--cores", "1", *extra, *TARGETS]


def expected(backend: str, record: dict) -> str:
    return f"{record['tgt_lang']}: {record['source']}" + (
        " [FORMAL]" if backend == "amazon-translate" else "")


def files_under(workdir: Path) -> list[Path]:
    return [p for name in ("results", "logs", ".snakemake") if (workdir / name).exists()
            for p in (workdir / name).rglob("*") if p.is_file()]


# each backend skipped where its client is not installed (what start-up would refuse)
SERVICES = [pytest.param(name, marks=pytest.mark.skipif(
                bool(BACKENDS[name].missing_packages()),
                reason=f"the `{BACKENDS[name].extra}` extra is not installed"))
            for name in ("microsoft-translator", "amazon-translate")]
# a sitecustomize that makes the vendors' clients not installed, for the processes it starts
NOT_INSTALLED = """
import sys


class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("azure", "boto3", "botocore"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
"""


def test_a_missing_client_stops_the_run_at_start_up(tmp_path, monkeypatch):
    """Without the vendor's client installed, the run stops before any job, naming the extra
    to install (not a traceback from the first request)."""
    blocker = tmp_path / "site"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(NOT_INSTALLED)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(blocker), *filter(None, [os.environ.get("PYTHONPATH")])]))
    monkeypatch.setenv("MS_WF_KEY", MS_KEY)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", AWS_ACCESS)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", AWS_SECRET)
    for backend, extra in (("microsoft-translator", "microsoft"), ("amazon-translate", "amazon")):
        workdir = project(tmp_path / backend, backend, "http://127.0.0.1:9")
        proc = snakemake(workdir, *args())
        assert proc.returncode != 0, explain(proc)
        assert f"systems.mt: backend {backend!r} needs" in output_of(proc), explain(proc)
        assert f"pip install 'gendermt[{extra}]'" in output_of(proc), explain(proc)
        assert "Traceback" not in output_of(proc), explain(proc)
        assert not list(workdir.glob(f"results/{RUN}/*/data.parquet"))


@pytest.mark.parametrize("backend", SERVICES)
def test_storm_then_rerun_pays_nothing_twice(tmp_path, monkeypatch, backend):
    monkeypatch.setenv("MS_WF_KEY", MS_KEY)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", AWS_ACCESS)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", AWS_SECRET)
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    for name in ("AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE"):  # none: the chain is empty
        monkeypatch.setenv(name, str(tmp_path / "no-aws-files"))
    if backend == "microsoft-translator":
        server = AzureTranslatorServer(MS_KEY, region="westeurope", always="429@1")
    else:
        server = AmazonTranslateServer(AWS_ACCESS, always="throttle")
    with server:
        workdir = project(tmp_path, backend, server.url)

        # 0. without its credentials, the run stops at start-up naming the variables
        monkeypatch.delenv("MS_WF_KEY")
        monkeypatch.delenv("AWS_ACCESS_KEY_ID")
        proc = snakemake(workdir, *args())
        missing = "MS_WF_KEY" if backend == "microsoft-translator" else "AWS_ACCESS_KEY_ID"
        assert proc.returncode != 0 and missing in output_of(proc), explain(proc)
        assert not server.headers and not list(workdir.glob(f"results/{RUN}/*/data.parquet"))
        monkeypatch.setenv("MS_WF_KEY", MS_KEY)
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", AWS_ACCESS)

        # 1. a storm: the run stops within its retry bounds, one named line, nothing paid
        t0 = time.monotonic()
        proc = snakemake(workdir, *args())
        text = output_of(proc)
        assert proc.returncode != 0, explain(proc)
        logs = "".join(p.read_text(errors="replace") for p in (workdir / "logs").rglob("*.log"))
        gave_up = [line for line in (text + logs).splitlines() if "gave up on" in line]
        assert gave_up and "rate-limiting" in gave_up[0], explain(proc)
        # one job: 3 attempts of its first request; Amazon's calls in flight (2) finish
        # their attempts, and a worker may have taken one more call before the base stopped
        # sending (mt_service.translate_each)
        calls = 2 * 2 if backend == "amazon-translate" else 1
        assert server.billed_chars == 0 and 3 <= len(server.headers) <= 3 * calls
        storm_seconds = time.monotonic() - t0

        # 2. the storm over, the rerun finishes (a run killed mid-way and resumed is
        # DeepL's test, test_workflow_mt_services.py: the same base, mt_service.send_chunk)
        server.always = None
        proc = snakemake(workdir, *args())
        assert proc.returncode == 0, explain(proc)
        statement = [line for line in output_of(proc).splitlines()
                     if "characters to send" in line]
        assert statement and "USD per million characters" in statement[0], explain(proc)

    # outputs in order, each the stand-in's answer of its own source and target language
    asked: list[tuple[str, str]] = []
    for target in TARGETS:
        inputs = Path(target.replace("/raw/mt/", "/inputs/"))
        records = [json.loads(line) for line in (workdir / inputs).read_text().splitlines()]
        raw = [json.loads(line) for line in (workdir / target).read_text().splitlines()]
        assert [r["item_id"] for r in raw] == [r["item_id"] for r in records]
        assert [r["raw"] for r in raw] == [expected(backend, r) for r in records]
        asked += [(r["tgt_lang"], r["source"]) for r in records]
    # nothing paid twice: every distinct (language, text) billed once over the runs
    assert len(server.answered) == len(set(asked))
    assert server.billed_chars == sum(len(source) for _, source in set(asked))
    assert not server.violations
    assert storm_seconds < 120
    # the keys: in no file written (the request cache is results/cache)
    written = files_under(workdir)
    assert any("cache" in p.parts for p in written)
    leaked = [str(p) for p in written for s in SECRETS if s.encode() in p.read_bytes()]
    assert not leaked
