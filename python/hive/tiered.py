"""hive.TieredTable: the two-level table (hive_tiered) for numpy arrays.

A CPU table of every key under a cache of copies of the keys used last, on
the GPU when there is one (docs/tiered.md).  64-bit keys and values, in
host memory whichever the hot tier's backend: the calls stage them for the
GPU themselves.  The top four key values are reserved: a batch holding one
skips it, processes the rest, and raises HiveError with status
ERROR_RESERVED_KEY (hive._lib explains such partial successes).
"""

import ctypes

import numpy as np

from . import _lib, arrays
from ._handle import BACKENDS, Handle, choice, configure

_PROMOTES = {"on_find": _lib.TieredPromote.ON_FIND, "never": _lib.TieredPromote.NEVER}


class TieredTable(Handle):
    """A dictionary of uint64 keys and values over a CPU table and a GPU cache of its hot keys.

    hot_capacity: entries of the hot tier (rounded up to whole buckets).
    cold_capacity: initial slots of the CPU table, which grows.  backend:
    the hot tier's, "cuda", "cpu" or "auto" (CUDA when a GPU of compute
    capability 9.0 or newer is present).  promote: "on_find" (a key found
    only in the CPU table gets a hot copy) or "never" (only upserts give
    keys copies).  Any other hive_tiered_config field may be given by name:
    promote_one_in=8, batch=1 << 20, threads=4, device=1, hash_seed=7 (a
    fixed seed for the hot tier's buckets; by default each table draws its
    own, and table.config.hash_seed reports it), write_back=1 (an upsert of
    a key with a hot copy writes the copy alone; docs/tiered.md),
    hot_dual_bucket=0 (one hot bucket a key instead of two).

    Every call takes host (numpy) arrays and `stream`, the CUDA stream that
    orders the hot tier's work (None: the default stream; see hive.arrays).
    """

    _destroy = _lib.hive_tiered_destroy

    def __init__(self, hot_capacity=1 << 20, cold_capacity=1 << 20, backend="auto", promote="on_find",
                 **options):
        config = _lib.tiered_config_init()
        config.hot_capacity = hot_capacity
        config.cold_capacity = cold_capacity
        config.hot_backend = choice(_lib.Backend, "backend", backend, BACKENDS)
        config.promote = choice(_lib.TieredPromote, "promote", promote, _PROMOTES)
        configure(config, options)
        super().__init__(_lib.hive_tiered_create, config)
        self.config = self._config()
        self.cuda = self.config.hot_backend == _lib.Backend.CUDA

    def _config(self):
        config = _lib.TieredConfig()
        _lib.check(_lib.hive_tiered_get_config(self._live(), ctypes.byref(config)))
        return config

    @staticmethod
    def _host(array, dtype, name, n=None):
        return arrays.argument(array, dtype, name, False, n)

    def upsert(self, keys, values, stream=None):
        """Inserts or assigns the pairs; a key repeated in the batch takes its last value."""
        keys = self._host(keys, np.uint64, "keys")
        n = arrays.rows(keys)
        values = self._host(values, np.uint64, "values", n)
        _lib.check(_lib.hive_tiered_upsert(self._live(), n, arrays.address(keys), arrays.address(values),
                                           arrays.stream_handle(stream)))

    def find(self, keys, stream=None):
        """(values, found): the value of each found key (0 for absent ones) and a boolean per key."""
        keys = self._host(keys, np.uint64, "keys")
        n = arrays.rows(keys)
        values, found = np.zeros(n, np.uint64), np.zeros(n, np.uint8)
        _lib.check(_lib.hive_tiered_find(self._live(), n, arrays.address(keys), arrays.address(values),
                                         arrays.address(found), arrays.stream_handle(stream)))
        return values, found.astype(bool)

    def erase(self, keys, stream=None):
        """Erases the keys; returns a hive.Result code per key (ERASED, NOT_FOUND, REJECTED_RESERVED)."""
        keys = self._host(keys, np.uint64, "keys")
        n = arrays.rows(keys)
        results = np.zeros(n, np.uint8)
        _lib.check(_lib.hive_tiered_erase(self._live(), n, arrays.address(keys), arrays.address(results),
                                          arrays.stream_handle(stream)))
        return results

    def size(self):
        """Live keys."""
        size = ctypes.c_uint64()
        _lib.check(_lib.hive_tiered_size(self._live(), ctypes.byref(size)))
        return size.value

    def __len__(self):
        return self.size()

    def __contains__(self, key):
        return bool(self.find(np.array([key], np.uint64))[1][0])

    def stats(self):
        """hive_tiered_stats as a dict: hot and cold sizes, hits of each tier, promoted, evicted."""
        stats = _lib.TieredStats()
        _lib.check(_lib.hive_tiered_stats_get(self._live(), ctypes.byref(stats)))
        return {name: getattr(stats, name) for name, _ in stats._fields_}
