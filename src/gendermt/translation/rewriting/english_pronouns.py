"""Rule-based gender rewriting of English pronouns (the pronoun-only case of GATE X-E).

Neutral rewrite: he/she → they (with subject–verb agreement), him → them, his/her → their or
theirs/them, hers → theirs, himself/herself → themselves. Gendered rewrites follow GATE X-E's
Appendix B.2: start from the original and map each pronoun straight to the requested gender
where that is unambiguous; where it is not (*her*: object or possessive; *his*: determiner or
pronoun), the neutral form chosen at the same place (them/their/theirs) decides.

No parser or language model: *her*/*his* and the verb after *he*/*she* are resolved from the
next words with word lists, so the rewriter runs anywhere. Gendered nouns are left alone; the
rewriter is meant for pronoun-only translations and is honest about nothing else. The word
lists are the project's own, developed on GATE X-E's real pronoun-only pairs (not the paper's
rule-based baseline, Sun et al. 2021): its figures there are not a held-out estimate.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher

GENDERS = ("feminine", "masculine", "neutral")


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())



# Table 12 of the paper: pronoun category → surface form per gender.
FORMS = {
    "subject": {"feminine": "she", "masculine": "he", "neutral": "they"},
    "object": {"feminine": "her", "masculine": "him", "neutral": "them"},
    "determiner": {"feminine": "her", "masculine": "his", "neutral": "their"},
    "pronoun": {"feminine": "hers", "masculine": "his", "neutral": "theirs"},
    "reflexive": {"feminine": "herself", "masculine": "himself", "neutral": "themselves"},
}
NEUTRAL_CATEGORY = {forms["neutral"]: cat for cat, forms in FORMS.items()}

# Tokens: words (with an inner apostrophe, straight or curly), other characters, whitespace.
TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?|\d+|\s+|.", re.S)

# Words that cannot start the noun phrase a possessive *her*/*his* determines: after them
# *her* is an object and *his* a pronoun ("saw her at", "one of his.").
FUNCTION_WORDS = _wordset("""
a an the this that these those some any no every each all both either neither my your our
its their his her him them me us it i you we they he she one ones
to at in on of off for from with without by about into onto over under up down out away
around through across after before since until till than as like near behind beside
besides between among against during toward towards upon via per within beyond past
and or but nor so yet if when while because although though unless whether where whenever
wherever then once also too very really just only even still already again always never
ever often sometimes usually rarely seldom not n't now here there today tonight tomorrow
yesterday anymore either enough much more less most least well alone together instead
anyway else soon later home abroad please is was are were be been being am has have had
do does did will would shall should can could may might must what who whom whose which how
why
""")

# Base-form verbs that follow an object *her* ("let her go", "made her cry", "saw her leave").
BASE_VERBS = _wordset("""
be go come leave stay know see hear feel think do make take give get tell say ask let eat
cry laugh sing win lose drive sit stand wait talk speak read write try buy bring carry
choose decide die live enter forget remember understand believe like hate want need marry
meet watch become fail pass wear learn teach travel explain send join throw kill hurt clean
relax happen grow paint escape
""")

# Auxiliaries and irregular verbs after a singular subject → their plural forms.
VERB_PLURAL = {
    "is": "are", "was": "were", "has": "have", "does": "do", "isn't": "aren't",
    "wasn't": "weren't", "hasn't": "haven't", "doesn't": "don't", "goes": "go",
}
ADVERBS = _wordset("""
always never often sometimes usually also still just really only even already rarely
seldom certainly probably definitely actually finally suddenly hardly barely nearly almost
clearly simply truly apparently frequently generally occasionally constantly quickly slowly
immediately recently soon once twice then not
""")
WH_WORDS = _wordset("what where when why how who whom which whose")
# "How long has she …", "Not only does she …": the auxiliary still comes first.
QUESTION_LEADS = _wordset("long often much many only far old soon")
CLAUSE_ENDS = frozenset(".!?;:")
SUBJECTS = _wordset("i you we they he she it that who which")
# Words ending in -s after he/she that are not third-person verbs.
NOT_VERBS = _wordset("""
is was has does as its this thus his hers us yes less unless always perhaps sometimes
nevertheless besides across towards afterwards news series species politics physics
this plus bus gas yes famous
""")
# *'s* after he/she: "he's been" → "they've been" (has), otherwise "they're" (is).
PREPOSITIONS = _wordset("""
of for in from before after during on at by about into onto with without to under over
through behind near like than around across toward towards upon within among between
against since despite beside throughout
""")
LY_NOUNS = _wordset("family belly jelly lily ally rally bully holly folly assembly")
HAS_FOLLOWERS = _wordset("""
been got gotten had done made seen taken given gone come become known told said found
left lost won bought brought thought written eaten hung
""")


def tokenize(text: str) -> list[str]:
    """Words, punctuation and whitespace; ``"".join(tokenize(t)) == t``."""
    return TOKEN.findall(text)


def _is_word(token: str) -> bool:
    return bool(token) and token[0].isalpha()


def _match_case(word: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return word.upper()
    if like[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _words(tokens: list[str]) -> list[int]:
    return [i for i, t in enumerate(tokens) if not t.isspace()]


def _next_word(tokens: list[str], positions: list[int], k: int) -> str | None:
    """The token after position ``k`` of ``positions`` (lower-cased), or None at the end."""
    return tokens[positions[k + 1]].lower() if k + 1 < len(positions) else None


def _prev_word(tokens: list[str], positions: list[int], k: int) -> str | None:
    return tokens[positions[k - 1]].lower() if k > 0 else None


def _singular_to_plural_verb(word: str) -> str | None:
    """The plural form of a third-person singular verb, or None if ``word`` is not one."""
    low = word.lower().replace("’", "'")
    if low in VERB_PLURAL:
        return _match_case(VERB_PLURAL[low], word)
    if (low in NOT_VERBS or not low.endswith("s") or len(low) < 3
            or low.endswith(("ss", "ous", "us"))):
        return None
    if low.endswith("ies") and len(low) > 4:
        base = low[:-3] + "y"
    elif low.endswith(("ches", "shes", "xes", "zzes", "sses", "oes")):
        base = low[:-2]
    else:
        base = low[:-1]
    return _match_case(base, word)


def _agree_after_subject(tokens: list[str], positions: list[int], k: int) -> None:
    """Make the verb after the new subject *they* at word ``k`` plural, skipping adverbs."""
    j = k + 1
    while j < len(positions) and tokens[positions[j]].lower() in ADVERBS:
        j += 1
    if j >= len(positions) or not _is_word(tokens[positions[j]]):
        return
    plural = _singular_to_plural_verb(tokens[positions[j]])
    if plural is not None:
        tokens[positions[j]] = plural
    # A coordinated auxiliary shares the subject: "… and has never been heard of since."
    for m in range(j + 1, len(positions) - 1):
        word = tokens[positions[m]].lower()
        if word in CLAUSE_ENDS or word in SUBJECTS:
            return
        if word == "and":
            n = m + 1
            while n < len(positions) and tokens[positions[n]].lower() in ADVERBS:
                n += 1
            if n < len(positions):
                aux = tokens[positions[n]]
                if aux.lower().replace("’", "'") in VERB_PLURAL:
                    tokens[positions[n]] = _match_case(
                        VERB_PLURAL[aux.lower().replace("’", "'")], aux)
            return


def _agree_before_subject(tokens: list[str], positions: list[int], k: int) -> bool:
    """Questions and inversions: "Does she …" → "Do they …", "Is he …" → "Are they …"."""
    if k == 0:
        return False
    prev = tokens[positions[k - 1]]
    low = prev.lower().replace("’", "'")
    before = tokens[positions[k - 2]].lower() if k > 1 else None
    clause_start = (before is None or not _is_word(before) or before in WH_WORDS
                    or before in QUESTION_LEADS)
    if low in VERB_PLURAL and low != "goes" and clause_start:
        tokens[positions[k - 1]] = _match_case(VERB_PLURAL[low], prev)
        return True
    return False


def _her_is_determiner(prev_word: str | None, next_word: str | None,
                       following: str | None = None) -> bool:
    """Whether *her* is a possessive determiner (→ their) rather than an object (→ them),
    from the words around it."""
    if next_word is None or not (_is_word(next_word) or next_word.isdigit()):
        return False
    if next_word.isdigit() or next_word == "own":
        return True
    if next_word in FUNCTION_WORDS:
        return False
    if next_word.endswith("ly") and len(next_word) > 4 and next_word not in LY_NOUNS:
        return False  # an adverb: "help her immediately"
    if prev_word is None or not _is_word(prev_word) or prev_word in PREPOSITIONS:
        return True  # "Her work …", "for her work"
    if next_word in BASE_VERBS:
        return False  # "let her go"
    # "found her playing the piano" (object) but "her reading glasses" (determiner)
    return not (next_word.endswith("ing") and following in FUNCTION_WORDS)


def _his_is_determiner(next_word: str | None) -> bool:
    return next_word is not None and _is_word(next_word) and next_word not in FUNCTION_WORDS


def neutral_rewrite(text: str) -> str:
    """The all-neutral rewrite of an English sentence's gendered pronouns."""
    tokens = tokenize(text)
    positions = _words(tokens)
    for k, pos in enumerate(positions):
        word = tokens[pos]
        low = word.lower().replace("’", "'")
        apostrophe = "’" if "’" in word else "'"
        nxt = _next_word(tokens, positions, k)
        if low in ("he", "she"):
            tokens[pos] = _match_case("they", word)
            # In a question the verb came first ("Is she famous?"); otherwise it follows.
            if not _agree_before_subject(tokens, positions, k):
                _agree_after_subject(tokens, positions, k)
        elif low in ("he's", "she's"):
            j = k + 1
            while j < len(positions) and tokens[positions[j]].lower() in ADVERBS:
                j += 1
            after = tokens[positions[j]].lower() if j < len(positions) else None
            tail = "ve" if after in HAS_FOLLOWERS else "re"
            tokens[pos] = _match_case(f"they{apostrophe}{tail}", word)
        elif low in ("he'd", "she'd", "he'll", "she'll"):
            tokens[pos] = _match_case("they" + word[word.index(apostrophe):], word)
        elif low == "him":
            tokens[pos] = _match_case("them", word)
        elif low in ("himself", "herself"):
            tokens[pos] = _match_case("themselves", word)
        elif low == "hers":
            tokens[pos] = _match_case("theirs", word)
        elif low == "his":
            tokens[pos] = _match_case("their" if _his_is_determiner(nxt) else "theirs", word)
        elif low == "her":
            prev = _prev_word(tokens, positions, k)
            det = _her_is_determiner(prev, nxt, _next_word(tokens, positions, k + 1))
            tokens[pos] = _match_case("their" if det else "them", word)
    return "".join(tokens)


def _aligned_neutral_forms(original: list[str], neutral: list[str]) -> dict[int, str]:
    """For each word of ``original``, the word at the same place in ``neutral`` (lower-case),
    where the two can be aligned (equal stretches and same-length replacements)."""
    a = [t.lower() for t in original]
    b = [t.lower() for t in neutral]
    aligned: dict[int, str] = {}
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag in ("equal", "replace") and i2 - i1 == j2 - j1:
            for d in range(i2 - i1):
                aligned[i1 + d] = b[j1 + d].replace("’", "'")
    return aligned


def gendered_rewrite(original: str, neutral: str, gender: str) -> str:
    """The all-``gender`` rewrite of ``original`` (feminine or masculine), Appendix B.2:
    unambiguous pronouns map directly; *her*/*his* take the category the neutral rewrite
    gave them at the same place."""
    if gender not in ("feminine", "masculine"):
        raise ValueError(f"gender must be feminine or masculine, not {gender!r}")
    tokens = tokenize(original)
    positions = _words(tokens)
    words = [tokens[p] for p in positions]
    neutral_words = [t for t in tokenize(neutral) if not t.isspace()]
    aligned = _aligned_neutral_forms(words, neutral_words)
    for k, pos in enumerate(positions):
        word = tokens[pos]
        low = word.lower().replace("’", "'")
        apostrophe = "’" if "’" in word else "'"
        category = None
        if low in ("he", "she"):
            category = "subject"
        elif low == "him":
            category = "object"
        elif low in ("himself", "herself"):
            category = "reflexive"
        elif low == "hers":
            category = "pronoun"
        elif low in ("her", "his"):
            chosen = NEUTRAL_CATEGORY.get(aligned.get(k, ""))
            if chosen in ("object", "determiner", "pronoun"):
                category = chosen
            elif low == "her":
                category = "determiner" if _her_is_determiner(
                    _prev_word(tokens, positions, k), _next_word(tokens, positions, k),
                    _next_word(tokens, positions, k + 1)) else "object"
            else:
                category = "determiner" if _his_is_determiner(_next_word(
                    tokens, positions, k)) else "pronoun"
        elif low in ("he's", "she's", "he'd", "she'd", "he'll", "she'll"):
            subject = FORMS["subject"][gender]
            tokens[pos] = _match_case(subject + word[word.index(apostrophe):], word)
            continue
        if category is not None:
            tokens[pos] = _match_case(FORMS[category][gender], word)
    return "".join(tokens)


def rewrite_all(original: str) -> dict[str, str]:
    """The three uniform-gender rewrites of ``original``."""
    neutral = neutral_rewrite(original)
    return {"neutral": neutral,
            "feminine": gendered_rewrite(original, neutral, "feminine"),
            "masculine": gendered_rewrite(original, neutral, "masculine")}


def has_gendered_pronoun(text: str) -> bool:
    gendered = {"he", "she", "him", "her", "his", "hers", "himself", "herself", "he's",
                "she's", "he'd", "she'd", "he'll", "she'll"}
    return any(t.lower().replace("’", "'") in gendered for t in tokenize(text))


def rewrite_many(originals: Iterable[str]) -> list[dict[str, str]]:
    return [rewrite_all(o) for o in originals]
