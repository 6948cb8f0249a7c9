"""A deterministic word aligner: fast_align's model (Dyer, Chahuneau & Smith, NAACL 2013), the
aligner WinoMT's original evaluation ran (``fast_align -d -o -v``).

The model is IBM Model 2 reparametrised with one "diagonal tension" parameter: target word
``j`` of ``m`` links to source word ``i`` of ``n`` with prior ``(1 - p0) * exp(-λ |i/n - j/m|)
/ Z``, or to NULL with ``p0``; lexical probabilities t(e|f) are learnt by EM with a
variational-Bayes Dirichlet prior (``alpha``), λ by gradient steps on the expected feature
(``-o``). Each target word gets its single most probable source word (NULL: no link).
EM has no random step, so the same pairs always give the same links (eflomal, a sampler,
seeds itself from /dev/urandom and does not). Written from the paper's model, vectorised over
all cells of all sentence pairs; not bit-identical to the C++ tool (floating-point order,
initialisation), so a link can differ from fast_align's where two are nearly tied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.special import digamma

DEFAULTS: dict[str, Any] = {"iterations": 5, "p0": 0.08, "alpha": 0.01, "tension": 4.0,
                            "optimize_tension": True}

Links = list[set[tuple[int, int]]]


def _cells(source: Sequence[Sequence[str]], target: Sequence[Sequence[str]]):
    """One row per (target token, source position incl. NULL=0) of every pair."""
    src_vocab: dict[str, int] = {"<null>": 0}
    tgt_vocab: dict[str, int] = {}
    tok, pos_i, pos_j, n_of, m_of, f_id, e_id, sent = [], [], [], [], [], [], [], []
    t = 0
    for s, (src, tgt) in enumerate(zip(source, target, strict=True)):
        n, m = len(src), len(tgt)
        fs = [0] + [src_vocab.setdefault(w, len(src_vocab)) for w in src]
        for j, w in enumerate(tgt, 1):
            e = tgt_vocab.setdefault(w, len(tgt_vocab))
            tok.extend([t] * (n + 1))
            pos_i.extend(range(n + 1))
            pos_j.extend([j] * (n + 1))
            n_of.extend([n] * (n + 1))
            m_of.extend([m] * (n + 1))
            f_id.extend(fs)
            e_id.extend([e] * (n + 1))
            sent.extend([s] * (n + 1))
            t += 1
    arrays = [np.asarray(a, dtype=np.int64) for a in (tok, pos_i, pos_j, n_of, m_of, f_id,
                                                       e_id, sent)]
    return arrays, t, len(tgt_vocab)


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
    (tok, i, j, n, m, f, e, sent), n_tok, n_e = _cells(source, target)
    if n_tok == 0:
        return links
    # the (f, e) pairs that co-occur, each one entry of the lexical table
    pair_key = f * n_e + e
    pairs, pair = np.unique(pair_key, return_inverse=True)
    pair_f = pairs // n_e
    real = i > 0
    feature = np.where(real, -np.abs(i / np.maximum(n, 1) - j / np.maximum(m, 1)), 0.0)
    p0, alpha, tension = float(opts["p0"]), float(opts["alpha"]), float(opts["tension"])
    t_table = np.ones(len(pairs))  # uniform start: the first E-step is positional only

    def prior(lam: float) -> np.ndarray:
        h = np.where(real, np.exp(lam * feature), 0.0)
        z = np.bincount(tok, h, minlength=n_tok)[tok]
        return np.where(real, (1 - p0) * h / np.where(z > 0, z, 1.0), p0)

    def posterior(lam: float) -> np.ndarray:
        score = t_table[pair] * prior(lam)
        total = np.bincount(tok, score, minlength=n_tok)[tok]
        return score / np.where(total > 0, total, 1.0)

    # as fast_align: the last of ``iterations`` passes only reads the links off, and the
    # tension is first re-estimated after the second pass
    for iteration in range(int(opts["iterations"]) - 1):
        post = posterior(tension)
        if opts["optimize_tension"] and iteration > 0:
            empirical = float((post * feature).sum())
            for _step in range(8):
                h = np.where(real, np.exp(tension * feature), 0.0)
                z = np.bincount(tok, h, minlength=n_tok)
                hf = np.bincount(tok, h * feature, minlength=n_tok)
                model = float((hf[z > 0] / z[z > 0]).sum())  # Σ over tokens of E_prior[feature]
                tension = min(14.0, max(0.1, tension + (empirical - model) / n_tok * 20.0))
        counts = np.bincount(pair, post, minlength=len(pairs))
        # variational Bayes M-step: t = exp(ψ(c + α) − ψ(Σ_e c + α))
        totals = np.bincount(pair_f, counts + alpha)[pair_f]
        t_table = np.exp(digamma(counts + alpha) - digamma(totals))
    post = posterior(tension)
    # Viterbi per target token: the highest posterior; ties go to the lowest position
    # (NULL first), stably: sort by token, then by -posterior, then by position
    order = np.lexsort((i, -post, tok))
    first = np.ones(len(order), dtype=bool)
    first[1:] = tok[order][1:] != tok[order][:-1]
    best = order[first]
    for c in best[i[best] > 0]:
        links[sent[c]].add((int(i[c]) - 1, int(j[c]) - 1))
    return links


def align(source: Sequence[Sequence[str]], target: Sequence[Sequence[str]],
          settings: dict[str, Any] | None = None) -> tuple[Links, Links]:
    """Forward and reverse links, both as (source index, target index): the reverse
    direction aligns every source word to at most one target word."""
    forward = align_forward(source, target, settings)
    backward = align_forward(target, source, settings)
    return forward, [{(s, t) for t, s in pair} for pair in backward]
