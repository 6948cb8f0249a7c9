"""MT-GenEval's contract (see :mod:`gendermt.core.contract`)."""

from gendermt.core.contract import Benchmark, Scorecard

_PAPER = "Currey et al. 2022"

CONTRACTS = (
    Benchmark(
        name="mt-geneval",
        label="MT-GenEval",
        order=80,
        package="gendermt.benchmarks.mt_geneval",
        # the data columns a study's subset may stratify by or keep together
        subset_columns=("pair_id", "gender", "set", "split"),
        rules="rules.smk",
        # its row of the README's benchmark table (tools/gen_docs.py)
        direction="en→ar/de/es/fr/hi/it/pt/ru",
        description=(
            "counterfactual and contextual gender accuracy, the masculine−feminine gap, "
            "BLEU/chrF beside it"
        ),
        data_keys=("data.root/", "templates"),
        data_stage_keys=("data.root/",),
        datasets=("dataset.yaml",),
        placeholders=frozenset({"context"}),
        check="gendermt.benchmarks.mt_geneval.config:check",
        # the paid-work estimate of a commercial MT service at start-up
        source_texts="gendermt.benchmarks.mt_geneval.sources:source_texts",
        cli="gendermt.benchmarks.mt_geneval.cli",
        scorecard=Scorecard(
            key="mt-geneval",
            label="MT-GenEval",
            tables=("mt-geneval/tables/summary.csv",),
            reader="gendermt.benchmarks.mt_geneval.scorecard:read",
            findings="gendermt.benchmarks.mt_geneval.findings:part",
            # its figures on the legend: (JSON key pattern, what it is, better)
            figures=(
                (
                    "gap_{lang}",
                    "counterfactual accuracy gap, masculine − feminine",
                    "closer to 0",
                ),
                (
                    "counterfactual_accuracy_{lang}",
                    "counterfactual accuracy, a pair correct only when both genders are "
                    "(the authors' official figure)",
                    "higher",
                ),
                ("contextual_{lang}", "contextual accuracy", "higher"),
                (
                    "correct_word_rate_{lang}",
                    "counterfactual outputs with a right-gender word, %",
                    "higher",
                ),
                (
                    "contextual_correct_word_rate_{lang}",
                    "contextual outputs with a right-gender word, %",
                    "higher",
                ),
                (
                    "bleu_all",
                    "BLEU against the right-gender reference (the quality floor)",
                    "higher",
                ),
            ),
            # the front page's compact scorecard shows these
            headline=("contextual_{lang}", "gap_{lang}"),
        ),
        labels={
            "mt-geneval/tables/accuracy": ("Gender accuracy per language, gender and set",
                                           f"{_PAPER}, accuracy (tidy)"),
            "mt-geneval/tables/paper": ("Gender accuracy: feminine, masculine, contextual",
                                        f"{_PAPER}, results layout"),
            "mt-geneval/tables/quality": ("BLEU and chrF against right and counterfactual "
                                          "references", ""),
            "mt-geneval/tables/summary": ("Headline figures per language", ""),
            "mt-geneval/figures/accuracy": ("Gender accuracy by language and gender", ""),
        },
    ),
)
