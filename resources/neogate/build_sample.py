"""Write the project's Neo-GATE sample (test and dev) in the published TSV format.

Every sentence here was written by this project; only the format is Neo-GATE's. Run from the
project root: ``python resources/neogate/build_sample.py``. It checks each row before writing:
every annotated masculine / feminine / tagged form is a word of REF-M / REF-F / REF-TAGGED
(after the official evaluation's tokenisation), and every function word's anchor is found at
its distance in both gendered references.
"""

from __future__ import annotations

import csv
import string
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEADER = ["#", "GATE-ID", "SOURCE", "REF-M", "REF-F", "REF-TAGGED", "ANNOTATION"]

# (SOURCE, REF-M, REF-F, REF-TAGGED, ANNOTATION)
TEST = [
    ("The new teacher is a little absent-minded.",
     "Il nuovo insegnante è un po' distratto.",
     "La nuova insegnante è un po' distratta.",
     "<DARTS> nuov<ENDS> insegnante è un po' distratt<ENDS>.",
     "il la <DARTS> nuov=1;nuovo nuova nuov<ENDS>;distratto distratta distratt<ENDS>;"),
    ("My friends are rich.",
     "I miei amici sono ricchi.",
     "Le mie amiche sono ricche.",
     "<DARTP> <POSS1P> amic<ENDP> sono ricch<ENDP>.",
     "i le <DARTP> amic=2;miei mie <POSS1P> amic=1;amici amiche amic<ENDP>;"
     "ricchi ricche ricch<ENDP>;"),
    ("I hope the shaman can help us.",
     "Spero che lo sciamano possa aiutarci.",
     "Spero che la sciamana possa aiutarci.",
     "Spero che <DARTS> sciaman<ENDS> possa aiutarci.",
     "lo la <DARTS> sciaman=1;sciamano sciamana sciaman<ENDS>;"),
    ("The director of the school thanked the cooks.",
     "Il direttore della scuola ha ringraziato i cuochi.",
     "La direttrice della scuola ha ringraziato le cuoche.",
     "<DARTS> direttor<ENDS> della scuola ha ringraziato <DARTP> cuoc<ENDP>.",
     "il la <DARTS> dirett=1;direttore direttrice direttor<ENDS>;i le <DARTP> cuoc=1;"
     "cuochi cuoche cuoc<ENDP>;"),
    ("A neighbour of mine brought us a cake.",
     "Un mio vicino ci ha portato una torta.",
     "Una mia vicina ci ha portato una torta.",
     "<IART> <POSS1S> vicin<ENDS> ci ha portato una torta.",
     "un una <IART> vicin=2;mio mia <POSS1S> vicin=1;vicino vicina vicin<ENDS>;"),
    ("Some students asked the lawyers for advice.",
     "Degli studenti hanno chiesto consiglio agli avvocati.",
     "Delle studentesse hanno chiesto consiglio alle avvocate.",
     "<PARTP> student<ENDP> hanno chiesto consiglio <PREPaP> avvocat<ENDP>.",
     "degli delle <PARTP> student=1;studenti studentesse student<ENDP>;agli alle <PREPaP> "
     "avvocat=1;avvocati avvocate avvocat<ENDP>;"),
    ("That doctor is very kind; I will call them tomorrow.",
     "Quel medico è molto gentile; lo chiamerò domani.",
     "Quella medica è molto gentile; la chiamerò domani.",
     "<DADJquelS> medic<ENDS> è molto gentile; <PRONDOBJS> chiamerò domani.",
     "quel quella <DADJquelS> medic=1;medico medica medic<ENDS>;lo la <PRONDOBJS> "
     "chiamer=1;"),
    ("Each child drew a child.",
     "Ogni bambino ha disegnato un bambino.",
     "Ogni bambina ha disegnato una bambina.",
     "Ogni bambin<ENDS> ha disegnato <IART> bambin<ENDS>.",
     "bambino bambina bambin<ENDS>;un una <IART> bambin=1;bambino bambina bambin<ENDS>;"),
    ("Our cousins are busy today.",
     "I nostri cugini sono impegnati oggi.",
     "Le nostre cugine sono impegnate oggi.",
     "<DARTP> <POSS4P> cugin<ENDP> sono impegnat<ENDP> oggi.",
     "i le <DARTP> cugin=2;nostri nostre <POSS4P> cugin=1;cugini cugine cugin<ENDP>;"
     "impegnati impegnate impegnat<ENDP>;"),
    ("We received a letter from the mayor.",
     "Abbiamo ricevuto una lettera dal sindaco.",
     "Abbiamo ricevuto una lettera dalla sindaca.",
     "Abbiamo ricevuto una lettera <PREPdaS> sindac<ENDS>.",
     "dal dalla <PREPdaS> sindac=1;sindaco sindaca sindac<ENDS>;"),
    ("The photo of the engineers is on the wall.",
     "La foto degli ingegneri è sul muro.",
     "La foto delle ingegnere è sul muro.",
     "La foto <PREPdiP> ingegner<ENDP> è sul muro.",
     "degli delle <PREPdiP> ingegner=1;ingegneri ingegnere ingegner<ENDP>;"),
    ("These players are very fast.",
     "Questi giocatori sono molto veloci.",
     "Queste giocatrici sono molto veloci.",
     "<DADJquestP> giocator<ENDP> sono molto veloci.",
     "questi queste <DADJquestP> giocat=1;giocatori giocatrici giocator<ENDP>;"),
]

DEV = [
    ("My teacher is happy.",
     "Il mio insegnante è contento.",
     "La mia insegnante è contenta.",
     "<DARTS> <POSS1S> insegnante è content<ENDS>.",
     "il la <DARTS> insegnante=2;mio mia <POSS1S> insegnante=1;contento contenta "
     "content<ENDS>;"),
    ("The waiters are tired.",
     "I camerieri sono stanchi.",
     "Le cameriere sono stanche.",
     "<DARTP> camerier<ENDP> sono stanch<ENDP>.",
     "i le <DARTP> camerier=1;camerieri cameriere camerier<ENDP>;stanchi stanche "
     "stanch<ENDP>;"),
    ("A friend of yours called.",
     "Un tuo amico ha chiamato.",
     "Una tua amica ha chiamato.",
     "<IART> <POSS2S> amic<ENDS> ha chiamato.",
     "un una <IART> amic=2;tuo tua <POSS2S> amic=1;amico amica amic<ENDS>;"),
    ("I wrote to the students.",
     "Ho scritto agli studenti.",
     "Ho scritto alle studentesse.",
     "Ho scritto <PREPaP> student<ENDP>.",
     "agli alle <PREPaP> student=1;studenti studentesse student<ENDP>;"),
    ("The pilot is ready.",
     "Il pilota è pronto.",
     "La pilota è pronta.",
     "<DARTS> pilota è pront<ENDS>.",
     "il la <DARTS> pilota=1;pronto pronta pront<ENDS>;"),
    ("Their grandchildren are tall and blond.",
     "I loro nipoti sono alti e biondi.",
     "Le loro nipoti sono alte e bionde.",
     "<DARTP> loro nipoti sono alt<ENDP> e biond<ENDP>.",
     "i le <DARTP> nipoti=2;alti alte alt<ENDP>;biondi bionde biond<ENDP>;"),
    ("I saw that singer on television.",
     "Ho visto quel cantante in televisione.",
     "Ho visto quella cantante in televisione.",
     "Ho visto <DADJquelS> cantante in televisione.",
     "quel quella <DADJquelS> cantante=1;"),
    ("The drivers of the bus were kind to us.",
     "Gli autisti dell'autobus sono stati gentili con noi.",
     "Le autiste dell'autobus sono state gentili con noi.",
     "<DARTP> autist<ENDP> dell'autobus sono stat<ENDP> gentili con noi.",
     "gli le <DARTP> autist=1;autisti autiste autist<ENDP>;stati state stat<ENDP>;"),
    ("This neighbour of ours is always busy.",
     "Questo nostro vicino è sempre occupato.",
     "Questa nostra vicina è sempre occupata.",
     "<DADJquestS> <POSS4S> vicin<ENDS> è sempre occupat<ENDS>.",
     "questo questa <DADJquestS> vicin=2;nostro nostra <POSS4S> vicin=1;vicino vicina "
     "vicin<ENDS>;occupato occupata occupat<ENDS>;"),
    ("The new residents thanked the builders.",
     "I nuovi residenti hanno ringraziato i costruttori.",
     "Le nuove residenti hanno ringraziato le costruttrici.",
     "<DARTP> nuov<ENDP> residenti hanno ringraziato <DARTP> costruttor<ENDP>.",
     "i le <DARTP> nuov=1;nuovi nuove nuov<ENDP>;i le <DARTP> costrutt=1;costruttori "
     "costruttrici costruttor<ENDP>;"),
]


def words(text: str) -> list[str]:
    punct = string.punctuation.replace("<", "").replace(">", "")
    text = text.lower().replace("'", " ").translate(str.maketrans("", "", punct))
    return [w for w in text.split(" ") if w]


def check(number: int, row: tuple[str, ...]) -> None:
    _, ref_m, ref_f, tagged, annotation = row
    refs = {"masculine": words(ref_m), "feminine": words(ref_f), "tagged": words(tagged)}
    for piece in filter(None, annotation.split(";")):
        fields = piece.split(" ")
        assert len(fields) in (3, 4), (number, piece)
        for (name, toks), form in zip(refs.items(), fields[:3], strict=True):
            assert form.lower() in toks, (number, name, form, toks)
            if len(fields) == 4 and name != "tagged":
                anchor, distance = fields[3].split("=")
                places = [i + int(distance) for i, tok in enumerate(toks) if tok == form]
                assert any(0 <= at < len(toks) and anchor in toks[at] for at in places), \
                    (number, name, piece, toks)


def write(path: Path, rows: list[tuple[str, ...]], first: int, prefix: str) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh, delimiter="\t", quoting=csv.QUOTE_NONE, lineterminator="\n")
        out.writerow(HEADER)
        for i, row in enumerate(rows):
            check(first + i, row)
            out.writerow([first + i, f"{prefix}IT_2_variants{i + 1:03d}", *row])


if __name__ == "__main__":
    write(HERE / "Neo-GATE.tsv", TEST, 1, "")
    # Dev ids continue after the test entries, as in the published files (dev starts at 842).
    write(HERE / "Neo-GATE-dev.tsv", DEV, len(TEST) + 1, "dev_")
    print(f"wrote {len(TEST)} test and {len(DEV)} dev rows to {HERE}")
