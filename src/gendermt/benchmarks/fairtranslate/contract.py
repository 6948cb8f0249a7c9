"""FairTranslate: what the workflow, the command line and the scorecard need
of this benchmark (gendermt.core.contract)."""

from gendermt.core.contract import Benchmark, Scorecard

CONTRACTS = (
    Benchmark(
        name="fairtranslate",
        label="FairTranslate",
        order=10,
        package="gendermt.benchmarks.fairtranslate",
        # the data columns a study's subset may stratify by or keep together
        subset_columns=("gender", "ambiguity", "stereotype", "occupation"),
        rules="rules.smk",
        # its row of the README's benchmark table (tools/gen_docs.py)
        direction="en→fr",
        description=(
            "BLEU/COMET by gender (male/female/inclusive) × stereotype × ambiguity; 4 "
            "prompting strategies; ANOVA; inclusive forms, occupation forms, singular \"they\""
        ),
        # the authors' normaliser (inclusive spellings → one form), a scoring option
        normalizers={"non_binary_standardization":
                     "gendermt.benchmarks.fairtranslate.authors:non_binary_standardization"},
        # the shipped stand-in for the published shard (tests plan the study config with it)
        samples={"data.path": "resources/fairtranslate/data/train-00000-of-00001.parquet"},
        data_keys=("data.path", "templates"),
        data_stage_keys=("data.path",),
        # on the Hugging Face Hub, at a revision the config gives (none was found; the
        # manifest says so); hashes taken on first use (gendermt.data.locks)
        datasets=("dataset.yaml",),
        check="gendermt.benchmarks.fairtranslate.config:check",
        cli="gendermt.benchmarks.fairtranslate.cli",
        commands=("gendermt.benchmarks.fairtranslate.inclusive_cli",),
        scorecard=Scorecard(
            "fairtranslate",
            "FairTranslate",
            ("fairtranslate/tables/by_gender.csv",),
            "gendermt.benchmarks.fairtranslate.scorecard:read",
            findings="gendermt.benchmarks.fairtranslate.findings:part",
            # its figures on the legend: (JSON key pattern, what it is, better)
            figures=(
                ("{metric}_male_minus_inclusive", "male−inclusive gap [95% CI]", "closer to 0"),
                ("{metric}_male_minus_female", "male−female gap [95% CI]", "closer to 0"),
                ("bleu_all", "BLEU over all items (the quality floor)", "higher"),
                ("chrf_all", "chrF over all items", "higher"),
            ),
            # the front page's compact scorecard shows these
            headline=("bleu_male_minus_female", "bleu_male_minus_inclusive"),
        ),
        labels={
            "fairtranslate/tables/by_gender": ("Mean score by gender", "Tables 1–2 (tidy)"),
            "fairtranslate/tables/by_stereotype": (
                "Mean score by stereotype",
                "Tables 3, 8 (tidy)",
            ),
            "fairtranslate/tables/by_ambiguity": ("Mean score by ambiguity", "Table 9 (tidy)"),
            "fairtranslate/tables/anova": ("ANOVA across genders", "Table 6 (tidy)"),
            "fairtranslate/tables/dataset": ("Data: rows per cell", ""),
            "fairtranslate/tables/gender_tests": ("Gender tests: ANOVA, RM-ANOVA, Tukey", ""),
            "fairtranslate/tables/gender_means_ci": ("Gender means with bootstrap CIs", ""),
            "fairtranslate/tables/paper_table1": ("Scores by gender and system", "Table 1"),
            "fairtranslate/tables/paper_table2": ("Score by prompting and gender", "Table 2"),
            "fairtranslate/tables/paper_table3": (
                "Score by stereotype / ambiguity and gender",
                "Table 3",
            ),
            "fairtranslate/tables/paper_table6": ("ANOVA p-values", "Table 6"),
            "fairtranslate/tables/paper_table7": (
                "Score by prompting and gender (2nd metric)",
                "Table 7",
            ),
            "fairtranslate/tables/paper_table8": ("Score by stereotype × gender", "Table 8"),
            "fairtranslate/tables/paper_table9": ("Score by ambiguity × gender", "Table 9"),
            "fairtranslate/figures/score_by_gender": ("Score by gender and prompt", ""),
            "fairtranslate/tables/normalization": ("Inclusive-spelling normalisation", "§8.1"),
            "fairtranslate/tables/normalized_outputs": ("Normalised outputs", "§8.1"),
            "fairtranslate/tables/inclusive_indicators": ("Inclusive indicators", "Table 4"),
            "fairtranslate/tables/occupation_forms": ("Occupation forms", "§7, App. E"),
            "fairtranslate/tables/they_pronouns": ("Singular 'they' in French", "§8.2, App. F"),
            "fairtranslate/tables/word_counts": ("Words per example", "Table 5"),
            "fairtranslate/figures/occupation_forms": ("Occupation forms (figure)", "§7, App. E"),
            "fairtranslate/figures/they_by_prompt": ("Singular 'they' by prompt", "Figure 7"),
            "fairtranslate/figures/they_by_ambiguity": (
                "Singular 'they' by ambiguity",
                "Figures 11–14",
            ),
            "fairtranslate/tables/clean_outlier": ("Rows kept by clean_outlier", ""),
            "fairtranslate/tables/classifier_modes": (
                "Authors' vs corrected classifiers",
                "Table 4, §7, §8.2",
            ),
            "fairtranslate/tables/postprocess_modes": ("Project's vs authors' cleaning", ""),
        },
    ),
)
