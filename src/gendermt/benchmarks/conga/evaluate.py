"""Score one system's annotated outputs: per-entity rows, the per-sentence log, a summary.

The per-sentence log is the CSV the paper describes (§7): every sentence with its matches,
mismatches and unmatched entities, the gold English and the annotated Italian, for
qualitative inspection. Unannotated outputs appear in it with ``status = unannotated`` and
empty counts; they are left out of every sum.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.benchmarks.conga import CATEGORIES, METRICS
from gendermt.benchmarks.conga.metric import describe, precision_recall, score_sentence
from gendermt.benchmarks.conga.tags import TagScheme, parse_tagged
from gendermt.data.io import read_jsonl, write_json, write_parquet, write_table

TOTALS = ("source_tags_m", "source_tags_f", "source_tags_a", "target_tags_m", "target_tags_f",
          "source_entities_m", "source_entities_f", "source_entities_a", "target_entities_m",
          "target_entities_f")
COUNT_COLUMNS = (*CATEGORIES, *TOTALS)


def score_sentences(items: Iterable[dict[str, Any]], source_scheme: TagScheme,
                    target_scheme: TagScheme) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each item: ``item_id``, ``source_tagged``, ``annotation`` (None: unannotated),
    ``status``, ``annotation_source``, ``where``. Returns (entities, sentences)."""
    entity_rows, sentence_rows = [], []
    for item in items:
        row = {"item_id": item["item_id"], "status": item["status"],
               "annotation_source": item.get("annotation_source")}
        source = parse_tagged(item["source_tagged"], source_scheme,
                              where=f"{item['where']} (English)")
        if item["annotation"] is None:
            row.update({c: pd.NA for c in COUNT_COLUMNS}, entities="")
        else:
            target = parse_tagged(item["annotation"], target_scheme,
                                  where=f"{item['where']} (Italian)")
            rows, counts = score_sentence(source, target)
            entity_rows += [{"item_id": item["item_id"], **r} for r in rows]
            row.update(counts, entities=describe(rows))
        row.update(source_tagged=item["source_tagged"], annotation=item["annotation"],
                   hypothesis=item.get("hypothesis"))
        sentence_rows.append(row)
    entities = pd.DataFrame(entity_rows, columns=["item_id", "entity", "source_gender",
                                                  "target_gender", "category"])
    entities["entity"] = entities["entity"].astype("Int64")
    sentences = pd.DataFrame(sentence_rows)
    for c in COUNT_COLUMNS:
        sentences[c] = sentences[c].astype("Int64")
    return entities, sentences


def summarise(sentences: pd.DataFrame, denominator: str = "tags") -> dict[str, Any]:
    """Summed counts and §7's metrics over the annotated sentences."""
    scored = sentences[sentences["status"] == "annotated"]
    sums = {c: int(scored[c].sum()) for c in COUNT_COLUMNS}
    return {"items": len(sentences), "items_scored": len(scored),
            "items_unannotated": int((sentences["status"] != "annotated").sum()),
            **sums, **precision_recall(sums, denominator), "denominator": denominator}


def score_run(annotations: str | Path, data_path: str | Path, entities_out: str | Path,
               sentences_out: str | Path, summary_out: str | Path, *, system: str,
               prompt: str, source_tags: dict[str, Any] | None = None,
               target_tags: dict[str, Any] | None = None, denominator: str = "tags") -> None:
    """Workflow stage: ``annotations/{system}/{prompt}.jsonl`` → entities (Parquet), the
    per-sentence log (CSV) and the summary (JSON)."""
    data = pd.read_parquet(data_path, columns=["item_id", "source_tagged"])
    english = data.set_index("item_id")["source_tagged"]
    records = read_jsonl(annotations)
    items = [{**r, "source_tagged": english[r["item_id"]],
              "where": f"{annotations}, item {r['item_id']}"} for r in records]
    entities, sentences = score_sentences(items, TagScheme.source(**(source_tags or {})),
                                          TagScheme.target(**(target_tags or {})))
    entities.insert(0, "prompt", prompt)
    entities.insert(0, "system", system)
    sentences.insert(0, "prompt", prompt)
    sentences.insert(0, "system", system)
    write_parquet(entities_out, entities)
    write_table(sentences, sentences_out)
    summary = summarise(sentences, denominator)
    write_json(summary_out, {"system": system, "prompt": prompt, **summary})


__all__ = ["COUNT_COLUMNS", "METRICS", "score_run", "score_sentences", "summarise"]
