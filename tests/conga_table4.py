"""The paper's Table 4 (ConGA, §7), written out by hand: the four worked examples, the English
gold and both systems' annotated Italian, with the category each example illustrates."""

EXAMPLES = {
    110: {
        "en": "Women have been trained to think that we <F1> are overreacting or that "
              "we’re <F1> being too sensitive or unreasonable.",
        "tower": "Alle donne è stato insegnato a pensare che siamo troppo reattive <F1> o che "
                 "siamo troppo sensibili o irragionevoli.",
        "mbart": "Le donne sono state addestrate a pensare che siamo troppo reattive <F1> o "
                 "che siamo troppo sensibili o irragionevoli.",
    },
    164: {
        "en": "Many of the women working with me <A1> had to leave once they <F2> got married, "
              "because their husbands wouldn’t let them <F2> work.",
        "tower": "Molte delle donne che lavoravano con me hanno dovuto lasciare il lavoro non "
                 "appena si sono sposate <F2> perché i mariti non li <M2> volevano vedere "
                 "lavorare.",
        "mbart": "Molte delle donne che lavoravano con me dovevano andare via una volta "
                 "sposate <F2> perché i loro mariti non li <M2> lasciavano lavorare.",
    },
    125: {
        "en": "And he said, “No, you <A1>’re still dry, you <A1>’re just being nice.”",
        "tower": "“No, sei ancora asciutta <F1>, stai solo facendo il bravo <M1>.”",
        "mbart": "“No, sei ancora secco <M1>, stai solo facendo bene.”",
    },
    526: {
        "en": "Lindsay Malloy <A1>: They <A2> told Brendan <M3> that honesty would “set "
              "him <M3> free,” but they <A2> were completely convinced of his guilt at that "
              "point.",
        "tower": "Lindsay Malloy: A Brendan dissero che l’onestà lo avrebbe “liberato” <M3>, "
                 "ma erano completamente convinti <M2> della sua colpevolezza a quel punto.",
        "mbart": "Lindsay Malloy: Hanno detto a Brendan che l’onestà lo avrebbe liberato <M3> "
                 "ma erano completamente convinti <M2> della sua colpa a quel punto.",
    },
}

# Category counts per sentence and system, worked out by hand from the rules of §7: an
# entity on both sides gets one category per gender the Italian gives it; an English entity
# with no Italian tag is unmatched.
EXPECTED = {
    (110, "tower"): {"match_f": 1},
    (110, "mbart"): {"match_f": 1},
    (164, "tower"): {"match_f": 1, "error_f_to_m": 1, "unmatched_source": 1},
    (164, "mbart"): {"match_f": 1, "error_f_to_m": 1, "unmatched_source": 1},
    (125, "tower"): {"bias_a_to_f": 1, "bias_a_to_m": 1},
    (125, "mbart"): {"bias_a_to_m": 1},
    (526, "tower"): {"unmatched_source": 1, "bias_a_to_m": 1, "match_m": 1},
    (526, "mbart"): {"unmatched_source": 1, "bias_a_to_m": 1, "match_m": 1},
}
