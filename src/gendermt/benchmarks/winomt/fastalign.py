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
tests/benchmarks/winomt/test_winomt_fastalign.py). Vectorised over all cells of all sentence pairs:
each side
encoded once for both directions, the prior computed once per cell geometry (m, n, j, i),
the Viterbi pick a segmented maximum. EM has no random step, and the two sums that move λ
run left to right as the tool's loop (not BLAS's, whose order changes with its thread
count), so the same pairs always give the same links (eflomal, a sampler, seeds itself from
/dev/urandom and does not).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
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
    while small.any():  # at most 7 rounds over the whole array: cheaper than gathers
        np.subtract(result, 1 / x, out=result, where=small)
        np.add(x, 1, out=x, where=small)
        small = x < 7
    x -= 0.5
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


class _Words:
    """One side's sentences as integer word ids, 1-based in order of first appearance (0 is
    NULL): both directions read the same encoding, so each side is encoded once."""

    def __init__(self, sentences: Sequence[Sequence[str]]):
        words = list(chain.from_iterable(sentences))
        vocab = {w: k for k, w in enumerate(dict.fromkeys(words), start=1)}
        self.ids = np.fromiter(map(vocab.__getitem__, words), dtype=np.int64, count=len(words))
        self.lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        self.n_vocab = len(vocab) + 1  # with NULL


# Word-pair keys (source vocabulary x target vocabulary) up to this many are numbered through
# a lookup table (a flag and a 32-bit rank a key: 80 MB at the limit, under 40 MB for every
# published WinoMT file), more by a sort of the million keys (several times slower).
DENSE_PAIR_TABLE = 2**24


class _Cells:
    """One row per (target token, source position incl. NULL=0) of every pair, in token
    order and, within a token, NULL then the source positions in order (the tool's scan).

    Only what the EM passes read is kept per cell (token, position, word pair and geometry,
    32-bit indices where they fit): 16 bytes a cell, a WinoMT file has about a million.
    Per-token values reach the cells by ``np.repeat``, per-pair and per-geometry ones by
    ``np.take``; a pass allocates about three cell-sized float arrays."""

    def __init__(self, source: _Words, target: _Words):
        n_src, n_tgt = source.lengths, target.lengths
        self.n_tok = int(n_tgt.sum())
        tok_sent = np.repeat(np.arange(len(n_src)), n_tgt)
        # 1-based position of each target token in its sentence
        tok_j = np.arange(self.n_tok) - np.repeat(np.cumsum(n_tgt) - n_tgt, n_tgt) + 1
        # every sentence's source ids, NULL (0) first, end to end
        src_start = np.cumsum(n_src + 1) - (n_src + 1)
        src_flat = np.zeros(len(source.ids) + len(n_src), dtype=np.int64)
        is_word = np.ones(len(src_flat), dtype=bool)
        is_word[src_start] = False
        src_flat[is_word] = source.ids
        # a token's cells are contiguous: per-token values reach its cells by np.repeat
        # over ``width``, several times faster than a gather by ``tok``
        self.width = width = n_src[tok_sent] + 1  # cells per target token
        self.starts = np.cumsum(width) - width  # each token's first cell (its NULL)
        n_cells = int(width.sum())
        index = np.int32 if n_cells < 2**31 else np.int64
        self.tok = np.repeat(np.arange(self.n_tok, dtype=index), width)
        self.i = np.arange(n_cells, dtype=index)
        self.i -= np.repeat(self.starts.astype(index), width)  # 0 = NULL
        self.tok_sent, self.tok_j = tok_sent, tok_j
        self.tok_m, self.tok_n = n_tgt[tok_sent], n_src[tok_sent]
        self.n_e = target.n_vocab
        # the (source word, target word) pairs that co-occur: the entries of the tool's table,
        # numbered in (source word, target word) order
        key = np.repeat(src_start[tok_sent], width)
        key += self.i
        key = np.take(src_flat, key)  # each cell's source word
        key *= self.n_e
        key += np.repeat(target.ids, width)  # each cell's target word
        n_keys = source.n_vocab * self.n_e
        if n_keys <= DENSE_PAIR_TABLE:
            present = np.zeros(n_keys, dtype=bool)
            present[key] = True
            pairs = np.flatnonzero(present)
            del present
            rank = np.zeros(n_keys, dtype=np.int32)
            rank[pairs] = np.arange(len(pairs), dtype=np.int32)
            self.pair = np.take(rank, key)
            del rank
        else:
            pairs, pair = np.unique(key, return_inverse=True)
            self.pair = pair.astype(index if len(pairs) < 2**31 else np.int64)
            del pair
        del key
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
        self._geometry(n_src, n_tgt, tok_sent, tok_j)

    def _geometry(self, n_src: np.ndarray, n_tgt: np.ndarray, tok_sent: np.ndarray,
                  tok_j: np.ndarray) -> None:
        """A cell's prior and features depend on its geometry (m, n, j, i) alone: a WinoMT
        file has about 57,000 distinct ones for a million cells. They are computed once
        per geometry and read per cell through ``geom`` (one 32-bit index a cell)."""
        has_tok = n_tgt > 0
        sizes, size_of = np.unique(np.stack([n_tgt, n_src], axis=1)[has_tok], axis=0,
                                   return_inverse=True)
        block = sizes[:, 0] * (sizes[:, 1] + 1)  # cells of one sentence pair of that size
        offset = np.cumsum(block) - block
        sent_size = np.zeros(len(n_tgt), dtype=np.int64)
        sent_size[has_tok] = size_of.ravel()
        # each token's first geometry (its NULL), then i = 0 .. n along its cells
        tok_base = offset[sent_size[tok_sent]] + (tok_j - 1) * (self.tok_n + 1)
        self.geom = np.repeat(tok_base.astype(self.i.dtype), self.width)
        self.geom += self.i
        g_size = np.repeat(np.arange(len(sizes)), block)
        within = np.arange(int(block.sum())) - offset[g_size]
        self.g_m, self.g_n = sizes[g_size, 0], sizes[g_size, 1]
        self.g_j, self.g_i = within // (self.g_n + 1) + 1, within % (self.g_n + 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            # _feature(j, i, m, n) = -|i/n - j/m| with the same operations, element by
            # element (NULL cells: unused)
            i_n = self.g_i / self.g_n
            self.g_feature = _neg_abs_diff(i_n, self.g_j / self.g_m)
            # the empirical feature at the tool's 0-based target position
            self.g_emp_feature = _neg_abs_diff(i_n, (self.g_j - 1) / self.g_m, i_n)
        self.g_emp_feature[self.g_i == 0] = 0.0


def _neg_abs_diff(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``-np.abs(a - b)`` (:func:`_feature`'s operations), computed in ``b`` or ``out``."""
    out = np.subtract(a, b, out=b if out is None else out)
    np.abs(out, out=out)
    return np.negative(out, out=out)


def _prior(cells: _Cells, lam: float, p0: float) -> np.ndarray:
    """The prior of every cell, unnormalised as the tool computes it: the operations of
    ``np.where(i > 0, exp(feature * lam) / az, p0)``, per geometry, in one new array."""
    with np.errstate(divide="ignore", invalid="ignore"):
        az = _z(cells.g_j, cells.g_m, cells.g_n, lam) / (1.0 - p0)
        prior = np.multiply(cells.g_feature, lam)
        np.exp(prior, out=prior)
        np.divide(prior, az, out=prior)
        prior[cells.g_i == 0] = p0
    return np.take(prior, cells.geom)


def _scores(cells: _Cells, t_table: np.ndarray | None, prior: np.ndarray) -> np.ndarray:
    """probs[i] = t(f|e) * prior, as the tool computes them (unnormalised), in a new array."""
    if t_table is None:
        return prior * UNINITIALISED_T
    score = np.take(t_table, cells.pair)
    score *= prior
    return score


def _sequential_sum(x: np.ndarray) -> float:
    """Σ x left to right, as the tool's ``+=`` loop: np.sum adds pairwise and np.dot as BLAS
    does, which can change with the number of BLAS threads (and the links with it)."""
    return float(np.cumsum(x)[-1]) if len(x) else 0.0


def _settings(settings: dict[str, Any] | None) -> dict[str, Any]:
    opts = {**DEFAULTS, **(settings or {})}
    unknown = set(opts) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown fast-align settings {sorted(unknown)}; "
                         f"known: {sorted(DEFAULTS)}")
    return opts


def align_forward(source: Sequence[Sequence[str]], target: Sequence[Sequence[str]],
                  settings: dict[str, Any] | None = None) -> Links:
    """Links (source index, target index), 0-based, of each pair: every target word to at
    most one source word."""
    if len(source) != len(target):
        raise ValueError("source and target have different numbers of sentences")
    return _align(_Words(source), _Words(target), _settings(settings))


def _align(source: _Words, target: _Words, opts: dict[str, Any], swap: bool = False) -> Links:
    """Every target word's link, as (source index, target index) or, with ``swap``, as
    (target index, source index)."""
    cells = _Cells(source, target)
    if cells.n_tok == 0:
        return [set() for _ in source.lengths]
    p0, alpha, lam = float(opts["p0"]), float(opts["alpha"]), float(opts["tension"])
    iterations = int(opts["iterations"])
    t_table = None
    prior = _prior(cells, lam, p0)
    for iteration in range(iterations):
        score = _scores(cells, t_table, prior)
        if iteration == iterations - 1:
            break
        total = np.bincount(cells.tok, score, minlength=cells.n_tok)
        post = np.divide(score, np.repeat(total, cells.width), out=score)  # score: not read again
        if opts["optimize_tension"] and iteration > 0:
            emp = np.take(cells.g_emp_feature, cells.geom)
            emp *= post
            empirical = _sequential_sum(emp) / cells.n_tok
            before = lam
            for _ in range(TENSION_STEPS):
                dlogz = _dlogz(cells.size_j, cells.size_m, cells.size_n, lam)
                dlogz *= cells.size_count
                model = _sequential_sum(dlogz) / cells.n_tok
                lam = min(TENSION_MAX, max(TENSION_MIN, lam + (empirical - model) * TENSION_RATE))
            if lam != before:  # the prior only moves with λ
                prior = _prior(cells, lam, p0)
        counts = np.bincount(cells.pair, post, minlength=cells.n_pairs)
        totals = np.bincount(cells.pair_f, counts + alpha)
        counts += alpha
        t_table = _digamma(counts)
        t_table -= np.take(_digamma(totals), cells.pair_f)
        np.exp(t_table, out=t_table)
    else:  # iterations == 0: the tool prints nothing it learnt; links off the uniform start
        score = _scores(cells, t_table, prior)
    best = _viterbi(cells, score)
    linked = best[cells.i[best] > 0]
    tok = cells.tok[linked]
    first, second = (cells.i[linked] - 1).tolist(), (cells.tok_j[tok] - 1).tolist()
    if swap:
        first, second = second, first
    pairs = list(zip(first, second, strict=True))
    # links come in sentence order: each sentence's are one slice
    ends = np.searchsorted(cells.tok_sent[tok], np.arange(len(source.lengths) + 1)).tolist()
    return [set(pairs[a:b]) for a, b in zip(ends[:-1], ends[1:], strict=True)]


def _viterbi(cells: _Cells, score: np.ndarray) -> np.ndarray:
    """The cell of each target token with the highest score; among equal scores the first
    (NULL, then the lowest source position), as the tool's strict ``>`` scan. A token's cells
    are contiguous: a segmented maximum (NaN never wins), then its first cell reaching it."""
    tok = np.asarray(cells.tok)
    if len(score) == 0:
        return np.zeros(0, dtype=np.int64)
    starts = getattr(cells, "starts", None)
    if starts is None:
        starts = np.flatnonzero(np.r_[True, tok[1:] != tok[:-1]])
    top = np.fmax.reduceat(score, starts)
    hits = np.flatnonzero(score == np.repeat(top, np.diff(starts, append=len(score))))
    hit_tok = tok[hits]
    # a token's first cell reaching its top (no hits at all: every score NaN)
    first = np.r_[True, hit_tok[1:] != hit_tok[:-1]] if len(hits) else np.zeros(0, bool)
    best = np.array(starts, dtype=np.int64)  # all NaN: the first (NULL)
    best[hit_tok[first]] = hits[first]
    return best


def align(source: Sequence[Sequence[str]], target: Sequence[Sequence[str]],
          settings: dict[str, Any] | None = None) -> tuple[Links, Links]:
    """Forward and reverse links, both as (source index, target index): the reverse
    direction aligns every source word to at most one target word."""
    if len(source) != len(target):
        raise ValueError("source and target have different numbers of sentences")
    opts = _settings(settings)
    src, tgt = _Words(source), _Words(target)
    return _align(src, tgt, opts), _align(tgt, src, opts, swap=True)
