"""``gendermt cache forget``: drop request-cache entries, so that those requests are sent again.

A digest is given whole (64 hex digits) or as a prefix of at least ``MIN_PREFIX`` digits that
matches exactly one entry (a record's 16-digit ``key``): an empty or short value (an unset
shell variable) deletes nothing and is an error. Deleting every entry needs ``--all``; what a
command will delete is said on stderr before it deletes. Prints ``{"forgotten": N, "left": M}``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from gendermt.core.errors import GenderMTError

#: The shortest digest prefix ``--digest`` takes.
MIN_PREFIX = 12
_HEX = re.compile(r"[0-9a-f]+")


def register(commands: argparse._SubParsersAction) -> None:
    cache = commands.add_parser("cache", help="the request cache (results/cache)")
    tools = cache.add_subparsers(dest="tool", required=True)
    forget = tools.add_parser(
        "forget", help="drop cache entries so that their requests are sent again",
        description="Drop entries of the request cache: every empty or whitespace-only "
                    "output (--blank), entries by digest (--digest: whole, or a prefix of at "
                    f"least {MIN_PREFIX} digits matching one entry), the entries behind items "
                    "of a translation file (--translations FILE, with --item ID ...; every "
                    "item of the file without --item), or every entry (--all). What will be "
                    "deleted is said first. Delete the translation file (chmod u+w first: it "
                    "is protected) and rerun to ask again.")
    forget.add_argument("--dir", required=True, help="the cache folder (config cache.dir)")
    forget.add_argument("--blank", action="store_true", help="every empty/whitespace output")
    forget.add_argument("--digest", action="append", default=[], help="an entry's digest "
                        f"(or a unique prefix of at least {MIN_PREFIX} digits, e.g. a "
                        "record's 16-digit `key`); repeatable")
    forget.add_argument("--translations", help="a raw/ or translations/ .jsonl file")
    forget.add_argument("--item", action="append", default=[], help="an item id of "
                        "--translations; repeatable")
    forget.add_argument("--all", action="store_true", help="every entry of the cache (the "
                        "runs' records stay)")
    forget.set_defaults(func=run_forget)


def _records(path: str) -> dict[str, dict]:
    """The records of a translation file by item id; a file that is not one is an error
    naming it (not a traceback)."""
    from gendermt.data.io import read_jsonl

    try:
        records = read_jsonl(path)
    except FileNotFoundError:
        raise GenderMTError(f"{path}: no such file (--translations)") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise GenderMTError(f"{path}: not a translation file (JSON lines): {exc}") from None
    if not all(isinstance(r, dict) and "item_id" in r for r in records):
        raise GenderMTError(f"{path}: not a translation file (records without `item_id`)")
    return {str(r["item_id"]): r for r in records}


def resolve(cache, digest: str, where: str = "--digest") -> str:
    """The one entry's digest that ``digest`` (whole or a unique prefix) names."""
    value = digest.strip().lower()
    if len(value) < MIN_PREFIX or not _HEX.fullmatch(value):
        raise GenderMTError(f"{where} {digest!r}: give a whole digest or a prefix of at least "
                            f"{MIN_PREFIX} hex digits (to drop every entry: --all)")
    found = cache.matching(value, limit=2)
    if len(found) > 1:
        raise GenderMTError(f"{where} {digest!r} matches several entries; give more digits")
    return found[0] if found else ""


def run_forget(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gendermt.translation.cache import FILENAME, RequestCache

    if not (Path(args.dir) / FILENAME).is_file():
        raise GenderMTError(f"{args.dir}: no request cache ({FILENAME}) there")
    if args.item and not args.translations:
        raise GenderMTError("--item needs --translations FILE (the file the items are in)")
    if not (args.digest or args.translations or args.blank or args.all):
        raise GenderMTError("nothing to forget: give --blank, --digest, --translations or "
                            "--all")
    if args.all and (args.digest or args.translations or args.blank):
        raise GenderMTError("--all drops every entry: give it alone")
    cache = RequestCache(args.dir)
    if args.all:
        print(f"forgetting all {len(cache)} entries of {cache.path}", file=sys.stderr)
        n = cache.clear()
        print(json.dumps({"forgotten": n, "left": len(cache)}))
        return 0
    keys = [resolve(cache, d) for d in args.digest]
    if args.translations:
        records = _records(args.translations)
        wanted = args.item or list(records)
        unknown = [i for i in wanted if i not in records]
        if unknown:
            raise GenderMTError(f"{args.translations}: no item(s) {unknown[:5]}")
        no_key = [i for i in wanted if "key" not in records[i]]
        if no_key:
            raise GenderMTError(f"{args.translations}: records without a `key` (written "
                                f"before gendermt recorded it): {no_key[:5]}; use --digest")
        keys += [resolve(cache, str(records[i]["key"]), f"{args.translations}: item {i}: key")
                 for i in wanted]
    found = sorted({k for k in keys if k})
    blank = cache.count_blank() if args.blank else 0
    what = [f"{len(found)} entr{'y' if len(found) == 1 else 'ies'} by digest"] + (
        [f"{blank} blank entr{'y' if blank == 1 else 'ies'}"] if args.blank else [])
    print(f"forgetting {' and '.join(what)} of {cache.path}"
          + (f": {', '.join(d[:16] for d in found[:5])}{', ...' if len(found) > 5 else ''}"
             if found else ""), file=sys.stderr)
    n = cache.forget(found, blank=args.blank)
    print(json.dumps({"forgotten": n, "left": len(cache)}))
    return 0
