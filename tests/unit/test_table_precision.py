"""Tables write floats at a stated precision (gendermt.data.io.TABLE_DIGITS significant digits), so
a
last-bit difference of BLAS or CPU (OPENBLAS_CORETYPE) does not change a table's bytes (issue
33: anova.csv, gender_tests.csv and correlations.csv differed under OPENBLAS_CORETYPE=Haswell).
"""

from __future__ import annotations

import math
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from gendermt.data.io import TABLE_DIGITS, csv_text, significant, table_floats, write_table

from ..conftest import ROOT


def _frame(values):
    return pd.DataFrame({"system": ["a", "b", "c"], "n": [1, 2, 3], "p_value": values,
                         "mixed": ["x", 0.1 + 0.2, None]})


def test_last_bit_differences_write_the_same_bytes(tmp_path):
    values = [2.295038053806506e-12, 0.30000000000000004, 44.112500000000004]
    nudged = [np.nextafter(v, math.inf) for v in values]
    assert values != nudged
    for name, vals in (("one", values), ("two", nudged)):
        write_table(_frame(vals), tmp_path / f"{name}.csv", tmp_path / f"{name}.md")
    assert (tmp_path / "one.csv").read_bytes() == (tmp_path / "two.csv").read_bytes()
    assert (tmp_path / "one.md").read_bytes() == (tmp_path / "two.md").read_bytes()
    text = (tmp_path / "one.csv").read_text("utf-8")
    assert text.splitlines() == ["system,n,p_value,mixed", "a,1,2.295038054e-12,x",
                                 "b,2,0.3,0.3", "c,3,44.1125,"]


def test_significant_digits_keep_texts_integers_and_missing_values():
    assert TABLE_DIGITS == 10
    assert significant(-0.0) == 0.0 and math.copysign(1, significant(-0.0)) == 1
    assert math.isnan(significant(math.nan)) and significant(math.inf) == math.inf
    assert significant({"a": [1 / 3, "1/3", 7, True, None]}) == \
        {"a": [0.3333333333, "1/3", 7, True, None]}
    assert significant(np.float64(2 / 3)) == 0.6666666667
    assert significant(123456.78912345678) == 123456.7891
    frame = table_floats(pd.DataFrame({
        "f": [1 / 3, np.nan], "i": [1, 2], "s": pd.Series(["1/3", None], dtype=object),
        "nullable": pd.array([2 / 3, None], dtype="Float64")}))
    assert frame["f"].iloc[0] == 0.3333333333 and math.isnan(frame["f"].iloc[1])
    assert frame["i"].tolist() == [1, 2] and frame["s"].tolist() == ["1/3", None]
    assert frame["nullable"].iloc[0] == 0.6666666667
    assert csv_text(pd.DataFrame({"x": [0.1 + 0.2]}), sep="\t") == "x\n0.3\n"


def test_every_workflow_table_writer_goes_through_the_common_writer():
    """No stage writes a table with pandas' own ``to_csv`` (every digit); the command line's
    outputs (``cli.py``, with their own ``--precision``) are not workflow tables."""
    offenders = []
    for path in sorted((ROOT / "src/gendermt").rglob("*.py")):
        if path.name == "cli.py" or path == ROOT / "src/gendermt/data/io.py":
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            if re.search(r"\.to_csv\(", line) and not line.lstrip().startswith("#"):
                offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert not offenders, f"tables written without gendermt.data.io.csv_text: {offenders}"


ANOVA = """
import sys
import numpy as np
import pandas as pd
from gendermt.data.io import csv_text
rng = np.random.default_rng(0)
x = rng.normal(size=(400, 60))
y = x @ rng.normal(size=60) + rng.normal(size=400)
beta, *_ = np.linalg.lstsq(x, y, rcond=None)   # LAPACK/BLAS: kernel-dependent last bits
frame = pd.DataFrame({"coef": beta[:8], "ss": [float((x @ beta - y) @ (x @ beta - y))] * 8})
sys.stdout.write(repr(beta[:8].tolist()) + "\\n" + csv_text(frame))
"""


@pytest.mark.parametrize("coretype", ["Haswell", "Prescott", "Sandybridge"])
def test_a_blas_kernel_changes_digits_but_not_the_table(coretype):
    """The same least-squares fit under the machine's OpenBLAS kernel and another one
    (OPENBLAS_CORETYPE; ignored where numpy's BLAS is not OpenBLAS): the tables agree."""
    def run(env_coretype: str | None) -> str:
        import os

        env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
        env["PYTHONPATH"] = str(ROOT / "src")
        if env_coretype:
            env["OPENBLAS_CORETYPE"] = env_coretype
        return subprocess.run([sys.executable, "-c", ANOVA], env=env, check=True,
                              capture_output=True, text=True, timeout=120).stdout

    (here_digits, here), (there_digits, there) = (run(None).split("\n", 1),
                                                  run(coretype).split("\n", 1))
    if here_digits == there_digits:
        pytest.skip(f"OPENBLAS_CORETYPE={coretype} gives this machine's digits (or no OpenBLAS)")
    assert here == there
