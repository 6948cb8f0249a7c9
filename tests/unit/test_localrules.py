"""Which jobs a cluster run submits: only rules that load a model or call one (translation,
COMET/BERTScore, the LLM annotator/judge, WinoMT's tagger and aligner) go to SLURM; data,
inputs, per-run CPU scores, tables, figures and the scorecard are `localrules` (seconds each:
as sbatch jobs they would wait in the queue longer than they run). The real submissions on a
SLURM cluster are checked in tests/workflow/test_slurm.py."""

from __future__ import annotations

import re

from gendermt.core import registry

from ..conftest import ROOT

RULES = ROOT / "workflow" / "rules"
# the generic rules whose jobs need a node: they load or query a model (or, for COMET and
# BERTScore, a GPU); a benchmark's own are its contract's `node_rules` (WinoMT's tagger and
# aligner, the ConGA annotator, the GAMBIT judge); every other rule must be local
GENERIC_NODE_RULES = {"translate", "translate_sources", "comet", "bertscore"}
NODE_RULES = GENERIC_NODE_RULES | set(registry.node_rules())

def rules_and_localrules() -> tuple[set[str], set[str]]:
    rules, local = set(), set()
    for path in [ROOT / "Snakefile", *sorted(RULES.glob("*.smk")),
                 *sorted((ROOT / "src" / "gendermt" / "benchmarks").rglob("*.smk"))]:
        text = path.read_text(encoding="utf-8")
        # each rule's block, to the next top-level line; `localrule: True` inside it
        for name, body in re.findall(r"^rule (\w+):\n((?:[ \t]+.*\n|\n)*)", text, flags=re.M):
            rules.add(name)
            if re.search(r"^\s+localrule:\s*True", body, flags=re.M):
                local.add(name)
        for line in re.findall(r"^localrules:(.*)$", text, flags=re.M):
            local.update(name.strip() for name in line.split(",") if name.strip())
    return rules, local


def test_every_rule_is_local_or_needs_a_node():
    rules, local = rules_and_localrules()
    assert local <= rules, f"localrules names rules that do not exist: {local - rules}"
    assert rules >= NODE_RULES
    # `all` has no script: Snakemake never submits it
    undecided = rules - local - NODE_RULES - {"all"}
    assert not undecided, (f"rules neither local nor known to need a node: {undecided}; add "
                           "them to the localrules line of their file, or to their contract's "
                           "node_rules")
    assert not local & NODE_RULES


def test_the_slurm_profile_caps_the_local_jobs():
    import yaml

    profile = yaml.safe_load((ROOT / "profiles" / "slurm" / "config.yaml").read_text())
    assert profile["local-cores"] <= 2


def test_a_benchmarks_node_rules_are_its_own_and_sized_by_its_rules():
    """A contract's node rule is a rule of its own rule file that gives the contract's
    resources (`resources: **node_resources("<rule>")`), so no profile entry is needed."""
    for bench in registry.benchmarks():
        text = registry.rules_file(bench).read_text(encoding="utf-8")
        for rule in bench.node_rules:
            body = re.search(rf"^rule {rule}:\n((?:[ \t]+.*\n|\n)*)", text, flags=re.M)
            assert body, f"{bench.name}: node rule {rule} is not in {bench.rules}"
            assert f'**node_resources("{rule}")' in body.group(1), (
                f"{bench.rules}: rule {rule} does not take its contract's resources")
    resources = registry.node_resources("winomt_gender")
    assert [resources["runtime"]({}, a) for a in (1, 2)] == [60, 120]
    assert resources["mem_mb"]({}, 3) == 24000 and resources["cpus_per_task"] == 1
