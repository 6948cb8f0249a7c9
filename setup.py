"""The wheel carries the workflow: setuptools' build_py copies the project's own files
(Snakefile, workflow/, config/, envs/, profiles/, resources/) into the package as
``gendermt/_project/``, in the checkout's layout, so that an installed gendermt runs the
workflow and finds its benchmarks without a checkout (gendermt.config.project finds them).
Each benchmark's rule files, scripts and captions go there too, under src/gendermt/benchmarks/
as in the checkout: the Snakefile includes them by that path, and their `conda:` env files
(../../../../envs/) and scripts resolve from there as they do in a checkout (Snakemake reads
an env file's content for every job's metadata, with or without conda). The checkout itself
is not changed; an editable install uses the checkout's files."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: What the workflow needs beside the package (pyproject.toml's package-data has the rest:
#: rule files, scripts, captions, prompts and schemas inside src/gendermt).
PROJECT_FILES = ("Snakefile", "workflow", "config", "envs", "profiles", "resources")
HERE = Path(__file__).resolve().parent


class BuildPyWithWorkflow(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # the checkout's own files serve an editable install
        dest = Path(self.build_lib) / "gendermt" / "_project"
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".snakemake")
        for name in PROJECT_FILES:
            source = HERE / name
            if source.is_dir():
                shutil.copytree(source, dest / name, ignore=skip)
            else:
                shutil.copy2(source, dest / name)
        # the benchmarks' rule files with what they name relative to themselves
        for rules in (HERE / "src" / "gendermt" / "benchmarks").glob("*/*.smk"):
            folder = rules.parent
            into = dest / folder.relative_to(HERE)
            into.mkdir(parents=True, exist_ok=True)
            shutil.copy2(rules, into / rules.name)
            for sub in ("scripts", "report"):
                if (folder / sub).is_dir() and not (into / sub).exists():
                    shutil.copytree(folder / sub, into / sub, ignore=skip)


setup(cmdclass={"build_py": BuildPyWithWorkflow})
