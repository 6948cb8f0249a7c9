"""The offline detector: occupation titles and their gender from a lexicon (no model).

A lexicon file (``resources/gambit/lexicon/{lang}.tsv``, tab-separated, header ``isco``,
``masculine``, ``feminine``) gives, per row, the forms of one title of an ISCO-08 unit group
(``|``-separated variants: singular, plural, Greek cases). A form in only one column shows its
gender; a form in both (``médecin``, ``γιατρός``) is epicene. A code may have several rows
(synonyms), and one form may belong to several codes (``enseignant``: 2330 and 2341).

A cues file (``{lang}-cues.yaml``) lists the words that agree with a title: determiners
(searched just before it), adjectives and participles (before it, or just after it, also
after a copula), the words passed over, and the inclusive endings (``infirmier·ère``).

Per text, mentions are found as token sequences over a normalised text (case-, accent- and
final-sigma-insensitive, apostrophes and hyphens as separators, so ``l'infirmière`` and
``sage femme`` match), longest first. A mention's gender comes from a gender-specific form,
else from its cues; a masculine form with only feminine cues is read as feminine (``la
professeur``, ``η βουλευτής``: masculine forms used as epicene); cues of both genders, a
form contradicted by its cues in any other way, or an inclusive ending make it Not Clear.
A one-word title right after a subject pronoun, maybe across object clitics (``il juge``,
``elle le juge``), is the verb it is spelt like, not a mention.
All mentions of one code in a text give one assignment: the gender their gendered mentions
agree on (mentions without a cue are left out when another has one); disagreement (a doublet
"infirmier ou infirmière", a masculine and a feminine referent) or no cue at all: Not Clear.
"""

from __future__ import annotations

import csv
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from tqdm import tqdm

from gendermt.benchmarks.gambit.labels import FEMININE, MASCULINE, NOT_CLEAR
from gendermt.config import project
from gendermt.core.errors import DatasetError, GenderMTError, MissingResourceError

ROOT = project.root()  # the checkout, or the copy packaged in the wheel
DEFAULT_DIR = ROOT / "resources" / "gambit" / "lexicon"
# Gaps between two tokens that keep them in one noun phrase: spaces, apostrophes, hyphens,
# slashes ("le/la"), parentheses ("un(e)"). Anything else (.,;:!?« » …) is a boundary.
_JOINING = set(" \t\n'’‘-‐‑/()·•∙⋅")


def normalise_char(ch: str, fold_accents: bool = True) -> str:
    """One character as it is compared: casefolded, accents dropped (unless
    ``fold_accents`` is false), final sigma as sigma, curly apostrophes as straight ones,
    œ/æ spelt out."""
    if ch in "’‘ʼ´`":
        return "'"
    out = []
    for c in unicodedata.normalize("NFD", ch.casefold()):
        if unicodedata.combining(c) and fold_accents:
            continue
        out.append({"ς": "σ", "œ": "oe", "æ": "ae"}.get(c, c))
    return unicodedata.normalize("NFC", "".join(out))


def normalise(text: str, fold_accents: bool = True) -> str:
    return "".join(normalise_char(c, fold_accents) for c in text)


@dataclass(frozen=True)
class Token:
    norm: str        # the normalised word
    start: int       # span in the original text
    end: int
    gap: str         # original text between the previous token and this one
    inclusive: bool = False  # followed by an inclusive ending ("infirmier·ère")
    cased: str = ""  # normalised with its accents (French cues: "arrivé" is not "arrive")


def tokenize(text: str, separators: str = "", suffixes: frozenset[str] = frozenset()
             ) -> list[Token]:
    """Word tokens of ``text`` with their original spans; an inclusive ending glued to a word
    (``separators`` + one of ``suffixes``, lower case) is folded into that word's flag."""
    norm_chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        n = normalise_char(ch)
        norm_chars.append(n)
        origin.extend([i] * len(n))
    norm = "".join(norm_chars)
    raw: list[tuple[str, int, int]] = []
    pos = 0
    while pos < len(norm):
        if norm[pos].isalnum():
            end = pos
            while end < len(norm) and norm[end].isalnum():
                end += 1
            raw.append((norm[pos:end], origin[pos], origin[end - 1] + 1))
            pos = end
        else:
            pos += 1
    tokens: list[Token] = []
    prev_end = 0
    i = 0
    while i < len(raw):
        word, start, end = raw[i]
        inclusive = False
        if i + 1 < len(raw) and separators:
            nxt, nstart, nend = raw[i + 1]
            between = text[end:nstart]
            if (nxt in suffixes and between and between[0] in separators
                    and between.strip("()") in ("", *separators) and len(between) <= 2
                    and text[nstart:nend].islower()
                    and (nend >= len(text) or not text[nend].isalnum())):
                inclusive = True
                end = nend + (1 if text[nend:nend + 1] == ")" else 0)
                i += 1
        cased = normalise(text[start:raw[i - 1][2] if inclusive else end], fold_accents=False)
        tokens.append(Token(word, start, end, text[prev_end:start], inclusive, cased))
        prev_end = end
        i += 1
    return tokens


def _joined(gap: str) -> bool:
    return all(c in _JOINING for c in gap)


@dataclass(frozen=True)
class Form:
    isco: str
    title: str                # the form as written in the lexicon
    gender: str | None        # Masculine, Feminine or None (epicene)


@dataclass
class Cues:
    masc_det: frozenset[str]
    fem_det: frozenset[str]
    neutral_det: frozenset[str]
    masc_adj: frozenset[str]
    fem_adj: frozenset[str]
    skip: frozenset[str]
    conjunctions: frozenset[str]
    separators: str
    suffixes: frozenset[str]
    #: A one-word title right after a subject pronoun, or after object clitics that follow
    #: one, is a verb: "il le juge", "elle pilote" (French; empty for Greek).
    verb_subjects: frozenset[str] = frozenset()
    verb_clitics: frozenset[str] = frozenset()
    window_before: int = 4
    window_after: int = 3
    #: French: "arrivé" (a participle that agrees) is not "arrive" (a verb that does not).
    accent_sensitive: bool = False

    def key(self, token: Token) -> str:
        return token.cased if self.accent_sensitive else token.norm

    def det(self, word: str) -> str | None:
        return MASCULINE if word in self.masc_det else FEMININE if word in self.fem_det else None

    def adj(self, word: str) -> str | None:
        return MASCULINE if word in self.masc_adj else FEMININE if word in self.fem_adj else None


@dataclass(frozen=True)
class Mention:
    isco: str
    title: str
    occurrence: str
    start: int
    label: str


@dataclass
class Lexicon:
    lang: str
    forms: dict[tuple[str, ...], list[Form]]
    cues: Cues
    codes: frozenset[str]
    sources: dict[str, str] = field(default_factory=dict)
    max_len: int = 1

    def mentions(self, text: str) -> list[Mention]:
        """Every lexicon mention in ``text`` (all codes), longest match first."""
        tokens = tokenize(text, self.cues.separators, self.cues.suffixes)
        found: list[Mention] = []
        i = 0
        while i < len(tokens):
            for length in range(min(self.max_len, len(tokens) - i), 0, -1):
                span = tokens[i:i + length]
                if any(not _joined(t.gap) for t in span[1:]):
                    continue  # a title never spans punctuation
                forms = self.forms.get(tuple(t.norm for t in span))
                if not forms or (length == 1 and self._is_verb(tokens, i)):
                    continue
                cues = self._cues(tokens, i, i + length)
                occurrence = text[span[0].start:span[-1].end]
                for form in forms:
                    label = _mention_label(form.gender, cues, span[-1].inclusive)
                    found.append(Mention(form.isco, form.title, occurrence, span[0].start,
                                         label))
                i += length - 1
                break
            i += 1
        return found

    def _is_verb(self, tokens: list[Token], i: int) -> bool:
        """``tokens[i]`` follows a subject pronoun, maybe across object clitics ("il le
        juge"); "le juge" alone, or after any other word ("a vu le juge"), is a noun."""
        c = self.cues
        if not c.verb_subjects:
            return False
        j = i - 1
        while j >= 0 and _joined(tokens[j + 1].gap) and c.key(tokens[j]) in c.verb_clitics:
            j -= 1
        return j >= 0 and _joined(tokens[j + 1].gap) and c.key(tokens[j]) in c.verb_subjects

    def _cues(self, tokens: list[Token], start: int, end: int) -> list[str]:
        """Genders shown by the words agreeing with the title ``tokens[start:end]``."""
        c = self.cues
        cues: list[str] = []
        # Before: adjectives and skipped words back to a determiner, which ends the phrase;
        # "le ou la", "le/la" (a doublet) count both.
        i, steps = start - 1, 0
        while i >= 0 and steps < c.window_before and _joined(tokens[i + 1].gap):
            word, tok = c.key(tokens[i]), tokens[i]
            if word in c.masc_det or word in c.fem_det or word in c.neutral_det:
                if tok.inclusive:
                    cues += [MASCULINE, FEMININE]
                elif c.det(word):
                    cues.append(c.det(word))
                # a determiner doublet: "le ou la", "ο ή η", "le/la", "ο/η"
                j = i - 1
                while j >= 0 and _joined(tokens[j + 1].gap):
                    prev = c.key(tokens[j])
                    if prev in c.conjunctions or prev in c.skip:
                        j -= 1
                        continue
                    if c.det(prev) or prev in c.neutral_det:
                        if c.det(prev):
                            cues.append(c.det(prev))
                        j -= 1
                        continue
                    break
                break
            shown = c.adj(word)
            if shown:
                cues += [MASCULINE, FEMININE] if tok.inclusive else [shown]
            elif word not in c.skip:
                break
            i -= 1
            steps += 1
        # After: adjectives and participles, also after a copula ("est arrivée").
        j, steps = end, 0
        while j < len(tokens) and steps < c.window_after and _joined(tokens[j].gap):
            word = c.key(tokens[j])
            shown = c.adj(word)
            if shown:
                cues += [MASCULINE, FEMININE] if tokens[j].inclusive else [shown]
            elif word not in c.skip:
                break
            j += 1
            steps += 1
        return cues


def _mention_label(form_gender: str | None, cues: list[str], inclusive: bool) -> str:
    if inclusive:
        return NOT_CLEAR
    shown = set(cues)
    if form_gender is None:
        return shown.pop() if len(shown) == 1 else NOT_CLEAR
    if not shown or shown == {form_gender}:
        return form_gender
    if form_gender == MASCULINE and shown == {FEMININE}:
        return FEMININE  # a masculine form used as epicene: "la professeur"
    return NOT_CLEAR


def aggregate(labels: Iterable[str]) -> str:
    """One label from the labels of all mentions of one code in one text."""
    gendered = {label for label in labels if label != NOT_CLEAR}
    return gendered.pop() if len(gendered) == 1 else NOT_CLEAR


def _words(value: Any, path: Path, key: str, fold: bool = True) -> frozenset[str]:
    if value is None:
        return frozenset()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise GenderMTError(f"{path}: {key} must be a list of words")
    return frozenset(normalise(v, fold) for v in value)


def load_cues(path: str | Path) -> Cues:
    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(f"lexicon cues file {path} not found")
    spec = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    det, adj = spec.get("determiners") or {}, spec.get("adjectives") or {}
    masc_adj = list(adj.get("masculine") or [])
    fem_adj = list(adj.get("feminine") or [])
    fold = not bool(spec.get("accent_sensitive", False))
    suffix = spec.get("plural_suffix")
    if suffix:  # French adjectives take -s in the plural (unless they end in s or x)
        masc_adj += [a + suffix for a in masc_adj if not a.endswith(("s", "x"))]
        fem_adj += [a + suffix for a in fem_adj if not a.endswith(("s", "x"))]
    return Cues(
        masc_det=_words(det.get("masculine"), path, "determiners.masculine", fold),
        fem_det=_words(det.get("feminine"), path, "determiners.feminine", fold),
        neutral_det=_words(det.get("neutral"), path, "determiners.neutral", fold),
        masc_adj=_words(masc_adj, path, "adjectives.masculine", fold),
        fem_adj=_words(fem_adj, path, "adjectives.feminine", fold),
        skip=_words(spec.get("skip"), path, "skip", fold),
        conjunctions=_words(spec.get("conjunctions"), path, "conjunctions", fold),
        separators=str(spec.get("inclusive_separators") or ""),
        suffixes=_words(spec.get("inclusive_suffixes"), path, "inclusive_suffixes"),
        verb_subjects=_words(spec.get("verb_subjects"), path, "verb_subjects", fold),
        verb_clitics=_words(spec.get("verb_clitics"), path, "verb_clitics", fold),
        window_before=int(spec.get("window_before", 4)),
        window_after=int(spec.get("window_after", 3)),
        accent_sensitive=not fold,
    )


def cues_path_for(lexicon_path: str | Path) -> Path:
    """``fr.tsv`` → ``fr-cues.yaml`` beside it."""
    p = Path(lexicon_path)
    return p.with_name(p.stem + "-cues.yaml")


def load_lexicon(path: str | Path, lang: str = "", cues: str | Path | None = None) -> Lexicon:
    """Read a lexicon TSV (and its cues file: ``cues`` or ``<stem>-cues.yaml`` beside it)."""
    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(f"GAMBIT lexicon {path} not found: give detector.lexicons."
                                   f"{lang or '<lang>'} a TSV with columns isco, masculine, "
                                   "feminine (see resources/gambit/lexicon/)")
    cue_spec = load_cues(cues or cues_path_for(path))
    forms: dict[tuple[str, ...], list[Form]] = {}
    codes: set[str] = set()
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        missing = {"isco", "masculine", "feminine"} - set(reader.fieldnames or [])
        if missing:
            raise DatasetError(path, f"missing column(s) {sorted(missing)}")
        for row_no, row in enumerate(reader, start=1):
            code = (row["isco"] or "").strip()
            if not (code.isdigit() and len(code) == 4):
                raise DatasetError(path, f"not a 4-digit ISCO-08 code: {code!r}", row=row_no,
                                   column="isco")
            masc = [v.strip() for v in (row["masculine"] or "").split("|") if v.strip()]
            fem = [v.strip() for v in (row["feminine"] or "").split("|") if v.strip()]
            if not masc and not fem:
                raise DatasetError(path, "no form", row=row_no, column="masculine")
            codes.add(code)
            norm_m = {normalise(v): v for v in masc}
            norm_f = {normalise(v): v for v in fem}
            for norm, original in {**norm_f, **norm_m}.items():
                gender = (None if norm in norm_m and norm in norm_f
                          else MASCULINE if norm in norm_m else FEMININE)
                key = tuple(t.norm for t in tokenize(original))
                if not key:
                    raise DatasetError(path, f"form {original!r} has no word", row=row_no)
                entry = Form(code, original, gender)
                bucket = forms.setdefault(key, [])
                if all(f.isco != code for f in bucket):
                    bucket.append(entry)
                elif entry not in bucket:  # the same form in two rows of one code
                    raise DatasetError(path, f"form {original!r} is listed twice for {code}",
                                       row=row_no)
    return Lexicon(lang=lang, forms=forms, cues=cue_spec, codes=frozenset(codes),
                   sources={"lexicon": str(path)},
                   max_len=max((len(k) for k in forms), default=1))


@lru_cache(maxsize=8)
def _cached(path: str, lang: str) -> Lexicon:
    return load_lexicon(path, lang)


def detect_text(lexicon: Lexicon, text: str, candidates: Iterable[str] | None
                ) -> tuple[list[dict[str, Any]], int]:
    """The assignments of one text (one per code, in order of first mention) and the number
    of codes mentioned that are not among ``candidates`` (None: every code counts)."""
    by_code: dict[str, list[Mention]] = {}
    for m in lexicon.mentions(text or ""):
        by_code.setdefault(m.isco, []).append(m)
    wanted = None if candidates is None else {str(c) for c in candidates}
    rows, not_candidate = [], 0
    for code, mentions in by_code.items():
        if wanted is not None and code not in wanted:
            not_candidate += 1
            continue
        label = aggregate(m.label for m in mentions)
        shown = next((m for m in mentions if m.label == label), mentions[0])
        rows.append({"isco": code, "label": label, "title": shown.title,
                     "occurrence": shown.occurrence, "description": "", "match_score": 100.0,
                     "similarity": None})
    return rows, not_candidate


def detect(texts: Mapping[str, str], candidates: Mapping[str, list[str]], lang: str,
           detector: dict[str, Any]) -> tuple[list[dict[str, Any]], Counter, dict[str, Any]]:
    """Detector ``kind: lexicon``: ``(rows with text_id, dropped counts, settings)``.

    ``detector``: ``lexicons: {lang: PATH}`` (default: the shipped
    ``resources/gambit/lexicon/{lang}.tsv``), ``all_occupations: false`` (true: report every
    lexicon occupation found, not only the text's candidates).
    """
    path = (detector.get("lexicons") or {}).get(lang) or DEFAULT_DIR / f"{lang}.tsv"
    lexicon = _cached(str(path), lang)
    every = bool(detector.get("all_occupations", False))
    rows: list[dict[str, Any]] = []
    dropped: Counter = Counter()
    for text_id, text in tqdm(texts.items(), total=len(texts), desc=f"lexicon ({lang})",
                              unit="text", mininterval=1.0):
        found, n_other = detect_text(lexicon, text, None if every else candidates.get(text_id,
                                                                                      []))
        dropped["not_candidate"] += n_other
        rows += [{"text_id": text_id, **r} for r in found]
    settings = {"kind": "lexicon", "lexicon": str(path),
                "cues": str(cues_path_for(path)), "all_occupations": every,
                "codes_in_lexicon": len(lexicon.codes)}
    return rows, dropped, settings
