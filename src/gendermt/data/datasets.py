"""Public data sets declared once, fetched into a data cache and verified by sha256.

Each benchmark's contract names its data manifests (``datasets``: YAML files in the
benchmark's package). A manifest says where a public data set lives (a GitHub repository at a
fixed commit, or a Hugging Face Hub dataset at a fixed revision), its licence, and, for every
file used, its path upstream, its path in the data set's folder (``file``: the layout of a local
copy such as ``../shared/data/winomt/``), its size and its sha256. A Hub manifest whose revision
or hashes could not be verified says so (``unverified``): it loads, but a config that names it
stops with one line saying what is missing, never running on unchecked files.

A config names such a file by ``dataset:<name>/<file>`` and the whole folder by
``dataset:<name>``, wherever it names a path (a benchmark's data keys, a stored system's
``path``). At start-up :func:`resolve_config` replaces each reference by its place in the data
cache (``data_sources.cache``/<name>/<commit>/), after making sure every file of each named
data set is there with the manifest's hash:

1. already in the cache with the right hash: nothing is done (the hash is memoised by
   :class:`gendermt.data.sources.Hasher`, so a rerun reads no file again);
2. else from a local copy (``data_sources.local``: folders holding ``<name>/``, e.g. CI's
   ``../shared/data``), when its hash matches: copied (never hard-linked: a write through
   either would change the other), hashed as it is copied, no network;
3. else downloaded (``requests``, streamed) from the public host or ``data_sources.mirror``
   into a staging file, hashed as it arrives, within ``data_sources.deadline`` seconds per
   file and at ``data_sources.min_rate`` bytes a second at least (a progress line every
   :data:`PROGRESS_EVERY` seconds while it lasts), retried when cut off or too slow (not on
   HTTP 404 or a body longer than declared), and moved into place only once its size and
   hash match: a partial file never lies where a complete one is expected, and no staging
   file outlives its process. A Hub dataset's files come through ``huggingface_hub``
   (``hf_hub_download`` at the pinned revision; ``data_sources.hub_endpoint``, else
   huggingface_hub's own ``HF_ENDPOINT``, names the Hub or a mirror of it), staged and checked
   the same way.

Any hash mismatch stops start-up, naming the file and both hashes, before anything runs (no
job, nothing written under results/). Why at start-up and not as a job with ``storage.http``
inputs: every data stage's params (its sources' sha256) and the start-up checks read the
files while the workflow is parsed, and a mismatch must stop the run before any job starts.
The data stages check again what they read (:mod:`gendermt.data.reads`): a file changed
after start-up stops its stage.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import socket
import string
import sys
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from gendermt.core import registry
from gendermt.core.errors import GenderMTError
from gendermt.data import locks
from gendermt.data.sources import Hasher

log = logging.getLogger(__name__)
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where installed

SCHEME = "dataset:"
#: The public host of a GitHub source (raw files at a commit).
GITHUB_URL = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"
#: The public address of a Hub dataset's file at a revision (recorded; downloads go through
#: huggingface_hub).
HUB_URL = "https://huggingface.co/datasets/{repo}/resolve/{commit}/{path}"
#: Defaults of the ``data_sources`` config block (the schema repeats them).
DEFAULTS: dict[str, Any] = {"cache": "data-cache", "local": [], "mirror": None,
                            "hub_endpoint": None, "retries": 3, "retry_wait": 2.0,
                            "deadline": 600.0, "min_rate": 4096, "revisions": {}}
#: The placeholders a ``data_sources.mirror`` template may hold (no other field, no
#: attribute or index access: a template is filled with these names only).
PLACEHOLDERS = ("repo", "commit", "path", "dataset", "file")
#: A download's waits: for the connection; for any byte, and the span over which its rate
#: must keep up ``data_sources.min_rate``; between its progress lines (a slow download
#: shows it is alive, a fast one prints nothing).
CONNECT_TIMEOUT = 30.0
RATE_WINDOW = 30.0
PROGRESS_EVERY = 10.0
CHUNK = 1 << 16
#: The local copy the advice names (CI's, beside the checkout).
LOCAL_EXAMPLE = "../shared/data"


@dataclass(frozen=True)
class DataFile:
    """One file of a data set: its place in the data set's folder and upstream."""

    file: str  # relative to the data set's folder (the local layout)
    path: str  # relative to the repository's root
    size: int
    sha256: str


@dataclass(frozen=True)
class Manifest:
    """One public data set, as its benchmark declares it."""

    name: str
    title: str
    licence: str
    repository: str  # GitHub owner/name
    commit: str
    files: tuple[DataFile, ...]
    declared_in: str = ""
    host: str = "github"  # or "hub" (a Hugging Face Hub dataset; ``commit`` is its revision)
    # why its revision or hashes are not pinned ("" when they are): with no revision, using
    # it stops (until the config gives one); files without hashes are trusted on first use
    unverified: str = ""
    # where the expected hashes come from, for messages ("" : the manifest, declared_in)
    hashes_from: str = ""

    @property
    def hint(self) -> str:
        return self.hashes_from or self.declared_in

    @property
    def source(self) -> str:
        return f"{'hf' if self.host == 'hub' else 'github'}:{self.repository}@{self.commit}"

    @property
    def where(self) -> str:
        """The source in words, for messages."""
        if self.host == "hub":
            return (f"Hugging Face Hub dataset {self.repository} at revision "
                    f"{self.commit or '(none pinned)'}")
        return f"GitHub {self.repository} at {self.commit}"

    def url(self, data_file: DataFile, mirror: str | None = None) -> str:
        if self.host == "hub":  # the public address; the Hub's mirror is an endpoint
            return HUB_URL.format(repo=self.repository, commit=self.commit, path=data_file.path)
        template = mirror or GITHUB_URL
        return template.format(repo=self.repository, commit=self.commit, path=data_file.path,
                               dataset=self.name, file=data_file.file)

    def provenance(self) -> dict:
        """What a run records of this data set (data.json, the run summary): its public URL,
        never the mirror or local copy it came from this time (which changes no result, so
        reruns nothing)."""
        return {"dataset": self.name, "title": self.title, "licence": self.licence,
                "source": "huggingface" if self.host == "hub" else "github",
                "repository": self.repository, "commit": self.commit,
                # the URL of each file, {path} (upstream) or {file} (local layout) filled in
                "url": self.url(DataFile("{file}", "{path}", 0, "")),
                "files": [{"file": f.file, "path": f.path, "size": f.size, "sha256": f.sha256}
                          for f in self.files]}


def load_manifest(path: str | Path) -> Manifest:
    """A manifest file → :class:`Manifest` (a malformed one names the file and the key)."""
    path = Path(path)
    try:
        # libyaml where installed: a manifest lists every file, and planning reads five of
        # them on every `snakemake` call (the pure-Python loader took ~0.4 s each)
        spec = yaml.load(path.read_text(encoding="utf-8"), Loader=YAML_LOADER)
        source = spec["source"]
        hub = "hub" in source
        files = tuple(DataFile(str(f["file"]), str(f["path"]),
                               -1 if f.get("size") is None else int(f["size"]),
                               str(f.get("sha256") or "").lower()) for f in spec["files"])
        revision = source["revision"] if hub else source["commit"]
        manifest = Manifest(str(spec["dataset"]), str(spec.get("title", "")),
                            str(spec["licence"]), str(source["hub" if hub else "github"]),
                            str(revision or ""), files, str(path), "hub" if hub else "github",
                            str(spec.get("unverified") or ""))
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise GenderMTError(f"{path}: not a data manifest ({type(exc).__name__}: {exc})"
                            ) from None
    if manifest.host == "github" and len(manifest.commit) != 40:
        raise GenderMTError(f"{path}: source.commit must be a full 40-digit commit")
    missing = _unpinned(manifest)
    if missing and not manifest.unverified:
        # a Hub manifest may lack them only when it says why (never a hash by accident)
        raise GenderMTError(f"{path}: {missing}; pin them, or say why they are not "
                            "(`unverified:`)")
    if manifest.unverified and not missing:
        raise GenderMTError(f"{path}: `unverified:` is set, yet every revision, size and "
                            "sha256 is given; remove it once they are checked")
    return manifest


def _unpinned(manifest: Manifest) -> str:
    """What a manifest leaves unpinned, in words ("" when nothing)."""
    what = []
    if len(manifest.commit) != 40 or any(c not in "0123456789abcdef"
                                         for c in manifest.commit.lower()):
        what.append("no full 40-digit revision")
    unhashed = [f.file for f in manifest.files if len(f.sha256) != 64 or f.size < 0]
    if unhashed:
        named = ", ".join(unhashed) if len(unhashed) <= 2 else f"{len(unhashed)} files"
        what.append(f"no size and sha256 for {named}")
    return "; ".join(what)


def check_usable(manifest: Manifest, key: str = "", revision: str | None = None) -> None:
    """Stop, in one line, when a config names a Hub data set with no revision to fetch: none
    pinned in its manifest and none given in the config (``data_sources.revisions``). Files
    without hashes are no reason to stop: they are trusted on first use (gendermt.data.locks)."""
    if not (revision or _full(manifest.commit)):
        revisions = f"{{revisions: {{{manifest.name}: <commit>}}}}"
        raise GenderMTError(
            f"{key + ': ' if key else ''}data set {manifest.name!r} (Hugging Face Hub dataset "
            f"{manifest.repository}) has no revision to fetch: {manifest.declared_in} pins "
            f"none ({manifest.unverified or 'none known'}); give the full 40-digit commit of "
            f"the Hub's files to use in the config, `data_sources: {revisions}` (on the "
            f"command line: --config 'data_sources={revisions}'; with network, `gendermt data "
            f"pin {manifest.name}` prints the commit `main` names now); nothing was run")


def _full(commit: str) -> bool:
    return len(commit) == 40 and all(c in "0123456789abcdef" for c in commit)


def check_revisions(revisions: Mapping[str, Any], known: Mapping[str, Manifest]) -> None:
    """``data_sources.revisions``: each a declared Hub data set and a full commit (a branch
    moves: its files would change under the same name)."""
    for name, revision in revisions.items():
        key = f"data_sources.revisions.{name}"
        if name not in known:
            raise GenderMTError(f"{key}: no data set {name!r} (declared: "
                                f"{', '.join(sorted(known))})")
        if known[name].host != "hub":
            raise GenderMTError(f"{key}: {name} is a GitHub data set, pinned by its manifest "
                                f"({known[name].declared_in}); only Hub data sets take a "
                                "revision here")
        if not _full(str(revision)):
            raise GenderMTError(
                f"{key}: {revision!r} is not a full 40-digit commit (lower-case hex); a branch "
                f"or tag moves, so give the commit it names (`gendermt data pin {name} "
                f"--revision {revision}` prints it, with network)")


def at_revision(manifest: Manifest, revision: str | None) -> Manifest:
    """``manifest`` at ``revision`` (the config's, else its own); at another revision than its
    own, its files' hashes are unknown (taken on first use)."""
    if not revision or revision == manifest.commit:
        return manifest
    files = tuple(DataFile(f.file, f.path, -1, "") for f in manifest.files)
    return Manifest(manifest.name, manifest.title, manifest.licence, manifest.repository,
                    revision, files, manifest.declared_in, manifest.host, manifest.unverified)


def manifests() -> dict[str, Manifest]:
    """Every data set the benchmarks declare, by name."""
    found: dict[str, Manifest] = {}
    for benchmark in registry.benchmarks():
        for name in benchmark.datasets:
            manifest = load_manifest(registry.package_dir(benchmark) / name)
            if manifest.name in found:
                raise GenderMTError(f"{manifest.declared_in}: data set {manifest.name!r} is "
                                    f"also declared in {found[manifest.name].declared_in}")
            found[manifest.name] = manifest
    return found


# --- references in the config ------------------------------------------------------------
def _references(node: Any, key: str) -> Iterable[tuple[str, str]]:
    if isinstance(node, str):
        if node.startswith(SCHEME):
            yield key, node
    elif isinstance(node, Mapping):
        for name, value in node.items():
            yield from _references(value, f"{key}.{name}" if key else str(name))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _references(value, f"{key}[{i}]")


def _replace(node: Any, roots: Mapping[str, Path]) -> Any:
    if isinstance(node, str) and node.startswith(SCHEME):
        name, _, rest = node[len(SCHEME):].partition("/")
        return str(roots[name] / rest) if rest else str(roots[name])
    if isinstance(node, dict):
        return {k: _replace(v, roots) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace(v, roots) for v in node]
    return node


def referenced(config: Mapping[str, Any], known: Mapping[str, Manifest]) -> list[str]:
    """The data sets a config names (``dataset:<name>...`` under benchmarks and systems), in
    order; an unknown name or file, or a Hub data set without a revision, stops, naming the
    key."""
    revisions = (config.get("data_sources") or {}).get("revisions") or {}
    names: list[str] = []
    for block in ("benchmarks", "systems"):
        for key, ref in _references(config.get(block, {}), block):
            name, _, rest = ref[len(SCHEME):].partition("/")
            if name not in known:
                raise GenderMTError(f"{key}: {ref!r} names no declared data set (declared: "
                                    f"{', '.join(sorted(known)) or 'none'})")
            check_usable(known[name], key, revisions.get(name))
            if rest and "{" not in rest:
                files = {f.file for f in known[name].files}
                prefix = rest.rstrip("/") + "/"
                if rest not in files and not any(f.startswith(prefix) for f in files):
                    raise GenderMTError(f"{key}: {ref!r}: data set {name!r} has no file or "
                                        f"folder {rest!r} ({known[name].declared_in})")
            if name not in names:
                names.append(name)
    return names


def settings_of(config: Mapping[str, Any]) -> dict[str, Any]:
    """The ``data_sources`` block with its defaults; a mirror template with a placeholder
    it cannot fill stops, in one line."""
    settings = {**DEFAULTS, **(config.get("data_sources") or {})}
    local = settings["local"]
    settings["local"] = [local] if isinstance(local, str) else list(local or [])
    if settings["mirror"]:
        check_mirror(str(settings["mirror"]))
    return settings


def check_mirror(template: str) -> None:
    """Stop, naming the placeholder, if ``template`` holds one other than
    :data:`PLACEHOLDERS` (``{0}``, ``{}``, ``{file.__class__}`` included) or is no template."""
    allowed = ", ".join(f"{{{p}}}" for p in PLACEHOLDERS)
    try:
        fields = [(field, spec, conv) for _, field, spec, conv in
                  string.Formatter().parse(template) if field is not None]
    except ValueError as exc:  # an unmatched brace
        raise GenderMTError(f"data_sources.mirror: {template!r} is not a URL template "
                            f"({exc}); its placeholders: {allowed}") from None
    for field, spec, conv in fields:
        if field not in PLACEHOLDERS or spec or conv:
            shown = "{" + field + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "")
            raise GenderMTError(f"data_sources.mirror: unknown placeholder {shown}}} in "
                                f"{template!r}; the placeholders are {allowed}")


def resolve_config(config: dict, hasher: Hasher | None = None,
                   known: Mapping[str, Manifest] | None = None,
                   run_dir: str | Path | None = None) -> list[dict]:
    """Replace every ``dataset:`` reference of ``config`` (in place) by its folder in the data
    cache, after materialising each named data set there; return each one's provenance.
    ``run_dir`` (``results/<run>``): where the run's lock of hashes taken on first use goes
    (gendermt.data.locks; None: the data cache's lock only)."""
    known = manifests() if known is None else known
    check_revisions((config.get("data_sources") or {}).get("revisions") or {}, known)
    names = referenced(config, known)
    if not names:
        return []
    settings = settings_of(config)
    hasher = hasher or Hasher(None)
    roots: dict[str, Path] = {}
    records = []
    try:
        for name in names:
            manifest = at_revision(known[name], settings["revisions"].get(name))
            roots[name], how, manifest = _materialise_locked(manifest, settings, hasher,
                                                             run_dir)
            record = manifest.provenance()
            if manifest.hashes_from:
                # the hashes are no publisher's: the run summary and data.json say so
                record.update(hashes=locks.TRUST_ON_FIRST_USE, lock=manifest.hashes_from)
            record.update(folder=str(roots[name]), obtained=how)
            records.append(record)
    finally:
        hasher.save()
    for block in ("benchmarks", "systems"):
        if block in config:
            config[block] = _replace(config[block], roots)
    return records


# --- materialising one data set ----------------------------------------------------------
def _mismatch(what: str, path: Path | str, expected: str, actual: str, hint: str) -> GenderMTError:
    return GenderMTError(f"{what} {path}: sha256 {actual}, expected {expected} ({hint}; "
                         "nothing was run)")


def _materialise_locked(manifest: Manifest, settings: Mapping[str, Any], hasher: Hasher,
                        run_dir: str | Path | None) -> tuple[Path, dict[str, int], Manifest]:
    """:func:`materialise`, and for files whose manifest gives no hash, the hashes of their
    first use: checked against the locks where they hold them, else taken and recorded
    (gendermt.data.locks). Returns the folder, how the files came, and the manifest with
    every hash."""
    unknown = {f.file for f in manifest.files if not f.sha256}
    if not unknown:
        folder, how = materialise(manifest, settings, hasher)
        return folder, how, manifest
    lock = locks.open_lock(manifest.name, manifest.commit, settings["cache"], run_dir)
    held = [str(p) for p, files in lock.held.items() if files]
    checked = replace(locks.expected(manifest, lock), hashes_from=(
        f"the hash recorded at the first use of revision {manifest.commit} in "
        f"{' and '.join(held)} (trust on first use; to accept a changed file, delete the data "
        "set's entry there)" if held else ""))
    folder, how = materialise(checked, settings, hasher)
    settled, first = locks.settle(checked, unknown, folder, lock, hasher)
    # how many hashes were taken now (a first use), for the start-up line
    how["first_use"] = sum(f not in lock.recorded for f in unknown) if first else 0
    if first:
        log.warning("%s: no published sha256 for %s at revision %s: taken now and recorded in "
                    "%s (trust on first use)", manifest.name, ", ".join(sorted(unknown)),
                    manifest.commit, " and ".join(str(p) for p in lock.paths))
    return folder, how, replace(settled, hashes_from=lock.shown)


def cache_folder(manifest: Manifest, settings: Mapping[str, Any]) -> Path:
    return Path(settings["cache"]) / manifest.name / manifest.commit


def materialise(manifest: Manifest, settings: Mapping[str, Any], hasher: Hasher
                ) -> tuple[Path, dict[str, int]]:
    """Every file of ``manifest`` in the cache with its hash; returns the folder and how many
    files were already there, copied from a local copy, and downloaded."""
    folder = cache_folder(manifest, settings)
    cache = Path(settings["cache"])
    _sweep(cache)  # what a killed run left in .partial/
    how = {"cached": 0, "local": 0, "downloaded": 0}
    missing = []
    for data_file in manifest.files:
        target = folder / data_file.file
        if target.is_file():
            actual = hasher(target)[1]
            # no hash known (a first use, gendermt.data.locks): taken after, as it is
            if data_file.sha256 and actual != data_file.sha256:
                raise _mismatch("cached file", target, data_file.sha256, actual,
                                f"{manifest.hint}; delete it to fetch it again")
            if target.stat().st_nlink > 1:  # an earlier version's hard link: a copy now
                _unlink_hard_link(target, cache, data_file, manifest)
            how["cached"] += 1
        else:
            missing.append(data_file)
    # every local copy is checked before anything is copied or downloaded
    pending = []
    for data_file in missing:
        local = _local_copy(manifest, data_file, settings, hasher)
        if local:
            _place(local, folder / data_file.file, cache, data_file, manifest)
            how["local"] += 1
        else:
            pending.append(data_file)
    if pending:
        fetch = _download_hub if manifest.host == "hub" else _download_all
        fetch(manifest, pending, folder, settings)
        how["downloaded"] += len(pending)
    return folder, how


def _local_copy(manifest: Manifest, data_file: DataFile, settings: Mapping[str, Any],
                hasher: Hasher) -> Path | None:
    for root in settings["local"]:
        candidate = Path(root) / manifest.name / data_file.file
        if candidate.is_file():
            actual = hasher(candidate)[1]
            if data_file.sha256 and actual != data_file.sha256:
                raise _mismatch("local copy", candidate, data_file.sha256, actual,
                                f"{manifest.hint}, data_sources.local")
            return candidate
    return None


def _staging(cache: Path) -> Path:
    """A new staging file in the cache's ``.partial/``: beside the data sets, never inside
    one (a data stage hashes a whole folder), on the same file system (an atomic rename).
    Its name holds this host and process, so that a later run knows a killed run's file
    from one a live run is still writing (:func:`_sweep`)."""
    staging = cache / ".partial"
    staging.mkdir(parents=True, exist_ok=True)
    return staging / f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex}.part"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return True


def _sweep(cache: Path) -> None:
    """Remove the staging files (and Hub staging folders) that no live process writes: those
    of a process of this host that is gone (a run killed mid-download), and nameless ones of
    an earlier version not touched for an hour. Another host's are left (a shared cache)."""
    staging = cache / ".partial"
    if not staging.is_dir():
        return
    host = socket.gethostname()
    for entry in staging.iterdir():
        stem = entry.name.split(".", 1)[0]
        owner, _, rest = stem.rpartition("-")[0].rpartition("-")
        pid = rest if owner else ""
        stale = False
        if owner == host and pid.isdigit():
            stale = not _alive(int(pid))
        elif not owner and "-" not in stem:  # an earlier version's uuid name
            with contextlib.suppress(OSError):
                stale = time.time() - entry.lstat().st_mtime > 3600
        if stale:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):  # gone already, or a read-only cache
                    entry.unlink()


def _copy_checked(source: Path, tmp: Path, data_file: DataFile, manifest: Manifest) -> None:
    """``source`` copied to ``tmp``, hashed as it is copied (the bytes placed are the bytes
    checked: the copy may have changed since it was hashed)."""
    digest = hashlib.sha256()
    with open(source, "rb") as src, open(tmp, "wb") as out:
        for block in iter(lambda: src.read(1 << 20), b""):
            digest.update(block)
            out.write(block)
    if data_file.sha256 and digest.hexdigest() != data_file.sha256:
        raise _mismatch("local copy", source, data_file.sha256, digest.hexdigest(),
                        f"{manifest.hint}, data_sources.local; it changed while "
                        "being copied")


def _place(source: Path, target: Path, cache: Path, data_file: DataFile,
           manifest: Manifest) -> None:
    """A copy of ``source`` at ``target``, atomically (a copy, then a rename). A copy, never
    a hard link: a link shares its bytes with the local copy, so a write through either
    would change the other (and a cached file nobody verified again). The data sets are a
    few MB, so copying costs nothing worth a link's risk."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _staging(cache)
    try:
        _copy_checked(source, tmp, data_file, manifest)
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _unlink_hard_link(target: Path, cache: Path, data_file: DataFile, manifest: Manifest
                      ) -> None:
    """A cached file an earlier version hard-linked to a local copy, replaced by a copy of
    its own; where the cache is read-only, left as it is (nothing writes through it there)."""
    try:
        _place(target, target, cache, data_file, manifest)
    except PermissionError:
        log.warning("%s shares its bytes with another file (a hard link) and the data cache "
                    "is read-only: left as it is", target)


class _Failed(Exception):
    """One attempt at a file failed: why (in words), whether another attempt may help, and
    whether the network itself failed (the only case for the no-network advice)."""

    def __init__(self, reason: str, retry: bool = True, network: bool = False,
                 status: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.retry, self.network, self.status = reason, retry, network, status


def _download_all(manifest: Manifest, files: list[DataFile], folder: Path,
                  settings: Mapping[str, Any]) -> None:
    cache = Path(settings["cache"])
    for data_file in files:
        url = manifest.url(data_file, settings["mirror"])
        _download(url, data_file, folder / data_file.file, cache, manifest, settings)


def _download(url: str, data_file: DataFile, target: Path, cache: Path, manifest: Manifest,
              settings: Mapping[str, Any]) -> None:
    """One file into a staging file, hashed as it arrives, moved into place once its size
    and hash match; retried (``retries``, ``retry_wait``) when another attempt may help,
    within ``deadline`` seconds in all. The staging file is removed on every way out."""
    attempts = max(1, int(settings["retries"]))
    deadline = float(settings["deadline"])
    started = time.monotonic()
    failed = _Failed("no attempt")
    for attempt in range(1, attempts + 1):
        tmp = _staging(cache)
        try:
            actual = _fetch(url, data_file, tmp, started, settings)
            if actual != data_file.sha256:
                raise _mismatch("downloaded file", url, data_file.sha256, actual,
                                f"{manifest.declared_in}; the file at that URL is not the "
                                "declared one")
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(tmp, target)
            return
        except _Failed as exc:
            failed = exc
            log.warning("%s: attempt %d of %d failed: %s", url, attempt, attempts, exc.reason)
        finally:  # a deadline, an error, Ctrl-C: no staging file stays behind
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        wait = float(settings["retry_wait"]) * 2 ** (attempt - 1)
        if not failed.retry or attempt == attempts:
            break
        if time.monotonic() - started + wait >= deadline:
            failed = _Failed(f"{failed.reason}; data_sources.deadline ({deadline:g} s) "
                             "leaves no time for another attempt", retry=False)
            break
        time.sleep(wait)
    raise GenderMTError(_failure_message(url, failed, attempt, manifest, settings))


def _failure_message(url: str, failed: _Failed, attempts: int, manifest: Manifest,
                     settings: Mapping[str, Any]) -> str:
    tried = f"{attempts} attempt{'s' if attempts > 1 else ''}"
    where = (f"data_sources.mirror ({settings['mirror']})" if settings["mirror"]
             else f"the manifest's repository and commit ({manifest.declared_in})")
    if failed.network:
        advice = (f"without network, point data_sources.local at a folder holding "
                  f"{manifest.name}/ (in the config file: `data_sources: {{local: "
                  f"{LOCAL_EXAMPLE}}}`, or --config 'data_sources={{local: {LOCAL_EXAMPLE}}}') "
                  "or data_sources.mirror at a reachable copy")
    elif failed.status in (404, 410):
        advice = f"the server has no such file: check {where}"
    elif failed.status is not None and failed.status < 500 and failed.status not in (408, 429):
        advice = f"the server refused it: check {where} and its access rules"
    elif failed.reason.startswith("too long"):
        advice = f"the file there is not the declared one: check {where}"
    elif "data_sources.deadline" in failed.reason:
        advice = ("raise data_sources.deadline, or use a faster data_sources.mirror or a "
                  "local copy (data_sources.local)")
    else:
        advice = ("try again later, or use a faster data_sources.mirror or a local copy "
                  "(data_sources.local)")
    return f"cannot fetch {url} ({failed.reason}; {tried}); {advice}"


def _fetch(url: str, data_file: DataFile, tmp: Path, started: float,
           settings: Mapping[str, Any]) -> str:
    """One attempt: ``url`` streamed into ``tmp``, hashed as it arrives; its sha256.
    Raises :class:`_Failed` saying what went wrong."""
    import requests
    from urllib3.exceptions import HTTPError as Urllib3Error

    clock = _Clock(started, float(settings["deadline"]), data_file.size)
    response = _request(url, clock)
    with response:
        _check_response(response, data_file)
        transfer = _Transfer(url, data_file.size, float(settings["min_rate"]), clock)
        try:
            with open(tmp, "wb") as out:
                transfer.copy(response.raw, out)
        except (Urllib3Error, requests.exceptions.RequestException, OSError) as exc:
            if clock.left() <= 0:
                raise clock.passed(transfer.done) from None
            raise _Failed(f"got {transfer.done:,} bytes of {data_file.size:,} (cut off: "
                          f"{_reason(exc)})") from None
    if transfer.done < data_file.size:
        raise _Failed(f"got {transfer.done:,} bytes of {data_file.size:,} (cut off)")
    return transfer.digest.hexdigest()


@dataclass
class _Clock:
    """A file's deadline: ``deadline`` seconds from its first attempt's start."""

    started: float
    deadline: float
    size: int

    def left(self) -> float:
        return self.deadline - (time.monotonic() - self.started)

    def passed(self, done: int) -> _Failed:
        return _Failed(f"data_sources.deadline ({self.deadline:g} s) passed with {done:,} of "
                       f"{self.size:,} bytes", retry=False)


def _request(url: str, clock: _Clock) -> Any:
    """The streamed GET of ``url``, every wait bounded (the connection, then each read: a
    server that goes quiet); a failure to reach the server is the network's."""
    import requests

    if clock.left() <= 0:
        raise clock.passed(0)
    timeout = (min(CONNECT_TIMEOUT, clock.left()), min(RATE_WINDOW, clock.left()))
    try:
        return requests.get(url, stream=True, timeout=timeout)
    except requests.exceptions.ReadTimeout:
        raise _Failed(f"no answer within {timeout[1]:g} s") from None
    except (requests.exceptions.ConnectionError, requests.exceptions.Timeout) as exc:
        raise _Failed(_reason(exc), network=True) from None
    except requests.exceptions.RequestException as exc:  # a malformed URL and the like
        raise _Failed(_reason(exc), retry=False) from None


def _check_response(response: Any, data_file: DataFile) -> None:
    code = response.status_code
    if code != 200:
        # 5xx, 408 and 429 may pass; any other status (404) will not
        raise _Failed(f"HTTP {code} {response.reason or ''}".rstrip(),
                      retry=code >= 500 or code in (408, 429), status=code)
    declared = response.headers.get("Content-Length", "")
    if (declared.isdigit() and int(declared) > data_file.size
            and not response.headers.get("Content-Encoding")):
        raise _Failed(f"too long: the server sends {int(declared):,} bytes, the manifest "
                      f"declares {data_file.size:,}", retry=False)


class _Transfer:
    """A body copied to a file, hashed as it arrives, held to the deadline and the minimum
    rate, with a progress line at most every PROGRESS_EVERY seconds."""

    def __init__(self, url: str, size: int, min_rate: float, clock: _Clock) -> None:
        self.url, self.size, self.min_rate, self.clock = url, size, min_rate, clock
        self.digest = hashlib.sha256()
        self.done = 0

    def copy(self, raw: Any, out: Any) -> None:
        begun = shown = window = time.monotonic()
        in_window = 0
        while True:
            if self.clock.left() <= 0:
                raise self.clock.passed(self.done)
            chunk = raw.read1(CHUNK, decode_content=True)  # what has come, not a full block
            if not chunk:
                return
            self.done += len(chunk)
            if self.done > self.size:
                raise _Failed(f"too long: more than the manifest's {self.size:,} bytes",
                              retry=False)
            self.digest.update(chunk)
            out.write(chunk)
            in_window += len(chunk)
            now = time.monotonic()
            if now - shown >= PROGRESS_EVERY:
                _report_progress(self.url, self.done, self.size, self.done / (now - begun))
                shown = now
            if now - window >= RATE_WINDOW:
                self._keeps_up(in_window / (now - window), now - window)
                window, in_window = now, 0

    def _keeps_up(self, rate: float, span: float) -> None:
        if rate < self.min_rate:
            raise _Failed(f"too slow: {rate:,.0f} B/s over {span:.0f} s, below "
                          f"data_sources.min_rate ({self.min_rate:g} B/s)")


def _report_progress(url: str, done: int, total: int, rate: float) -> None:
    """One progress line of a long download (at most one a PROGRESS_EVERY seconds)."""
    share = f" ({100 * done / total:.0f}%)" if total > 0 else ""
    print(f"gendermt: fetching {url}: {done:,} of {total:,} bytes{share}, {rate:,.0f} B/s",
          file=sys.stderr, flush=True)


def _download_hub(manifest: Manifest, files: list[DataFile], folder: Path,
                  settings: Mapping[str, Any]) -> None:
    """A Hub dataset's missing files through ``huggingface_hub`` at the pinned revision, each
    into a staging folder of its own, checked (size, sha256) and only then moved into place."""
    try:
        from huggingface_hub import hf_hub_download
    except ImportError as exc:  # the workflow's environment lacks it
        raise GenderMTError(f"fetching {manifest.where} needs huggingface_hub (the `hub` "
                            f"extra: pip install 'gendermt[hub]'): {exc}") from None
    cache = Path(settings["cache"])
    for data_file in files:
        _fetch_hub_file(hf_hub_download, manifest, data_file, folder, cache, settings)


def _fetch_hub_file(download: Any, manifest: Manifest, data_file: DataFile, folder: Path,
                    cache: Path, settings: Mapping[str, Any]) -> None:
    """One file: a download cut short is retried (``retries``); a failed one is not, as
    huggingface_hub has retried it already."""
    from gendermt.data.sources import sha256_file

    attempts = max(1, int(settings["retries"]))
    last = ""
    failed: BaseException | None = None
    for attempt in range(1, attempts + 1):
        staging = _staging(cache).with_suffix(".d")
        try:
            got = Path(download(
                manifest.repository, data_file.path, repo_type="dataset",
                revision=manifest.commit, endpoint=settings.get("hub_endpoint") or None,
                local_dir=staging))
            size = got.stat().st_size
            # no size known (a first use, gendermt.data.locks): any is taken
            if data_file.size < 0 or size == data_file.size:
                actual = sha256_file(got)
                if data_file.sha256 and actual != data_file.sha256:
                    raise _mismatch(
                        "downloaded file", f"{manifest.repository}@{manifest.commit}:"
                        f"{data_file.path}", data_file.sha256, actual,
                        f"{manifest.hint}; the Hub's file is not the one expected")
                target = folder / data_file.file
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(got, target)
                return
            last = f"got {size} bytes of {data_file.size}"
        except GenderMTError:
            raise
        except Exception as exc:  # noqa: BLE001 - network, HTTP and offline errors alike
            # huggingface_hub has already retried with back-off: not again here
            last, failed = _reason(exc), exc
            break
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        log.warning("%s: attempt %d of %d: %s", data_file.path, attempt, attempts, last)
        if attempt < attempts:
            time.sleep(float(settings["retry_wait"]) * 2 ** (attempt - 1))
    code = _http_status(failed)
    if code is not None:  # the Hub answered: not a network failure
        advice = (f"the Hub has no such file at that revision: check its path and revision "
                  f"in {manifest.declared_in}, or data_sources.hub_endpoint" if code == 404
                  else "try again later, or use a local copy (data_sources.local) or a Hub "
                  "mirror (data_sources.hub_endpoint)")
        raise GenderMTError(f"cannot fetch {data_file.path} of {manifest.where} (HTTP {code}: "
                            f"{last}); {advice}")
    if failed is not None and not _network_failed(failed):
        raise GenderMTError(f"cannot fetch {data_file.path} of {manifest.where} ({last}); try "
                            "again later, or use a local copy (data_sources.local) or a Hub "
                            "mirror (data_sources.hub_endpoint)")
    raise GenderMTError(
        f"cannot fetch {data_file.path} of {manifest.where} ({last}); without network, set "
        f"data_sources.local to a folder holding {manifest.name}/{data_file.file} (a copy "
        "of the Hub's files at that revision) or data_sources.hub_endpoint to a reachable Hub "
        "mirror")


def _chain(exc: BaseException | None) -> Iterable[BaseException]:
    """``exc`` and its causes, outermost first."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def _http_status(exc: BaseException | None) -> int | None:
    """The HTTP status a failure carries (huggingface_hub's errors keep the response)."""
    for link in _chain(exc):
        code = getattr(getattr(link, "response", None), "status_code", None)
        if isinstance(code, int):
            return code
    return None


#: The exception classes (by name: requests, httpx and the standard library each have their
#: own) that mean the network failed: no connection, no name, no answer in time.
NETWORK_FAILURES = {"ConnectionError", "ConnectError", "TransportError", "Timeout",
                    "TimeoutException", "TimeoutError", "gaierror"}


def _network_failed(exc: BaseException) -> bool:
    return any(cls.__name__ in NETWORK_FAILURES
               for link in _chain(exc) for cls in type(link).__mro__)


def _reason(exc: BaseException) -> str:
    """The innermost cause of a failed retrieval, in one line."""
    seen = exc
    while True:
        nxt = getattr(seen, "__cause__", None) or getattr(seen, "__context__", None)
        args = getattr(seen, "args", ())
        inner = next((a for a in args[1:] if isinstance(a, BaseException)), None)
        nxt = inner or nxt
        if nxt is None or nxt is seen:
            break
        seen = nxt
    text = f"{type(seen).__name__}: {seen}".splitlines()[0]
    return text[:200]


def read_by(paths: Iterable[str | Path], records: list[dict]) -> list[dict]:
    """The data sets (of ``records``, :func:`resolve_config`'s) whose files ``paths`` (files or
    folders a data stage reads) cover, each with only those files: a data stage's
    ``datasets`` param, which it records in its data.json. [] for paths of no data set."""
    found = []
    wanted = [Path(p) for p in paths]
    for record in records:
        folder = Path(record["folder"])
        files = [f for f in record["files"] if any(
            folder / f["file"] == p or p in (folder / f["file"]).parents for p in wanted)]
        if files:
            found.append({k: v for k, v in record.items() if k not in ("folder", "obtained")}
                         | {"files": files})
    return found
