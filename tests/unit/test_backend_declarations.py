"""A backend is its own file: it declares what it is (``ABOUT``, read by gendermt.core.backends
without importing it), and the config checks, the start-up lookups and ``gendermt run`` know it
from there, without a shared file naming it."""

import os
import subprocess
import sys
import textwrap

import pytest

from gendermt.cli import run as run_cli
from gendermt.config import checks, own_system
from gendermt.core import backends
from gendermt.core.errors import GenderMTError
from gendermt.translation.backends import system_modules
from gendermt.workflow.system_files import system_files

from ..conftest import ROOT

TOY = '''
"""A toy NMT backend: the source, upper-cased."""

from typing import Any, ClassVar

from gendermt.translation.backends.base import Backend, Request

ABOUT = {
    "toy-upper": {
        "class": "ToyUpper",
        "style": "source",
        "cli_setting": "model",
        "files": {"model": "model"},
        "example": ("the source in capitals",
                    "gendermt run --model toy-upper:./upper --benchmarks mt-geneval"),
    },
}


class ToyUpper(Backend):
    name: ClassVar[str] = "toy-upper"
    prompted: ClassVar[bool] = False
    settings_keys: ClassVar[frozenset[str]] = frozenset({"model"})

    def translate(self, requests: list[Request]) -> list[str]:
        return [r.source.upper() for r in requests]
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A package of backends outside the project, with one module: the toy's."""
    folder = tmp_path / "toy_backends"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "upper.py").write_text(textwrap.dedent(TOY))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(backends, "SEARCHED", [*backends.SEARCHED, ("toy_backends", folder)])
    yield backends.info("toy-upper")
    dict.pop(backends.BACKENDS, "toy-upper", None)
    sys.modules.pop("toy_backends.upper", None)
    sys.modules.pop("toy_backends", None)


def test_a_new_backend_in_its_own_file_is_known_everywhere(toy, tmp_path):
    assert toy.module == "toy_backends.upper" and toy.cls == "ToyUpper"
    assert "toy-upper" in backends.names()
    # the config checks take its settings, and refuse what it does not know
    checks.check_systems({"mine": {"backend": "toy-upper", "model": "x"}})
    with pytest.raises(GenderMTError, match="systems.mine.*colour"):
        checks.check_systems({"mine": {"backend": "toy-upper", "colour": "red"}})
    # gendermt run: its CLI spelling, its style and its example
    settings = own_system.parse_model("toy-upper:./upper", [])
    assert settings == {"backend": "toy-upper", "model": "./upper"}
    assert own_system.prompt_style(settings) == "source"
    assert "gendermt run --model toy-upper:./upper" in run_cli._epilog()
    # the start-up lookups: its module (the job's code), and the model folder it names
    assert system_modules(settings) == ["toy_backends.upper"]
    config = {"systems": {"mine": {"backend": "toy-upper", "model": str(tmp_path / "nowhere/x")}},
              "benchmarks": {"mt-geneval": {}}}
    (found,) = system_files(config, {"mt-geneval": [{"system": "mine", "prompt": "p"}]})
    assert (found.kind, found.key) == ("model folder", "systems.mine.model")


def test_a_backend_declared_twice_stops(toy, tmp_path):
    (tmp_path / "toy_backends" / "again.py").write_text(textwrap.dedent(TOY))
    backends._declared.cache_clear()  # read once a process; this one changed its folder
    with pytest.raises(GenderMTError, match="toy-upper.*declared twice"):
        backends.declared()


def test_an_about_block_that_is_no_literal_stops(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text('ABOUT = {\n    "x": {"class": NAME},\n}\n')
    with pytest.raises(GenderMTError, match="no plain literal"):
        backends.read_about(module)


def test_each_backend_declares_what_its_class_is():
    for name, about in backends.declared().items():
        cls = backends.BACKENDS[name]
        assert cls.name == name, name
        if about.style == "llm":
            assert cls.prompted, f"{name}: an LLM reads its prompt"
        if about.style in ("source", "rewriter"):
            assert not cls.prompted, f"{name}: reads the source only"
        assert about.cli_setting is None or about.cli_setting in cls.settings_keys, name
        assert set(about.files) <= cls.settings_keys, name


def test_reading_the_declarations_imports_no_backend():
    # start-up reads every declaration; a backend's module loads only when a system names it
    code = ("import sys; from gendermt.core import backends; backends.declared(); "
            "print(sorted(m for m in sys.modules if m.startswith('gendermt.translation')))")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=env)
    assert done.stdout.strip() == "[]"
