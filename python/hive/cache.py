"""hive.CacheTable: the cache table (hive_cache) for numpy arrays, or device arrays on a CUDA table.

Keys are uint64 (the top four values reserved, as for hive.Table); a value
is `dim` elements of `value_dtype`, so value arrays are (n, dim), or (n,)
when dim is 1; scores are uint64.  The cache never grows: a new key that
meets a full bucket evicts the entry of lowest score there, or is refused
if its own score is lower still.  Scores are passed for the "lfu",
"epoch_lfu" and "custom" policies and left out (None) for "lru" and
"epoch_lru".
"""

import ctypes
import os

import numpy as np

from . import _lib, arrays
from ._handle import BACKENDS, Handle, choice, configure

_POLICIES = {"lru": _lib.ScorePolicy.LRU, "lfu": _lib.ScorePolicy.LFU, "epoch_lru": _lib.ScorePolicy.EPOCH_LRU,
             "epoch_lfu": _lib.ScorePolicy.EPOCH_LFU, "custom": _lib.ScorePolicy.CUSTOM}
# uint8 values are opaque bytes: dim is then the bytes per value.
_VALUE_TYPES = {np.dtype(np.float32): _lib.ValueType.F32, np.dtype(np.float64): _lib.ValueType.F64,
                np.dtype(np.int32): _lib.ValueType.I32, np.dtype(np.int64): _lib.ValueType.I64,
                np.dtype(np.uint8): _lib.ValueType.BYTES}
_KEY = np.uint64
_SCORE = np.uint64


def _filter(key_mask, key_pattern, score_min, score_max):
    return _lib.CacheFilter(key_mask, key_pattern, score_min, score_max)


class CacheTable(Handle):
    """A fixed-capacity cache of uint64 keys to (dim,) values with a score each.

    capacity: entries (rounded up to whole buckets).  policy: "lru", "lfu",
    "epoch_lru", "epoch_lfu" or "custom".  backend: "cpu", "cuda" or "auto".
    Any other hive_cache_config field may be given by name: dual_bucket=1.
    `stream` and `results` are as for hive.Table.
    """

    _destroy = _lib.hive_cache_destroy

    def __init__(self, capacity=1 << 20, dim=1, value_dtype=np.float32, policy="lru", backend="auto", **options):
        dtype = np.dtype(value_dtype)
        if dtype not in _VALUE_TYPES:
            raise TypeError(f"value_dtype: expected one of {sorted(t.name for t in _VALUE_TYPES)}, got {dtype.name}")
        config = _lib.cache_config_init()
        config.capacity = capacity
        config.dim = dim
        config.value_type = _VALUE_TYPES[dtype]
        config.policy = choice(_lib.ScorePolicy, "policy", policy, _POLICIES)
        config.backend = choice(_lib.Backend, "backend", backend, BACKENDS)
        configure(config, options)
        super().__init__(_lib.hive_cache_create, config)
        self.dim = dim
        self.value_dtype = dtype
        self.config = _lib.CacheConfig()
        _lib.check(_lib.hive_cache_get_config(self._live(), ctypes.byref(self.config)))
        self.cuda = self.config.backend == _lib.Backend.CUDA

    # ------------------------------------------------------------ arrays of a call

    def _keys(self, keys):
        return arrays.argument(keys, _KEY, "keys", self.cuda)

    def _values(self, values, n, name="values"):
        return arrays.argument(values, self.value_dtype, name, self.cuda, n, self.dim)

    def _scores(self, scores, n):
        return None if scores is None else arrays.argument(scores, _SCORE, "scores", self.cuda, n)

    def _results(self, results, n):
        return None if results is None else arrays.output(results, np.uint8, "results", self.cuda, n)

    def _new(self, like, n, dtype, dim=None):
        return arrays.empty(like, (n,) if dim is None else (n, dim), dtype, self.cuda)

    def _new_values(self, like, n):
        return self._new(like, n, self.value_dtype, self.dim)

    # ------------------------------------------------------------ writers

    def insert_or_assign(self, keys, values, scores=None, results=None, stream=None):
        """Upsert: a present key takes the value, a new one is stored, evicting or refused when its bucket is full."""
        keys = self._keys(keys)
        n = arrays.rows(keys)
        values, scores, results = self._values(values, n), self._scores(scores, n), self._results(results, n)
        _lib.check(_lib.hive_cache_insert_or_assign(self._live(), n, arrays.address(keys), arrays.address(values),
                                                    arrays.address(scores), arrays.address(results),
                                                    arrays.stream_handle(stream)))

    def insert_and_evict(self, keys, values, scores=None, stream=None):
        """As insert_or_assign; returns (keys, values, scores) of the entries that left and the keys refused."""
        keys = self._keys(keys)
        n = arrays.rows(keys)
        values, scores = self._values(values, n), self._scores(scores, n)
        out_keys, out_values, out_scores = self._new(keys, n, _KEY), self._new_values(keys, n), self._new(keys, n, _SCORE)
        count = ctypes.c_uint64()
        _lib.check(_lib.hive_cache_insert_and_evict(
            self._live(), n, arrays.address(keys), arrays.address(values), arrays.address(scores),
            arrays.address(out_keys), arrays.address(out_values), arrays.address(out_scores), ctypes.byref(count),
            arrays.stream_handle(stream)))
        return out_keys[: count.value], out_values[: count.value], out_scores[: count.value]

    def find_or_insert(self, keys, values, scores=None, stream=None):
        """(values, found): a present key's stored value; an absent key is inserted with the given one.

        The arrays passed are not changed: the values returned are a copy
        that the call wrote.
        """
        keys = self._keys(keys)
        n = arrays.rows(keys)
        values = arrays.copy(self._values(values, n), self.cuda)
        scores = None if scores is None else arrays.copy(self._scores(scores, n), self.cuda)
        found = self._new(keys, n, np.uint8)
        _lib.check(_lib.hive_cache_find_or_insert(self._live(), n, arrays.address(keys), arrays.address(values),
                                                  arrays.address(scores), arrays.address(found),
                                                  arrays.stream_handle(stream)))
        return values, arrays.as_bool(found, self.cuda)

    def assign(self, keys, values, scores=None, stream=None):
        """Present keys take the value, and the score by the policy; returns found per key."""
        keys = self._keys(keys)
        n = arrays.rows(keys)
        values, scores, found = self._values(values, n), self._scores(scores, n), self._new(keys, n, np.uint8)
        _lib.check(_lib.hive_cache_assign(self._live(), n, arrays.address(keys), arrays.address(values),
                                          arrays.address(scores), arrays.address(found),
                                          arrays.stream_handle(stream)))
        return arrays.as_bool(found, self.cuda)

    def assign_values(self, keys, values, stream=None):
        """Present keys take the value; their scores stay.  Returns found per key."""
        keys = self._keys(keys)
        n = arrays.rows(keys)
        values, found = self._values(values, n), self._new(keys, n, np.uint8)
        _lib.check(_lib.hive_cache_assign_values(self._live(), n, arrays.address(keys), arrays.address(values),
                                                 arrays.address(found), arrays.stream_handle(stream)))
        return arrays.as_bool(found, self.cuda)

    def assign_scores(self, keys, scores, stream=None):
        """Present keys take the score as given, whatever the policy.  Returns found per key."""
        keys = self._keys(keys)
        n = arrays.rows(keys)
        scores = arrays.argument(scores, _SCORE, "scores", self.cuda, n)
        found = self._new(keys, n, np.uint8)
        _lib.check(_lib.hive_cache_assign_scores(self._live(), n, arrays.address(keys), arrays.address(scores),
                                                 arrays.address(found), arrays.stream_handle(stream)))
        return arrays.as_bool(found, self.cuda)

    def accum_or_assign(self, keys, values, accum_flags, scores=None, results=None, stream=None):
        """Flag true and key present: value += values[i].  Flag false and key absent: insert.  Else nothing."""
        keys = self._keys(keys)
        n = arrays.rows(keys)
        values, scores, results = self._values(values, n), self._scores(scores, n), self._results(results, n)
        flags = arrays.argument(accum_flags, np.uint8, "accum_flags", self.cuda, n)
        _lib.check(_lib.hive_cache_accum_or_assign(self._live(), n, arrays.address(keys), arrays.address(values),
                                                   arrays.address(flags), arrays.address(scores),
                                                   arrays.address(results), arrays.stream_handle(stream)))

    def erase(self, keys, results=None, stream=None):
        keys = self._keys(keys)
        n = arrays.rows(keys)
        results = self._results(results, n)
        _lib.check(_lib.hive_cache_erase(self._live(), n, arrays.address(keys), arrays.address(results),
                                         arrays.stream_handle(stream)))

    def erase_if(self, key_mask=0, key_pattern=0, score_min=0, score_max=2**64 - 1, stream=None):
        """Erases the entries whose key has key_pattern in the bits of key_mask and whose
        score is in [score_min, score_max] (by default, all); returns how many."""
        erased = ctypes.c_uint64()
        selected = _filter(key_mask, key_pattern, score_min, score_max)
        _lib.check(_lib.hive_cache_erase_if(self._live(), ctypes.byref(selected), ctypes.byref(erased),
                                            arrays.stream_handle(stream)))
        return erased.value

    def clear(self, stream=None):
        _lib.check(_lib.hive_cache_clear(self._live(), arrays.stream_handle(stream)))

    def set_epoch(self, epoch):
        """The epoch the epoch_* policies put in a score's high word."""
        _lib.check(_lib.hive_cache_set_epoch(self._live(), epoch))

    # ------------------------------------------------------------ readers

    def find(self, keys, return_scores=False, stream=None):
        """(values, found), and the stored scores when return_scores; absent keys read 0."""
        keys = self._keys(keys)
        n = arrays.rows(keys)
        values, found = self._new_values(keys, n), self._new(keys, n, np.uint8)
        scores = self._new(keys, n, _SCORE) if return_scores else None
        _lib.check(_lib.hive_cache_find(self._live(), n, arrays.address(keys), arrays.address(values),
                                        arrays.address(found), arrays.address(scores), arrays.stream_handle(stream)))
        found = arrays.as_bool(found, self.cuda)
        return (values, found, scores) if return_scores else (values, found)

    def find_missed(self, keys, stream=None):
        """(values, missed_keys, missed_indices): values of the found keys, and the others with their positions."""
        keys = self._keys(keys)
        n = arrays.rows(keys)
        values, missed, indices = self._new_values(keys, n), self._new(keys, n, _KEY), self._new(keys, n, np.uint64)
        count = ctypes.c_uint64()
        _lib.check(_lib.hive_cache_find_missed(self._live(), n, arrays.address(keys), arrays.address(values), None,
                                               arrays.address(missed), arrays.address(indices), ctypes.byref(count),
                                               arrays.stream_handle(stream)))
        return values, missed[: count.value], indices[: count.value]

    def contains(self, keys, stream=None):
        keys = self._keys(keys)
        n = arrays.rows(keys)
        found = self._new(keys, n, np.uint8)
        _lib.check(_lib.hive_cache_contains(self._live(), n, arrays.address(keys), arrays.address(found),
                                            arrays.stream_handle(stream)))
        return arrays.as_bool(found, self.cuda)

    def __contains__(self, key):
        """`key in cache` for one key, on a CPU table."""
        if self.cuda:
            raise TypeError("`in` looks up one host key: use contains() with a device array on a CUDA table")
        return bool(self.contains(np.array([key], dtype=_KEY))[0])

    def export(self, key_mask=0, key_pattern=0, score_min=0, score_max=2**64 - 1, like=None, stream=None):
        """(keys, values, scores) of the entries the filter selects (by default, all), in no particular order.

        One call over every slot, so the arrays it fills are capacity() rows
        long; a CUDA table allocates them in the framework of `like`.
        """
        slots = self.capacity()
        keys, values, scores = self._new(like, slots, _KEY), self._new_values(like, slots), self._new(like, slots, _SCORE)
        count = ctypes.c_uint64()
        selected = _filter(key_mask, key_pattern, score_min, score_max)
        _lib.check(_lib.hive_cache_export(self._live(), 0, slots, ctypes.byref(selected), arrays.address(keys),
                                          arrays.address(values), arrays.address(scores), ctypes.byref(count),
                                          arrays.stream_handle(stream)))
        return keys[: count.value], values[: count.value], scores[: count.value]

    def size(self):
        """Live entries."""
        size = ctypes.c_uint64()
        _lib.check(_lib.hive_cache_size(self._live(), ctypes.byref(size)))
        return size.value

    def __len__(self):
        return self.size()

    def capacity(self):
        """Slots: the most entries it holds."""
        capacity = ctypes.c_uint64()
        _lib.check(_lib.hive_cache_capacity(self._live(), ctypes.byref(capacity)))
        return capacity.value

    def load_factor(self):
        load_factor = ctypes.c_double()
        _lib.check(_lib.hive_cache_load_factor(self._live(), ctypes.byref(load_factor)))
        return load_factor.value

    # ------------------------------------------------------------ save and load

    def save(self, file):
        """Writes every entry to `file` (a path, or a binary file object); returns how many."""
        return _stream_entries(file, "wb", self._save)

    def load(self, file):
        """Inserts every entry saved in `file` (a path, or a binary file object) with its saved score;
        returns how many were read."""
        return _stream_entries(file, "rb", self._load)

    def _save(self, stream):
        def write(context, data, size):
            return stream.write(ctypes.string_at(data, size))

        return _call_through(_lib.hive_cache_save, self._live(), _lib.cache_write_fn, write)

    def _load(self, stream):
        def read(context, data, size):
            chunk = stream.read(size)
            ctypes.memmove(data, chunk, len(chunk))
            return len(chunk)

        return _call_through(_lib.hive_cache_load, self._live(), _lib.cache_read_fn, read)


def _stream_entries(file, mode, transfer):
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, mode) as stream:
            return transfer(stream)
    return transfer(file)


def _call_through(function, handle, function_type, callback):
    """Calls save or load with a Python callback; an exception the callback raised is raised again here
    (the C side sees a short transfer and fails the call)."""
    raised = []

    def guarded(context, data, size):
        try:
            return callback(context, data, size)
        except BaseException as exc:  # re-raised below, once C has returned
            raised.append(exc)
            return 0

    count = ctypes.c_uint64()
    status = function(handle, function_type(guarded), None, ctypes.byref(count))
    if raised:
        raise raised[0]
    _lib.check(status)
    return count.value
