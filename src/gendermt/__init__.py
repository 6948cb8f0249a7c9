"""gendermt: a reproducible study of gender bias in machine translation."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("gendermt")
except PackageNotFoundError:  # running from a source tree that was not pip-installed
    __version__ = "0+unknown"
