"""The ctypes structs of hive._lib have hive.h's layout: sizes and offsets from a C compiler."""

import ctypes
import os
import shutil
import subprocess

import pytest

from hive import _lib

INCLUDE = os.path.join(os.path.dirname(__file__), "..", "..", "include")
STRUCTS = {"hive_config": _lib.Config, "hive_cache_config": _lib.CacheConfig, "hive_stats": _lib.Stats,
           "hive_cache_filter": _lib.CacheFilter, "hive_async_status": _lib.AsyncStatus,
           "hive_tiered_config": _lib.TieredConfig, "hive_tiered_stats": _lib.TieredStats}


def test_sizes_on_lp64():
    assert ctypes.sizeof(_lib.Config) == 120
    assert ctypes.sizeof(_lib.CacheConfig) == 88
    assert ctypes.sizeof(_lib.CacheFilter) == 32
    assert ctypes.sizeof(_lib.TieredConfig) == 64
    assert ctypes.sizeof(_lib.TieredStats) == 64


def test_layout_matches_the_header(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not os.path.exists(os.path.join(INCLUDE, "hive.h")):
        pytest.skip("needs a C compiler and the source tree's include/hive.h")
    lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <hive.h>", "int main(void) {"]
    for name, struct in STRUCTS.items():
        lines.append(f'printf("{name} %zu\\n", sizeof({name}));')
        for field, _ in struct._fields_:
            lines.append(f'printf("{name}.{field} %zu\\n", offsetof({name}, {field}));')
    lines.append("return 0; }")
    source = tmp_path / "layout.c"
    source.write_text("\n".join(lines))
    subprocess.run([cc, "-std=c11", "-I", INCLUDE, str(source), "-o", str(tmp_path / "layout")], check=True)
    printed = dict(line.split() for line in subprocess.check_output([str(tmp_path / "layout")], text=True).splitlines())
    for name, struct in STRUCTS.items():
        assert int(printed[name]) == ctypes.sizeof(struct), name
        for field, _ in struct._fields_:
            assert int(printed[f"{name}.{field}"]) == getattr(struct, field).offset, f"{name}.{field}"


def test_config_init_is_accepted():
    config = _lib.config_init()
    config.backend = _lib.Backend.CPU
    table = ctypes.c_void_p()
    _lib.check(_lib.hive_create(ctypes.byref(config), ctypes.byref(table)))
    _lib.check(_lib.hive_destroy(table))


def test_init_matches_this_header_and_library():
    config, cache_config = _lib.config_init(), _lib.cache_config_init()
    tiered_config = _lib.tiered_config_init()
    assert (config.struct_size, config.version) == (ctypes.sizeof(_lib.Config), _lib.CONFIG_VERSION)
    assert (tiered_config.struct_size, tiered_config.version) == (ctypes.sizeof(_lib.TieredConfig),
                                                                  _lib.TIERED_CONFIG_VERSION)
    assert (cache_config.struct_size, cache_config.version) == (ctypes.sizeof(_lib.CacheConfig),
                                                                _lib.CACHE_CONFIG_VERSION)
    assert config.design == _lib.Design.HIVE and config.max_load_factor == 0.9
    assert _lib.library_version() == _lib.VERSION


def test_a_bad_config_raises_with_status_and_text():
    config = _lib.config_init()
    config.version = _lib.CONFIG_VERSION + 1
    with pytest.raises(_lib.HiveError) as caught:
        _lib.check(_lib.hive_create(ctypes.byref(config), ctypes.byref(ctypes.c_void_p())))
    assert caught.value.status == _lib.Status.ERROR_INVALID_ARGUMENT
    assert caught.value.detail and not caught.value.partial


def test_find_async_on_a_cpu_table_runs_before_returning():
    import numpy as np

    config = _lib.config_init()
    config.backend = _lib.Backend.CPU
    table = ctypes.c_void_p()
    _lib.check(_lib.hive_create(ctypes.byref(config), ctypes.byref(table)))
    keys = np.array([5, 6, 0xFFFFFFFE], np.uint32)
    _lib.check(_lib.hive_insert(table, 2, keys.ctypes.data, keys.ctypes.data, _lib.Combine.ASSIGN, None, None))
    values, found, status = np.zeros(3, np.uint32), np.zeros(3, np.uint8), _lib.AsyncStatus()
    _lib.check(_lib.hive_find_async(table, 3, keys.ctypes.data, values.ctypes.data, found.ctypes.data,
                                    ctypes.addressof(status), None))
    assert found.tolist() == [1, 1, 0] and values[:2].tolist() == [5, 6]
    assert status.words[_lib.ASYNC_RESERVED] == 1
    _lib.check(_lib.hive_destroy(table))


def test_insert_and_erase_async_on_a_cpu_table_count_in_the_status():
    import numpy as np

    config = _lib.config_init()
    config.backend = _lib.Backend.CPU
    table = ctypes.c_void_p()
    _lib.check(_lib.hive_create(ctypes.byref(config), ctypes.byref(table)))
    keys = np.array([5, 6, 5, 0xFFFFFFFE], np.uint32)
    values = np.array([1, 2, 3, 4], np.uint32)
    results, status = np.zeros(4, np.uint8), _lib.AsyncStatus()
    _lib.check(_lib.hive_insert_async(table, 4, keys.ctypes.data, values.ctypes.data, _lib.Combine.ADD,
                                      results.ctypes.data, ctypes.addressof(status), None))
    words = status.words
    assert (words[_lib.ASYNC_INSERTED], words[_lib.ASYNC_RESERVED], words[_lib.ASYNC_FULL]) == (2, 1, 0)
    _lib.check(_lib.hive_erase_async(table, 2, keys.ctypes.data, results.ctypes.data, ctypes.addressof(status),
                                     None))
    assert status.words[_lib.ASYNC_ERASED] == 2
    size = ctypes.c_uint64()
    _lib.check(_lib.hive_size(table, ctypes.byref(size)))
    assert size.value == 0
    _lib.check(_lib.hive_destroy(table))
