from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "fairtranslate" / "data" / "train-00000-of-00001.parquet"


@pytest.fixture(scope="session")
def sample_path() -> Path:
    return SAMPLE


@pytest.fixture(scope="session")
def sample_data(sample_path):
    from gendermt.benchmarks.fairtranslate.data import load

    data, _ = load(sample_path)
    return data
