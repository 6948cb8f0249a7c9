"""fast_align port: its links against the C++ tool's (``fast_align -d -o -v``) on the
published WinoMT outputs, and the pieces of the tool it follows."""

from types import SimpleNamespace

import numpy as np
import pytest

from gendermt.benchmarks.winomt.align import parse_links
from gendermt.benchmarks.winomt.fastalign import _digamma, _dlogz, _viterbi, _z, align_forward

from ...conftest import ROOT
from . import WINOMT_EXTRA

SHARED = ROOT.parent / "shared"
REFERENCE = SHARED / "reference" / "fast_align"
TRANSLATIONS = SHARED / "data" / "winomt" / "translations"
FILES = [f"{system}-{lang}" for system in ("google", "systran")
         for lang in ("fr", "de", "es", "it")]


def read_bitext(path):
    source, target = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        src, _, tgt = line.partition("|||")
        source.append(src.split())
        target.append(tgt.split())
    return source, target


def agreement(ours, reference):
    """Links both have, over the larger of the two link counts."""
    same = sum(len(a & b) for a, b in zip(ours, reference, strict=True))
    return same / max(sum(map(len, ours)), sum(map(len, reference)), 1)


@pytest.mark.parametrize("name", FILES)
def test_links_agree_with_the_cpp_tool(name):
    reference_file = REFERENCE / f"{name}.align"
    if not reference_file.is_file():
        pytest.skip(f"{reference_file} is absent (the shared reference links are not here)")
    system, lang = name.split("-")
    source, target = read_bitext(TRANSLATIONS / system / f"en-{lang}.txt")
    reference = [parse_links(line) for line in
                 reference_file.read_text(encoding="utf-8").splitlines()]
    assert len(reference) == len(source)
    share = agreement(align_forward(source, target), reference)
    print(f"{name}: {100 * share:.2f} % of links as fast_align -d -o -v")
    assert share == 1.0  # every link, as the C++ tool (100.00 %)


def test_z_is_the_sum_it_stands_for():
    # ComputeZ's two geometric series equal the direct sum over source positions
    for m, n, lam in [(7, 5, 4.0), (5, 9, 13.2), (1, 1, 0.1), (12, 12, 7.5)]:
        for j in range(1, m + 1):
            direct = sum(np.exp(-lam * abs(i / n - j / m)) for i in range(1, n + 1))
            assert _z(j, m, n, lam) == pytest.approx(direct, rel=1e-12)


def test_dlogz_keeps_the_tools_swapped_normaliser():
    # the expected feature's numerator is Σ_i f_i e^{λ f_i}; the tool divides it by
    # ComputeZ(j, n, m) (lengths swapped), which is the true Z only when m == n
    m, n, lam = 8, 5, 4.0
    for j in range(1, m + 1):
        feats = [-abs(i / n - j / m) for i in range(1, n + 1)]
        numerator = sum(f * np.exp(lam * f) for f in feats)
        assert _dlogz(j, m, n, lam) == pytest.approx(numerator / _z(j, n, m, lam), rel=1e-9)
    j = 3
    feats = [-abs(i / 6 - j / 6) for i in range(1, 7)]
    expected = sum(f * np.exp(lam * f) for f in feats) / sum(np.exp(lam * f) for f in feats)
    assert _dlogz(j, 6, 6, lam) == pytest.approx(expected, rel=1e-9)


def test_digamma_is_the_tools_series():
    from scipy.special import digamma
    x = np.array([0.01, 0.5, 1.0, 3.3, 7.0, 40.0])
    assert np.allclose(_digamma(x), digamma(x), rtol=1e-6, atol=1e-6)


def test_ties_go_to_null_then_the_first_position():
    # the tool scans NULL, then source 1..n, taking a later one only when strictly larger
    cells = SimpleNamespace(tok=np.array([0, 0, 0, 1, 1, 1, 2, 2, 2]),
                            i=np.array([0, 1, 2, 0, 1, 2, 0, 1, 2]))
    score = np.array([0.2, 0.5, 0.5, 0.4, 0.4, 0.1, 0.1, 0.2, 0.3])
    assert _viterbi(cells, score).tolist() == [1, 3, 8]
    # a token whose scores are all NaN keeps NULL, also when no token has a number
    nan = float("nan")
    assert _viterbi(cells, np.array([nan, nan, nan, 0.4, 0.6, 0.1, nan, nan, nan])
                    ).tolist() == [0, 4, 6]
    assert _viterbi(cells, np.full(9, nan)).tolist() == [0, 3, 6]


def test_align_command_prints_the_tools_links(capsys):
    from gendermt.cli import main

    bitext, reference_file = TRANSLATIONS / "google" / "en-de.txt", REFERENCE / "google-de.align"
    if not reference_file.is_file() or not bitext.is_file():
        pytest.skip(f"{reference_file} or {bitext} is absent (no shared WinoMT data here)")
    assert main(["winomt", "align", "--bitext", str(bitext), "--aligner", "fastalign"]) == 0
    printed = capsys.readouterr().out.split("\n")
    assert printed[-1] == ""
    reference = reference_file.read_text(encoding="utf-8").splitlines()
    assert len(printed) - 1 == len(reference)
    share = agreement([parse_links(line) for line in printed[:-1]],
                      [parse_links(line) for line in reference])
    print(f"gendermt winomt align, google-de: {100 * share:.2f} % of links as fast_align")
    assert share == 1.0  # every link, as the C++ tool (100.00 %)


def test_align_command_format_and_empty_sides(tmp_path, capsys):
    from gendermt.cli import main

    bitext = tmp_path / "bitext.txt"
    lines = ["the doctor came ||| le médecin vint", "a cook ||| ", " ||| un cuisinier"]
    bitext.write_text("\n".join(lines * 20) + "\n", encoding="utf-8")
    assert main(["winomt", "align", "--bitext", str(bitext)]) == 0
    out = capsys.readouterr().out.split("\n")
    assert len(out) == 61 and out[0] == "0-0 1-1 2-2" and out[1] == out[2] == ""


def test_align_command_rejects_a_line_without_separator(tmp_path, capsys):
    from gendermt.cli import main

    bitext = tmp_path / "bitext.txt"
    bitext.write_text("the doctor ||| le médecin\nthe cook, le cuisinier\n", encoding="utf-8")
    assert main(["winomt", "align", "--bitext", str(bitext)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert captured.out == "" and "\n" not in err
    assert str(bitext) in err and "line 2" in err and "|||" in err


def test_align_command_with_eflomal(tmp_path, capsys):
    pytest.importorskip("eflomal", reason=WINOMT_EXTRA)
    from gendermt.cli import main

    bitext = tmp_path / "bitext.txt"
    bitext.write_text("the doctor came ||| le médecin vint\n" * 30, encoding="utf-8")
    assert main(["winomt", "align", "--bitext", str(bitext), "--aligner", "eflomal"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 30 and all(set(line.split()) <= {f"{i}-{j}" for i in range(3)
                                                        for j in range(3)} for line in out)


def test_sums_run_left_to_right_as_the_tools_loop():
    # the tension's features are summed as the tool's ``+=`` loop; np.sum (pairwise) and
    # np.dot (BLAS, by thread count) add in other orders
    from gendermt.benchmarks.winomt.fastalign import _sequential_sum

    x = np.random.default_rng(0).standard_normal(10_000) * 1e3
    total = 0.0
    for value in x.tolist():
        total += value
    assert _sequential_sum(x) == total
    assert _sequential_sum(np.zeros(0)) == 0.0


def test_word_pair_table_by_sort_or_lookup_gives_the_same_links(monkeypatch):
    from gendermt.benchmarks.winomt import fastalign

    bitext = TRANSLATIONS / "google" / "en-it.txt"
    if not bitext.is_file():
        pytest.skip(f"{bitext} is absent (no shared WinoMT data here)")
    source, target = read_bitext(bitext)
    source, target = source[:400], target[:400]
    lookup = fastalign.align(source, target)
    monkeypatch.setattr(fastalign, "DENSE_PAIR_TABLE", 0)  # a vocabulary too large for it
    assert fastalign.align(source, target) == lookup
