"""hive.Table: the dictionary (hive_table) for numpy arrays, or device arrays on a CUDA table.

Keys and values are uint32 for key_width=32 and uint64 for key_width=64.  The
top four key values of each width are reserved: a batch holding one skips
it, processes the rest, and raises HiveError with status
ERROR_RESERVED_KEY (hive._lib explains such partial successes).
"""

import ctypes

import numpy as np

from . import _lib, arrays
from ._handle import BACKENDS, Handle, choice, configure

_WIDTHS = {32: (_lib.KeyWidth.KV32, np.uint32), 64: (_lib.KeyWidth.KV64, np.uint64)}
_DESIGNS = {"hive": _lib.Design.HIVE, "double": _lib.Design.DOUBLE, "p2": _lib.Design.P2,
            "iceberg": _lib.Design.ICEBERG, "cuckoo": _lib.Design.CUCKOO, "chaining": _lib.Design.CHAINING,
            "double_m": _lib.Design.DOUBLE_M, "p2_m": _lib.Design.P2_M, "iceberg_m": _lib.Design.ICEBERG_M}
COMBINES = {"keep": _lib.Combine.KEEP, "assign": _lib.Combine.ASSIGN, "add": _lib.Combine.ADD,
            "min": _lib.Combine.MIN, "max": _lib.Combine.MAX}


class Table(Handle):
    """A hash table of unsigned integer keys and values that grows and shrinks as it fills.

    capacity: keys to make room for at once (hive_config.initial_capacity).
    key_width: 32 or 64.  backend: "cpu", "cuda" or "auto" (CUDA when a GPU
    is present).  design: "hive", "double", "p2", "iceberg", "cuckoo",
    "chaining", or a tagged variant "double_m", "p2_m", "iceberg_m" (docs/designs/).  Any other hive_config field may be given by
    name: max_load_factor=0.5, threads=4, hash_seed=7 (a fixed seed for the
    bucket hashes; by default each table draws its own, and
    table.config.hash_seed reports it), absent_filter_bits=8 (a CPU table's
    filter that answers finds of absent keys from one cache line).

    Every batch call takes `stream` (see hive.arrays); on a CPU table it is
    unused.  `results`, where a call takes it, is an optional uint8 output
    array of hive.Result codes, one per key.
    """

    _destroy = _lib.hive_destroy

    def __init__(self, capacity=1024, key_width=32, backend="auto", design="hive", **options):
        if key_width not in _WIDTHS:
            raise ValueError(f"key_width: expected 32 or 64, got {key_width!r}")
        config = _lib.config_init()
        config.initial_capacity = capacity
        config.key_width, self.dtype = _WIDTHS[key_width]
        config.backend = choice(_lib.Backend, "backend", backend, BACKENDS)
        config.design = choice(_lib.Design, "design", design, _DESIGNS)
        configure(config, options)
        super().__init__(_lib.hive_create, config)
        self.key_width = key_width
        self.config = self._config()
        self.cuda = self.config.backend == _lib.Backend.CUDA

    def _config(self):
        config = _lib.Config()
        _lib.check(_lib.hive_get_config(self._live(), ctypes.byref(config)))
        return config

    def _keys(self, keys):
        return arrays.argument(keys, self.dtype, "keys", self.cuda)

    def _output(self, given, keys, dtype, name):
        if given is None:
            return arrays.empty(keys, (arrays.rows(keys),), dtype, self.cuda)
        return arrays.output(given, dtype, name, self.cuda, arrays.rows(keys))

    def insert(self, keys, values, combine="assign", results=None, stream=None):
        """Inserts the pairs; a present key's value is combined: "keep", "assign", "add", "min" or "max"."""
        keys = self._keys(keys)
        n = arrays.rows(keys)
        values = arrays.argument(values, self.dtype, "values", self.cuda, n)
        mode = choice(_lib.Combine, "combine", combine, COMBINES)
        results = None if results is None else self._output(results, keys, np.uint8, "results")
        _lib.check(_lib.hive_insert(self._live(), n, arrays.address(keys), arrays.address(values), mode,
                                    arrays.address(results), arrays.stream_handle(stream)))

    def find(self, keys, stream=None):
        """(values, found): the value of each found key (0 for absent ones) and a boolean per key."""
        keys = self._keys(keys)
        values = self._output(None, keys, self.dtype, "values")
        found = self._output(None, keys, np.uint8, "found")
        _lib.check(_lib.hive_find(self._live(), arrays.rows(keys), arrays.address(keys), arrays.address(values),
                                  arrays.address(found), arrays.stream_handle(stream)))
        return values, arrays.as_bool(found, self.cuda)

    def contains(self, keys, stream=None):
        """A boolean per key."""
        keys = self._keys(keys)
        found = self._output(None, keys, np.uint8, "found")
        _lib.check(_lib.hive_contains(self._live(), arrays.rows(keys), arrays.address(keys),
                                      arrays.address(found), arrays.stream_handle(stream)))
        return arrays.as_bool(found, self.cuda)

    def erase(self, keys, results=None, stream=None):
        """Erases the keys (absent ones are no error); may shrink the table."""
        keys = self._keys(keys)
        results = None if results is None else self._output(results, keys, np.uint8, "results")
        _lib.check(_lib.hive_erase(self._live(), arrays.rows(keys), arrays.address(keys),
                                   arrays.address(results), arrays.stream_handle(stream)))

    def apply(self, ops, keys, values=None, combine="assign", results=None, stream=None):
        """A mixed batch: element i does ops[i] (hive.Op, uint8) on keys[i].  Returns the results.

        values is the input of INSERT and UPSERT elements and the output of
        FIND elements, written in place (absent keys leave it unchanged); it
        may be None when no element inserts.
        """
        keys = self._keys(keys)
        n = arrays.rows(keys)
        ops = arrays.argument(ops, np.uint8, "ops", self.cuda, n)
        if values is not None:
            values = arrays.output(values, self.dtype, "values", self.cuda, n)
        mode = choice(_lib.Combine, "combine", combine, COMBINES)
        results = self._output(results, keys, np.uint8, "results")
        _lib.check(_lib.hive_apply(self._live(), n, arrays.address(ops), arrays.address(keys),
                                   arrays.address(values), mode, arrays.address(results),
                                   arrays.stream_handle(stream)))
        return results

    def export(self, like=None, stream=None):
        """(keys, values) of every live pair, in no particular order.

        A CUDA table allocates them in the framework of `like` (any device
        array), CuPy when it is None.
        """
        count = ctypes.c_uint64(self.size())
        keys = arrays.empty(like, (count.value,), self.dtype, self.cuda)
        values = arrays.empty(like, (count.value,), self.dtype, self.cuda)
        _lib.check(_lib.hive_export(self._live(), count.value, arrays.address(keys), arrays.address(values),
                                    ctypes.byref(count), arrays.stream_handle(stream)))
        return keys[: count.value], values[: count.value]

    def size(self):
        """Live keys."""
        size = ctypes.c_uint64()
        _lib.check(_lib.hive_size(self._live(), ctypes.byref(size)))
        return size.value

    def __len__(self):
        return self.size()

    def __contains__(self, key):
        """`key in table` for one key, on a CPU table."""
        if self.cuda:
            raise TypeError("`in` looks up one host key: use contains() with a device array on a CUDA table")
        return bool(self.contains(np.array([key], dtype=self.dtype))[0])

    def stats(self):
        """hive_stats as a dict."""
        stats = _lib.Stats()
        _lib.check(_lib.hive_stats_get(self._live(), ctypes.byref(stats)))
        return {name: list(value) if name == "insert_steps" else value
                for name, value in ((name, getattr(stats, name)) for name, _ in stats._fields_)}

    def clear(self, stream=None):
        """Removes every key; keeps the capacity."""
        _lib.check(_lib.hive_clear(self._live(), arrays.stream_handle(stream)))

    def reserve(self, capacity, stream=None):
        """Grows the table so that `capacity` keys fit; never shrinks."""
        _lib.check(_lib.hive_reserve(self._live(), capacity, arrays.stream_handle(stream)))
