"""GATE X-E's published files → instances → the test tuples of the paper's §4.2.

``GATE_data_{tur,fin,hun,farsi}.txt`` are tab-separated with a header (read with
``QUOTE_NONE``; the Hungarian file has other last columns). Quirks handled here (datasets.md
3.3): Excel-mangled, non-unique ``id`` (instances are keyed by language and row instead);
``labels`` starting with a numeric item id and with spelling noise (``1 AGMEs``,
``Positive-1``, ``Mix``, ``target_only_pronoun``, ``non-AGME_name``, ``739631Positive 1``,
commas inside an item); ``variants`` joined by ``|`` or `` | `` with stray trailing bars and
duplicates; instances without an AGME filling only the neutral column(s).

A *request* (one row of ``data.parquet``, one input to a rewriter) is an instance's source
sentence with one of its gender-marked translations, the *original*. A rewriter returns the
neutral, feminine and masculine rewrites of the original at once, as the paper's rewriter
does; each *test tuple* (``tuples.parquet``) picks the rewrite of its requested gender and
compares it with its reference.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from difflib import SequenceMatcher, get_close_matches
from itertools import product
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.benchmarks.gate_x_e import LANGUAGES, SHORT
from gendermt.benchmarks.gate_x_e.swapped import flag
from gendermt.core.errors import DatasetError, GenderMTError
from gendermt.data import reads
from gendermt.data.io import write_json, write_parquet
from gendermt.data.stage_tables import write_data_table
from gendermt.data.textfiles import is_blank, read_delimited

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

log = logging.getLogger(__name__)

COMMON = ["id", "labels", "source", "female translation", "male translation",
          "neutral translation", "variants"]
# The all-neutral column (pronouns of non-AGMEs made neutral too) has two names.
ALL_NEUTRAL = ("all gender neutral pronouns", "full neutral translation")
NO_CHANGE = "None"  # a rewriter's answer when there is nothing to rewrite

_LABEL_FIXES = {
    "mix": "Mixed", "mixed": "Mixed", "multi": "multi", "name": "name",
    "non-agme_name": "non-AGME-name", "non-agme-name": "non-AGME-name",
    "target_only_pronoun": "target_only_gendered_pronoun",
}


# Every label of the published files once spelt canonically (besides `N AGME(s)` and
# `Positive|Negative N[A|B]`): anything else is a typo that would change a category
# (a misspelt target_only_gendered_pronoun turns Pronoun-Only into Gendered-Noun).
KNOWN_LABELS = frozenset({
    "Mixed", "No pronoun", "multi", "name", "non-AGME-name", "source+target_gendered_noun",
    "source+target_gendered_noun+pronoun", "source_gendered_noun_target_pronoun",
    "target_only_gendered_noun", "target_only_gendered_noun+pronoun",
    "target_only_gendered_pronoun"})


def is_known_label(label: str) -> bool:
    return (label in KNOWN_LABELS or re.fullmatch(r"\d+ AGMEs?", label) is not None
            or re.fullmatch(r"(Positive|Negative) \d+[AB]?", label) is not None)


def normalise_label(label: str) -> str | None:
    """One published label in its canonical spelling; None for a bare item id or nothing."""
    text = re.sub(r"\s+", " ", label).strip()
    text = re.sub(r"^\d{4,}(?=\D)", "", text).strip()  # "739631Positive 1"
    if not text or text.isdigit():
        return None
    text = re.sub(r"\s*\+\s*", "+", text)  # "target_only_gendered_noun + pronoun"
    count = re.fullmatch(r"(\d+)\s*AGMEs?", text, flags=re.I)
    if count:
        n = int(count[1])
        return f"{n} AGME" if n == 1 else f"{n} AGMEs"
    group = re.fullmatch(r"(Positive|Negative)[\s-]*(\d+[AB]?)", text, flags=re.I)
    if group:
        return f"{group[1].capitalize()} {group[2].upper()}"
    return _LABEL_FIXES.get(text.lower(), text)


def parse_labels(field: str) -> list[str]:
    labels = (normalise_label(part) for part in re.split(r"[;,]", field))
    return list(dict.fromkeys(label for label in labels if label))


def agme_count(labels: Sequence[str], female: str, male: str, variants: Sequence[str]) -> int:
    """The ``N AGME(s)`` label; where an instance lacks one, what its translations show."""
    for label in labels:
        match = re.fullmatch(r"(\d+) AGMEs?", label)
        if match:
            return int(match[1])
    if not female and not male:
        return 0
    return 2 if variants else 1


def category_of(labels: Sequence[str], agmes: int) -> str:
    """Pronoun-Only: only gendered pronouns mark the AGMEs (``target_only_gendered_pronoun``
    and no ``…gendered_noun…`` label); Gendered-Noun otherwise; Negative without AGMEs."""
    if agmes == 0:
        return "Negative"
    if "target_only_gendered_pronoun" in labels and not any(
            "gendered_noun" in label for label in labels):
        return "Pronoun-Only"
    return "Gendered-Noun"


def split_variants(field: str) -> list[str]:
    return list(dict.fromkeys(v.strip() for v in field.split("|") if v.strip()))


def language_of(path: str | Path) -> str:
    """The ISO code of a GATE X-E file, from its name (``GATE_data_tur.txt``) or folder."""
    path = Path(path)
    match = re.search(r"GATE_data_([A-Za-z]+)", path.name)
    for folder, (iso, code) in LANGUAGES.items():
        if (match and match[1].lower() == code) or folder in {p.lower() for p in path.parts}:
            return iso
    raise GenderMTError(f"{path}: cannot tell the language from the file name; expected "
                        f"GATE_data_{{{','.join(c for _, c in LANGUAGES.values())}}}.txt")


def read_rows(path: Path) -> list[list[str]]:
    """The tab-separated rows of a GATE X-E file, as written (no quoting: quotes are text;
    a BOM is dropped; blank lines are ``[]``, so that row numbers count them)."""
    return [fields for _, fields in read_delimited(path, "\t")]


def _known_labels(path: Path, number: int, field: str) -> list[str]:
    """Data row ``number``'s labels, each one GATE X-E has."""
    labels = parse_labels(field)
    unknown = [label for label in labels if not is_known_label(label)]
    if unknown:
        close = get_close_matches(unknown[0], sorted(KNOWN_LABELS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise DatasetError(path, f"unknown label {unknown[0]!r}{hint}; GATE X-E's labels "
                                 f"are N AGME(s), Positive/Negative N, and "
                                 f"{', '.join(sorted(KNOWN_LABELS))}",
                           row=number, column="labels")
    return labels


def load_instances(path: str | Path, language: str | None = None) -> pd.DataFrame:
    """One row per instance of a ``GATE_data_*.txt`` file, labels normalised."""
    import pandas as pd

    path = Path(path)
    language = language or language_of(path)
    rows = read_rows(path)
    if not rows:
        raise DatasetError(path, "the file is empty")
    header = [h.strip() for h in rows[0]]
    missing = [c for c in COMMON if c not in header]
    if missing:
        raise DatasetError(path, f"no column(s) {missing}; GATE X-E files have {COMMON} and "
                                 f"one of {list(ALL_NEUTRAL)}", row=None)
    all_neutral = next((c for c in ALL_NEUTRAL if c in header), None)
    col = {name: header.index(name) for name in header}
    records = []
    for number, row in enumerate(rows[1:], start=1):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < len(COMMON):
            raise DatasetError(path, f"{len(row)} fields where the header has {len(header)}",
                               row=number)
        cell = {name: (row[i].strip() if i < len(row) else "") for name, i in col.items()}
        if is_blank(cell["source"]):
            raise DatasetError(path, "empty source sentence", row=number, column="source")
        labels = _known_labels(path, number, cell["labels"])
        female, male = cell["female translation"], cell["male translation"]
        neutral = cell["neutral translation"]
        variants = split_variants(cell["variants"])
        agmes = agme_count(labels, female, male, variants)
        if agmes == 0 and not (neutral or female or male):
            raise DatasetError(path, "an instance without AGMEs needs its translation in "
                                     "'neutral translation'", row=number,
                               column="neutral translation")
        if agmes > 0 and not (female or male):
            # e.g. FARSI row 15: "Negative 1B" and "1 AGME", one translation. The
            # translations decide: with nothing to rewrite, the instance is negative.
            log.warning("%s row %d: labelled %d AGME(s) but has only a neutral translation; "
                        "taken as negative", path, number, agmes)
            agmes = 0
        records.append({
            "instance_id": f"{language}-{number:04d}", "language": language, "row": number,
            "raw_id": cell["id"], "labels": ";".join(labels), "agmes": agmes,
            "category": category_of(labels, agmes), "source": cell["source"],
            "female": female, "male": male, "neutral": neutral, "variants": variants,
            "all_neutral": cell.get(all_neutral, "") if all_neutral else "",
        })
    if not records:
        raise DatasetError(path, "no instances")
    return pd.DataFrame.from_records(records)


def mixed_originals(female: str, male: str, variants: Sequence[str]) -> list[str]:
    """The variants of a 2-AGME instance that mix feminine and masculine AGMEs (f+m, m+f):
    where the female and male translations differ, each such variant takes the female's
    words in some places and the male's in others."""
    f_words, m_words = female.split(), male.split()
    # Differing stretches; one of equal length differs word by word ("her her" / "him his").
    segments: list[tuple[list[str], list[str]] | list[str]] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=f_words, b=m_words,
                                               autojunk=False).get_opcodes():
        if tag == "equal":
            segments.append(f_words[i1:i2])
        elif i2 - i1 == j2 - j1:
            segments += [([a], [b]) for a, b in zip(f_words[i1:i2], m_words[j1:j2],
                                                    strict=True)]
        else:
            segments.append((f_words[i1:i2], m_words[j1:j2]))
    choices = [seg for seg in segments if isinstance(seg, tuple)]
    if not choices or len(choices) > 12:  # 2**12 combinations at most
        return []
    mixes = set()
    for pick in product((0, 1), repeat=len(choices)):
        if len(set(pick)) < 2:
            continue  # all-female or all-male
        words, k = [], 0
        for seg in segments:
            if isinstance(seg, tuple):
                words += seg[pick[k]]
                k += 1
            else:
                words += seg
        mixes.add(" ".join(words))
    return [v for v in variants if " ".join(v.split()) in mixes]


def answer_text(variants: dict[str, str] | None) -> str:
    """A rewriter's answer in the format the LLM prompt asks for (and the parser reads)."""
    if variants is None:
        return NO_CHANGE
    return "\n".join(f"{g.capitalize()}: {variants[g]}"
                     for g in ("neutral", "feminine", "masculine"))


class _Extraction:
    """The requests (``items``) and test tuples :func:`extract` makes, and how many instances
    it left out for each reason (``skipped``)."""

    def __init__(self) -> None:
        self.items: list[dict] = []
        self.tuples: list[dict] = []
        self.skipped = {"3+ AGMEs": 0, "2 AGMEs without f/m mixed variants": 0}

    def add_item(self, inst, gender: str, key: str, original: str, answer: str) -> str:
        item_id = f"{inst.instance_id}-{key}"
        self.items.append({"item_id": item_id, "instance_id": inst.instance_id,
                           "language": inst.language, "src_lang": inst.language,
                           "tgt_lang": "en", "source": inst.source, "original": original,
                           "original_gender": gender, "category": inst.category,
                           "labels": inst.labels, "agmes": inst.agmes,
                           "oracle_output": answer, "unchanged_output": NO_CHANGE})
        return item_id

    def add_tuple(self, inst, item_id: str, gender: str, original: str, requested: str,
                  reference: str, relaxed: str | None = None) -> None:
        if not reference:
            return
        self.tuples.append({"tuple_id": f"{item_id}-{SHORT[requested]}", "item_id": item_id,
                            "instance_id": inst.instance_id, "language": inst.language,
                            "category": inst.category, "original_gender": gender,
                            "requested_gender": requested, "source": inst.source,
                            "original": original, "reference": reference,
                            "relaxed_reference": relaxed or reference})

    def negative(self, inst) -> None:
        """A 0-AGME instance: one tuple per requested gender, checking the original is kept."""
        original = inst.neutral or inst.female or inst.male
        item_id = self.add_item(inst, "negative", "neg", original, NO_CHANGE)
        for requested in ("feminine", "masculine", "neutral"):
            relaxed = inst.all_neutral if requested == "neutral" else None
            self.add_tuple(inst, item_id, "negative", original, requested, original, relaxed)

    def gendered(self, inst, refs: dict[str, str], answer: str) -> None:
        """The feminine and masculine originals: each to the other genders."""
        for gender in ("feminine", "masculine"):
            if not refs[gender]:
                continue
            item_id = self.add_item(inst, gender, SHORT[gender], refs[gender], answer)
            for requested in ("feminine", "masculine", "neutral"):
                if requested != gender:
                    self.add_tuple(inst, item_id, gender, refs[gender], requested,
                                   refs[requested])

    def mixed(self, inst, refs: dict[str, str], answer: str) -> None:
        """A 2-AGME instance's f+m and m+f originals: each to every gender."""
        mixes = mixed_originals(inst.female, inst.male, inst.variants)
        if not mixes:
            self.skipped["2 AGMEs without f/m mixed variants"] += 1
        for k, mix in enumerate(mixes):
            item_id = self.add_item(inst, "mixed", f"mix{k + 1}", mix, answer)
            for requested in ("feminine", "masculine", "neutral"):
                self.add_tuple(inst, item_id, "mixed", mix, requested, refs[requested])


def extract(instances: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Requests (one per instance × original translation) and test tuples, as §4.2 says:
    1-AGME instances give f→m, f→n, m→f, m→n; 2-AGME instances also {f+m, m+f}→{f, m, n};
    negative instances give one tuple per requested gender checking the original is kept;
    no tuple has an empty reference; instances with 3+ AGMEs are left out."""
    import pandas as pd

    made = _Extraction()
    for inst in instances.itertuples(index=False):
        if inst.agmes >= 3:
            made.skipped["3+ AGMEs"] += 1
            continue
        if inst.agmes == 0:
            made.negative(inst)
            continue
        refs = {"feminine": inst.female, "masculine": inst.male, "neutral": inst.neutral}
        answer = answer_text(refs)
        made.gendered(inst, refs, answer)
        if inst.agmes == 2:
            made.mixed(inst, refs, answer)
    for reason, count in made.skipped.items():
        if count:
            log.info("left out %d instance(s): %s", count, reason)
    return pd.DataFrame.from_records(made.items), pd.DataFrame.from_records(made.tuples)


def load_files(paths: Sequence[str | Path]) -> pd.DataFrame:
    import pandas as pd

    frames = [load_instances(p) for p in paths]
    return pd.concat(frames, ignore_index=True)


def data_files(root: str | Path, languages: Sequence[str]) -> list[Path]:
    """``<root>/<language>/meta_input/GATE_data_<code>.txt`` for each language folder name."""
    unknown = [lang for lang in languages if lang not in LANGUAGES]
    if unknown:
        raise GenderMTError(f"unknown GATE X-E language(s) {unknown}; known: "
                            f"{', '.join(LANGUAGES)}")
    return [Path(root) / lang / "meta_input" / f"GATE_data_{LANGUAGES[lang][1]}.txt"
            for lang in languages]


def build(paths: Sequence[str | Path], items_out: str | Path, tuples_out: str | Path,
          provenance_out: str | Path, exclude_swapped: bool = False) -> None:
    """Workflow stage: the published files → ``data.parquet`` (requests), ``tuples.parquet``
    and ``data.json`` (where the data came from, and what was left out). With
    ``exclude_swapped``, the instances whose f and m columns are swapped or mixed
    (``swapped.flag``) make no request; by default they are kept, as published."""
    with reads.recording():  # each file's hash taken as it is read (gendermt.data.reads)
        instances = load_files(paths)
        files = [reads.identity(p) for p in paths]
    flagged = flag(instances)
    if exclude_swapped and len(flagged):
        log.info("left out %d instance(s) with swapped or mixed f/m columns: %s",
                 len(flagged), ", ".join(flagged["instance_id"]))
        instances = instances[~instances["instance_id"].isin(set(flagged["instance_id"]))]
    items, tuples = extract(instances)
    write_data_table("gate-x-e", items_out, items)
    write_parquet(tuples_out, tuples)
    write_json(provenance_out, {
        "files": files,
        "instances": int(len(instances)),
        "instances_with_3plus_agmes_left_out": int((instances["agmes"] >= 3).sum()),
        "swapped_or_mixed_fm": {"instances": flagged["instance_id"].tolist(),
                                "excluded": bool(exclude_swapped)},
        "requests": int(len(items)), "tuples": int(len(tuples)),
    })
