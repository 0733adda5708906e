"""hive.CacheTable on the CPU backend: every method, eviction, save and load."""

import numpy as np
import pytest

import hive

DIM = 4


@pytest.fixture(params=[False, True], ids=["one-bucket", "dual-bucket"])
def cache(request):
    """16 buckets of 16 slots (one bucket) or 8 of 32 (dual); a fixed seed, so
    that which keys share a bucket, and whether one fills, is the same each run."""
    with hive.CacheTable(capacity=256, dim=DIM, backend="cpu", threads=2, dual_bucket=int(request.param),
                         hash_seed=7) as c:
        yield c


def rows(keys):
    """A value per key that names the key: row i is keys[i] in every element."""
    return np.repeat(np.asarray(keys, np.float32)[:, None], DIM, axis=1)


def keys(*values):
    return np.array(values, np.uint64)


def test_insert_find_contains(cache):
    cache.insert_or_assign(keys(1, 2, 3), rows([1, 2, 3]))
    values, found = cache.find(keys(2, 9))
    assert found.tolist() == [True, False]
    assert values[0].tolist() == [2] * DIM and values[1].tolist() == [0] * DIM
    assert cache.contains(keys(3, 4)).tolist() == [True, False]
    assert 1 in cache and len(cache) == 3


def test_find_returns_scores(cache):
    cache.insert_or_assign(keys(1), rows([1]))
    _, found, scores = cache.find(keys(1, 2), return_scores=True)
    assert found.tolist() == [True, False] and scores[0] > 0


def test_find_missed(cache):
    cache.insert_or_assign(keys(1, 3), rows([1, 3]))
    values, missed, indices = cache.find_missed(keys(1, 2, 3, 4))
    assert sorted(zip(missed.tolist(), indices.tolist())) == [(2, 1), (4, 3)]
    assert values[2].tolist() == [3] * DIM


def test_find_or_insert(cache):
    cache.insert_or_assign(keys(1), rows([1]))
    given = rows([7, 8])
    values, found = cache.find_or_insert(keys(1, 2), given)
    assert found.tolist() == [True, False]
    assert values[:, 0].tolist() == [1, 8] and given[0, 0] == 7
    assert cache.find(keys(2))[1].all()


def test_assign_family(cache):
    cache.insert_or_assign(keys(1), rows([1]))
    assert cache.assign(keys(1, 2), rows([5, 5])).tolist() == [True, False]
    assert cache.assign_values(keys(1), rows([6])).tolist() == [True]
    assert cache.assign_scores(keys(1, 2), keys(42, 42)).tolist() == [True, False]
    values, _, scores = cache.find(keys(1), return_scores=True)
    assert values[0, 0] == 6 and scores.tolist() == [42]
    assert 2 not in cache


def test_accum_or_assign(cache):
    cache.insert_or_assign(keys(1), rows([1]))
    results = np.zeros(4, np.uint8)
    cache.accum_or_assign(keys(1, 2, 3, 1), rows([10, 2, 3, 100]), np.array([1, 0, 1, 0], np.uint8),
                          results=results)
    assert results.tolist() == [hive.Result.UPDATED, hive.Result.INSERTED, hive.Result.NONE, hive.Result.NONE]
    values, found = cache.find(keys(1, 2, 3))
    assert found.tolist() == [True, True, False] and values[:, 0].tolist() == [11, 2, 0]


def test_erase_erase_if_clear(cache):
    cache.insert_or_assign(keys(1, 2, 3, 16, 17), rows([1, 2, 3, 16, 17]))
    results = np.zeros(2, np.uint8)
    cache.erase(keys(1, 9), results=results)
    assert results.tolist() == [hive.Result.ERASED, hive.Result.NOT_FOUND]
    assert cache.erase_if(key_mask=0xF0, key_pattern=0x10) == 2
    assert sorted(cache.export()[0].tolist()) == [2, 3]
    cache.clear()
    assert len(cache) == 0


def test_export_and_filter(cache):
    cache.insert_or_assign(keys(*range(1, 51)), rows(range(1, 51)))
    exported, values, scores = cache.export()
    assert sorted(exported.tolist()) == list(range(1, 51))
    assert (values[:, 0] == exported).all() and (scores > 0).all()
    assert sorted(cache.export(key_mask=1, key_pattern=1)[0].tolist()) == list(range(1, 51, 2))


def test_size_never_passes_capacity(cache, rng):
    for _ in range(20):
        batch = rng.integers(0, 1 << 40, size=100, dtype=np.uint64)
        cache.insert_or_assign(batch, rows(batch))
        assert cache.size() <= cache.capacity()
    assert 0 < cache.load_factor() <= 1


def test_insert_and_evict_conserves_entries(cache, rng):
    for _ in range(10):
        before = dict(zip(cache.export()[0].tolist(), cache.export()[1][:, 0].tolist()))
        batch = np.unique(rng.integers(0, 1 << 40, size=120, dtype=np.uint64))
        rng.shuffle(batch)
        evicted_keys, evicted_values, _ = cache.insert_and_evict(batch, rows(batch))
        after_keys, after_values, _ = cache.export()
        # Each value names its key, so a pair is its key.
        assert (after_values[:, 0] == after_keys.astype(np.float32)).all()
        assert (evicted_values[:, 0] == evicted_keys.astype(np.float32)).all()
        assert set(before) | set(batch.tolist()) == set(after_keys.tolist()) | set(evicted_keys.tolist())
        assert not set(after_keys.tolist()) & set(evicted_keys.tolist())
        assert cache.size() <= cache.capacity()


@pytest.mark.parametrize("policy", ["lfu", "custom"])
def test_scored_policies_take_scores(policy):
    with hive.CacheTable(capacity=64, dim=1, value_dtype=np.int64, policy=policy, backend="cpu") as c:
        c.insert_or_assign(keys(1, 2), np.array([10, 20]), scores=keys(5, 6))
        _, _, scores = c.find(keys(1, 2), return_scores=True)
        assert scores.tolist() == [5, 6]
        with pytest.raises(hive.HiveError) as caught:
            c.insert_or_assign(keys(3), np.array([30]))
        assert caught.value.status == hive.Status.ERROR_INVALID_ARGUMENT


def test_epoch_policy():
    with hive.CacheTable(capacity=64, policy="epoch_lru", backend="cpu") as c:
        c.set_epoch(7)
        c.insert_or_assign(keys(1), np.array([1.0], np.float32))
        assert c.find(keys(1), return_scores=True)[2][0] >> 32 == 7


def test_save_and_load(cache, tmp_path):
    """Whatever the cache holds goes to the file and comes back: 100 keys in
    16-slot buckets may fill one (a key then evicts another), so the count
    is the cache's own."""
    cache.insert_or_assign(keys(*range(1, 101)), rows(range(1, 101)))
    held = sorted(cache.export()[0].tolist())
    path = tmp_path / "cache.bin"
    assert cache.save(path) == len(held) == len(cache) >= 90
    with hive.CacheTable(capacity=4096, dim=DIM, backend="cpu") as copy:  # room to spare: none evicted
        with open(path, "rb") as file:
            assert copy.load(file) == len(held)
        exported, values, _ = copy.export()
        assert sorted(exported.tolist()) == held and (values[:, 0] == exported).all()


def test_load_of_a_foreign_dim_fails(cache, tmp_path):
    cache.insert_or_assign(keys(1), rows([1]))
    cache.save(tmp_path / "cache.bin")
    with hive.CacheTable(capacity=64, dim=DIM + 1, backend="cpu") as other, pytest.raises(hive.HiveError):
        other.load(tmp_path / "cache.bin")


def test_a_failing_file_raises_its_own_error(cache):
    class Broken:
        def write(self, data):
            raise OSError("disk full")

    cache.insert_or_assign(keys(1), rows([1]))
    with pytest.raises(OSError, match="disk full"):
        cache.save(Broken())


def test_bytes_values():
    with hive.CacheTable(capacity=64, dim=3, value_dtype=np.uint8, backend="cpu") as c:
        c.insert_or_assign(keys(1), np.array([[1, 2, 3]], np.uint8))
        assert c.find(keys(1))[0].tolist() == [[1, 2, 3]]


def test_dim_one_takes_flat_values():
    with hive.CacheTable(capacity=64, backend="cpu") as c:
        c.insert_or_assign(keys(1, 2), np.array([1.5, 2.5], np.float32))
        assert c.find(keys(2))[0].ravel().tolist() == [2.5]


def test_bad_input(cache):
    with pytest.raises(TypeError, match="keys: expected dtype uint64"):
        cache.find(np.array([1], np.uint32))
    with pytest.raises(TypeError, match="values: expected dtype float32"):
        cache.insert_or_assign(keys(1), np.zeros((1, DIM), np.float64))
    with pytest.raises(ValueError, match=r"values: expected shape \(n, 4\)"):
        cache.insert_or_assign(keys(1), np.zeros(DIM, np.float32))
    with pytest.raises(TypeError, match="value_dtype"):
        hive.CacheTable(capacity=64, value_dtype=np.float16, backend="cpu")
    with pytest.raises(ValueError, match="policy"):
        hive.CacheTable(capacity=64, policy="fifo", backend="cpu")


def test_reserved_key(cache):
    results = np.zeros(2, np.uint8)
    with pytest.raises(hive.HiveError) as caught:
        cache.insert_or_assign(keys(1, 2**64 - 1), rows([1, 1]), results=results)
    assert caught.value.status == hive.Status.ERROR_RESERVED_KEY and caught.value.partial
    assert results.tolist() == [hive.Result.INSERTED, hive.Result.REJECTED_RESERVED]


def test_closed_cache():
    c = hive.CacheTable(capacity=64, backend="cpu")
    c.close()
    with pytest.raises(ValueError, match="closed"):
        c.find(keys(1))


def test_value_hbm_bytes_budget():
    """value_hbm_bytes: rounded down to whole values, reported resolved; the values of both parts read back."""
    with hive.CacheTable(capacity=256, dim=DIM, backend="cpu", threads=2, value_hbm_bytes=100 * 16 + 9) as c:
        assert c.config.value_hbm_bytes == 100 * 16
        k = np.arange(1, 201, dtype=np.uint64)
        c.insert_or_assign(k, rows(k))
        values, found = c.find(k)
        assert found.sum() == len(c) and (values[found][:, 0] == k[found].astype(np.float32)).all()
    with hive.CacheTable(capacity=256, dim=DIM, backend="cpu") as c:
        assert c.config.value_hbm_bytes == c.config.capacity * DIM * 4
