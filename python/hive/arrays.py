"""Arrays in and out of hive calls: numpy for CPU tables, device arrays for CUDA tables.

A CPU table reads and writes host memory, so it takes numpy arrays (or
anything numpy.asarray turns into the right dtype, such as a list of ints);
an input that is not contiguous is copied, an output the caller passes must
be contiguous already.

A CUDA table reads and writes GPU memory in place, so it takes any object
exposing ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or, through
CuPy, ``__dlpack__`` (JAX and others); nothing is copied, and a numpy array
is refused rather than moved to the GPU behind the caller's back.  Outputs
are allocated in the framework of the call's first array (a torch tensor
gives torch tensors, anything else CuPy arrays), on that framework's current
stream.  Every call also takes ``stream``: None is the default stream, an int
is a cudaStream_t handle, and an object with ``.cuda_stream`` (torch) or
``.ptr`` (CuPy) names its stream.
"""

import numpy as np


def _shape_error(name, shape, n, dim):
    rows = "(n,)" if dim is None else f"(n, {dim})" + (" or (n,)" if dim == 1 else "")
    extra = "" if n is None else f" with n = {n}"
    return ValueError(f"{name}: expected shape {rows}{extra}, got {tuple(shape)}")


def _check_shape(name, shape, n, dim):
    """Keys and flags are (n,); values are (n, dim), or (n,) when dim is 1."""
    if dim is None:
        good = len(shape) == 1
    else:
        good = (len(shape) == 2 and shape[1] == dim) or (dim == 1 and len(shape) == 1)
    if not good or (n is not None and shape[0] != n):
        raise _shape_error(name, shape, n, dim)


def _check_dtype(name, actual, dtype):
    if np.dtype(actual) != np.dtype(dtype):
        raise TypeError(f"{name}: expected dtype {np.dtype(dtype).name}, got {np.dtype(actual).name}")


def _contiguous(shape, strides, itemsize):
    """C order: strides None (the interface's way to say so) or each the product of the dims after it."""
    if strides is None:
        return True
    expected = itemsize
    for size, stride in reversed(list(zip(shape, strides))):
        if size > 1 and stride != expected:
            return False
        expected *= size
    return True


# ---------------------------------------------------------------- host (numpy)


def _host_input(obj, dtype, name, n, dim):
    if isinstance(obj, np.ndarray):
        _check_dtype(name, obj.dtype, dtype)
    elif hasattr(obj, "__cuda_array_interface__"):
        raise TypeError(f"{name}: a CPU table takes numpy arrays, not device arrays")
    array = np.ascontiguousarray(obj, dtype=dtype)
    _check_shape(name, array.shape, n, dim)
    return array


def _host_output(obj, dtype, name, n, dim):
    if not isinstance(obj, np.ndarray):
        raise TypeError(f"{name}: expected a numpy array, got {type(obj).__name__}")
    _check_dtype(name, obj.dtype, dtype)
    _check_shape(name, obj.shape, n, dim)
    if not obj.flags.c_contiguous or not obj.flags.writeable:
        raise ValueError(f"{name}: an output array must be C-contiguous and writeable")
    return obj


# ---------------------------------------------------------------- device (CUDA arrays)


def _interface(obj):
    return obj.__cuda_array_interface__


def _device_array(obj, name):
    """obj itself if it exposes __cuda_array_interface__; a zero-copy CuPy view of a DLPack one."""
    if hasattr(obj, "__cuda_array_interface__"):
        return obj
    # DLPack's device types of GPU memory: kDLCUDA (2) and kDLCUDAManaged (13).  A numpy array
    # speaks DLPack too, from host memory: that is the caller's mistake, not CuPy's to report.
    if hasattr(obj, "__dlpack__") and getattr(obj, "__dlpack_device__", lambda: (2, 0))()[0] in (2, 13):
        try:
            import cupy
        except ImportError:
            raise TypeError(f"{name}: a DLPack array needs CuPy to be passed to a CUDA table") from None
        return cupy.from_dlpack(obj)
    raise TypeError(f"{name}: a CUDA table takes device arrays (__cuda_array_interface__ or __dlpack__), "
                    f"got {type(obj).__name__}")


def _device_input(obj, dtype, name, n, dim):
    array = _device_array(obj, name)
    face = _interface(array)
    _check_dtype(name, face["typestr"], dtype)
    _check_shape(name, face["shape"], n, dim)
    if not _contiguous(face["shape"], face.get("strides"), np.dtype(dtype).itemsize):
        raise ValueError(f"{name}: a device array must be C-contiguous")
    return array


def _device_empty(like, shape, dtype):
    if type(like).__module__.startswith("torch"):
        import torch

        return torch.zeros(shape, dtype=getattr(torch, np.dtype(dtype).name), device=like.device)
    import cupy

    return cupy.zeros(shape, dtype=dtype)


def _device_bool(array):
    if type(array).__module__.startswith("torch"):
        import torch

        return array.view(torch.bool)
    return array.view(bool)


def _device_copy(array):
    return array.clone() if type(array).__module__.startswith("torch") else array.copy()


# ---------------------------------------------------------------- what the tables call


def argument(obj, dtype, name, cuda, n=None, dim=None):
    """An array the call reads: dtype and shape checked; n rows when n is given."""
    return (_device_input if cuda else _host_input)(obj, dtype, name, n, dim)


def output(obj, dtype, name, cuda, n, dim=None):
    """An array the caller passed for the call to write."""
    return (_device_input if cuda else _host_output)(obj, dtype, name, n, dim)


def empty(like, shape, dtype, cuda):
    """A zeroed array for the call to write, in the framework of `like` (numpy for CPU tables)."""
    return _device_empty(like, shape, dtype) if cuda else np.zeros(shape, dtype)


def copy(array, cuda):
    return _device_copy(array) if cuda else array.copy()


def as_bool(flags, cuda):
    """uint8 1/0 flags viewed as booleans, without a copy."""
    return _device_bool(flags) if cuda else flags.view(bool)


def address(array):
    """The address of the first element, for ctypes; None (NULL) for None."""
    if array is None:
        return None
    if isinstance(array, np.ndarray):
        return array.ctypes.data
    return _interface(array)["data"][0]


def rows(array):
    return array.shape[0]


def stream_handle(stream):
    """None → NULL (the default stream); an int handle; an object's .cuda_stream (torch) or .ptr (CuPy)."""
    if stream is None or isinstance(stream, int):
        return stream
    for attribute in ("cuda_stream", "ptr"):
        if hasattr(stream, attribute):
            return int(getattr(stream, attribute))
    raise TypeError(f"stream: expected None, an int handle or a stream object, got {type(stream).__name__}")
