"""FairTranslate (Jourdan et al., FAccT 2025): en→fr, male / female / inclusive references."""

GENDERS = ("female", "male", "inclusive")  # the paper's table order
AMBIGUITIES = ("ambiguous", "unambiguous", "long unambiguous")
STEREOTYPES = ("female-stereotyped", "male-stereotyped", "gender-balanced")
HUB_ID = "Fannyjrd/FairTranslate_fr"
