"""Neomorpheme paradigms: a tagset mapping, and the adaptation of Neo-GATE's tags to it.

A mapping is a JSON object from each placeholder tag of Neo-GATE (paper Table 8, e.g.
``<ENDS>``, ``<DARTP>``) to the paradigm's surface form (``*`` / ``l*`` for the Asterisk,
``ə`` / ``lɜ`` for the Schwa). Keys may be written with or without the angle brackets.
Adaptation replaces every tag of ``REF-TAGGED`` and ``ANNOTATION`` by its form, as the
dataset's ``neogate_adapt.py`` does; a form holding whitespace, ``;`` or ``=`` would break the
annotation format and is rejected, as is data holding a tag the mapping lacks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from gendermt.core.errors import DatasetError, GenderMTError, MissingResourceError

TAG = re.compile(r"<[^<>\s;=]+>")
# Letters that are plain Italian spelling, never a neomorpheme: a–z, A–Z and the accented
# vowels of Italian orthography.
ITALIAN_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                            "àèéìíîòóùúÀÈÉÌÍÎÒÓÙÚ")
FORBIDDEN = (";", "=")


class MappingError(GenderMTError):
    """A tagset mapping that cannot adapt the data."""


def normalise_tag(key: str) -> str:
    key = key.strip()
    return key if key.startswith("<") and key.endswith(">") else f"<{key}>"


def check_mapping(mapping: Mapping[str, object], where: str = "mapping") -> dict[str, str]:
    """Validate a mapping (tag → form) and return it with tags in ``<TAG>`` form."""
    if not isinstance(mapping, Mapping) or not mapping:
        raise MappingError(f"{where}: expected a non-empty JSON object from tag to form")
    out: dict[str, str] = {}
    for key, form in mapping.items():
        tag = normalise_tag(str(key))
        if not TAG.fullmatch(tag):
            raise MappingError(f"{where}: {key!r} is not a tag name (e.g. <ENDS>)")
        if not isinstance(form, str) or form == "":
            raise MappingError(f"{where}: the form of {tag} must be a non-empty string, "
                               f"found {form!r}")
        bad = [c for c in form if c.isspace() or c in FORBIDDEN]
        if bad:
            raise MappingError(
                f"{where}: the form of {tag} ({form!r}) holds {bad[0]!r}; whitespace, ';' and "
                "'=' break Neo-GATE's annotation format (';' separates entries, spaces the "
                "forms, '=' the anchor)")
        if tag in out:
            raise MappingError(f"{where}: {tag} is mapped twice")
        out[tag] = form
    return out


def load_mapping(path: str | Path) -> dict[str, str]:
    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(f"tagset mapping {path} does not exist (a JSON object from "
                                   "tag to form; see resources/neogate/asterisk.json)")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MappingError(f"{path}: not valid UTF-8 JSON: {exc}") from None
    return check_mapping(raw, str(path))


def neomorpheme_chars(mapping: Mapping[str, str]) -> str:
    """The paradigm's characters: those of its forms other than Italian letters, sorted."""
    return "".join(sorted({c for form in mapping.values() for c in form
                           if c not in ITALIAN_LETTERS}))


def tags_in(texts: Iterable[str]) -> set[str]:
    return {tag for text in texts for tag in TAG.findall(text)}


def adapt(text: str, mapping: Mapping[str, str], *, capitalise_initial: bool = False) -> str:
    """``text`` with every tag replaced by its form.

    ``capitalise_initial`` upper-cases the first letter of a form that opens the text, as in
    the paper's Table 2 (``<DARTS> direttor<ENDS>`` → ``L* direttor*``): for references and
    demonstrations, never for annotations (the evaluation lower-cases hypotheses).
    """
    def replace(match: re.Match) -> str:
        form = mapping[match.group(0)]
        if capitalise_initial and match.start() == 0:
            return form[:1].upper() + form[1:]
        return form
    return TAG.sub(replace, text)


def check_covers(mapping: Mapping[str, str], texts: Iterable[tuple[int, str, str]],
                 path: object, where: str) -> None:
    """Raise naming the first tag of the data (row, column) that ``mapping`` lacks."""
    for row, column, text in texts:
        missing = [t for t in TAG.findall(text) if t not in mapping]
        if missing:
            raise DatasetError(path, f"tag {missing[0]} has no form in the {where} mapping "
                                     f"(it maps: {', '.join(sorted(mapping))})",
                               row=row, column=column)


def describe(chars: str, mapping: Mapping[str, str]) -> str:
    """How a prompt names the paradigm: ‘*’, or ‘ə’ (singular) and ‘ɜ’ (plural)."""
    singular = neomorpheme_chars({"s": mapping.get("<ENDS>", "")})
    plural = neomorpheme_chars({"p": mapping.get("<ENDP>", "")})
    if singular and plural and singular != plural:
        return (f"the neomorphemes ‘{singular}’ (singular) and ‘{plural}’ (plural)")
    if len(chars) == 1:
        return f"the neomorpheme ‘{chars}’"
    return "the neomorphemes " + ", ".join(f"‘{c}’" for c in chars)


def letter_forms(mapping: Mapping[str, str]) -> list[str]:
    """The tags whose form is spelt with Italian letters only (the paper's 'u' paradigm:
    ``<ENDS>`` → ``u``): their neomorpheme cannot be told from the spelling."""
    return [tag for tag, form in mapping.items() if all(c in ITALIAN_LETTERS for c in form)]


def paradigm_neomorphemes(name: str, mapping: Mapping[str, str],
                          given: str | None = None) -> str:
    """The paradigm's characters: ``given`` (its ``neomorphemes:``), else those of its forms
    (:func:`neomorpheme_chars`). A paradigm with a form of letters only must give them: its
    characters read off the forms would leave those letters out (mis-generation never
    counted, an empty or partial list in the prompt), so this stops, naming it."""
    if given:
        chars = "".join(c for c in given if not c.isspace())
        if chars:
            return chars
    letters = letter_forms(mapping)
    if letters:
        shown = ", ".join(f"{t} → {mapping[t]!r}" for t in letters[:3])
        raise MappingError(
            f"paradigm {name!r}: form(s) {shown}{' …' if len(letters) > 3 else ''} are "
            "spelt with letters only, so its neomorphemes cannot be read off its forms; give "
            f"them with `neomorphemes:` (e.g. neomorphemes: u) in the {name!r} paradigm's "
            "config (the command line: --neomorphemes)")
    return neomorpheme_chars(mapping)
