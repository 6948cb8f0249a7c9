"""The identity of a local model folder: one sha256 over the files that make its outputs.

A Hub model is pinned by its commit; a local folder has none, and its path says nothing of
what is in it: after its chat template, tokenizer or weights changed, a request to it is
another request. :func:`folder_sha256` hashes every file of the folder (weights, config,
generation config, tokenizer, chat template), leaving out hidden files and documentation
(``README*``, ``LICENSE*``, ``*.md``), and each file's hash is memoised by (real path, size,
mtime, ctime, inode), so that a folder is read once, not at every job. A folder that
gendermt converted from a GGUF file (:mod:`.gguf`, which records the file's sha256) is that
sha256: it is not hashed again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

#: What a folder's identity leaves out (changes no output).
_DOCS = ("readme", "license", "licence", "notice")


def memo_path() -> Path:
    """``$XDG_CACHE_HOME/gendermt/model-files.sha256.json`` (~/.cache/...)."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return root / "gendermt" / "model-files.sha256.json"


def counts(path: Path, folder: Path) -> bool:
    """Whether a file of the folder is part of its identity."""
    parts = path.relative_to(folder).parts
    name = parts[-1].lower()
    return not any(p.startswith(".") for p in parts) and not name.endswith(".md") \
        and not name.startswith(_DOCS)


def _sha256_file(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def folder_sha256(folder: str | Path, memo: Path | None = None) -> str:
    """One sha256 over the folder's files (their paths within it and their contents)."""
    from gendermt.translation.backends.gguf import COMPLETE

    folder = Path(folder)
    converted = folder / COMPLETE
    if converted.is_file():
        try:
            return "gguf-" + str(json.loads(converted.read_text(encoding="utf-8"))["sha256"])
        except (OSError, ValueError, KeyError, TypeError):
            pass  # not a record gendermt wrote: hash the folder as any other
    memo = memo or memo_path()
    try:
        known = json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    fresh: dict[str, str] = {}
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and counts(p, folder)):
        real = os.path.realpath(path)
        st = os.stat(real)
        # ctime and inode too: a file rewritten and given its old mtime back is hashed again
        key = f"{real}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}"
        fresh[key] = known.get(key) or _sha256_file(real)
        digest.update(f"{path.relative_to(folder).as_posix()}\0{fresh[key]}\0".encode())
    if fresh.keys() - known.keys():
        live = {k: v for k, v in known.items() if os.path.exists(k.split("\0", 1)[0])}
        try:  # atomic: concurrent jobs each write a whole, correct file
            memo.parent.mkdir(parents=True, exist_ok=True)
            tmp = memo.with_name(f"{memo.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps({**live, **fresh}, indent=0, sort_keys=True),
                           encoding="utf-8")
            os.replace(tmp, memo)
        except OSError:
            pass  # a read-only cache: hashed again next time
    return digest.hexdigest()
