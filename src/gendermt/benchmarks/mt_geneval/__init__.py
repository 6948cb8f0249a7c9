"""MT-GenEval (Currey et al., EMNLP 2022): gender accuracy of English→ar/de/es/fr/hi/it/pt/ru
translations on a counterfactual sentence set and a contextual set, scored as the benchmark's
official ``accuracy_metric.py`` does."""

# The eight target languages of the official scorer (the release also has Dutch contextual
# files, which the scorer does not accept; the loader reads them, the CLI follows the scorer).
LANGUAGES = ("ar", "de", "es", "fr", "hi", "it", "pt", "ru")
SPLITS = ("dev", "test")
SETS = ("counterfactual", "contextual")
GENDERS = ("masculine", "feminine")
