"""What the schema cannot check of the ``benchmarks.mt-geneval`` block, before anything runs:
the release's files of the configured languages, split and sets exist, and each prompt has
the template its contextual items need. Messages start with the config key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.benchmarks.mt_geneval.inputs import context_template_name
from gendermt.core.errors import GenderMTError

KEY = "benchmarks.mt-geneval"


def check(spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    from gendermt.benchmarks.mt_geneval.data import published_files
    from gendermt.config.templates import load_templates

    data = spec["data"]
    split = data.get("split", "test")
    sets = list(data.get("sets", ["counterfactual", "contextual"]))
    try:
        published_files(data["root"], list(data["languages"]), split, sets)
    except GenderMTError as exc:
        raise GenderMTError(f"{KEY}.data: {exc}") from None
    templates = load_templates(spec["templates"])
    # a few-shot prompt needs demonstrations in every language it runs (checked now, not
    # when its inputs are built)
    for prompt in spec["prompts"]:
        for name in (prompt, context_template_name(prompt)):
            demos = templates.get(name, {}).get("demonstrations")
            lacking = sorted(set(data["languages"]) - set(demos or {})) if demos else []
            if lacking:
                raise GenderMTError(
                    f"{KEY}.prompts: {name} has no demonstrations for {', '.join(lacking)} in "
                    f"{spec['templates']} (add them under `demonstrations:`, or leave the "
                    f"language out of data.languages)")
    if "contextual" in sets:
        missing = [p for p in spec["prompts"] if context_template_name(p) not in templates]
        if missing:
            raise GenderMTError(
                f"{KEY}.prompts: {', '.join(missing)} have no template for the contextual set "
                f"in {spec['templates']} (it needs "
                f"{', '.join(map(context_template_name, missing))}: the context sentence "
                "shown, the sentence after it translated)")
