"""Helpers of the explorer tests: write a benchmark's explorer page and read back what it
holds, as the page shows it (gendermt.report.explorer.rows_of); open it in headless Chromium."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from gendermt.report.explorer import Explorer, read_page, rows_of
from gendermt.report.explorer_page import write_page

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def page_rows(explorer: Explorer, folder: Path) -> tuple[dict, list[dict]]:
    """(the page's data, its rows) of ``explorer`` written as a page under ``folder``."""
    path = folder / "explorer.html"
    write_page(explorer, path)
    data = read_page(path)
    return data, rows_of(data)


def rendered(path: Path, fragment: str = "") -> str:
    """The DOM headless Chromium renders of the page at ``path#fragment``, once its program
    has run (its virtual time lets the page's promises finish)."""
    proc = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
         f"--user-data-dir={path.parent / 'chromium-profile'}", "--virtual-time-budget=20000",
         "--dump-dom", path.as_uri() + (f"#{fragment}" if fragment else "")],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def listed(data: dict, rows: list[dict], systems: list[str], runs: list[str]) -> None:
    """The page lists every system and run, each row has its source and every output has a
    reading: what every benchmark's explorer must hold."""
    assert data["systems"] == systems
    assert data["runs"] == runs
    assert rows and all(r["source"] for r in rows)
    for row in rows:
        for system, out in row["outputs"].items():
            assert system in systems
            assert out["read"], (row["item_id"], system)
