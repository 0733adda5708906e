"""hive.TieredTable with a CPU hot tier: every method, against a dict after every call, and bad input."""

import numpy as np
import pytest

import hive

RESERVED = 0xFFFFFFFFFFFFFFFC


def keys(*values):
    return np.array(values, np.uint64)


@pytest.fixture
def tiered():
    with hive.TieredTable(hot_capacity=64, cold_capacity=256, backend="cpu", threads=2) as t:
        yield t


def test_upsert_find_erase(tiered):
    tiered.upsert(keys(1, 2, 3, 2), keys(10, 20, 30, 21))  # a repeat: the last value wins
    values, found = tiered.find(keys(2, 9, 3))
    assert found.tolist() == [True, False, True] and values.tolist() == [21, 0, 30]
    assert tiered.erase(keys(1, 9)).tolist() == [hive.Result.ERASED, hive.Result.NOT_FOUND]
    assert len(tiered) == 2 and 3 in tiered and 1 not in tiered


def test_hash_seed():
    with hive.TieredTable(backend="cpu", hot_capacity=64) as a, hive.TieredTable(backend="cpu", hot_capacity=64) as b:
        assert a.config.hash_seed != b.config.hash_seed  # drawn per table
    with hive.TieredTable(backend="cpu", hot_capacity=64, hash_seed=7) as t:
        assert t.config.hash_seed == 7


def test_config_and_stats(tiered):
    assert tiered.config.hot_backend == hive._lib.Backend.CPU and not tiered.cuda
    assert tiered.config.hot_capacity >= 64 and tiered.config.threads == 2
    tiered.upsert(np.arange(1, 1001, dtype=np.uint64), np.arange(1, 1001, dtype=np.uint64))
    tiered.find(np.arange(1, 1001, dtype=np.uint64))
    stats = tiered.stats()
    assert stats["cold_size"] == 1000 == len(tiered)  # every key is in the CPU table
    assert 0 < stats["hot_size"] <= stats["hot_capacity"] and stats["evicted"] > 0
    assert stats["hot_hits"] + stats["cold_hits"] == 1000 and stats["promoted"] == stats["cold_hits"]


@pytest.mark.parametrize("promote, one_in, write_back, dual", [("on_find", 1, 0, 1), ("on_find", 4, 0, 1),
                                                            ("never", 1, 0, 1), ("on_find", 1, 1, 1),
                                                            ("never", 1, 1, 1), ("on_find", 1, 1, 0)])
def test_against_a_dict(promote, one_in, write_back, dual):
    """Zipf-like random calls over 2000 keys (a hot tier of 64), the table checked after every call."""
    rng = np.random.default_rng(7)
    universe = np.unique(rng.integers(1, RESERVED, 2100, dtype=np.uint64))[:2000]
    rng.shuffle(universe)
    weights = 1.0 / np.arange(1, universe.size + 1)
    weights /= weights.sum()
    model = {}
    with hive.TieredTable(hot_capacity=64, cold_capacity=128, backend="cpu", threads=2, batch=256,
                          promote=promote, promote_one_in=one_in, write_back=write_back,
                          hot_dual_bucket=dual) as t:
        for call in range(150):
            n = int(rng.integers(1, 700))
            batch = rng.choice(universe, n, p=weights)
            kind = rng.integers(3)
            if kind == 0:
                values = rng.integers(0, 2**64, n, dtype=np.uint64)
                t.upsert(batch, values)
                model.update(zip(batch.tolist(), values.tolist()))
            elif kind == 1:
                values, found = t.find(batch)
                assert found.tolist() == [k in model for k in batch.tolist()], call
                assert values.tolist() == [model.get(k, 0) for k in batch.tolist()], call
            else:
                results = t.erase(batch)
                erased = [k for k in dict.fromkeys(batch.tolist()) if k in model]
                assert int((results == hive.Result.ERASED).sum()) == len(erased), call
                for k in erased:
                    del model[k]
            assert len(t) == len(model), call
        values, found = t.find(universe)
        assert found.tolist() == [k in model for k in universe.tolist()]
        assert values.tolist() == [model.get(k, 0) for k in universe.tolist()]
        if promote == "never":
            assert t.stats()["promoted"] == 0


def test_reserved_keys_raise_after_the_rest_is_done(tiered):
    with pytest.raises(hive.HiveError) as caught:
        tiered.upsert(keys(5, RESERVED), keys(50, 1))
    assert caught.value.status == hive.Status.ERROR_RESERVED_KEY and caught.value.partial
    assert tiered.find(keys(5))[0].tolist() == [50] and len(tiered) == 1
    with pytest.raises(hive.HiveError):
        tiered.find(keys(RESERVED, 5))
    with pytest.raises(hive.HiveError) as caught:
        tiered.erase(keys(RESERVED))
    assert caught.value.status == hive.Status.ERROR_RESERVED_KEY


def test_bad_arrays(tiered):
    with pytest.raises(TypeError):
        tiered.upsert(np.array([1], np.uint32), keys(1))
    with pytest.raises(ValueError):
        tiered.upsert(keys(1, 2), keys(1))
    with pytest.raises(ValueError):
        tiered.find(np.zeros((2, 2), np.uint64))


@pytest.mark.parametrize("options, error", [({"backend": "tpu"}, ValueError), ({"promote": "always"}, ValueError),
                                            ({"buckets": 4}, TypeError)])
def test_bad_constructor_arguments(options, error):
    with pytest.raises(error):
        hive.TieredTable(**options)


def test_bad_config_values_raise_hive_error():
    with pytest.raises(hive.HiveError) as caught:
        hive.TieredTable(hot_capacity=0, backend="cpu")
    assert caught.value.status == hive.Status.ERROR_INVALID_ARGUMENT and caught.value.detail


def test_closed(tiered):
    tiered.close()
    tiered.close()
    with pytest.raises(ValueError):
        tiered.find(keys(1))
