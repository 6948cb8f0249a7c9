"""The workflow's ``score`` job as Snakemake runs it, against a bare ``script:`` job (issue 30).

Usage: python perf/score_job.py [--items 54] [--repeats 5] [--small] [--baseline-src DIR]
                                [--record]

Each side is a fresh interpreter running what Snakemake's ``script:`` directive runs: its
preamble (``sys.path``, the job's pickled ``snakemake`` object, ``snakemake.logging`` and
``snakemake.iocontainers``) followed by a stage script, with one BLAS/OpenMP thread as
Snakemake gives a one-thread job; CPU seconds of the whole child, teardown included.
A (gendermt): ``workflow/scripts/score.py`` scoring --items items (54: the size of the
default's FairTranslate sample; French sentence pairs from GATE's variants in ../shared/data,
the shipped sample where those are absent) with the default's settings: BLEU and chrF,
corpus scores per gender. B (bare): a script that only writes the same outputs empty
(``{}`` for JSON), what a ``script:`` job costs when it does nothing. ``--baseline-src
DIR`` adds A against the same job run from another checkout's ``src`` (before/after in one
run); the two must write the same scores and summary, else the script exits 1.
Alternating after a warm-up of each; min, median and ratio (perf/_ab.py). ``--small``: 40
items, one pair, no warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)
import scoring_throughput  # noqa: E402 (its French sentence pairs)

STAGE = ROOT / "workflow" / "scripts" / "score.py"
BARE = """from pathlib import Path

for name in snakemake.output:  # noqa: F821 (Snakemake's script: object)
    Path(name).write_text("{}" if name.endswith(".json") else "", encoding="utf-8")
"""


def sentences(n: int) -> tuple[list[str], list[str], list[str]]:
    """Hypotheses, references and genders of n items (real French sentences: those of
    perf/scoring_throughput.py)."""
    hyps, refs, _ = scoring_throughput.segments(n)
    genders = ["male", "female", "inclusive"]
    return hyps, refs, [genders[k % 3] for k in range(n)]


def write_inputs(work: Path, n: int) -> tuple[Path, Path]:
    import pandas as pd

    hyps, refs, genders = sentences(n)
    ids = [f"ft-{k:05d}" for k in range(n)]
    data = work / "data.parquet"
    pd.DataFrame({"item_id": ids, "reference": refs, "gender": genders}).to_parquet(data)
    translations = work / "translations.jsonl"
    translations.write_text("".join(json.dumps({"item_id": i, "raw": h, "hypothesis": h},
                                               ensure_ascii=False) + "\n"
                                    for i, h in zip(ids, hyps, strict=True)), encoding="utf-8")
    return data, translations


def job_script(work: Path, name: str, script: str, data: Path, translations: Path) -> Path:
    """A script as Snakemake's ``script:`` writes it: its preamble, then the stage script."""
    from snakemake.iocontainers import (
        InputFiles,
        Log,
        OutputFiles,
        Params,
        ResourceList,
        Snakemake,
        Wildcards,
    )

    out = work / name
    out.mkdir(exist_ok=True)
    params = Params(fromdict={"code": "perf", "metrics": ["bleu", "chrf"],
                              "options": {"bleu": {}, "chrf": {}}, "group_by": ["gender"],
                              "tokenize": {"default": "13a"}, "normalize": None})
    job = Snakemake(InputFiles(fromdict={"translations": str(translations), "data": str(data)}),
                    OutputFiles(fromdict={"scores": str(out / "scores.parquet"),
                                          "summary": str(out / "scores.json")}),
                    params, Wildcards(fromdict={}), 1, ResourceList(fromdict={"_cores": 1}),
                    Log(fromdict={"log": str(out / "score.log")}), {}, "score", None,
                    str(STAGE.parent))
    preamble = (f"import sys; sys.path.extend({[str(STAGE.parent)]!r}); import pickle; "
                f"snakemake = pickle.loads({pickle.dumps(job, protocol=4)!r}); "
                "from snakemake.logging import logger; "
                "from snakemake.iocontainers import Snakemake;\n")
    path = out / "job.py"
    path.write_text(preamble + script, encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser, repeats=5)
    parser.add_argument("--items", type=int, default=54,
                        help="items scored (54: the default's FairTranslate sample)")
    parser.add_argument("--baseline-src", type=Path,
                        help="another checkout's src/ to run the same job (before/after)")
    args = parser.parse_args(argv)
    items = 40 if args.small else args.items
    repeats = 1 if args.small else args.repeats
    with tempfile.TemporaryDirectory(prefix="gendermt-score-job-") as tmp:
        work = Path(tmp)
        data, translations = write_inputs(work, items)
        stage = STAGE.read_text(encoding="utf-8")
        scripts = {"A": job_script(work, "a", stage, data, translations),
                   "B": job_script(work, "b", BARE, data, translations)}
        sources = {"A": ROOT / "src", "B": ROOT / "src"}
        if args.baseline_src:
            scripts["before"] = job_script(work, "before", stage, data, translations)
            sources["before"] = args.baseline_src

        def side(key: str):
            label = {"A": "gendermt", "B": "bare script: job", "before": "baseline src"}[key]

            def run() -> float:
                env = {**os.environ, **_ab.JOB_THREADS, "PYTHONPATH": str(sources[key])}
                seconds, _ = _ab.run_child(label, [sys.executable, str(scripts[key])],
                                           cwd=work, env=env)
                return seconds
            return run

        label = f"score job, {items} items, BLEU+chrF per gender"
        _ab.compare(f"{label}, process CPU", side("A"), side("B"), repeats,
                    warmup=not args.small, note="B: a script: job writing empty outputs")
        if args.baseline_src:
            _ab.compare(f"{label}, process CPU, this checkout vs {args.baseline_src}",
                        side("A"), side("before"), repeats, warmup=not args.small)
            import pandas as pd

            same = ((work / "a" / "scores.json").read_bytes()
                    == (work / "before" / "scores.json").read_bytes())
            frames = [pd.read_parquet(work / d / "scores.parquet") for d in ("a", "before")]
            if not same or not frames[0].equals(frames[1]):
                raise SystemExit("the two checkouts wrote different scores")
            print("the same scores and summary from both checkouts")
    return _ab.finish("score_job", args)


if __name__ == "__main__":
    sys.exit(main())
