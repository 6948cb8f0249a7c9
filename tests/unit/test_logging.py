"""Job logs (issue 18 item 18): a rerun appends, so the failed run's reason is kept."""

import logging

import pytest

from gendermt.data.io import logging_to


def test_a_rerun_appends_to_the_failed_runs_log(tmp_path):
    log_file = tmp_path / "logs" / "job.log"
    with pytest.raises(RuntimeError), logging_to(log_file):
        logging.getLogger("gendermt.test").warning("first attempt: the server is down")
        raise RuntimeError("GPU fell off the bus")
    with logging_to(log_file):
        logging.getLogger("gendermt.test").info("second attempt: done")
    text = log_file.read_text()
    assert text.count("==== run started") == 2
    first, second = text.split("==== run started")[1:]
    assert "the server is down" in first and "GPU fell off the bus" in first
    assert "second attempt: done" in second and "GPU fell off" not in second


def test_every_attempt_is_kept_though_the_log_is_deleted(tmp_path):
    """Issue 31 item 7: Snakemake deletes a job's log before each attempt (--retries too);
    `<log>.attempts` keeps every attempt's lines."""
    log_file = tmp_path / "logs" / "job.log"
    with pytest.raises(RuntimeError), logging_to(log_file):
        logging.getLogger("gendermt.test").warning("first attempt: ItemFailed x")
        raise RuntimeError("server down")
    log_file.unlink()  # what Snakemake does before the next attempt
    with logging_to(log_file):
        logging.getLogger("gendermt.test").info("second attempt: done")
    assert "first attempt" not in log_file.read_text()
    kept = (tmp_path / "logs" / "job.log.attempts").read_text()
    assert kept.count("==== run started") == 2
    assert kept.index("first attempt: ItemFailed x") < kept.index("server down") \
        < kept.index("second attempt: done")
