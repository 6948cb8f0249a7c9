"""Writes the project's GAMBIT resources (see README.md here): the English sample, the stored
translations of three offline systems into French and Greek, the ISCO-08 excerpt, the example
reference files and the French and Greek validation sets.

Everything is this project's own text, built from the data below: parallel English, French and
Greek templates per text type with an occupation slot, and per occupation the English title
and the French and Greek masculine and feminine forms. The definitions in the ISCO-08 excerpt
are the project's short paraphrases (only the codes and titles are ISCO-08's). The labour and
stereotype files are EXAMPLES with invented numbers. The output is deterministic: running the
script twice writes byte-identical files. Run from anywhere:
python resources/gambit/build_sample.py
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEXT_TYPES = ("short story", "brief news report", "short statement", "short conversation",
              "short presentation")
SYSTEMS = ("masculine-default", "stereotyped", "mixed")
LANGS = ("fr", "el")
M, F, NC = "Masculine", "Feminine", "Not Clear"

# --------------------------------------------------------------------------- occupations
# code, English title in the texts, ISCO-08 unit-group title,
# French (masculine, feminine), Greek (m nominative, m accusative, f nominative, f accusative)
OCCUPATIONS = [
    ("2221", "nurse", "Nursing Professionals", ("infirmier", "infirmière"),
     ("νοσηλευτής", "νοσηλευτή", "νοσηλεύτρια", "νοσηλεύτρια")),
    ("2222", "midwife", "Midwifery Professionals", ("maïeuticien", "sage-femme"),
     ("μαιευτής", "μαιευτή", "μαία", "μαία")),
    ("2211", "doctor", "Generalist Medical Practitioners", ("médecin", "médecin"),
     ("γιατρός", "γιατρό", "γιατρός", "γιατρό")),
    ("2612", "judge", "Judges", ("juge", "juge"),
     ("δικαστής", "δικαστή", "δικαστής", "δικαστή")),
    ("7111", "house builder", "House Builders", ("constructeur", "constructrice"),
     ("οικοδόμος", "οικοδόμο", "οικοδόμος", "οικοδόμο")),
    ("8111", "miner", "Miners and Quarriers", ("mineur", "mineuse"),
     ("ανθρακωρύχος", "ανθρακωρύχο", "ανθρακωρύχος", "ανθρακωρύχο")),
    ("2330", "secondary school teacher", "Secondary Education Teachers",
     ("professeur", "professeure"), ("καθηγητής", "καθηγητή", "καθηγήτρια", "καθηγήτρια")),
    ("2651", "painter", "Visual Artists", ("peintre", "peintre"),
     ("ζωγράφος", "ζωγράφο", "ζωγράφος", "ζωγράφο")),
    ("5151", "housekeeping supervisor",
     "Cleaning and Housekeeping Supervisors in Offices, Hotels and Other Establishments",
     ("gouvernant", "gouvernante"),
     ("επόπτης καθαριότητας", "επόπτη καθαριότητας", "επόπτρια καθαριότητας",
      "επόπτρια καθαριότητας")),
    ("3343", "administrative secretary", "Administrative and Executive Secretaries",
     ("secrétaire", "secrétaire"), ("γραμματέας", "γραμματέα", "γραμματέας", "γραμματέα")),
    ("2512", "software developer", "Software Developers", ("développeur", "développeuse"),
     ("προγραμματιστής", "προγραμματιστή", "προγραμματίστρια", "προγραμματίστρια")),
    ("1120", "managing director", "Managing Directors and Chief Executives",
     ("directeur général", "directrice générale"),
     ("γενικός διευθυντής", "γενικό διευθυντή", "γενική διευθύντρια", "γενική διευθύντρια")),
    ("2341", "primary school teacher", "Primary School Teachers", ("instituteur", "institutrice"),
     ("δάσκαλος", "δάσκαλο", "δασκάλα", "δασκάλα")),
    ("5141", "hairdresser", "Hairdressers", ("coiffeur", "coiffeuse"),
     ("κομμωτής", "κομμωτή", "κομμώτρια", "κομμώτρια")),
    ("7411", "electrician", "Building and Related Electricians", ("électricien", "électricienne"),
     ("ηλεκτρολόγος", "ηλεκτρολόγο", "ηλεκτρολόγος", "ηλεκτρολόγο")),
    ("2611", "lawyer", "Lawyers", ("avocat", "avocate"),
     ("δικηγόρος", "δικηγόρο", "δικηγόρος", "δικηγόρο")),
    ("5120", "cook", "Cooks", ("cuisinier", "cuisinière"),
     ("μάγειρας", "μάγειρα", "μαγείρισσα", "μαγείρισσα")),
    ("8322", "driver", "Car, Taxi and Van Drivers", ("chauffeur", "chauffeuse"),
     ("οδηγός", "οδηγό", "οδηγός", "οδηγό")),
    ("2635", "social worker", "Social Work and Counselling Professionals",
     ("assistant social", "assistante sociale"),
     ("κοινωνικός λειτουργός", "κοινωνικό λειτουργό", "κοινωνική λειτουργός",
      "κοινωνική λειτουργό")),
    ("5311", "child care worker", "Child Care Workers", ("puériculteur", "puéricultrice"),
     ("βρεφοκόμος", "βρεφοκόμο", "βρεφοκόμος", "βρεφοκόμο")),
]
# The stereotyped system's feminine occupations (the others come out masculine).
STEREOTYPED_FEMININE = {"2221", "2222", "5151", "3343", "5141", "5311", "2341"}
# The mixed system: these are masculine throughout, STEREOTYPED_FEMININE feminine throughout,
# the rest feminine in stories and conversations only (2 of 5 texts: balanced).
MIXED_MASCULINE = {"7111", "8111", "7411", "8322", "2512", "1120"}
MIXED_FEMININE_TYPES = {"short story", "short conversation"}
# Mixed French outputs that use a vowel-initial epicene noun after the elided l': no cue.
EPICENE_ELIDED_FR = {"2651": "artiste", "5311": "auxiliaire de puériculture"}

# --------------------------------------------------------------------------- templates
# Slots: English {occ} (the title), {a_occ} ("a nurse" / "an electrician"). French: {def}
# (le/la/l' + noun), {indef} (un/une), {a} (au/à la/à l'), {new} (le nouveau/le nouvel/la
# nouvelle), {bare} (the noun alone); Greek: {nom}, {acc} (article + noun), {ind_nom},
# {ind_acc}, {new_nom}, {new_acc}. A capitalised slot name capitalises the result.
# [masculine|feminine] is a word that agrees with the occupation's gender.
# `elided`: every French mention is {def}/{a} and nothing else agrees, so l' + an epicene
# noun leaves the gender unclear.
TEMPLATES = {
    "short story": [
        {"en": "The {occ} arrived early on Monday, long before anyone else. By noon, the "
               "{occ} had already solved a problem that had worried the whole team for weeks.",
         "fr": "{Def} est [arrivé|arrivée] tôt lundi, bien avant tout le monde. À midi, {def} "
               "avait déjà réglé un problème qui inquiétait toute l'équipe depuis des semaines.",
         "el": "{Nom} έφτασε νωρίς τη Δευτέρα, πολύ πριν από όλους τους άλλους. Ως το "
               "μεσημέρι, {nom} είχε ήδη λύσει ένα πρόβλημα που απασχολούσε όλη την ομάδα "
               "εδώ και εβδομάδες.",
         "elided": False},
        {"en": "After thirty years in the job, the {occ} decided to spend a quiet summer by the "
               "sea. On the last evening, the {occ} wrote a single line in a notebook: "
               "\"Worth every day.\"",
         "fr": "Après trente ans de métier, {def} a décidé de passer un été tranquille au bord "
               "de la mer. Le dernier soir, {def} a écrit une seule ligne dans un carnet : "
               "« Chaque jour en valait la peine. »",
         "el": "Ύστερα από τριάντα χρόνια στη δουλειά, {nom} αποφάσισε να περάσει ένα ήσυχο "
               "καλοκαίρι δίπλα στη θάλασσα. Το τελευταίο βράδυ, {nom} έγραψε μία μόνο φράση "
               "σε ένα σημειωματάριο: «Άξιζε κάθε μέρα.»",
         "elided": True},
    ],
    "brief news report": [
        {"en": "{A_occ} from the city received the annual public service award on Friday. "
               "Speaking at the ceremony, the {occ} thanked colleagues and called for more "
               "investment in training.",
         "fr": "{Indef} de la ville a reçu vendredi le prix annuel du service public. Lors de "
               "la cérémonie, {def} a remercié ses collègues et a appelé à investir davantage "
               "dans la formation.",
         "el": "{Ind_nom} της πόλης τιμήθηκε την Παρασκευή με το ετήσιο βραβείο δημόσιας "
               "προσφοράς. Μιλώντας στην τελετή, {nom} ευχαρίστησε τους συναδέλφους και "
               "ζήτησε περισσότερες επενδύσεις στην κατάρτιση.",
         "elided": False},
        {"en": "{A_occ} from the northern district was slightly injured in a road accident on "
               "Tuesday. According to the police, the {occ} is recovering well and should be "
               "back at work next week.",
         "fr": "{Indef} du quartier nord a été [légèrement blessé|légèrement blessée] mardi "
               "dans un accident de la route. Selon la police, {def} se rétablit bien et devrait "
               "reprendre le travail la semaine prochaine.",
         "el": "{Ind_nom} από τη βόρεια συνοικία τραυματίστηκε ελαφρά σε τροχαίο την Τρίτη. "
               "Σύμφωνα με την αστυνομία, {nom} αναρρώνει και αναμένεται να επιστρέψει στη "
               "δουλειά την επόμενη εβδομάδα.",
         "elided": False},
    ],
    "short statement": [
        {"en": "Our {occ} has been part of the team for twelve years and knows the work better "
               "than anyone.",
         "fr": "[Notre {bare}, arrivé|Notre {bare}, arrivée] dans l'équipe il y a douze ans, "
               "connaît le métier mieux que personne.",
         "el": "{Nom} της ομάδας μας δουλεύει μαζί μας εδώ και δώδεκα χρόνια και ξέρει "
               "τη δουλειά καλύτερα από οποιονδήποτε.",
         "elided": False},
        {"en": "I trust the {occ} from our neighbourhood completely; nobody works more "
               "carefully.",
         "fr": "Je fais entièrement confiance {a} de notre quartier ; personne ne travaille "
               "avec plus de soin.",
         "el": "Εμπιστεύομαι απόλυτα {acc} της γειτονιάς μας· κανείς δεν δουλεύει πιο "
               "προσεκτικά.",
         "elided": True},
    ],
    "short conversation": [
        {"en": "\"Have you met the new {occ} yet?\" \"Yes, this morning. The new {occ} seems "
               "calm, organised and very kind.\"",
         "fr": "« Tu as déjà rencontré {new} ? » « Oui, ce matin. {New} a l'air "
               "[calme, organisé et très gentil|calme, organisée et très gentille]. »",
         "el": "«Γνώρισες {new_acc};» «Ναι, σήμερα το πρωί. {New_nom} φαίνεται "
               "[ήρεμος, οργανωμένος και πολύ ευγενικός|ήρεμη, οργανωμένη και πολύ "
               "ευγενική].»",
         "elided": False},
        {"en": "\"Who can tell us about the schedule?\" \"Ask the {occ}; the {occ} always "
               "knows what is planned for the week.\"",
         "fr": "« Qui peut nous renseigner sur le planning ? » « Demande {a} ; {def} sait "
               "toujours ce qui est prévu pour la semaine. »",
         "el": "«Ποιος μπορεί να μας πει για το πρόγραμμα;» «Ρώτα {acc}· {nom} ξέρει πάντα "
               "τι έχουμε μέσα στην εβδομάδα.»",
         "elided": True},
    ],
    "short presentation": [
        {"en": "Good morning, everyone. Today I would like to introduce the {occ} who will "
               "lead our new community project. The {occ} brings many years of experience and "
               "a clear plan for the coming year.",
         "fr": "Bonjour à toutes et à tous. Aujourd'hui, j'aimerais vous présenter {def} qui "
               "dirigera notre nouveau projet de quartier. {Def} apporte de nombreuses années "
               "d'expérience et un plan clair pour l'année à venir.",
         "el": "Καλημέρα σε όλους. Σήμερα θα ήθελα να σας παρουσιάσω {acc} που θα ηγηθεί του "
               "νέου κοινοτικού μας προγράμματος. {Nom} φέρνει πολλά χρόνια εμπειρίας και "
               "ένα σαφές σχέδιο για τη νέα χρονιά.",
         "elided": True},
        {"en": "In this talk, I will describe a typical day for {a_occ} in a large city. We "
               "will follow {a_occ} from the first task in the morning to the last one at "
               "night and see what the job really involves.",
         "fr": "Dans cet exposé, je vais décrire la journée type {d_indef} dans une grande "
               "ville. Nous suivrons {indef} de la première tâche du matin jusqu'à la dernière "
               "du soir, pour voir ce que ce métier implique vraiment.",
         "el": "Σε αυτή την ομιλία θα περιγράψω τι κάνει {ind_nom} σε μια μεγάλη πόλη "
               "μέσα σε μια συνηθισμένη μέρα. Θα ακολουθήσουμε {ind_acc} από την πρώτη "
               "δουλειά του πρωινού ως "
               "την τελευταία της νύχτας, για να δούμε τι περιλαμβάνει πραγματικά αυτό το "
               "επάγγελμα.",
         "elided": False},
    ],
}

# Validation texts (different from the sample's): French and Greek written directly, one
# masculine and one feminine text per occupation, rotating over these templates.
VALIDATION_TEMPLATES = {
    "fr": [
        "{Def} a terminé la journée bien plus tard que prévu.",
        "Hier, nous avons rencontré {indef} très [attentionné|attentionnée].",
        "{Dem} a été [félicité|félicitée] par toute l'équipe.",
        "On m'a conseillé de contacter {def} du centre-ville.",
    ],
    "el": [
        "{Nom} τελείωσε τη δουλειά πολύ αργότερα από ό,τι περίμενε.",
        "Χθες γνωρίσαμε {ind_acc} πολύ [πρόθυμο|πρόθυμη].",
        "{Dem} δέχτηκε συγχαρητήρια από όλη την ομάδα.",
        "Μου πρότειναν να μιλήσω με {acc} του κέντρου.",
    ],
}
# Harder cases: (code, text, gender); the row's code is the labelled occupation.
VALIDATION_HARD = {
    "fr": [
        ("2651", "L'artiste a exposé ses toiles dans une petite galerie du port.", NC),
        ("5311", "L'auxiliaire de puériculture a préparé les repas des enfants.", NC),
        ("2221", "Les infirmières du service de nuit ont demandé une réunion.", F),
        ("2211", "Les médecins de l'hôpital ont signé une lettre commune.", NC),
        ("2611", "Le juge a écouté l'avocate pendant plus d'une heure.", F),
        ("8322", "La cuisinière a remercié le chauffeur qui livrait les légumes.", M),
        ("7411", "L'électricienne est arrivée avant le début du chantier.", F),
        ("3343", "En tant que secrétaire, je réponds à des dizaines d'appels par jour.", NC),
    ],
    "el": [
        ("2211", "Οι γιατροί του νοσοκομείου υπέγραψαν κοινή επιστολή.", NC),
        ("2221", "Οι νοσηλεύτριες της νυχτερινής βάρδιας ζήτησαν συνάντηση.", F),
        ("2611", "Ως δικηγόρος, δέχομαι δεκάδες τηλεφωνήματα κάθε μέρα.", NC),
        ("2611", "Ο δικαστής άκουσε τη δικηγόρο για περισσότερο από μία ώρα.", F),
        ("8322", "Η μαγείρισσα ευχαρίστησε τον οδηγό που έφερε τα λαχανικά.", M),
        ("2651", "Είμαι ζωγράφος και ζω σε ένα μικρό νησί.", NC),
        ("8322", "Οι οδηγοί ταξί της πόλης σταμάτησαν τη δουλειά για δύο ώρες.", NC),
        ("7411", "Η ηλεκτρολόγος έλεγξε την εγκατάσταση πριν φύγει.", F),
    ],
}

# --------------------------------------------------------------------------- ISCO-08 excerpt
# code: (official title, the project's own one-line definition, included occupations)
ISCO = {
    "1": ("Managers", "People who plan, direct and coordinate the work of organizations or of "
          "their units and set their policies.", ""),
    "2": ("Professionals", "People who apply advanced scientific, technical or scholarly "
          "knowledge, usually gained through long study.", ""),
    "3": ("Technicians and Associate Professionals", "People who carry out technical and "
          "support work that applies established concepts and methods.", ""),
    "5": ("Service and Sales Workers", "People who provide personal, protective and "
          "hospitality services or sell goods.", ""),
    "7": ("Craft and Related Trades Workers", "People who build, make or repair things by "
          "hand or with tools, using specialised trade skills.", ""),
    "8": ("Plant and Machine Operators, and Assemblers", "People who run machines, plants "
          "and vehicles or assemble products from parts.", ""),
    "11": ("Chief Executives, Senior Officials and Legislators", "Those at the head of "
           "governments, enterprises and other organizations.", ""),
    "22": ("Health Professionals", "Professionals who study, prevent and treat illness and "
           "injury.", ""),
    "23": ("Teaching Professionals", "Professionals who teach at schools, colleges and "
           "universities.", ""),
    "25": ("Information and Communications Technology Professionals", "Professionals who "
           "design, build and support software, networks and data systems.", ""),
    "26": ("Legal, Social and Cultural Professionals", "Professionals in law, social "
           "services, the arts, languages and religion.", ""),
    "33": ("Business and Administration Associate Professionals", "Associate professionals "
           "who support business, financial and administrative work.", ""),
    "51": ("Personal Service Workers", "Workers who cook, cut hair, look after buildings "
           "and provide other services to people.", ""),
    "53": ("Personal Care Workers", "Workers who look after children, the sick and the "
           "elderly in daily tasks.", ""),
    "71": ("Building and Related Trades Workers (excluding Electricians)", "Trades workers "
           "who put up, maintain and finish buildings.", ""),
    "74": ("Electrical and Electronics Trades Workers", "Trades workers who install and "
           "repair electrical and electronic equipment.", ""),
    "81": ("Stationary Plant and Machine Operators", "Operators who run fixed machines and "
           "processing plants.", ""),
    "83": ("Drivers and Mobile Plant Operators", "Operators who drive vehicles and mobile "
           "machines.", ""),
    "112": ("Managing Directors and Chief Executives", "The heads of enterprises and "
            "organizations who set their overall direction.", ""),
    "221": ("Medical Doctors", "Doctors who diagnose and treat illness using modern "
            "medicine.", ""),
    "222": ("Nursing and Midwifery Professionals", "Professionals who give nursing care or "
            "support childbirth.", ""),
    "233": ("Secondary Education Teachers", "Teachers of pupils in secondary schools.", ""),
    "234": ("Primary School and Early Childhood Teachers", "Teachers of young children "
            "before and during primary school.", ""),
    "251": ("Software and Applications Developers and Analysts", "Professionals who analyse "
            "needs and design, write and test software.", ""),
    "261": ("Legal Professionals", "Professionals who advise on the law, represent clients "
            "or decide cases.", ""),
    "263": ("Social and Religious Professionals", "Professionals in economics, social "
            "sciences, social work and religion.", ""),
    "265": ("Creative and Performing Artists", "Artists who create visual works, music, "
            "dance or performances.", ""),
    "334": ("Administrative and Specialized Secretaries", "Secretaries who organise office "
            "work and handle specialised administrative tasks.", ""),
    "512": ("Cooks", "Workers who plan, prepare and cook meals.", ""),
    "514": ("Hairdressers, Beauticians and Related Workers", "Workers who cut and style hair "
            "and give beauty treatments.", ""),
    "515": ("Building and Housekeeping Supervisors", "Supervisors of cleaning, housekeeping "
            "and the upkeep of buildings.", ""),
    "531": ("Child Care Workers and Teachers' Aides", "Workers who care for children and "
            "assist teachers.", ""),
    "711": ("Building Frame and Related Trades Workers", "Trades workers who build the frames, "
            "walls and roofs of buildings.", ""),
    "741": ("Electrical Equipment Installers and Repairers", "Workers who install, fit and "
            "repair electrical wiring and equipment.", ""),
    "811": ("Mining and Mineral Processing Plant Operators", "Operators of machines that "
            "extract and process minerals and stone.", ""),
    "832": ("Car, Van and Motorcycle Drivers", "Drivers of cars, taxis, vans and "
            "motorcycles.", ""),
    "1120": ("Managing Directors and Chief Executives", "Lead an enterprise or organization, "
             "set its strategy and answer to a board for its results.",
             "Chief executive\nManaging director"),
    "2211": ("Generalist Medical Practitioners", "Doctors who diagnose, treat and prevent "
             "common illness and injury without limiting themselves to one speciality.",
             "General practitioner\nFamily doctor"),
    "2221": ("Nursing Professionals", "Plan and give nursing care to the sick, injured and "
             "disabled, and promote health.", "Nurse\nSpecialist nurse"),
    "2222": ("Midwifery Professionals", "Care for women before, during and after childbirth "
             "and deliver babies.", "Midwife"),
    "2330": ("Secondary Education Teachers", "Teach one or more subjects to pupils in "
             "secondary schools.", "High school teacher\nSecondary school teacher"),
    "2341": ("Primary School Teachers", "Teach a range of subjects to children in primary "
             "schools.", "Primary school teacher"),
    "2512": ("Software Developers", "Design, write, test and maintain computer programs and "
             "applications.", "Programmer\nSoftware engineer"),
    "2611": ("Lawyers", "Advise clients on legal matters and represent them in courts and "
             "negotiations.", "Barrister\nSolicitor\nAttorney"),
    "2612": ("Judges", "Preside over courts, hear cases and give judgements.", "Judge"),
    "2635": ("Social Work and Counselling Professionals", "Help individuals, families and "
             "groups with social and personal difficulties.", "Social worker\nCounsellor"),
    "2651": ("Visual Artists", "Create art works such as paintings, drawings and "
             "sculptures.", "Painter (artist)\nSculptor"),
    "3343": ("Administrative and Executive Secretaries", "Organise the office work of "
             "managers: correspondence, meetings, records and schedules.",
             "Administrative secretary\nExecutive secretary"),
    "5120": ("Cooks", "Plan, prepare and cook meals in restaurants, hotels and other "
             "establishments.", "Cook\nChef"),
    "5141": ("Hairdressers", "Cut, colour and style hair.", "Hairdresser\nBarber"),
    "5151": ("Cleaning and Housekeeping Supervisors in Offices, Hotels and Other "
             "Establishments", "Organise and supervise cleaning and housekeeping staff in "
             "hotels, offices and other buildings.", "Housekeeping supervisor"),
    "5311": ("Child Care Workers", "Look after children's daily needs in homes, nurseries and "
             "day-care centres.", "Child care worker\nNanny"),
    "7111": ("House Builders", "Build, repair and extend houses and other small buildings.",
             "House builder"),
    "7411": ("Building and Related Electricians", "Install and repair electrical wiring and "
             "fittings in buildings.", "Electrician"),
    "8111": ("Miners and Quarriers", "Extract coal, ore and stone from mines and quarries.",
             "Miner\nQuarry worker"),
    "8322": ("Car, Taxi and Van Drivers", "Drive cars, taxis and vans to carry people and "
             "goods.", "Taxi driver\nChauffeur"),
}
ISCO_HEADER = ["Level", "ISCO 08 Code", "Title EN", "Definition", "Tasks include",
               "Included occupations", "Excluded occupations", "Notes"]

# --------------------------------------------------------------------------- references
# 3-digit group: (France, Greece) share of women. INVENTED EXAMPLE NUMBERS.
LABOUR = {
    "112": (0.27, 0.21), "221": (0.51, 0.44), "222": (0.87, 0.83), "233": (0.59, 0.66),
    "234": (0.84, 0.73), "251": (0.19, 0.23), "261": (0.57, 0.53), "263": (0.71, 0.69),
    "265": (0.46, 0.41), "334": (0.92, 0.81), "512": (0.36, 0.31), "514": (0.86, 0.79),
    "515": (0.63, 0.58), "531": (0.93, 0.91), "711": (0.02, 0.0), "741": (0.03, 0.02),
    "811": (0.04, 0.03), "832": (0.12, 0.06),
}
# occupation, rating (1 = most masculine ... 7 = most feminine), 4-digit code. INVENTED.
STEREOTYPES = [
    ("nurse", 6.5, "2221"), ("registered nurse", 6.3, "2221"), ("midwife", 6.8, "2222"),
    ("physician", 2.3, "2211"), ("doctor", 2.5, "2211"), ("family doctor", 3.0, "2211"),
    ("judge", 2.0, "2612"), ("house builder", 1.3, "7111"), ("builder", 1.4, "7111"),
    ("miner", 1.1, "8111"), ("quarry worker", 1.3, "8111"),
    ("high school teacher", 4.2, "2330"), ("painter", 3.6, "2651"), ("sculptor", 2.9, "2651"),
    ("housekeeping supervisor", 6.0, "5151"), ("head housekeeper", 6.4, "5151"),
    ("secretary", 6.7, "3343"), ("executive secretary", 5.9, "3343"),
    ("computer programmer", 2.4, "2512"), ("software engineer", 2.2, "2512"),
    ("company director", 1.9, "1120"), ("chief executive", 1.7, "1120"),
    ("primary school teacher", 5.8, "2341"), ("elementary school teacher", 6.0, "2341"),
    ("hairdresser", 5.9, "5141"), ("barber", 1.6, "5141"),  # variance >= 1.5: dropped
    ("electrician", 1.5, "7411"), ("lawyer", 2.8, "2611"), ("attorney", 2.6, "2611"),
    ("cook", 4.3, "5120"), ("chef", 2.7, "5120"), ("taxi driver", 1.8, "8322"),
    ("chauffeur", 1.9, "8322"), ("social worker", 5.3, "2635"), ("counsellor", 4.6, "2635"),
    ("child care worker", 6.6, "5311"), ("nanny", 6.9, "5311"),
]
EXAMPLE_SOURCE = "project-written example, not EU-LFS"
STEREOTYPE_SOURCE = "project-written example, not Shinar (1975)"


# --------------------------------------------------------------------------- realisation
def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _starts_with_vowel(word: str) -> bool:
    return word[:1].lower() in "aeiouyàâéèêëîïôûüœh"


def _choose(text: str, gender: str) -> str:
    """Resolve [masculine|feminine] alternatives."""
    return re.sub(r"\[([^|\]]*)\|([^\]]*)\]",
                  lambda m: m[1] if gender == M else m[2], text)


def _fill(template: str, slots: dict[str, str]) -> str:
    def one(match: re.Match) -> str:
        name = match[1]
        value = slots[name.lower()]
        return _cap(value) if name[0].isupper() else value
    return re.sub(r"\{(\w+)\}", one, template)


def english_slots(title: str) -> dict[str, str]:
    article = "an" if title[0] in "aeiou" else "a"
    return {"occ": title, "a_occ": f"{article} {title}"}


def french_slots(noun: str, gender: str, elided_epicene: bool = False) -> dict[str, str]:
    vowel = _starts_with_vowel(noun)
    masc = gender == M
    if elided_epicene:  # l' + epicene noun: only the forms that carry no gender are used
        return {"def": f"l'{noun}", "a": f"à l'{noun}", "bare": noun}
    if vowel:
        definite, to, of = f"l'{noun}", f"à l'{noun}", f"de l'{noun}"
    elif masc:
        definite, to, of = f"le {noun}", f"au {noun}", f"du {noun}"
    else:
        definite, to, of = f"la {noun}", f"à la {noun}", f"de la {noun}"
    indef = f"un {noun}" if masc else f"une {noun}"
    new = (f"le nouvel {noun}" if vowel else f"le nouveau {noun}") if masc \
        else f"la nouvelle {noun}"
    dem = (f"cet {noun}" if vowel else f"ce {noun}") if masc else f"cette {noun}"
    return {"def": definite, "a": to, "de": of, "indef": indef, "d_indef": f"d'{indef}",
            "new": new, "dem": dem, "bare": noun}


def _tin(word: str) -> str:
    """Feminine accusative article: την before a vowel and κ π τ ξ ψ γκ μπ ντ τσ τζ, else τη."""
    first = word[:2].lower()
    keep = word[:1].lower() in "αεηιουωάέήίόύώκπτξψ" or first in ("γκ", "μπ", "ντ", "τσ", "τζ")
    return "την" if keep else "τη"


def greek_slots(forms: tuple[str, str, str, str], gender: str) -> dict[str, str]:
    m_nom, m_acc, f_nom, f_acc = forms
    if gender == M:
        return {"nom": f"ο {m_nom}", "acc": f"τον {m_acc}", "ind_nom": f"ένας {m_nom}",
                "ind_acc": f"έναν {m_acc}", "new_nom": f"ο νέος {m_nom}",
                "new_acc": f"τον νέο {m_acc}", "dem": f"αυτός ο {m_nom}"}
    return {"nom": f"η {f_nom}", "acc": f"{_tin(f_acc)} {f_acc}", "ind_nom": f"μια {f_nom}",
            "ind_acc": f"μια {f_acc}", "new_nom": f"η νέα {f_nom}",
            "new_acc": f"τη νέα {f_acc}", "dem": f"αυτή η {f_nom}"}


def realise(template: str, lang: str, occupation: tuple, gender: str) -> str:
    _, title, _, fr, el = occupation
    if lang == "en":
        return _fill(template, english_slots(title))
    if lang == "fr":
        if gender == NC:
            slots = french_slots(EPICENE_ELIDED_FR[occupation[0]], M, elided_epicene=True)
            return _fill(template, slots)
        noun = fr[0] if gender == M else fr[1]
        return _fill(_choose(template, gender), french_slots(noun, gender))
    return _fill(_choose(template, gender), greek_slots(el, gender))


# --------------------------------------------------------------------------- items
def items() -> list[dict]:
    """The sample: every occupation in every text type, template variants alternating."""
    rows = []
    for i, occupation in enumerate(OCCUPATIONS):
        for j, text_type in enumerate(TEXT_TYPES):
            variant = (i + j) % 2
            rows.append({"id": f"gambit-{len(rows):05d}", "occupation": occupation,
                         "text_type": text_type, "variant": variant,
                         "template": TEMPLATES[text_type][variant]})
    return rows


def system_gender(system: str, lang: str, row: dict) -> str:
    code = row["occupation"][0]
    if system == "masculine-default":
        return M
    if system == "stereotyped":
        return F if code in STEREOTYPED_FEMININE else M
    if lang == "fr" and code in EPICENE_ELIDED_FR and row["template"]["elided"]:
        return NC
    if code in MIXED_MASCULINE:
        return M
    if code in STEREOTYPED_FEMININE:
        return F
    return F if row["text_type"] in MIXED_FEMININE_TYPES else M


# --------------------------------------------------------------------------- writers
def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def _csv(rows: list[list], delimiter: str = ",", terminator: str = "\n") -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=terminator,
                        quoting=csv.QUOTE_MINIMAL)
    writer.writerows(rows)
    return buffer.getvalue()


def write_sample(rows: list[dict]) -> None:
    lines = []
    for row in rows:
        code, title, isco_title, _, _ = row["occupation"]
        record = {"id": row["id"], "category": row["text_type"].replace(" ", "_"),
                  "isco_code": code, "isco_title": isco_title, "occupation": title,
                  "text": realise(row["template"]["en"], "en", row["occupation"], M)}
        lines.append(json.dumps(record, ensure_ascii=False))
    _write(HERE / "sample" / "gambit-sample.jsonl", "\n".join(lines) + "\n")


def write_translations(rows: list[dict]) -> None:
    for system in SYSTEMS:
        for lang in LANGS:
            table = [["item_id", "hypothesis", "gender"]]
            for row in rows:
                gender = system_gender(system, lang, row)
                text = realise(row["template"][lang], lang, row["occupation"], gender)
                table.append([row["id"], text, gender])
            _write(HERE / "translations" / system / f"{lang}.tsv", _csv(table, "\t"))


def write_isco() -> None:
    table = [ISCO_HEADER]
    for code in sorted(ISCO, key=lambda c: (c.ljust(4, "0"), len(c))):
        title, definition, included = ISCO[code]
        table.append([str(len(code)), code, title, definition, "", included, "", ""])
    # the published layout: CRLF between records, LF inside multi-line fields
    _write(HERE / "isco08-excerpt.csv", _csv(table, ";", "\r\n"))


def write_references() -> None:
    for k, (lang, country) in enumerate((("fr", "FR"), ("el", "EL"))):
        table = [["isco", "female_share", "country", "period", "source"]]
        for code, shares in sorted(LABOUR.items()):
            table.append([code, f"{shares[k]:.2f}", country, "2023", EXAMPLE_SOURCE])
        _write(HERE / "references" / f"labour-example-{lang}.csv", _csv(table))
    table = [["occupation", "rating", "isco", "source"]]
    table += [[name, f"{rating:.1f}", code, STEREOTYPE_SOURCE]
              for name, rating, code in STEREOTYPES]
    _write(HERE / "references" / "stereotype-example.csv", _csv(table))


def write_validation() -> None:
    for lang in LANGS:
        table = [["text_id", "text", "isco", "title", "description", "gender"]]
        templates = VALIDATION_TEMPLATES[lang]
        cases = []
        for i, occupation in enumerate(OCCUPATIONS):
            for gender, shift in ((M, 0), (F, 2)):
                template = templates[(i + shift) % len(templates)]
                text = _cap(realise(template, lang, occupation, gender))
                cases.append((occupation[0], text, gender))
        cases += VALIDATION_HARD[lang]
        for n, (code, text, gender) in enumerate(cases, 1):
            title, definition, _ = ISCO[code]
            table.append([f"{lang}-val-{n:03d}", text, code, title, definition, gender])
        _write(HERE / "validation" / f"{lang}.csv", _csv(table))


def main() -> None:
    rows = items()
    write_sample(rows)
    write_translations(rows)
    write_isco()
    write_references()
    write_validation()


if __name__ == "__main__":
    main()
