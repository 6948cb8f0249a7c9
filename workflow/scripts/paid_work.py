import logging
import sys

from gendermt.data.io import logging_to
from gendermt.translation.cache import configured_dir
from gendermt.translation.paid_work import write


def say(line: str) -> None:
    # the statement on the terminal (stdout: the log takes stderr) and in the log
    print(f"gendermt: {line}", file=sys.stdout, flush=True)
    logging.getLogger("gendermt.paid_work").info("%s", line)


with logging_to(snakemake.log[0]):
    write(snakemake.params.jobs, configured_dir(snakemake.config), snakemake.output[0], say)
