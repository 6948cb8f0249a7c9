"""Checks of the workflow's config at start-up, beyond what the schema can say.

``workflow/rules/common.smk`` validates the config against the schema (unknown keys, types
and ranges) and then calls :func:`check_config`, so that a value that would fail only in a
job, after hours of translation, stops the workflow before any job runs, with the config key
named: every system's settings (its backend's own check), the systems and prompts each
benchmark names, every prompt template (file, version, placeholders), sacrebleu's options and
tokenizers, and each benchmark's own checks (its contract's ``check``). Missing *data* files
are not checked here (gendermt.data.sources does).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gendermt.config.templates import PLACEHOLDERS, check_placeholders, load_templates
from gendermt.core import registry
from gendermt.core.contract import resolve
from gendermt.core.errors import GenderMTError

SACREBLEU_METRICS = ("bleu", "chrf", "ter")


def _at(key: str, exc: Exception) -> GenderMTError:
    return GenderMTError(f"{key}: {exc}")


def _dotted(path: Any) -> str:
    return ".".join(str(p) for p in path)


def check_schema(config: Mapping[str, Any], schema: Mapping[str, Any] | str | Path,
                 fill_defaults: bool = False, memo: Any = None) -> None:
    """The config against the schema (composed, or the base schema's path), with one short
    message naming the key (Snakemake's own validation prints the whole schema after the
    error). With ``fill_defaults``, the schema's defaults are filled in during the same pass,
    as ``snakemake.utils.validate`` does (the workflow validates once, here).

    ``memo`` (:mod:`gendermt.workflow.startup_cache`): a config and schema that passed before are
    not validated again; the defaults then come from the cache (the same config, filled)."""
    check_key_names(config)  # first: a schema error may print the value it refuses
    if not isinstance(schema, Mapping):  # the base schema with every benchmark's fragment
        schema = registry.config_schema(schema)
    import json

    key = None
    if memo is not None and fill_defaults:
        text = json.dumps([config, schema], sort_keys=True, default=repr).encode()
        key = memo.content_key("valid-config", text)
        filled = memo.get(key)
        if isinstance(filled, dict) and isinstance(config, dict):
            # a copy: the workflow edits its config later (data sets resolved to their
            # cached paths), which must never reach the memo
            config.update(json.loads(json.dumps(filled)))
            return
    _check_schema(config, schema, fill_defaults)
    if key is not None:
        snapshot = json.loads(json.dumps(config, default=repr))
        if snapshot == config:  # only what JSON keeps as it is (no int keys, no dates)
            memo.put(key, snapshot)  # a copy, as above


def check_key_names(config: Any, where: str = "") -> None:
    """Every ``api_key_env`` (and any other ``*_env`` setting, such as an MT service's
    ``token_env``) in the config (at any depth) names an environment variable; one that does
    not is most likely the key itself, refused without being shown."""
    from gendermt.config.systems import KEY_NOT_SHOWN, plausible_env_name

    if isinstance(config, Mapping):
        for name, value in config.items():
            key = f"{where}.{name}" if where else str(name)
            if isinstance(name, str) and name.endswith("_env") and \
                    not plausible_env_name(value):
                raise GenderMTError(f"{key}: {KEY_NOT_SHOWN.replace('api_key_env', name)}")
            check_key_names(value, key)
    elif isinstance(config, list):
        for index, value in enumerate(config):
            check_key_names(value, f"{where}.{index}" if where else str(index))


def _check_schema(config: Mapping[str, Any], schema: Mapping[str, Any],
                  fill_defaults: bool) -> None:
    from difflib import get_close_matches

    import jsonschema

    validator = (_with_defaults() if fill_defaults else jsonschema.Draft202012Validator)(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(config))
    if error is None:
        return
    error = _branch_error(error)
    where = _dotted(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(error.schema.get("properties", {}))
        unknown = [k for k in error.instance if k not in allowed]
        if allowed and unknown:
            close = get_close_matches(str(unknown[0]), allowed, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            key = f"{where}.{unknown[0]}" if where else str(unknown[0])
            raise GenderMTError(f"{key}: unknown key{hint}; allowed "
                                f"{'under ' + where if where else 'at the top level'}: "
                                f"{', '.join(allowed)}")
    note = error.schema.get("description") if error.validator in ("oneOf", "anyOf") else None
    message = error.message
    if error.validator in ("maxLength", "minLength") and isinstance(error.instance, str):
        # the limit, not only jsonschema's "is too long" (a name of 200 characters)
        bound = "at most" if error.validator == "maxLength" else "at least"
        shown = (f"{error.instance[:40]!r}..." if len(error.instance) > 40
                 else repr(error.instance))
        message = (f"{shown} has {len(error.instance)} characters; {bound} "
                   f"{error.validator_value} are allowed")
    if len(message) > 500:  # a huge value: its start and size, not all of it
        value = error.instance
        shown = (f"{value[:40]!r}... ({len(value)} characters)" if isinstance(value, str)
                 else f"a {type(value).__name__} value")
        message = (f"{shown} fails `{error.validator}`: "
                   f"{str(error.validator_value)[:100]}")
    raise GenderMTError(f"{where or 'the config'}: {message}"
                        + (f" ({' '.join(str(note).split())})" if note else ""))


def _with_defaults() -> Any:
    """Draft 2020-12 that sets each property's ``default`` before checking the properties
    (jsonschema's FAQ recipe, the one ``snakemake.utils.validate`` uses)."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    check_properties = base.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, subschema in properties.items():
                if isinstance(subschema, dict) and "default" in subschema:
                    instance.setdefault(name, subschema["default"])
        yield from check_properties(validator, properties, instance, schema)

    return jsonschema.validators.extend(base, {"properties": set_defaults})


def _branch_error(error: Any) -> Any:
    """Within a ``oneOf`` whose branches are told apart by ``kind`` (GAMBIT's detectors),
    the error of the branch the config's ``kind`` names, not of another branch."""
    import jsonschema

    parent = error
    while parent is not None and parent.validator not in ("oneOf", "anyOf"):
        parent = parent.parent
    if parent is None or not isinstance(parent.instance, dict) or "kind" not in parent.instance:
        return error
    for index, branch in enumerate(parent.validator_value):
        if branch.get("properties", {}).get("kind", {}).get("const") == parent.instance["kind"]:
            errors = [e for e in parent.context if e.relative_schema_path[0] == index]
            return jsonschema.exceptions.best_match(errors) or error
    return error


def check_config(config: Mapping[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """Raise :class:`GenderMTError` (the message starts with the config key) for the first
    problem found; return every benchmark's resolved templates (``{benchmark: {prompt:
    template}}``)."""
    check_systems(config.get("systems", {}))
    templates = {name: check_templates(name, spec)
                 for name, spec in config.get("benchmarks", {}).items()}
    check_benchmark_names(config, templates)
    check_benchmark_systems(config)
    check_scoring(config.get("scoring", {}))
    check_bertscore_configured(config)
    check_scorecard(config)
    check_subsets(config.get("benchmarks", {}))
    # each benchmark's own checks (its contract's `check`)
    for name, spec in config.get("benchmarks", {}).items():
        registry.get(name).check_config(spec, config)
    return templates


def check_subsets(benchmarks: Mapping[str, Any]) -> None:
    """A subset's ``by`` and ``unit`` name columns the benchmark's data table holds (the
    generic ones and its contract's ``subset_columns``): checked before any data job runs,
    which would otherwise fail after the data stage's work (issue 51)."""
    for name, spec in benchmarks.items():
        subset = spec.get("subset") or {}
        if not subset:
            continue
        known = list(registry.data_columns(name))
        wanted = [("by", c) for c in subset.get("by", [])] + [("unit", subset.get("unit",
                                                                                 "item_id"))]
        for key, column in wanted:
            if column not in known:
                raise GenderMTError(f"benchmarks.{name}.subset.{key}: no column {column!r} in "
                                    f"{name}'s data (a subset may use: {', '.join(known)})")


def check_systems(systems: Mapping[str, Any]) -> None:
    from gendermt.core.backends import check_system

    for name, settings in systems.items():
        try:
            check_system(settings)
        except GenderMTError as exc:
            raise _at(f"systems.{name}", exc) from None


def check_templates(benchmark: str, spec: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """A benchmark's templates, loaded and their placeholders checked."""
    key = f"benchmarks.{benchmark}.templates"
    path = spec["templates"]
    contract = registry.get(benchmark)
    try:
        if contract.templates:  # a benchmark that renders its own messages checks its own
            return resolve(contract.templates)(spec)
        templates = load_templates(path)
        check_placeholders(templates, PLACEHOLDERS | contract.placeholders, path)
    except GenderMTError as exc:
        raise _at(key, exc) from None
    return templates


def check_benchmark_names(config: Mapping[str, Any],
                          templates: Mapping[str, Mapping[str, Any]]) -> None:
    """Each benchmark's systems are defined under ``systems:``; its prompts name templates."""
    systems = config.get("systems", {})
    for name, spec in config.get("benchmarks", {}).items():
        unknown = [s for s in spec.get("systems", []) if s not in systems]
        if unknown:
            raise GenderMTError(
                f"benchmarks.{name}.systems names {unknown}, which are not defined under "
                f"`systems:` (defined: {', '.join(systems)})")
        unknown = [p for p in spec.get("prompts", []) if p not in templates[name]]
        if unknown:
            raise GenderMTError(
                f"benchmarks.{name}.prompts names {unknown}, which {spec['templates']} does "
                f"not define (it has: {', '.join(templates[name])})")


def check_benchmark_systems(config: Mapping[str, Any]) -> None:
    """Each benchmark's ``system_prompts`` and ``decoding`` overrides name configured systems
    (and its prompts), and the overrides are settings the system's backend takes."""
    from gendermt.core.backends import check_system

    systems = config.get("systems", {})
    for name, spec in config.get("benchmarks", {}).items():
        # An entry for a configured system the benchmark does not run is left unused: an
        # overlay that replaces the benchmark's `systems:` list cannot delete the default's key.
        for system, prompts in spec.get("system_prompts", {}).items():
            if system not in systems or (
                    system in spec["systems"] and not set(prompts) <= set(spec["prompts"])):
                raise GenderMTError(
                    f"benchmarks.{name}.system_prompts.{system}: {prompts} must name a "
                    f"configured system and some of the benchmark's prompts {spec['prompts']}")
        for system, overrides in spec.get("decoding", {}).items():
            if system not in systems:
                raise GenderMTError(f"benchmarks.{name}.decoding names {system!r}, which is "
                                    f"not defined under `systems:`")
            try:
                check_system({**systems[system], **overrides})
            except GenderMTError as exc:
                raise _at(f"benchmarks.{name}.decoding.{system}", exc) from None


def check_scorecard(config: Mapping[str, Any]) -> None:
    """``scorecard.headline_prompts`` names configured benchmarks and systems, and a prompt
    the system runs there; ``scorecard.quality_floors``' mappings are under benchmark names
    (checked at start-up: the scorecard job is the run's last)."""
    card = config.get("scorecard", {}) or {}
    benchmarks = config.get("benchmarks", {})
    systems = config.get("systems", {})
    for name, chosen in (card.get("headline_prompts", {}) or {}).items():
        if name not in benchmarks:
            raise GenderMTError(f"scorecard.headline_prompts.{name}: not a configured "
                                f"benchmark (configured: {', '.join(benchmarks)})")
        spec = benchmarks[name]
        for system, prompt in (chosen or {}).items():
            if system not in systems:
                raise GenderMTError(f"scorecard.headline_prompts.{name}.{system}: not "
                                    "defined under `systems:`")
            if system not in spec.get("systems", []):
                continue  # an overlay may drop the system from the benchmark
            runs = spec.get("system_prompts", {}).get(system, spec.get("prompts", []))
            if prompt not in runs:
                raise GenderMTError(f"scorecard.headline_prompts.{name}.{system}: {prompt!r} "
                                    f"is not one of the prompts it runs ({', '.join(runs)})")
    known = {b.name for b in registry.benchmarks()}
    for name, value in (card.get("quality_floors", {}) or {}).items():
        if isinstance(value, Mapping) and name not in known:
            raise GenderMTError(f"scorecard.quality_floors.{name}: not a benchmark (known: "
                                f"{', '.join(sorted(known))})")


def check_bertscore_configured(config: Mapping[str, Any]) -> None:
    """A benchmark that lists the metric bertscore needs ``scoring.bertscore``."""
    if config.get("scoring", {}).get("bertscore") is None and any(
            "bertscore" in spec.get("metrics", [])
            for spec in config.get("benchmarks", {}).values()):
        raise GenderMTError(
            "a benchmark lists the metric bertscore, but scoring.bertscore (model, and "
            "num_layers for a model bert-score does not know) is not configured")


# sacrebleu 2.6's tokenizers: a configured name found here is checked without importing
# sacrebleu (0.15 s of every workflow start); any other name is checked against the installed
# sacrebleu's own table (tests/workflow/test_config_checks.py keeps this tuple a subset of it).
KNOWN_TOKENIZERS = ("none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab", "spm",
                    "flores101", "flores200", "spBLEU-1K")


def _tokenizers() -> tuple[str, ...]:
    from sacrebleu.metrics.bleu import _TOKENIZERS

    return tuple(_TOKENIZERS)


def check_tokenizer(name: object, key: str) -> None:
    if name in KNOWN_TOKENIZERS:
        return
    known = _tokenizers()
    if name not in known:
        raise GenderMTError(f"{key}: {name!r} is not a sacrebleu tokenizer (known: "
                            f"{', '.join(known)})")


def check_metric_options(metric: str, options: Mapping[str, Any], key: str) -> None:
    """``options`` are keyword arguments sacrebleu's metric takes, with values it accepts."""
    if not options:  # sacrebleu's defaults (the default config): nothing to check, no import
        return
    from sacrebleu.metrics import BLEU, CHRF, TER

    cls = {"bleu": BLEU, "chrf": CHRF, "ter": TER}[metric]
    known = [p for p in inspect.signature(cls.__init__).parameters
             if p not in ("self", "references")]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise GenderMTError(f"{key}: sacrebleu's {cls.__name__} has no option(s) {unknown} "
                            f"(it takes {', '.join(known)})")
    trial = dict(options)
    if "tokenize" in trial:
        check_tokenizer(trial["tokenize"], f"{key}.tokenize")
        trial["tokenize"] = "13a"  # built without the tokenizer's own extras (MeCab)
    try:
        cls(**trial)
    except Exception as exc:  # sacrebleu asserts, or raises TypeError/ValueError/KeyError
        raise GenderMTError(f"{key}: sacrebleu's {cls.__name__} refuses {dict(options)}: "
                            f"{type(exc).__name__}: {exc}") from None


def check_scoring(scoring: Mapping[str, Any]) -> None:
    for lang, name in (scoring.get("tokenize") or {}).items():
        check_tokenizer(name, f"scoring.tokenize.{lang}")
    for metric in SACREBLEU_METRICS:
        check_metric_options(metric, scoring.get(metric) or {}, f"scoring.{metric}")
