"""How the workflow scales: planning cost of the default, each study and synthetic studies of
a given number of jobs, as dry runs and as no-op reruns, each against a bare Snakefile of the
same jobs; the default run from scratch; peak memory of a heavy analysis at GAMBIT's size.

Usage: python perf/scale.py [--jobs 1000,5000] [--repeats 3] [--no-studies] [--no-noop]
                            [--cores 2] [--skip-run] [--small] [--record]
                            [--bare script|none]

1. Dry runs: the default config, each study (``--configfile config/study/systems.yaml
   config/study/<name>.yaml``; a study whose data is absent here is skipped, saying which
   file), and a synthetic study per ``--jobs`` size (every benchmark of the default config ×
   N offline systems × every prompt its templates define; N from the job counts at 2 and 4
   systems): ``snakemake -n`` from scratch, CPU seconds, alternating with a bare Snakefile
   built from the same job list (perf/startup.py: one rule per job, the same files and edges,
   each a ``script:`` job that creates its outputs; ``--bare none``: no action): min and
   median of each side and the ratio.
2. No-op reruns of the same (``--no-noop``: none): every job's outputs made, empty and newer
   than its inputs, and the jobs' metadata recorded by ``snakemake --touch --forceall`` on
   each side, as a run leaves them; then ``snakemake --cores 1``, which must find nothing to
   do, alternating with the bare Snakefile's.
3. Default run: wall time from scratch (a fresh copy) and of the no-op rerun.
4. Peak memory (max RSS of the process) of the FairTranslate tables (means, categories, one
   ANOVA per metric × system × prompt) on a synthetic input the size of GAMBIT (10k texts ×
   6 systems × 2 target languages = 120k translations, 2 metrics).
``--small`` (CI smoke runs): the default (dry run and no-op rerun) and a 2-system synthetic
study (dry run), one pair each, no default run, a 300-text analysis. Everything runs in
temporary copies (the data a study reads outside the project, ``../shared``, is linked beside
them); the project's results/ are untouched. Exits non-zero, with Snakemake's own message,
when a side fails.
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

ROOT = Path(__file__).resolve().parents[1]
COPY = ["Snakefile", "workflow", "config", "resources", "envs", "profiles", "src"]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _ab  # noqa: E402 (perf/_ab.py: the A/B comparison)
import startup  # noqa: E402 (perf/startup.py: CPU of a snakemake call, the bare Snakefile)


def copy_project(dest: Path) -> Path:
    dest.mkdir(parents=True)
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest / name)
    return dest


def snakemake(*args: str, cwd: Path) -> tuple[float, str]:
    exe = Path(sys.executable).parent / "snakemake"
    start = time.perf_counter()
    out = subprocess.run([str(exe), *args], cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if out.returncode != 0:  # Snakemake prints its errors on either stream
        raise SystemExit(f"snakemake {' '.join(args)} failed (exit {out.returncode}):\n"
                         f"{(out.stderr + out.stdout)[-4000:]}")
    return seconds, out.stdout + out.stderr


def total_jobs(text: str) -> int:
    match = re.search(r"^total\s+(\d+)", text, flags=re.M)
    return int(match.group(1)) if match else 0


def synthetic_study(n_systems: int) -> dict:
    """Every benchmark of the default × n offline systems × all its prompts."""
    from gendermt.config.templates import load_templates

    default = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
    refs = ["ref_male", "ref_female", "ref_inclusive"]
    systems = {f"sys{i:03d}": ({"backend": "copy-source"} if i % 4 == 3 else
                               {"backend": "reference-oracle", "reference": refs[i % 4]})
               for i in range(n_systems)}
    benchmarks = {}
    for name, spec in default["benchmarks"].items():
        # every prompt its templates define, unless the default picks some (benchmarks whose
        # templates pair up, e.g. MT-GenEval's contextual set, list their own)
        prompts = spec.get("prompts") or list(load_templates(ROOT / spec["templates"]))
        # per-system settings name the default's systems, which this study does not run
        benchmarks[name] = {**{k: v for k, v in spec.items() if k != "system_prompts"},
                            "systems": list(systems), "prompts": prompts}
    # the default's other settings (scoring, statistics, ...), as a study config has them
    # the default's systems stay configured: its benchmarks' judges and annotators use them
    return {**default, "run": f"synthetic-{n_systems}", "benchmarks": benchmarks,
            "systems": {**default["systems"], **systems}}


def absent_source(config: Path, work: Path) -> str | None:
    """The first data file or folder a study config names that is not here, or None."""
    from gendermt.data.sources import configured_sources

    spec = yaml.safe_load(config.read_text(encoding="utf-8"))
    for source in configured_sources(spec):
        if not (work / source.path).exists():
            return f"{source.key}: {source.path}"
    return None


def jobs_per_system(work: Path) -> tuple[float, float]:
    """Jobs of the synthetic study as a line in its systems: (fixed, per system), from the
    dry runs at 2 and 4 systems."""
    counts = []
    for n in (2, 4):
        config = work / f"synthetic-{n}.yaml"
        config.write_text(yaml.safe_dump(synthetic_study(n), sort_keys=False), encoding="utf-8")
        _, dry = startup.cpu_of(["-n", "--configfile", str(config)], work)
        counts.append(len(startup.jobs_of(dry)))
    per = (counts[1] - counts[0]) / 2
    return counts[0] - 2 * per, per


def systems_for(jobs: int, fixed: float, per: float) -> int:
    return max(1, round((jobs - fixed) / per))


def measure_dags(work: Path, sizes: list[int], repeats: int, small: bool, noop: bool,
                 studies_too: bool = True, record: bool = False,
                 bare_action: str = "script") -> None:
    """Dry runs (and no-op reruns with ``noop``) of the default, the studies and synthetic
    studies of about ``sizes`` jobs, each against the bare Snakefile of its own jobs. With
    ``record``, the results file is rewritten after each case, so that a long run stopped
    at its largest size keeps what it measured."""
    systems_file = ROOT / "config/study/systems.yaml"
    studies = [] if small or not studies_too else sorted(
        p for p in (ROOT / "config/study").glob("*.yaml") if p != systems_file)
    cases = [("default config", [])]
    for config in studies:
        missing = absent_source(config, work)
        if missing:
            print(f"dry run, study {config.name}: skipped, its data {missing} is absent here")
            continue
        cases.append((f"study {config.name}", ["--configfile", str(systems_file), str(config)]))
    if sizes:
        fixed, per = (0.0, 1.0) if small else jobs_per_system(work)
        for size in sizes:
            n_systems = 2 if small else systems_for(size, fixed, per)
            synthetic = work / f"synthetic-{n_systems}.yaml"
            synthetic.write_text(yaml.safe_dump(synthetic_study(n_systems), sort_keys=False),
                                 encoding="utf-8")
            cases.append((f"synthetic ({n_systems} systems)", ["--configfile", str(synthetic)]))
    for n, (label, extra) in enumerate(cases):
        _, dry = startup.cpu_of(["-n", *extra], work)
        jobs = startup.jobs_of(dry)
        bare = startup.bare_jobs(jobs, work.parent / f"bare-{n}", action=bare_action)
        what = f"{label}, {len(jobs)} jobs{startup.bare_label(bare_action)}"
        startup.compare(f"dry run, {what}", (["-n", *extra], work), (["-n"], bare), repeats)
        if noop and (n == 0 or not small):  # a smoke run: the default's only
            measure_noop(what, jobs, extra, work, bare, repeats)
        if record:
            _ab.record("scale")


def measure_noop(label: str, jobs: list, extra: list[str], work: Path, bare: Path,
                 repeats: int) -> None:
    """A no-op rerun after a run: every output made (empty, newer than its inputs) and the
    jobs' metadata recorded by ``snakemake --touch --forceall``, as a run leaves them; then
    ``snakemake`` on each side finds nothing to do."""
    for side in (work, bare):
        startup.materialise(jobs, side)
        # the greedy scheduler for this setup step only: the default ILP one solves a
        # problem over every ready job each round (thousands here), which made recording
        # 5,000 jobs take longer than the measurement; the reruns below schedule nothing
        startup.cpu_of(["--touch", "--forceall", "--cores", "1", "--scheduler", "greedy",
                        *(extra if side == work else [])], side,
                       command=startup.TOUCH_SNAKEMAKE)

    def rerun(where: Path, args: list[str]) -> float:
        seconds, out = startup.cpu_of(["--cores", "1", *args], where)
        if "Nothing to be done" not in out:
            raise _ab.SideFailed("gendermt" if where == work else "bare",
                                 f"the no-op rerun in {where} would run jobs:\n{out[-3000:]}")
        return seconds

    _ab.compare(f"no-op rerun, {label}", lambda: rerun(work, extra),
                lambda: rerun(bare, []), repeats)


def measure_default(work: Path, cores: str) -> None:
    run_s, out = snakemake("--cores", cores, cwd=work)
    jobs = total_jobs(out)
    noop_s, out = snakemake("--cores", cores, cwd=work)
    assert "Nothing to be done" in out, out[-2000:]
    print(f"default run from scratch: {jobs} jobs, {run_s:.1f} s on {cores} cores")
    print(f"no-op rerun:              {noop_s:.1f} s")


GAMBIT_TEXTS, GAMBIT_SYSTEMS, GAMBIT_LANGS = 10_000, 6, ["fr", "de"]

CHILD = """
import resource, sys, time
from gendermt.benchmarks.fairtranslate.tables import build_tables
data, out, systems = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
# each run's score file as the rule passes it: {system, prompt, path}
scores = [{"system": p.split("/")[-2], "prompt": "baseline", "path": p} for p in sys.argv[4:]]
outputs = {k: f"{out}/{k}.{ext}" for k in ["by_gender", "by_stereotype", "by_ambiguity",
           "anova", "dataset"] for ext in ["csv"]}
outputs.update({f"{k}_md": f"{out}/{k}.md" for k in ["by_gender", "by_stereotype",
                "by_ambiguity", "anova", "dataset"]})
t = time.perf_counter()
build_tables(data, scores, outputs, systems, ["baseline"], ["bleu", "chrf"])
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def measure_analysis_memory(work: Path, texts: int = GAMBIT_TEXTS) -> None:
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    rows = []
    genders, ambiguity = ["female", "male", "inclusive"], ["ambiguous", "unambiguous"]
    stereotype = ["female-stereotyped", "male-stereotyped", "neutral"]
    for lang in GAMBIT_LANGS:
        for i in range(texts):
            rows.append({"item_id": f"{lang}-{i:05d}", "example_id": f"{lang}-{i // 3:05d}",
                         "row": len(rows), "src_lang": "en", "tgt_lang": lang,
                         "source": f"The engineer number {i} finished the report.",
                         "reference": f"reference {i}", "gender": genders[i % 3],
                         "ambiguity": ambiguity[(i // 3) % 2],
                         "stereotype": stereotype[(i // 6) % 3],
                         "occupation": ["x", "y", "z"], "ref_female": "f", "ref_male": "m",
                         "ref_inclusive": "i"})
    data = pd.DataFrame(rows)
    bench = work / "gambit-size"
    (bench / "tables").mkdir(parents=True)
    data.to_parquet(bench / "data.parquet", index=False)
    systems = [f"sys{i}" for i in range(GAMBIT_SYSTEMS)]
    files = []
    for system in systems:
        frame = pd.concat([pd.DataFrame({"item_id": data["item_id"], "metric": metric,
                                         "score": rng.uniform(0, 100, len(data)),
                                         "signature": f"{metric}|synthetic"})
                           for metric in ["bleu", "chrf"]], ignore_index=True)
        path = bench / "scores" / system / "baseline.parquet"
        path.parent.mkdir(parents=True)
        frame.to_parquet(path, index=False)
        files.append(str(path))
    proc = subprocess.run([sys.executable, "-c", CHILD, str(bench / "data.parquet"),
                           str(bench / "tables"), ",".join(systems), *files],
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "src")})
    if proc.returncode != 0:
        raise SystemExit(f"the tables failed on the synthetic input:\n{proc.stderr[-4000:]}")
    seconds, rss_kb = proc.stdout.split()[-2:]
    print(f"FairTranslate tables on a synthetic input ({texts} texts × "
          f"{GAMBIT_SYSTEMS} systems × {len(GAMBIT_LANGS)} languages = "
          f"{len(data) * GAMBIT_SYSTEMS} translations, 2 metrics): peak RSS "
          f"{int(rss_kb) / 1024:.0f} MB, {float(seconds):.1f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _ab.add_arguments(parser)
    parser.add_argument("--cores", default="2")
    parser.add_argument("--jobs", default="1000,5000",
                        help="sizes of the synthetic studies, in jobs (comma-separated)")
    parser.add_argument("--no-noop", action="store_true", help="no no-op reruns")
    parser.add_argument("--no-studies", action="store_true",
                        help="the default and the synthetic sizes only")
    parser.add_argument("--skip-run", action="store_true", help="no default run (DAGs, memory)")
    startup.add_bare_argument(parser)
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.jobs.split(",") if x] if not args.small else [0]
    with tempfile.TemporaryDirectory() as tmp:
        work = copy_project(Path(tmp) / "project")
        shared = ROOT.parent / "shared"
        if shared.is_dir():  # studies read ../shared/data/...
            (Path(tmp) / "shared").symlink_to(shared)
        measure_dags(work, sizes, 1 if args.small else args.repeats, args.small,
                     noop=not args.no_noop, studies_too=not args.no_studies,
                     record=args.record and not args.small, bare_action=args.bare)
        if not (args.skip_run or args.small):  # from scratch: a copy with no outputs
            measure_default(copy_project(Path(tmp) / "project-run"), args.cores)
        measure_analysis_memory(Path(tmp), 300 if args.small else GAMBIT_TEXTS)
    return _ab.finish("scale", args)


if __name__ == "__main__":
    sys.exit(main())
