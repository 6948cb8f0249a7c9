"""Apertium, Debian's rule-based MT: a real translator that runs offline in seconds.

Modes are chained in order to pivot where a pair is missing (en→fr as ``[eng-spa, es-fr]``,
en→it as ``[eng-spa, spa-ita]``). It translates the plain source text and, having no notion
of gender beyond its dictionaries, defaults to the masculine ("El enfermero").

``modes`` is one chain, or a chain per target language (``{es: [eng-spa], fr: [eng-spa,
es-fr]}``) for a benchmark whose items carry their target language (MT-GenEval: one system
translates into every language of the study).
"""

from __future__ import annotations

import shutil
import subprocess
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.errors import GenderMTError, MissingResourceError

from .base import Backend, Request

if TYPE_CHECKING:  # annotations only: the workflow imports backends to plan
    import pandas as pd

PACKAGES = "apertium apertium-eng-spa apertium-spa-ita apertium-fr-es"


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
        # -u: no '*' marks on unknown words, which would otherwise end up in the output.
        proc = subprocess.run(["apertium", "-u", mode], input="\n".join(lines) + "\n",
                              capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise GenderMTError(f"apertium {mode} failed ({proc.returncode}): "
                                f"{proc.stderr.strip()[-500:]}")
        out = proc.stdout.rstrip("\n").split("\n")
        if len(out) != len(lines):
            raise GenderMTError(f"apertium {mode} returned {len(out)} lines for "
                                f"{len(lines)} sentences")
        return [line.strip() for line in out]

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
