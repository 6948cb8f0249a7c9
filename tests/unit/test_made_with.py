"""Whether a translation job's outputs were made with its system's current settings, and the
settings the protection stop names (gendermt.workflow.made_with); the workflow's runs through
it: tests/workflow/test_workflow_setting_changes.py."""

from __future__ import annotations

from types import SimpleNamespace

from snakemake.io import is_flagged

from gendermt.workflow.made_with import MadeWith, changed_settings, changes
from gendermt.workflow.protection import stop_message
from gendermt.workflow.runs import Runs

OLD = {"backend": "deepl", "endpoint": "http://a", "lang_codes": {"de": "DE"}}
NEW = {"backend": "deepl", "endpoint": "http://a", "lang_codes": {"de": "IT"},
       "formality": "less"}


def wildcards(**kw: str) -> SimpleNamespace:
    return SimpleNamespace(benchmark="winomt", system="svc", **kw)


def test_a_job_made_with_other_settings_is_not_current():
    records = {"r/winomt/raw/svc/de.jsonl": [repr("code-1"), repr(OLD)],
               "r/winomt/sources/svc.jsonl": [repr("code-1"), repr(NEW)]}
    settings = {"value": OLD}
    made = MadeWith("r", records.get, lambda w: "code-1", lambda w: settings["value"])
    assert made.output_of(wildcards(prompt="de")) == "r/winomt/raw/svc/de.jsonl"
    assert made.output_of(wildcards()) == "r/winomt/sources/svc.jsonl"  # translate_sources
    assert made.made_with_current(wildcards(prompt="de"))
    assert not made.made_with_current(wildcards())
    settings["value"] = NEW
    assert not made.made_with_current(wildcards(prompt="de"))
    assert made.made_with_current(wildcards())
    assert made.made_with_current(wildcards(prompt="fr"))  # nothing recorded: nothing to say
    # the code changed (a backend's request_version), the settings not
    code = MadeWith("r", records.get, lambda w: "code-2", lambda w: NEW)
    assert not code.made_with_current(wildcards())


def test_the_links_are_ancient_only_while_the_job_is_current():
    systems = {"svc": {"backend": "deepl"}, "nmt": {"backend": "hf-seq2seq", "model": "m"}}
    benchmarks = {"winomt": {"systems": ["svc", "nmt"], "prompts": ["fr", "de"]}}
    runs = Runs(benchmarks, systems, "r")
    current = {"svc": True, "nmt": True}
    runs.made_with_current = lambda w: current[w.system]
    for system in ("svc", "nmt"):
        w = SimpleNamespace(benchmark="winomt", system=system, prompt="de")
        links = runs.source_translation_of(w) + runs.paid_work_of(w)
        assert links and all(is_flagged(f, "ancient") for f in links)
        current[system] = False
        links = runs.source_translation_of(w) + runs.paid_work_of(w)
        assert links and not any(is_flagged(f, "ancient") for f in links)
    assert runs.paid_work_of(SimpleNamespace(benchmark="winomt", system="nmt")) == []


def test_changes_old_to_new():
    recorded = [repr("code-1"), repr(OLD)]
    assert changes([("code", "code-1"), ("settings", OLD)], recorded) == []
    assert changes([("code", "code-1"), ("settings", NEW)], recorded) == [
        "formality (unset) → 'less'", "lang_codes {'de': 'DE'} → {'de': 'IT'}"]
    assert changes([("code", "code-2"), ("settings", {"backend": "deepl"})], recorded) == [
        "code changed", "endpoint 'http://a' → (unset)", "lang_codes {'de': 'DE'} → (unset)"]
    assert changes([("settings", NEW)], None) == []  # nothing recorded


def job(system: str, prompt: str, settings: dict) -> SimpleNamespace:
    return SimpleNamespace(
        wildcards_dict={"benchmark": "winomt", "system": system, "prompt": prompt},
        params=SimpleNamespace(items=lambda: [("code", "code-1"), ("settings", settings)]),
        output=[f"r/winomt/raw/{system}/{prompt}.jsonl"], rule=SimpleNamespace(name="translate"))


def test_the_stop_names_each_system_and_setting_once():
    recorded = {f"r/winomt/raw/{s}/{p}.jsonl": [repr("code-1"), repr(OLD)]
                for s in ("svc", "other") for p in ("fr", "de")}
    jobs = [job("svc", "fr", NEW), job("svc", "de", NEW), job("other", "de", OLD)]
    lines = changed_settings(jobs, recorded.get)
    assert lines == ["systems.svc: formality (unset) → 'less' (winomt: de, fr)",
                     "systems.svc: lang_codes {'de': 'DE'} → {'de': 'IT'} (winomt: de, fr)"]
    text = stop_message(["r/winomt/raw/svc/de.jsonl", "r/winomt/raw/svc/fr.jsonl"], lines)
    assert "2 protected output(s) would be redone" in text
    assert "Changed since they were made:\n  systems.svc: formality" in text
    assert "rerun_protected=true" in text
    assert "Changed since" not in stop_message(["r/x.jsonl"], [])
