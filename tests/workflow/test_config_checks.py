"""Start-up checks of the config (issue 18, items 9 and 10): the schema rejects unknown keys
and bad values at every level, and gendermt.config.checks catches what the schema cannot
(templates, sacrebleu options and tokenizers, GAMBIT's reference files, systems), each with
the config key named, before any job runs."""

from __future__ import annotations

import copy
import shutil

import pytest
import yaml

from gendermt.config.checks import check_config, check_schema
from gendermt.core.errors import GenderMTError

from ..conftest import ROOT
from ..workflow_support import copy_project, snakemake

SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
DEFAULT = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))


def changed(edit) -> dict:
    config = copy.deepcopy(DEFAULT)
    edit(config)
    return config


def system(config: dict) -> dict:
    return config["systems"]["copy-source"]


@pytest.mark.parametrize(("edit", "message"), [
    (lambda c: c.update(caches={"enabled": False}),
     r"^caches: unknown key \(did you mean 'cache'\?\); allowed at the top level"),
    (lambda c: c["scoring"].update(blue={}), r"^scoring.blue: unknown key"),
    (lambda c: c["statistics"].update(bootstrapp={}), r"^statistics.bootstrapp: unknown key"),
    (lambda c: c["scoring"]["comet"].update(gpu=1), r"^scoring.comet.gpu: unknown key"),
    (lambda c: c["cache"].update(enable=False), r"^cache.enable: unknown key"),
    (lambda c: system(c).update(backoff=-5), r"^systems.copy-source.backoff: -5 is less"),
    (lambda c: system(c).update(timeout=-1), r"^systems.copy-source.timeout: -1 is less"),
    (lambda c: system(c).update(temperature="hot"),
     r"^systems.copy-source.temperature: 'hot' is not of type 'number'"),
    (lambda c: system(c).update(max_retries=1.5), r"^systems.copy-source.max_retries: 1.5"),
    (lambda c: c["scoring"]["tokenize"].update(fr="nonexistent-tok"),
     r"^scoring.tokenize.fr: 'nonexistent-tok' is not one of"),
    (lambda c: c["benchmarks"]["conga"].update(tags={"source": {"opne": "["}}),
     r"^benchmarks.conga.tags.source.opne: unknown key"),
    (lambda c: c["benchmarks"]["gambit"]["detectors"].update(
        judge={"kind": "llm-judge", "system": "x", "templates": "t", "fuzzy_threshold": 200}),
     r"^benchmarks.gambit.detectors.judge.fuzzy_threshold: 200 is greater"),
    (lambda c: c["benchmarks"]["fairtranslate"]["data"].update(hub="x"),
     r"^benchmarks.fairtranslate.data: .* \(exactly one of `path`"),
])
def test_the_schema_names_the_key_of_an_unknown_or_bad_value(edit, message):
    with pytest.raises(GenderMTError, match=message):
        check_schema(changed(edit), SCHEMA)


SHIPPED = [ROOT / "config" / "config.yaml", *sorted((ROOT / "config/study").glob("*.yaml"))]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_shipped_configs_pass_every_check(path, monkeypatch, tmp_path):
    text = path.read_text(encoding="utf-8")
    config = yaml.safe_load(text)
    if "benchmarks" not in config:
        pytest.skip("no benchmarks block (a systems file)")
    # paths in configs are relative to the project root; the public data is beside it
    if "../shared/data" in text and not (ROOT.parent / "shared" / "data").is_dir():
        pytest.skip(f"{path.name} reads the public data in ../shared/data, which is not here")
    monkeypatch.chdir(ROOT)
    systems = yaml.safe_load((ROOT / "config/study/systems.yaml").read_text())["systems"]
    # merged as Snakemake merges config files: a study's entry of a shared system (a price,
    # a budget) is merged into systems.yaml's, not put in its place
    config["systems"] = {**systems, **{name: {**systems.get(name, {}), **spec}
                                       for name, spec in config.get("systems", {}).items()}}
    check_schema(config, SCHEMA)
    # as at start-up: the declared data sets a config names are put in a data cache first
    # (here from ../shared/data; gendermt.data.datasets), their references replaced by its paths
    if "dataset:" in text:
        from gendermt.data.datasets import resolve_config
        from gendermt.data.sources import Hasher

        from ..study_support import HUB_REVISIONS, dataset_stand_ins

        # the Hub data sets the study configs name: the shipped samples as a local copy (their
        # hashes taken on first use), at the revision the user gives where none is pinned
        local = config.get("data_sources", {}).get("local") or []
        for name, sample in dataset_stand_ins(config).items():
            (tmp_path / "local" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / sample, tmp_path / "local" / name)
        given = yaml.safe_load((ROOT / HUB_REVISIONS).read_text())["data_sources"]
        config["data_sources"] = {**config.get("data_sources", {}), **given,
                                  "cache": str(tmp_path / "data-cache"),
                                  "local": [str(tmp_path / "local"),
                                            *([local] if isinstance(local, str) else local)]}
        assert resolve_config(config, Hasher(None), run_dir=tmp_path / "results")
    assert check_config(config), path


def write_templates(tmp_path, text: str) -> str:
    path = tmp_path / "prompts.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


GOOD = ("fragments:\n  task: 'Translate: {source}'\n"
        "templates:\n  baseline: {version: 1, user: [task]}\n")


@pytest.mark.parametrize(("text", "message"), [
    (GOOD.replace("{source}", "{source} for {audience}"),
     r"template 'baseline' \(user\) uses the placeholder\(s\) \{audience\}, which this "
     r"benchmark does not fill"),
    (GOOD.replace("{source}", "{source} as JSON {\"a\": 1}"), r"is not a plain placeholder"),
    (GOOD.replace("{source}", "{source} }"), r"Single '\}' encountered"),
    (GOOD.replace("{source}", "{source} {}"), r"'\{\}' is not a plain placeholder"),
    (GOOD.replace("version: 1, ", ""), r"template 'baseline' has no `version`"),
    ("fragments: {}\n", r"no `templates:` mapping"),
    ("templates: [oops\n", r"not a readable YAML file"),
    (None, r"template file .*missing.yaml does not exist"),
])
def test_bad_templates_stop_the_start_up_naming_the_key(tmp_path, text, message):
    path = write_templates(tmp_path, text) if text is not None else str(tmp_path / "missing.yaml")
    config = changed(lambda c: c["benchmarks"]["fairtranslate"].update(templates=path))
    with pytest.raises(GenderMTError, match=r"^benchmarks.fairtranslate.templates: .*" + message):
        check_config(config)


def test_literal_braces_written_doubled_and_benchmark_fields_are_accepted(tmp_path):
    path = write_templates(tmp_path, GOOD.replace("{source}", "{source} {{as is}}"))
    config = changed(lambda c: c["benchmarks"]["fairtranslate"].update(
        templates=path, prompts=["baseline"], system_prompts={"smollm2-135m": ["baseline"]}))
    assert check_config(config)["fairtranslate"]["baseline"]["user"].endswith("{{as is}}")
    # {translation} is GATE's, not FairTranslate's
    path = write_templates(tmp_path, GOOD.replace("{source}", "{source} {translation}"))
    with pytest.raises(GenderMTError, match=r"\{translation\}"):
        check_config(changed(lambda c: c["benchmarks"]["fairtranslate"].update(templates=path)))


@pytest.mark.parametrize(("edit", "message"), [
    (lambda c: c["scoring"].update(bleu={"foo": 1}),
     r"^scoring.bleu: sacrebleu's BLEU has no option\(s\) \['foo'\]"),
    (lambda c: c["scoring"].update(bleu={"smooth_method": "bogus"}),
     r"^scoring.bleu: sacrebleu's BLEU refuses"),
    (lambda c: c["scoring"].update(bleu={"tokenize": "nonexistent-tok"}),
     r"^scoring.bleu.tokenize: 'nonexistent-tok' is not a sacrebleu tokenizer"),
    (lambda c: c["scoring"].update(chrf={"char_order": 6, "beta": 2, "word_orders": 2}),
     r"^scoring.chrf: sacrebleu's CHRF has no option\(s\) \['word_orders'\]"),
    (lambda c: c["scoring"]["tokenize"].update(fr="nonexistent-tok"),
     r"^scoring.tokenize.fr: 'nonexistent-tok' is not a sacrebleu tokenizer"),
    (lambda c: system(c).update(reference="nope"), r"^systems.copy-source: backend"),
    (lambda c: c["benchmarks"]["gate"].update(prompts=["nope"]),
     r"^benchmarks.gate.prompts names \['nope'\]"),
])
def test_sacrebleu_options_systems_and_prompts_are_checked_at_start_up(edit, message):
    with pytest.raises(GenderMTError, match=message):
        check_config(changed(edit))


def test_a_labour_share_out_of_range_is_caught_at_start_up(tmp_path):
    labour = tmp_path / "labour-fr.csv"
    labour.write_text("isco,female_share\n2221,0.9\n2211,1.7\n", encoding="utf-8")
    config = changed(lambda c: c["benchmarks"]["gambit"].setdefault("references", {})
                     .update(labour={"fr": str(labour)}))
    with pytest.raises(GenderMTError, match=r"^benchmarks.gambit.references.labour.fr: .*"
                                            r"labour-fr.csv, row 2, column 'female_share': 1.7 "
                                            r"is outside \[0, 1\]"):
        check_config(config)
    labour.write_text("isco,female_share\n\u0662\u0662\u0662\u0661,0.5\n", encoding="utf-8")
    with pytest.raises(GenderMTError, match=r"is not 1-4 digits"):
        check_config(config)


def test_snakemake_stops_at_start_up_with_one_message(tmp_path):
    project = copy_project(tmp_path / "project")
    config = yaml.safe_load((project / "config" / "config.yaml").read_text(encoding="utf-8"))
    config["systems"]["copy-source"]["backoff"] = -5
    (project / "bad.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    proc = snakemake(project, "-n", "--configfile", "bad.yaml")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "config: systems.copy-source.backoff: -5 is less than the minimum of 0" in out
    assert "Traceback" not in out and "Failed validating" not in out
    del config["systems"]["copy-source"]["backoff"]
    config["scoring"]["bleu"] = {"foo": 1}
    (project / "bad.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    proc = snakemake(project, "-n", "--configfile", "bad.yaml")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "config: scoring.bleu: sacrebleu's BLEU has no" in out


def test_one_validation_fills_the_same_defaults_as_snakemake(config_schema):
    """The workflow validates once (check_schema with fill_defaults): the config it plans with
    is the one snakemake.utils.validate filled before (issue 30)."""
    from snakemake.utils import validate

    ours, theirs = copy.deepcopy(DEFAULT), copy.deepcopy(DEFAULT)
    for config in (ours, theirs):  # study-like configs leave more to the defaults
        config.pop("run", None)
        config.pop("statistics", None)
    check_schema(ours, SCHEMA, fill_defaults=True)
    validate(theirs, schema=config_schema)
    assert ours == theirs and ours != DEFAULT


def test_tokenizers_known_without_sacrebleu_are_sacrebleus():
    """check_tokenizer accepts KNOWN_TOKENIZERS without importing sacrebleu: each must be one
    the installed sacrebleu has."""
    from sacrebleu.metrics.bleu import _TOKENIZERS

    from gendermt.config.checks import KNOWN_TOKENIZERS

    assert set(KNOWN_TOKENIZERS) <= set(_TOKENIZERS)


def test_a_memoised_validation_gives_the_same_config(tmp_path, monkeypatch):
    """The second start-up with the same config and schema skips validation and plans with
    the same filled config; a changed config is validated again (and its error raised)."""
    from gendermt.workflow import startup_cache

    monkeypatch.setattr(startup_cache, "_store", {})
    monkeypatch.setattr(startup_cache, "_path", tmp_path / "startup.json")
    first, second = copy.deepcopy(DEFAULT), copy.deepcopy(DEFAULT)
    first.pop("statistics")
    second.pop("statistics")
    check_schema(first, SCHEMA, fill_defaults=True, memo=startup_cache)
    assert startup_cache._store
    check_schema(second, SCHEMA, fill_defaults=True, memo=startup_cache)
    assert second == first
    bad = changed(lambda c: c["scoring"].update(blue={}))
    with pytest.raises(GenderMTError, match=r"^scoring.blue: unknown key"):
        check_schema(bad, SCHEMA, fill_defaults=True, memo=startup_cache)


def test_what_the_workflow_does_to_its_config_later_never_reaches_the_memo(tmp_path,
                                                                           monkeypatch):
    """The workflow edits its config after validating it (a `dataset:` reference replaced by
    its cached path): the memo keeps the config as validated, so that the next start-up still
    sees the reference (and resolves, verifies and records the data set again)."""
    from gendermt.workflow import startup_cache

    monkeypatch.setattr(startup_cache, "_store", {})
    monkeypatch.setattr(startup_cache, "_path", tmp_path / "startup.json")
    config = copy.deepcopy(DEFAULT)
    check_schema(config, SCHEMA, fill_defaults=True, memo=startup_cache)
    validated = copy.deepcopy(config)
    config["benchmarks"]["fairtranslate"]["data"]["path"] = "data-cache/resolved.parquet"
    config["run"] = "edited"
    again = copy.deepcopy(DEFAULT)
    check_schema(again, SCHEMA, fill_defaults=True, memo=startup_cache)
    assert again == validated
    # and a config filled from the memo is a copy too
    again["benchmarks"]["fairtranslate"]["data"]["path"] = "elsewhere.parquet"
    third = copy.deepcopy(DEFAULT)
    check_schema(third, SCHEMA, fill_defaults=True, memo=startup_cache)
    assert third == validated
