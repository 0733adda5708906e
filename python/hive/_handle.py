"""What the dictionary and the cache share: an owned handle, closed once, and the choices of a config."""

import ctypes

from . import _lib


def choice(enum_type, name, value, names):
    """The enum member that the friendly `value` (a key of `names`, or the member itself) stands for."""
    if isinstance(value, enum_type):
        return value
    try:
        return names[value]
    except (KeyError, TypeError):
        raise ValueError(f"{name}: expected one of {sorted(names)}, got {value!r}") from None


BACKENDS = {"auto": _lib.Backend.AUTO, "cuda": _lib.Backend.CUDA, "cpu": _lib.Backend.CPU}


def configure(config, options):
    """Sets the config's fields named in `options`, refusing names the config lacks."""
    fields = {name for name, _ in config._fields_} - {"struct_size", "version", "allocator"}
    for name, value in options.items():
        if name not in fields:
            raise TypeError(f"unknown option {name!r}; the options are {sorted(fields)}")
        setattr(config, name, value)


class Handle:
    """An owner of one hive handle: closed by close(), by leaving a `with` block, or when collected."""

    _destroy = None  # the hive_*_destroy function of the subclass

    def __init__(self, create, config):
        handle = ctypes.c_void_p()
        _lib.check(create(ctypes.byref(config), ctypes.byref(handle)))
        self._handle = handle

    @property
    def closed(self):
        return self._handle is None

    def _live(self):
        """The handle, or ValueError once closed (as for a closed file)."""
        if self._handle is None:
            raise ValueError(f"operation on a closed {type(self).__name__}")
        return self._handle

    def close(self):
        """Frees the table; later calls raise ValueError.  Closing twice is harmless."""
        handle, self._handle = getattr(self, "_handle", None), None
        if handle is not None:
            _lib.check(type(self)._destroy(handle))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()
