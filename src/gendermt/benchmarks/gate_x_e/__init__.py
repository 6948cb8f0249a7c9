"""GATE X-E (Rarrick et al. 2024): gender rewriting of translations into English from
Turkish, Hungarian, Finnish and Persian."""

# Folder name in the published repository → (ISO code, file-name code).
LANGUAGES = {
    "turkish": ("tr", "tur"),
    "hungarian": ("hu", "hun"),
    "finnish": ("fi", "fin"),
    "farsi": ("fa", "farsi"),
}
GENDERS = ("feminine", "masculine", "neutral")
SHORT = {"feminine": "f", "masculine": "m", "neutral": "n"}
# Original-translation subsets of §4.2 (Table 2's top header).
SUBSETS = ("feminine", "masculine", "mixed", "negative")
CATEGORIES = ("Pronoun-Only", "Gendered-Noun", "Negative")
# Table 2's row groups.
SUBTYPES = ["Overall", "Pronoun-Only", "Gendered-Noun"]
