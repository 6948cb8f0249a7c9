"""WinoMT's adjective experiment (Stanovsky et al. 2019, "fighting bias with bias"): the
anti-stereotypical sentences (``en_anti.txt``) with a stereotypically gendered adjective put
before the entity ("the pretty developer ... she", "the handsome designer ... his"), as the
authors' ``src/add_adjectives.py`` made them, translated by Google and Bing
(``translations/{google,bing}/adj.en-<lang>.txt``).

Each line of such a file is one ``en_anti.txt`` row in that file's order (the adjective
inserted at the entity's index, the index moved on by one); the row is the en.txt item it
equals (a row present twice in both files: its k-th occurrence is the k-th item). The
translations are aligned to the adjective sentence (their own source) and read like any
output; the change is accuracy with the adjective minus accuracy of the plain system on the
same items (its reading of the full file), with a paired bootstrap over those items.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gendermt.core.errors import DatasetError, GenderMTError

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import numpy as np
    import pandas as pd

log = logging.getLogger(__name__)

#: The adjective put before an entity of each gold gender (mt_gender's add_adjectives.py; a
#: neutral entity gets none, and en_anti.txt has none).
ADJECTIVES = {"male": "handsome", "female": "pretty"}
#: The per-reader figures of one (system, language) and the table's columns.
def with_adjective(sentence: str, index: int, gold: str) -> tuple[str, int]:
    """The sentence with ``gold``'s adjective before the word at ``index`` (whitespace words,
    as add_adjectives.py splits on a space) and the entity's new index."""
    if gold not in ADJECTIVES:
        raise ValueError(f"no adjective for gold gender {gold!r} (only {', '.join(ADJECTIVES)})")
    words = sentence.split(" ")
    return " ".join([*words[:index], ADJECTIVES[gold], *words[index:]]), index + 1


def adjective_items(data: pd.DataFrame, anti_path: str | Path) -> pd.DataFrame:
    """The adjective experiment's items, in ``en_anti.txt``'s order (the adjective files'):
    each row's en.txt ``item_id``, gold, entity, stereotype and its sentence with the
    adjective (``source``, ``entity_index``)."""
    import pandas as pd

    from gendermt.benchmarks.winomt.data import read_rows

    slots: dict[tuple, list[int]] = {}
    for pos, row in enumerate(data[["gold", "entity_index", "source", "entity"]]
                              .itertuples(index=False)):
        slots.setdefault((row.gold, int(row.entity_index), row.source, row.entity),
                         []).append(pos)
    rows = []
    for n, key in enumerate(read_rows(anti_path), 1):
        found = slots.get(key)
        if not found:
            raise DatasetError(anti_path, f"row {key[2]!r} is no item of the data (or it is "
                               "there fewer times than here)", row=n)
        item = data.iloc[found.pop(0)]
        source, index = with_adjective(key[2], key[1], key[0])
        rows.append({"item_id": item["item_id"], "gold": key[0], "entity_index": index,
                     "source": source, "entity": key[3], "stereotype": item["stereotype"]})
    return pd.DataFrame(rows)


def read_translations(path: str | Path, items: pd.DataFrame) -> list[str]:
    """The ``source ||| translation`` lines of an adjective file, one per item in order, each
    source checked to be the item's adjective sentence (the line correspondence)."""
    from gendermt.benchmarks.winomt.stored_format import SEPARATOR, same_sentence
    from gendermt.translation.backends.stored import count_error, file_lines

    lines = [line.rstrip("\r") for line in file_lines(Path(path))]
    if len(lines) != len(items):
        raise count_error(Path(path), len(lines), len(items))
    out = []
    for n, (line, source) in enumerate(zip(lines, items["source"], strict=True), 1):
        src, sep, tgt = line.partition(SEPARATOR)
        if not sep:
            raise DatasetError(path, f"no {SEPARATOR!r} separating the source from the "
                                     "translation", row=n)
        if not same_sentence(src, source):
            raise DatasetError(path, f"the source side {src.strip()!r} is not the adjective "
                               f"sentence {source!r} (en_anti.txt's row {n} with its "
                               "adjective): the file is not in en_anti.txt's order", row=n)
        out.append(tgt.strip())
    return out


def correctness(counts_of: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Per-unit counts ``(units, 2)`` (correct, 1) of each 0/1 correctness vector."""
    import numpy as np

    return {k: np.column_stack([np.asarray(v, dtype=float), np.ones(len(v))])
            for k, v in counts_of.items()}


def paired_change(plain: Sequence[bool], adjective: Sequence[bool],
                  bootstrap: Mapping | None = None) -> dict[str, float]:
    """Accuracy (%) without and with the adjective on the same items (``plain[i]`` and
    ``adjective[i]``: item i read right), their change (with − without, points) and the
    change's percentile interval from a paired bootstrap over items (the same resampled
    items for both, gendermt.analysis.resample)."""
    from gendermt.analysis.resample import Settings, percentile_interval, resampled

    if len(plain) != len(adjective):
        raise GenderMTError(f"paired change needs the same items: {len(plain)} plain, "
                            f"{len(adjective)} with the adjective")
    n = len(plain)
    if not n:
        raise GenderMTError("paired change of no items")
    settings = Settings.of(bootstrap)

    def acc(sums: np.ndarray) -> np.ndarray:
        return 100 * sums[:, 0] / sums[:, 1]

    boot = resampled(correctness({"plain": plain, "adj": adjective}), {"acc": acc}, settings)
    low, high = percentile_interval(boot[("acc", "adj")] - boot[("acc", "plain")],
                                    settings.level)
    acc_plain = 100 * sum(map(bool, plain)) / n
    acc_adj = 100 * sum(map(bool, adjective)) / n
    return {"n": n, "acc_plain": acc_plain, "acc_adj": acc_adj,
            "change": acc_adj - acc_plain, "ci_low": low, "ci_high": high}


def pair_readings(plain: pd.DataFrame, adjective: pd.DataFrame) -> tuple[list[bool], list[bool]]:
    """The plain and adjective readings' correctness on the adjective items (by
    ``item_id``, in the adjective table's order; the plain table holds every item)."""
    by_item = dict(zip(plain["item_id"].astype(str), plain["correct"].astype(bool),
                       strict=True))
    missing = [i for i in adjective["item_id"].astype(str) if i not in by_item]
    if missing:
        raise GenderMTError(f"the plain system's reading has no item {missing[0]} "
                            f"({len(missing)} of the adjective items missing)")
    return ([by_item[i] for i in adjective["item_id"].astype(str)],
            [bool(c) for c in adjective["correct"]])


def score_adjectives(system: str, lang: str, data_path: str, anti_path: str,
                     translations: str, plain_tables: Sequence[str], readers: Sequence[str],
                     table: str, summary: str, alignment: Mapping | None = None,
                     morphology: Mapping | None = None, lexicon: str | None = None,
                     bootstrap: Mapping | None = None, source: Mapping | None = None) -> None:
    """Workflow stage: one system's adjective file in one language, read by every reader
    (``plain_tables``: the plain system's per-sentence tables, one per reader, same order)
    → the per-sentence readings (``table``, parquet) and each reader's paired change
    (``summary``, JSON: a list of rows; ``source``: the file's repository, path and commit)."""
    import pandas as pd

    from gendermt.benchmarks.winomt.evaluate import Models, predict
    from gendermt.data.io import write_json, write_parquet

    if len(plain_tables) != len(readers):
        raise ValueError("one plain table per reader")
    data = pd.read_parquet(data_path)
    items = adjective_items(data, anti_path)
    hypotheses = read_translations(translations, items)
    models = Models(lexicon)
    frames, rows = [], []
    for reader, plain_path in zip(readers, plain_tables, strict=True):
        read, facts = predict(items, hypotheses, lang, dict(alignment or {}), reader, models,
                              dict(morphology or {}))
        plain, adjective = pair_readings(pd.read_parquet(plain_path), read)
        read = read.assign(system=system, lang=lang, reader=reader, plain_correct=plain)
        frames.append(read)
        change = paired_change(plain, adjective, bootstrap)
        log.info("%s %s (%s reader) adjectives: %.1f → %.1f (%+.1f [%.1f, %.1f]) on %d items",
                 system, lang, reader, change["acc_plain"], change["acc_adj"],
                 change["change"], change["ci_low"], change["ci_high"], change["n"])
        rows.append({"system": system, "lang": lang, "reader": reader, **change,
                     "reader_version": facts.get("reader_version"),
                     "source": (source or {}).get("path", str(translations)),
                     "commit": (source or {}).get("commit", "")})
    write_parquet(table, pd.concat(frames, ignore_index=True))
    write_json(summary, rows)


def source_of(records: Sequence[Mapping[str, Any]], path: str = "") -> dict[str, str]:
    """Where a data file comes from: ``{path: <repository>/<upstream path>, commit}`` of the
    first file of a data stage's ``datasets`` records (gendermt.data.datasets.read_by, given
    that one file); a file of no declared data set (a user's own): its ``path``, no commit."""
    for record in records:
        for f in record.get("files", []):
            return {"path": f"{record['repository']}/{f['path']}", "commit": record["commit"]}
    return {"path": str(path), "commit": ""} if path else {}
