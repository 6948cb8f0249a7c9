"""Writes the project's GATE sample (data/{ES,FR,IT}/XX_2_variants.tsv).

The sentences are this project's own, in GATE's exact published layout: tab-separated with a
header, labels `;`-joined (with a duplicated label, as in the data), key words with `=` for
coreference and brackets for head nouns, a `data_split` column in ES and IT and none in FR
(as published), and a row whose two variants are the same. Run from the project root:
python resources/gate/build_sample.py
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
HEADER = ["labels", "source", "f", "m", "kw_s", "kw_f", "kw_m", "data_split"]

ES = [
    ["SUBJ;PROF", "The doctor arrived late.", "La doctora llegó tarde.", "El doctor llegó tarde.", "doctor", "La [doctora]", "El [doctor]", "dev"],
    ["DOBJ;PROF;PROF", "I called the lawyer yesterday.", "Llamé a la abogada ayer.", "Llamé al abogado ayer.", "lawyer", "a la [abogada]", "al [abogado]", "dev"],
    ["SUBJ;FAM;PLUR", "My cousins are very tall.", "Mis primas son muy altas.", "Mis primos son muy altos.", "cousins", "[primas]=altas", "[primos]=altos", "test"],
    ["QUES;SUBJ;NAT", "Is the Mexican tired?", "¿Está cansada la mexicana?", "¿Está cansado el mexicano?", "Mexican", "cansada=la [mexicana]", "cansado=el [mexicano]", "test"],
    ["SUBJ;PROF", "The journalist wrote the story.", "La periodista escribió la historia.", "El periodista escribió la historia.", "journalist", "La [periodista]", "El [periodista]", "test"],
    ["APRD;SUBJ;PERS;DROP", "They are ready.", "(Ellas) están listas.", "(Ellos) están listos.", "(they)", "listas", "listos", "dev"],
]
FR = [
    ["SUBJ;PROF", "The teacher is here.", "L'enseignante est là.", "L'enseignant est là.", "teacher", "[enseignante]", "[enseignant]"],
    ["DOBJ;FAM", "I saw your cousin.", "J'ai vu ta cousine.", "J'ai vu ton cousin.", "cousin", "ta [cousine]", "ton [cousin]"],
    ["SUBJ;PROF;PLUR", "The nurses are tired.", "Les infirmières sont fatiguées.", "Les infirmiers sont fatigués.", "nurses", "Les [infirmières]=fatiguées", "Les [infirmiers]=fatigués"],
    ["SUBJ;PROF;GLNK", "The minister spoke.", "La ministre a parlé.", "Le ministre a parlé.", "minister", "La [ministre]", "Le [ministre]"],
    ["SUBJ;NHUM;OTH", "The winner is happy.", "La gagnante est heureuse.", "Le gagnant est heureux.", "winner", "La [gagnante]=heureuse", "Le [gagnant]=heureux"],
]
IT = [
    ["SUBJ;PROF", "The director is busy.", "La direttrice è occupata.", "Il direttore è occupato.", "director", "La [direttrice]=occupata", "Il [direttore]=occupato", "dev"],
    ["IOBJ;FAM;INDF", "I wrote to a friend.", "Ho scritto a un'amica.", "Ho scritto a un amico.", "a friend", "un'[amica]", "un [amico]", "dev"],
    ["SUBJ;PROF;PLUR", "The students left.", "Le studentesse sono partite.", "Gli studenti sono partiti.", "students", "Le [studentesse]=partite", "Gli [studenti]=partiti", "test"],
    ["SUBJ;OTH", "The guest is welcome.", "L'ospite è benvenuta.", "L'ospite è benvenuto.", "guest", "benvenuta", "benvenuto", "test"],
    ["VOC;OTH", "Thank you, dear colleague.", "Grazie, cara collega.", "Grazie, caro collega.", "colleague", "cara [collega]", "caro [collega]", "test"],
    ["SUBJ;PROF", "The pilot landed.", "Il pilota è atterrato.", "Il pilota è atterrato.", "pilot", "Il [pilota]", "Il [pilota]", "dev"],
]


def write(lang: str, header: list[str], rows: list[list[str]]) -> None:
    path = HERE / "data" / lang / f"{lang}_2_variants.tsv"
    path.parent.mkdir(parents=True, exist_ok=True)
    for row in rows:
        assert len(row) == len(header), row
    lines = ["\t".join(header)] + ["\t".join(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write("ES", HEADER, ES)
    write("FR", HEADER[:-1], FR)
    write("IT", HEADER, IT)
