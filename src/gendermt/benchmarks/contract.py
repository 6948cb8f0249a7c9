"""Kept for benchmark packages written outside the project, which import the contract from here
(``from gendermt.benchmarks.contract import Benchmark``): the contract lives in
:mod:`gendermt.core.contract`, and this name is that module. The project's own code imports it
from there."""

import sys

from gendermt.core import contract

sys.modules[__name__] = contract
