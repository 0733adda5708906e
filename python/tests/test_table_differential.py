"""hive.Table against a Python dict over random batches with repeated keys."""

import numpy as np

from conftest import WIDTHS


def test_matches_a_dict(table, rng):
    dtype = WIDTHS[table.key_width]
    reference = {}
    for _ in range(40):
        # A small key range, so batches repeat keys and hit each other's keys.
        keys = rng.integers(0, 3000, size=int(rng.integers(1, 600)), dtype=dtype)
        action = rng.integers(0, 3)
        if action == 0:
            values = rng.integers(0, 1000, size=keys.size, dtype=dtype)
            table.insert(keys, values, combine="add")
            for key, value in zip(keys.tolist(), values.tolist()):
                reference[key] = reference.get(key, 0) + value
        elif action == 1:
            values = rng.integers(0, 1000, size=keys.size, dtype=dtype)
            table.insert(keys, values, combine="max")
            for key, value in zip(keys.tolist(), values.tolist()):
                reference[key] = max(reference.get(key, 0), value)
        else:
            table.erase(keys)
            for key in keys.tolist():
                reference.pop(key, None)
        assert len(table) == len(reference)
        probe = rng.integers(0, 3000, size=500, dtype=dtype)
        values, found = table.find(probe)
        assert found.tolist() == [key in reference for key in probe.tolist()]
        assert values[found].tolist() == [reference[key] for key in probe[found].tolist()]
    keys, values = table.export()
    assert dict(zip(keys.tolist(), values.tolist())) == reference
