"""ConGA (Rescigno, Vanmassenhove & Monti, LREC 2026) on gENder-IT (en→it).

English gold: contextual gender of animate referents, ``<M#>``/``<F#>``/``<A#>`` after the
word; Italian system outputs: grammatical gender realisations, ``<M#>``/``<F#>`` only, with
the English entity index. Entities are compared by index, sentence by sentence (§7).
"""

SOURCE_LETTERS = ("M", "F", "A")
TARGET_LETTERS = ("M", "F")
# The paper's categories (§7, Table 5) and the CLI's JSON keys, in that order.
CATEGORIES = ("match_m", "match_f", "error_m_to_f", "error_f_to_m", "bias_a_to_m",
              "bias_a_to_f", "unmatched_source", "unmatched_target")
METRICS = ("precision_m", "recall_m", "f1_m", "precision_f", "recall_f", "f1_f")
# (source letter, target letter) → category of an entity present on both sides.
PAIR_CATEGORY = {("M", "M"): "match_m", ("F", "F"): "match_f", ("M", "F"): "error_m_to_f",
                 ("F", "M"): "error_f_to_m", ("A", "M"): "bias_a_to_m",
                 ("A", "F"): "bias_a_to_f"}
