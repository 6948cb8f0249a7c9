"""The README's fenced code blocks, each with its section, and what a block needs of the code
before it can run (tests/workflow/test_readme_blocks.py runs them).

A block that shows a feature this checkout may not have yet says so on the line before its
fence, ``<!-- needs: NAME -->`` (NAME: a key of :data:`NEEDS`). The tests then run it once
the feature is there and skip it, naming the feature, until then: a README written ahead of
the code is never silently left unchecked, and needs no edit when the code arrives.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

FENCE = re.compile(r"^(?P<fence>```|~~~)(?P<lang>\w*)\n(?P<body>.*?)^(?P=fence)\s*$", re.M | re.S)
NEEDS_MARK = re.compile(r"<!--\s*needs:\s*([\w ,-]+?)\s*-->\s*$")


def _subcommands() -> set[str]:
    from gendermt.cli import build_parser

    parser = build_parser()
    return {name for action in parser._subparsers._group_actions
            for name in getattr(action, "choices", {}) or {}}


def _config_keys() -> set[str]:
    schema = yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml")
                            .read_text(encoding="utf-8"))
    return set(schema.get("properties", {}))


#: feature → (whether this checkout has it, what it is)
NEEDS: dict[str, tuple[Callable[[], bool], str]] = {
    "gendermt run": (lambda: "run" in _subcommands(),
                     "the `gendermt run` command (issue 53, item 1)"),
    "add_systems": (lambda: "add_systems" in _config_keys(),
                    "the config key `add_systems` (issue 53, item 1)"),
}


@dataclass(frozen=True)
class Block:
    section: str      # the `## ` heading it is under
    index: int        # its place among that section's blocks, from 0
    lang: str         # the fence's language ("" for none)
    body: str
    line: int         # the line of its opening fence
    needs: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{slug(self.section)}-{self.index}"


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces → -."""
    text = re.sub(r"[`*_~]|<[^>]*>", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def blocks(path: Path = README) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    out: list[Block] = []
    counts: dict[str, int] = {}
    for match in FENCE.finditer(text):
        before = text[:match.start()]
        headings = re.findall(r"^## (.+)$", before, re.M)
        section = headings[-1].strip() if headings else ""
        prev = [line for line in before.rstrip("\n").splitlines()[-2:] if line.strip()]
        mark = NEEDS_MARK.search(prev[-1]) if prev else None
        needs = tuple(n.strip() for n in mark[1].split(",")) if mark else ()
        index = counts.get(section, 0)
        counts[section] = index + 1
        out.append(Block(section, index, match["lang"], match["body"],
                         before.count("\n") + 1, needs))
    return out


def unmet(block: Block) -> list[str]:
    """What the block needs that this checkout lacks (each named); an unknown need is an
    error."""
    unknown = [n for n in block.needs if n not in NEEDS]
    if unknown:
        raise AssertionError(f"README.md:{block.line}: unknown `needs:` {unknown} (known: "
                             f"{sorted(NEEDS)}; tests/doc_blocks.py)")
    return [NEEDS[n][1] for n in block.needs if not NEEDS[n][0]()]


def heredocs(script: str) -> dict[str, str]:
    """file → text of every ``cat > FILE <<'EOF' ... EOF`` of a shell block."""
    return {m[1]: m[3] for m in re.finditer(
        r"^cat > (\S+) <<'?(\w+)'?\n(.*?)^\2$", script, re.M | re.S)}
