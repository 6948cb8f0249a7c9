"""Shared figure plumbing: a headless backend and reproducible PNG + PDF files."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display on clusters and CI
import matplotlib.pyplot as plt  # noqa: E402

from gendermt.io import atomic_path  # noqa: E402


def save(fig, png: str | Path, pdf: str | Path) -> None:
    """Write ``fig`` as PNG and PDF, atomically and without timestamps (reruns give identical
    files), then close it."""
    with atomic_path(png) as tmp:
        fig.savefig(tmp, format="png", dpi=150, bbox_inches="tight", metadata={"Software": None})
    with atomic_path(pdf) as tmp:
        fig.savefig(tmp, format="pdf", bbox_inches="tight",
                    metadata={"CreationDate": None, "ModDate": None, "Producer": None})
    plt.close(fig)
