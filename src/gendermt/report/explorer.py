"""Every item of a benchmark with each system's output side by side, the gold and what was read
from each output: the data of the report's explorer page (:mod:`.explorer_page` writes it).

A benchmark says what it read in its own ``explorer`` module (``read(**inputs) -> Explorer``;
the rule file declares its inputs with ``declare_explorer``): which records each run has, how
an item and an output are shown (WinoMT the gender read and its evidence, MT-GenEval the
unique words found, GATE X-E match or not, and so on); :func:`explore` is the loop they share.

The page's data is one compact JSON object, every text stored once (an output equal to another
system's, or to the source, costs one index), gzipped and base64-encoded: the full WinoMT set in
eight languages (140,000 outputs) weighs about 6 MB instead of about 20.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError

#: Bumped when the encoded layout changes (the page checks it).
FORMAT = 1
# the encoded data's element in the page, found again by read_page
DATA_ID = "gmt-explorer-data"


@dataclass(frozen=True)
class Output:
    """One system's output of one item and what was read from it."""

    text: str | None
    #: The reading, a short label ("female", "match", "2/3 correct"); "" when nothing was read.
    read: str = ""
    #: Whether the reading is right by the benchmark's gold (None: it has no such verdict).
    correct: bool | None = None
    #: Why: the words, the aligned entity and its cue, the scores behind the reading.
    evidence: str = ""


@dataclass
class Item:
    """One item of one run (prompt: a target language, a prompt format) with every output."""

    run: str
    item_id: str
    source: str
    #: The gold label the readings are checked against ("female", "feminine"; "" if none).
    gold: str = ""
    #: The gold text where there is one (a reference translation or rewrite).
    reference: str = ""
    #: Further texts shown under the source (the original of a rewrite, a context sentence).
    texts: Mapping[str, str] = field(default_factory=dict)
    #: Columns to filter by (stereotype, category, target language), name → value.
    groups: Mapping[str, str] = field(default_factory=dict)
    #: system → its output; a system without one for this item is absent.
    outputs: dict[str, Output] = field(default_factory=dict)


@dataclass
class Explorer:
    """A benchmark's explorer: its items, its systems in order, and what the reading is."""

    benchmark: str
    #: One or two sentences: what was read from each output and what "correct" means.
    reading: str
    systems: list[str]
    items: list[Item]
    #: What the gold is here ("gold gender", "requested gender").
    gold_label: str = "gold"
    #: The group columns, in the order the filters show them (default: as first seen).
    groups: list[str] = field(default_factory=list)


class _Strings:
    """Every text once: a value → its index."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.values: list[str] = []

    def __call__(self, value: str | None) -> int:
        if value is None:
            return -1
        value = str(value)
        found = self.index.get(value)
        if found is None:
            found = self.index[value] = len(self.values)
            self.values.append(value)
        return found


# correctness as one character per item: right, wrong, no verdict, no output
_VERDICT = {True: "1", False: "0", None: "-"}


def encode(explorer: Explorer) -> dict[str, Any]:
    """The page's data: column arrays over the items, texts as indices into ``strings``."""
    if not explorer.items:
        raise GenderMTError(f"{explorer.benchmark}: no items to explore (no run wrote "
                            "per-item results)")
    unknown = sorted({s for item in explorer.items for s in item.outputs}
                     - set(explorer.systems))
    if unknown:
        raise GenderMTError(f"{explorer.benchmark}: outputs of systems not in its list: "
                            f"{', '.join(unknown)}")
    strings = _Strings()
    runs = list(dict.fromkeys(item.run for item in explorer.items))
    # the explorer's groups first, in its order; only those some item has
    groups = [g for g in dict.fromkeys([*explorer.groups,
                                        *(g for item in explorer.items for g in item.groups)])
              if any(g in item.groups for item in explorer.items)]
    texts = list(dict.fromkeys(t for item in explorer.items for t in item.texts))
    run_index = {run: i for i, run in enumerate(runs)}
    items: dict[str, Any] = {
        "run": [run_index[item.run] for item in explorer.items],
        "id": [strings(item.item_id) for item in explorer.items],
        "source": [strings(item.source) for item in explorer.items],
        "gold": [strings(item.gold) for item in explorer.items],
        "reference": [strings(item.reference or None) for item in explorer.items],
        "texts": [[strings(item.texts.get(t) or None) for item in explorer.items]
                  for t in texts],
        "groups": [[strings(item.groups.get(g)) for item in explorer.items] for g in groups],
    }
    outputs = []
    for system in explorer.systems:
        got = [item.outputs.get(system) for item in explorer.items]
        outputs.append({
            "text": [strings(o.text) if o else -1 for o in got],
            "read": [strings(o.read) if o else -1 for o in got],
            "correct": "".join(_VERDICT[o.correct] if o else " " for o in got),
            "evidence": [strings(o.evidence or None) if o else -1 for o in got],
        })
    return {
        "format": FORMAT, "benchmark": explorer.benchmark, "reading": explorer.reading,
        "gold_label": explorer.gold_label, "systems": list(explorer.systems), "runs": runs,
        "groups": groups, "texts": texts, "items": items, "outputs": outputs,
        "strings": strings.values,
    }


def pack(data: Mapping[str, Any]) -> str:
    """The data as the page embeds it: JSON, gzipped (the browser's DecompressionStream
    reads it back), base64."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    # mtime 0: the same data gives the same page, byte for byte
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def unpack(packed: str) -> dict[str, Any]:
    return json.loads(gzip.decompress(base64.b64decode(packed)).decode("utf-8"))


def read_page(path: str | Path) -> dict[str, Any]:
    """The data a written explorer page holds (for tests and scripts)."""
    page = Path(path).read_text(encoding="utf-8")
    match = re.search(rf'<script id="{DATA_ID}"[^>]*>([^<]*)</script>', page)
    if not match:
        raise GenderMTError(f"{path}: not an explorer page (no {DATA_ID} element)")
    return unpack(match.group(1).strip())


def rows_of(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The decoded data back as one dict per item (``outputs``: system → output, reading,
    verdict, evidence), as the page shows them."""
    s = data["strings"]

    def text(i: int) -> str | None:
        return None if i < 0 else s[i]

    items, rows = data["items"], []
    verdicts = {"1": True, "0": False, "-": None}
    for k in range(len(items["id"])):
        outputs = {}
        for system, out in zip(data["systems"], data["outputs"], strict=True):
            if out["correct"][k] == " ":
                continue
            outputs[system] = {"text": text(out["text"][k]), "read": text(out["read"][k]),
                               "correct": verdicts[out["correct"][k]],
                               "evidence": text(out["evidence"][k]) or ""}
        rows.append({
            "run": data["runs"][items["run"][k]], "item_id": s[items["id"][k]],
            "source": s[items["source"][k]], "gold": s[items["gold"][k]],
            "reference": text(items["reference"][k]) or "",
            "texts": {t: text(col[k]) for t, col in zip(data["texts"], items["texts"],
                                                        strict=True) if col[k] >= 0},
            "groups": {g: text(col[k]) for g, col in zip(data["groups"], items["groups"],
                                                         strict=True)},
            "outputs": outputs})
    return rows


#: A run's records: (item id, the record its item and output are read from).
Records = Callable[[Mapping[str, Any]], Iterable[tuple[str, Any]]]
#: The item a record opens (the first run that has it): (run, item id, record) → Item.
ItemOf = Callable[[Mapping[str, Any], str, Any], Item]
#: A system's output of an item: (run, record, its item) → Output.
OutputOf = Callable[[Mapping[str, Any], Any, Item], Output]


def gather(rows: Iterable[tuple[Mapping[str, Any], str, Any]], item: ItemOf,
           output: OutputOf) -> dict[tuple[str, str], Item]:
    """Items by (run's prompt, item id), in the order first seen, each with the output of
    every run's system (``rows``: (run, item id, record); a run is ``{system, prompt, ...}``):
    an item is made from the first record of it, every record adds its system's output."""
    items: dict[tuple[str, str], Item] = {}
    for run, item_id, rec in rows:
        key = (run["prompt"], item_id)
        found = items.get(key)
        if found is None:
            found = items[key] = item(run, item_id, rec)
        found.outputs[run["system"]] = output(run, rec, found)
    return items


def explore(benchmark: str, reading: str, runs: Sequence[Mapping[str, Any]],
            records: Records, item: ItemOf, output: OutputOf,
            systems: Sequence[str] | None = None, gold_label: str = "gold",
            groups: Sequence[str] = ()) -> Explorer:
    """A benchmark's explorer from its runs (``{system, prompt, ...}`` records, in the order
    the rule gives them): each run's ``records``, an item per (prompt, item id), every
    system's output; systems in the config's order (``systems``), items in run order."""
    items = gather(((run, item_id, rec) for run in runs for item_id, rec in records(run)),
                   item, output)
    return Explorer(benchmark, reading, systems_in(runs, systems),
                    in_run_order(items.values(), runs), gold_label=gold_label,
                    groups=list(groups))


def parquet_records(key: str = "item_id") -> Records:
    """A run's records read from its ``path`` (a parquet table), by column ``key``."""
    import pandas as pd

    def records(run: Mapping[str, Any]) -> Iterable[tuple[str, Any]]:
        return ((str(rec[key]), rec) for rec in pd.read_parquet(run["path"]).to_dict("records"))

    return records


def systems_in(runs: Sequence[Mapping[str, Any]], configured: Sequence[str] | None = None
               ) -> list[str]:
    """The systems of a benchmark's runs, in the config's order where it is given."""
    seen = list(dict.fromkeys(r["system"] for r in runs))
    if configured:
        return [s for s in configured if s in seen] + [s for s in seen if s not in configured]
    return seen


def in_run_order(items: Iterable[Item], runs: Sequence[Mapping[str, Any]]) -> list[Item]:
    """Items by their run (prompt), in the order the runs first name it, then by item id."""
    order = {r["prompt"]: i for i, r in reversed(list(enumerate(runs)))}
    return sorted(items, key=lambda i: (order[i.run], i.item_id))


def text_or_none(value: Any) -> str | None:
    """A table's cell as text: None for a missing value (NaN, None, NA)."""
    if value is None:
        return None
    try:
        if value != value:  # NaN
            return None
    except (TypeError, ValueError):
        pass
    if type(value).__name__ == "NAType":
        return None
    return str(value)
