"""A key pasted into `api_key_env` stops `snakemake` (and `snakemake -n`) at start-up without
being shown: not in the output, not in any file Snakemake or the project writes (.snakemake/,
logs/, results/) (issue 51 item 4)."""

from __future__ import annotations

import pytest
import yaml

from ..workflow_support import copy_project, explain, output_of, snakemake

pytestmark = pytest.mark.workflow

SECRET = "sk-test-ABCDEF0123456789secret"
SAMPLE = "resources/fairtranslate/data/train-00000-of-00001.parquet"


def test_a_pasted_key_is_refused_and_written_nowhere(tmp_path):
    workdir = copy_project(tmp_path / "project", share_cache=False)
    config = {"run": "key",
              "benchmarks": {"fairtranslate": {
                  "data": {"path": SAMPLE},
                  "templates": "src/gendermt/benchmarks/fairtranslate/prompts/translate.yaml",
                  "prompts": ["baseline"], "systems": ["api"], "postprocess": ["first_line"],
                  "metrics": ["bleu"], "clean_outlier": {"enabled": False}}},
              "systems": {"api": {"backend": "openai-compatible",
                                  "base_url": "http://127.0.0.1:9/v1", "model": "m",
                                  "api_key_env": SECRET}}}
    (workdir / "key.yaml").write_text(yaml.safe_dump(config))
    for args in (["-n"], ["--cores", "1"]):  # a dry run, and a run (which writes a log)
        proc = snakemake(workdir, *args, "--configfile", "key.yaml")
        text = output_of(proc)
        assert proc.returncode != 0, explain(proc)
        assert "api_key_env must name an environment variable" in text, explain(proc)
        assert "sk-test" not in text
    written = [path for name in (".snakemake", "logs", "results") if (workdir / name).exists()
               for path in (workdir / name).rglob("*") if path.is_file()]
    assert any(path.parent.name == "log" for path in written)  # Snakemake's log was written
    leaked = [str(p) for p in written if b"sk-test" in p.read_bytes()]
    assert not leaked
