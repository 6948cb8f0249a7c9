"""The published ConGA study config is valid and names only contract backends."""

import copy

import yaml
from snakemake.utils import validate

from ..conftest import ROOT

CONTRACT = {"hf-seq2seq", "hf-causal", "vllm", "openai-compatible", "apertium", "stored",
            "reference-oracle", "copy-source"}


def test_study_config_validates_and_uses_contract_backends(config_schema):
    study = yaml.safe_load((ROOT / "config/study/conga.yaml").read_text(encoding="utf-8"))
    validate(copy.deepcopy(study), config_schema)
    spec = study["benchmarks"]["conga"]
    for name in [*spec["systems"], spec["annotations"]["annotator"]["system"]]:
        assert study["systems"][name]["backend"] in CONTRACT, name
    assert spec["denominator"] == "tags"
