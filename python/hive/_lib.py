"""The low layer: include/hive.h one to one, through ctypes.

Every enum of the header is an IntEnum here, every struct a ctypes Structure
of the same layout (python/tests/test_layout.py checks it against a C
compiler), every function a ctypes function of the same name with its
argument and return types, and ``check`` turns a status other than
HIVE_SUCCESS into a HiveError.

Partial successes.  HIVE_ERROR_RESERVED_KEY and HIVE_ERROR_TABLE_FULL mean
that some keys were skipped and every other key was processed.  They raise
HiveError like any other failure (a skipped key is never silent), but the
call has happened: the table has changed, and every output array the call
was given, its per-key results among them, is filled.  ``HiveError.partial``
tells these two apart from failures that did nothing.
"""

import ctypes
import enum
import os

_here = os.path.dirname(os.path.abspath(__file__))
# The wheel ships libhive.so beside this file; HIVE_LIBRARY names another
# (a build tree's, say) to load instead.
_lib = ctypes.CDLL(os.environ.get("HIVE_LIBRARY") or os.path.join(_here, "libhive.so"))

VERSION = (0, 1, 0)

# ---------------------------------------------------------------- status


class Status(enum.IntEnum):
    SUCCESS = 0
    ERROR_INVALID_ARGUMENT = 1
    ERROR_RESERVED_KEY = 2
    ERROR_OUT_OF_MEMORY = 3
    ERROR_TABLE_FULL = 4
    ERROR_CUDA = 5
    ERROR_NO_DEVICE = 6
    ERROR_UNSUPPORTED = 7
    ERROR_INTERNAL = 8


_PARTIAL = (Status.ERROR_RESERVED_KEY, Status.ERROR_TABLE_FULL)


class HiveError(Exception):
    """A hive call returned ``status``; ``detail`` is hive_last_error()'s text."""

    def __init__(self, status, detail):
        self.status = Status(status)
        self.detail = detail
        self.partial = self.status in _PARTIAL
        text = hive_status_string(status).decode()
        super().__init__(f"{self.status.name} ({text}): {detail}" if detail else f"{self.status.name} ({text})")


def check(status):
    """Raises HiveError for any status but HIVE_SUCCESS (see the module's note on partial successes)."""
    if status != Status.SUCCESS:
        raise HiveError(status, hive_last_error().decode(errors="replace"))


# ---------------------------------------------------------------- config


class Backend(enum.IntEnum):
    AUTO = 0
    CUDA = 1
    CPU = 2


class KeyWidth(enum.IntEnum):
    KV32 = 1
    KV64 = 2


class Design(enum.IntEnum):
    HIVE = 0
    DOUBLE = 1
    P2 = 2
    ICEBERG = 3
    CUCKOO = 4
    CHAINING = 5
    DOUBLE_M = 6
    P2_M = 7
    ICEBERG_M = 8


KV32_RESERVED_MIN = 0xFFFFFFFC
KV64_RESERVED_MIN = 0xFFFFFFFFFFFFFFFC
CONFIG_VERSION = 4
HASH_SEED_RANDOM = 0xFFFFFFFFFFFFFFFF

# C enums are int-sized on every platform hive builds for.
_enum = ctypes.c_int


class Allocator(ctypes.Structure):
    """hive_allocator: left empty (the library's own) from Python."""

    _fields_ = [("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p), ("user", ctypes.c_void_p)]


class Config(ctypes.Structure):
    """hive_config."""

    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("version", ctypes.c_uint32),
        ("backend", _enum),
        ("device", ctypes.c_int),
        ("key_width", _enum),
        ("initial_capacity", ctypes.c_uint64),
        ("max_load_factor", ctypes.c_double),
        ("min_load_factor", ctypes.c_double),
        ("resize_batch", ctypes.c_uint32),
        ("max_evictions", ctypes.c_uint32),
        ("stash_fraction", ctypes.c_double),
        ("threads", ctypes.c_uint32),
        ("bucket_slots", ctypes.c_uint32),
        ("lanes_per_op", ctypes.c_uint32),
        ("design", _enum),
        ("hash_seed", ctypes.c_uint64),
        ("allocator", Allocator),
        ("absent_filter_bits", ctypes.c_uint32),
    ]


def config_init():
    """HIVE_CONFIG_INIT, as the library gives it (hive_config_init)."""
    config = Config()
    hive_config_init(ctypes.byref(config))
    return config


# ---------------------------------------------------------------- table

hive_stream = ctypes.c_void_p  # cudaStream_t; None = the default stream
_table_p = ctypes.c_void_p
_u64 = ctypes.c_uint64
_u64_p = ctypes.POINTER(ctypes.c_uint64)
_u8_p = ctypes.c_void_p  # uint8_t arrays travel as addresses, like every array
_array = ctypes.c_void_p


class Combine(enum.IntEnum):
    KEEP = 0
    ASSIGN = 1
    ADD = 2
    MIN = 3
    MAX = 4


class Op(enum.IntEnum):
    FIND = 0
    INSERT = 1
    UPSERT = 2
    ERASE = 3


class Result(enum.IntEnum):
    NONE = 0
    INSERTED = 1
    UPDATED = 2
    EXISTED = 3
    FOUND = 4
    NOT_FOUND = 5
    ERASED = 6
    REJECTED_RESERVED = 7
    REJECTED_FULL = 8
    EVICTED = 9
    REFUSED = 10


ASYNC_STATUS_WORDS = 16
ASYNC_INSERTED = 0
ASYNC_ERASED = 1
ASYNC_RESERVED = 2
ASYNC_FULL = 3
ASYNC_BAD_OPS = 4


class AsyncStatus(ctypes.Structure):
    """hive_async_status: an asynchronous call's counts, words[ASYNC_INSERTED] to words[ASYNC_BAD_OPS]."""

    _fields_ = [("words", ctypes.c_uint64 * ASYNC_STATUS_WORDS)]


class Stats(ctypes.Structure):
    """hive_stats."""

    _fields_ = [
        ("capacity", ctypes.c_uint64),
        ("size", ctypes.c_uint64),
        ("load_factor", ctypes.c_double),
        ("buckets", ctypes.c_uint64),
        ("bucket_slots", ctypes.c_uint32),
        ("lanes_per_op", ctypes.c_uint32),
        ("stash_capacity", ctypes.c_uint64),
        ("stash_size", ctypes.c_uint64),
        ("grows", ctypes.c_uint64),
        ("shrinks", ctypes.c_uint64),
        ("buckets_split", ctypes.c_uint64),
        ("buckets_merged", ctypes.c_uint64),
        ("evictions", ctypes.c_uint64),
        ("insert_steps", ctypes.c_uint64 * 4),
        ("bytes_held", ctypes.c_uint64),
        ("shrinks_undone", ctypes.c_uint64),
    ]


# ---------------------------------------------------------------- cache


class ScorePolicy(enum.IntEnum):
    LRU = 0
    LFU = 1
    EPOCH_LRU = 2
    EPOCH_LFU = 3
    CUSTOM = 4


class ValueType(enum.IntEnum):
    F32 = 0
    F64 = 1
    I32 = 2
    I64 = 3
    BYTES = 4


CACHE_CONFIG_VERSION = 3
CACHE_HBM_UNLIMITED = 2**64 - 1  # value_hbm_bytes: every value in device memory


class CacheConfig(ctypes.Structure):
    """hive_cache_config."""

    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("version", ctypes.c_uint32),
        ("backend", _enum),
        ("device", ctypes.c_int),
        ("capacity", ctypes.c_uint64),
        ("dim", ctypes.c_uint32),
        ("value_type", _enum),
        ("policy", _enum),
        ("bucket_slots", ctypes.c_uint32),
        ("dual_bucket", ctypes.c_uint32),
        ("threads", ctypes.c_uint32),
        ("value_hbm_bytes", ctypes.c_uint64),
        ("hash_seed", ctypes.c_uint64),
        ("allocator", Allocator),
    ]


def cache_config_init():
    """HIVE_CACHE_CONFIG_INIT, as the library gives it (hive_cache_config_init)."""
    config = CacheConfig()
    hive_cache_config_init(ctypes.byref(config))
    return config


def library_version():
    """(major, minor, patch) of the libhive loaded, which may differ from VERSION, this package's header's."""
    packed = hive_version()
    return packed // 10000, packed // 100 % 100, packed % 100


class CacheFilter(ctypes.Structure):
    """hive_cache_filter; CacheFilter(0, 0, 0, 2**64 - 1) selects every entry."""

    _fields_ = [
        ("key_mask", ctypes.c_uint64),
        ("key_pattern", ctypes.c_uint64),
        ("score_min", ctypes.c_uint64),
        ("score_max", ctypes.c_uint64),
    ]


# ---------------------------------------------------------------- two-level table


class TieredPromote(enum.IntEnum):
    ON_FIND = 0
    NEVER = 1


TIERED_CONFIG_VERSION = 4


class TieredConfig(ctypes.Structure):
    """hive_tiered_config."""

    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("version", ctypes.c_uint32),
        ("hot_backend", _enum),
        ("device", ctypes.c_int),
        ("hot_capacity", ctypes.c_uint64),
        ("cold_capacity", ctypes.c_uint64),
        ("promote", _enum),
        ("batch", ctypes.c_uint32),
        ("threads", ctypes.c_uint32),
        ("promote_one_in", ctypes.c_uint32),
        ("hash_seed", ctypes.c_uint64),
        ("write_back", ctypes.c_uint32),
        ("hot_dual_bucket", ctypes.c_uint32),
    ]


def tiered_config_init():
    """HIVE_TIERED_CONFIG_INIT, as the library gives it (hive_tiered_config_init)."""
    config = TieredConfig()
    hive_tiered_config_init(ctypes.byref(config))
    return config


class TieredStats(ctypes.Structure):
    """hive_tiered_stats."""

    _fields_ = [(name, ctypes.c_uint64) for name in ("hot_size", "cold_size", "hot_capacity", "hot_hits",
                                                     "cold_hits", "misses", "promoted", "evicted")]


_tiered_p = ctypes.c_void_p
_cache_p = ctypes.c_void_p
cache_write_fn = ctypes.CFUNCTYPE(ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
cache_read_fn = ctypes.CFUNCTYPE(ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)

# ---------------------------------------------------------------- functions

_status = ctypes.c_int
_P = ctypes.POINTER
_functions = {
    "hive_version": (ctypes.c_uint32, []),
    "hive_config_init": (None, [_P(Config)]),
    "hive_cache_config_init": (None, [_P(CacheConfig)]),
    "hive_status_string": (ctypes.c_char_p, [_status]),
    "hive_last_error": (ctypes.c_char_p, []),
    "hive_create": (_status, [_P(Config), _P(_table_p)]),
    "hive_destroy": (_status, [_table_p]),
    "hive_get_config": (_status, [_table_p, _P(Config)]),
    "hive_insert": (_status, [_table_p, _u64, _array, _array, _enum, _u8_p, hive_stream]),
    "hive_find": (_status, [_table_p, _u64, _array, _array, _u8_p, hive_stream]),
    "hive_contains": (_status, [_table_p, _u64, _array, _u8_p, hive_stream]),
    "hive_find_async": (_status, [_table_p, _u64, _array, _array, _u8_p, _array, hive_stream]),
    "hive_contains_async": (_status, [_table_p, _u64, _array, _u8_p, _array, hive_stream]),
    "hive_insert_async": (_status, [_table_p, _u64, _array, _array, _enum, _u8_p, _array, hive_stream]),
    "hive_erase_async": (_status, [_table_p, _u64, _array, _u8_p, _array, hive_stream]),
    "hive_apply_async": (_status, [_table_p, _u64, _u8_p, _array, _array, _enum, _u8_p, _array, hive_stream]),
    "hive_erase": (_status, [_table_p, _u64, _array, _u8_p, hive_stream]),
    "hive_apply": (_status, [_table_p, _u64, _u8_p, _array, _array, _enum, _u8_p, hive_stream]),
    "hive_size": (_status, [_table_p, _u64_p]),
    "hive_clear": (_status, [_table_p, hive_stream]),
    "hive_reserve": (_status, [_table_p, _u64, hive_stream]),
    "hive_export": (_status, [_table_p, _u64, _array, _array, _u64_p, hive_stream]),
    "hive_stats_get": (_status, [_table_p, _P(Stats)]),
    "hive_cache_create": (_status, [_P(CacheConfig), _P(_cache_p)]),
    "hive_cache_destroy": (_status, [_cache_p]),
    "hive_cache_get_config": (_status, [_cache_p, _P(CacheConfig)]),
    "hive_cache_insert_or_assign": (_status, [_cache_p, _u64, _array, _array, _array, _u8_p, hive_stream]),
    "hive_cache_insert_and_evict": (_status, [_cache_p, _u64, _array, _array, _array, _array, _array, _array,
                                              _u64_p, hive_stream]),
    "hive_cache_find": (_status, [_cache_p, _u64, _array, _array, _u8_p, _array, hive_stream]),
    "hive_cache_find_missed": (_status, [_cache_p, _u64, _array, _array, _array, _array, _array, _u64_p,
                                         hive_stream]),
    "hive_cache_contains": (_status, [_cache_p, _u64, _array, _u8_p, hive_stream]),
    "hive_cache_find_or_insert": (_status, [_cache_p, _u64, _array, _array, _array, _u8_p, hive_stream]),
    "hive_cache_assign": (_status, [_cache_p, _u64, _array, _array, _array, _u8_p, hive_stream]),
    "hive_cache_assign_values": (_status, [_cache_p, _u64, _array, _array, _u8_p, hive_stream]),
    "hive_cache_assign_scores": (_status, [_cache_p, _u64, _array, _array, _u8_p, hive_stream]),
    "hive_cache_accum_or_assign": (_status, [_cache_p, _u64, _array, _array, _u8_p, _array, _u8_p,
                                             hive_stream]),
    "hive_cache_erase": (_status, [_cache_p, _u64, _array, _u8_p, hive_stream]),
    "hive_cache_erase_if": (_status, [_cache_p, _P(CacheFilter), _u64_p, hive_stream]),
    "hive_cache_clear": (_status, [_cache_p, hive_stream]),
    "hive_cache_export": (_status, [_cache_p, _u64, _u64, _P(CacheFilter), _array, _array, _array, _u64_p,
                                    hive_stream]),
    "hive_cache_size": (_status, [_cache_p, _u64_p]),
    "hive_cache_capacity": (_status, [_cache_p, _u64_p]),
    "hive_cache_load_factor": (_status, [_cache_p, _P(ctypes.c_double)]),
    "hive_cache_set_epoch": (_status, [_cache_p, ctypes.c_uint32]),
    "hive_cache_save": (_status, [_cache_p, cache_write_fn, ctypes.c_void_p, _u64_p]),
    "hive_cache_load": (_status, [_cache_p, cache_read_fn, ctypes.c_void_p, _u64_p]),
    "hive_cache_save_fd": (_status, [_cache_p, ctypes.c_int, _u64_p]),
    "hive_cache_load_fd": (_status, [_cache_p, ctypes.c_int, _u64_p]),
    "hive_tiered_config_init": (None, [_P(TieredConfig)]),
    "hive_tiered_create": (_status, [_P(TieredConfig), _P(_tiered_p)]),
    "hive_tiered_destroy": (_status, [_tiered_p]),
    "hive_tiered_get_config": (_status, [_tiered_p, _P(TieredConfig)]),
    "hive_tiered_upsert": (_status, [_tiered_p, _u64, _array, _array, hive_stream]),
    "hive_tiered_find": (_status, [_tiered_p, _u64, _array, _array, _u8_p, hive_stream]),
    "hive_tiered_erase": (_status, [_tiered_p, _u64, _array, _u8_p, hive_stream]),
    "hive_tiered_size": (_status, [_tiered_p, _u64_p]),
    "hive_tiered_stats_get": (_status, [_tiered_p, _P(TieredStats)]),
}

for _name, (_restype, _argtypes) in _functions.items():
    _function = getattr(_lib, _name)
    _function.restype = _restype
    _function.argtypes = _argtypes
    globals()[_name] = _function
