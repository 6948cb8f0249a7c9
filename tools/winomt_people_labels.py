"""The WinoMT authors' human gender labels (``data/human_annotations/*.csv`` of
gabrielStanovsky/mt_gender: native speakers labelled the entity of 100 translated sentences
per file) in the project's label format (validation.py), for validating the readers against
people (issue 52; docs/winomt-labels.md):

    python tools/winomt_people_labels.py --repo <mt_gender checkout or bare mirror> \\
        --commit 586292861cf2efdda2dec03c69c3408995a8b293 --out resources/winomt/people

For each CSV (Index, Entity, Sentence, "Find entity? [Y/N]", "Gender? [M/F/N]", Comments):
``Index`` is the 0-based line of data/aggregates/en.txt (checked: the CSV's entity must be
that line's); the file's system is the published system whose translation of that line is
``Sentence`` (exact after whitespace normalisation) for the most rows, and a row whose
Sentence is not that system's line is left out (counted). Labels: Find entity N → ``not
found``; Y with M/F/N → male/female/neutral; blank, '-' or two genders ('M/N') → left out
(counted). Files with identical content are read once; where two annotators labelled the
same items (Italian), the first file's label is kept and rows where the second disagrees are
marked ``uncertain`` (the second's label in ``note``). Writes ``{lang}.tsv`` and
``manifest.json`` (per file: sha256, system, counts); the README is written by hand from it.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

FOLDER = "data/human_annotations"
SYSTEMS = ("google", "bing", "systran", "aws")
LANGUAGES = ("ar", "de", "es", "fr", "he", "it", "ru", "uk")
COLUMNS = ["lang", "system", "item_id", "entity", "source", "translation", "label", "note",
           "uncertain", "labelled_by", "source_file", "source_row"]
LABELLED_BY = "mt_gender authors' annotator (native speaker)"
GENDER = {"M": "male", "F": "female", "N": "neutral"}
FIND, GENDER_COLUMN = "Find entity? [Y/N]", "Gender? [M/F/N]"
# the second annotator of the same Italian items: its labels mark disagreements uncertain
SECOND = {"google.it.in.2 - it.in.csv": "google.it.in - it.in.csv"}


def git_bytes(repo: Path, commit: str, path: str) -> bytes:
    out = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"],
                         capture_output=True, check=False)
    if out.returncode:
        sys.exit(f"{repo}: no {path} at {commit}: {out.stderr.decode().strip()}")
    return out.stdout


def git_names(repo: Path, commit: str) -> list[str]:
    out = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", commit,
                          FOLDER], capture_output=True, text=True, check=False)
    if out.returncode or not out.stdout.strip():
        sys.exit(f"{repo}: no {FOLDER} at {commit} ({out.stderr.strip() or 'empty'})")
    # of identical copies the one with the shortest name is read (not "… (1).csv")
    return sorted((n for n in out.stdout.splitlines() if n.endswith(".csv")),
                  key=lambda n: (len(n), n))


def spaced(text: str) -> str:
    return " ".join(text.split())


def language(name: str) -> str:
    """The target language from the file name (``aws.de.in - de.in.csv`` → de)."""
    found = {lang for lang in LANGUAGES if f"{lang}.in" in name}
    if len(found) != 1:
        sys.exit(f"{name}: cannot tell its language from the name")
    return found.pop()


def same_entity(csv_entity: str, entity: str) -> bool:
    words = spaced(csv_entity).lower().split(" ")
    if words[0] in ("the", "a", "an"):  # the annotators' files keep the article
        words = words[1:]
    return " ".join(words) == entity.lower()


def row_label(row: dict) -> tuple[str | None, str]:
    """(label, "") or (None, why the row is left out)."""
    find = row.get(FIND, "").strip().upper()
    gender = row.get(GENDER_COLUMN, "").strip().upper()
    if find == "N":
        return "not found", ""
    if find == "Y" and gender in GENDER:
        return GENDER[gender], ""
    if not find and not gender:
        return None, "not labelled (blank)"
    if gender in ("", "-"):
        return None, f"found {find or '(blank)'} but gender {gender or 'blank'}"
    return None, f"gender {gender!r} (not one gender)"


class Reader:
    """The repository's files at one commit: en.txt, each system's translations."""

    def __init__(self, repo: Path, commit: str) -> None:
        self.repo, self.commit = repo, commit
        self.en = git_bytes(repo, commit, "data/aggregates/en.txt").decode(
            "utf-8").splitlines()
        self.lines: dict[tuple[str, str], list[str]] = {}

    def translations(self, system: str, lang: str) -> list[str] | None:
        if (system, lang) not in self.lines:
            out = subprocess.run(["git", "-C", str(self.repo), "show",
                                  f"{self.commit}:translations/{system}/en-{lang}.txt"],
                                 capture_output=True, check=False)
            self.lines[system, lang] = [] if out.returncode else [
                spaced(line.split(" ||| ", 1)[1]) if " ||| " in line else ""
                for line in out.stdout.decode("utf-8").splitlines()]
        return self.lines[system, lang] or None


def read_csv(raw: bytes) -> tuple[list[str], list[dict]]:
    records = list(csv.reader(io.StringIO(raw.decode("utf-8"))))
    header = [h.strip() for h in records[0]]
    return header, [dict(zip(header, r, strict=False)) for r in records[1:]
                    if any(c.strip() for c in r)]


def convert_file(name: str, raw: bytes, repo: Reader, entry: dict) -> list[dict]:
    """One annotators' file → its kept rows; ``entry`` gets its system, counts and
    exclusions (or ``used``: why none is kept)."""
    lang = entry["lang"] = language(name)
    header, body = read_csv(raw)
    entry["rows"] = len(body)
    blank = not any((r.get(FIND, "") + r.get(GENDER_COLUMN, "")).strip() for r in body)
    if "Index" not in header or blank:
        entry["used"] = "no: " + "; ".join(
            (["no Index column (which WinoMT line it labels is unknown)"]
             if "Index" not in header else []) + (["every label is blank"] if blank else []))
        return []
    # the uk file has an unnamed column where the others have Entity, and Entity where
    # they have Sentence
    text, named = ("Sentence", "Entity") if "Sentence" in header else ("Entity", "")
    lines = {s: repo.translations(s, lang) for s in SYSTEMS}
    hits = [{s for s, got in lines.items() if got and spaced(r[text]) == got[int(r["Index"])]}
            for r in body]
    matches = Counter(s for hit in hits for s in hit)
    system = entry["system"] = max(SYSTEMS, key=lambda s: matches.get(s, 0))
    entry["rows_matching"] = {s: matches[s] for s in SYSTEMS if matches.get(s)}
    excluded: Counter = Counter()
    kept = []
    for n, (r, hit) in enumerate(zip(body, hits, strict=True), 2):
        i = int(r["Index"])
        _, _, source, entity = repo.en[i].split("\t")
        label, why = row_label(r)
        if not same_entity(r[named], entity):
            why = "entity is not en.txt's entity of line Index"
        elif system not in hit:
            why = f"Sentence is not {system}'s translation of line Index"
        if why:
            excluded[why] += 1
            continue
        kept.append({"lang": lang, "system": system, "item_id": f"{i:04d}", "entity": entity,
                     "source": source, "translation": lines[system][i], "label": label,
                     "note": spaced(r.get("Comments", "")),
                     "uncertain": "yes" if r.get("Ambiguous", "").strip() else "",
                     "labelled_by": LABELLED_BY, "source_file": name, "source_row": n})
    entry.update(kept=len(kept), labels=dict(Counter(k["label"] for k in kept)),
                 excluded=dict(excluded))
    return kept


def mark_second(first: list[dict], second: list[dict]) -> dict:
    """Rows where a second annotator of the same items gave another label: uncertain, its
    label in the note. Returns how many both labelled and agree on."""
    other = {(k["system"], k["item_id"]): k["label"] for k in second}
    both = [r for r in first if (r["system"], r["item_id"]) in other]
    for r in both:
        theirs = other[r["system"], r["item_id"]]
        if theirs != r["label"]:
            r["uncertain"] = "yes"
            r["note"] = "; ".join(filter(None, [r["note"], f"second annotator: {theirs}"]))
    return {"both_labelled": len(both),
            "agree": sum(r["label"] == other[r["system"], r["item_id"]] for r in both)}


def convert(repo_path: Path, commit: str) -> tuple[dict[str, list[dict]], dict]:
    repo = Reader(repo_path, commit)
    manifest: dict = {"repository": "gabrielStanovsky/mt_gender", "commit": commit,
                      "folder": FOLDER, "files": {}}
    seen: dict[str, str] = {}
    kept: dict[str, list[dict]] = {}
    for path in git_names(repo_path, commit):
        name = path.rsplit("/", 1)[1]
        raw = git_bytes(repo_path, commit, path)
        digest = hashlib.sha256(raw).hexdigest()
        entry = manifest["files"][name] = {"sha256": digest, "bytes": len(raw)}
        if digest in seen:
            entry["used"] = f"no: identical to {seen[digest]!r}"
            continue
        seen[digest] = name
        kept[name] = convert_file(name, raw, repo, entry)
        entry.setdefault("used", "yes" if kept[name] else "no: no row kept")
    rows: dict[str, list[dict]] = {}
    for name, part in kept.items():
        if name in SECOND:
            manifest["files"][name]["used"] = (f"as the second annotator of {SECOND[name]!r}: "
                                               "marks its disagreements uncertain")
            manifest["files"][name]["inter_annotator"] = mark_second(kept[SECOND[name]], part)
        elif part:
            rows.setdefault(part[0]["lang"], []).extend(part)
    for part in rows.values():
        part.sort(key=lambda r: (r["item_id"], r["system"]))
    return rows, manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", type=Path, required=True,
                    help="a git checkout or bare mirror of gabrielStanovsky/mt_gender")
    ap.add_argument("--commit", required=True, help="the commit to read the files from")
    ap.add_argument("--out", type=Path, required=True, help="folder of {lang}.tsv")
    args = ap.parse_args(argv)
    rows, manifest = convert(args.repo, args.commit)
    args.out.mkdir(parents=True, exist_ok=True)
    for lang, part in sorted(rows.items()):
        with (args.out / f"{lang}.tsv").open("w", encoding="utf-8", newline="") as f:
            w = csv.DictWriter(f, COLUMNS, delimiter="\t", lineterminator="\n")
            w.writeheader()
            w.writerows(part)
        print(f"{lang}: {len(part)} labels ({', '.join(sorted({r['system'] for r in part}))})")
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True,
                                                       ensure_ascii=False) + "\n",
                                            encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
