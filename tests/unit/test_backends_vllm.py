"""vllm is an optional extra for GPU machines, not installed here: its settings are
checked, and a job on a machine without it stops with a message saying what to do."""

import importlib.util

import pytest

from gendermt.core.backends import check_system
from gendermt.core.errors import GenderMTError, MissingResourceError
from gendermt.translation.backends import build_backend, system_gpus


def test_settings_are_those_of_hf_causal_plus_tensor_parallelism():
    settings = {"backend": "vllm", "model": "meta-llama/Llama-3.3-70B-Instruct",
                "revision": "main", "temperature": 0, "top_p": 1.0, "max_new_tokens": 256,
                "dtype": "bfloat16", "tensor_parallel_size": 2, "gpus": 2, "batch_size": 64}
    check_system(settings)
    assert system_gpus({"backend": "vllm", "model": "m"}) == 1
    with pytest.raises(GenderMTError, match="tensor_parallel_size must be at least 1"):
        check_system({"backend": "vllm", "model": "m", "tensor_parallel_size": 0})
    with pytest.raises(GenderMTError, match="dtype must be one of"):
        check_system({"backend": "vllm", "model": "m", "dtype": "fp8"})


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="vllm is installed")
def test_without_vllm_the_job_says_how_to_get_it():
    with pytest.raises(MissingResourceError, match=r"pip install 'gendermt\[vllm\]'.*hf-causal"):
        build_backend({"backend": "vllm", "model": "m"}, None)
