"""A secret pasted into `api_key_env` (the key itself instead of an environment variable's
name) is refused without being shown, by the schema check, the config check and the
start-up check of unset keys alike (issue 51 item 4)."""

from pathlib import Path

import pytest
import yaml

from gendermt.config.checks import check_config, check_schema
from gendermt.core import registry
from gendermt.core.errors import GenderMTError
from gendermt.translation.backends import build_backend, unset_api_keys

ROOT = Path(__file__).resolve().parents[2]
SECRET = "sk-test-ABCDEF0123456789secret"
REFUSED = ("systems.api.api_key_env: api_key_env must name an environment variable; the "
           "value given looks like a key and is not shown")


def api(key: str = SECRET) -> dict:
    return {"backend": "openai-compatible", "base_url": "http://127.0.0.1:9/v1", "model": "m",
            "api_key_env": key}


@pytest.fixture
def config():
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    config["systems"]["api"] = api()
    return config


def test_the_schema_refuses_a_key_without_showing_it(config):
    schema = registry.config_schema(ROOT / "workflow/schemas/config.schema.yaml")
    with pytest.raises(GenderMTError) as err:
        check_schema(config, schema, fill_defaults=True)
    assert SECRET not in str(err.value) and "sk-test" not in str(err.value)
    assert str(err.value) == REFUSED


def test_the_config_check_refuses_a_key_without_showing_it(config):
    with pytest.raises(GenderMTError) as err:
        check_config(config)
    assert SECRET not in str(err.value)
    assert str(err.value).startswith("systems.api") and REFUSED.split(": ", 1)[1] in str(
        err.value)


def test_the_backend_refuses_a_key_without_showing_it():
    with pytest.raises(GenderMTError) as err:
        build_backend(api(), "unused.parquet")
    assert SECRET not in str(err.value) and "not shown" in str(err.value)


@pytest.mark.parametrize("value", [SECRET, "has space", "1STARTS_WITH_DIGIT", "A" * 129,
                                   "line\nbreak"])
def test_the_unset_key_check_never_shows_an_implausible_name(value):
    lines = unset_api_keys({"api": api(value)}, ["api"])
    assert lines == [REFUSED]


def test_a_plausible_unset_name_is_still_named(monkeypatch):
    monkeypatch.delenv("GENDERMT_UNSET_51", raising=False)
    assert unset_api_keys({"api": api("GENDERMT_UNSET_51")}, ["api"]) == [
        "systems.api.api_key_env: the environment variable GENDERMT_UNSET_51 is not set; "
        "export it with the API key before running"]
