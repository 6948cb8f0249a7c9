"""The declared benchmarks' contracts (see :mod:`gendermt.core.contract`): one
:class:`Benchmark` per benchmark file ``resources/benchmarks/<name>/benchmark.yaml``, and per
file a config keeps outside the project (``benchmarks.<name>.file``:
:mod:`gendermt.config.benchmark_files`), all served by this package's generic stages and one
rule file (docs/declared-benchmarks.md). Reading the registry reads each file's heading only
(name, label, order; here, since a contract imports nothing of its package); the whole file
is checked when the benchmark is configured or scored (``spec.load``)."""

import pathlib

import yaml

import gendermt.config.benchmark_files
import gendermt.config.project
import gendermt.core.errors
from gendermt.core.contract import Benchmark, Scorecard

_PKG = "gendermt.benchmarks.declared"
#: The project's declared benchmarks: one folder each, holding ``benchmark.yaml``.
#: (the checkout's resources/, or the copy packaged in the wheel: gendermt.config.project)
SPECS_DIR = gendermt.config.project.project_file("resources/benchmarks")
SPEC_FILE = gendermt.config.benchmark_files.SPEC_FILE
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def spec_files(folder: pathlib.Path = SPECS_DIR) -> list[pathlib.Path]:
    """The declared benchmarks' files, by folder name."""
    return sorted(folder.glob(f"*/{SPEC_FILE}")) if folder.is_dir() else []


def declared_files() -> list[pathlib.Path]:
    """The project's benchmark files, then those a config keeps outside the project (put in
    the environment by ``gendermt.config.benchmark_files.include``), each once."""
    outside = gendermt.config.benchmark_files.included()
    return list({path.resolve(): path for path in [*spec_files(), *outside]}.values())


def read_file(path: pathlib.Path) -> dict:
    """A benchmark file's YAML, with one-line errors naming it."""
    error = gendermt.core.errors.GenderMTError
    if not path.is_file():
        raise error(f"{path}: benchmark file not found")
    try:
        spec = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise error(f"{path}: not a readable YAML file: {' '.join(str(exc).split())}") from None
    if not isinstance(spec, dict):
        raise error(f"{path}: not a mapping of keys (name, label, languages, genders, data, "
                    "templates, metrics)")
    return spec


def heading(path) -> dict:
    """What the registry needs of a file (``name``, ``label``, ``order``), read without the
    whole check (it imports the schema validator; reading the registry is part of every
    start-up)."""
    file = pathlib.Path(path)
    spec = read_file(file)
    error = gendermt.core.errors.GenderMTError
    for key in ("name", "label"):
        if not isinstance(spec.get(key), str) or not spec[key]:
            raise error(f"{file}: {key}: missing (a declared benchmark names its config key "
                        "and its label)")
    if file.parent.name != spec["name"]:
        raise error(f"{file}: name: {spec['name']!r} is not its folder's name "
                    f"{file.parent.name!r}")
    order = spec.get("order", 900)
    if not isinstance(order, int):
        raise error(f"{file}: order: {order!r} is not a whole number")
    # the README's benchmark table (tools/gen_docs.py): direction and the description's first
    # sentence, as the file states them (checked in full when configured)
    langs = spec.get("languages") if isinstance(spec.get("languages"), list) else []
    direction = f"{spec.get('source_language', 'en')}→{'/'.join(map(str, langs))}"
    what = " ".join(str(spec.get("description") or spec["label"]).split()).split(". ")[0]
    return {"name": spec["name"], "label": spec["label"], "order": order, "file": str(file),
            "direction": direction, "description": f"declared in one file: {what}"}


def _contract(path: pathlib.Path) -> Benchmark:
    head = heading(path)
    name, label = head["name"], head["label"]
    return Benchmark(
        name=name,
        label=label,
        order=head["order"],
        package=_PKG,
        # the data columns a study's subset may stratify by or keep together
        subset_columns=("pair_id", "gender", "line"),
        direction=head["direction"],
        description=head["description"],
        page="../declared-benchmarks.md",
        rules="rules.smk",
        data_keys=("data_root/",),
        data_stage_keys=("data_root/",),
        check=f"{_PKG}.config:check_{name}",
        source_texts=f"{_PKG}.sources:source_texts",
        data_files=f"{_PKG}.sources:data_files",
        templates=f"{_PKG}.config:templates_{name}",
        cli=f"{_PKG}.cli",
        scorecard=Scorecard(
            key=name,
            label=label,
            tables=(f"{name}/tables/summary.csv",),
            reader=f"{_PKG}.scorecard:read_{name}",
            figures=(
                ("gap_{lang}", "gendered-word accuracy gap, first gender − second",
                 "closer to 0"),
                ("correct_word_rate_{lang}", "outputs with a right-gender word, %", "higher"),
                ("{metric}_all", "BLEU (else chrF) against each segment's own reference (the "
                 "quality floor)", "higher"),
            ),
            # the front page's compact scorecard shows these
            headline=("gap_{lang}",),
        ),
        labels={
            f"{name}/tables/accuracy": (f"{label}: gendered-word accuracy per language and "
                                        "gender", ""),
            f"{name}/tables/quality": (f"{label}: BLEU/chrF/COMET against each gender's "
                                       "reference", ""),
            f"{name}/tables/summary": (f"{label}: headline figures per language", ""),
            f"{name}/figures/accuracy": (f"{label}: accuracy by language and gender", ""),
        },
    )


CONTRACTS = tuple(_contract(path) for path in declared_files())
