"""Neo-GATE's Table 4: generic en→it translation quality of the systems on FLORES (§4.1),
BLEU, chrF, TER, BERTScore and COMET, next to the MT reference system opus-mt-en-it.

FLORES files are plain text, one sentence per line, UTF-8, the two languages aligned line by line:
FLORES-101 ``devtest/eng.devtest`` and ``devtest/ita.devtest``, FLORES-200
``devtest/eng_Latn.devtest`` and ``devtest/ita_Latn.devtest`` (the user provides them; the project
cannot download them). The paper prompts the LLMs with three demonstrations from FLORES' dev set as
chat turns (its Table 10: the first user turn says "Translate the following English sentence into
Italian:", every sentence is wrapped in ``<…>``); a template gives those turns
(``src/gendermt/benchmarks/neogate/prompts/flores.yaml``: ``shots``), NMT systems read the plain
source. The ``<…>`` around an answer is removed by the ``strip_brackets`` post-processing step.

This module holds the data and inputs stages; the table is :mod:`.flores_tables` (so that
editing the table reruns no data or inputs job, and so no translation).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from gendermt.core.errors import DatasetError, GenderMTError
from gendermt.data.io import write_json, write_jsonl
from gendermt.data.stage_tables import write_data_table

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

log = logging.getLogger(__name__)

def read_lines(path: str | Path) -> list[str]:
    """The sentences of one FLORES file (one per line; a final newline is optional)."""
    path = Path(path)
    if not path.is_file():
        raise DatasetError(path, "no such file (a FLORES file: one sentence per line, e.g. "
                                 "devtest/eng_Latn.devtest)")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DatasetError(path, f"not UTF-8 ({exc})") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            raise DatasetError(path, "empty line (FLORES has one sentence on every line)",
                               row=number)
        if "\r" in line:
            raise DatasetError(path, "a carriage return inside a line (CRLF file?)", row=number)
    if not lines:
        raise DatasetError(path, "the file is empty")
    return lines


def load(source: str | Path, reference: str | Path, src_lang: str = "en",
         tgt_lang: str = "it") -> pd.DataFrame:
    """Aligned FLORES files → one row per sentence: ``item_id`` (``flores-0001``…, the line
    number), ``source``, ``reference``, ``src_lang``, ``tgt_lang``."""
    import pandas as pd

    src, ref = read_lines(source), read_lines(reference)
    if len(src) != len(ref):
        raise DatasetError(reference, f"{len(ref)} lines where {source} has {len(src)}: the "
                                      "two files must be aligned line by line")
    return pd.DataFrame({"item_id": [f"flores-{n:04d}" for n in range(1, len(src) + 1)],
                         "source": [s.strip() for s in src],
                         "reference": [r.strip() for r in ref],
                         "src_lang": src_lang, "tgt_lang": tgt_lang})


def _sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def build(source: str | Path, reference: str | Path, data_out: str | Path,
          provenance_out: str | Path) -> None:
    """Workflow stage: the FLORES files → ``data.parquet`` and ``data.json``."""
    data = load(source, reference)
    write_data_table("neogate-flores", data_out, data)
    write_json(provenance_out, {"source": {"path": str(source), "sha256": _sha256(source)},
                                "reference": {"path": str(reference),
                                              "sha256": _sha256(reference)},
                                "sentences": int(len(data))})
    log.info("FLORES: %d sentences from %s and %s", len(data), source, reference)


# ------------------------------------------------------------------------------- prompts
def load_template(path: str | Path, name: str) -> dict[str, Any]:
    """One template of a FLORES template file: ``version``, ``instruction`` (prefixed to the
    first user turn), ``shots`` (``[{source, target}]``, the demonstrations as chat turns) and
    a ``sha256`` of all of it (so that editing any of it reruns the inputs)."""
    spec = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    templates = spec.get("templates", {})
    if name not in templates:
        raise GenderMTError(f"{path}: no template {name!r} (it has: {', '.join(templates)})")
    tpl = templates[name]
    shots = [{"source": str(s["source"]), "target": str(s["target"])}
             for s in tpl.get("shots", [])]
    body = {"name": name, "version": tpl["version"], "instruction": tpl["instruction"],
            "wrap": tpl.get("wrap", ["<", ">"]), "shots": shots}
    body["sha256"] = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False)
                                    .encode()).hexdigest()[:16]
    return body


def messages(template: Mapping[str, Any], source: str) -> list[dict[str, str]]:
    """Table 10's chat: the instruction and the first demonstration's source in the first
    user turn, each demonstration's translation as an assistant turn, the sentence last."""
    left, right = template["wrap"]
    turns: list[dict[str, str]] = []
    sentences = [*template["shots"], {"source": source, "target": None}]
    for k, shot in enumerate(sentences):
        text = f"{left}{shot['source']}{right}"
        if k == 0:
            text = f"{template['instruction']} {text}"
        turns.append({"role": "user", "content": text})
        if shot["target"] is not None:
            turns.append({"role": "assistant", "content": f"{left}{shot['target']}{right}"})
    return turns


def build_inputs(data_path: str | Path, template: Mapping[str, Any],
                 output: str | Path) -> None:
    """Workflow stage: ``data.parquet`` + one template → ``inputs/{prompt}.jsonl`` (the
    generic record: plain ``source`` for NMT systems, ``messages`` for chat LLMs)."""
    import pandas as pd

    data = pd.read_parquet(data_path)
    write_jsonl(output, (
        {"item_id": row.item_id, "prompt": template["name"],
         "template_version": template["version"], "template_sha256": template["sha256"],
         "src_lang": row.src_lang, "tgt_lang": row.tgt_lang, "source": row.source,
         "messages": messages(template, row.source)}
        for row in data.itertuples(index=False)))
