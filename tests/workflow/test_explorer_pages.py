"""The explorer pages of the default run (issue 53): one per benchmark, in the report under the
benchmark's name, each listing every item of every run with the configured systems' outputs
and what was read from them."""

import base64
import json
import re

import pandas as pd
import pytest
import yaml

from gendermt.report.explorer import read_page, rows_of

from ..conftest import ROOT

CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
BENCHMARKS = list(CONFIG["benchmarks"])
LABELS = {"fairtranslate": "FairTranslate", "gate-x-e": "GATE X-E", "gate": "GATE",
          "conga": "ConGA", "neogate": "Neo-GATE", "gambit": "GAMBIT",
          "mt-geneval": "MT-GenEval"}


@pytest.fixture(scope="module")
def pages(default_run):
    default_run.require_success()
    return {name: read_page(default_run.path(f"results/default/{name}/explorer.html"))
            for name in BENCHMARKS}


@pytest.mark.parametrize("name", BENCHMARKS)
def test_each_benchmark_has_an_explorer_of_every_item_and_system(pages, default_run, name):
    page = pages[name]
    spec = CONFIG["benchmarks"][name]
    systems = list(dict.fromkeys(
        spec["systems"] + [s for p in spec.get("paradigm_systems", {}).values() for s in p]))
    assert page["benchmark"] == LABELS[name] and page["systems"] == systems
    rows = rows_of(page)
    # every system has outputs on the page, each with what was read
    for system in systems:
        outs = [r["outputs"][system] for r in rows if system in r["outputs"]]
        assert outs and all(o["read"] for o in outs), system
    # every item of the data, in every run that has it
    data = pd.read_parquet(default_run.path(f"results/default/{name}/data.parquet"))
    ids = {r["item_id"] for r in rows}
    if name == "gate-x-e":  # a tuple: an instance and the gender asked for
        assert {i.rsplit("-", 1)[0] for i in ids} == set(data["item_id"])
    else:
        assert ids == set(data["item_id"].astype(str))
    assert {r["run"] for r in rows} == set(page["runs"])


def test_the_report_lists_each_explorer_under_its_benchmark(default_run):
    report = default_run.path("results/default/report.html").read_text(encoding="utf-8")
    results = json.loads(re.search(r"var results = (\{.*?\});\n", report).group(1))
    for name in BENCHMARKS:
        entry = results[f"results/default/{name}/explorer.html"]
        assert entry["labels"] == {"result": "Explorer: every item, every system",
                                   "benchmark": LABELS[name]}
        assert entry["mime_type"] == "text/html" and "every item" in entry["caption"]
        page = base64.b64decode(entry["data_uri"].split("base64,", 1)[1]).decode("utf-8")
        assert 'id="gmt-explorer-data"' in page
