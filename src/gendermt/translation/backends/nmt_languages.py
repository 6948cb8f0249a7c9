"""How a multilingual NMT model is told which language to translate into, read from its
tokenizer, so that one system translates into every language of a study.

Families, as their tokenizers show them:

=============  ===============================================  ==========================
family         what the tokenizer has                           the target language is
=============  ===============================================  ==========================
m2m100         ``lang_code_to_id`` (``__fr__`` tokens)          the first generated token
nllb           FLORES-200 codes (``fra_Latn``) as tokens        the first generated token
mbart50        ``fr_XX``-style codes as tokens                  the first generated token
madlad         ``<2fr>`` tags                                   a tag before the source
marian-multi   ``>>fra<<`` / ``>>fr<<`` tags (OPUS-MT)          a tag before the source
=============  ===============================================  ==========================

The data's languages are ISO 639-1 codes (``fr``); a system's ``lang_codes`` maps them to
the model's own where the table here does not (``{fr: fra_Latn}``). A model of none of
these families (a one-pair Marian model) is given the source as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gendermt.config.languages import source_languages, target_languages
from gendermt.core import backends
from gendermt.core.errors import GenderMTError

#: ISO 639-1 → FLORES-200 (NLLB): the languages of the benchmarks and a few more.
FLORES = {"en": "eng_Latn", "fr": "fra_Latn", "de": "deu_Latn", "es": "spa_Latn",
          "it": "ita_Latn", "pt": "por_Latn", "ru": "rus_Cyrl", "ar": "arb_Arab",
          "hi": "hin_Deva", "el": "ell_Grek", "tr": "tur_Latn", "hu": "hun_Latn",
          "fi": "fin_Latn", "fa": "pes_Arab", "he": "heb_Hebr", "uk": "ukr_Cyrl",
          "pl": "pol_Latn", "cs": "ces_Latn", "nl": "nld_Latn", "sv": "swe_Latn",
          "ro": "ron_Latn", "zh": "zho_Hans", "ja": "jpn_Jpan", "ko": "kor_Hang",
          "bn": "ben_Beng", "ca": "cat_Latn", "da": "dan_Latn", "id": "ind_Latn"}
#: ISO 639-1 → 639-3, for OPUS-MT's three-letter tags.
ISO3 = {"en": "eng", "fr": "fra", "de": "deu", "es": "spa", "it": "ita", "pt": "por",
        "ru": "rus", "ar": "ara", "hi": "hin", "el": "ell", "tr": "tur", "hu": "hun",
        "fi": "fin", "fa": "fas", "he": "heb", "uk": "ukr", "pl": "pol", "cs": "ces",
        "nl": "nld", "sv": "swe", "ro": "ron", "zh": "zho", "ja": "jpn", "ko": "kor"}

_NLLB = re.compile(r"^[a-z]{3}_[A-Z][a-z]{3}$")
_MBART = re.compile(r"^[a-z]{2}_[A-Z]{2}$")
_MADLAD = re.compile(r"^<2[a-z]{2,3}(_[A-Za-z]+)?>$")
_OPUS = re.compile(r"^>>[a-z]{2,3}(_[A-Za-z]+)?<<$")


@dataclass(frozen=True)
class Target:
    """How to ask for one language: a forced first token (``bos``) or a source prefix."""

    code: str                  # the model's own code or tag
    bos: int | None = None     # forced BOS token id
    prefix: str = ""           # text before the source


def family(tok: Any) -> str | None:
    """The model's language-control family (module table), or None: one language pair."""
    if isinstance(getattr(tok, "lang_code_to_id", None), dict):
        return "m2m100"
    vocab = tok.get_vocab()
    counts = {name: 0 for name in ("nllb", "mbart50", "madlad", "marian-multi")}
    for token in vocab:
        for name, pattern in (("nllb", _NLLB), ("mbart50", _MBART), ("madlad", _MADLAD),
                              ("marian-multi", _OPUS)):
            if pattern.match(token):
                counts[name] += 1
    best = max(counts, key=counts.get)
    # two codes at least: one stray token that looks like a code is no family
    return best if counts[best] >= 2 else None


def _candidates(kind: str, lang: str, vocab: dict[str, int]) -> list[str]:
    if kind == "nllb":
        return [FLORES[lang]] if lang in FLORES else []
    if kind == "mbart50":
        return sorted(t for t in vocab if _MBART.match(t) and t.startswith(lang + "_"))
    if kind == "madlad":
        return [f"<2{lang}>"]
    if kind == "marian-multi":
        return [f">>{lang}<<"] + ([f">>{ISO3[lang]}<<"] if lang in ISO3 else [])
    return []


def target(tok: Any, kind: str, lang: str, lang_codes: dict[str, str], model: str,
           role: str = "target") -> Target:
    """How ``model`` (of family ``kind``) is asked for ``lang``; a clear error when it does
    not know the language."""
    vocab = tok.get_vocab()
    if kind == "m2m100":
        code = lang_codes.get(lang, lang)
        if code not in tok.lang_code_to_id:
            raise _unknown(model, kind, lang, role, sorted(tok.lang_code_to_id))
        return Target(code, bos=tok.lang_code_to_id[code])
    found = [lang_codes[lang]] if lang in lang_codes else [
        c for c in _candidates(kind, lang, vocab) if c in vocab]
    if not found or found[0] not in vocab:
        known = sorted(t for t in vocab if {"nllb": _NLLB, "mbart50": _MBART,
                                            "madlad": _MADLAD, "marian-multi": _OPUS}
                       [kind].match(t))
        raise _unknown(model, kind, lang, role, known)
    code = found[0]
    if kind in ("madlad", "marian-multi"):
        return Target(code, prefix=code + " ")
    return Target(code, bos=vocab[code])


def _unknown(model: str, kind: str, lang: str, role: str, known: list[str]) -> GenderMTError:
    shown = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
    return GenderMTError(
        f"hf-seq2seq: {model} ({kind}) has no language code for the {role} language "
        f"{lang!r} (its codes: {shown}); map it in the system's `lang_codes` "
        f"({{{lang}: <the model's code>}}) if the model has it under another name")


def _tokenizer(settings: Mapping[str, Any]) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(settings["model"]),
                                         revision=settings.get("revision"))


def check_benchmarks(system: str, settings: Mapping[str, Any],
                     blocks: Mapping[str, Mapping[str, Any]],
                     load_tokenizer: Callable[[Mapping[str, Any]], Any] | None = None) -> None:
    """Every benchmark's source and target languages known to the system's model (a backend
    that declares ``languages``, gendermt.core.backends: an ``hf-seq2seq`` model with language
    codes), checked by ``gendermt run`` before Snakemake starts, on the model's tokenizer only
    (no weights), so that a model a benchmark cannot take is named at once instead of in a
    job after its download. A
    :class:`GenderMTError` names the benchmark, the language and the fix."""
    about = backends.info(str(settings.get("backend")))
    if about is None or not about.languages or settings.get("tgt_lang"):
        return  # a fixed pair (tgt_lang) is the user's choice; other backends say in the job
    try:
        tok = (load_tokenizer or _tokenizer)(settings)
    except (OSError, ValueError) as exc:  # no such model, no network and no cached copy
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise GenderMTError(f"{system}: cannot read the tokenizer of {settings['model']} to "
                            f"check its languages ({first}); check the model's id or folder, "
                            f"or fetch it first (hf download {settings['model']})") from None
    kind = family(tok)
    if kind is None:
        return  # one language pair: nothing to ask for (docs/multitarget-nmt.md)
    codes = dict(settings.get("lang_codes") or {})
    for name, spec in blocks.items():
        wanted = [(lang, "source") for lang in source_languages(name)]
        wanted += [(lang, "target") for lang in target_languages(name, spec)]
        for lang, role in wanted:
            try:
                target(tok, kind, lang, codes, str(settings["model"]), role)
            except GenderMTError as exc:
                raise GenderMTError(f"{system} cannot run {name} ({role} language {lang!r}): "
                                    f"{exc}; or leave {name} out of --benchmarks") from None
