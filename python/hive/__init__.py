"""hive: concurrent GPU hash tables, for numpy arrays on the CPU and CuPy/PyTorch arrays on the GPU.

hive.Table is the dictionary, hive.CacheTable the cache table, hive.TieredTable
the two-level table (a CPU table under a GPU cache of its hot keys); hive._lib is
the low layer that mirrors include/hive.h one to one.  A failed call raises
hive.HiveError, whose .status is a hive.Status.
"""

from ._lib import VERSION, HiveError, Op, Result, Status
from .cache import CacheTable
from .table import Table
from .tiered import TieredTable

__version__ = ".".join(map(str, VERSION))
__all__ = ["CacheTable", "HiveError", "Op", "Result", "Status", "Table", "TieredTable"]
