import numpy as np
import pytest

import hive

WIDTHS = {32: np.uint32, 64: np.uint64}
RESERVED = {32: 0xFFFFFFFC, 64: 0xFFFFFFFFFFFFFFFC}


DESIGNS = ["hive", "double", "p2", "iceberg", "cuckoo", "chaining", "double_m", "p2_m", "iceberg_m"]


@pytest.fixture(params=[(width, design) for design in DESIGNS for width in (32, 64)],
                ids=lambda p: f"kv{p[0]}-{p[1]}")
def table(request):
    """A small CPU table of each key width and design, so that the tests also make it grow."""
    width, design = request.param
    with hive.Table(capacity=64, key_width=width, backend="cpu", design=design, threads=2) as t:
        yield t


@pytest.fixture
def rng():
    return np.random.default_rng(28)
