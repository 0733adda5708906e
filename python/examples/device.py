"""What the examples share: moving their numpy arrays to the table's backend and back."""


def device_functions(backend):
    """(to_table, to_host): a CUDA table takes CuPy arrays, a CPU table numpy ones."""
    if backend != "cuda":
        return (lambda array: array), (lambda array: array)
    import cupy

    return cupy.asarray, cupy.asnumpy
