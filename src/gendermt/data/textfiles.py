"""Reading the text files people hand the tools: hypothesis lines and delimited tables.

One reader for each, so that every command and loader agrees on what a line is and how rows
are numbered, and fails with a message naming the file (and the line) instead of a traceback:

* text is UTF-8; a byte-order mark is dropped (the published files may have one);
* a *line* ends at ``\\n`` only (a ``\\r`` before it is dropped, for CRLF files): U+2028, NEL
  or a form feed inside a line are text, as the workflow's ``stored`` backend reads them, so
  they cannot shift every later line; a final newline ends the last line;
* ``-`` names standard input;
* what is read is bounded: at most ``GENDERMT_MAX_INPUT_BYTES`` bytes (default 2 GiB, far
  above any benchmark's file), and a device (``/dev/zero``) is no file: either ends in one
  line instead of a process that grows until the kernel kills it;
* rows of a delimited file carry their physical line number (the header is line 1, blank
  lines are counted), so that a message points at the line an editor shows.
"""

from __future__ import annotations

import csv
import io
import sys
import unicodedata
from pathlib import Path
from typing import BinaryIO

from gendermt.config.input_limits import STDIN, check_input, max_input_bytes, too_large
from gendermt.core.errors import DatasetError, GenderMTError, MissingResourceError
from gendermt.data import reads

_CHUNK = 1 << 20


def _read_bounded(stream: BinaryIO, label: str) -> bytes:
    """At most :func:`max_input_bytes` bytes of ``stream``, read in chunks (never more)."""
    limit = max_input_bytes()
    chunks, size = [], 0
    while chunk := stream.read(min(_CHUNK, limit + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise too_large(label, limit)
    return b"".join(chunks)


def _decode(data: bytes, where: object) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DatasetError(where, f"not UTF-8 text: byte 0x{data[exc.start]:02x} on line "
                                  f"{line} (save the file as UTF-8)") from None


def read_text(path: str | Path, what: str = "") -> str:
    """The text of a UTF-8 file (BOM dropped), or of standard input for ``-``. ``what``
    (e.g. ``"--hyp"``) names the option the path came from in the error messages."""
    label = f"{what} file {path}" if what else str(path)
    if str(path) == STDIN:
        stream = sys.stdin
        where = f"standard input ({what})" if what else "standard input"
        if not hasattr(stream, "buffer"):  # already text (a test's StringIO)
            text = stream.read(max_input_bytes() + 1)
            if len(text) > max_input_bytes():
                raise too_large(where, max_input_bytes())
            return text.removeprefix("\ufeff")
        return _decode(_read_bounded(stream.buffer, where), where)
    file = Path(path)
    if not file.exists():
        raise MissingResourceError(f"{label} does not exist")
    if file.is_dir():
        raise GenderMTError(f"{label}: is a folder, not a file")
    check_input(file, what)
    try:
        with file.open("rb") as fh:
            data = _read_bounded(fh, label)
    except OSError as exc:
        raise GenderMTError(f"{label}: cannot read it: {exc.strerror or exc}") from None
    reads.note(file, data)  # hashed from these bytes, checked in a data stage (one read)
    return _decode(data, label)


def split_lines(text: str) -> list[str]:
    """Lines split on ``\\n`` only; a final newline ends the last line (it does not start an
    empty one); one ``\\r`` before each ``\\n`` is dropped."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(path: str | Path, what: str = "") -> list[str]:
    """The lines of a UTF-8 text file (or of stdin for ``-``), split as :func:`split_lines`."""
    return split_lines(read_text(path, what))


def read_delimited(path: str | Path, delimiter: str = "\t", *, quoting: int = csv.QUOTE_NONE,
                   what: str = "") -> list[tuple[int, list[str]]]:
    """``(line, fields)`` for every record of a delimited UTF-8 file, header included
    (line 1). Blank lines give ``[]`` and are counted. ``quoting``: ``csv.QUOTE_NONE`` (a
    quote is text) or ``csv.QUOTE_MINIMAL`` (Python's default reading, a quoted field may
    span lines: its line is where it starts). Fields of any size are read."""
    text = read_text(path, what)
    limit = csv.field_size_limit()
    csv.field_size_limit(max(limit, len(text) + 1))  # a long field is data, not an error
    records: list[tuple[int, list[str]]] = []
    try:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter,
                            quoting=quoting)
        start = 1
        for fields in reader:
            records.append((start, fields))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise DatasetError(path, f"line {start}: not readable as {delimiter!r}-separated "
                                 f"text: {exc}") from None
    finally:
        csv.field_size_limit(limit)
    return records


def is_blank(text: str) -> bool:
    """Whether ``text`` holds nothing visible: only whitespace and format characters
    (zero-width spaces and joiners, word joiners, BOMs)."""
    return all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in text)
