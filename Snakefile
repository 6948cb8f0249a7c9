# A reproducible study of gender bias in machine translation.
# This file is the table of contents; the rules live in workflow/rules/.
from snakemake.utils import min_version

min_version("9.0")


# The embedded default, unless config files are named on the command line: a study config
# (with config/study/systems.yaml) then stands alone instead of adding to the default's
# benchmarks and systems.
if not workflow.overwrite_configfiles:

    configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/translate.smk"
include: "workflow/rules/translate_sources.smk"
include: "workflow/rules/score.smk"
include: "workflow/rules/fairtranslate.smk"
include: "workflow/rules/gate_x_e.smk"
include: "workflow/rules/gate.smk"
include: "workflow/rules/conga.smk"
include: "workflow/rules/neogate.smk"
include: "workflow/rules/neogate_flores.smk"
include: "workflow/rules/winomt.smk"
include: "workflow/rules/gambit.smk"
include: "workflow/rules/scorecard.smk"
include: "workflow/rules/report.smk"


rule all:
    input:
        all_targets(),
    default_target: True
