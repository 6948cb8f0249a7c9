"""Neo-GATE (Piergentili et al., EAMT 2024): en→it translation with gender-inclusive
neomorphemes, for any neomorpheme paradigm given as a tagset mapping."""

HUB_ID = "FBK-MT/Neo-GATE"
COLUMNS = ("#", "GATE-ID", "SOURCE", "REF-M", "REF-F", "REF-TAGGED", "ANNOTATION")
# The corpus metrics, in the paper's order (Table 6: COV, ACC, CWA, MIS), all in percent.
METRICS = ("coverage", "accuracy", "cwa", "misgeneration")
COUNTS = ("n_annotations", "matched", "correct", "masculine", "feminine", "misgenerations")
