"""Apertium, Debian's rule-based MT: a real translator that runs offline in seconds.

Modes are chained in order to pivot where a pair is missing (en→fr as ``[eng-spa, es-fr]``,
en→it as ``[eng-spa, spa-ita]``). It translates the plain source text and, having no notion
of gender beyond its dictionaries, defaults to the masculine ("El enfermero").

Each line is translated as if it were alone, whatever else its batch holds. ``apertium -u
MODE`` over a file reads it as one text (a line's reading changed with its neighbours: 67 of
300 MT-GenEval fr sentences moved when their order was reversed), and null-flush mode
(``apertium -z``, each segment ended by a NUL) is not enough with Apertium 3.8: its
deformatter drops the NULs, and the HMM tagger (``apertium-tagger -g -z``) keeps its state
across them (36 of the same 300 tagged otherwise in reverse order). So a mode runs as its
``.mode`` pipeline in null-flush mode (``apertium-wblank-mode -z``), each line a
NUL-ended segment deformatted as ``apertium-destxt`` deformats a file of that line alone,
the tagger run once per line (about 4 ms each), every other stage once per batch; the
output is reformatted by ``apertium-retxt``. The lines come out as ``apertium -u MODE`` gives
each line alone (checked on real sentences, tests/workflow/test_backends_apertium.py), in 2-5 s per
300 lines and mode on 2 shared cores (a whole batch in one ``apertium -u``: about 0.5 s),
where one ``apertium`` process per line takes about 0.2 s per line and mode (about 60 s).

``modes`` is one chain, or a chain per target language (``{es: [eng-spa], fr: [eng-spa,
es-fr]}``) for a benchmark whose items carry their target language (MT-GenEval: one system
translates into every language of the study).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.core.errors import GenderMTError, MissingResourceError
from gendermt.translation.backends.base import Backend, Request

if TYPE_CHECKING:  # annotations only: the workflow imports backends to plan
    import pandas as pd

#: This module's backends, as gendermt.core.backends reads them from this file's text
#: (without importing it): name → its class and what is known before a job runs.
ABOUT = {
    "apertium": {
        "class": "Apertium",
        "style": "source",
        "workload": "files",
        "cli_setting": "modes",
        "example": ("Apertium, offline (MODEL: its chain of modes)",
                    "gendermt run --model apertium:eng-spa,es-fr --benchmarks fairtranslate"),
    },
}

PACKAGES = "apertium apertium-eng-spa apertium-spa-ita apertium-fr-es"

#: the end ``apertium-destxt`` gives a text (an added sentence end, an empty blank, the
#: final newline as a superblank), which ``apertium-retxt`` takes off again
_TEXT_END = ".[][\n]"
_LINE_BREAK = "[\n]"  # a newline between lines, as a superblank
#: stages that keep state across null flushes: run once per line
_PER_LINE_STAGES = frozenset({"apertium-tagger"})


def installed_modes() -> set[str]:
    """The modes the local Apertium can run (empty when Apertium is not installed)."""
    if shutil.which("apertium") is None:
        return set()
    listed = subprocess.run(["apertium", "-l"], capture_output=True, text=True, check=False)
    return {line.strip() for line in listed.stdout.splitlines() if line.strip()}


def package_versions() -> dict[str, str]:
    """Installed versions of the Debian packages (empty where dpkg is not available)."""
    if shutil.which("dpkg-query") is None:
        return {}
    proc = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}\\n",
                           *PACKAGES.split()], capture_output=True, text=True, check=False)
    return dict(line.split(" ", 1) for line in proc.stdout.splitlines() if " " in line)


class Apertium(Backend):
    name: ClassVar[str] = "apertium"
    reads_data: ClassVar[bool] = False
    prompted: ClassVar[bool] = False
    default_batch_size: ClassVar[int] = 256
    # 2: each line translated alone (null-flush pipeline); version 1's answers depended on
    # the batch they were translated in, so none of them is reused
    request_version: ClassVar[int] = 2
    settings_keys: ClassVar[frozenset[str]] = frozenset({"modes"})
    required_keys: ClassVar[frozenset[str]] = frozenset({"modes"})

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        modes = settings["modes"]
        chains = list(modes.values()) if isinstance(modes, dict) and modes else [modes]
        if not all(isinstance(c, list) and c and all(isinstance(m, str) for m in c)
                   for c in chains):
            raise GenderMTError("backend 'apertium': modes must be a non-empty list of mode "
                                "names, e.g. [eng-spa, es-fr], or one per target language, "
                                "e.g. {es: [eng-spa], fr: [eng-spa, es-fr]}")

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame) -> None:
        super().__init__(settings, data)
        modes = settings["modes"]
        #: target language → chain of modes (None: the one chain, whatever the target)
        self.chains: dict[str | None, list[str]] = (
            {str(k): list(v) for k, v in modes.items()} if isinstance(modes, dict)
            else {None: list(modes)})
        self.modes = sorted({m for chain in self.chains.values() for m in chain})
        if shutil.which("apertium") is None:
            raise MissingResourceError(
                f"backend 'apertium' needs the apertium command, which is not installed: "
                f"`apt-get install --no-install-recommends {PACKAGES}` (Debian/Ubuntu)")
        missing = [m for m in self.modes if m not in installed_modes()]
        if missing:
            raise MissingResourceError(
                f"Apertium has no mode(s) {missing} here (installed: "
                f"{', '.join(sorted(installed_modes())) or 'none'}); install the language "
                f"pair packages, e.g. `apt-get install --no-install-recommends {PACKAGES}`")

    def identity(self) -> dict[str, Any]:
        # The dictionaries decide the output: their package versions are part of what
        # produced it (and of the request-cache key).
        return {**super().identity(), "packages": package_versions()}

    def _run(self, mode: str, lines: list[str]) -> list[str]:
        """``lines`` (no newline inside) through ``mode``, each as ``apertium -u mode`` on a
        file of that line alone gives it (see the module docstring)."""
        if not lines:
            return []
        # one deformatter call for the batch: its text between line breaks is each line's
        # (it escapes characters, a newline becomes a superblank)
        text = _call(["apertium-destxt"], "\n".join(lines) + "\n", mode)
        if not text.endswith(_TEXT_END):
            raise GenderMTError(f"apertium-destxt ended its text with {text[-20:]!r}")
        segments = [body + _TEXT_END for body in text[: -len(_TEXT_END)].split(_LINE_BREAK)]
        if len(segments) != len(lines):
            raise GenderMTError(f"apertium-destxt gave {len(segments)} lines for "
                                f"{len(lines)}")
        for group in _stage_groups(mode):
            if group[0] in _PER_LINE_STAGES:
                segments = [_flushed(group[1], [s], mode)[0] for s in segments]
            else:
                segments = _flushed(group[1], segments, mode)
        out = _call(["apertium-retxt"], "".join(segments), mode).split("\n")
        if len(out) != len(lines) + 1 or out[-1]:
            raise GenderMTError(f"apertium {mode} returned {len(out) - 1} lines for "
                                f"{len(lines)} sentences")
        return [line.strip() for line in out[:-1]]

    def chain_of(self, request: Request) -> list[str]:
        if None in self.chains:
            return self.chains[None]
        if request.tgt_lang not in self.chains:
            raise GenderMTError(
                f"backend 'apertium': item {request.item_id} is to be translated into "
                f"{request.tgt_lang!r}, for which modes names no chain (it has "
                f"{', '.join(sorted(map(str, self.chains)))})")
        return self.chains[request.tgt_lang]

    def translate(self, batch: list[Request]) -> list[str]:
        # One sentence per line; a newline inside a source would split it in two. Each
        # target language's sentences go through its chain together, in batch order.
        out: list[str] = [""] * len(batch)
        groups: dict[tuple[str, ...], list[int]] = {}
        for i, request in enumerate(batch):
            groups.setdefault(tuple(self.chain_of(request)), []).append(i)
        for chain, positions in groups.items():
            lines = [" ".join(batch[i].source.split()) for i in positions]
            for mode in chain:
                lines = self._run(mode, lines)
            for i, line in zip(positions, lines, strict=True):
                out[i] = line
        return out


def _call(command: list[str], text: str, mode: str) -> str:
    proc = subprocess.run(command, input=text, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise GenderMTError(f"apertium {mode}: {command[0]} failed ({proc.returncode}): "
                            f"{proc.stderr.strip()[-500:]}")
    return proc.stdout


def _flushed(pipeline: str, segments: list[str], mode: str) -> list[str]:
    """``segments`` through a null-flush pipeline, each ended by a NUL; its outputs, in order
    (each stage adds a NUL at the end of its input: those come back empty)."""
    # $1: the generator's option for -u (no '*' on unknown words, as `apertium -u`);
    # $2: the tagger's option (none)
    out = _call(["bash", "-c", pipeline, "apertium", "-n", ""],
                "".join(s + "\0" for s in segments), mode).split("\0")
    if len(out) <= len(segments) or any(out[len(segments):]):
        raise GenderMTError(f"apertium {mode}: {pipeline.split()[0]} returned "
                            f"{len(out) - 1} segments for {len(segments)}")
    return out[: len(segments)]


@cache
def _stage_groups(mode: str) -> tuple[tuple[str, str], ...]:
    """``mode``'s null-flush pipeline (as ``apertium -z`` builds it) cut into groups of
    stages: (first program, pipeline) with each per-line stage a group of its own."""
    datadir = Path(os.environ.get("APERTIUM_DATADIR", "/usr/share/apertium"))
    mode_file = datadir / "modes" / f"{mode}.mode"
    if not mode_file.is_file():
        raise MissingResourceError(f"Apertium has no mode file {mode_file}")
    proc = subprocess.run(["apertium-wblank-mode", "-z", str(mode_file)],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise GenderMTError(f"apertium-wblank-mode -z {mode_file} failed: "
                            f"{proc.stderr.strip()[-500:]}")
    groups: list[tuple[str, list[str]]] = []
    for stage in (s.strip() for s in proc.stdout.strip().split("|")):
        program = shlex.split(stage)[0]
        alone = program in _PER_LINE_STAGES
        if alone or not groups or groups[-1][0] in _PER_LINE_STAGES:
            groups.append((program, [stage]))
        else:
            groups[-1][1].append(stage)
    return tuple((program, " | ".join(stages)) for program, stages in groups)
