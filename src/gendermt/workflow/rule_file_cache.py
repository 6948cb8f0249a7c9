"""Snakemake's translation of the rule files into Python, memoised by their content.

Every ``snakemake`` call runs Snakemake's parser over each included rule file (a tokenizer
and a state machine in pure Python): about 0.06 s of CPU for the workflow's 14 rule files,
under 0.01 s served from the cache (the default, 2026-12-05). What it returns, the Python
code and the rule count after the file, depends only on the file's bytes, its path (written
into the code), the rule count before it (anonymous rules are numbered) and Snakemake's
version, so it is kept in :mod:`gendermt.workflow.startup_cache` under those; an edited file misses
and is parsed again. The line map (Python line -> rule-file line, for error messages) is
kept with it.

Installed by the workflow (``common.smk``) before it includes the other rule files; only a
local file parsed with Snakemake's default shell command is served from the cache, anything
else goes to Snakemake's parser as before.
"""

from __future__ import annotations

from typing import Any

from gendermt.workflow import startup_cache


def _key(path: str, data: bytes, rulecount: int, version: str) -> str:
    head = f"{version}\0{path}\0{rulecount}\0".encode()
    return startup_cache.content_key("snakemake-parse", head + data)


def install(workflow_module: Any) -> bool:
    """Serve ``workflow_module.parse`` (the parser Snakemake's ``Workflow.include`` calls)
    from the start-up cache; False (and nothing changed) where that Snakemake has no such
    function or the cache is off."""
    original = getattr(workflow_module, "parse", None)
    if not callable(original) or getattr(original, "gendermt_cached", False) \
            or not startup_cache.enabled():
        return False
    from snakemake import __version__ as version
    from snakemake.parser import Shell
    from snakemake.sourcecache import LocalSourceFile

    def parse(path: Any, workflow: Any, linemap: dict[int, int],
              overwrite_shellcmd: Any = None, rulecount: int = 0) -> tuple[str, int]:
        if overwrite_shellcmd is not None or not isinstance(path, LocalSourceFile):
            return original(path, workflow, linemap, overwrite_shellcmd, rulecount)
        where = path.get_path_or_uri(secret_free=True)
        try:
            with open(where, "rb") as f:
                data = f.read()
        except OSError:  # Snakemake's own parser says what is wrong with the file
            return original(path, workflow, linemap, overwrite_shellcmd, rulecount)
        key = _key(where, data, rulecount, version)
        hit = startup_cache.get(key)
        if isinstance(hit, dict) and isinstance(hit.get("code"), str):
            Shell.overwrite_cmd = overwrite_shellcmd  # as the parser sets it
            linemap.update((int(k), int(v)) for k, v in hit["linemap"])
            return hit["code"], int(hit["rulecount"])
        code, after = original(path, workflow, linemap, overwrite_shellcmd, rulecount)
        startup_cache.put(key, {"code": code, "rulecount": after,
                                "linemap": sorted(linemap.items())})
        return code, after

    parse.gendermt_cached = True  # type: ignore[attr-defined]
    workflow_module.parse = parse
    return True
