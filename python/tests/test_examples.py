"""The examples run on the CPU backend and check themselves against their Python references."""

import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")


@pytest.mark.parametrize("example, arguments", [("kmer_count.py", ["--length", "50000"]),
                                                ("group_by.py", ["--rows", "100000"])])
def test_example(example, arguments):
    output = subprocess.run([sys.executable, os.path.join(EXAMPLES, example), "--backend", "cpu", *arguments],
                            check=True, capture_output=True, text=True).stdout
    assert "matches" in output


def test_embedding_cache_example():
    pytest.importorskip("torch")
    output = subprocess.run([sys.executable, os.path.join(EXAMPLES, "embedding_cache.py"), "--backend", "cpu",
                             "--rows", "50000", "--batch", "4096", "--steps", "5"],
                            check=True, capture_output=True, text=True).stdout
    assert "matches the dense reference" in output


def test_overhead_benchmark():
    script = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "overhead.py")
    lines = subprocess.run([sys.executable, script, "--sizes", "2^10", "--runs", "3"],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    assert lines[0] == "layer,backend,n,us_per_call,gops,overhead_us"
    assert [line.split(",")[:3] for line in lines[1:]] == [["table.find", "cpu", "1024"],
                                                           ["_lib.hive_find", "cpu", "1024"]]
