"""The declared benchmarks' contracts (see :mod:`gendermt.benchmarks.contract`): one
:class:`Benchmark` per benchmark file ``resources/benchmarks/<name>/benchmark.yaml``, all
served by this package's generic stages and one rule file (docs/declared-benchmarks.md).
Reading the registry reads each file's heading only (name, label, order); the whole file is
checked when the benchmark is configured or scored."""

from gendermt.benchmarks.contract import Benchmark, Scorecard
from gendermt.benchmarks.declared.spec import heading, spec_files

_PKG = "gendermt.benchmarks.declared"


def _contract(path) -> Benchmark:
    head = heading(path)
    name, label = head["name"], head["label"]
    return Benchmark(
        name=name,
        label=label,
        order=head["order"],
        package=_PKG,
        rules="workflow/rules/declared.smk",
        data_keys=("data_root/",),
        data_stage_keys=("data_root/",),
        check=f"{_PKG}.config:check_{name}",
        templates=f"{_PKG}.config:templates_{name}",
        cli=f"{_PKG}.cli",
        scorecard=Scorecard(
            key=name,
            label=label,
            tables=(f"{name}/tables/summary.csv",),
            reader=f"{_PKG}.scorecard:read_{name}",
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


BENCHMARKS = tuple(_contract(path) for path in spec_files())
