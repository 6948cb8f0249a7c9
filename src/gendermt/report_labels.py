"""Labels of the report's entries: benchmark, what the entry is, and the paper's table or
figure it reproduces — so that the report lists "Table 6 · ANOVA", not file paths, and its
search finds "ANOVA" or "GRAPE". Keyed by the path below the results folder; an entry not
listed here is named after its file (``by_gender`` → "By gender")."""

from __future__ import annotations

import re

# path below results/<run>/ (without extension) → (name, the paper's table / figure)
NAMES: dict[str, tuple[str, str]] = {
    "scorecard/scorecard": ("Scorecard", ""),
    "scorecard/legend": ("Scorecard legend", ""),
    "scorecard/scorecard.png": ("Scorecard heatmap", ""),
    "fairtranslate/tables/by_gender": ("Mean score by gender", "Tables 1–2 (tidy)"),
    "fairtranslate/tables/by_stereotype": ("Mean score by stereotype", "Tables 3, 8 (tidy)"),
    "fairtranslate/tables/by_ambiguity": ("Mean score by ambiguity", "Table 9 (tidy)"),
    "fairtranslate/tables/anova": ("ANOVA across genders", "Table 6 (tidy)"),
    "fairtranslate/tables/dataset": ("Data: rows per cell", ""),
    "fairtranslate/tables/gender_tests": ("Gender tests: ANOVA, RM-ANOVA, Tukey", ""),
    "fairtranslate/tables/gender_means_ci": ("Gender means with bootstrap CIs", ""),
    "fairtranslate/tables/paper_table1": ("Scores by gender and system", "Table 1"),
    "fairtranslate/tables/paper_table2": ("Score by prompting and gender", "Table 2"),
    "fairtranslate/tables/paper_table3": ("Score by stereotype / ambiguity and gender", "Table 3"),
    "fairtranslate/tables/paper_table6": ("ANOVA p-values", "Table 6"),
    "fairtranslate/tables/paper_table7": ("Score by prompting and gender (2nd metric)", "Table 7"),
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
    "fairtranslate/figures/they_by_ambiguity": ("Singular 'they' by ambiguity",
                                                "Figures 11–14"),
    "neogate/tables/zeroshot": ("Zero-shot: coverage, accuracy, CWA, mis-generation",
                                "Table 6"),
    "neogate/tables/fewshot": ("Few-shot results", "Figures 1–3 (numbers)"),
    "neogate/tables/extraction": ("Output extraction", ""),
    "neogate/tables/dataset": ("Data: annotations per split", "Table 3"),
    "neogate/figures/coverage": ("Coverage heatmap", "Figures 1–3"),
    "neogate/figures/accuracy": ("Accuracy heatmap", "Figures 1–3"),
    "neogate/figures/cwa": ("CWA heatmap", "Figures 1–3"),
    "neogate/figures/misgeneration": ("Mis-generation heatmap", "Figures 1–3"),
    "conga/tables/tags": ("Tags in the sources", "Table 3"),
    "conga/tables/categories": ("Entity categories (A→M, A→F, …)", "Table 5"),
    "conga/tables/metrics": ("Precision, recall, F1 per gender", "Table 6"),
    "conga/tables/coverage": ("Annotation coverage", ""),
    "conga/tables/sentences": ("Per-sentence log", ""),
    "conga/figures/ambiguous_resolution": ("Ambiguous entities: A→M vs A→F", ""),
    "gate-x-e/tables/accuracy": ("Rewriting accuracy", "Table 2"),
    "gate-x-e/tables/rewriting": ("Rewriting: accuracy, BLEU, WER", "Table 6"),
    "gate-x-e/tables/tuples": ("Test tuples", "Table 5"),
    "gate-x-e/figures/accuracy": ("Rewriting accuracy", "Table 2 (figure)"),
    "gate-x-e/tables/errors": ("Error types of wrong rewrites", "Table 3"),
    "gate-x-e/tables/corpus": ("Instances per label", "Table 4"),
    "gate-x-e/tables/swapped": ("Swapped f/m translations", ""),
    "gate-x-e/figures/lengths": ("Sentence lengths", "Figure 3"),
    "fairtranslate/tables/clean_outlier": ("Rows kept by clean_outlier", ""),
    "fairtranslate/tables/classifier_modes": ("Authors' vs corrected classifiers",
                                              "Table 4, §7, §8.2"),
    "winomt/tables/readers": ("Gender readers beside the paper", "Table 2"),
    "neogate-flores/tables/flores": ("Generic quality on FLORES", "Table 4"),
    "gate/tables/prf": ("Precision, recall, F0.5", ""),
    "gate/figures/f05": ("F0.5 per language and direction", ""),
    "winomt/tables/summary": ("Accuracy, ΔG, ΔS", ""),
    "winomt/figures/systems": ("Accuracy, ΔG, ΔS per system", ""),
    "gambit/tables/validation": ("Detector validation", "Table 1"),
    "gambit/tables/grape": ("GRAPE", "Table 2 (tidy)"),
    "gambit/tables/grape_groups": ("GRAPE by text type", ""),
    "gambit/tables/extremes": ("Extreme occupations", "Table 8 (tidy)"),
    "gambit/tables/stereotype_groups": ("Stereotype groups", "Table 3 (tidy)"),
    "gambit/tables/correlations": ("Correlations with labour data", "Table 9 (tidy)"),
    "gambit/tables/cross_lingual": ("Cross-lingual consistency", "Table 10"),
    "gambit/tables/intra_model_pairs": ("Intra-model consistency", ""),
    "gambit/tables/grape_paper": ("GRAPE", "Table 2"),
    "gambit/tables/extremes_paper": ("Extreme occupations", "Table 8"),
    "gambit/tables/stereotype_groups_paper": ("Stereotype groups", "Table 3"),
    "gambit/tables/correlations_paper": ("Correlations with labour data", "Table 9"),
    "gambit/tables/detector_agreement": ("Detector agreement", ""),
    "gambit/figures/grape_overview": ("GRAPE overview", ""),
}
PATTERNS: list[tuple[str, tuple[str, str]]] = [
    (r"gambit/tables/intra_model_(\w+)", ("Intra-model correlations, {0}", "Figures 2–3")),
    (r"gambit/figures/intra_model_(\w+)", ("Intra-model heatmap, {0}", "Figures 2–3")),
]


def _key(path: str) -> str:
    """``results[/<run>]/neogate/tables/zeroshot.csv`` → ``neogate/tables/zeroshot``."""
    stem = re.sub(r"\.[A-Za-z0-9]+$", "", str(path).replace("\\", "/"))
    parts = stem.split("/")
    for i, part in enumerate(parts):
        if part in ("tables", "figures", "scorecard"):
            return "/".join(parts[i - 1 if part != "scorecard" else i:])
    return stem


def name_of(path: str) -> tuple[str, str]:
    """(name, paper reference) of an entry."""
    key = _key(path)
    ext = str(path).rsplit(".", 1)[-1]
    if f"{key}.{ext}" in NAMES:  # a figure named like its table
        return NAMES[f"{key}.{ext}"]
    if key in NAMES:
        return NAMES[key]
    for pattern, (name, paper) in PATTERNS:
        match = re.fullmatch(pattern, key)
        if match:
            return name.format(*match.groups()), paper
    return key.rsplit("/", 1)[-1].replace("_", " ").capitalize(), ""


def title_of(path: str) -> str:
    """"Table 6 · ANOVA p-values": the paper's table or figure first, where there is one."""
    name, paper = name_of(path)
    return f"{paper} · {name}" if paper else name


def labels_for(path: str, category: str) -> dict[str, str]:
    """``labels`` of a report entry. The report sorts a subcategory's entries by the first
    label and shows one column per label; the benchmark (constant within a category) comes
    second, where the report would otherwise make a two-valued label a toggle."""
    return {"result": title_of(path), "benchmark": category}
