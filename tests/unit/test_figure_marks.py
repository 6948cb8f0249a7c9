"""The benchmarks' main figures cannot flatter (issue 48): intervals as error bars where the
benchmark's tables/intervals.csv is given (and the figure still draws without it), a run below
its quality floor grey, hatched and titled "(low quality)" (MT-GenEval's copy-source, whose
untranslated English scores near 100), oracles and baselines labelled."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.container import ErrorbarContainer  # noqa: E402

from gendermt.report import figure_marks as marks  # noqa: E402

KINDS = {"oracle": "oracle", "copy-source": "baseline"}


def _errorbars(ax) -> int:
    return sum(isinstance(c, ErrorbarContainer) for c in ax.containers)


def _intervals(rows):
    return pd.DataFrame([{"figure": f, "system": s, "prompt": p, "value": v, "ci_low": lo,
                          "ci_high": hi, "n": n, "level": 0.95}
                         for f, s, p, v, lo, hi, n in rows])


def test_interval_and_error_bars(tmp_path):
    table = _intervals([("acc_fr", "a", "fr", 50.0, 45.0, 56.0, 100)])
    assert marks.interval(table, "acc_fr", "a") == (45.0, 56.0, 100)
    assert marks.interval(table, "acc_fr", "b") is None
    assert marks.interval(None, "acc_fr", "a") is None
    assert marks.error_bars([50.0, 10.0], [(45.0, 56.0), None]) == [[5.0, 0.0], [6.0, 0.0]]
    assert marks.read_intervals(tmp_path / "none.csv") is None
    table.to_csv(tmp_path / "intervals.csv", index=False)
    assert marks.read_intervals(tmp_path / "intervals.csv").shape == table.shape
    pd.DataFrame({"figure": ["x"]}).to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(Exception, match="no column"):
        marks.read_intervals(tmp_path / "bad.csv")
    assert marks.system_label("oracle", KINDS) == "oracle (oracle)"
    assert marks.system_label("copy-source", KINDS) == "copy-source (baseline)"
    assert marks.system_label("m", KINDS) == "m"


def _mtg_table():
    rows = []
    for system, acc in (("mt", 0.6), ("oracle", 1.0), ("copy-source", 0.98)):
        rows.append({"system": system, "prompt": "baseline", "lang": "fr",
                     "set": "counterfactual", "accuracy": acc, "accuracy_masculine": acc,
                     "accuracy_feminine": acc, "correct_word_rate_masculine": 0.5,
                     "correct_word_rate_feminine": 0.5, "n": 300})
        rows.append({"system": system, "prompt": "baseline", "lang": "fr", "set": "contextual",
                     "accuracy": acc, "correct_word_rate": 0.5, "n": 1000})
    return pd.DataFrame(rows)


def _capture(monkeypatch, module):
    figures = []
    monkeypatch.setattr(module, "save", lambda fig, png, pdf: figures.append(fig))
    return figures


def test_mt_geneval_marks_copy_source_and_draws_intervals(tmp_path, monkeypatch):
    from gendermt.benchmarks.mt_geneval import figures as module

    drawn = _capture(monkeypatch, module)
    table = _mtg_table()
    table.to_csv(tmp_path / "accuracy.csv", index=False)
    pd.DataFrame({"system": ["mt", "oracle", "copy-source"], "prompt": ["baseline"] * 3,
                  "items": [10] * 3, "ok": [10, 10, 1], "echo": [0] * 3,
                  "wrong_language": [0, 0, 9], "clean_share": [1.0, 1.0, 0.1]}).to_csv(
        tmp_path / "checks.csv", index=False)
    _intervals([("contextual_fr", s, "baseline", v, v - 3, v + 3, 1000)
                for s, v in (("mt", 60.0), ("oracle", 100.0), ("copy-source", 98.0))]
               + [("gap_fr", "mt", "baseline", 5.0, 1.0, 9.0, 300)]).to_csv(
        tmp_path / "intervals.csv", index=False)
    module.build_figures(tmp_path / "accuracy.csv", "x.png", "x.pdf",
                         tmp_path / "intervals.csv", tmp_path / "checks.csv", KINDS, {})
    fig = drawn.pop()
    titles = [ax.get_title(loc="left") for ax in fig.axes]
    assert titles == ["mt · baseline", "oracle (oracle) · baseline",
                      "copy-source (baseline) · baseline (low quality)"]
    copy = fig.axes[2]
    assert all(p.get_hatch() == marks.LOW_HATCH for p in copy.patches)
    assert not any(p.get_hatch() for p in fig.axes[0].patches)
    assert all(_errorbars(ax) == 1 for ax in fig.axes)  # the contextual bars'
    assert any("gap [1.0, 9.0]" in t.get_text() for t in fig.axes[0].texts)
    plt.close(fig)
    # without the intervals (the workflow has no intervals rule): it still draws, unmarked
    module.build_figures(tmp_path / "accuracy.csv", "x.png", "x.pdf")
    fig = drawn.pop()
    assert all(_errorbars(ax) == 0 for ax in fig.axes)
    assert fig.axes[2].get_title(loc="left") == "copy-source · baseline"
    plt.close(fig)


def test_winomt_error_bars_low_quality_and_kinds():
    from gendermt.benchmarks.winomt.figures import compare_systems, low_quality

    frame = pd.DataFrame([
        {"system": s, "lang": "fr", "acc": a, "delta_g": 1.0, "delta_s": 2.0,
         "share_unknown": u} for s, a, u in (("a", 60.0, 5.0), ("loops", 30.0, 40.0),
                                              ("oracle", 99.0, 0.0))])
    low = low_quality(frame, {"readable": 75.0, "clean_share": 90.0})
    assert low == {("loops", "fr")}
    intervals = _intervals([("acc_fr", s, "fr", v, v - 2, v + 2, 3888)
                            for s, v in (("a", 60.0), ("loops", 30.0), ("oracle", 99.0))])
    fig = compare_systems(frame, ["a", "loops", "oracle"], ["fr"], intervals,
                          {"oracle": "oracle"}, low)
    acc = fig.axes[0]
    assert "(low quality): loops fr" in acc.get_title()
    assert _errorbars(acc) == 3 and _errorbars(fig.axes[1]) == 0
    hatched = [p for p in acc.patches if p.get_hatch() == marks.LOW_HATCH]
    assert len(hatched) == 1 and hatched[0].get_height() == 30.0
    legend = [t.get_text() for t in fig.axes[-1].get_legend().get_texts()]
    assert "oracle (oracle)" in legend and any("low quality" in t for t in legend)
    plt.close(fig)


def test_gate_figures_headline_interval_and_low_quality():
    from gendermt.benchmarks.gate.figures import f05_figure

    rows = []
    for system, low in (("rw", False), ("echo", True), ("oracle", False)):
        for gender in ("masculine", "feminine"):
            rows.append({"system": system, "prompt": "rewrite", "language": "es",
                         "gender": gender, "category": "overall", "count": 10,
                         "matches": 5, "f05": 0.5, "low_quality": low})
    intervals = _intervals([("accuracy", "rw", "rewrite", 50.0, 40.0, 60.0, 20)])
    fig = f05_figure(pd.DataFrame(rows), intervals, {"oracle": "oracle"})
    head = fig.axes[0]
    assert _errorbars(head) == 1
    labels = [t.get_text() for t in head.get_yticklabels()]
    assert labels == ["rw · rewrite", "echo · rewrite (low quality)",
                      "oracle (oracle) · rewrite"]
    assert any("50.0 [40.0, 60.0], n = 20" in t.get_text() for t in head.texts)
    titles = [ax.get_title() for ax in fig.axes[1:]]
    assert titles == labels
    plt.close(fig)
