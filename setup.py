"""The wheel carries the workflow: setuptools' build_py copies the project's own files
(Snakefile, workflow/, config/, envs/, profiles/, resources/) into the package as
``gendermt/_project/``, in the checkout's layout, so that an installed gendermt runs the
workflow and finds its benchmarks without a checkout (gendermt.config.project finds them).
Each benchmark's rule files, scripts and captions stay in its package (pyproject.toml's
package-data): the Snakefile includes a rule file from its package wherever that is installed
(gendermt.core.registry.rules_file), and a rule file names its `conda:` env by
`env_file(name)`, the workflow's envs/. The checkout itself is not changed; an editable install
uses the checkout's files."""

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


setup(cmdclass={"build_py": BuildPyWithWorkflow})
