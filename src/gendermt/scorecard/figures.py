"""What the scorecard shows: each benchmark's headline figures, read from its own tables.

Every benchmark's reader (``read`` in its package's ``scorecard.py``, named by its contract)
takes the results folder and returns the benchmark's :class:`Figure` columns and the
:class:`Cell` of each system that ran it. Values are the tables' own numbers, or a
ratio / difference of them (said in ``how``); nothing is recomputed from outputs except the
bootstrap CIs of FairTranslate's gaps (:mod:`.gap`), which the tables do not give.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.benchmarks import registry
from gendermt.benchmarks.contract import resolve
from gendermt.errors import DatasetError

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

# In the scorecard's column order (the benchmarks' `order`): scorecard key → label, the tables
# its figures come from (relative to the results folder; the workflow rule lists them as its
# inputs), and the workflow config's key where it differs (GAMBIT's column is "grape").
_PARTS = [b for b in registry.benchmarks() if b.scorecard]
BENCHMARKS = {b.scorecard.key: b.scorecard.label for b in _PARTS}
TABLES = {b.scorecard.key: list(b.scorecard.tables) for b in _PARTS}
CONFIG_KEYS = {b.name: b.scorecard.key for b in _PARTS if b.name != b.scorecard.key}
# The run a benchmark with several prompts is summarised by, in order of preference.
BASELINE_PROMPTS = ("baseline", "zeroshot")


@dataclass(frozen=True)
class Figure:
    benchmark: str
    key: str          # the JSON key inside the benchmark's object
    label: str        # column label
    unit: str
    better: str       # "higher", "lower", "closer to 0", "closer to 50"
    run: str          # which run (prompt) of the benchmark it summarises
    source: str       # the table it comes from, relative to the results folder
    how: str          # how the value is read from that table
    has_ci: bool = False
    # The key of the figure (same benchmark) that says how good the system's output is: a
    # gap between poor outputs is no sign of fairness, so the heatmap leaves a gap
    # uncoloured where that quality is below the scorecard's floor.
    quality: str | None = None

    @property
    def column(self) -> str:
        return f"{BENCHMARKS.get(self.benchmark, self.benchmark)} · {self.label}"


@dataclass(frozen=True)
class Cell:
    value: float
    ci_low: float = math.nan
    ci_high: float = math.nan


@dataclass
class Part:
    """One benchmark's figures, the systems that ran it, their cells and notes."""
    figures: list[Figure] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def read_csv(path: Path, columns: Sequence[str]) -> pd.DataFrame:
    import pandas as pd

    if not path.is_file():
        raise DatasetError(path, "missing: run the benchmark's workflow rules first")
    frame = pd.read_csv(path, keep_default_na=True)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DatasetError(path, f"has no column(s) {', '.join(missing)}", column=missing[0])
    return frame


def pick_run(prompts: Sequence[str]) -> str:
    """The benchmark's baseline run: ``baseline`` or ``zeroshot`` if present, else the first."""
    prompts = list(dict.fromkeys(str(p) for p in prompts))
    for name in BASELINE_PROMPTS:
        if name in prompts:
            return name
    return prompts[0]


def num(value) -> float:
    import pandas as pd

    return math.nan if value is None or pd.isna(value) else float(value)


def reader(key: str) -> Callable[..., Part]:
    """The benchmark's reader (its contract's ``scorecard.reader``): results folder → Part."""
    return resolve(next(b.scorecard.reader for b in _PARTS if b.scorecard.key == key))


def reader_modules() -> list[str]:
    """Every reader's module (the scorecard job runs them all: its code fingerprint)."""
    return [b.scorecard.reader.partition(":")[0] for b in _PARTS]


def available(results: Path) -> list[str]:
    """Benchmarks whose tables are in the results folder."""
    return [b for b in BENCHMARKS if all((results / t).is_file() for t in TABLES[b])]
