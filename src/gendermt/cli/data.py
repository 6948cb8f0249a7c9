"""``gendermt data pin NAME``: the revision, sizes and sha256s of a Hub data set's files, as
the lines of its manifest (``src/gendermt/benchmarks/<benchmark>/dataset.yaml``) to paste.

A Hugging Face Hub data set (FairTranslate, Neo-GATE) is declared with a pinned revision and
every file's size and sha256; where they are not known (no Hub access when the manifest was
written: ``unverified:``), a user with network runs this. It resolves ``--revision`` (a
branch, a tag or a commit; default ``main``) to its full commit through ``huggingface_hub``
(the ``X-Repo-Commit`` of a file's ``HEAD``), downloads each file the manifest names at that
commit into a temporary folder, hashes it and prints the ``source:`` and ``files:`` lines
(``--json``: the same as JSON). Nothing is written into the project: paste the lines into
the manifest it names and delete its ``unverified:`` line. ``--endpoint`` names a Hub mirror
(default: huggingface_hub's own, ``HF_ENDPOINT`` or huggingface.co).
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError

COMMIT = re.compile(r"[0-9a-f]{40}")


def register(commands: argparse._SubParsersAction) -> None:
    data = commands.add_parser("data", help="the public data sets' manifests "
                                            "(docs/data-sources.md)")
    tools = data.add_subparsers(dest="tool", required=True)
    pin = tools.add_parser(
        "pin", help="print a Hub data set's revision and file hashes for its manifest",
        description="Resolve a Hugging Face Hub data set's revision to its commit, download "
                    "each file its manifest names at that commit (into a temporary folder), "
                    "and print the manifest's source: and files: lines with every size and "
                    "sha256, to paste into the manifest (then delete its unverified: line). "
                    "Needs network (or --endpoint) and huggingface_hub.")
    pin.add_argument("dataset", help="the data set's name, e.g. neogate or fairtranslate")
    pin.add_argument("--revision", default="main",
                     help="branch, tag or commit to pin (default main)")
    pin.add_argument("--endpoint", default=None,
                     help="the Hub or a mirror of it (default: huggingface_hub's, HF_ENDPOINT)")
    pin.add_argument("--json", action="store_true", help="print JSON instead of YAML lines")
    pin.set_defaults(func=run_pin)


def pin_hub(name: str, revision: str = "main", endpoint: str | None = None) -> dict[str, Any]:
    """``{dataset, manifest, repository, revision, files: [{file, path, size, sha256}]}`` of a
    declared Hub data set at ``revision``, read from the Hub."""
    from gendermt.data import datasets
    from gendermt.data.sources import sha256_file

    known = datasets.manifests()
    if name not in known:
        raise GenderMTError(f"no data set {name!r}; declared: {', '.join(sorted(known))}")
    manifest = known[name]
    if manifest.host != "hub":
        raise GenderMTError(f"{name} is not a Hub data set ({manifest.where}); its manifest "
                            f"{manifest.declared_in} is pinned from the repository's files")
    try:
        from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url
    except ImportError as exc:
        raise GenderMTError(f"pinning needs huggingface_hub (the `hub` extra: pip install "
                            f"'gendermt[hub]'): {exc}") from None
    first = manifest.files[0]
    try:
        # the commit the revision names now (what the Hub sends with every file)
        meta = get_hf_file_metadata(hf_hub_url(manifest.repository, first.path,
                                               repo_type="dataset", revision=revision,
                                               endpoint=endpoint), endpoint=endpoint)
    except Exception as exc:  # noqa: BLE001 - network, HTTP and offline errors alike
        raise GenderMTError(f"cannot read {first.path} of {manifest.repository} at "
                            f"{revision!r} from the Hub ({datasets._reason(exc)}); check the "
                            "network, --revision and --endpoint") from None
    commit = str(meta.commit_hash or "")
    if not COMMIT.fullmatch(commit):
        raise GenderMTError(f"the Hub named no full commit for {manifest.repository} at "
                            f"{revision!r} (got {commit!r})")
    files = []
    with tempfile.TemporaryDirectory(prefix="gendermt-pin-") as tmp:
        for data_file in manifest.files:
            try:
                got = Path(hf_hub_download(manifest.repository, data_file.path,
                                           repo_type="dataset", revision=commit,
                                           endpoint=endpoint, local_dir=tmp))
            except Exception as exc:  # noqa: BLE001
                raise GenderMTError(
                    f"cannot download {data_file.path} of {manifest.repository} at {commit} "
                    f"({datasets._reason(exc)}); if the Hub has no such file, correct its "
                    f"path in {manifest.declared_in} (huggingface_hub.list_repo_files("
                    f"{manifest.repository!r}, repo_type='dataset') lists them)") from None
            files.append({"file": data_file.file, "path": data_file.path,
                          "size": got.stat().st_size, "sha256": sha256_file(got)})
    return {"dataset": manifest.name, "manifest": manifest.declared_in,
            "repository": manifest.repository, "revision": commit, "files": files}


def manifest_lines(pinned: dict[str, Any]) -> str:
    """The manifest's ``source:`` and ``files:`` blocks, as its file writes them."""
    lines = ["source:", f"  hub: {pinned['repository']}", f"  revision: {pinned['revision']}",
             "files:"]
    lines += [f"  - {{file: {f['file']}, path: {f['path']}, size: {f['size']}, "
              f"sha256: {f['sha256']}}}" for f in pinned["files"]]
    return "\n".join(lines) + "\n"


def run_pin(args: argparse.Namespace) -> int:
    import sys

    pinned = pin_hub(args.dataset, args.revision, args.endpoint)
    if args.json:
        print(json.dumps(pinned, indent=2))
    else:
        sys.stdout.write(manifest_lines(pinned))
        print(f"# paste into {pinned['manifest']} (replacing its source: and files:) and "
              "delete its unverified: line", file=sys.stderr)
    return 0
