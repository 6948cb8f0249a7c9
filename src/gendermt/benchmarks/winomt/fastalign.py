"""A deterministic word aligner: fast_align (Dyer, Chahuneau & Smith, NAACL 2013) as the C++
tool ``fast_align -d -o -v`` (clab/fast_align) computes it, the aligner of WinoMT's original
evaluation (mt_gender's ``scripts/evaluate_language.sh``).

The model is IBM Model 2 reparametrised with one "diagonal tension" λ: target word ``j`` (of
``m``, 1-based) links to source word ``i`` (of ``n``) with prior ``(1 - p0) * exp(-λ |i/n -
j/m|) / Z(j, m, n)``, or to NULL with ``p0``; lexical probabilities t(f|e) are learnt by EM
with a variational-Bayes Dirichlet prior (``alpha``). Each target word gets its single most
probable source word (NULL: no link). What the C++ tool does, and so what this does:

* ``iterations`` passes (5); the first E-step has every t equal (the tool's 1e-9), so it is
  positional only; the last pass only reads the links off (no M-step).
* After the E-steps of passes 2 .. ``iterations`` - 1, λ takes 8 gradient steps
  ``λ += 20 (empirical - model)`` clamped to [0.1, 14], on the *same* empirical feature.
  Two quirks of the tool are kept because its links depend on them: the empirical feature
  ``-|i/n - j/m|`` uses the **0-based** target position ``j - 1``, and the model's expected
  feature (``ComputeDLogZ``) is normalised by ``Z`` computed with the two lengths swapped.
  Both sums are closed-form geometric series, evaluated as the tool evaluates them, per
  distinct (target length, source length) pair.
* VB M-step: ``t = exp(ψ(c + α) - ψ(Σ (c + α)))`` over the (source word, target word) pairs
  that co-occur in a sentence pair (NULL: every target word), with the tool's own digamma
  (shift to x ≥ 7, then the asymptotic series), not scipy's.
* Viterbi: NULL first, then source words in order, a later one only when strictly more
  probable (C++ ``>``): ties go to NULL, then to the lowest position.

``mean_srclen_multiplier`` only enters the tool's ``-s`` scores, never its links, so it has no
setting here. On the eight published WinoMT outputs with the tool's links in
``shared/reference/fast_align`` this gives every link the tool gives (100.00 % per file,
tests/test_winomt_fastalign.py). Vectorised over all cells of all sentence pairs (the
Viterbi pick a segmented maximum, the prior's feature computed once); EM has no
random step, so the same pairs always give the same links (eflomal, a sampler, seeds itself
from /dev/urandom and does not).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

DEFAULTS: dict[str, Any] = {"iterations": 5, "p0": 0.08, "alpha": 0.01, "tension": 4.0,
                            "optimize_tension": True}
TENSION_STEPS = 8  # gradient steps on λ per pass, as the tool
TENSION_RATE = 20.0
TENSION_MIN, TENSION_MAX = 0.1, 14.0
UNINITIALISED_T = 1e-9  # the tool's t before the first M-step: the same for every pair

Links = list[set[tuple[int, int]]]


def _digamma(x: np.ndarray) -> np.ndarray:
    """ψ(x) as fast_align's ``Md::digamma`` computes it (x > 0)."""
    x = np.array(x, dtype=np.float64)
    result = np.zeros_like(x)
    small = x < 7
    while small.any():
        result[small] -= 1 / x[small]
        x[small] += 1
        small = x < 7
    x = x - 0.5
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    return (result + np.log(x) + (1.0 / 24.0) * xx2 - (7.0 / 960.0) * xx4
            + (31.0 / 8064.0) * xx4 * xx2 - (127.0 / 30720.0) * xx4 * xx4)


def _feature(j, i, m, n):
    """The tool's ``Feature(j, i, m, n) = -|i/n - j/m|`` (target j of m, source i of n)."""
    return -np.abs(i / n - j / m)


def _pow(ratio: np.ndarray, k: np.ndarray) -> np.ndarray:
    # an unsigned count that wrapped below zero in the tool is ~4e9: ratio < 1 to it is 0
    return np.where(k < 0, 0.0, ratio ** np.maximum(k, 0))


def _z(j, m, n, lam: float) -> np.ndarray:
    """``ComputeZ(j, m, n, λ)``: Σ_i exp(λ Feature(j, i, m, n)), summed as two geometric
    series split at the diagonal. ``n - floor`` is unsigned in the tool; it wraps when the
    lengths are passed swapped (see ``_dlogz``)."""
    j, m, n = (np.asarray(a, dtype=np.float64) for a in (j, m, n))
    floor = np.floor(j * n / m)
    ceil = floor + 1
    ratio = np.exp(-lam / n)
    num_top = n - floor
    top = np.where(num_top != 0,
                   np.exp(_feature(j, ceil, m, n) * lam) * (1.0 - _pow(ratio, num_top))
                   / (1.0 - ratio), 0.0)
    bottom = np.where(floor > 0,
                      np.exp(_feature(j, floor, m, n) * lam) * (1.0 - ratio ** floor)
                      / (1.0 - ratio), 0.0)
    return bottom + top


def _series(a_1, g_1, r, d, k):
    """Σ_{t<k} (a_1 + t d) g_1 r^t, closed form (the tool's arithmetico_geometric_series)."""
    g_np1 = g_1 * r ** k
    a_n = d * (k - 1) + a_1
    x_1 = a_1 * g_1
    g_2 = g_1 * r
    rm1 = r - 1
    return (a_n * g_np1 - x_1) / rm1 - d * (g_np1 - g_2) / (rm1 * rm1)


def _dlogz(j, m, n, lam: float) -> np.ndarray:
    """``ComputeDLogZ(j, m, n, λ)``: the prior's expected feature at target position j,
    divided, as in the tool, by ``ComputeZ(j, n, m)`` (lengths swapped)."""
    z = _z(j, n, m, lam)
    j, m, n = (np.asarray(a, dtype=np.float64) for a in (j, m, n))
    floor = np.floor(j * n / m)
    ceil = floor + 1
    ratio = np.exp(-lam / n)
    d = -1.0 / n
    num_top = n - floor
    with np.errstate(invalid="ignore", divide="ignore"):
        top = np.where(num_top > 0, _series(_feature(j, ceil, m, n),
                                            np.exp(_feature(j, ceil, m, n) * lam), ratio, d,
                                            num_top), 0.0)
        bottom = np.where(floor > 0, _series(_feature(j, floor, m, n),
                                             np.exp(_feature(j, floor, m, n) * lam), ratio, d,
                                             floor), 0.0)
    return (top + bottom) / z


class _Cells:
    """One row per (target token, source position incl. NULL=0) of every pair, in token
    order and, within a token, NULL then the source positions in order (the tool's scan).

    Only what the EM passes read is kept per cell (token, position, word pair as 32-bit
    indices where they fit, the NULL flag, the two features): about 29 bytes a cell, a
    WinoMT file has about a million. Gathers are done once and combined in place: building
    the cells and each pass peak at about twice what is kept (it was four times)."""

    def __init__(self, source: Sequence[Sequence[str]], target: Sequence[Sequence[str]]):
        src_vocab: dict[str, int] = {"<null>": 0}
        tgt_vocab: dict[str, int] = {}
        n_src = np.fromiter((len(s) for s in source), dtype=np.int64, count=len(source))
        n_tgt = np.fromiter((len(t) for t in target), dtype=np.int64, count=len(target))
        self.n_tok = int(n_tgt.sum())
        tok_sent = np.repeat(np.arange(len(source)), n_tgt)
        # 1-based position of each target token in its sentence
        tok_j = np.arange(self.n_tok) - np.repeat(np.cumsum(n_tgt) - n_tgt, n_tgt) + 1
        tok_e = np.fromiter((tgt_vocab.setdefault(w, len(tgt_vocab)) for t in target for w in t),
                            dtype=np.int64, count=self.n_tok)
        # every sentence's source ids, NULL (0) first, end to end
        src_flat = np.fromiter((x for s in source for x in
                                (0, *(src_vocab.setdefault(w, len(src_vocab)) for w in s))),
                               dtype=np.int64, count=int(n_src.sum()) + len(source))
        src_start = np.cumsum(n_src + 1) - (n_src + 1)
        width = n_src[tok_sent] + 1  # cells per target token
        self.starts = np.cumsum(width) - width  # each token's first cell (its NULL)
        n_cells = int(width.sum())
        index = np.int32 if n_cells < 2**31 else np.int64
        self.tok = np.repeat(np.arange(self.n_tok, dtype=index), width)
        self.i = np.arange(n_cells, dtype=index)
        self.i -= self.starts.astype(index)[self.tok]  # 0 = NULL
        self.tok_sent, self.tok_j = tok_sent, tok_j
        self.tok_m, self.tok_n = n_tgt[tok_sent], n_src[tok_sent]
        self.n_e = len(tgt_vocab)
        self.real = self.i > 0
        # the (source word, target word) pairs that co-occur: the entries of the tool's table
        key = src_flat[src_start[tok_sent][self.tok] + self.i]  # each cell's source word
        key *= self.n_e
        key += tok_e[self.tok]
        pairs, pair = np.unique(key, return_inverse=True)
        del key
        self.pair = pair.astype(index if len(pairs) < 2**31 else np.int64)
        del pair
        self.pair_f = pairs // self.n_e
        self.n_pairs = len(pairs)
        # (target length, source length) of every pair with words on both sides, and counts
        keep = (n_src > 0) & (n_tgt > 0)
        sizes, counts = np.unique(np.stack([n_tgt[keep], n_src[keep]], axis=1), axis=0,
                                  return_counts=True)
        self.size_j = np.concatenate([np.arange(1, mm + 1) for mm, _ in sizes]) \
            if len(sizes) else np.zeros(0, dtype=np.int64)
        self.size_m = np.repeat(sizes[:, 0], sizes[:, 0]) if len(sizes) else self.size_j
        self.size_n = np.repeat(sizes[:, 1], sizes[:, 0]) if len(sizes) else self.size_j
        self.size_count = np.repeat(counts, sizes[:, 0]) if len(sizes) else self.size_j
        with np.errstate(divide="ignore", invalid="ignore"):
            # _feature(j, i, m, n) = -|i/n - j/m| with the same operations, element by
            # element: j/m is the token's, i/n the cell's (NULL cells: unused)
            i_n = self.i / self.tok_n[self.tok]
            self.feature = _neg_abs_diff(i_n, (tok_j / self.tok_m)[self.tok])
            # the empirical feature at the tool's 0-based target position
            self.emp_feature = _neg_abs_diff(i_n, ((tok_j - 1) / self.tok_m)[self.tok], i_n)
        self.emp_feature[~self.real] = 0.0


def _neg_abs_diff(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``-np.abs(a - b)`` (:func:`_feature`'s operations), computed in ``b`` or ``out``."""
    out = np.subtract(a, b, out=b if out is None else out)
    np.abs(out, out=out)
    return np.negative(out, out=out)


def _scores(cells: _Cells, t_table: np.ndarray | None, lam: float, p0: float) -> np.ndarray:
    """probs[i] = t(f|e) * prior, as the tool computes them (unnormalised); in one new array,
    the operations of ``t * np.where(real, exp(feature * lam) / az, p0)``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        az = _z(cells.tok_j, cells.tok_m, cells.tok_n, lam) / (1.0 - p0)
        score = np.multiply(cells.feature, lam)
        np.exp(score, out=score)
        np.divide(score, az[cells.tok], out=score)
        score[~cells.real] = p0
    if t_table is None:
        score *= UNINITIALISED_T
    else:
        score *= t_table[cells.pair]
    return score


def align_forward(source: Sequence[Sequence[str]], target: Sequence[Sequence[str]],
                  settings: dict[str, Any] | None = None) -> Links:
    """Links (source index, target index), 0-based, of each pair: every target word to at
    most one source word."""
    if len(source) != len(target):
        raise ValueError("source and target have different numbers of sentences")
    opts = {**DEFAULTS, **(settings or {})}
    unknown = set(opts) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown fast-align settings {sorted(unknown)}; "
                         f"known: {sorted(DEFAULTS)}")
    links: Links = [set() for _ in source]
    cells = _Cells(source, target)
    if cells.n_tok == 0:
        return links
    p0, alpha, lam = float(opts["p0"]), float(opts["alpha"]), float(opts["tension"])
    iterations = int(opts["iterations"])
    t_table = None
    for iteration in range(iterations):
        score = _scores(cells, t_table, lam, p0)
        if iteration == iterations - 1:
            break
        total = np.bincount(cells.tok, score, minlength=cells.n_tok)
        post = np.divide(score, total[cells.tok], out=score)  # score is not read again
        if opts["optimize_tension"] and iteration > 0:
            empirical = float(np.dot(post, cells.emp_feature)) / cells.n_tok
            for _ in range(TENSION_STEPS):
                model = float(np.dot(cells.size_count,
                                     _dlogz(cells.size_j, cells.size_m, cells.size_n, lam))
                              ) / cells.n_tok
                lam = min(TENSION_MAX, max(TENSION_MIN, lam + (empirical - model) * TENSION_RATE))
        counts = np.bincount(cells.pair, post, minlength=cells.n_pairs)
        totals = np.bincount(cells.pair_f, counts + alpha)
        t_table = np.exp(_digamma(counts + alpha) - _digamma(totals)[cells.pair_f])
    else:  # iterations == 0: the tool prints nothing it learnt; links off the uniform start
        score = _scores(cells, t_table, lam, p0)
    best = _viterbi(cells, score)
    linked = best[cells.i[best] > 0]
    for sent, i, j in zip(cells.tok_sent[cells.tok[linked]].tolist(),
                          (cells.i[linked] - 1).tolist(),
                          (cells.tok_j[cells.tok[linked]] - 1).tolist(), strict=True):
        links[sent].add((i, j))
    return links


def _viterbi(cells: _Cells, score: np.ndarray) -> np.ndarray:
    """The cell of each target token with the highest score; among equal scores the first
    (NULL, then the lowest source position), as the tool's strict ``>`` scan. A token's cells
    are contiguous: a segmented maximum (NaN never wins), then its first cell reaching it."""
    tok = np.asarray(cells.tok)
    starts = getattr(cells, "starts", None)
    if starts is None:
        starts = np.flatnonzero(np.r_[True, tok[1:] != tok[:-1]])
    if len(score) == 0:
        return np.zeros(0, dtype=np.int64)
    top = np.fmax.reduceat(score, starts)
    cell = np.arange(len(score))
    first = np.minimum.reduceat(np.where(score == top[tok], cell, len(score)), starts)
    return np.where(first == len(score), starts, first)  # all NaN: the first (NULL)


def align(source: Sequence[Sequence[str]], target: Sequence[Sequence[str]],
          settings: dict[str, Any] | None = None) -> tuple[Links, Links]:
    """Forward and reverse links, both as (source index, target index): the reverse
    direction aligns every source word to at most one target word."""
    forward = align_forward(source, target, settings)
    backward = align_forward(target, source, settings)
    return forward, [{(s, t) for t, s in pair} for pair in backward]
