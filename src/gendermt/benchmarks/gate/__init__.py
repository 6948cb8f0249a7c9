"""GATE (Rarrick et al. 2023): gender rewriting of English→Spanish/French/Italian
translations, scored by exact match as GATE's own GateEval.py does."""

LANGUAGES = {"ES": "es", "FR": "fr", "IT": "it"}
# GateEval.py's report order of category labels; labels not listed follow, sorted.
CATEGORY_ORDER = (
    "PROF", "NAT", "REL", "FAM", "NHUM", "OTH",
    "SUBJ", "SCMP", "DOBJ", "IOBJ", "OPRP", "VOC", "POSC", "OCMP", "DIFF",
    "QUES", "FRAG", "IMPR",
    "APRD", "AATR", "ANAN", "PPA", "APPS",
    "PERS", "RELA", "DEMO", "POSS", "DROP", "IPRO",
    "PLUR", "INDF", "DFCL", "PSSV", "VPART", "GLNK",
)
# --gender → the reference column it is compared with.
GENDER_COLUMN = {"feminine": "f", "masculine": "m"}
