# A reproducible study of gender bias in machine translation.
# This file is the table of contents; the rules live in workflow/rules/.
from snakemake.utils import min_version

# pyproject's lower bound (tests/unit/test_snakemake_claims.py): an older Snakemake stops here,
# naming its version and this one (before 9.11 a touched script reran its jobs whatever
# profiles/default's rerun-triggers say; 9.11.0-9.11.2 need a cbc on PATH to schedule)
min_version("9.11.3")


# The embedded default, unless config files are named on the command line: a study config
# (with config/study/systems.yaml) then stands alone instead of adding to the default's
# benchmarks and systems.
if not workflow.overwrite_configfiles:

    configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/translate.smk"
include: "workflow/rules/score.smk"
# the rule file of every benchmark the config configures (gendermt.core.registry: a
# package with a contract.py), from its package wherever that is installed, named relative to
# this file (in a checkout src/gendermt/benchmarks/<package>/rules.smk, the rules' own path);
# a rule file reads its block with benchmark_spec("<name>")
for _benchmark in registry.configured(BENCHMARK_CONFIG):

    include: os.path.relpath(registry.rules_file(_benchmark), workflow.basedir)


include: "workflow/rules/scorecard.smk"
include: "workflow/rules/report.smk"


rule all:
    input:
        all_targets(),
    default_target: True
