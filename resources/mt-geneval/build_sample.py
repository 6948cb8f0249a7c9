"""Writes the project's MT-GenEval sample (data/sentences/test/…, data/context/…).

The sentences are this project's own, in MT-GenEval's exact published layout (the
amazon-science/machine-translation-gender-eval release): one segment per line; the
counterfactual set as masculine/feminine English sources with their references, plus the
`annotated/` copies whose gendered words are tagged <M>…</M> / <F>…</F> (the plain files are
the annotated ones without tags, except one line that carries the release's CSV quoting quirk,
a tripled closing quote); the contextual set as `2to1` English lines (context <sep> sentence,
one with an empty context, as in the release) with `original` and `flipped` references.
Run from the project root: python resources/mt-geneval/build_sample.py
"""

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPLIT = "test"

# (masculine English, feminine English, {lang: (masculine reference, feminine reference)})
# with the gendered words tagged as the release tags them.
COUNTERFACTUAL = [
    ("<M>He</M> worked as a nurse in Lyon for ten years.",
     "<F>She</F> worked as a nurse in Lyon for ten years.",
     {"fr": ("<M>Il</M> a travaillé comme <M>infirmier</M> à Lyon pendant dix ans.",
             "<F>Elle</F> a travaillé comme <F>infirmière</F> à Lyon pendant dix ans."),
      "de": ("<M>Er</M> arbeitete zehn Jahre lang als <M>Krankenpfleger</M> in Lyon.",
             "<F>Sie</F> arbeitete zehn Jahre lang als <F>Krankenpflegerin</F> in Lyon."),
      "es": ("<M>Él</M> trabajó como <M>enfermero</M> en Lyon durante diez años.",
             "<F>Ella</F> trabajó como <F>enfermera</F> en Lyon durante diez años.")}),
    ("The <M>actor</M> thanked <M>his</M> teachers.",
     "The <F>actress</F> thanked <F>her</F> teachers.",
     {"fr": ("<M>L'acteur</M> a remercié ses professeurs.",
             "<F>L'actrice</F> a remercié ses professeurs."),
      "de": ("<M>Der Schauspieler</M> dankte <M>seinen</M> Lehrern.",
             "<F>Die Schauspielerin</F> dankte <F>ihren</F> Lehrern."),
      "es": ("<M>El actor</M> agradeció a sus profesores.",
             "<F>La actriz</F> agradeció a sus profesores.")}),
    ("<M>He</M> became the first director of the museum in 1921.",
     "<F>She</F> became the first director of the museum in 1921.",
     {"fr": ("<M>Il</M> est <M>devenu le premier directeur</M> du musée en 1921.",
             "<F>Elle</F> est <F>devenue la première directrice</F> du musée en 1921."),
      "de": ("<M>Er</M> wurde 1921 <M>der erste Direktor</M> des Museums.",
             "<F>Sie</F> wurde 1921 <F>die erste Direktorin</F> des Museums."),
      "es": ("<M>Él</M> se convirtió en <M>el primer director</M> del museo en 1921.",
             "<F>Ella</F> se convirtió en <F>la primera directora</F> del museo en 1921.")}),
    ("As a <M>boy</M>, <M>he</M> wanted to be a pilot.",
     "As a <F>girl</F>, <F>she</F> wanted to be a pilot.",
     {"fr": ("<M>Enfant</M>, <M>il</M> voulait être pilote.",
             "<F>Enfant</F>, <F>elle</F> voulait être pilote."),
      "de": ("Als <M>Junge</M> wollte <M>er</M> Pilot werden.",
             "Als <F>Mädchen</F> wollte <F>sie</F> <F>Pilotin</F> werden."),
      "es": ("De <M>niño</M>, <M>él</M> quería ser piloto.",
             "De <F>niña</F>, <F>ella</F> quería ser piloto.")}),
    ("\"<M>He</M> is a very careful writer,\" said the editor.",
     "\"<F>She</F> is a very careful writer,\" said the editor.",
     {"fr": ("« <M>C'est un écrivain</M> très <M>minutieux</M> », a dit l'éditeur.",
             "« <F>C'est une écrivaine</F> très <F>minutieuse</F> », a dit l'éditeur."),
      "de": ("\"<M>Er</M> ist ein sehr <M>sorgfältiger Autor</M>\", sagte der Herausgeber.",
             "\"<F>Sie</F> ist eine sehr <F>sorgfältige Autorin</F>\", sagte der Herausgeber."),
      "es": ("\"<M>Es un escritor</M> muy <M>cuidadoso</M>\", dijo el editor.",
             "\"<F>Es una escritora</F> muy <F>cuidadosa</F>\", dijo el editor.")}),
    ("The <M>king</M> and <M>his</M> brother were both musicians.",
     "The <F>queen</F> and <F>her</F> brother were both musicians.",
     {"fr": ("<M>Le roi</M> et son frère étaient tous deux musiciens.",
             "<F>La reine</F> et son frère étaient tous deux musiciens."),
      "de": ("<M>Der König</M> und <M>sein</M> Bruder waren beide Musiker.",
             "<F>Die Königin</F> und <F>ihr</F> Bruder waren beide Musiker."),
      "es": ("<M>El rey</M> y su hermano eran ambos músicos.",
             "<F>La reina</F> y su hermano eran ambos músicos.")}),
]
# The release's plain files sometimes keep a CSV quoting artefact that the annotated copy lacks.
QUIRK = {("fr", "feminine", 4): "« C'est une écrivaine très minutieuse », a dit l'éditeur.\"\"\""}

# (context, sentence, {lang: (original reference, flipped reference)}); the gender is given by
# the context only.
CONTEXTUAL = [
    ("Marie Duval studied medicine in Paris.", "Later, the surgeon opened a clinic in Nantes.",
     {"fr": ("Plus tard, la chirurgienne ouvrit une clinique à Nantes.",
             "Plus tard, le chirurgien ouvrit une clinique à Nantes."),
      "de": ("Später eröffnete die Chirurgin eine Klinik in Nantes.",
             "Später eröffnete der Chirurg eine Klinik in Nantes."),
      "es": ("Más tarde, la cirujana abrió una clínica en Nantes.",
             "Más tarde, el cirujano abrió una clínica en Nantes.")}),
    ("In 1990 he joined the orchestra.", "The violinist toured Europe for a decade.",
     {"fr": ("Le violoniste fit une tournée en Europe pendant dix ans.",
             "La violoniste fit une tournée en Europe pendant dix ans."),
      "de": ("Der Geiger tourte zehn Jahre lang durch Europa.",
             "Die Geigerin tourte zehn Jahre lang durch Europa."),
      "es": ("El violinista hizo una gira por Europa durante una década.",
             "La violinista hizo una gira por Europa durante una década.")}),
    ("She grew up on a farm near Seville.", "The author wrote twelve novels.",
     {"fr": ("L'autrice écrivit douze romans.", "L'auteur écrivit douze romans."),
      "de": ("Die Autorin schrieb zwölf Romane.", "Der Autor schrieb zwölf Romane."),
      "es": ("La autora escribió doce novelas.", "El autor escribió doce novelas.")}),
    ("His first job was at a bank.", "The economist later advised the government.",
     # French "économiste" is epicene: both references are the same (the release has such
     # lines; no word can then be wrong)
     {"fr": ("L'économiste conseilla plus tard le gouvernement.",
             "L'économiste conseilla plus tard le gouvernement."),
      "de": ("Der Ökonom beriet später die Regierung.", "Die Ökonomin beriet später die "
             "Regierung."),
      "es": ("El economista asesoró más tarde al gobierno.",
             "La economista asesoró más tarde al gobierno.")}),
    ("", "The teacher retired in 2001.",
     {"fr": ("L'enseignante prit sa retraite en 2001.", "L'enseignant prit sa retraite en 2001."),
      "de": ("Die Lehrerin ging 2001 in den Ruhestand.", "Der Lehrer ging 2001 in den "
             "Ruhestand."),
      "es": ("La maestra se jubiló en 2001.", "El maestro se jubiló en 2001.")}),
    ("Ana Ruiz was born in Bilbao in 1950.", "The painter exhibited in Madrid and Rome.",
     {"fr": ("La peintre exposa à Madrid et à Rome.", "Le peintre exposa à Madrid et à Rome."),
      "de": ("Die Malerin stellte in Madrid und Rom aus.", "Der Maler stellte in Madrid und "
             "Rom aus."),
      "es": ("La pintora expuso en Madrid y en Roma.", "El pintor expuso en Madrid y en Roma.")}),
]
LANGS = ("fr", "de", "es")


def plain(text: str) -> str:
    return re.sub(r"</?[MF]>", "", text)


def write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def main() -> None:
    folder = HERE / "data" / "sentences" / SPLIT
    for lang in LANGS:
        for g, gender in enumerate(("masculine", "feminine")):
            stem = f"geneval-sentences-{gender}-{SPLIT}.en_{lang}"
            english = [item[g] for item in COUNTERFACTUAL]
            target = [item[2][lang][g] for item in COUNTERFACTUAL]
            write(folder / "annotated" / f"{stem}.en", english)
            write(folder / "annotated" / f"{stem}.{lang}", target)
            write(folder / f"{stem}.en", [plain(t) for t in english])
            write(folder / f"{stem}.{lang}",
                  [QUIRK.get((lang, gender, i), plain(t)) for i, t in enumerate(target)])
        ctx = HERE / "data" / "context"
        stem = "geneval-context-wikiprofessions-{}-" + f"{SPLIT}.en_{lang}"
        write(ctx / (stem.format("2to1") + ".en"),
              [f"{c} <sep> {s}" if c else f"<sep> {s}" for c, s, _ in CONTEXTUAL])
        write(ctx / (stem.format("original") + f".{lang}"), [r[lang][0] for *_, r in CONTEXTUAL])
        write(ctx / (stem.format("flipped") + f".{lang}"), [r[lang][1] for *_, r in CONTEXTUAL])


if __name__ == "__main__":
    main()
