"""TensorFlow primitives: ``tf.Variable`` is written natively, ``tf.Tensor`` is rebound."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf

from ivycheck.runtime.backends._common import dlpack
from ivycheck.runtime.backends._common.package import (
    remembered_accumulation,
    remembered_defaults,
    remembered_dtypes,
    remembered_targets,
)
from ivycheck.runtime.backends._common.primitives import Index
from ivycheck.runtime.dtypes import Dtype

NAME = "tensorflow"
NATIVE_TYPES: tuple[type, ...] = (tf.Tensor, tf.Variable)
NUMPY_VIEWS = False
ERROR_TYPES: dict[type[BaseException], tuple[type[Exception], ...]] = {
    tf.errors.InvalidArgumentError: (ValueError,),
    tf.errors.OutOfRangeError: (IndexError,),
    tf.errors.UnimplementedError: (NotImplementedError,),
}
NEGATIVE_STEPS = True


native_dtype = remembered_dtypes(tf.as_dtype)
"""``tf.as_dtype`` for a dtype (or its name)."""
default_native = remembered_defaults(native_dtype)
"""The native default dtype of Python values (``arange``, ``full``)."""
target_dtype = remembered_targets(native_dtype)
"""The native dtype of any dtype argument (``astype``)."""
accumulation = remembered_accumulation(native_dtype, lambda native: native.name)
"""The native dtype ``sum``/``prod``/``trace`` return by default for a native dtype."""


def dtype_name(x: Any) -> str:
    """The dtype name."""
    return str(x.dtype.name)


def shape(x: Any) -> tuple[int, ...]:
    """The shape as a tuple of ints: an eager tensor's own tuple (``TensorShape`` and its
    ``Dimension`` objects cost microseconds per read, more than a small ``tf.add``)."""
    if type(x) is _EAGER:
        dims: tuple[int, ...] = x._shape_tuple()
        return dims
    return tuple(int(d) for d in x.shape)


_EAGER = type(tf.zeros(()))


def asarray(obj: Any, dtype: Dtype | str | None, copy: bool | None) -> Any:
    """``tf.convert_to_tensor`` (a ``tf.Variable`` stays a variable unless copied or cast)."""
    dtype = None if dtype is None else str(dtype)
    if isinstance(obj, tf.Variable) and not copy and dtype in (None, obj.dtype.name):
        return obj
    if copy is False and not isinstance(obj, (tf.Tensor, tf.Variable)):
        # shared, or the standard's ValueError (``convert_to_tensor`` copied silently)
        return tf.experimental.dlpack.from_dlpack(dlpack.shared_view(obj, dtype).__dlpack__())
    if isinstance(obj, (tf.Tensor, tf.Variable)) and dtype not in (None, obj.dtype.name):
        # ``convert_to_tensor`` refuses a tensor of another dtype ("Tensor conversion
        # requested dtype float64 for Tensor with dtype int64"): a conversion is a cast.
        return tf.cast(obj, dtype)
    ret = tf.convert_to_tensor(keep_zero_sign(obj, dtype), dtype=dtype)
    return tf.raw_ops.DeepCopy(x=ret) if copy else ret


def keep_zero_sign(obj: Any, dtype: Any) -> Any:
    """``obj``, a Python float or complex zero made a NumPy scalar of ``dtype`` (or of
    TensorFlow's default for it: float32, complex128). TensorFlow's eager scalar cache keys
    Python scalars by value, and ``-0.0 == 0.0``: once a -0.0 was converted, a 0.0 of the
    same dtype comes back as -0.0 (and the other way round). NumPy keeps the sign."""
    kind = type(obj)
    if (kind is float or kind is complex) and obj == 0:
        native = _ZERO_DEFAULTS[kind] if dtype is None else tf.as_dtype(dtype).as_numpy_dtype
        return np.asarray(obj, dtype=native)
    return obj


_ZERO_DEFAULTS: dict[type, Any] = {float: np.float32, complex: np.complex128}


def to_numpy(x: Any) -> np.ndarray:
    """A NumPy copy."""
    return np.array(x.numpy(), copy=True)


def copy(x: Any) -> Any:
    """A fresh buffer (``tf.identity`` may alias)."""
    return tf.raw_ops.DeepCopy(x=tf.convert_to_tensor(x))


def cast(x: Any, dtype: Dtype | str) -> Any:
    """Unsafe cast."""
    return tf.cast(x, str(dtype))


def broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    """``tf.broadcast_to``."""
    return tf.broadcast_to(x, shape)


def writable(x: Any) -> bool:
    """Only variables can be assigned to."""
    return isinstance(x, tf.Variable)


def write(x: Any, val: Any) -> None:
    """``Variable.assign`` (broadcast first: ``assign`` wants the exact shape)."""
    x.assign(tf.broadcast_to(tf.cast(val, x.dtype), x.shape))


def _strided(index: Index) -> tuple[list[int], list[int], list[int], int]:
    begin, end, strides, shrink = [], [], [], 0
    for axis, item in enumerate(index):
        if isinstance(item, slice):
            begin.append(item.start)
            end.append(item.stop)
            strides.append(item.step)
        else:
            begin.append(int(item))
            end.append(int(item) + 1)
            strides.append(1)
            shrink |= 1 << axis
    return begin, end, strides, shrink


def set_region(x: Any, index: Index, val: Any) -> Any:
    """One scatter: a strided-slice update for a basic index, ``scatter_nd`` for an index array.

    A ``tf.Variable`` is updated in place and returned; a ``tf.Tensor`` gives a new tensor.
    """
    if index and isinstance(index[0], np.ndarray):
        positions = np.stack(np.broadcast_arrays(*index), axis=-1)
        if isinstance(x, tf.Variable):
            x.scatter_nd_update(positions, val)
            return x
        return tf.tensor_scatter_nd_update(x, positions, val)
    if isinstance(x, tf.Variable):
        x[index].assign(val)
        return x
    if not index:  # a 0-d root: the value replaces it
        return tf.reshape(tf.cast(val, x.dtype), x.shape)
    begin, end, strides, shrink = _strided(index)
    return tf.raw_ops.TensorStridedSliceUpdate(
        input=x,
        begin=tf.constant(begin, tf.int64),
        end=tf.constant(end, tf.int64),
        strides=tf.constant(strides, tf.int64),
        value=val,
        shrink_axis_mask=shrink,
    )


def take(x: Any, index: Index) -> Any:
    """Gather with a multi-index."""
    return tf.gather_nd(x, np.stack(np.broadcast_arrays(*index), axis=-1))


def version(x: Any) -> object:
    """Tensors are immutable (identity suffices); a variable may change at any time."""
    return object() if isinstance(x, tf.Variable) else 0


def shares_memory(a: Any, b: Any) -> bool:
    """TensorFlow has no observable views."""
    return False


def is_native_view(ret: Any, base: Any) -> bool:
    """TensorFlow has no native views: every view is tracked."""
    return False


def check_native_out(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], *, out: Any
) -> Callable[..., Any] | None:
    """Unreachable: no TensorFlow function carries ``support_native_out``."""
    return None


_LAYOUTS: dict[tuple[int, tuple[int, ...]], tuple[int, tuple[int, ...]]] = {}


def layout(t: Any) -> tuple[int, tuple[int, ...]]:
    """An eager tensor's dtype enum and shape as one token, the same object for the same
    layout (``_speedups`` compares tokens by identity first). Tensors are immutable, so a
    token kept with one stays true; the table is emptied past 1,024 layouts (a token then
    compares equal, not identical)."""
    key = (t._datatype_enum(), t._shape_tuple())
    token = _LAYOUTS.get(key)
    if token is None:
        if len(_LAYOUTS) >= 1024:
            _LAYOUTS.clear()
        token = _LAYOUTS[key] = key
    return token


def same_layout(a: Any, b: Any) -> bool:
    """Whether two tensors have one shape and one dtype: eager tensors by their own dtype
    enum and shape tuple (``.dtype`` and ``.shape`` build Python objects, microseconds per
    call of ``ivy.add(x, y, out=o)``)."""
    if type(a) is _EAGER and type(b) is _EAGER:
        return bool(
            a._datatype_enum() == b._datatype_enum() and a._shape_tuple() == b._shape_tuple()
        )
    return bool(a.dtype == b.dtype and shape(a) == shape(b))


def out_checks_itself(fn: Callable[..., Any]) -> bool:
    """Never: no TensorFlow function carries ``support_native_out``."""
    return False


def strides(x: Any) -> tuple[int, ...] | None:
    """Tensors are contiguous."""
    return None


def to_dlpack(x: Any, kwargs: dict[str, Any]) -> Any:
    """TensorFlow tensors have no ``__dlpack__``: its experimental exporter."""
    return tf.experimental.dlpack.to_dlpack(tf.convert_to_tensor(x))
