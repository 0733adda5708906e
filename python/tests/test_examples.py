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
