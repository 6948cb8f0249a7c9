# A reproducible study of gender bias in machine translation.
# This file is the table of contents; the rules live in workflow/rules/.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/translate.smk"
include: "workflow/rules/score.smk"
include: "workflow/rules/fairtranslate.smk"
include: "workflow/rules/winomt.smk"


rule all:
    input:
        all_targets(),
    default_target: True
