"""Every code block of the README runs, as far as it can offline (issue 53): each block is
classified below by its section and place, and a block nobody classified fails the test.

- ``dry``: run as written in a copy of the project, except that what would run the workflow
  only plans it: ``make run [CONFIG=...]`` becomes ``snakemake -n`` with the same config files,
  ``make test`` becomes ``make -n test``, a ``snakemake`` line gets ``-n``; every config file a
  block writes is parsed first, and the dry run checks it against the schema and the
  start-up checks (files, systems, prompts), as the real run would.
- ``help``: a command that reads a finished run's results: ``--help`` runs instead (the
  default run's workflow tests run it on real results: tests/workflow/test_readme.py).
- ``commands``: the generated command list: ``gendermt <command> --help`` of every line.
- ``skip``: needs what a test machine has not (network, GPUs, a SLURM cluster); skipped with
  the reason, after the files it names are checked to exist.

A block marked ``<!-- needs: ... -->`` (tests/doc_blocks.py) is skipped, naming the feature,
until this checkout has it; then it runs like any other.
"""

from __future__ import annotations

import re
import shlex

import pytest
import yaml

from ..conftest import ROOT
from ..doc_blocks import Block, blocks, heredocs, unmet
from ..workflow_support import (
    QUICK_TIMEOUT,
    copy_project,
    explain,
    job_stats,
    make_ready,
    output_of,
    run_shell,
)

#: (section, index) → how the block is checked (module docstring) and, for ``skip``, why
HOW: dict[tuple[str, int], tuple[str, str]] = {
    ("Quick start", 0): ("dry", ""),
    ("Bring your own model", 0): ("dry", ""),
    ("Bring your own model", 1): ("dry", ""),
    ("Study configs", 0): ("skip", "needs the network (FairTranslate_fr from the Hugging Face "
                                   "Hub) and a GPU (gpu=1)"),
    ("Reading the results", 0): ("help", ""),
    ("On a cluster, or on one GPU machine", 0): (
        "skip", "needs a SLURM cluster and snakemake-executor-plugin-slurm (the SLURM tests "
                "run the profile where a test cluster starts)"),
    ("The command line", 0): ("commands", ""),
}
BLOCKS = blocks()


def test_every_block_is_classified():
    found = {(b.section, b.index) for b in BLOCKS}
    assert not found - set(HOW), (
        f"README blocks nobody classified (tests/workflow/test_readme_blocks.py HOW): "
        f"{sorted(found - set(HOW))}")
    assert not set(HOW) - found, f"HOW names blocks the README has not: {set(HOW) - found}"


def dry(script: str) -> str:
    """A shell block with every command that would run the workflow made a plan only."""
    out = []
    for line in script.splitlines():
        run = re.match(r'^make run(?: CONFIG="([^"]*)")?\s*(#.*)?$', line)
        if run:
            line = ".venv/bin/snakemake -n --cores 2" + (
                f" --configfile {run[1]}" if run[1] else "")
        elif re.match(r"^make test\b", line):
            line = "make -n test"
        elif re.match(r"^(\S*/)?snakemake\s", line):
            line = re.sub(r"snakemake\s", "snakemake -n ", line, count=1)
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    workdir = copy_project(tmp_path_factory.mktemp("readme-blocks") / "project")
    return workdir, make_ready(workdir)


def _skip_unmet(block: Block) -> None:
    missing = unmet(block)
    if missing:
        pytest.skip(f"README.md:{block.line} shows {', '.join(missing)}, which this checkout "
                    "has not yet (it runs once it has)")


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.id)
def test_readme_block_runs_as_far_as_it_can_offline(block: Block, project):
    how, why = HOW[(block.section, block.index)]
    # a config file a block writes is YAML, whatever the block needs
    written = heredocs(block.body)
    for name, text in written.items():
        assert isinstance(yaml.safe_load(text), dict), f"{name} is not a YAML mapping"
    if how == "skip":
        for word in shlex.split(block.body.replace("\\\n", " "), comments=True):
            if word.startswith(("config/", "profiles/")) and "X" not in word:
                assert (ROOT / word).exists(), f"README.md:{block.line}: no {word}"
        pytest.skip(f"README.md:{block.line}: {why}")
    _skip_unmet(block)
    workdir, env = project
    if how == "commands":
        _help_of_every_command(block)
        return
    script = block.body
    if how == "help":
        script = "\n".join(re.sub(r"(gendermt \w+).*$", r"\1 --help", line)
                           for line in script.splitlines())
    else:
        script = dry(script)
    proc = run_shell(workdir, script, env, timeout=QUICK_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    out = output_of(proc)
    if block.section == "Quick start":
        # the plan is the default's, with the job count the README states
        count = re.search(r"generated:job-count -->(\d+)<", (ROOT / "README.md").read_text())
        assert job_stats(out)["total"] == int(count[1]), "the README's job count is stale"
    for text in written.values():
        for system in (yaml.safe_load(text).get("systems") or {}):
            assert system in out, f"the plan has no job of {system}"
    assert not (workdir / "results" / "default" / "report.html").exists()


def _help_of_every_command(block: Block) -> None:
    from gendermt.cli import main

    lines = [line.split("#")[0].split() for line in block.body.splitlines()
             if line.startswith("gendermt ")]
    assert lines
    for words in lines:
        command = [w for w in words[1:3] if re.fullmatch(r"[a-z][\w-]*", w)]
        with pytest.raises(SystemExit) as exit_:
            main([*command, "--help"])
        assert exit_.value.code == 0, f"gendermt {' '.join(command)} --help"
