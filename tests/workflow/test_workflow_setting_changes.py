"""A changed output-changing setting of a system never leaves its old outputs in place
(issue 60, High 1; issue 64): through real Snakemake runs, for each kind of backend (the four
commercial MT services against their loopback stand-ins, an OpenAI-compatible LLM server, a
stored system, a system whose prompts share one translation of the sources), a first run,
one setting changed, then:

- without ``rerun_protected`` the run stops before any job, naming the protected outputs
  and the setting (old → new), and sends nothing;
- with ``rerun_protected=true`` exactly those outputs are redone (with the new setting), and
  no other system's.

Each config is one small WinoMT slice (fr, de) and two systems of the same backend: the one
changed and one left alone, so that a recount of the paid work (``paid_work.json``, shared by
all service systems) reruns nothing of the other.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from gendermt.translation.backends import BACKENDS
from gendermt.translation.backends.apertium import installed_modes

from .. import tiny_models
from ..amazon_translate_server import AmazonTranslateServer
from ..azure_translator_server import AzureTranslatorServer
from ..chat_server import ChatServer
from ..conftest import ROOT
from ..mt_standins import DeepLStandIn, GoogleStandIn
from ..workflow_support import copy_project, explain, output_of, snakemake

WINOMT = ROOT.parent / "shared" / "data" / "winomt"
pytestmark = [pytest.mark.workflow,
              pytest.mark.skipif(not WINOMT.is_dir(), reason="the shared WinoMT data is not here")]

RUN = "settings"
ROWS = [0, 1, 2, 1584, 1585, 1586]  # anti-stereotypical rows, then pro-stereotypical ones
LANGS = ("fr", "de")
SYSTEMS = ("changed", "kept")
STOP = "protected output(s) would be redone"
KEYS = {"DEEPL_SC_KEY": "sc-deepl-key-0123456789", "GOOGLE_SC_KEY": "sc-google-key-0123456789",
        "MS_SC_KEY": "sc-ms-key-0123456789", "AWS_ACCESS_KEY_ID": "AKIASCFAKE0000000000",
        "AWS_SECRET_ACCESS_KEY": "scFAKEsecret/abcdefghijklmnopqrstuvwx0123",
        "LLM_SC_KEY": "sc-llm-key-0123456789"}


def raw(system: str, lang: str) -> str:
    return f"results/{RUN}/winomt/raw/{system}/{lang}.jsonl"


def targets(langs: tuple[str, ...] = LANGS) -> list[str]:
    return [raw(s, lang) for s in SYSTEMS for lang in langs]


def project(tmp_path: Path, system: dict, langs: tuple[str, ...] = LANGS) -> Path:
    """A copy of the project translating a WinoMT slice into ``langs`` (fr and de) with two
    systems of the same settings (``changed``, ``kept``)."""
    workdir = copy_project(tmp_path / "project", share_cache=False)
    data = tmp_path / "winomt"
    data.mkdir()
    en = (WINOMT / "en.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    en = [en[i] for i in ROWS]
    (data / "en.txt").write_text("".join(en), encoding="utf-8")
    for name in ("en_pro.txt", "en_anti.txt"):
        rows = (WINOMT / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (data / name).write_text("".join(r for r in rows if r in set(en)), encoding="utf-8")
    config = {
        "run": RUN,
        "benchmarks": {"winomt": {
            "data": {"path": str(data / "en.txt"), "pro": str(data / "en_pro.txt"),
                     "anti": str(data / "en_anti.txt")},
            "templates": "src/gendermt/benchmarks/winomt/prompts/translate.yaml",
            "prompts": list(langs), "systems": list(SYSTEMS)}},
        # deep copies: YAML would write one shared settings object as an alias, and editing
        # one system's nested setting would edit both
        "systems": {s: copy.deepcopy(system) for s in SYSTEMS},
        "cache": {"dir": str(tmp_path / "cache"), "enabled": True},
    }
    (workdir / "sc.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return workdir


def run(workdir: Path, *extra: str, langs: tuple[str, ...] = LANGS):
    return snakemake(workdir, *targets(langs), "--configfile", "sc.yaml", "--cores", "1",
                     *extra)


def edit(workdir: Path, change: Callable[[dict], None]) -> None:
    config = yaml.safe_load((workdir / "sc.yaml").read_text(encoding="utf-8"))
    change(config["systems"]["changed"])
    (workdir / "sc.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


def stamps(workdir: Path) -> dict[str, tuple[int, bytes]]:
    """(mtime, bytes) of every raw output file (and its meta.json)."""
    found = {}
    for path in (workdir / "results" / RUN / "winomt" / "raw").rglob("*"):
        if path.is_file():
            found[str(path.relative_to(workdir))] = (path.stat().st_mtime_ns, path.read_bytes())
    return found


def outputs(workdir: Path, system: str, lang: str) -> list[str]:
    return [json.loads(line)["raw"] for line in (workdir / raw(system, lang)).read_text(
        encoding="utf-8").splitlines()]


def change_setting(workdir: Path, change: Callable[[dict], None], setting: str,
                   sent: Callable[[], int], langs: tuple[str, ...] = LANGS) -> None:
    """The first run done: ``change`` the ``changed`` system's settings, then the run stops
    naming its outputs and ``setting`` (nothing sent), then with ``rerun_protected`` exactly
    those outputs are redone."""
    first = run(workdir, langs=langs)
    assert first.returncode == 0, explain(first)
    before, requests = stamps(workdir), sent()
    assert len(before) == 2 * len(targets(langs))
    edit(workdir, change)

    stopped = run(workdir, langs=langs)
    text = output_of(stopped)
    assert stopped.returncode != 0 and STOP in text, explain(stopped)
    redone = [raw("changed", lang) for lang in langs]
    assert f"{2 * len(redone)} {STOP}" in text, explain(stopped)
    listed = text.split(STOP, 1)[1]  # the stop's list (the command line names every target)
    for path in redone:
        assert path in listed and path.replace(".jsonl", ".meta.json") in listed, \
            explain(stopped)
    assert f"systems.changed: {setting}" in listed, explain(stopped)
    assert "/kept/" not in listed and "systems.kept" not in listed, explain(stopped)
    assert stamps(workdir) == before and sent() == requests  # nothing ran, nothing sent

    again = run(workdir, "--config", "rerun_protected=true", langs=langs)
    assert again.returncode == 0, explain(again)
    after = stamps(workdir)
    changed = {p for p in after if after[p] != before.get(p)}
    assert changed == {p.replace(".jsonl", suffix) for p in redone
                       for suffix in (".jsonl", ".meta.json")}, explain(again)
    # and nothing more to do
    done = snakemake(workdir, *targets(langs), "--configfile", "sc.yaml", "-n")
    assert done.returncode == 0 and "Nothing to be done" in output_of(done), explain(done)


@pytest.fixture
def keys(monkeypatch, tmp_path):
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    for name in ("AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE"):
        monkeypatch.setenv(name, str(tmp_path / "no-aws-files"))


def installed(backend: str) -> pytest.MarkDecorator:
    missing = BACKENDS[backend].missing_packages()
    return pytest.mark.skipif(bool(missing), reason=f"{backend}'s client is not installed")


# -- the four commercial MT services: their prompts share one translation of the sources
# (translate_sources), and every job waits for the count of all paid work (paid_work) ----------

@installed("deepl")
def test_deepl_lang_codes(tmp_path, keys):
    """The issue's reproduction: lang_codes changed after a run."""
    with DeepLStandIn(KEYS["DEEPL_SC_KEY"]) as server:
        workdir = project(tmp_path, {"backend": "deepl", "api_key_env": "DEEPL_SC_KEY",
                                     "endpoint": server.url, "lang_codes": {"de": "DE"}})
        change_setting(workdir, lambda s: s.update(lang_codes={"de": "IT"}),
                       "lang_codes {'de': 'DE'} → {'de': 'IT'}", lambda: len(server.requests))
        assert all(o.startswith("IT| ") for o in outputs(workdir, "changed", "de"))
        assert all(o.startswith("DE| ") for o in outputs(workdir, "kept", "de"))


@installed("deepl")
def test_deepl_formality_one_prompt(tmp_path, keys):
    """One prompt: no shared translation of the sources, the jobs' one link above them is
    paid_work.json."""
    with DeepLStandIn(KEYS["DEEPL_SC_KEY"]) as server:
        workdir = project(tmp_path, {"backend": "deepl", "api_key_env": "DEEPL_SC_KEY",
                                     "endpoint": server.url, "formality": "prefer_less"},
                          langs=("fr",))
        change_setting(workdir, lambda s: s.update(formality="prefer_more"),
                       "formality 'prefer_less' → 'prefer_more'", lambda: len(server.requests),
                       langs=("fr",))
        assert server.bodies[-1]["formality"] == "prefer_more"


@installed("google-translate")
def test_google_endpoint(tmp_path, keys):
    """Another endpoint is another service's answers (a regional or a private one)."""
    with GoogleStandIn(KEYS["GOOGLE_SC_KEY"]) as server, \
            GoogleStandIn(KEYS["GOOGLE_SC_KEY"]) as other:
        workdir = project(tmp_path, {"backend": "google-translate",
                                     "api_key_env": "GOOGLE_SC_KEY", "endpoint": server.url})
        change_setting(workdir, lambda s: s.update(endpoint=other.url),
                       f"endpoint '{server.url}' → '{other.url}'",
                       lambda: len(server.requests) + len(other.requests))
        assert len(other.requests) == 2  # the changed system's fr and de, after the stop


@installed("microsoft-translator")
def test_microsoft_category(tmp_path, keys):
    with AzureTranslatorServer(KEYS["MS_SC_KEY"], region="westeurope") as server:
        workdir = project(tmp_path, {"backend": "microsoft-translator", "endpoint": server.url,
                                     "api_key_env": "MS_SC_KEY", "region": "westeurope"})
        change_setting(workdir, lambda s: s.update(category="custom-1"),
                       "category (unset) → 'custom-1'", lambda: len(server.requests))
        assert all(o.startswith("fr/custom-1: ") for o in outputs(workdir, "changed", "fr"))
        assert all(o.startswith("fr: ") for o in outputs(workdir, "kept", "fr"))


@installed("amazon-translate")
def test_amazon_formality(tmp_path, keys):
    with AmazonTranslateServer(KEYS["AWS_ACCESS_KEY_ID"]) as server:
        workdir = project(tmp_path, {"backend": "amazon-translate", "endpoint": server.url,
                                     "region": "us-east-1", "formality": "FORMAL"})
        change_setting(workdir, lambda s: s.update(formality="INFORMAL"),
                       "formality 'FORMAL' → 'INFORMAL'", lambda: len(server.requests))
        assert all(o.endswith(" [INFORMAL]") for o in outputs(workdir, "changed", "de"))
        assert all(o.endswith(" [FORMAL]") for o in outputs(workdir, "kept", "de"))


# -- an LLM (its prompts' jobs each send their own requests) ---------------------------------

def test_openai_compatible_max_tokens(tmp_path, keys):
    with ChatServer() as server:
        workdir = project(tmp_path, {"backend": "openai-compatible", "base_url": server.url,
                                     "api_key_env": "LLM_SC_KEY", "model": "tiny-chat",
                                     "temperature": 0, "max_tokens": 64})
        change_setting(workdir, lambda s: s.update(max_tokens=32),
                       "max_tokens 64 → 32", lambda: len(server.requests))


# -- a stored system: its outputs read from files --------------------------------------------

def test_stored_path(tmp_path):
    stored = tmp_path / "stored"
    workdir = project(tmp_path, {"backend": "stored", "path": str(stored / "a-{prompt}.txt")})
    sources = [line.rstrip("\n") for line in (tmp_path / "winomt" / "en.txt").read_text(
        encoding="utf-8").splitlines()]
    stored.mkdir()
    for lang in LANGS:
        for tag in ("a", "b"):
            (stored / f"{tag}-{lang}.txt").write_text(
                "".join(f"{tag}{lang}: {s.split(chr(9))[-1]}\n" for s in sources),
                encoding="utf-8")
    new = str(stored / "b-{prompt}.txt")
    change_setting(workdir, lambda s: s.update(path=new),
                   f"path '{stored / 'a-{prompt}.txt'}' → '{new}'", lambda: 0)
    assert all(o.startswith("bde: ") for o in outputs(workdir, "changed", "de"))


# -- a system that reads only the source: its prompts' jobs take their outputs from one
# translation of the distinct sources (translate_sources) ------------------------------------

def test_shared_sources_max_new_tokens(tmp_path):
    pytest.importorskip("transformers")
    model = tiny_models.build_seq2seq(tmp_path / "marian")
    workdir = project(tmp_path, {"backend": "hf-seq2seq", "model": str(model),
                                 "max_new_tokens": 4, "batch_size": 8})
    change_setting(workdir, lambda s: s.update(max_new_tokens=5),
                   "max_new_tokens 4 → 5", lambda: 0)


@pytest.mark.skipif(not installed_modes() >= {"eng-spa", "es-fr", "spa-ita"},
                    reason="Apertium with eng-spa, es-fr and spa-ita is not installed (CI "
                           "installs it: tests/workflow/test_backends_apertium.py)")
def test_shared_sources_apertium_modes(tmp_path):
    workdir = project(tmp_path, {"backend": "apertium",
                                 "modes": {"fr": ["eng-spa", "es-fr"], "de": ["eng-spa"]}})
    change_setting(workdir, lambda s: s["modes"].update(de=["eng-spa", "spa-ita"]),
                   "modes", lambda: 0)
