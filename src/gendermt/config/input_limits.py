"""How much one input may hold: every reader of a file a person hands the tools (a config
file, a hypothesis file, a table) refuses a device (``/dev/zero``) or a file over
``GENDERMT_MAX_INPUT_BYTES`` bytes (default 2 GiB, far above any benchmark's file) in one line,
instead of a process that grows until the kernel kills it (gendermt.data.textfiles reads
within the same bound)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from gendermt.core.errors import GenderMTError

STDIN = "-"
#: The environment variable bounding what one input may hold, in bytes.
MAX_INPUT_ENV = "GENDERMT_MAX_INPUT_BYTES"
DEFAULT_MAX_INPUT = 2 * 1024 ** 3


def max_input_bytes() -> int:
    """The most bytes one input file may hold (``GENDERMT_MAX_INPUT_BYTES``, default 2 GiB)."""
    value = os.environ.get(MAX_INPUT_ENV, "").strip()
    if not value:
        return DEFAULT_MAX_INPUT
    try:
        limit = int(value)
    except ValueError:
        limit = 0
    if limit <= 0:
        raise GenderMTError(f"{MAX_INPUT_ENV}={value!r}: give a positive number of bytes "
                            f"(default {DEFAULT_MAX_INPUT})")
    return limit


def too_large(label: str, limit: int) -> GenderMTError:
    return GenderMTError(f"{label}: more than {limit} bytes, the input limit (raise it with "
                         f"{MAX_INPUT_ENV}=BYTES if the file is meant to be this large)")


def check_input(path: str | Path, what: str = "") -> None:
    """Refuse, before any reader opens it, an input that is a device (``/dev/zero``) or a
    regular file over :func:`max_input_bytes`. For readers that are not this module's
    (pandas, pyarrow); pipes and standard input are bounded as :func:`read_text` reads."""
    if str(path) == STDIN:
        return
    label = f"{what} file {path}" if what else str(path)
    try:
        mode = os.stat(path)
    except OSError:
        return  # a missing file: the reader's own message
    if stat.S_ISCHR(mode.st_mode) or stat.S_ISBLK(mode.st_mode):
        raise GenderMTError(f"{label}: not a regular file (a device); give a file, or '-' "
                            "for standard input")
    limit = max_input_bytes()
    if stat.S_ISREG(mode.st_mode) and mode.st_size > limit:
        raise too_large(label, limit)
