"""Translation jobs whose backend reads no data table never import pandas (issue 30: about
0.45 s of every cheap job's CPU), and a reference oracle reads its column with pyarrow alone,
giving the same outputs as from a pandas frame."""

import json
import subprocess
import sys

import pandas as pd
import pytest

from gendermt.translation.backends import Request, build_backend

from ..conftest import ROOT

SYSTEMS = {
    "copy-source": {"backend": "copy-source"},
    "rule-rewriter": {"backend": "rule-rewriter"},
    "reference-oracle": {"backend": "reference-oracle", "reference": "ref_male"},
}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_cheap_translation_job_imports_no_pandas(stage, system):
    data, inputs, out, meta = stage
    code = f"""
import json, sys
from gendermt.translation.runner import translate_file
translate_file({str(inputs)!r}, {str(data)!r}, {system!r}, {SYSTEMS[system]!r},
               {str(out)!r}, {str(meta)!r})
print(json.dumps(sorted(m for m in ("pandas", "numpy") if m in sys.modules)))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    # the oracle reads its column with pyarrow, which imports numpy
    assert json.loads(proc.stdout.splitlines()[-1]) == (
        ["numpy"] if system == "reference-oracle" else [])
    assert len(out.read_text().splitlines()) == 54


def test_the_oracle_from_its_parquet_file_equals_the_oracle_from_a_frame(tmp_path, sample_data):
    frame = sample_data.copy()
    frame.loc[frame.index[:3], "ref_male"] = None  # rows with no reference: empty outputs
    path = tmp_path / "data.parquet"
    frame.to_parquet(path)
    settings = SYSTEMS["reference-oracle"]
    from_file = build_backend(settings, path)
    from_frame = build_backend(settings, pd.read_parquet(path))
    batch = [Request(i, "") for i in frame["item_id"]]
    assert from_file.translate(batch) == from_frame.translate(batch)
    assert from_file.missing == from_frame.missing == 3
    assert from_file.translate(batch)[:3] == ["", "", ""]
    assert from_file.translate(batch)[3:] == list(frame["ref_male"][3:])


def test_a_backend_that_reads_no_data_is_given_none(stage):
    data = stage[0]
    assert build_backend(SYSTEMS["copy-source"], data).data is None
