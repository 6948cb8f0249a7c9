"""What the schema cannot check of the ``benchmarks.gate-x-e`` block, before anything runs:
a few-shot prompt has demonstrations for every configured language (they are keyed by
source language: every item's target is English). Messages start with the config key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.benchmarks.gate_x_e import LANGUAGES
from gendermt.core.errors import GenderMTError

KEY = "benchmarks.gate-x-e"


def check(spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    from gendermt.config.templates import load_templates

    templates = load_templates(spec["templates"])
    wanted = {LANGUAGES[lang][0]: lang for lang in spec["data"]["languages"]
              if lang in LANGUAGES}
    for prompt in spec["prompts"]:
        template = templates.get(prompt, {})
        demos = template.get("demonstrations")
        if not demos:
            continue
        if template.get("demonstrations_by") != "src_lang":
            raise GenderMTError(
                f"{KEY}.prompts: {prompt}'s demonstrations in {spec['templates']} are keyed by "
                "target language, and every GATE X-E item's target is English: key them by "
                "source language (`demonstrations_by: src_lang`, demonstrations under tr, hu, "
                "fi, fa)")
        lacking = sorted(code for code in wanted if code not in demos)
        if lacking:
            raise GenderMTError(
                f"{KEY}.prompts: {prompt} has no demonstrations for "
                f"{', '.join(f'{c} ({wanted[c]})' for c in lacking)} in {spec['templates']} "
                "(add them under `demonstrations:`, or leave the language out of "
                "data.languages)")
