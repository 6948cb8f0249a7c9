"""Versioned prompt templates: the template files a config names, read and checked at
start-up (gendermt.translation.prompts renders them into each item's inputs).

A template file (YAML) holds named text ``fragments`` and ``templates`` that join fragments
into the user (and optionally system) message. Each template has a ``version`` to bump when
its text changes; the rendered text travels in the workflow's ``params``, so editing one
template reruns exactly the jobs that used it.

Placeholders: ``{source}`` (the item's source text), ``{src_lang_name}``, ``{tgt_lang_name}``,
``{demonstrations}`` (few-shot examples in the target language).

A completion-style few-shot template, for base models (systems with ``chat_template: none``),
names a ``demonstration`` fragment (placeholders ``{source}``, ``{target}`` and the language
names) that renders each of the file's ``demonstrations`` of the item's target language
(``demonstrations: {fr: [{source: ..., target: ...}, ...]}``); they fill
``{demonstrations}``, joined by ``demonstration_joiner`` (a blank line). They are part of
the template's hash, so editing one reruns what used it (bump ``version`` too).

A benchmark whose items all have one target language (GATE X-E: tr/hu/fi/fa→en) keys its
demonstrations by the *source* language instead: the template says ``demonstrations_by:
src_lang``. A demonstration may carry fields besides ``source`` and ``target`` (GATE X-E's
``translation``: the English a rewriter rewrites); the demonstration fragment may use any
field that every demonstration of the file has.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import yaml

from gendermt.core.errors import GenderMTError

# libyaml's parser where PyYAML has it: templates are read at every workflow start-up
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# The placeholders every template may use (render fills them); benchmarks add their own.
PLACEHOLDERS = frozenset({"source", "src_lang_name", "tgt_lang_name", "demonstrations"})
#: What a demonstration fragment may use (and any field every demonstration has).
DEMONSTRATION_PLACEHOLDERS = frozenset({"source", "target", "src_lang_name", "tgt_lang_name"})
#: How a template's demonstrations are keyed: the item's target or source language.
DEMONSTRATIONS_BY = {"tgt_lang": "target language", "src_lang": "source language"}


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a template text. Literal braces (``{{``/``}}`` aside),
    positional ``{}`` / ``{0}``, attribute or index access and conversions are errors: they
    would fail, or render something other than the text, only when a job formats it."""
    import string

    try:
        fields = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise GenderMTError(f"{exc} (write a literal brace as {{{{ or }}}})") from None
    names = set()
    for _, name, spec, conversion in fields:
        if name is None:
            continue
        if not name.isidentifier() or name.isdigit() or spec or conversion:
            raise GenderMTError(f"'{{{name}{'!' + conversion if conversion else ''}"
                                f"{':' + spec if spec else ''}}}' is not a plain placeholder "
                                "such as {source} (write a literal brace as {{ or }})")
        names.add(name)
    return names


def check_placeholders(templates: dict[str, dict[str, Any]], allowed: set[str] | frozenset,
                       path: str | Path, roles: tuple[str, ...] = ("system", "user")) -> None:
    """Every placeholder of the templates' ``roles`` is one ``allowed`` fills."""
    for name, tpl in templates.items():
        for role in roles:
            text = tpl.get(role)
            if not text:
                continue
            try:
                unknown = sorted(placeholders(text) - set(allowed))
            except GenderMTError as exc:
                raise GenderMTError(f"{path}: template {name!r} ({role}): {exc}") from None
            if unknown:
                raise GenderMTError(
                    f"{path}: template {name!r} ({role}) uses the placeholder(s) "
                    f"{', '.join('{' + u + '}' for u in unknown)}, which this benchmark does not "
                    f"fill (it fills {', '.join('{' + a + '}' for a in sorted(allowed))})")


def _read_spec(path: str | Path) -> dict[str, Any]:
    """A template file's YAML, with errors that name it (missing, unreadable, not a mapping
    with ``templates``)."""
    path = Path(path)
    if not path.is_file():
        raise GenderMTError(f"template file {path} does not exist")
    try:
        spec = yaml.load(path.read_text(encoding="utf-8"), Loader=YAML_LOADER)  # noqa: S506
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise GenderMTError(f"{path}: not a readable YAML file: {exc}") from None
    if not isinstance(spec, dict) or not isinstance(spec.get("templates"), dict) \
            or not spec["templates"]:
        raise GenderMTError(f"{path}: no `templates:` mapping (name → version, user, system)")
    if not isinstance(spec.get("fragments", {}), dict):
        raise GenderMTError(f"{path}: `fragments:` must map names to texts")
    return spec


def load_templates(path: str | Path) -> dict[str, dict[str, Any]]:
    """Resolve every template of a file into ``{name: {version, system, user, sha256}}``."""
    spec = _read_spec(path)
    fragments: dict[str, str] = spec.get("fragments", {})
    joiner: str = spec.get("joiner", " ")
    resolved = {}
    for name, tpl in spec["templates"].items():
        if not isinstance(tpl, dict) or "version" not in tpl:
            raise GenderMTError(f"{path}: template {name!r} has no `version` (bump it whenever "
                                "the template's text changes)")
        for role in ("system", "user"):
            if not isinstance(tpl.get(role) or [], list):
                raise GenderMTError(f"{path}: template {name!r}: `{role}` must be a list of "
                                    "fragment names")
        parts = {}
        for role in ("system", "user"):
            names = tpl.get(role) or []
            unknown = [n for n in names if n not in fragments]
            if unknown:
                raise GenderMTError(f"{path}: template {name!r} uses unknown fragment(s) {unknown}")
            parts[role] = joiner.join(fragments[n] for n in names) if names else None
        # the text the system works on; a monolingual rewriter's is {translation}
        slot = "{" + tpl.get("input", "source") + "}"
        if not parts["user"] or slot not in parts["user"]:
            raise GenderMTError(f"{path}: template {name!r} has no user message with {slot}")
        body = {"name": name, "version": tpl["version"], **parts}
        body.update(_demonstrations(spec, name, tpl, fragments, parts, path))
        if "answer" in tpl:  # how a benchmark reads the answers (GATE X-E: neutral)
            body["answer"] = tpl["answer"]
        if "tgt_lang" in tpl:  # the language the prompt asks for, where the data has none
            body["tgt_lang"] = str(tpl["tgt_lang"])
        body["sha256"] = hashlib.sha256(
            json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
        resolved[name] = body
    return resolved


def _demonstrations(  # noqa: C901 (one check per field)
        spec: dict[str, Any], name: str, tpl: dict[str, Any], fragments: dict[str, str],
        parts: dict[str, str | None], path: str | Path) -> dict[str, Any]:
    """A few-shot template's demonstration fragment and the file's demonstrations by target
    language (``{}`` for other templates), checked: every demonstration has a source and a
    target, the fragment uses only its placeholders, and ``{demonstrations}`` is where the
    template's text shows them."""
    shows = any("{demonstrations}" in (parts[r] or "") for r in ("system", "user"))
    if "demonstration" not in tpl:
        if shows:
            raise GenderMTError(f"{path}: template {name!r} uses {{demonstrations}} but names "
                                "no `demonstration` fragment to render each one")
        return {}
    fragment = tpl["demonstration"]
    if fragment not in fragments:
        raise GenderMTError(f"{path}: template {name!r}: demonstration fragment {fragment!r} "
                            "is not in `fragments:`")
    if not shows:
        raise GenderMTError(f"{path}: template {name!r} has demonstrations but no "
                            "{demonstrations} placeholder to show them")
    by = tpl.get("demonstrations_by", "tgt_lang")
    if by not in DEMONSTRATIONS_BY:
        raise GenderMTError(f"{path}: template {name!r}: demonstrations_by must be "
                            f"{' or '.join(DEMONSTRATIONS_BY)}, not {by!r}")
    demos = spec.get("demonstrations")
    if not isinstance(demos, dict) or not demos:
        raise GenderMTError(f"{path}: template {name!r} is few-shot but the file has no "
                            f"`demonstrations:` ({DEMONSTRATIONS_BY[by]} → list of "
                            "{source, target})")
    for lang, items in demos.items():
        if not isinstance(items, list) or not items or not all(
                isinstance(d, dict) and isinstance(d.get("source"), str)
                and isinstance(d.get("target"), str)
                and all(isinstance(v, str) for v in d.values()) for d in items):
            raise GenderMTError(f"{path}: demonstrations.{lang} must be a list of "
                                "{source: ..., target: ...} (texts only)")
    # besides source and target, the fields every demonstration of the file has
    fields = set.intersection(*(set(d) for items in demos.values() for d in items))
    allowed_names = DEMONSTRATION_PLACEHOLDERS | fields
    unknown = sorted(placeholders(fragments[fragment]) - allowed_names)
    if unknown:
        allowed = ", ".join("{" + a + "}" for a in sorted(allowed_names))
        raise GenderMTError(f"{path}: template {name!r}: the demonstration fragment uses "
                            f"{', '.join('{' + u + '}' for u in unknown)} (it may use "
                            f"{allowed})")
    found = {"demonstration": fragments[fragment],
             "demonstration_joiner": spec.get("demonstration_joiner", "\n\n"),
             "demonstrations": {str(k): [{f: d[f] for f in sorted(d)} for d in v]
                                for k, v in sorted(demos.items())}}
    if "demonstrations_by" in tpl:  # (absent: by target language, and the hash as before)
        found["demonstrations_by"] = by
    return found
