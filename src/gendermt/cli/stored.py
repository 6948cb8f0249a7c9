"""``gendermt stored template``: empty stored-output files for a system whose outputs you have.

Writes ``OUT/{benchmark}/{prompt}.tsv`` for each prompt (``item_id``, ``source``, an empty
``hypothesis``), in the item order of the benchmark's ``data.parquet`` in a run's results
folder (the order a ``stored`` system's files follow for every prompt), and prints JSON: the
files, the item count and the system settings that read them back
(docs/system-files.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gendermt.core.errors import GenderMTError


def register(commands: argparse._SubParsersAction) -> None:
    stored = commands.add_parser("stored", help="files of a `stored` system (outputs you have)")
    tools = stored.add_subparsers(dest="tool", required=True)
    template = tools.add_parser(
        "template", help="write empty stored-output files to fill in",
        description="Write OUT/BENCHMARK/PROMPT.tsv per prompt: one row per item of the "
                    "benchmark, in item order (the run's data.parquet), with item_id, source "
                    "and an empty hypothesis column to fill in; a system `{backend: stored, "
                    "format: table, path: \"OUT/{benchmark}/{prompt}.tsv\"}` reads them. "
                    "Prompts: --prompt, else those the run built inputs for.")
    template.add_argument("--benchmark", required=True, help="the benchmark's config key, "
                          "e.g. fairtranslate")
    template.add_argument("--out", required=True, help="folder to write into (files are "
                          "never overwritten)")
    template.add_argument("--results", default="results/default",
                          help="the run's results folder (default results/default)")
    template.add_argument("--prompt", action="append", default=[],
                          help="a prompt (Neo-GATE: a run; GAMBIT: a language); repeatable")
    template.set_defaults(func=run_template)


def run_template(args: argparse.Namespace) -> int:
    import json

    import pandas as pd

    from gendermt.translation.backends.stored import write_template

    folder = Path(args.results) / args.benchmark
    data_path = folder / "data.parquet"
    if not data_path.is_file():
        raise GenderMTError(
            f"{data_path} does not exist: build the benchmark's data first "
            f"(`snakemake --cores 2 {data_path}`, with the default config only)")
    prompts = list(args.prompt) or sorted(p.stem for p in (folder / "inputs").glob("*.jsonl"))
    if not prompts:
        raise GenderMTError(f"{folder / 'inputs'}: no inputs files to take prompts from; give "
                            "--prompt (or build them: `snakemake --cores 2 "
                            f"{folder / 'inputs'}/PROMPT.jsonl`)")
    data = pd.read_parquet(data_path)
    paths = write_template(data, args.benchmark, prompts, args.out)
    print(json.dumps({"benchmark": args.benchmark, "items": len(data),
                      "files": [str(p) for p in paths],
                      "system": {"backend": "stored", "format": "table",
                                 "path": f"{Path(args.out)}/{{benchmark}}/{{prompt}}.tsv"}},
                     indent=2, ensure_ascii=False))
    return 0
