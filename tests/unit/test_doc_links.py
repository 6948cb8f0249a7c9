"""The docs cannot point nowhere (issue 54): every relative link of README.md and docs/**/*.md
leads to a file or folder of the repository, and to a heading of that page where it names one
(``page.md#anchor``, or ``#anchor`` on the same page; anchors as GitHub makes them, issue 53),
and so does every repository path they name in backticks.

A path in backticks is a word of an inline code span (not of a fenced block: commands there
may name files a run writes) that starts with one of the repository's top-level folders
(:data:`ROOTS`). It is read from the repository root; a ``path:line``, ``path::test`` or
``path:function`` suffix is dropped. A word that is a pattern stands for many files and must
match at least one: ``<benchmark>``, ``<name>``, ``<bench>``, ``<pkg>`` and ``{benchmark}``
read as a benchmark's name (its registry name or its package's), any other ``<...>`` or
``{...}`` and ``*`` as anything, ``{a,b}`` as ``a`` or ``b``; a word with ``...``, ``$``,
``[`` or ``|`` is left unchecked. Files that a run or a user writes (results/, logs/, a config
of one's own) start with no name of :data:`ROOTS`, or are listed in :data:`WRITTEN_BY_USERS`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ..conftest import ROOT

#: the repository's top-level folders whose files the docs name
ROOTS = ("src/", "workflow/", "tests/", "config/", "resources/", "tools/", "docs/", "perf/",
         "envs/", "profiles/")
#: a word that stands for many paths, not for one
PATTERN = re.compile(r"[<>{}*]")
#: a word left unchecked: an elision or shell syntax
UNCHECKED = re.compile(r"[$…\[\]|]|\.\.\.")
#: placeholders that stand for a benchmark's name
BENCHMARK_PLACEHOLDERS = {"benchmark", "name", "bench", "pkg"}
PLACEHOLDER = re.compile(r"<([^<>]*)>|\{([^{}]*)\}")
#: paths the docs name that a user (or a run) writes, not the repository
WRITTEN_BY_USERS: set[str] = set()

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
INLINE_CODE = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def prose(text: str) -> str:
    """``text`` without its fenced code blocks (their lines kept, blank, so that line
    numbers stay)."""
    return FENCE.sub(lambda m: "\n" * m[0].count("\n"), text)


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def relative_links(text: str) -> list[tuple[int, str]]:
    """(line, target) of every link and image of ``text`` that is not a URL nor an anchor
    of the same page; the target without its anchor or query."""
    return [(line, target) for line, target, _ in linked_anchors(text) if target]


def linked_anchors(text: str) -> list[tuple[int, str, str]]:
    """(line, target, anchor) of every link and image of ``text`` that is not a URL: the
    target "" for an anchor of the same page, the anchor "" where none is given."""
    body = INLINE_CODE.sub(lambda m: " " * len(m[0]), prose(text))
    out = []
    for pattern in (LINK, IMAGE):
        for match in pattern.finditer(body):
            target = match[1]
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
                continue
            path, _, anchor = target.partition("#")
            out.append((_line(body, match.start()), path.split("?")[0], anchor))
    return out


HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
EXPLICIT_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: the text of its links and code, lower case,
    punctuation dropped (``-`` and ``_`` kept), each space a ``-``."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>|[`*~]", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor of a Markdown page: its headings' (a repeated one with ``-1``, ``-2``,
    ... as GitHub numbers them) and explicit ``<a name=...>`` ones."""
    seen: dict[str, int] = {}
    out = set(EXPLICIT_ANCHOR.findall(text))
    for heading in HEADING.findall(prose(text)):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def benchmark_names() -> list[str]:
    from gendermt.core import registry

    packages = [p.name for p in (ROOT / "src" / "gendermt" / "benchmarks").iterdir()
                if (p / "__init__.py").is_file()]
    return sorted({*(b.name for b in registry.benchmarks()), *packages})


def globs(word: str) -> list[str]:
    """The glob patterns a pattern word stands for (the module docstring's rule)."""
    match = PLACEHOLDER.search(word)
    if match is None:
        return [word]
    inner = match[1] if match[1] is not None else match[2]
    if match[2] is not None and "," in inner:
        values = inner.split(",")
    elif inner in BENCHMARK_PLACEHOLDERS:
        values = benchmark_names()
    else:
        values = ["*"]
    head, tail = word[:match.start()], word[match.end():]
    return [g for value in values for g in globs(head + value + tail)]


def exists(path: str) -> bool:
    """Whether ``path`` (from the repository root; a pattern: any of its globs) names
    something of the repository."""
    if not PATTERN.search(path):
        return (ROOT / path).exists()
    return any(next(ROOT.glob(g.rstrip("/")), None) is not None for g in globs(path))


def backtick_paths(text: str) -> list[tuple[int, str]]:
    """(line, path from the repository root, or a pattern) of every repository path named
    in an inline code span of ``text`` (the module docstring's rule)."""
    body = prose(text)
    out = []
    for match in INLINE_CODE.finditer(body):
        for word in match[2].split():
            word = word.strip("\"'(),;")
            if not word.startswith(ROOTS) or UNCHECKED.search(word):
                continue
            path = re.split(r"::|:", word)[0].rstrip(".,")
            if path not in WRITTEN_BY_USERS:
                out.append((_line(body, match.start()), path))
    return out


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("doc", documents(), ids=_name)
def test_every_relative_link_exists(doc: Path):
    text = doc.read_text(encoding="utf-8")
    missing = [f"{_name(doc)}:{line}: {target}" for line, target in relative_links(text)
               if not (doc.parent / target).exists()]
    assert not missing, "links to nothing:\n" + "\n".join(missing)


@pytest.mark.parametrize("doc", documents(), ids=_name)
def test_every_linked_anchor_is_a_heading_of_its_page(doc: Path):
    text = doc.read_text(encoding="utf-8")
    missing = []
    for line, target, anchor in linked_anchors(text):
        page = doc.parent / target if target else doc
        if not anchor or page.suffix != ".md" or not page.is_file():
            continue  # a folder, a file that is no page, or a missing one (the test above)
        if anchor not in anchors(page.read_text(encoding="utf-8")):
            missing.append(f"{_name(doc)}:{line}: {target}#{anchor}")
    assert not missing, "anchors that are no heading of their page:\n" + "\n".join(missing)


@pytest.mark.parametrize("doc", documents(), ids=_name)
def test_every_path_in_backticks_exists(doc: Path):
    text = doc.read_text(encoding="utf-8")
    missing = [f"{_name(doc)}:{line}: {path}" for line, path in backtick_paths(text)
               if not exists(path)]
    assert not missing, "names no file of the repository:\n" + "\n".join(missing)


# ----------------------------------------------------------------------------- the rule itself
def test_the_rule_reads_links_and_paths_as_documented():
    text = ("See [the layout](layout.md#top), [site](https://example.org), [here](#x) and\n"
            "![fig](img/a.png). `src/gendermt/cli/__init__.py:12`, "
            "`pytest tests/unit/test_cli.py::test_x`, `tests/benchmarks/<name>/`, "
            "`src/gendermt/benchmarks/{benchmark}/rules.smk`, `results/default/`, `docs/*.md`\n"
            "`resources/<name>/...`, `workflow/rules/<name>.smk`, `src/gendermt/{cli,data}/`\n"
            "```\ncat src/nowhere.py [no](nowhere.md)\n```\n")
    assert relative_links(text) == [(1, "layout.md"), (2, "img/a.png")]
    paths = backtick_paths(text)
    assert paths == [(2, "src/gendermt/cli/__init__.py"), (2, "tests/unit/test_cli.py"),
                     (2, "tests/benchmarks/<name>/"),
                     (2, "src/gendermt/benchmarks/{benchmark}/rules.smk"), (2, "docs/*.md"),
                     (3, "workflow/rules/<name>.smk"), (3, "src/gendermt/{cli,data}/")]
    assert [exists(p) for _, p in paths] == [True, True, True, True, True, False, True]


def test_anchors_are_githubs():
    page = ("# Title\n## WinoMT 2019 → 2026: today's services\n## The `gendermt` CLI\n"
            "### [Links](x.md) and *emphasis*\n## Notes\n## Notes\n<a name=\"here\"></a>\n"
            "```\n# not a heading\n```\n")
    assert anchors(page) == {"title", "winomt-2019--2026-todays-services", "the-gendermt-cli",
                             "links-and-emphasis", "notes", "notes-1", "here"}
    text = "[a](other.md#x) [b](#notes) [c](https://e.org/#y) [d](sub/)\n"
    assert linked_anchors(text) == [(1, "other.md", "x"), (1, "", "notes"), (1, "sub/", "")]
    assert relative_links(text) == [(1, "other.md"), (1, "sub/")]
