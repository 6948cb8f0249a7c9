"""Shared figure plumbing: a headless backend and reproducible PNG + PDF files."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display on clusters and CI
import matplotlib.pyplot as plt  # noqa: E402

from gendermt.data.io import atomic_path  # noqa: E402

PNG_DPI = 150


def save(fig, png: str | Path, pdf: str | Path) -> None:
    """Write ``fig`` as PNG and PDF, atomically and without timestamps (reruns give identical
    files), then close it.

    The layout and the tight bounding box are computed once for both files: with
    ``bbox_inches="tight"`` or a layout engine, every ``savefig`` draws the figure once more
    to measure it and reruns the layout (a quarter of the Neo-GATE figure job's CPU)."""
    # laid out at the PNG's dpi, as savefig would: text extents (hence the crop) vary with dpi
    fig.set_dpi(PNG_DPI)
    fig.draw_without_rendering()  # runs the layout engine, if any
    bbox = fig.get_tightbbox().padded(plt.rcParams["savefig.pad_inches"])
    fig.set_layout_engine(None)  # laid out above: keep those positions (not "none": a
    # placeholder engine, which makes savefig draw once more)
    with atomic_path(png) as tmp:
        fig.savefig(tmp, format="png", dpi=PNG_DPI, bbox_inches=bbox, metadata={"Software": None})
    with atomic_path(pdf) as tmp:
        fig.savefig(tmp, format="pdf", bbox_inches=bbox,
                    metadata={"CreationDate": None, "ModDate": None, "Producer": None})
    plt.close(fig)
