"""gendermt.workflow.snakemake_overrides (part 1): Snakemake's parse of the rule files served
from the start-up cache gives exactly what Snakemake's parser gives (issue 30: the fixed
start-up)."""

import inspect
import subprocess
import types
from pathlib import Path

import pytest
import snakemake.api  # noqa: F401 (imports snakemake.workflow the way Snakemake does)
import snakemake.parser
import snakemake.workflow
from snakemake.sourcecache import LocalSourceFile, SourceCache

from gendermt.workflow import snakemake_overrides, startup_cache

from ..workflow_support import RUN_TIMEOUT, snakemake_exe

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted((ROOT / "workflow" / "rules").glob("*.smk"))


class Counting:
    """Snakemake's parser, counting its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return snakemake.parser.parse(*args, **kwargs)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(startup_cache, "_store", {})
    monkeypatch.setattr(startup_cache, "_path", tmp_path / "startup.json")
    return startup_cache


def workflow_stub(tmp_path):
    return types.SimpleNamespace(sourcecache=SourceCache(tmp_path / "sourcecache"))


def test_every_rule_file_parses_from_the_cache_as_snakemake_parses_it(tmp_path, cache):
    parser = Counting()
    module = types.SimpleNamespace(parse=parser)
    assert snakemake_overrides.install_parse_cache(module)
    workflow, count = workflow_stub(tmp_path), 0
    for path in RULE_FILES:
        source = LocalSourceFile(str(path))
        expected_map: dict[int, int] = {}
        expected = snakemake.parser.parse(source, workflow, expected_map, rulecount=count)
        first_map: dict[int, int] = {}
        first = module.parse(source, workflow, first_map, rulecount=count)
        again_map: dict[int, int] = {}
        again = module.parse(source, workflow, again_map, rulecount=count)
        assert first == again == expected, path.name
        assert first_map == again_map == expected_map, path.name
        count = expected[1]
    # each file parsed once by Snakemake's parser, then served from the cache
    assert parser.calls == len(RULE_FILES)


def test_an_edited_file_or_another_rule_count_is_parsed_again(tmp_path, cache):
    parser = Counting()
    module = types.SimpleNamespace(parse=parser)
    snakemake_overrides.install_parse_cache(module)
    workflow = workflow_stub(tmp_path)
    path = tmp_path / "rules.smk"
    path.write_text('rule a:\n    output: "a"\n    shell: "touch {output}"\n')
    source = LocalSourceFile(str(path))
    module.parse(source, workflow, {}, rulecount=0)
    module.parse(source, workflow, {}, rulecount=0)
    assert parser.calls == 1
    module.parse(source, workflow, {}, rulecount=3)  # anonymous rules are numbered from it
    assert parser.calls == 2
    path.write_text('rule b:\n    output: "b"\n    shell: "touch {output}"\n')
    # a new call (Snakemake's parser reads a process's own copy of the file)
    code, _ = module.parse(source, workflow_stub(tmp_path / "next"), {}, rulecount=0)
    assert parser.calls == 3
    assert "name='b'" in code or 'name="b"' in code, code


def test_a_file_with_another_shell_command_goes_to_snakemake(tmp_path, cache):
    parser = Counting()
    module = types.SimpleNamespace(parse=parser)
    snakemake_overrides.install_parse_cache(module)
    workflow = workflow_stub(tmp_path)
    source = LocalSourceFile(str(RULE_FILES[0]))
    for _ in range(2):
        module.parse(source, workflow, {}, overwrite_shellcmd="echo", rulecount=0)
    assert parser.calls == 2
    assert not startup_cache._store


def test_nothing_is_replaced_while_the_cache_is_off(monkeypatch):
    monkeypatch.setattr(startup_cache, "_path", None)
    module = types.SimpleNamespace(parse=Counting())
    assert not snakemake_overrides.install_parse_cache(module)
    assert isinstance(module.parse, Counting)


def test_a_parser_of_another_signature_is_left_as_it_ships(cache, monkeypatch):
    def parse(path, workflow, linemap, rulecount=0):  # not what the replacement passes on
        raise AssertionError("not called")

    monkeypatch.setattr(snakemake.parser, "parse", parse)
    module = types.SimpleNamespace(parse=Counting())
    assert not snakemake_overrides.install_parse_cache(module)
    assert isinstance(module.parse, Counting)


def test_the_installed_snakemake_has_what_is_replaced():
    # a Snakemake that renames or reshapes these would silently lose the cache: fail here
    assert snakemake.workflow.parse is snakemake.parser.parse or \
        getattr(snakemake.workflow.parse, "gendermt_cached", False)
    params = list(inspect.signature(snakemake.parser.parse).parameters)
    assert params == snakemake_overrides.PARSE_PARAMETERS == [
        "path", "workflow", "linemap", "overwrite_shellcmd", "rulecount"]
    source = inspect.getsource(snakemake.workflow.Workflow.include)
    assert "code, rulecount = parse(" in source


@pytest.mark.workflow
def test_a_workflow_plans_the_same_with_a_warm_cache(tmp_path):
    work = tmp_path / "w"
    work.mkdir()
    for name in ("Snakefile", "workflow", "config", "resources", "envs", "src"):
        src = ROOT / name
        target = work / name
        if src.is_dir():
            subprocess.run(["cp", "-r", str(src), str(target)], check=True)
        else:
            target.write_bytes(src.read_bytes())

    def rules() -> str:
        proc = subprocess.run([snakemake_exe(), "--list-rules"], cwd=work, capture_output=True,
                              text=True, timeout=RUN_TIMEOUT)
        assert proc.returncode == 0, proc.stderr[-3000:]
        return proc.stdout

    cold = rules()
    cached = (work / ".snakemake/gendermt/startup.json").read_text()
    assert '"snakemake-parse:' in cached
    assert rules() == cold
