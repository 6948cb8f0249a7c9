"""``gendermt run --model BACKEND:MODEL``: one model on every benchmark of a study, in one
command (docs/run.md). It writes the run's config (``results/<run>/config.yaml``: the study's,
the chosen benchmarks, the system added to each with the prompts that fit it;
gendermt.config.own_system), checks what can be checked before any weights load, and runs
Snakemake on the workflow (the checkout's, or the copy packaged in the wheel:
gendermt.config.project) in the current folder, then writes the report."""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path


def _epilog() -> str:
    from gendermt.core import backends

    lines = ["One example per backend (BACKEND:MODEL; settings as --option key=value, read "
             "as YAML):", ""]
    for backend, about in backends.declared().items():  # each backend's own example
        what, command = about.example
        lines += [f"  {backend}: {what}",
                  f"    {command or f'gendermt run --model {backend}:MODEL'}"]
    lines += ["", "Results go to results/<study run>-<NAME>/ in the current folder (its config "
              "kept there as config.yaml, the report as report.html). Arguments after -- go to "
              "Snakemake, e.g. -- --forceall."]
    return "\n".join(lines)


def register(commands: argparse._SubParsersAction) -> None:
    cmd = commands.add_parser(
        "run", help="one model on every benchmark of a study (Snakemake, one command)",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_epilog(),
        description="Add one system (your model) to every chosen benchmark of a study, each "
                    "with the prompts that fit it (instructions for a chat LLM, few-shot for a "
                    "base LLM, every prompt's source once for MT), write the run's config and "
                    "run the workflow in the current folder, then its report. A benchmark the "
                    "model cannot take is named before anything loads.")
    cmd.add_argument("--model", required=True, metavar="BACKEND:MODEL",
                     help="the backend and its model (a Hub id, a folder, a .gguf file or "
                          "package/resource.gguf; see the examples)")
    cmd.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="a setting of the system (repeatable), e.g. max_new_tokens=64, "
                          "chat_template=none, gpus=1")
    cmd.add_argument("--name", default=None,
                     help="the system's name in tables (default: the model's file or folder "
                          "name); the run is <study run>-<NAME>")
    cmd.add_argument("--benchmarks", default="all", metavar="all|A,B",
                     help="the study's benchmarks to run (default: all that fit the model)")
    cmd.add_argument("--study", default="default", metavar="default|public|NAME|FILE",
                     help="the study: the default (samples, minutes), the public one (real "
                          "data, downloaded), a study of config/study/ by name, or a config "
                          "file")
    cmd.add_argument("--profile", default="local", choices=("local", "slurm"),
                     help="the Snakemake profile (profiles/; default local)")
    cmd.add_argument("--cores", type=int, default=None, metavar="N",
                     help="CPU cores for jobs (default: the profile's)")
    cmd.add_argument("--dry-run", action="store_true",
                     help="plan the jobs only (snakemake -n); the config is still written")
    cmd.add_argument("snakemake_args", nargs="*", metavar="-- SNAKEMAKE_ARG",
                     help="passed on to Snakemake")
    cmd.set_defaults(func=run)


def _write_config(path: Path, config: dict, command: str) -> None:
    import yaml

    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(config, sort_keys=False, allow_unicode=True, width=100,
                          default_flow_style=None)
    path.write_text(f"# written by: {command}\n# (gendermt run, docs/run.md): rerun it, or "
                    f"`snakemake --configfile {path}`\n" + text, encoding="utf-8")


def _workflow(root: Path, configfile: Path) -> list[str]:
    return [sys.executable, "-m", "snakemake", "--snakefile", str(root / "Snakefile"),
            "--directory", str(Path.cwd()), "--configfile", str(configfile)]


def snakemake_command(root: Path, configfile: Path, args: argparse.Namespace) -> list[str]:
    """The Snakemake command line: the workflow at ``root``, run in the current folder."""
    cmd = [*_workflow(root, configfile),
           "--workflow-profile", str(root / "profiles" / args.profile)]
    if args.cores:
        cmd += ["--cores", str(args.cores)]
    if args.dry_run:
        cmd += ["--dry-run"]
    extra = list(args.snakemake_args)
    return cmd + (extra[1:] if extra[:1] == ["--"] else extra)


def run(args: argparse.Namespace) -> int:
    from gendermt.config import own_system, project
    from gendermt.translation.backends.nmt_languages import check_benchmarks

    root = project.workflow_root()
    settings = own_system.parse_model(args.model, args.option)
    made = own_system.own_run(args.study, settings, args.name, args.benchmarks,
                              check_benchmarks)
    for note in made.notes:
        print(f"gendermt run: {note}", file=sys.stderr)
    here = Path.cwd().resolve() == root.resolve()
    config = made.config if here else own_system.anchored(made.config)
    configfile = Path("results") / made.run / "config.yaml"
    command = shlex.join(["gendermt", "run", *sys.argv[2:]]) if sys.argv[1:2] == ["run"] \
        else f"gendermt run --model {args.model}"
    _write_config(configfile, config, command)
    print(f"gendermt run: {made.system} ({made.style}) on {', '.join(config['benchmarks'])}; "
          f"config {configfile}", file=sys.stderr)
    cmd = snakemake_command(root, configfile, args)
    print("gendermt run: " + shlex.join(cmd), file=sys.stderr)
    code = subprocess.run(cmd, check=False).returncode
    if code or args.dry_run:
        return code
    report = Path("results") / made.run / "report.html"
    code = subprocess.run([*_workflow(root, configfile), "--report", str(report)],
                          check=False).returncode
    if not code:
        print(f"gendermt run: results in {configfile.parent}/, report {report}", file=sys.stderr)
    return code
