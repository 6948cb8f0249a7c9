"""Arrow arrays built from their buffers, for jobs that write Parquet without pandas.

pyarrow imports pandas (its pandas shim, about 0.2 s of CPU) the first time it converts any
Python object (``pa.array``, ``pa.table`` of lists, even ``pa.scalar``); building an array
from buffers does not. The arrays are the ones that conversion gives for the same values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyarrow as pa


def strings(values: Sequence[str]) -> pa.Array:
    """``large_string`` (what pandas 3 writes for text), no nulls."""
    encoded = [v.encode("utf-8") for v in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    return pa.Array.from_buffers(pa.large_string(), len(encoded),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


def floats(values: Sequence[float | None]) -> pa.Array:
    """``double``, with None and NaN as nulls (as pandas' ``to_parquet`` writes NaN)."""
    data = np.array([math.nan if v is None else v for v in values], dtype=np.float64)
    valid = ~np.isnan(data)
    if valid.all():
        return pa.Array.from_buffers(pa.float64(), len(data), [None, pa.py_buffer(data)])
    data[~valid] = 0.0
    bitmap = np.packbits(valid, bitorder="little")
    return pa.Array.from_buffers(pa.float64(), len(data),
                                 [pa.py_buffer(bitmap), pa.py_buffer(data)],
                                 null_count=int((~valid).sum()))
