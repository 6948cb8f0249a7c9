"""gendermt.report.plots.save: one layout for both files, the same crop as
``bbox_inches="tight"``."""

from __future__ import annotations

import matplotlib.image as mpimg
import matplotlib.pyplot as plt
import pytest
import seaborn as sns

from gendermt.report.plots import save


def figure(layout: str | None):
    fig, axes = plt.subplots(2, 3, figsize=(7, 4), layout=layout)
    for i, ax in enumerate(axes.flat):
        image = ax.imshow([[i, 1], [2, 3]], cmap="Blues")
        ax.set_title(f"a long panel title {i}", fontsize=8)
        ax.set_xlabel("shots")
    fig.colorbar(image, ax=axes, label="%")
    fig.suptitle("A figure")
    # outside the axes: the tight crop must keep it
    axes[0, -1].legend(handles=[plt.Line2D([], [], label="a legend outside")],
                       loc="upper left", bbox_to_anchor=(1.6, 1))
    return fig


@pytest.mark.parametrize("theme", [None, "paper"])
@pytest.mark.parametrize("layout", ["constrained", None])
def test_same_crop_as_tight_savefig(tmp_path, layout, theme):
    # the benchmarks' figures use seaborn's paper theme (smaller fonts than matplotlib's)
    context = sns.plotting_context(theme) if theme else plt.rc_context()
    with context:
        same_crop(tmp_path, layout)


def same_crop(tmp_path, layout):
    reference = figure(layout)
    reference.savefig(tmp_path / "tight.png", dpi=150, bbox_inches="tight")
    plt.close(reference)
    save(figure(layout), tmp_path / "one.png", tmp_path / "one.pdf")
    tight = mpimg.imread(tmp_path / "tight.png").shape
    once = mpimg.imread(tmp_path / "one.png").shape
    # laid out at the PNG's dpi, as savefig does: the same size to the pixel
    assert tight == once
    assert (tmp_path / "one.pdf").read_bytes().startswith(b"%PDF")


def test_reruns_give_identical_files(tmp_path):
    for name in ("a", "b"):
        save(figure("constrained"), tmp_path / f"{name}.png", tmp_path / f"{name}.pdf")
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_figure_is_drawn_once_per_file_after_one_layout(tmp_path, monkeypatch):
    fig = figure("constrained")
    draws = []
    original = type(fig).draw
    monkeypatch.setattr(type(fig), "draw", lambda self, renderer: (draws.append(1),
                                                                   original(self, renderer)))
    save(fig, tmp_path / "x.png", tmp_path / "x.pdf")
    # savefig(bbox_inches="tight") draws twice per file (measure, then render): four in all
    assert len(draws) == 3
