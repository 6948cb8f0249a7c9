"""Neo-GATE's prompts: formats × demonstrations × paradigms, rendered as chat messages.

A *run* of the study is a prompt format (``zeroshot``, ``direct``, ``binary``, ``ternary``;
templates in ``src/gendermt/benchmarks/neogate/prompts/translate.yaml``), a number of demonstrations
(0 for zero-shot; 1, 4, 8 in the paper) and a paradigm. Each run is one value of the workflow's
``{prompt}`` wildcard, named ``zeroshot-<paradigm>`` or ``<format>-<k>shot-<paradigm>`` (e.g.
``ternary-4shot-schwa``), so every run gets its own inputs, translations and scores.

Demonstrations come from the dev set. The paper chose exemplars "so as to represent the
average tag density of the dev set … and to offer a balanced mix of singular and plural tags"
without publishing the choice; :func:`select_demonstrations` makes that rule deterministic:
greedily add the dev entry that keeps (1) the chosen entries' mean number of tags closest to
the dev mean, then (2) their singular and plural tag counts closest, then (3) its own tag count
closest to the mean, then (4) the lowest Neo-GATE id. The k-shot set is the first k of the
8-shot order, so 1 ⊂ 4 ⊂ 8, and the same exemplars serve every format and paradigm.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from gendermt.benchmarks.neogate.metric import parse_annotations
from gendermt.benchmarks.neogate.paradigm import TAG, describe, load_mapping, paradigm_neomorphemes
from gendermt.config.templates import load_templates
from gendermt.core.errors import GenderMTError
from gendermt.data.io import write_jsonl

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

# libyaml's parser where PyYAML has it: templates are read at every workflow start-up
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def resolve_templates(path: str | Path) -> dict[str, dict[str, Any]]:
    """The templates of a Neo-GATE prompt file, with instruction, answer and label resolved."""
    base = load_templates(path)
    spec = yaml.load(Path(path).read_text(encoding="utf-8"), Loader=YAML_LOADER)  # noqa: S506
    fragments, joiner = spec.get("fragments", {}), spec.get("joiner", " ")
    out = {}
    for name, tpl in spec["templates"].items():
        body = dict(base[name])
        for key in ("instruction", "answer"):
            names = tpl.get(key) or []
            unknown = [n for n in names if n not in fragments]
            if unknown:
                raise GenderMTError(f"{path}: template {name!r} uses unknown fragment(s) "
                                    f"{unknown}")
            body[key] = joiner.join(fragments[n] for n in names) if names else None
        body["extract_after"] = tpl.get("extract_after")
        body["few_shot"] = body["answer"] is not None
        body.pop("sha256")
        body["sha256"] = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False)
                                        .encode()).hexdigest()[:16]
        out[name] = body
    return out


@dataclass(frozen=True)
class Run:
    name: str
    format: str
    shots: int
    paradigm: str
    neomorphemes: str
    phrase: str


def run_name(fmt: str, shots: int, paradigm: str) -> str:
    return f"{fmt}-{paradigm}" if shots == 0 else f"{fmt}-{shots}shot-{paradigm}"


def study_runs(spec: Mapping[str, Any], templates: Mapping[str, Mapping[str, Any]]
               ) -> dict[str, dict[str, Any]]:
    """Every run of a Neo-GATE config block: zero-shot formats once per paradigm, few-shot
    formats once per paradigm and number of demonstrations."""
    runs = {}
    for paradigm, pspec in spec["paradigms"].items():
        mapping = load_mapping(pspec["mapping"])
        chars = paradigm_neomorphemes(paradigm, mapping, pspec.get("neomorphemes"))
        phrase = pspec.get("phrase") or describe(chars, mapping)
        for fmt in spec["prompts"]:
            few = templates[fmt]["few_shot"]
            for shots in (spec.get("shots", [1, 4, 8]) if few else [0]):
                run = Run(run_name(fmt, shots, paradigm), fmt, int(shots), paradigm, chars,
                          phrase)
                runs[run.name] = asdict(run)
    return runs


# ------------------------------------------------------------------------- demonstrations
def tag_counts(annotation: str) -> tuple[int, int]:
    """(singular, plural) tags of one tagged ANNOTATION string."""
    singular = plural = 0
    for ann in parse_annotations(annotation):
        tags = TAG.findall(ann.correct)
        if tags and tags[-1].endswith("P>"):
            plural += 1
        else:
            singular += 1
    return singular, plural


def select_demonstrations(dev: pd.DataFrame, k: int) -> list[int]:
    """Neo-GATE ids (#) of ``k`` dev entries, in prompt order (see the module docstring)."""
    if k > len(dev):
        raise GenderMTError(f"{k} demonstrations asked for, but the dev set has {len(dev)} "
                            "entries")
    counts = {int(n): tag_counts(a) for n, a in zip(dev["number"], dev["annotation_tagged"],
                                                      strict=True)}
    target = sum(s + p for s, p in counts.values()) / len(counts)
    chosen: list[int] = []
    for _ in range(k):
        def cost(number: int) -> tuple:
            pick = [*chosen, number]
            tags = sum(sum(counts[n]) for n in pick)
            singular = sum(counts[n][0] for n in pick)
            return (round(abs(tags / len(pick) - target), 9),
                    abs(singular - (tags - singular)),
                    round(abs(sum(counts[number]) - target), 9), number)
        chosen.append(min((n for n in counts if n not in chosen), key=cost))
    return chosen


def render(template: Mapping[str, Any], source: str, run: Mapping[str, Any],
           demonstrations: pd.DataFrame) -> list[dict[str, str]]:
    """The chat messages of one item under one run."""
    phrase = {"neomorpheme": run["phrase"]}
    if not template["few_shot"]:
        return [{"role": "user", "content": template["user"].format(source=source, **phrase)}]
    messages = []
    for i, demo in enumerate(demonstrations.itertuples(index=False)):
        user = template["user"].format(source=demo.source, **phrase)
        if i == 0 and template.get("instruction"):
            user = template["instruction"].format(**phrase) + " " + user
        answer = template["answer"].format(masculine=demo.ref_male, feminine=demo.ref_female,
                                           neomorphemic=getattr(demo, f"ref_{run['paradigm']}"))
        messages += [{"role": "user", "content": user},
                     {"role": "assistant", "content": answer}]
    messages.append({"role": "user", "content": template["user"].format(source=source,
                                                                         **phrase)})
    return messages


def build_inputs(data_path: str | Path, dev_path: str | Path, template: Mapping[str, Any],
                 run: Mapping[str, Any], output: str | Path) -> None:
    """Workflow stage: ``data.parquet`` + ``dev.parquet`` + one run → ``inputs/{prompt}.jsonl``."""
    import pandas as pd

    data = pd.read_parquet(data_path, columns=["item_id", "source", "src_lang", "tgt_lang"])
    dev = pd.read_parquet(dev_path)
    if run["shots"]:
        numbers = select_demonstrations(dev, run["shots"])
        demos = dev.set_index("number").loc[numbers].reset_index()
    else:
        numbers, demos = [], dev.iloc[:0]
    write_jsonl(output, (
        {"item_id": row.item_id, "prompt": run["name"], "template": template["name"],
         "template_version": template["version"], "template_sha256": template["sha256"],
         "paradigm": run["paradigm"], "shots": run["shots"], "demonstrations": numbers,
         "src_lang": row.src_lang, "tgt_lang": row.tgt_lang, "source": row.source,
         "messages": render(template, row.source, run, demos)}
        for row in data.itertuples(index=False)))

