"""hive.Table and hive.CacheTable on the CUDA backend with CuPy arrays and PyTorch tensors, and
hive.TieredTable with its hot tier on the GPU (host arrays).

Skipped without a GPU reachable through CuPy or PyTorch, unless
HIVE_REQUIRE_GPU=1 (as for the C tests), which makes that a failure.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import hive


def _framework(name):
    """(module, zeros-like array constructor) of a framework that sees a GPU, or None."""
    try:
        if name == "cupy":
            import cupy

            cupy.cuda.runtime.getDeviceCount()
            return cupy, lambda values, dtype: cupy.asarray(np.asarray(values, dtype))
        import torch

        if not torch.cuda.is_available():
            return None
        return torch, lambda values, dtype: torch.from_numpy(np.asarray(values, dtype)).cuda()
    except Exception:  # not installed, or no GPU behind it
        return None


FRAMEWORKS = {name: found for name in ("cupy", "torch") if (found := _framework(name))}
if not FRAMEWORKS:
    if os.environ.get("HIVE_REQUIRE_GPU") == "1":
        pytest.fail("HIVE_REQUIRE_GPU=1, and neither CuPy nor PyTorch sees a GPU", pytrace=False)
    pytest.skip("no GPU through CuPy or PyTorch", allow_module_level=True)


@pytest.fixture(params=sorted(FRAMEWORKS))
def framework(request):
    return FRAMEWORKS[request.param]


def host(array):
    return array.get() if hasattr(array, "get") else array.cpu().numpy()


def current_stream(module):
    return module.cuda.get_current_stream() if module.__name__ == "cupy" else module.cuda.current_stream()


@pytest.mark.parametrize("width, dtype", [(32, np.uint32), (64, np.uint64)])
def test_table(framework, width, dtype):
    module, device = framework
    stream = current_stream(module)
    with hive.Table(capacity=1024, key_width=width, backend="cuda") as table:
        keys = device(np.arange(10000), dtype)
        table.insert(keys, keys, combine="add", stream=stream)
        table.insert(keys, keys, combine="add", stream=stream)
        values, found = table.find(device([1, 2, 20000], dtype), stream=stream)
        assert type(values).__module__.split(".")[0] == module.__name__
        assert host(values).tolist()[:2] == [2, 4] and host(found).tolist() == [True, True, False]
        table.erase(device([1], dtype), stream=stream)
        assert len(table) == 9999
        exported_keys, exported_values = table.export(like=keys, stream=stream)
        assert (host(exported_values) == 2 * host(exported_keys)).all()


def test_table_refuses_numpy():
    with hive.Table(key_width=32, backend="cuda") as table, pytest.raises(TypeError, match="device arrays"):
        table.find(np.arange(3, dtype=np.uint32))


def test_table_checks_device_dtype(framework):
    _, device = framework
    with hive.Table(key_width=64, backend="cuda") as table, pytest.raises(TypeError, match="uint64"):
        table.find(device([1, 2], np.uint32))


def test_cache(framework):
    module, device = framework
    with hive.CacheTable(capacity=1024, dim=8, backend="cuda") as cache:
        keys = device(np.arange(1, 5000), np.uint64)
        values = device(np.ones((4999, 8)), np.float32)
        cache.insert_or_assign(keys, values, stream=current_stream(module))
        assert cache.size() <= cache.capacity()
        found_values, found = cache.find(keys)
        assert (host(found_values)[host(found)] == 1).all()
        evicted_keys, _, _ = cache.insert_and_evict(device(np.arange(5000, 6000), np.uint64),
                                                    device(np.zeros((1000, 8)), np.float32))
        assert cache.size() + len(evicted_keys) >= 1000


@pytest.mark.skipif("torch" not in FRAMEWORKS, reason="the example's CUDA path takes PyTorch tensors")
def test_embedding_cache_example_on_cuda():
    example = os.path.join(os.path.dirname(__file__), "..", "examples", "embedding_cache.py")
    output = subprocess.run([sys.executable, example, "--backend", "cuda", "--steps", "10"],
                            check=True, capture_output=True, text=True).stdout
    assert "on cuda" in output and "matches the dense reference" in output


def test_tiered_table_with_a_cuda_hot_tier():
    """The two-level table takes host arrays whatever its hot tier; here the hot tier is on the GPU."""
    rng = np.random.default_rng(5)
    with hive.TieredTable(hot_capacity=1024, cold_capacity=1 << 14, backend="cuda", batch=4096) as t:
        assert t.cuda
        keys = np.arange(1, 20001, dtype=np.uint64)
        t.upsert(keys, keys * np.uint64(3))
        for _ in range(5):
            batch = rng.choice(keys[:2000], 5000)  # a hot set of 2000 over a hot tier of 1024
            values, found = t.find(batch)
            assert found.all() and (values == batch * np.uint64(3)).all()
        stats = t.stats()
        assert stats["hot_hits"] > 0 and stats["cold_size"] == 20000 == len(t)
        assert (t.erase(keys[:10]) == hive.Result.ERASED).all() and len(t) == 19990
