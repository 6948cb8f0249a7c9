"""``gendermt cache forget``: drop request-cache entries, so that those requests are sent again.

Prints ``{"forgotten": N, "left": M}``.
"""

from __future__ import annotations

import argparse
import json

from gendermt.errors import GenderMTError


def register(commands: argparse._SubParsersAction) -> None:
    cache = commands.add_parser("cache", help="the request cache (results/cache)")
    tools = cache.add_subparsers(dest="tool", required=True)
    forget = tools.add_parser(
        "forget", help="drop cache entries so that their requests are sent again",
        description="Drop entries of the request cache: every empty or whitespace-only "
                    "output (--blank), entries by digest (--digest), or the entries behind "
                    "items of a translation file (--translations FILE, with --item ID ...; "
                    "every item of the file without --item). Delete the translation file "
                    "(chmod u+w first: it is protected) and rerun to ask again.")
    forget.add_argument("--dir", required=True, help="the cache folder (config cache.dir)")
    forget.add_argument("--blank", action="store_true", help="every empty/whitespace output")
    forget.add_argument("--digest", action="append", default=[], help="an entry's digest "
                        "(or its first 16 digits, a record's `key`); repeatable")
    forget.add_argument("--translations", help="a raw/ or translations/ .jsonl file")
    forget.add_argument("--item", action="append", default=[], help="an item id of "
                        "--translations; repeatable")
    forget.set_defaults(func=run_forget)


def run_forget(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gendermt.cache import FILENAME, RequestCache
    from gendermt.io import read_jsonl

    if not (Path(args.dir) / FILENAME).is_file():
        raise GenderMTError(f"{args.dir}: no request cache ({FILENAME}) there")
    keys = list(args.digest)
    if args.item and not args.translations:
        raise GenderMTError("--item needs --translations FILE (the file the items are in)")
    if args.translations:
        records = {r["item_id"]: r for r in read_jsonl(args.translations)}
        wanted = args.item or list(records)
        unknown = [i for i in wanted if i not in records]
        if unknown:
            raise GenderMTError(f"{args.translations}: no item(s) {unknown[:5]}")
        no_key = [i for i in wanted if "key" not in records[i]]
        if no_key:
            raise GenderMTError(f"{args.translations}: records without a `key` (written "
                                f"before gendermt recorded it): {no_key[:5]}; use --digest")
        keys += [records[i]["key"] for i in wanted]
    if not keys and not args.blank:
        raise GenderMTError("nothing to forget: give --blank, --digest or --translations")
    cache = RequestCache(args.dir)
    n = cache.forget(keys, blank=args.blank, prefix=True)
    print(json.dumps({"forgotten": n, "left": len(cache)}))
    return 0
