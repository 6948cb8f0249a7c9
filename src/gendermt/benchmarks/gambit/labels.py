"""The three gender labels of a GAMBIT assignment (the paper's Masculine / Feminine / Not
Clear), shared by the detectors and the GRAPE tables."""

MASCULINE, FEMININE, NOT_CLEAR = "Masculine", "Feminine", "Not Clear"
LABELS = (MASCULINE, FEMININE, NOT_CLEAR)
