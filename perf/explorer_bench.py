"""The explorer of the public study's full WinoMT (3,888 sentences, eight languages, every system
of config/study/public.yaml) from its results: its size, and how long headless Chromium takes
from start to the first page rendered (issue 53: under 15 MB and 3 s).

    PYTHONPATH=src python perf/explorer_bench.py [--results results/public] [--out FILE]

Load time is measured twice: the page's own mark (``performance.now()`` when the first page of
rows is in the DOM, written to ``body[data-render-ms]``), and Chromium's wall time on the page
minus its wall time on an empty page with the same flags (its start-up, the rest). The DOM
Chromium dumps must hold the rendered rows, and a view of one sentence (``#q=…``) must show it
with every system's output: a page that did not render does not count as fast.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from gendermt.benchmarks.winomt.explorer import read
from gendermt.report.explorer_page import write_page

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "config" / "study" / "public.yaml"
TARGET_MB, TARGET_S = 15.0, 3.0


def runs_of(results: Path, reader: str) -> tuple[list[dict], list[str]]:
    """Every (system, language) of the study with a per-sentence table, in the config's order."""
    spec = yaml.safe_load(STUDY.read_text(encoding="utf-8"))["benchmarks"]["winomt"]
    only = spec.get("system_prompts", {})
    runs = [{"system": s, "prompt": p,
             "path": str(results / "winomt" / "gender" / reader / s / f"{p}.parquet")}
            for p in spec["prompts"] for s in spec["systems"] if p in only.get(s, [p])]
    missing = [r["path"] for r in runs if not Path(r["path"]).is_file()]
    if missing:
        sys.exit(f"{len(missing)} per-sentence tables missing, e.g. {missing[0]}: run the "
                 "public study first (config/study/public.yaml)")
    return runs, spec["systems"]


def chromium(url: str, budget_ms: int = 60000) -> tuple[float, str]:
    """Wall seconds of headless Chromium loading ``url`` until its tasks are done, and the DOM."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        sys.exit("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        start = time.perf_counter()
        proc = subprocess.run(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
             f"--virtual-time-budget={budget_ms}", "--dump-dom", url],
            capture_output=True, text=True, timeout=300)
        seconds = time.perf_counter() - start
    if proc.returncode:
        sys.exit(f"chromium failed ({proc.returncode}): {proc.stderr[-500:]}")
    return seconds, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", default="/work/main/results/public")
    parser.add_argument("--out", default=None, help="where to write the page (default: temp)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runs, systems = runs_of(Path(args.results), "corrected")

    start = time.perf_counter()
    explorer = read(runs, reader="corrected", systems=systems)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp()) / "explorer.html"
    write_page(explorer, out)
    build = time.perf_counter() - start
    size = out.stat().st_size / 1e6
    outputs = sum(len(i.outputs) for i in explorer.items)
    print(f"explorer: {len(explorer.items)} rows (sentence × language), {len(systems)} systems, "
          f"{outputs} outputs; built in {build:.1f} s; {size:.2f} MB "
          f"({'under' if size < TARGET_MB else 'OVER'} {TARGET_MB:g} MB)")

    blank = out.with_name("blank.html")
    blank.write_text("<!DOCTYPE html><html><body>blank</body></html>", encoding="utf-8")
    chromium(blank.as_uri())  # warm the disk cache of Chromium itself
    marks, walls = [], []
    for _ in range(args.repeat):
        base, _dom = chromium(blank.as_uri())
        wall, dom = chromium(out.as_uri())
        state = re.search(r'data-state="(\w+)"', dom)
        if not state or state.group(1) != "ready":
            sys.exit(f"the page did not render (state {state and state.group(1)}): "
                     + re.sub(r"\s+", " ", dom)[:400])
        table = re.search(r'<table id="gmt-table">(.*?)</table>', dom, flags=re.S)
        rows = table.group(1).count("<tr data-item=") if table else 0
        if rows == 0:
            sys.exit("the page rendered no rows")
        marks.append(int(re.search(r'data-render-ms="(\d+)"', dom).group(1)) / 1000)
        walls.append(wall - base)
    # the heaviest view: every language, a search through every output, systems disagree
    _, dom = chromium(out.as_uri() + "#run=all&q=the&d=1")
    heavy = int(re.search(r'data-render-ms="(\d+)"', dom).group(1)) / 1000
    found = re.search(r"<b>(\d+)</b> of (\d+) items", dom)
    print(f"heaviest view (all languages, search 'the', systems disagree): {found.group(1)} of "
          f"{found.group(2)} rows match; first render at {heavy:.2f} s (page mark)")
    # one sentence's view: every system's output of it on the page
    item = explorer.items[0]
    _, dom = chromium(out.as_uri() + f"#run={item.run}&q={item.item_id}")
    missing = [s for s, o in item.outputs.items()
               if o.text and _html_text(o.text) not in dom]
    if missing:
        sys.exit(f"the view of item {item.item_id} lacks the outputs of {missing}")
    print(f"load to first render in headless Chromium: page mark min {min(marks):.2f} s "
          f"median {sorted(marks)[len(marks) // 2]:.2f} s; wall minus an empty page's min "
          f"{min(walls):.2f} s median {sorted(walls)[len(walls) // 2]:.2f} s "
          f"({args.repeat} loads; target under {TARGET_S:g} s: "
          f"{'met' if max(marks + walls) < TARGET_S else 'NOT met'}); "
          f"{rows} rows rendered per page")


def _html_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


if __name__ == "__main__":
    main()
