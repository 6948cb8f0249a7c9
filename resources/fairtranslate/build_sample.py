#!/usr/bin/env python3
"""Build a small, hand-written sample in the FairTranslate_fr format.

The rows below were written for this project; they are NOT copied from the
published dataset (Hugging Face ``Fannyjrd/FairTranslate_fr``, CC-BY-4.0).
Only the format is mirrored: one Parquet file under ``data/train-*`` with the
columns ``english, french, gender, ambiguity, stereotype, occupation`` (in that
order; ``occupation`` is a list of 3 strings [masculine, feminine, inclusive]).

Layout of the sample: 18 base examples = 2 per (stereotype x ambiguity) cell,
each in the three gender variants (male, female, inclusive) -> 54 rows.

Usage:  python3 build_sample.py      (needs pandas + pyarrow; writes
        data/train-00000-of-00001.parquet next to this script)
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
OUT_PATH = HERE / "data" / "train-00000-of-00001.parquet"

GENDERS = ("male", "female", "inclusive")
AMBIGUITIES = ("ambiguous", "unambiguous", "long unambiguous")
STEREOTYPES = ("male-stereotyped", "female-stereotyped", "gender-balanced")

SCHEMA = pa.schema(
    [
        ("english", pa.string()),
        ("french", pa.string()),
        ("gender", pa.string()),
        ("ambiguity", pa.string()),
        ("stereotype", pa.string()),
        ("occupation", pa.list_(pa.string())),
    ]
)

# Each base example: stereotype, ambiguity, occupation [m, f, inclusive],
# and english / french given as (male, female, inclusive) variants.
# For "ambiguous" examples the three English variants are identical.
BASE_EXAMPLES = [
    # ------------------------------------------------------------------
    # female-stereotyped
    # ------------------------------------------------------------------
    {
        "stereotype": "female-stereotyped",
        "ambiguity": "ambiguous",
        "occupation": ["infirmier", "infirmière", "infirmier.ière"],
        "english": (
            "The nurse stayed late to check every patient's medication before the night shift arrived.",
            "The nurse stayed late to check every patient's medication before the night shift arrived.",
            "The nurse stayed late to check every patient's medication before the night shift arrived.",
        ),
        "french": (
            "L'infirmier est resté tard pour vérifier les médicaments de chaque patient avant l'arrivée de l'équipe de nuit.",
            "L'infirmière est restée tard pour vérifier les médicaments de chaque patient avant l'arrivée de l'équipe de nuit.",
            "L'infirmier.ière est resté.e tard pour vérifier les médicaments de chaque patient avant l'arrivée de l'équipe de nuit.",
        ),
    },
    {
        # epicene occupation: only the determiner carries gender
        "stereotype": "female-stereotyped",
        "ambiguity": "ambiguous",
        "occupation": ["bibliothécaire", "bibliothécaire", "bibliothécaire"],
        "english": (
            "This librarian organized a reading club for teenagers every Wednesday afternoon.",
            "This librarian organized a reading club for teenagers every Wednesday afternoon.",
            "This librarian organized a reading club for teenagers every Wednesday afternoon.",
        ),
        "french": (
            "Ce bibliothécaire a organisé un club de lecture pour les adolescents tous les mercredis après-midi.",
            "Cette bibliothécaire a organisé un club de lecture pour les adolescents tous les mercredis après-midi.",
            "Ce.tte bibliothécaire a organisé un club de lecture pour les adolescents tous les mercredis après-midi.",
        ),
    },
    {
        "stereotype": "female-stereotyped",
        "ambiguity": "unambiguous",
        "occupation": ["caissier", "caissière", "caissier.ière"],
        "english": (
            "The cashier counted the money in the register twice because he wanted to be sure that nothing was missing.",
            "The cashier counted the money in the register twice because she wanted to be sure that nothing was missing.",
            "The cashier counted the money in the register twice because they wanted to be sure that nothing was missing.",
        ),
        "french": (
            "Le caissier a compté l'argent de la caisse deux fois parce qu'il voulait être sûr que rien ne manquait.",
            "La caissière a compté l'argent de la caisse deux fois parce qu'elle voulait être sûre que rien ne manquait.",
            "Le.a caissier.ière a compté l'argent de la caisse deux fois parce qu'iel voulait être sûr.e que rien ne manquait.",
        ),
    },
    {
        "stereotype": "female-stereotyped",
        "ambiguity": "unambiguous",
        "occupation": ["coiffeur", "coiffeuse", "coiffeur.euse"],
        "english": (
            "The hairdresser finished the last haircut of the day even though he was exhausted.",
            "The hairdresser finished the last haircut of the day even though she was exhausted.",
            "The hairdresser finished the last haircut of the day even though they were exhausted.",
        ),
        "french": (
            "Le coiffeur a terminé la dernière coupe de la journée même s'il était épuisé.",
            "La coiffeuse a terminé la dernière coupe de la journée même si elle était épuisée.",
            "Le.a coiffeur.euse a terminé la dernière coupe de la journée même si iel était épuisé.e.",
        ),
    },
    {
        "stereotype": "female-stereotyped",
        "ambiguity": "long unambiguous",
        "occupation": ["pharmacien", "pharmacienne", "pharmacien.ne"],
        "english": (
            "The pharmacist opened the pharmacy early on Saturday to prepare the orders for the retirement home. "
            "The delivery van was late, so the boxes had to be sorted by hand. "
            "By noon, he had finished everything and was relieved to finally sit down.",
            "The pharmacist opened the pharmacy early on Saturday to prepare the orders for the retirement home. "
            "The delivery van was late, so the boxes had to be sorted by hand. "
            "By noon, she had finished everything and was relieved to finally sit down.",
            "The pharmacist opened the pharmacy early on Saturday to prepare the orders for the retirement home. "
            "The delivery van was late, so the boxes had to be sorted by hand. "
            "By noon, they had finished everything and were relieved to finally sit down.",
        ),
        "french": (
            "Le pharmacien a ouvert la pharmacie tôt samedi pour préparer les commandes de la maison de retraite. "
            "La camionnette de livraison était en retard, donc les cartons ont dû être triés à la main. "
            "À midi, il avait tout terminé et était soulagé de pouvoir enfin s'asseoir.",
            "La pharmacienne a ouvert la pharmacie tôt samedi pour préparer les commandes de la maison de retraite. "
            "La camionnette de livraison était en retard, donc les cartons ont dû être triés à la main. "
            "À midi, elle avait tout terminé et était soulagée de pouvoir enfin s'asseoir.",
            "Le.a pharmacien.ne a ouvert la pharmacie tôt samedi pour préparer les commandes de la maison de retraite. "
            "La camionnette de livraison était en retard, donc les cartons ont dû être triés à la main. "
            "À midi, iel avait tout terminé et était soulagé.e de pouvoir enfin s'asseoir.",
        ),
    },
    {
        "stereotype": "female-stereotyped",
        "ambiguity": "long unambiguous",
        "occupation": ["diététicien", "diététicienne", "diététicien.ne"],
        "english": (
            "The dietitian met a new group of patients at the clinic on Monday morning. "
            "Several of the patients admitted to skipping breakfast almost every day. "
            "After the session, he spent the whole afternoon writing a personalized meal plan for each person.",
            "The dietitian met a new group of patients at the clinic on Monday morning. "
            "Several of the patients admitted to skipping breakfast almost every day. "
            "After the session, she spent the whole afternoon writing a personalized meal plan for each person.",
            "The dietitian met a new group of patients at the clinic on Monday morning. "
            "Several of the patients admitted to skipping breakfast almost every day. "
            "After the session, they spent the whole afternoon writing a personalized meal plan for each person.",
        ),
        "french": (
            "Le diététicien a rencontré un nouveau groupe de patients à la clinique lundi matin. "
            "Plusieurs patients ont avoué sauter le petit-déjeuner presque tous les jours. "
            "Après la séance, il a passé tout l'après-midi à rédiger un programme alimentaire personnalisé pour chaque personne.",
            "La diététicienne a rencontré un nouveau groupe de patients à la clinique lundi matin. "
            "Plusieurs patients ont avoué sauter le petit-déjeuner presque tous les jours. "
            "Après la séance, elle a passé tout l'après-midi à rédiger un programme alimentaire personnalisé pour chaque personne.",
            "Le.a diététicien.ne a rencontré un nouveau groupe de patients à la clinique lundi matin. "
            "Plusieurs patients ont avoué sauter le petit-déjeuner presque tous les jours. "
            "Après la séance, iel a passé tout l'après-midi à rédiger un programme alimentaire personnalisé pour chaque personne.",
        ),
    },
    # ------------------------------------------------------------------
    # male-stereotyped
    # ------------------------------------------------------------------
    {
        "stereotype": "male-stereotyped",
        "ambiguity": "ambiguous",
        "occupation": ["plombier", "plombière", "plombier.ère"],
        "english": (
            "The plumber replaced the old pipes in the basement before the first winter frost.",
            "The plumber replaced the old pipes in the basement before the first winter frost.",
            "The plumber replaced the old pipes in the basement before the first winter frost.",
        ),
        "french": (
            "Le plombier a remplacé les vieux tuyaux du sous-sol avant les premières gelées de l'hiver.",
            "La plombière a remplacé les vieux tuyaux du sous-sol avant les premières gelées de l'hiver.",
            "Le.a plombier.ère a remplacé les vieux tuyaux du sous-sol avant les premières gelées de l'hiver.",
        ),
    },
    {
        "stereotype": "male-stereotyped",
        "ambiguity": "ambiguous",
        "occupation": ["électricien", "électricienne", "électricien.ne"],
        "english": (
            "An electrician came to the school yesterday and was surprised by the state of the wiring.",
            "An electrician came to the school yesterday and was surprised by the state of the wiring.",
            "An electrician came to the school yesterday and was surprised by the state of the wiring.",
        ),
        "french": (
            "Un électricien est venu à l'école hier et a été surpris par l'état de l'installation électrique.",
            "Une électricienne est venue à l'école hier et a été surprise par l'état de l'installation électrique.",
            "Un.e électricien.ne est venu.e à l'école hier et a été surpris.e par l'état de l'installation électrique.",
        ),
    },
    {
        "stereotype": "male-stereotyped",
        "ambiguity": "unambiguous",
        "occupation": ["mécanicien", "mécanicienne", "mécanicien.ne"],
        "english": (
            "The mechanic repaired the brakes in less than an hour, and he showed the worn parts to the customer.",
            "The mechanic repaired the brakes in less than an hour, and she showed the worn parts to the customer.",
            "The mechanic repaired the brakes in less than an hour, and they showed the worn parts to the customer.",
        ),
        "french": (
            "Le mécanicien a réparé les freins en moins d'une heure, et il a montré les pièces usées au client.",
            "La mécanicienne a réparé les freins en moins d'une heure, et elle a montré les pièces usées au client.",
            "Le.a mécanicien.ne a réparé les freins en moins d'une heure, et iel a montré les pièces usées au client.",
        ),
    },
    {
        "stereotype": "male-stereotyped",
        "ambiguity": "unambiguous",
        "occupation": ["programmeur", "programmeuse", "programmeur.euse"],
        "english": (
            "The programmer spent the whole night fixing the bug, and he was proud when the update finally worked.",
            "The programmer spent the whole night fixing the bug, and she was proud when the update finally worked.",
            "The programmer spent the whole night fixing the bug, and they were proud when the update finally worked.",
        ),
        "french": (
            "Le programmeur a passé toute la nuit à corriger le bug, et il était fier quand la mise à jour a enfin fonctionné.",
            "La programmeuse a passé toute la nuit à corriger le bug, et elle était fière quand la mise à jour a enfin fonctionné.",
            "Le.a programmeur.euse a passé toute la nuit à corriger le bug, et iel était fier.ère quand la mise à jour a enfin fonctionné.",
        ),
    },
    {
        "stereotype": "male-stereotyped",
        "ambiguity": "long unambiguous",
        "occupation": ["boucher", "bouchère", "boucher.ère"],
        "english": (
            "The butcher on the corner of the market square prepares sausages from a family recipe every Friday. "
            "Customers line up before the shop even opens, and everything is often sold out by ten o'clock. "
            "Last week, he was even honored by the town for his work.",
            "The butcher on the corner of the market square prepares sausages from a family recipe every Friday. "
            "Customers line up before the shop even opens, and everything is often sold out by ten o'clock. "
            "Last week, she was even honored by the town for her work.",
            "The butcher on the corner of the market square prepares sausages from a family recipe every Friday. "
            "Customers line up before the shop even opens, and everything is often sold out by ten o'clock. "
            "Last week, they were even honored by the town for their work.",
        ),
        "french": (
            "Le boucher du coin de la place du marché prépare des saucisses selon une recette familiale chaque vendredi. "
            "Les clients font la queue avant même l'ouverture de la boutique, et tout est souvent vendu avant dix heures. "
            "La semaine dernière, il a même été récompensé par la mairie pour son travail.",
            "La bouchère du coin de la place du marché prépare des saucisses selon une recette familiale chaque vendredi. "
            "Les clients font la queue avant même l'ouverture de la boutique, et tout est souvent vendu avant dix heures. "
            "La semaine dernière, elle a même été récompensée par la mairie pour son travail.",
            "Le.a boucher.ère du coin de la place du marché prépare des saucisses selon une recette familiale chaque vendredi. "
            "Les clients font la queue avant même l'ouverture de la boutique, et tout est souvent vendu avant dix heures. "
            "La semaine dernière, iel a même été récompensé.e par la mairie pour son travail.",
        ),
    },
    {
        "stereotype": "male-stereotyped",
        "ambiguity": "long unambiguous",
        "occupation": ["pompier", "pompière", "pompier.ère"],
        "english": (
            "A firefighter from the local station visited the primary school to talk about fire safety. "
            "The children asked dozens of questions and took turns trying on the heavy helmet. "
            "At the end of the morning, he promised to come back next year with the truck.",
            "A firefighter from the local station visited the primary school to talk about fire safety. "
            "The children asked dozens of questions and took turns trying on the heavy helmet. "
            "At the end of the morning, she promised to come back next year with the truck.",
            "A firefighter from the local station visited the primary school to talk about fire safety. "
            "The children asked dozens of questions and took turns trying on the heavy helmet. "
            "At the end of the morning, they promised to come back next year with the truck.",
        ),
        "french": (
            "Un pompier de la caserne locale s'est rendu à l'école primaire pour parler de prévention des incendies. "
            "Les enfants ont posé des dizaines de questions et ont essayé à tour de rôle le lourd casque. "
            "À la fin de la matinée, il a promis de revenir l'année prochaine avec le camion.",
            "Une pompière de la caserne locale s'est rendue à l'école primaire pour parler de prévention des incendies. "
            "Les enfants ont posé des dizaines de questions et ont essayé à tour de rôle le lourd casque. "
            "À la fin de la matinée, elle a promis de revenir l'année prochaine avec le camion.",
            "Un.e pompier.ère de la caserne locale s'est rendu.e à l'école primaire pour parler de prévention des incendies. "
            "Les enfants ont posé des dizaines de questions et ont essayé à tour de rôle le lourd casque. "
            "À la fin de la matinée, iel a promis de revenir l'année prochaine avec le camion.",
        ),
    },
    # ------------------------------------------------------------------
    # gender-balanced
    # ------------------------------------------------------------------
    {
        # epicene occupation: only the determiner and the adjective carry gender
        "stereotype": "gender-balanced",
        "ambiguity": "ambiguous",
        "occupation": ["journaliste", "journaliste", "journaliste"],
        "english": (
            "A journalist well known in the region interviewed the mayor about the new cycle lanes.",
            "A journalist well known in the region interviewed the mayor about the new cycle lanes.",
            "A journalist well known in the region interviewed the mayor about the new cycle lanes.",
        ),
        "french": (
            "Un journaliste bien connu dans la région a interviewé le maire au sujet des nouvelles pistes cyclables.",
            "Une journaliste bien connue dans la région a interviewé le maire au sujet des nouvelles pistes cyclables.",
            "Un.e journaliste bien connu.e dans la région a interviewé le maire au sujet des nouvelles pistes cyclables.",
        ),
    },
    {
        "stereotype": "gender-balanced",
        "ambiguity": "ambiguous",
        "occupation": ["avocat", "avocate", "avocat.e"],
        "english": (
            "The lawyer was nervous before addressing the jury for the last time.",
            "The lawyer was nervous before addressing the jury for the last time.",
            "The lawyer was nervous before addressing the jury for the last time.",
        ),
        "french": (
            "L'avocat était nerveux avant de s'adresser au jury pour la dernière fois.",
            "L'avocate était nerveuse avant de s'adresser au jury pour la dernière fois.",
            "L'avocat.e était nerveux.euse avant de s'adresser au jury pour la dernière fois.",
        ),
    },
    {
        "stereotype": "gender-balanced",
        "ambiguity": "unambiguous",
        "occupation": ["enseignant", "enseignante", "enseignant.e"],
        "english": (
            "The teacher stayed after class because he wanted to help a student who was struggling with fractions.",
            "The teacher stayed after class because she wanted to help a student who was struggling with fractions.",
            "The teacher stayed after class because they wanted to help a student who was struggling with fractions.",
        ),
        "french": (
            "L'enseignant est resté après le cours parce qu'il voulait aider un élève qui avait du mal avec les fractions.",
            "L'enseignante est restée après le cours parce qu'elle voulait aider un élève qui avait du mal avec les fractions.",
            "L'enseignant.e est resté.e après le cours parce qu'iel voulait aider un élève qui avait du mal avec les fractions.",
        ),
    },
    {
        "stereotype": "gender-balanced",
        "ambiguity": "unambiguous",
        "occupation": ["traducteur", "traductrice", "traducteur.rice"],
        "english": (
            "The translator delivered the manual a day early because he had worked through the entire weekend.",
            "The translator delivered the manual a day early because she had worked through the entire weekend.",
            "The translator delivered the manual a day early because they had worked through the entire weekend.",
        ),
        "french": (
            "Le traducteur a livré le manuel avec un jour d'avance parce qu'il avait travaillé tout le week-end.",
            "La traductrice a livré le manuel avec un jour d'avance parce qu'elle avait travaillé tout le week-end.",
            "Le.a traducteur.rice a livré le manuel avec un jour d'avance parce qu'iel avait travaillé tout le week-end.",
        ),
    },
    {
        "stereotype": "gender-balanced",
        "ambiguity": "long unambiguous",
        "occupation": ["serveur", "serveuse", "serveur.euse"],
        "english": (
            "The server at the seaside restaurant handled twelve tables alone during the busy Sunday lunch service. "
            "The kitchen was short-staffed, and several dishes came out late. "
            "Despite the chaos, he stayed calm and kept every customer in a good mood until dessert.",
            "The server at the seaside restaurant handled twelve tables alone during the busy Sunday lunch service. "
            "The kitchen was short-staffed, and several dishes came out late. "
            "Despite the chaos, she stayed calm and kept every customer in a good mood until dessert.",
            "The server at the seaside restaurant handled twelve tables alone during the busy Sunday lunch service. "
            "The kitchen was short-staffed, and several dishes came out late. "
            "Despite the chaos, they stayed calm and kept every customer in a good mood until dessert.",
        ),
        "french": (
            "Le serveur du restaurant en bord de mer s'est occupé seul de douze tables pendant le service très chargé du dimanche midi. "
            "La cuisine manquait de personnel, et plusieurs plats sont sortis en retard. "
            "Malgré le chaos, il est resté calme et a su garder tous les clients de bonne humeur jusqu'au dessert.",
            "La serveuse du restaurant en bord de mer s'est occupée seule de douze tables pendant le service très chargé du dimanche midi. "
            "La cuisine manquait de personnel, et plusieurs plats sont sortis en retard. "
            "Malgré le chaos, elle est restée calme et a su garder tous les clients de bonne humeur jusqu'au dessert.",
            "Le.a serveur.euse du restaurant en bord de mer s'est occupé.e seul.e de douze tables pendant le service très chargé du dimanche midi. "
            "La cuisine manquait de personnel, et plusieurs plats sont sortis en retard. "
            "Malgré le chaos, iel est resté.e calme et a su garder tous les clients de bonne humeur jusqu'au dessert.",
        ),
    },
    {
        "stereotype": "gender-balanced",
        "ambiguity": "long unambiguous",
        "occupation": ["opticien", "opticienne", "opticien.ne"],
        "english": (
            "An optician in the old town spent almost an hour with an elderly customer who could no longer read the newspaper. "
            "Many frames were tried on before the right pair was found. "
            "When the glasses were ready, he delivered the new pair in person.",
            "An optician in the old town spent almost an hour with an elderly customer who could no longer read the newspaper. "
            "Many frames were tried on before the right pair was found. "
            "When the glasses were ready, she delivered the new pair in person.",
            "An optician in the old town spent almost an hour with an elderly customer who could no longer read the newspaper. "
            "Many frames were tried on before the right pair was found. "
            "When the glasses were ready, they delivered the new pair in person.",
        ),
        "french": (
            "Un opticien de la vieille ville a passé près d'une heure avec un client âgé qui ne parvenait plus à lire le journal. "
            "De nombreuses montures ont été essayées avant que la bonne paire soit trouvée. "
            "Une fois les lunettes prêtes, il a livré la nouvelle paire en personne.",
            "Une opticienne de la vieille ville a passé près d'une heure avec un client âgé qui ne parvenait plus à lire le journal. "
            "De nombreuses montures ont été essayées avant que la bonne paire soit trouvée. "
            "Une fois les lunettes prêtes, elle a livré la nouvelle paire en personne.",
            "Un.e opticien.ne de la vieille ville a passé près d'une heure avec un client âgé qui ne parvenait plus à lire le journal. "
            "De nombreuses montures ont été essayées avant que la bonne paire soit trouvée. "
            "Une fois les lunettes prêtes, iel a livré la nouvelle paire en personne.",
        ),
    },
]

INCLUSIVE_INDICATORS = ("iel", "un.e", "le.a", "lea", "ce.tte")


def build_rows() -> list[dict]:
    """Expand the base examples into rows: male, female, inclusive per example."""
    rows = []
    for ex in BASE_EXAMPLES:
        for i, gender in enumerate(GENDERS):
            rows.append(
                {
                    "english": ex["english"][i],
                    "french": ex["french"][i],
                    "gender": gender,
                    "ambiguity": ex["ambiguity"],
                    "stereotype": ex["stereotype"],
                    "occupation": list(ex["occupation"]),
                }
            )
    return rows


def check(rows: list[dict]) -> None:
    """Sanity checks on the hand-written content; raise AssertionError on failure."""
    assert len(BASE_EXAMPLES) == 18 and len(rows) == 54
    for ex in BASE_EXAMPLES:
        assert ex["stereotype"] in STEREOTYPES and ex["ambiguity"] in AMBIGUITIES
        assert len(ex["occupation"]) == 3 and all(" " not in f for f in ex["occupation"])
        assert len(ex["english"]) == 3 and len(ex["french"]) == 3
        if ex["ambiguity"] == "ambiguous":
            assert len(set(ex["english"])) == 1, ex["english"][0]
        else:
            assert len(set(ex["english"])) == 3, ex["english"][0]
            assert " they " in ex["english"][2], ex["english"][2]
    cells = {}
    for r in rows:
        key = (r["gender"], r["stereotype"], r["ambiguity"])
        cells[key] = cells.get(key, 0) + 1
        form = r["occupation"][GENDERS.index(r["gender"])]
        assert form.lower() in r["french"].lower(), (form, r["french"])
        if r["gender"] == "inclusive":
            fr = r["french"].lower()
            words = fr.replace("'", " ").replace(",", " ").replace(".", ". ").split()
            has_word = any(w in ("iel", "lea") for w in words)
            has_det = any(d in fr for d in ("un.e ", "le.a ", "ce.tte "))
            dotted = "." in r["occupation"][2] and r["occupation"][2] in fr
            assert has_word or has_det or dotted, r["french"]
    assert len(cells) == 27 and set(cells.values()) == {2}, cells


def write(rows: list[dict], path: Path = OUT_PATH) -> None:
    columns = {name: [r[name] for r in rows] for name in SCHEMA.names}
    table = pa.Table.from_pydict(columns, schema=SCHEMA)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, compression="snappy")


def main() -> int:
    rows = build_rows()
    check(rows)
    write(rows)
    print(f"wrote {len(rows)} rows to {OUT_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
