"""Intervals and paired tests of headline figures: one seeded bootstrap over a benchmark's
natural unit (WinoMT sentence, MT-GenEval counterfactual pair, GATE X-E instance, GATE row,
...), paired across systems, and the lead group of a figure.

Every headline figure here is a function of per-unit counts summed over the units (an
accuracy is Σ correct / Σ counted, WinoMT's ΔG an F1 difference of summed counts, its ΔS a
difference of two subset accuracies). A system's per-unit counts are a matrix ``(units, m)``;
a resample is a weight vector (how often each unit was drawn), and its sums are one matrix
product. The same resampled indices serve every system scored on the same units (paired), so
the difference of two systems' resampled figures is a paired bootstrap of their difference.

Memory: the indices are drawn in chunks of at most ``max_cells`` (rows × units) and every
system's statistic is computed per chunk; only each (figure, system)'s vector of
``resamples`` statistics is kept, never a resamples × units matrix per system. The chunks
come, in order, from one generator seeded by ``seed``: the indices are the ones
``default_rng(seed).integers(0, n, size=(resamples, n))`` gives at once (tests check).

Intervals are percentile intervals. Where a figure is a proportion (or a difference of two
independent proportions) over fewer than ``small_n`` units, a bootstrap says little (a
resample of 10 items has 11 possible values), so its interval is Wilson's score interval
(scipy's ``binomtest(...).proportion_ci(method="wilson")``) or Newcombe's hybrid score
interval of a difference built from two Wilson intervals (Newcombe 1998, method 10); the
``method`` column says which. Paired tests stay bootstraps (the pairing is what they test).

BLEU/chrF are not counts of this kind: :func:`sacrebleu_paired` runs sacrebleu's own paired
bootstrap or approximate randomization (``sacrebleu.significance``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gendermt.analysis.stats import BOOTSTRAP, holm
from gendermt.core.errors import GenderMTError
from gendermt.scoring.metric_signature import metric_signature

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import numpy as np

#: Per chunk, at most this many drawn indices (rows × units): 2^22 int64 indices (32 MiB)
#: plus as many float weights; a chunk has at least one row.
MAX_CELLS = 1 << 22
#: Below this many units, a proportion's interval is Wilson's (a difference's Newcombe's).
SMALL_N = 30
#: Bumped when the resampling (draws, statistics, intervals, tests) changes.
SIGNATURE_VERSION = 1
BOOTSTRAP_METHOD = "percentile bootstrap"
WILSON = "Wilson score (scipy)"
NEWCOMBE = "Newcombe hybrid score (from scipy's Wilson)"
#: sacrebleu reads a seed of 0 as "do not fix the seed": 0 goes to it as its own default
SACREBLEU_DEFAULT_SEED = 12345

#: (k, m) sums of k resamples → (k,) statistics
Statistic = Callable[["np.ndarray"], "np.ndarray"]


@dataclass(frozen=True)
class Settings:
    """The bootstrap's settings (config ``statistics.bootstrap``; defaults: stats.BOOTSTRAP)."""
    resamples: int = BOOTSTRAP["resamples"]
    seed: int = BOOTSTRAP["seed"]
    level: float = BOOTSTRAP["level"]
    small_n: int = SMALL_N

    def __post_init__(self) -> None:
        if not 0 < self.level < 1 or self.resamples < 1 or self.seed < 0 or self.small_n < 0:
            raise GenderMTError(
                f"statistics.bootstrap needs 0 < level < 1, resamples ≥ 1, seed ≥ 0 and "
                f"small_n ≥ 0; got level={self.level}, resamples={self.resamples}, "
                f"seed={self.seed}, small_n={self.small_n}")

    @classmethod
    def of(cls, bootstrap: Mapping | None = None) -> Settings:
        """The config's settings over the defaults; an unknown key is an error."""
        given = dict(bootstrap or {})
        unknown = sorted(set(given) - {"resamples", "seed", "level", "small_n"})
        if unknown:
            raise GenderMTError(f"statistics.bootstrap: unknown key(s) {', '.join(unknown)}")
        return cls(int(given.get("resamples", cls.resamples)),
                   int(given.get("seed", cls.seed)),
                   float(given.get("level", cls.level)),
                   int(given.get("small_n", cls.small_n)))

    @property
    def alpha(self) -> float:
        return 1 - self.level


def signature(unit: str, settings: Settings, method: str = BOOTSTRAP_METHOD) -> str:
    """The intervals' signature: method, unit, resamples, seed, level (and the small-n rule)."""
    return metric_signature("intervals", SIGNATURE_VERSION, {
        "method": method, "unit": unit, "resamples": settings.resamples,
        "seed": settings.seed, "level": settings.level, "paired": True,
        "small_n": settings.small_n})


# --- drawing -------------------------------------------------------------------------------

def chunk_rows(n_units: int, resamples: int, max_cells: int = MAX_CELLS) -> int:
    """Resamples per chunk: as many as keep rows × units within ``max_cells`` (at least 1)."""
    return max(1, min(resamples, max_cells // max(n_units, 1)))


def index_chunks(n_units: int, settings: Settings,
                 max_cells: int = MAX_CELLS) -> Iterator[np.ndarray]:
    """The resampled unit indices, ``(rows, n_units)`` per chunk, ``settings.resamples`` rows
    in all, from one generator seeded by ``settings.seed`` (the same indices whatever the
    chunk size)."""
    import numpy as np

    rng = np.random.default_rng(settings.seed)
    rows = chunk_rows(n_units, settings.resamples, max_cells)
    done = 0
    while done < settings.resamples:
        k = min(rows, settings.resamples - done)
        yield rng.integers(0, n_units, size=(k, n_units))
        done += k


def weights(indices: np.ndarray, n_units: int) -> np.ndarray:
    """``(k, n_units)`` counts: how often each unit is drawn in each of the k resamples."""
    import numpy as np

    k = indices.shape[0]
    flat = (indices + (np.arange(k) * n_units)[:, None]).ravel()
    return np.bincount(flat, minlength=k * n_units).reshape(k, n_units).astype(float)


def resampled(columns: Mapping[str, np.ndarray], statistics: Mapping[str, Statistic],
              settings: Settings, max_cells: int = MAX_CELLS
              ) -> dict[tuple[str, str], np.ndarray]:
    """Each (figure, system)'s ``resamples`` bootstrap statistics: ``columns`` are every
    system's per-unit counts ``(units, m)`` on the same units in the same order (so the
    resamples are paired), ``statistics`` each figure's function of the summed counts."""
    import numpy as np

    systems = list(columns)
    if not systems:
        return {}
    mats = [np.asarray(columns[s], dtype=float) for s in systems]
    n = mats[0].shape[0]
    if any(m.shape[0] != n for m in mats):
        raise GenderMTError("paired resampling needs every system on the same units: "
                            + ", ".join(f"{s}: {m.shape[0]}" for s, m in zip(systems, mats,
                                                                              strict=True)))
    widths = [m.shape[1] for m in mats]
    stacked = np.hstack(mats)
    bounds = np.cumsum([0, *widths])
    out = {(f, s): np.empty(settings.resamples) for f in statistics for s in systems}
    if n == 0:
        for vec in out.values():
            vec.fill(np.nan)
        return out
    done = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        for idx in index_chunks(n, settings, max_cells):
            sums = weights(idx, n) @ stacked
            k = len(idx)
            for i, system in enumerate(systems):
                part = sums[:, bounds[i]:bounds[i + 1]]
                for fig, stat in statistics.items():
                    out[(fig, system)][done:done + k] = stat(part)
            done += k
    return out


def point(counts: np.ndarray, statistic: Statistic) -> float:
    """The statistic on the sample itself (every unit once)."""
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        return float(statistic(np.asarray(counts, dtype=float).sum(axis=0)[None, :])[0])


def percentile_interval(values: np.ndarray, level: float) -> tuple[float, float]:
    """The percentile interval of bootstrap statistics (NaN resamples left out: a resample
    with no unit of a subset has no accuracy there)."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if not len(x):
        return math.nan, math.nan
    alpha = (1 - level) / 2
    low, high = np.quantile(x, [alpha, 1 - alpha])
    return float(low), float(high)


def bootstrap_mean_interval(values: Sequence[float] | np.ndarray, settings: Settings,
                            max_cells: int = MAX_CELLS) -> tuple[float, float]:
    """Percentile interval of a mean (NaNs dropped), drawn in chunks: the numbers of
    :func:`gendermt.analysis.stats.bootstrap_mean_ci` (same generator and draws), up to the
    last bits of the sums (a matrix product instead of a mean per row)."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if not len(x):
        return math.nan, math.nan
    boot = resampled({"x": x[:, None]}, {"mean": lambda s: s[:, 0] / len(x)}, settings,
                     max_cells)
    return percentile_interval(boot[("mean", "x")], settings.level)


# --- small counts -----------------------------------------------------------------------

def wilson(successes: int, n: int, level: float) -> tuple[float, float]:
    """Wilson's score interval of ``successes / n`` (scipy), as proportions."""
    if n <= 0:
        return math.nan, math.nan
    from scipy.stats import binomtest

    ci = binomtest(int(successes), int(n)).proportion_ci(confidence_level=level,
                                                         method="wilson")
    return float(ci.low), float(ci.high)


def newcombe(successes_a: int, n_a: int, successes_b: int, n_b: int,
             level: float) -> tuple[float, float]:
    """Newcombe's hybrid score interval of ``p_a − p_b`` (independent samples), from the two
    Wilson intervals (Newcombe 1998, method 10), as proportions."""
    if n_a <= 0 or n_b <= 0:
        return math.nan, math.nan
    pa, pb = successes_a / n_a, successes_b / n_b
    la, ua = wilson(successes_a, n_a, level)
    lb, ub = wilson(successes_b, n_b, level)
    d = pa - pb
    return (d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2),
            d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2))


# --- paired tests and the lead ---------------------------------------------------------------

def goodness(values: np.ndarray | float, better: str) -> np.ndarray | float:
    """A figure's value made "higher is better": ``higher`` x, ``lower`` −x,
    ``closer to T`` −|x − T|."""
    import numpy as np

    x = np.asarray(values, dtype=float) if not isinstance(values, float) else values
    if better == "higher":
        return x
    if better == "lower":
        return -x
    if better.startswith("closer to "):
        target = float(better.removeprefix("closer to "))
        return -abs(x - target) if isinstance(x, float) else -np.abs(x - target)
    raise GenderMTError(f"unknown direction {better!r} (higher, lower, closer to <number>)")


@dataclass(frozen=True)
class PairedResult:
    difference: float  # goodness(a) − goodness(b) on the sample
    ci_low: float
    ci_high: float
    p: float           # two-sided


def paired_test(value_a: float, value_b: float, boot_a: np.ndarray, boot_b: np.ndarray,
                better: str, level: float) -> PairedResult:
    """Paired bootstrap test of ``goodness(a) − goodness(b)`` (the two systems' statistics on
    the same resampled units): the difference, its percentile interval and a two-sided p, the
    share of resampled differences, centred on the observed one, at least as far from 0 as
    the observed (with the +1 that keeps p > 0: (1 + count) / (1 + resamples)). Identical
    systems: difference 0, p 1."""
    import numpy as np

    d = float(goodness(float(value_a), better) - goodness(float(value_b), better))
    diffs = np.asarray(goodness(boot_a, better) - goodness(boot_b, better), dtype=float)
    diffs = diffs[~np.isnan(diffs)]
    if math.isnan(d) or not len(diffs):
        return PairedResult(d, math.nan, math.nan, math.nan)
    low, high = percentile_interval(diffs, level)
    if d == 0:
        return PairedResult(0.0, low, high, 1.0)
    count = int(np.sum(np.abs(diffs - diffs.mean()) >= abs(d)))
    return PairedResult(d, low, high, (count + 1) / (len(diffs) + 1))


def lead_group(values: Mapping[str, float], better: str,
               p_value: Callable[[str, str], float], alpha: float = 0.05) -> list[str]:
    """The figure's lead group among ``values`` (the contenders: no oracles, no cells below
    their quality floor): the leader (best by ``better``), every contender with exactly the
    leader's value, and every other whose paired test against the leader
    (``p_value(leader, other)``), Holm-corrected over the contenders other than the tied
    leaders, does not separate it at ``alpha``. A NaN p (no paired test possible, e.g. other
    items) does not separate. Empty: no contender has a value."""
    finite = {s: float(v) for s, v in values.items() if v is not None and not math.isnan(v)}
    if not finite:
        return []
    good = {s: goodness(v, better) for s, v in finite.items()}
    best = max(good.values())
    leaders = [s for s in finite if good[s] == best]
    others = [s for s in finite if s not in leaders]
    if not others:
        return leaders
    adjusted = holm([p_value(leaders[0], s) for s in others])
    return leaders + [s for s, p in zip(others, adjusted, strict=True)
                      if math.isnan(p) or not p < alpha]


# --- sacrebleu -----------------------------------------------------------------------------

@contextmanager
def _sacrebleu_seed(seed: int):
    old = os.environ.get("SACREBLEU_SEED")
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("SACREBLEU_SEED", None)
        else:
            os.environ["SACREBLEU_SEED"] = old


def sacrebleu_paired(systems: Mapping[str, Sequence[str]], references: Sequence[str],
                     metric: str = "bleu", test: str = "bs", resamples: int = 0,
                     seed: int = 0, options: Mapping | None = None) -> dict[str, dict]:
    """sacrebleu's paired test (``bs``: paired bootstrap, ``ar``: approximate randomization;
    what ``sacrebleu --paired-bs`` / ``--paired-ar`` run) of every system against the first
    (the baseline): per system ``score``, ``p`` (None for the baseline), ``mean`` and ``ci``
    (sacrebleu's half-width of its 95 % interval; bs only) and ``signature``. ``resamples``
    0: sacrebleu's default (1,000 bs, 10,000 ar); ``seed`` 0 goes to sacrebleu as its
    default 12345 (it reads 0 as "unseeded")."""
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    if test not in ("bs", "ar"):
        raise GenderMTError(f"unknown sacrebleu test {test!r} (bs or ar)")
    classes = {"bleu": BLEU, "chrf": CHRF}
    if metric not in classes:
        raise GenderMTError(f"sacrebleu_paired: metric {metric!r} is not bleu or chrf")
    named = [(str(s), list(h)) for s, h in systems.items()]
    if len(named) < 2:
        raise GenderMTError("a paired test needs a baseline and at least one other system")
    refs = [list(references)]
    scorer = classes[metric](**dict(options or {}), references=refs)
    with _sacrebleu_seed(seed or SACREBLEU_DEFAULT_SEED):
        sigs, scores = PairedTest(named, {metric.upper(): scorer}, None, test_type=test,
                                  n_samples=resamples)()
    (name, results), = ((k, v) for k, v in scores.items() if k != "System")
    signature_text = sigs[name].format()
    return {system: {"score": r.score, "p": r.p_value, "mean": r.mean, "ci": r.ci,
                     "signature": signature_text}
            for system, r in zip(scores["System"], results, strict=True)}
