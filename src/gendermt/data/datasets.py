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
   ``../shared/data``), when its hash matches: copied (hard-linked where possible), no network;
3. else downloaded through Snakemake's HTTP storage plugin (``snakemake-storage-plugin-http``)
   from the public host or ``data_sources.mirror``, into a staging folder, retried when cut
   off, and moved into place only once its size and hash match: a partial file never lies
   where a complete one is expected. A Hub dataset's files come through ``huggingface_hub``
   (``hf_hub_download`` at the pinned revision; ``data_sources.hub_endpoint``, else
   huggingface_hub's own ``HF_ENDPOINT``, names the Hub or a mirror of it), staged and checked
   the same way.

Any hash mismatch stops start-up, naming the file and both hashes, before anything runs (no
job, nothing written under results/). Why at start-up and not as a job with ``storage.http``
inputs: every data stage's params (its sources' sha256) and the start-up checks read the
files while the workflow is parsed, and a mismatch must stop the run before any job starts.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gendermt.benchmarks import registry
from gendermt.config.errors import GenderMTError
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
                            "hub_endpoint": None, "retries": 3, "retry_wait": 2.0}


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
    # why its revision or hashes are not pinned ("" when they are): using it stops
    unverified: str = ""

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


def check_usable(manifest: Manifest, key: str = "") -> None:
    """Stop, in one line, when a config names a data set whose revision or hashes are not
    pinned: its files could not be checked, so nothing may run on them."""
    if manifest.unverified:
        raise GenderMTError(
            f"{key + ': ' if key else ''}data set {manifest.name!r} ({manifest.where}) cannot "
            f"be used: {manifest.declared_in} has {_unpinned(manifest)} "
            f"({manifest.unverified}); pin them there from the published files (or point "
            "the benchmark's data keys at a local copy instead); nothing was run")


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
    order; an unknown name or file stops, naming the key."""
    names: list[str] = []
    for block in ("benchmarks", "systems"):
        for key, ref in _references(config.get(block, {}), block):
            name, _, rest = ref[len(SCHEME):].partition("/")
            if name not in known:
                raise GenderMTError(f"{key}: {ref!r} names no declared data set (declared: "
                                    f"{', '.join(sorted(known)) or 'none'})")
            check_usable(known[name], key)
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
    settings = {**DEFAULTS, **(config.get("data_sources") or {})}
    local = settings["local"]
    settings["local"] = [local] if isinstance(local, str) else list(local or [])
    return settings


def resolve_config(config: dict, hasher: Hasher | None = None,
                   known: Mapping[str, Manifest] | None = None) -> list[dict]:
    """Replace every ``dataset:`` reference of ``config`` (in place) by its folder in the data
    cache, after materialising each named data set there; return each one's provenance."""
    known = manifests() if known is None else known
    names = referenced(config, known)
    if not names:
        return []
    settings = settings_of(config)
    hasher = hasher or Hasher(None)
    roots: dict[str, Path] = {}
    records = []
    try:
        for name in names:
            roots[name], how = materialise(known[name], settings, hasher)
            record = known[name].provenance()
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


def cache_folder(manifest: Manifest, settings: Mapping[str, Any]) -> Path:
    return Path(settings["cache"]) / manifest.name / manifest.commit


def materialise(manifest: Manifest, settings: Mapping[str, Any], hasher: Hasher
                ) -> tuple[Path, dict[str, int]]:
    """Every file of ``manifest`` in the cache with its hash; returns the folder and how many
    files were already there, copied from a local copy, and downloaded."""
    folder = cache_folder(manifest, settings)
    how = {"cached": 0, "local": 0, "downloaded": 0}
    missing = []
    for data_file in manifest.files:
        target = folder / data_file.file
        if target.is_file():
            actual = hasher(target)[1]
            if actual != data_file.sha256:
                raise _mismatch("cached file", target, data_file.sha256, actual,
                                f"{manifest.declared_in}; delete it to fetch it again")
            how["cached"] += 1
        else:
            missing.append(data_file)
    # every local copy is checked before anything is copied or downloaded
    pending = []
    for data_file in missing:
        local = _local_copy(manifest, data_file, settings, hasher)
        if local:
            _place(local, folder / data_file.file, Path(settings["cache"]))
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
            if actual != data_file.sha256:
                raise _mismatch("local copy", candidate, data_file.sha256, actual,
                                f"{manifest.declared_in}, data_sources.local")
            return candidate
    return None


def _staging(cache: Path) -> Path:
    """A new staging file in the cache's ``.partial/``: beside the data sets, never inside
    one (a data stage hashes a whole folder), on the same file system (an atomic rename)."""
    staging = cache / ".partial"
    staging.mkdir(parents=True, exist_ok=True)
    return staging / f"{uuid.uuid4().hex}.part"


def _place(source: Path, target: Path, cache: Path) -> None:
    """A copy of ``source`` at ``target``, atomically (a hard link, else a copy; then a
    rename)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _staging(cache)
    try:
        try:
            os.link(source, tmp)
        except OSError:
            shutil.copy2(source, tmp)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def _download_all(manifest: Manifest, files: list[DataFile], folder: Path,
                  settings: Mapping[str, Any]) -> None:
    asyncio.run(_download_files(manifest, files, folder, settings))


async def _download_files(manifest: Manifest, files: list[DataFile], folder: Path,
                          settings: Mapping[str, Any]) -> None:
    try:
        from snakemake_storage_plugin_http import StorageProvider, StorageProviderSettings
    except ImportError as exc:  # the workflow's environment lacks the plugin
        raise GenderMTError("fetching public data needs snakemake-storage-plugin-http "
                            f"(pip install snakemake-storage-plugin-http): {exc}") from None
    cache = Path(settings["cache"])
    provider = StorageProvider(local_prefix=cache / ".partial", logger=log,
                               settings=StorageProviderSettings())
    for data_file in files:
        url = manifest.url(data_file, settings["mirror"])
        await _download(provider, url, data_file, folder / data_file.file, cache, manifest,
                        settings)


async def _download(provider: Any, url: str, data_file: DataFile, target: Path, cache: Path,
                    manifest: Manifest, settings: Mapping[str, Any]) -> None:
    from gendermt.data.sources import sha256_file

    attempts = max(1, int(settings["retries"]))
    last = ""
    for attempt in range(1, attempts + 1):
        obj = provider.object(url)
        tmp = _staging(cache)
        obj.set_local_path(tmp)
        try:
            await obj.managed_retrieve()
        except Exception as exc:  # noqa: BLE001 - the plugin wraps every failure
            last = _reason(exc)
            log.warning("%s: attempt %d of %d failed: %s", url, attempt, attempts, last)
        else:
            size = tmp.stat().st_size if tmp.exists() else -1
            if size == data_file.size:
                actual = sha256_file(tmp)
                if actual != data_file.sha256:
                    tmp.unlink()
                    raise _mismatch("downloaded file", url, data_file.sha256, actual,
                                    f"{manifest.declared_in}; the file at that URL is not "
                                    "the declared one")
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(tmp, target)
                return
            last = f"got {size} bytes of {data_file.size} (cut off)"
            log.warning("%s: attempt %d of %d: %s", url, attempt, attempts, last)
        if tmp.exists():
            tmp.unlink()
        if attempt < attempts:
            time.sleep(float(settings["retry_wait"]) * 2 ** (attempt - 1))
    raise GenderMTError(
        f"cannot fetch {url} ({last}); without network, set data_sources.local to a folder "
        f"holding {manifest.name}/ (e.g. --config data_sources.local=../shared/data) or "
        "data_sources.mirror to a reachable copy")


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
    for attempt in range(1, attempts + 1):
        staging = _staging(cache).with_suffix(".d")
        try:
            got = Path(download(
                manifest.repository, data_file.path, repo_type="dataset",
                revision=manifest.commit, endpoint=settings.get("hub_endpoint") or None,
                local_dir=staging))
            size = got.stat().st_size
            if size == data_file.size:
                actual = sha256_file(got)
                if actual != data_file.sha256:
                    raise _mismatch(
                        "downloaded file", f"{manifest.repository}@{manifest.commit}:"
                        f"{data_file.path}", data_file.sha256, actual,
                        f"{manifest.declared_in}; the Hub's file is not the declared one")
                target = folder / data_file.file
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(got, target)
                return
            last = f"got {size} bytes of {data_file.size}"
        except GenderMTError:
            raise
        except Exception as exc:  # noqa: BLE001 - network, HTTP and offline errors alike
            # huggingface_hub has already retried with back-off: not again here
            last = _reason(exc)
            break
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        log.warning("%s: attempt %d of %d: %s", data_file.path, attempt, attempts, last)
        if attempt < attempts:
            time.sleep(float(settings["retry_wait"]) * 2 ** (attempt - 1))
    raise GenderMTError(
        f"cannot fetch {data_file.path} of {manifest.where} ({last}); without network, set "
        f"data_sources.local to a folder holding {manifest.name}/{data_file.file} (a copy "
        "of the Hub's files with the manifest's hashes) or data_sources.hub_endpoint to a "
        "reachable Hub mirror")


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
