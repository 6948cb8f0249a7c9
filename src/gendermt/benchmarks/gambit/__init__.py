"""GAMBIT with GRAPE (Mastromichalakis et al. 2025):
gender assignment of ambiguous occupations in en→fr/el translation."""
