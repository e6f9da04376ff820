"""``ivycheck.runtime``: a backend-wrapped array API with ``out``, ``copy`` and views right.

``import ivycheck.runtime as ivy``; NumPy is the default backend, others are imported when set
(``ivy.set_backend("torch" | "jax" | "tensorflow")``). See DESIGN.md "Runtime semantics" and
``docs/runtime.md``.

The public functions (``ivy.add`` ...) are rebound by ``set_backend`` to that backend's built
wrappers, as in Ivy: use them through the module (``ivy.add``), not as names imported before
switching backends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ivycheck.runtime import dtypes, exceptions, views
from ivycheck.runtime.backend_handler import (
    current_backend,
    current_backend_str,
    set_backend,
    unset_backend,
    using_backend,
)
from ivycheck.runtime.dtypes import Dtype
from ivycheck.runtime.exceptions import (
    InplaceUpdateException,
    IvyBackendException,
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

from ivycheck.runtime import func_wrapper  # noqa: E402
from ivycheck.runtime.array import Array  # noqa: E402  (needs the names above)
from ivycheck.runtime.container import Container  # noqa: E402
from ivycheck.runtime.functional.creation import (  # noqa: E402
    arange,
    copy_array,
    empty,
    full,
    linspace,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from ivycheck.runtime.functional.elementwise import (  # noqa: E402
    abs,
    add,
    ceil,
    clip,
    cos,
    divide,
    exp,
    floor,
    log,
    maximum,
    minimum,
    multiply,
    negative,
    remainder,
    round,
    sin,
    sqrt,
    subtract,
    tan,
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
from ivycheck.runtime.functional.linear_algebra import (  # noqa: E402
    cholesky,
    matmul,
    matrix_transpose,
)
from ivycheck.runtime.functional.losses import cross_entropy  # noqa: E402
from ivycheck.runtime.functional.manipulation import (  # noqa: E402
    expand_dims,
    flip,
    fliplr,
    flipud,
    moveaxis,
    permute_dims,
    reshape,
    rot90,
    squeeze,
    swapaxes,
)
from ivycheck.runtime.functional.statistical import max, mean, min, prod, sum  # noqa: E402

if TYPE_CHECKING:
    NativeArray = Any
else:
    NativeArray = object  # rebound to the backend's class by set_backend

from ivycheck.runtime.backend_handler import _activate as _activate_default  # noqa: E402

_activate_default("numpy")

__all__ = [
    "Array",
    "Container",
    "Dtype",
    "InplaceUpdateException",
    "IvyBackendException",
    "IvyException",
    "IvyNotImplementedException",
    "IvyTypeError",
    "IvyValueError",
    "NativeArray",
    "abs",
    "add",
    "arange",
    "array",
    "asarray",
    "bool_",
    "ceil",
    "cholesky",
    "clip",
    "complex64",
    "complex128",
    "copy_array",
    "cos",
    "cross_entropy",
    "current_backend",
    "current_backend_str",
    "divide",
    "dtypes",
    "empty",
    "exceptions",
    "exp",
    "expand_dims",
    "flip",
    "fliplr",
    "flipud",
    "float16",
    "float32",
    "float64",
    "floor",
    "full",
    "func_wrapper",
    "get_item",
    "inplace_update",
    "int8",
    "int16",
    "int32",
    "int64",
    "is_array",
    "is_ivy_array",
    "is_native_array",
    "linspace",
    "log",
    "matmul",
    "matrix_transpose",
    "max",
    "maximum",
    "mean",
    "min",
    "minimum",
    "moveaxis",
    "multiply",
    "negative",
    "ones",
    "ones_like",
    "permute_dims",
    "prod",
    "remainder",
    "reshape",
    "rot90",
    "round",
    "set_backend",
    "set_item",
    "sin",
    "sqrt",
    "squeeze",
    "subtract",
    "sum",
    "swapaxes",
    "tan",
    "to_native",
    "to_numpy",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "unset_backend",
    "using_backend",
    "views",
    "where",
    "zeros",
    "zeros_like",
]
