"""`gendermt run` (issue 53) without Snakemake: the run's config it writes (the system on
every chosen benchmark with the prompts that fit it), its --help (an example per backend),
and the refusal, before Snakemake starts and before any weights load, of a model a benchmark
cannot take."""

import subprocess
from pathlib import Path

import pytest

from gendermt import cli
from gendermt.cli import run as run_cli
from gendermt.config import languages, own_system, project
from gendermt.core import backends
from gendermt.core.errors import GenderMTError
from gendermt.translation.backends import nmt_languages
from gendermt.translation.backends.nmt_languages import check_benchmarks

from ..conftest import ROOT


class M2MTokenizer:
    """What the language check reads of an M2M-100 tokenizer (its family: lang_code_to_id),
    knowing English, French and Italian only."""

    lang_code_to_id = {"en": 1, "fr": 2, "it": 3}

    def get_vocab(self):
        return {"__en__": 1, "__fr__": 2, "__it__": 3}


def test_help_shows_an_example_for_every_backend_of_the_registry(capsys):
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    shown = capsys.readouterr().out
    for backend, about in backends.declared().items():
        assert about.example[1], f"{backend} declares no example (its module's ABOUT)"
        assert f"gendermt run --model {backend}:" in shown, backend


def test_every_example_parses_into_settings_its_backend_accepts():
    from gendermt.core.backends import check_system

    for backend, about in backends.declared().items():
        command = about.example[1]
        args = cli.build_parser().parse_args(command.split()[1:])
        settings = own_system.parse_model(args.model, args.option)
        assert settings["backend"] == backend
        check_system(settings)


def test_a_chat_llm_gets_the_instruction_prompts_a_base_llm_the_few_shot_ones():
    chat = own_system.own_run("default", {"backend": "hf-causal", "model": "org/chat-llm"},
                              None, "fairtranslate,mt-geneval")
    base = own_system.own_run("default", {"backend": "hf-causal", "model": "org/base-llm",
                                          "chat_template": "none"}, "base", "all")
    ft, mt = chat.config["benchmarks"]["fairtranslate"], chat.config["benchmarks"]["mt-geneval"]
    assert chat.system == "chat-llm" and chat.run == "default-chat-llm"
    assert ft["systems"][-1] == "chat-llm"
    assert ft["system_prompts"]["chat-llm"] == ["baseline", "moral", "linguistic",
                                                "moral_linguistic"]
    assert mt["system_prompts"]["chat-llm"] == ["baseline"]
    # the default's own systems and prompts are kept as they were
    assert ft["system_prompts"]["gemma3-270m"] == ["fewshot"]
    assert base.style == "base" and base.config["systems"]["base"]["stop"] == ["\n"]
    assert set(base.config["benchmarks"]) == {"fairtranslate", "mt-geneval"}
    assert base.config["benchmarks"]["mt-geneval"]["system_prompts"]["base"] == ["fewshot"]
    assert any(n.startswith("left out conga:") for n in base.notes)


def test_an_nmt_model_runs_every_translation_benchmark_and_no_rewriting_one():
    made = own_system.own_run("default", {"backend": "hf-seq2seq", "model": "org/nmt"}, None,
                              "all")
    assert "gate" not in made.config["benchmarks"] and "gate-x-e" not in made.config["benchmarks"]
    assert "system_prompts" not in made.config["benchmarks"]["conga"]
    ft = made.config["benchmarks"]["fairtranslate"]
    assert "nmt" in ft["systems"] and "nmt" not in ft.get("system_prompts", {})
    with pytest.raises(GenderMTError, match="cannot run gate: gate rewrites"):
        own_system.own_run("default", {"backend": "hf-seq2seq", "model": "org/nmt"}, None,
                           "gate")


def test_a_language_the_nmt_model_lacks_is_refused_naming_benchmark_and_language():
    with pytest.raises(GenderMTError) as err:
        own_system.own_run("default", {"backend": "hf-seq2seq", "model": "org/m2m"}, None,
                           "fairtranslate,mt-geneval",
                           lambda s, st, b: check_benchmarks(s, st, b, lambda _: M2MTokenizer()))
    message = str(err.value)
    assert "\n" not in message
    assert "m2m cannot run mt-geneval (target language 'de')" in message
    assert "lang_codes" in message and "--benchmarks" in message
    # mapped by the system's lang_codes, or left out: accepted
    own_system.own_run("default", {"backend": "hf-seq2seq", "model": "org/m2m"}, None,
                       "fairtranslate,conga",
                       lambda s, st, b: check_benchmarks(s, st, b, lambda _: M2MTokenizer()))


def test_the_command_refuses_before_snakemake_starts(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(nmt_languages, "_tokenizer", lambda settings: M2MTokenizer())

    def no_snakemake(*args, **kwargs):
        raise AssertionError("Snakemake started")
    monkeypatch.setattr(subprocess, "run", no_snakemake)
    code = cli.main(["run", "--model", "hf-seq2seq:org/m2m", "--benchmarks", "mt-geneval"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "target language 'de'" in err
    assert not (tmp_path / "results").exists()


def test_target_languages_are_the_direction_narrowed_by_the_config():
    assert languages.target_languages("mt-geneval", {"data": {"languages": ["fr", "de"]}}) == \
        ["de", "fr"]
    assert languages.target_languages("gate", {"data": {"languages": ["ES", "FR", "IT"]}}) == \
        ["es", "fr", "it"]
    assert languages.target_languages("gambit", {"prompts": ["fr"]}) == ["fr"]
    assert languages.target_languages("gate-x-e", {"data": {"languages": ["turkish"]}}) == ["en"]


@pytest.mark.parametrize("model, options, message", [
    ("hf-causal", [], "give BACKEND:MODEL"),
    ("nope:x", [], "give BACKEND:MODEL with a backend of"),
    ("copy-source:x", [], "takes no model"),
    ("hf-causal:org/m", ["max_new_tokens"], "give key=value"),
])
def test_bad_model_or_options_are_one_line(model, options, message):
    with pytest.raises(GenderMTError, match=message):
        own_system.parse_model(model, options)


def test_options_are_read_as_yaml_and_apertium_modes_as_a_chain():
    assert own_system.parse_model("hf-causal:org/m", ["max_new_tokens=64", 'stop=["\\n"]']) \
        == {"backend": "hf-causal", "model": "org/m", "max_new_tokens": 64, "stop": ["\n"]}
    assert own_system.parse_model("apertium:eng-spa,es-fr", [])["modes"] == ["eng-spa", "es-fr"]


def test_names_and_benchmarks_are_checked():
    settings = {"backend": "copy-source"}
    with pytest.raises(GenderMTError, match="already has a system of that name"):
        own_system.own_run("default", dict(settings), None, "all")
    with pytest.raises(GenderMTError, match="winomt is not in this study"):
        own_system.own_run("default", dict(settings), "c2", "winomt")
    with pytest.raises(GenderMTError, match="unknown benchmark"):
        own_system.own_run("default", dict(settings), "c2", "nope")
    with pytest.raises(GenderMTError, match="a system name is"):
        own_system.own_run("default", dict(settings), "bad name", "all")


def test_project_paths_are_anchored_where_this_installation_has_them():
    config = {"a": "resources/gate/data", "b": ["src/gendermt/benchmarks/gate/prompts/"
                                                "rewrite.yaml"],
              "c": "resources/gambit/translations/mixed/{prompt}.tsv", "d": "mine/data.tsv",
              "e": "../shared/data", "f": "dataset:winomt/en.txt"}
    found = own_system.anchored(config)
    assert found["a"] == str(ROOT / "resources" / "gate" / "data")
    assert Path(found["b"][0]).is_file() and Path(found["b"][0]).is_absolute()
    assert found["c"] == str(ROOT / "resources/gambit/translations/mixed/{prompt}.tsv")
    assert found["d"] == "mine/data.tsv" and found["e"] == "../shared/data"
    assert found["f"] == "dataset:winomt/en.txt"
    assert project.root() == ROOT and project.is_checkout()


def test_snakemake_gets_the_packaged_workflow_the_current_folder_and_the_rest(tmp_path):
    args = cli.build_parser().parse_args(["run", "--model", "copy-source:", "--cores", "3",
                                          "--dry-run", "--", "--forceall", "-p"])
    cmd = run_cli.snakemake_command(ROOT, tmp_path / "c.yaml", args)
    assert cmd[cmd.index("--snakefile") + 1] == str(ROOT / "Snakefile")
    assert cmd[cmd.index("--directory") + 1] == str(Path.cwd())
    assert cmd[cmd.index("--workflow-profile") + 1] == str(ROOT / "profiles" / "local")
    assert cmd[-5:] == ["--cores", "3", "--dry-run", "--forceall", "-p"]


def test_studies_by_name_with_the_systems_file_where_they_need_it(tmp_path):
    assert own_system.study_files("public") == [ROOT / "config/study/public.yaml"]
    assert own_system.study_files("mt-geneval") == [ROOT / "config/study/systems.yaml",
                                                    ROOT / "config/study/mt-geneval.yaml"]
    mine = tmp_path / "mine.yaml"
    mine.write_text("run: mine\n")
    assert own_system.study_files(str(mine)) == [mine]
    with pytest.raises(GenderMTError, match="neither a study .*default, public"):
        own_system.study_files("nope")


def test_the_rewriting_benchmarks_are_those_the_default_gives_its_rewriters():
    """rewrites() holds for exactly the benchmarks the default gives its rewriters (the
    rewriting oracle and keep-original) and no translation benchmark."""
    import yaml

    from gendermt.config.own_system import rewrites
    from gendermt.core import registry

    default = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
    found = {}
    for name, block in default["benchmarks"].items():
        found[name] = {"oracle-rewriter", "keep-original"} <= set(block.get("systems", []))
        assert rewrites(registry.get(name)) == found[name], name
    assert any(found.values()) and not all(found.values())
