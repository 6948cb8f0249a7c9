"""FairTranslate (Jourdan et al., FAccT 2025): en→fr, male / female / inclusive references."""

GENDERS = ("female", "male", "inclusive")  # the paper's table order
AMBIGUITIES = ("ambiguous", "unambiguous", "long unambiguous")
STEREOTYPES = ("female-stereotyped", "male-stereotyped", "gender-balanced")
HUB_ID = "Fannyjrd/FairTranslate_fr"
# One gender palette for every FairTranslate figure (the authors' Appendix E colours: male
# blue, female pink, inclusive green), keyed by gold gender and by occupation form.
GENDER_COLOURS = {"female": "#e7298a", "male": "#4393c3", "inclusive": "#5aae61"}
FORM_COLOURS = {"masculine": GENDER_COLOURS["male"], "feminine": GENDER_COLOURS["female"],
                "inclusive": GENDER_COLOURS["inclusive"]}
