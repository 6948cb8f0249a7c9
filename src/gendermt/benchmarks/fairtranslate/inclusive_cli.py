"""``gendermt fairtranslate normalize|pronoun``: the inclusive-language classifiers, as filters.

* ``normalize``: French lines on stdin → the same lines with inclusive spellings in their
  canonical forms (:mod:`.normalize`) on stdout.
* ``pronoun``: ``english<TAB>french`` lines on stdin → one class per line on stdout:
  ``plural``, ``singular-gendered``, ``inclusive``, ``no-pronoun`` or ``untranslated`` (an
  empty output or the English again; :mod:`.pronouns`).
"""

from __future__ import annotations

import argparse
import io
import sys

from gendermt.core.errors import GenderMTError
from gendermt.data.textfiles import split_lines


def register(commands: argparse._SubParsersAction) -> None:
    ft = commands.add_parser("fairtranslate", help="FairTranslate's inclusive-language tools")
    tools = ft.add_subparsers(dest="tool", required=True)
    norm = tools.add_parser(
        "normalize", help="canonical inclusive spellings (stdin → stdout)",
        description="Read French lines on stdin and write them with every inclusive spelling "
                    "(middle dots, slashes, hyphens, capital E, doublets such as 'il ou elle') "
                    "in its canonical form (iel, un.e, le.a, ce.tte, infirmier.ère, ...).")
    norm.set_defaults(func=run_normalize)
    pron = tools.add_parser(
        "pronoun", help="how singular 'they' was rendered (TSV stdin → classes)",
        description="Read 'english<TAB>french' lines on stdin and write, per line, how the "
                    "French renders the English singular 'they': plural (ils/elles/iels), "
                    "singular-gendered (il/elle), inclusive (iel), no-pronoun or "
                    "untranslated (empty, or the English again).")
    pron.set_defaults(func=run_pronoun)


def _stdin() -> io.TextIOBase:
    if hasattr(sys.stdin, "buffer"):
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", newline=None)
    return sys.stdin  # already text (tests)


def _lines(stream: io.TextIOBase) -> list[str]:
    return split_lines(stream.read())  # \n only, as every gendermt command reads lines


def run_normalize(args: argparse.Namespace) -> int:
    from gendermt.benchmarks.fairtranslate.normalize import normalize

    out = [normalize(line) for line in _lines(_stdin())]
    sys.stdout.write("".join(line + "\n" for line in out))
    return 0


def run_pronoun(args: argparse.Namespace) -> int:
    from gendermt.benchmarks.fairtranslate.pronouns import classify_they, has_they

    # A bad line does not cost the others their results: it gets an empty output line (so
    # that outputs stay aligned with inputs), is reported on stderr, and the exit status is 2.
    out, bad = [], []
    for number, line in enumerate(_lines(_stdin()), start=1):
        if "\t" not in line:
            print(f"gendermt: error: stdin line {number}: expected 'english<TAB>french', "
                  f"found no tab in {line[:60]!r}", file=sys.stderr)
            out.append("")
            bad.append(number)
            continue
        english, french = line.split("\t", 1)
        if not has_they(english):
            print(f"gendermt: warning: stdin line {number}: the English has no 'they'; "
                  "classified from the French alone", file=sys.stderr)
        out.append(classify_they(english, french).cls)
    sys.stdout.write("".join(cls + "\n" for cls in out))
    if bad:
        shown = ", ".join(map(str, bad[:10])) + (f" and {len(bad) - 10} more" if len(bad) > 10
                                                 else "")
        raise GenderMTError(f"{len(bad)} of {len(out)} stdin lines could not be classified "
                            f"(lines {shown}; their output lines are empty)")
    return 0
