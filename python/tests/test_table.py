"""hive.Table on the CPU backend: every method."""

import numpy as np
import pytest

import hive
from conftest import WIDTHS


def keys_of(table, values):
    return np.asarray(values, dtype=WIDTHS[table.key_width])


def test_insert_find_contains(table):
    keys = keys_of(table, np.arange(1000) * 7)
    table.insert(keys, keys + 1)
    assert len(table) == 1000
    values, found = table.find(keys_of(table, [0, 7, 8]))
    assert found.tolist() == [True, True, False]
    assert values.tolist() == [1, 8, 0]
    assert table.contains(keys_of(table, [14, 15])).tolist() == [True, False]
    assert 21 in table and 22 not in table


@pytest.mark.parametrize("combine, expected", [("keep", 5), ("assign", 3), ("add", 8), ("min", 3), ("max", 5)])
def test_combine_modes(table, combine, expected):
    table.insert(keys_of(table, [9]), keys_of(table, [5]))
    table.insert(keys_of(table, [9]), keys_of(table, [3]), combine=combine)
    assert table.find(keys_of(table, [9]))[0].tolist() == [expected]


def test_insert_results(table):
    table.insert(keys_of(table, [1]), keys_of(table, [1]))
    results = np.zeros(2, np.uint8)
    table.insert(keys_of(table, [1, 2]), keys_of(table, [5, 6]), combine="keep", results=results)
    assert results.tolist() == [hive.Result.EXISTED, hive.Result.INSERTED]


def test_erase(table):
    table.insert(keys_of(table, [1, 2, 3]), keys_of(table, [1, 2, 3]))
    results = np.zeros(2, np.uint8)
    table.erase(keys_of(table, [2, 4]), results=results)
    assert results.tolist() == [hive.Result.ERASED, hive.Result.NOT_FOUND]
    assert len(table) == 2 and 2 not in table


def test_apply(table):
    table.insert(keys_of(table, [1, 2]), keys_of(table, [10, 20]))
    ops = np.array([hive.Op.FIND, hive.Op.INSERT, hive.Op.UPSERT, hive.Op.ERASE], np.uint8)
    values = keys_of(table, [0, 30, 5, 0])
    results = table.apply(ops, keys_of(table, [1, 3, 2, 9]), values, combine="add")
    assert results.tolist() == [hive.Result.FOUND, hive.Result.INSERTED, hive.Result.UPDATED,
                                hive.Result.NOT_FOUND]
    assert values[0] == 10
    assert table.find(keys_of(table, [2, 3]))[0].tolist() == [25, 30]


def test_export(table):
    keys = keys_of(table, np.arange(500))
    table.insert(keys, keys * 3)
    exported_keys, exported_values = table.export()
    assert dict(zip(exported_keys.tolist(), exported_values.tolist())) == {k: 3 * k for k in range(500)}


def test_size_stats_clear_reserve(table):
    table.insert(keys_of(table, np.arange(300)), keys_of(table, np.arange(300)))
    stats = table.stats()
    assert stats["size"] == table.size() == 300
    assert stats["capacity"] >= 300 and len(stats["insert_steps"]) == 4
    table.reserve(100000)
    assert table.stats()["capacity"] >= 100000
    table.clear()
    assert len(table) == 0


def test_empty_batches(table):
    table.insert(keys_of(table, []), keys_of(table, []))
    values, found = table.find(keys_of(table, []))
    assert values.shape == found.shape == (0,)


def test_config_is_resolved(table):
    assert table.config.backend == hive._lib.Backend.CPU
    assert not table.cuda


@pytest.mark.parametrize("width", [32, 64])
def test_hash_seed(width):
    """A seed given by name is the table's, and the table works with it; the default draws one."""
    dtype = WIDTHS[width]
    keys = np.arange(1, 5001, dtype=dtype) * dtype(2654435761)
    with hive.Table(capacity=64, key_width=width, backend="cpu", hash_seed=7) as t:
        assert t.config.hash_seed == 7
        t.insert(keys, keys + dtype(1))  # grows the table: the splits hash with the seed too
        values, found = t.find(keys)
        assert found.all() and (values == keys + dtype(1)).all()
        t.erase(keys[:4900])  # and shrinks it
        values, found = t.find(keys)
        assert not found[:4900].any() and found[4900:].all() and (values[4900:] == keys[4900:] + dtype(1)).all()
    with hive.Table(backend="cpu") as a, hive.Table(backend="cpu") as b:
        assert a.config.hash_seed != b.config.hash_seed
        assert hive._lib.HASH_SEED_RANDOM not in (a.config.hash_seed, b.config.hash_seed)


@pytest.mark.parametrize("width", [32, 64])
def test_absent_filter(width):
    """A CPU table with an absent-key filter finds what it holds, through growth and shrinking, and nothing else."""
    dtype = WIDTHS[width]
    keys = np.arange(1, 20001, dtype=dtype) * dtype(2)  # even keys present, odd ones absent
    with hive.Table(capacity=64, key_width=width, backend="cpu", absent_filter_bits=8) as t:
        assert t.config.absent_filter_bits == 8
        t.insert(keys, keys + dtype(1))
        values, found = t.find(keys)
        assert found.all() and (values == keys + dtype(1)).all()
        assert not t.find(keys + dtype(1))[1].any()
        t.erase(keys[:19000])
        values, found = t.find(keys)
        assert not found[:19000].any() and found[19000:].all() and (values[19000:] == keys[19000:] + dtype(1)).all()
    with pytest.raises(hive.HiveError):
        hive.Table(backend="cpu", absent_filter_bits=3)


def test_context_manager_closes():
    with hive.Table(backend="cpu") as t:
        t.insert([1], [2])
    assert t.closed
    with pytest.raises(ValueError, match="closed"):
        t.size()
    t.close()  # twice is harmless
