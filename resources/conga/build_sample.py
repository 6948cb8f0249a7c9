"""Write the project's own ConGA sample in gENder-IT's published layout (columns A–P).

Every sentence here is written by the gendermt project (none comes from gENder-IT or
MuST-SHE, whose licence forbids redistributing derivatives). Run from the project root:
``python resources/conga/build_sample.py``; it rewrites ``gENder-IT-sample.tsv`` and
``annotations/translations.tsv`` (ConGA annotations of those translations) and
``annotations/conga-oracle-first/baseline.tokens.tsv`` (the same annotations of the
``conga-oracle-first`` outputs as a token table, so that the default run also reads that
format).
"""

import csv
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))
from gendermt.benchmarks.conga.tags import TagScheme, parse_tagged, strip_tags  # noqa: E402

TOKEN = re.compile(r"[\w'’]+|[^\w\s]")
HEADER = ["ID", "ENGLISH", "ONE CORRECT (GENDER) TRANSLATION (original MuST-SHE)",
          "MULTIPLE CORRECT GENDER TRANSLATIONS", *[""] * 9, "Number of Alternatives",
          "Type of Alternatives", "Ambiguous Referent"]

# (id, tagged English, {column letter: ConGA-annotated Italian}, type of alternatives,
#  ambiguous referents). Column C: the one translation; D–M: the gender alternatives.
ITEMS = [
    ("sample-001",
     "My sister <F1> told me <A2> that she <F1> was tired of being the only woman <F1> in "
     "the lab.",
     {"C": "Mia <F1> sorella <F1> mi ha detto che era stanca <F1> di essere l'unica <F1> "
           "donna <F1> nel laboratorio."}, "", ""),
    ("sample-002",
     "I <A2> told my father <M1> that he <M1> should rest, but he <M1> was too proud.",
     {"C": "Ho detto a mio <M1> padre <M1> che doveva riposare, ma lui era troppo "
           "orgoglioso <M1>."}, "", ""),
    ("sample-003",
     "When I <A1> arrived in Rome, I <A1> was so tired that I <A1> fell asleep on the train.",
     {"D": "Quando sono arrivato <M1> a Roma, ero così stanco <M1> che mi sono "
           "addormentato <M1> sul treno.",
      "E": "Quando sono arrivata <F1> a Roma, ero così stanca <F1> che mi sono "
           "addormentata <F1> sul treno."}, "M - F", "<A1>"),
    ("sample-004",
     "The director <A1> said that the student <A2> was very talented.",
     {"D": "Il <M1> direttore <M1> ha detto che lo <M2> studente <M2> era molto "
           "talentuoso <M2>.",
      "E": "Il <M1> direttore <M1> ha detto che la <F2> studentessa <F2> era molto "
           "talentuosa <F2>.",
      "F": "La <F1> direttrice <F1> ha detto che la <F2> studentessa <F2> era molto "
           "talentuosa <F2>.",
      "G": "La <F1> direttrice <F1> ha detto che lo <M2> studente <M2> era molto "
           "talentuoso <M2>."}, "MM - MF - FF - FM", "<A1>, <A2>"),
    ("sample-005",
     "She <F1> was the first engineer <F1> in her <F1> family.",
     {"C": "È stata <F1> la <F1> prima <F1> ingegnera <F1> della sua famiglia."}, "", ""),
    ("sample-006",
     "We <A1> were exhausted after the match, but we <A1> were happy.",
     {"D": "Eravamo esausti <M1> dopo la partita, ma eravamo felici.",
      "E": "Eravamo esauste <F1> dopo la partita, ma eravamo felici."}, "M - F", "<A1>"),
    ("split sample-007",
     "My brother <M1> and his <M1> wife <F2> moved to Milan.",
     {"C": "Mio <M1> fratello <M1> e sua <F2> moglie <F2> si sono trasferiti <M1> <M2> a "
           "Milano."}, "", ""),
    ("sample-008",
     "I <A1> think that you <A2> should call them <A3> tomorrow.",
     {"C": "Penso che dovresti telefonare loro domani."}, "", ""),
    ("sample-009",
     "I <A1> met a friend <A2> at the station yesterday.",
     {"D": "Ieri ho incontrato un <M2> amico <M2> alla stazione.",
      "E": "Ieri ho incontrato un'amica <F2> alla stazione."}, "M - F", "<A2>"),
    ("sample-010",
     "The actor <M1> said he <M1> was grateful to his <M1> fans <A2>.",
     {"C": "L'attore <M1> ha detto di essere grato <M1> ai <M2> suoi <M2> fan."}, "", ""),
]


def main() -> None:
    letters = "CDEFGHIJKLM"
    with (HERE / "gENder-IT-sample.tsv").open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh, delimiter="\t", lineterminator="\n")
        out.writerow(HEADER)
        target = TagScheme.target()
        for item_id, english, columns, types, referents in ITEMS:
            alts = [c for c in columns if c != "C"]
            out.writerow([item_id, english,
                          *[strip_tags(columns.get(c, ""), target) for c in letters],
                          str(len(alts)) if alts else "", types, referents])
    with (HERE / "annotations" / "translations.tsv").open("w", encoding="utf-8",
                                                          newline="") as fh:
        out = csv.writer(fh, delimiter="\t", lineterminator="\n")
        out.writerow(["item_id", "column", "annotation"])
        for item_id, _, columns, _, _ in ITEMS:
            for letter, tagged in columns.items():
                out.writerow([item_id, letter, tagged])
    # The first-alternative oracle's outputs (column C, else D) as a token table.
    folder = HERE / "annotations" / "conga-oracle-first"
    folder.mkdir(exist_ok=True)
    with (folder / "baseline.tokens.tsv").open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh, delimiter="\t", lineterminator="\n")
        out.writerow(["item_id", "start", "end", "token", "gender", "entity"])
        for item_id, _, columns, _, _ in ITEMS:
            parsed = parse_tagged(columns.get("C") or columns["D"], TagScheme.target())
            tags = {}
            for tag in parsed.tags:
                tags.setdefault((tag.start, tag.end), []).append(tag)
            for match in TOKEN.finditer(parsed.text):
                span = (match.start(), match.end())
                for tag in tags.pop(span, [None]):
                    out.writerow([item_id, *span, match.group(0), tag.gender if tag else "",
                                  tag.entity if tag else ""])
            assert not tags, f"{item_id}: tagged words not found as tokens: {tags}"


if __name__ == "__main__":
    main()
