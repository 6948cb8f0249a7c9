"""A configured system's settings as the config gives them: on a benchmark (its ``decoding:``
overrides), and the names of the environment variables that hold its keys."""

from __future__ import annotations

import re
from typing import Any

#: What ``api_key_env`` may hold: an environment variable's name. Anything else (a key pasted
#: in its place, most often) is refused with KEY_NOT_SHOWN, never echoed: the message reaches
#: the terminal and Snakemake's log.
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
KEY_NOT_SHOWN = ("api_key_env must name an environment variable; the value given looks like "
                 "a key and is not shown")


def plausible_env_name(value: Any) -> bool:
    """Whether ``value`` can be the name of an environment variable (``ENV_NAME``)."""
    return isinstance(value, str) and ENV_NAME.fullmatch(value) is not None


def settings_on(config: dict[str, Any], benchmark: str, system: str) -> dict[str, Any]:
    """A system's settings on a benchmark: its `systems:` entry with the benchmark's
    `decoding:` overrides for it (e.g. more new tokens for a step-by-step prompt)."""
    overrides = (config.get("benchmarks", {}).get(benchmark, {}).get("decoding", {})
                 .get(system, {}))
    return {**config["systems"][system], **overrides}
