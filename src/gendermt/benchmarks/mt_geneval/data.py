"""Reading MT-GenEval's published files exactly as released.

Layout (the repository's ``data/`` folder)::

    sentences/{split}/geneval-sentences-{gender}-{split}.en_{lang}.{en,lang}
    sentences/{split}/annotated/…                         (same names, gendered words tagged
                                                           <M>…</M> / <F>…</F>)
    context/geneval-context-wikiprofessions-2to1-{split}.en_{lang}.en   (context <sep> sentence)
    context/geneval-context-wikiprofessions-{original,flipped}-{split}.en_{lang}.{lang}

One segment per line, aligned by line number across the files of a set. A quirk of the release:
a few contextual lines (1-9 per file) have nothing before ``<sep>``; they are kept as published,
with an empty ``context``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.benchmarks.mt_geneval import GENDERS, SETS, SPLITS
from gendermt.core.errors import DatasetError, MissingResourceError
from gendermt.data.textfiles import read_lines

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

SEP = "<sep>"
_TAG = re.compile(r"</?[MF]>")


def data_root(path: str | Path) -> Path:
    """The release's ``data/`` folder: ``path`` itself, or ``path/data``."""
    path = Path(path)
    for candidate in (path, path / "data"):
        if (candidate / "sentences").is_dir() or (candidate / "context").is_dir():
            return candidate
    raise MissingResourceError(
        f"{path}: not MT-GenEval's data folder (expected 'sentences/' and 'context/' in it or in "
        f"its 'data/' folder, as in the amazon-science/machine-translation-gender-eval release)")


def read_segments(path: Path) -> list[str]:
    """The lines of one segment file, split on ``\\n`` only (a stray U+2028 stays inside its
    line), each without its line end."""
    if not path.is_file():
        raise MissingResourceError(f"{path}: MT-GenEval file not found")
    return read_lines(path)


def strip_tags(text: str) -> str:
    """An annotated segment without its ``<M>``/``<F>`` tags."""
    return _TAG.sub("", text)


def tagged_words(text: str) -> list[str]:
    """The words an annotated segment marks as gendered, in order."""
    return re.findall(r"<([MF])>(.*?)</\1>", text)


def _check(split: str) -> None:
    if split not in SPLITS:
        raise DatasetError("split", f"unknown split {split!r} (MT-GenEval has {', '.join(SPLITS)})")


def _same_length(columns: dict[Path, list[str]]) -> int:
    counts = {path: len(lines) for path, lines in columns.items()}
    if len(set(counts.values())) != 1:
        listing = ", ".join(f"{p.name}: {n}" for p, n in counts.items())
        raise DatasetError(next(iter(counts)), f"the files of one set must have as many lines "
                                               f"as each other ({listing})")
    return next(iter(counts.values()))


def counterfactual_paths(root: Path, lang: str, split: str, annotated: bool = False
                         ) -> dict[str, Path]:
    folder = root / "sentences" / split / ("annotated" if annotated else "")
    paths = {}
    for gender in GENDERS:
        stem = f"geneval-sentences-{gender}-{split}.en_{lang}"
        paths[f"source_{gender}"] = folder / f"{stem}.en"
        paths[f"reference_{gender}"] = folder / f"{stem}.{lang}"
    return paths


def contextual_paths(root: Path, lang: str, split: str) -> dict[str, Path]:
    folder = root / "context"
    stem = "geneval-context-wikiprofessions-{}-" + f"{split}.en_{lang}"
    return {"source": folder / (stem.format("2to1") + ".en"),
            "reference": folder / (stem.format("original") + f".{lang}"),
            "reference_flipped": folder / (stem.format("flipped") + f".{lang}")}


def load_counterfactual(root: str | Path, lang: str, split: str) -> pd.DataFrame:
    """One row per counterfactual pair: the masculine and feminine sources and references, and,
    where the release has them, the annotated references' tagged words."""
    import pandas as pd

    _check(split)
    root = data_root(root)
    paths = counterfactual_paths(root, lang, split)
    columns = {name: read_segments(path) for name, path in paths.items()}
    n = _same_length({paths[k]: v for k, v in columns.items()})
    frame = pd.DataFrame(columns)
    annotated = counterfactual_paths(root, lang, split, annotated=True)
    if all(p.is_file() for p in annotated.values()):
        for name, path in annotated.items():
            lines = read_segments(path)
            if len(lines) != n:
                raise DatasetError(path, f"{len(lines)} lines where {paths[name].name} has {n}")
            frame[f"annotated_{name}"] = lines
    frame.insert(0, "item_id", [f"{lang}-{split}-cf-{i:04d}" for i in range(1, n + 1)])
    frame.insert(1, "line", range(1, n + 1))
    frame["tgt_lang"] = lang
    frame["split"] = split
    return frame


def load_contextual(root: str | Path, lang: str, split: str) -> pd.DataFrame:
    """One row per contextual item: the English context, the sentence to translate (what the
    official setup feeds the system is the whole ``context <sep> sentence`` line), the original
    (correct) and the flipped (counterfactual) references."""
    import pandas as pd

    _check(split)
    root = data_root(root)
    paths = contextual_paths(root, lang, split)
    columns = {name: read_segments(path) for name, path in paths.items()}
    n = _same_length({paths[k]: v for k, v in columns.items()})
    contexts, sentences = [], []
    for row, line in enumerate(columns["source"], 1):
        if line.count(SEP) != 1:
            raise DatasetError(paths["source"], f"expected one '{SEP}' between the context and "
                                                f"the sentence, found {line.count(SEP)}", row=row)
        context, sentence = line.split(SEP)
        contexts.append(context.strip())
        sentences.append(sentence.strip())
    frame = pd.DataFrame({"item_id": [f"{lang}-{split}-ctx-{i:04d}" for i in range(1, n + 1)],
                          "line": range(1, n + 1),
                          "source_with_context": columns["source"], "context": contexts,
                          "source": sentences, "reference": columns["reference"],
                          "reference_flipped": columns["reference_flipped"]})
    frame["tgt_lang"] = lang
    frame["split"] = split
    return frame


def load(root: str | Path, lang: str, split: str, which: str) -> pd.DataFrame:
    if which not in SETS:
        raise DatasetError("set", f"unknown set {which!r} (MT-GenEval has {', '.join(SETS)})")
    return (load_counterfactual if which == "counterfactual" else load_contextual)(root, lang,
                                                                                   split)


def segments(root: str | Path, langs: list[str], split: str, sets: list[str]) -> pd.DataFrame:
    """The workflow's items: one row per segment to translate, with the reference of the right
    gender and the counterfactual one. A counterfactual pair gives two rows (its masculine and
    its feminine source, ``pair_id`` shared); a contextual item gives one, whose ``source`` is
    the sentence the references translate, with its English ``context`` beside it and the
    published ``context <sep> sentence`` line as ``source_with_context``."""
    import pandas as pd

    rows = []
    for lang in langs:
        if "counterfactual" in sets:
            frame = load_counterfactual(root, lang, split)
            for rec in frame.to_dict("records"):
                for gender, other in (("masculine", "feminine"), ("feminine", "masculine")):
                    rows.append({"item_id": f"{rec['item_id']}-{gender[0]}",
                                 "pair_id": rec["item_id"], "set": "counterfactual",
                                 "gender": gender, "line": rec["line"],
                                 "source": rec[f"source_{gender}"], "context": "",
                                 "source_with_context": rec[f"source_{gender}"],
                                 "reference": rec[f"reference_{gender}"],
                                 "counterfactual_reference": rec[f"reference_{other}"],
                                 "src_lang": "en", "tgt_lang": lang, "split": split})
        if "contextual" in sets:
            frame = load_contextual(root, lang, split)
            for rec in frame.to_dict("records"):
                rows.append({"item_id": rec["item_id"], "pair_id": rec["item_id"],
                             "set": "contextual", "gender": "", "line": rec["line"],
                             "source": rec["source"], "context": rec["context"],
                             "source_with_context": rec["source_with_context"],
                             "reference": rec["reference"],
                             "counterfactual_reference": rec["reference_flipped"],
                             "src_lang": "en", "tgt_lang": lang, "split": split})
    return pd.DataFrame(rows)


def published_files(root: str | Path, langs: list[str], split: str, sets: list[str]
                    ) -> list[Path]:
    """The release's files the configured languages, split and sets read (the data stage's
    inputs), the counterfactual set's annotated references included where published."""
    _check(split)
    root = data_root(root)
    paths: list[Path] = []
    for lang in langs:
        if "counterfactual" in sets:
            paths += counterfactual_paths(root, lang, split).values()
            annotated = counterfactual_paths(root, lang, split, annotated=True).values()
            paths += [p for p in annotated if p.is_file()]
        if "contextual" in sets:
            paths += contextual_paths(root, lang, split).values()
    missing = [p for p in paths if not p.is_file()]
    if missing:
        raise MissingResourceError(
            f"{missing[0]}: MT-GenEval file not found ({len(missing)} of the {len(paths)} "
            f"files of languages {', '.join(langs)}, split {split}, sets {', '.join(sets)} "
            "are missing)")
    return paths


def root_of(paths: list[str | Path]) -> Path:
    """The release's ``data/`` folder that the files of :func:`published_files` are in."""
    roots = set()
    for path in map(Path, paths):
        folder = next((a for a in path.parents if a.name in ("sentences", "context")), None)
        if folder is None:
            raise DatasetError(path, "not in an MT-GenEval sentences/ or context/ folder")
        roots.add(folder.parent)
    if len(roots) != 1:
        raise DatasetError(next(iter(paths), "?"), "the files come from several data folders: "
                           f"{', '.join(sorted(map(str, roots))) or 'none'}")
    return roots.pop()


def build(files: list[str | Path], langs: list[str], split: str, sets: list[str],
          items_out: str | Path, provenance_out: str | Path) -> None:
    """Workflow stage: the release's files of the configured languages, split and sets
    (:func:`published_files`, the rule's inputs) → ``data.parquet`` (one row per segment to
    translate, :func:`segments`) + ``data.json`` (the files read, with size and sha256, and
    the item counts)."""
    from gendermt.data import reads
    from gendermt.data.io import write_json
    from gendermt.data.stage_tables import write_data_table

    root = root_of(files)
    files = published_files(root, langs, split, sets)
    with reads.recording():  # each file's hash taken as it is read (gendermt.data.reads)
        items = segments(root, langs, split, sets)
        read = [reads.identity(p) for p in files]
    write_data_table("mt-geneval", items_out, items)
    counts = (items.groupby(["tgt_lang", "set"], sort=True)["pair_id"].nunique()
              .reset_index(name="items").to_dict("records"))
    write_json(provenance_out, {
        "dataset": "MT-GenEval (Currey et al., EMNLP 2022)",
        "root": str(data_root(root)), "languages": list(langs), "split": split,
        "sets": list(sets),
        "files": read,
        "segments": int(len(items)),
        "items": [{k: (int(v) if k == "items" else v) for k, v in c.items()} for c in counts],
    })
