"""hive.Table refuses bad input with a clear exception."""

import numpy as np
import pytest

import hive
from conftest import RESERVED, WIDTHS


def test_wrong_key_dtype(table):
    wrong = np.uint64 if table.key_width == 32 else np.uint32
    with pytest.raises(TypeError, match=f"keys: expected dtype {np.dtype(WIDTHS[table.key_width]).name}"):
        table.insert(np.arange(3, dtype=wrong), np.arange(3, dtype=WIDTHS[table.key_width]))


def test_wrong_shape(table):
    dtype = WIDTHS[table.key_width]
    with pytest.raises(ValueError, match="keys: expected shape"):
        table.find(np.zeros((2, 2), dtype))
    with pytest.raises(ValueError, match="values: expected shape .* with n = 3"):
        table.insert(np.arange(3, dtype=dtype), np.arange(4, dtype=dtype))


def test_output_must_be_contiguous(table):
    dtype = WIDTHS[table.key_width]
    with pytest.raises(ValueError, match="C-contiguous"):
        table.insert(np.arange(3, dtype=dtype), np.arange(3, dtype=dtype), results=np.zeros(6, np.uint8)[::2])


def test_non_contiguous_input_is_copied(table):
    dtype = WIDTHS[table.key_width]
    keys = np.arange(10, dtype=dtype)[::2]
    table.insert(keys, keys)
    assert table.find(keys)[1].all()


def test_reserved_keys_raise_after_the_rest_is_done(table):
    dtype = WIDTHS[table.key_width]
    results = np.zeros(2, np.uint8)
    with pytest.raises(hive.HiveError) as caught:
        table.insert(np.array([5, RESERVED[table.key_width]], dtype), np.array([1, 2], dtype), results=results)
    assert caught.value.status == hive.Status.ERROR_RESERVED_KEY and caught.value.partial
    assert "reserved" in str(caught.value)
    assert results.tolist() == [hive.Result.INSERTED, hive.Result.REJECTED_RESERVED]
    assert 5 in table


def test_bad_op_code(table):
    dtype = WIDTHS[table.key_width]
    with pytest.raises(hive.HiveError) as caught:
        table.apply(np.array([9], np.uint8), np.array([1], dtype))
    assert caught.value.status == hive.Status.ERROR_INVALID_ARGUMENT


@pytest.mark.parametrize("options, error", [
    ({"key_width": 16}, ValueError), ({"backend": "tpu"}, ValueError), ({"design": "robin"}, ValueError),
    ({"colour": 1}, TypeError)])
def test_bad_constructor_arguments(options, error):
    with pytest.raises(error):
        hive.Table(backend=options.pop("backend", "cpu"), **options)


def test_bad_config_values_raise_hive_error():
    with pytest.raises(hive.HiveError) as caught:
        hive.Table(backend="cpu", max_load_factor=2.0)
    assert caught.value.status == hive.Status.ERROR_INVALID_ARGUMENT


def test_bad_combine(table):
    dtype = WIDTHS[table.key_width]
    with pytest.raises(ValueError, match="combine"):
        table.insert(np.array([1], dtype), np.array([1], dtype), combine="sum")


def test_bad_stream():
    with hive.Table(backend="cpu") as t, pytest.raises(TypeError, match="stream"):
        t.clear(stream="default")
