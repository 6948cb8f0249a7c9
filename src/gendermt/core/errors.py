"""Exceptions that carry a message meant for the user, not a traceback."""


class GenderMTError(Exception):
    """An error whose message says what is wrong and how to fix it."""


class DatasetError(GenderMTError, ValueError):
    """A dataset file is malformed; the message names the file, the row and the column."""

    def __init__(self, path: object, problem: str, *, row: int | None = None,
                 column: str | None = None) -> None:
        where = [str(path)]
        if row is not None:
            where.append(f"row {row}")
        if column is not None:
            where.append(f"column {column!r}")
        super().__init__(f"{', '.join(where)}: {problem}")
        self.path, self.row, self.column = path, row, column


class MissingResourceError(GenderMTError, FileNotFoundError):
    """Something the run needs (a file, a model, a package) is not on this machine."""
