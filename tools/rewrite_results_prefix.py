"""Move every per-run path under results/<run>/ and logs/<run>/ (issue 17).

The rule files name their outputs ``"results/<benchmark>/..."``; after this rewrite they name
them ``f"{RESULTS}/<benchmark>/..."`` and logs ``f"{LOGS}/..."``, with RESULTS and LOGS set in
common.smk from the config's `run:` (results/default/, logs/default/ for the embedded
default). The tests, which run the default, read ``results/default/...``.

Idempotent: a second run changes nothing, and running it over a file another branch edited
converts that branch's new lines too (replay it after merging):

    python tools/rewrite_results_prefix.py            # workflow/rules/*.smk and tests/*.py
    python tools/rewrite_results_prefix.py FILE...    # only these

Not per run, and left alone: results/cache (the request cache, cache.dir: keyed by system
identity and request, so that an identical request is never sent twice across runs).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ("cache",)  # below results/, not per run
RUN = "default"  # the tests' run: the embedded default's (also spelt out in the patterns)

# a string literal that starts with results/ or logs/: optional f prefix, the quote, the body
SMK_LITERAL = re.compile(r'(?<![\w{])(f?)"((?:results|logs)/[^"\n]*)"')


def _smk_literal(match: re.Match) -> str:
    prefix, body = match.group(1), match.group(2)
    top, rest = body.split("/", 1)
    if top == "results" and rest.split("/", 1)[0] in SHARED:
        return match.group(0)
    if not prefix:  # a plain string becomes an f-string: its wildcards' braces are doubled
        rest = rest.replace("{", "{{").replace("}", "}}")
    return f'f"{{{"RESULTS" if top == "results" else "LOGS"}}}/{rest}"'


def rewrite_smk(text: str) -> str:
    return SMK_LITERAL.sub(_smk_literal, text)


# tests: "results/x..." → "results/default/x...", also f-strings and 'single quotes';
# `"results" / "x"` → `"results" / "default" / "x"`; `.path("results")` likewise
TEST_LITERAL = re.compile(r'''(?<![\w/])(f?)(["'])(results|logs)/(?!default(?:/|["']))''')
TEST_JOIN = re.compile(r'''(?<!tmp_path / )(["'])results\1 / (["'])(?!default\2|cache\2)''')
TEST_BARE = re.compile(r'''(\.path\()(["'])results\2\)''')


def _test_literal(match: re.Match) -> str:
    prefix, quote, top = match.groups()
    return f"{prefix}{quote}{top}/{RUN}/"


def rewrite_test(text: str) -> str:
    out = []
    for line in text.splitlines(keepends=True):
        new = TEST_LITERAL.sub(_test_literal, line)
        # leave the shared cache where it is
        new = re.sub(rf"results/{RUN}/({'|'.join(SHARED)})\b", r"results/\1", new)
        new = TEST_JOIN.sub(lambda m: f'{m.group(1)}results{m.group(1)} / '
                            f'{m.group(2)}{RUN}{m.group(2)} / {m.group(2)}', new)
        new = TEST_BARE.sub(lambda m: f"{m.group(1)}{m.group(2)}results/{RUN}{m.group(2)})",
                            new)
        out.append(new)
    return "".join(out)


def rewrite(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".smk":
        new = rewrite_smk(text)
    elif path.suffix == ".py":
        new = rewrite_test(text)
    else:
        raise SystemExit(f"{path}: neither a rule file (.smk) nor a test (.py)")
    if new != text:
        path.write_text(new, encoding="utf-8")
        return True
    return False


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or [
        *sorted((ROOT / "workflow" / "rules").glob("*.smk")),
        *sorted((ROOT / "tests").glob("*.py"))]
    for path in files:
        if rewrite(path):
            print(f"rewrote {path.relative_to(ROOT) if path.is_absolute() else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
