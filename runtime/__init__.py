"""``ivycheck.runtime``: a backend-wrapped array API with ``out``, ``copy`` and views right.

``import ivycheck.runtime as ivy``; NumPy is the default backend, others are imported when set
(``ivy.set_backend("torch" | "jax" | "tensorflow")``). See docs/design.md "Runtime semantics" and
``docs/runtime.md``.

This module is the main namespace: every name the Array API 2025.12 puts there (``__array_api_version__``
and ``set_array_api_version``: runtime/info.py), and the
runtime's own Ivy-style names (``set_backend``, ``Array``, ``to_native``, ``inplace_update``
...). The extensions are the modules ``ivy.linalg`` and ``ivy.fft``; their functions are not
here, except the four the standard puts in both places (``matmul``, ``matrix_transpose``,
``tensordot``, ``vecdot``: one object in each) and Ivy's ``cholesky``. Every name is bound
once, by the imports below; ``set_backend`` changes what the functions call, never what the
names hold, so ``from ivycheck.runtime import abs`` taken before a switch follows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ivycheck.runtime import dtypes, exceptions, views
from ivycheck.runtime.backend_handler import (
    current_backend,
    current_backend_str,
    default_float_dtype,
    set_backend,
    set_default_float_dtype,
    unset_backend,
    using_backend,
)
from ivycheck.runtime.backend_handler import native_array_class as _native_array_class
from ivycheck.runtime.dtypes import Dtype
from ivycheck.runtime.exceptions import (
    InplaceUpdateException,
    IvyBackendException,
    IvyBufferError,
    IvyException,
    IvyNotImplementedException,
    IvyTypeError,
    IvyValueError,
)

bool_ = dtypes.DTYPES["bool"]
int8 = dtypes.DTYPES["int8"]
int16 = dtypes.DTYPES["int16"]
int32 = dtypes.DTYPES["int32"]
int64 = dtypes.DTYPES["int64"]
uint8 = dtypes.DTYPES["uint8"]
uint16 = dtypes.DTYPES["uint16"]
uint32 = dtypes.DTYPES["uint32"]
uint64 = dtypes.DTYPES["uint64"]
float16 = dtypes.DTYPES["float16"]
float32 = dtypes.DTYPES["float32"]
float64 = dtypes.DTYPES["float64"]
complex64 = dtypes.DTYPES["complex64"]
complex128 = dtypes.DTYPES["complex128"]
bool = bool_

from ivycheck.runtime.dtypes import (  # noqa: E402
    can_cast,
    e,
    finfo,
    iinfo,
    inf,
    isdtype,
    nan,
    pi,
    result_type,
)

newaxis = None

from ivycheck.runtime import (  # noqa: E402  (fft, linalg: the extension namespaces)
    fft,
    func_wrapper,
    linalg,
)
from ivycheck.runtime.array import Array  # noqa: E402  (needs the names above)
from ivycheck.runtime.backend_handler import _activate as _activate_default  # noqa: E402
from ivycheck.runtime.container import Container  # noqa: E402
from ivycheck.runtime.functional.creation import (  # noqa: E402
    arange,
    copy_array,
    empty,
    empty_like,
    eye,
    from_dlpack,
    full,
    full_like,
    linspace,
    meshgrid,
    ones,
    ones_like,
    tril,
    triu,
    zeros,
    zeros_like,
)
from ivycheck.runtime.functional.data_type import astype  # noqa: E402
from ivycheck.runtime.functional.elementwise import (  # noqa: E402
    abs,
    acos,
    acosh,
    add,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bitwise_and,
    bitwise_invert,
    bitwise_left_shift,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    ceil,
    clip,
    conj,
    copysign,
    cos,
    cosh,
    divide,
    equal,
    exp,
    expm1,
    floor,
    floor_divide,
    greater,
    greater_equal,
    hypot,
    imag,
    isfinite,
    isinf,
    isnan,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    multiply,
    negative,
    nextafter,
    not_equal,
    positive,
    pow,
    real,
    reciprocal,
    remainder,
    round,
    sign,
    signbit,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    trunc,
    where,
)
from ivycheck.runtime.functional.general import (  # noqa: E402
    array,
    asarray,
    get_item,
    inplace_update,
    is_array,
    is_ivy_array,
    is_native_array,
    set_item,
    to_native,
    to_numpy,
)
from ivycheck.runtime.functional.indexing import take, take_along_axis  # noqa: E402
from ivycheck.runtime.functional.linear_algebra import (  # noqa: E402
    cholesky,
    matmul,
    matrix_transpose,
    tensordot,
    vecdot,
)
from ivycheck.runtime.functional.losses import cross_entropy  # noqa: E402
from ivycheck.runtime.functional.manipulation import (  # noqa: E402
    broadcast_arrays,
    broadcast_shapes,
    broadcast_to,
    concat,
    expand_dims,
    flip,
    fliplr,
    flipud,
    moveaxis,
    permute_dims,
    repeat,
    reshape,
    roll,
    rot90,
    squeeze,
    stack,
    swapaxes,
    tile,
    unstack,
)
from ivycheck.runtime.functional.searching import (  # noqa: E402
    argmax,
    argmin,
    count_nonzero,
    nonzero,
    searchsorted,
)
from ivycheck.runtime.functional.set import (  # noqa: E402
    isin,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
)
from ivycheck.runtime.functional.sorting import argsort, sort  # noqa: E402
from ivycheck.runtime.functional.statistical import (  # noqa: E402
    cumulative_prod,
    cumulative_sum,
    max,
    mean,
    min,
    prod,
    std,
    sum,
    var,
)
from ivycheck.runtime.functional.utility import all, any, diff  # noqa: E402
from ivycheck.runtime.info import (  # noqa: E402
    __array_namespace_info__,
    set_array_api_version,
)

if TYPE_CHECKING:  # statically "a native array of some backend" (runtime/native.py)
    from ivycheck.runtime.native import NativeArray
else:

    def __getattr__(name: str) -> Any:
        """``ivy.NativeArray``: the class of the backend in use, read when asked for (a name
        bound here would need writing on every switch). Hidden from the type checker, which
        would otherwise type every missing attribute of the namespace as ``Any``."""
        if name == "NativeArray":
            return _native_array_class()
        if name == "__array_api_version__":
            return _array_api_version()
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


from ivycheck.runtime.info import array_api_version as _array_api_version  # noqa: E402

_activate_default("numpy")

__all__ = [
    "Array",
    "Container",
    "Dtype",
    "InplaceUpdateException",
    "IvyBackendException",
    "IvyBufferError",
    "IvyException",
    "IvyNotImplementedException",
    "IvyTypeError",
    "IvyValueError",
    "NativeArray",
    "__array_namespace_info__",
    "abs",
    "acos",
    "acosh",
    "add",
    "all",
    "any",
    "arange",
    "argmax",
    "argmin",
    "argsort",
    "array",
    "asarray",
    "asin",
    "asinh",
    "astype",
    "atan",
    "atan2",
    "atanh",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "bool",
    "bool_",
    "broadcast_arrays",
    "broadcast_shapes",
    "broadcast_to",
    "can_cast",
    "ceil",
    "cholesky",
    "clip",
    "complex64",
    "complex128",
    "concat",
    "conj",
    "copy_array",
    "copysign",
    "cos",
    "cosh",
    "count_nonzero",
    "cross_entropy",
    "cumulative_prod",
    "cumulative_sum",
    "current_backend",
    "current_backend_str",
    "default_float_dtype",
    "diff",
    "divide",
    "dtypes",
    "e",
    "empty",
    "empty_like",
    "equal",
    "exceptions",
    "exp",
    "expand_dims",
    "expm1",
    "eye",
    "fft",
    "finfo",
    "flip",
    "fliplr",
    "flipud",
    "float16",
    "float32",
    "float64",
    "floor",
    "floor_divide",
    "from_dlpack",
    "full",
    "full_like",
    "func_wrapper",
    "get_item",
    "greater",
    "greater_equal",
    "hypot",
    "iinfo",
    "imag",
    "inf",
    "inplace_update",
    "int8",
    "int16",
    "int32",
    "int64",
    "is_array",
    "is_ivy_array",
    "is_native_array",
    "isdtype",
    "isfinite",
    "isin",
    "isinf",
    "isnan",
    "less",
    "less_equal",
    "linalg",
    "linspace",
    "log",
    "log1p",
    "log2",
    "log10",
    "logaddexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "matmul",
    "matrix_transpose",
    "max",
    "maximum",
    "mean",
    "meshgrid",
    "min",
    "minimum",
    "moveaxis",
    "multiply",
    "nan",
    "negative",
    "newaxis",
    "nextafter",
    "nonzero",
    "not_equal",
    "ones",
    "ones_like",
    "permute_dims",
    "pi",
    "positive",
    "pow",
    "prod",
    "real",
    "reciprocal",
    "remainder",
    "repeat",
    "reshape",
    "result_type",
    "roll",
    "rot90",
    "round",
    "searchsorted",
    "set_array_api_version",
    "set_backend",
    "set_default_float_dtype",
    "set_item",
    "sign",
    "signbit",
    "sin",
    "sinh",
    "sort",
    "sqrt",
    "square",
    "squeeze",
    "stack",
    "std",
    "subtract",
    "sum",
    "swapaxes",
    "take",
    "take_along_axis",
    "tan",
    "tanh",
    "tensordot",
    "tile",
    "to_native",
    "to_numpy",
    "tril",
    "triu",
    "trunc",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "unset_backend",
    "unstack",
    "using_backend",
    "var",
    "vecdot",
    "views",
    "where",
    "zeros",
    "zeros_like",
]
