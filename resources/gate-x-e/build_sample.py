"""Writes the project's GATE X-E sample (data/<language>/meta_input/GATE_data_*.txt).

The sentences are this project's own, written in GATE X-E's exact published layout and
with its quirks (Excel-mangled ids, item ids and spelling noise in the labels, `|`-joined
variants with a trailing bar, neutral-only negative rows, a 3-AGME instance, a missing
neutral form), so that the default run exercises the same code paths as the real data.
Run from the project root: python resources/gate-x-e/build_sample.py
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
HEADER = ["id", "labels", "source", "female translation", "male translation",
          "neutral translation", "variants", "all gender neutral pronouns"]
HUN_HEADER = [*HEADER[:7], "full neutral translation", "note"]

TURKISH = [
    ["1685990000000", "900001;0 AGMEs;Negative 1A;source+target_gendered_noun+pronoun", "Annem kitabını okudu.", "", "", "My mother read her book.", "", "My mother read their book."],
    ["1685990000000", "900002;source+target_gendered_noun;0 AGMEs;Negative 1B", "Kız kardeşim geldi.", "", "", "My sister came.", "", "My sister came."],
    ["1685990000000", "900003;1 AGME;target_only_gendered_pronoun;Positive 1", "O her sabah koşar.", "She runs every morning.", "He runs every morning.", "They run every morning.", "", "They run every morning."],
    ["1685990000000", "900004;Positive 1;1 AGME;target_only_gendered_pronoun", "Onun arabası kırmızı.", "Her car is red.", "His car is red.", "Their car is red.", "", "Their car is red."],
    ["1.68556E+12", "900005;target_only_gendered_pronoun;1 AGME;Positive 1", "Onu dün gördüm.", "I saw her yesterday.", "I saw him yesterday.", "I saw them yesterday.", "", "I saw them yesterday."],
    ["1.68556E+12", "900006;1 AGMEs;Positive-1;target_only_gendered_pronoun", "O kendini suçluyor.", "She blames herself.", "He blames himself.", "They blame themselves.", "", "They blame themselves."],
    ["1.68556E+12", "900007;1 AGME;target_only_gendered_noun;Positive 2", "Yeğenim bugün geliyor.", "My niece is coming today.", "My nephew is coming today.", "", "", ""],
    ["1.68556E+12", "900008;1 AGME;target_only_gendered_noun + pronoun;Positive 3", "Torunun işini seviyor olmalı.", "Your granddaughter must love her job.", "Your grandson must love his job.", "Your grandchild must love their job.", "", "Your grandchild must love their job."],
    ["1.68556E+12", "900009;target_only_gendered_pronoun;source+target_gendered_noun+pronoun;1 AGME;Mix", "Babası vasiyetinde arabayı ona bıraktı.", "Her father left her the car in his will.", "His father left him the car in his will.", "Their father left them the car in his will.", "", "Their father left them the car in their will."],
    ["1685990000000", "900010;multi;2 AGMEs;Positive 5;target_only_gendered_pronoun", "O ona bir hediye aldı.", "She bought her a gift.", "He bought him a gift.", "They bought them a gift.", "She bought him a gift. | He bought her a gift. | She bought them a gift. | They bought her a gift. | He bought them a gift. | They bought him a gift.|", "They bought them a gift."],
    ["1685990000000", "900011;2 AGMEs;target_only_gendered_noun+pronoun;multi;Positive 5", "Kardeşine ziyarete gelip gelmeyeceğini sordu.", "She asked her sister if she would visit.", "He asked his brother if he would visit.", "They asked their sibling if they would visit.", "She asked her brother if he would visit.|He asked his sister if she would visit.|They asked their sister if she would visit.|They asked their brother if he would visit.|She asked her sibling if they would visit.|He asked his sibling if they would visit.|", "They asked their sibling if they would visit."],
    ["1685990000000", "900012;3 AGMEs;multi;Positive 5;target_only_gendered_pronoun", "O onu ona tanıttı.", "She introduced her to her.", "He introduced him to him.", "They introduced them to them.", "", "They introduced them to them."],
    ["1685990000000", "739631Positive 1;1 AGME;target_only_gendered_pronoun;name", "Ayşe akşam yemeğini bitiremedi.", "Ayşe wasn't able to finish her dinner.", "Ayşe wasn't able to finish his dinner.", "Ayşe wasn't able to finish their dinner.", "", "Ayşe wasn't able to finish their dinner."],
    ["1685990000000", "900014;0 AGME;Negative 1A;source+target_gendered_noun+pronoun", "Adam şapkasını çıkardı.", "", "", "The man took off his hat.", "", "The man took off their hat."],
]

FINNISH = [
    ["1.68648E+12", "910001;Positive 1;1 AGME;target_only_gendered_pronoun", "Hän lukee kirjaa.", "She is reading a book.", "He is reading a book.", "They are reading a book.", "", "They are reading a book."],
    ["1.68648E+12", "910002;1 AGME;target_only_gendered_pronoun;Positive 1", "Hänen koiransa on iso.", "Her dog is big.", "His dog is big.", "Their dog is big.", "", "Their dog is big."],
    ["1.68648E+12", "910003;0 AGMEs;Negative 1B;source+target_gendered_noun", "Äitini soitti minulle.", "", "", "My mother called me.", "", "My mother called me."],
    ["1.68648E+12", "910004;2 AGMEs;multi;target_only_gendered_pronoun;Positive 5", "Hän auttoi häntä.", "She helped her.", "He helped him.", "They helped them.", "She helped him. | He helped her. | She helped them. | They helped her. | He helped them. | They helped him.", "They helped them."],
    ["1.68648E+12", "910005;target_only_gendered_noun;1 AGME;Positive 2", "Sisarukseni asuu Turussa.", "My sister lives in Turku.", "My brother lives in Turku.", "My sibling lives in Turku.", "", "My sibling lives in Turku."],
    ["1.68648E+12", "910006; source+target_gendered_noun+pronoun;0 AGMEs;Negative 1A", "Isäni sanoi, että hän on väsynyt.", "", "", "My father said that he is tired.", "", "My father said that they are tired."],
]

HUNGARIAN = [
    ["1685561234501", "Positive 1;1 AGME;target_only_gendered_pronoun", "Ő tanár.", "She is a teacher.", "He is a teacher.", "They are a teacher.", "", "They are a teacher.", ""],
    ["1685561234502", "target_only_gendered_pronoun;Positive 1;1 AGME", "Láttam őt a boltban.", "I saw her in the shop.", "I saw him in the shop.", "I saw them in the shop.", "", "I saw them in the shop.", ""],
    ["1685561234503", "0 AGMEs;Negative 1B;source+target_gendered_noun", "Az anyám főz.", "", "", "My mother is cooking.", "", "My mother is cooking.", "no pronoun"],
    ["1685561234504", "target_only_gendered_pronoun;source+target_gendered_noun;Mixed;1 AGME", "A nagymamája mesélt neki.", "Her grandmother told her a story.", "His grandmother told him a story.", "Their grandmother told them a story.", "", "Their grandmother told them a story.", ""],
]


def write(folder: str, code: str, header: list[str], rows: list[list[str]]) -> None:
    path = HERE / "data" / folder / "meta_input" / f"GATE_data_{code}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    for row in rows:
        assert len(row) == len(header), row
    lines = ["\t".join(header)] + ["\t".join(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write("turkish", "tur", HEADER, TURKISH)
    write("finnish", "fin", HEADER, FINNISH)
    write("hungarian", "hun", HUN_HEADER, HUNGARIAN)
