"""``gendermt score declared --spec FILE`` and ``gendermt score <name>`` (each declared
benchmark of the project): a system's outputs on one target language of a declared benchmark,
scored as the workflow's stage does (gendered-word accuracy, the file's BLEU/chrF, per gender
and the gap)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gendermt.core.errors import DatasetError, GenderMTError
from gendermt.data.json_output import print_json

_REGISTERED: set[int] = set()


def _options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", required=True, help="target language (one of the file's)")
    p.add_argument("--hyp", action="append", default=[], metavar="GENDER=FILE", required=True,
                   help="a gender's outputs, one per item of the language in the data's order "
                        "('-': stdin); once per gender of the benchmark")
    p.add_argument("--data-root", help="the folder the file's data paths are relative to "
                                       "(default: its data.root)")
    p.add_argument("--items", help="write the per-segment decisions here (.csv, .jsonl or "
                                   ".parquet)")
    p.add_argument("--json", action="store_true", help="print JSON")


def register(score_commands: argparse._SubParsersAction, metrics_type) -> None:
    """Once per parser, however many declared benchmarks name this module."""
    if id(score_commands) in _REGISTERED:
        return
    _REGISTERED.add(id(score_commands))
    from gendermt.benchmarks.declared.config import benchmark_files
    from gendermt.benchmarks.declared.spec import SPECS_DIR

    p = score_commands.add_parser(
        "declared", help="a benchmark declared in one YAML file (--spec)",
        description="Score a system's outputs on a benchmark declared in one YAML file "
                    "(docs/declared-benchmarks.md): MT-GenEval's gendered-word accuracy (an "
                    "output is wrong when it has a word of the other gender's reference or "
                    "word list that its own lacks; a pair is correct only when every "
                    "gender's output is) and the file's BLEU/chrF, per gender and the gap "
                    "(the first gender's minus the second's). Accuracies are fractions.")
    p.add_argument("--spec", required=True, help="the benchmark's YAML file")
    _options(p)
    p.set_defaults(func=run)
    for name, file in benchmark_files().items():
        shown = Path(file).relative_to(SPECS_DIR.parents[1])  # as from the project root
        p = score_commands.add_parser(
            name, help=f"the declared benchmark {name} ({shown})",
            description=f"Score a system's outputs on {name}, declared in {shown} (as "
                        "`gendermt score declared --spec` with that file).")
        _options(p)
        p.set_defaults(func=run, spec=file)


def outputs_by_gender(values: list[str], genders: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for value in values:
        gender, sep, path = value.partition("=")
        if not sep or not path:
            raise GenderMTError(f"--hyp {value}: write GENDER=FILE (genders: "
                                f"{', '.join(genders)})")
        if gender not in genders:
            raise GenderMTError(f"--hyp {value}: unknown gender {gender!r} (the benchmark's: "
                                f"{', '.join(genders)})")
        if gender in found:
            raise GenderMTError(f"--hyp {gender}= given twice")
        found[gender] = path
    missing = [g for g in genders if g not in found]
    if missing:
        raise GenderMTError(f"--hyp: no outputs for {', '.join(missing)} (give "
                            f"--hyp {missing[0]}=FILE)")
    if list(found.values()).count("-") > 1:
        raise GenderMTError("only one of the outputs can come from stdin ('-')")
    return found


def score(spec: dict[str, Any], lang: str, outputs: dict[str, str],
          root: str | None = None) -> tuple[dict[str, Any], Any]:
    """The JSON result and the per-segment decisions of one language's outputs."""
    from gendermt.benchmarks.declared.data import segments
    from gendermt.benchmarks.declared.evaluate import summarise
    from gendermt.data.textfiles import read_lines

    if lang not in spec["languages"]:
        raise GenderMTError(f"--lang {lang}: not among {spec['file']}'s languages "
                            f"({', '.join(spec['languages'])})")
    data = segments(spec, [lang], root)
    n = data["pair_id"].nunique()
    hyps: dict[str, str] = {}
    for gender, path in outputs.items():
        lines = read_lines(path, f"--hyp {gender}=")
        if len(lines) != n:
            raise DatasetError(path, f"{len(lines)} lines for the {n} items of {lang} (one "
                                     "output per item, in the data's order)")
        part = data[data["gender"] == gender]
        hyps.update(zip(part["item_id"], lines, strict=True))
    items, summary = summarise(data, [hyps[i] for i in data["item_id"]], spec["genders"],
                               spec["metrics"])
    result: dict[str, Any] = {"benchmark": spec["name"], "lang": lang,
                              "genders": list(spec["genders"])}
    if spec["data"].get("blank_cells") == "skip":  # items left out for a blank cell
        result["skipped_blank"] = data.attrs["skipped_blank"][lang]
    if summary["accuracy"]:
        result.update({k: v for k, v in summary["accuracy"][0].items() if k != "lang"})
        result["accuracy_signature"] = summary["accuracy_signature"]
    first, second = spec["genders"]
    for row in summary["quality"]:
        if row["reference"] != "own":
            continue
        suffix = "" if row["gender"] == "all" else f"_{row['gender']}"
        result[f"{row['metric']}{suffix}"] = row["score"]
        result[f"{row['metric']}_signature"] = row["signature"]
    for metric in dict.fromkeys(r["metric"] for r in summary["quality"]):
        result[f"{metric}_gap"] = result[f"{metric}_{first}"] - result[f"{metric}_{second}"]
    from gendermt.scoring.output_quality import add_quality, output_quality

    # an untranslated or wrong-language output has no gendered word to be wrong (issue 48)
    result = add_quality(result, output_quality([hyps[i] for i in data["item_id"]], lang,
                                                data["source"].astype(str).tolist()))
    return result, items


def run(args: argparse.Namespace) -> int:
    from gendermt.benchmarks.declared.spec import load
    from gendermt.benchmarks.mt_geneval.cli import write_items

    if args.items and Path(args.items).suffix.lower() not in (".csv", ".jsonl", ".parquet"):
        raise GenderMTError(f"--items {args.items}: write .csv, .jsonl or .parquet")
    spec = load(args.spec)
    outputs = outputs_by_gender(args.hyp, list(spec["genders"]))
    result, items = score(spec, args.lang, outputs, args.data_root)
    if args.items:
        write_items(items, args.items)
    if args.json:
        print_json(result, getattr(args, "precision", None))
    else:
        for key, value in result.items():
            print(f"{key:>26}: {value:.4f}" if isinstance(value, float)
                  else f"{key:>26}: {value}")
    return 0
