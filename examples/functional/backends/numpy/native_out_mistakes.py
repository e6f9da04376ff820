"""NumPy backend: `out` forwarding, with deliberate mistakes (IVY001-IVY004, IVY015, IVY018).

Each mistake is marked with the rule that finds it; the rest shows the patterns that look
like mistakes and are not (helpers, aliases, guarded fallbacks, loops over functions).
"""

from typing import Optional

import ivy
import numpy as np


# IVY001: forwards `out` natively through a local alias but has no `support_native_out`,
# so the wrapper never passes `out` and the native path is dead.
def cosh(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    buffer = out
    return np.cosh(x, out=buffer)


# IVY002: the native call is given `out=None` literally; the attribute makes the wrapper
# hand over the buffer, which is ignored, so `out` silently changes dtype.
def sinh(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    return np.sinh(x, out=None)


sinh.support_native_out = True


# IVY003: the `dtype` path returns without writing `out`.
def cumprod(
    x: np.ndarray,
    /,
    *,
    axis: int = 0,
    dtype: Optional[np.dtype] = None,
    out: Optional[np.ndarray] = None,
) -> np.ndarray:
    if dtype is not None:
        return np.cumprod(x, axis).astype(dtype)
    return np.cumprod(x, axis, out=out)


cumprod.support_native_out = True


# IVY004: np.transpose takes no `out` (TypeError on the `out` path only).
def permute_dims(
    x: np.ndarray, /, axes: tuple, *, out: Optional[np.ndarray] = None
) -> np.ndarray:
    return np.transpose(x, axes, out=out)


# IVY015: `False` still counts: Ivy's wrapper tests presence, not value.
def arctan(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    return np.arctan(x)


arctan.support_native_out = False


# IVY018: inplace_update without the value to write.
def expm1(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    ret = np.expm1(x)
    if ivy.exists(out):
        return ivy.inplace_update(out)
    return ret


# Clean: a private helper forwards natively; the attribute sits on the public caller.
def _arcsin_helper(x: np.ndarray, out: Optional[np.ndarray] = None) -> np.ndarray:
    return np.arcsin(x, out=out)


def arcsin(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    return _arcsin_helper(x, out=out)


arcsin.support_native_out = True


# Clean: Ivy's cholesky shape (no native `out`, guarded fallback, no attribute).
def cholesky(
    x: np.ndarray, /, *, upper: bool = False, out: Optional[np.ndarray] = None
) -> np.ndarray:
    ret = np.linalg.cholesky(x)
    if upper:
        ret = np.swapaxes(ret, -1, -2)
    if ivy.exists(out):
        return ivy.inplace_update(out, ret)
    return ret


# Clean: attributes set in a loop over functions.
def arccos(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    kwargs = {"out": out}
    return np.arccos(x, **kwargs)


def arctanh(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    return np.arctanh(x, out=out)


for _fn in (arccos, arctanh):
    _fn.support_native_out = True
