"""Axis arguments checked once for every backend.

Native functions disagree on a bad axis (NumPy raises ``AxisError``, JAX ``ValueError``,
PyTorch's ``unsqueeze`` loops ``axis % ndim`` into range when written that way, TensorFlow
``InvalidArgumentError``); the standard wants ``IndexError`` for an axis out of range. Checking
before the backend call gives one answer, and backends then receive non-negative axes.
"""

from __future__ import annotations

from typing import Any

from ivycheck.runtime.exceptions import IvyAxisError, IvyValueError


def normalize_axes(axis: Any, ndim: int, *, what: str = "axis") -> tuple[int, ...]:
    """``axis`` (an int or a sequence of ints) as distinct axes in ``[0, ndim)``.

    Raises :class:`IvyAxisError` (an ``IndexError``) for an axis outside ``[-ndim, ndim)`` and
    :class:`IvyValueError` for an axis given twice.
    """
    items = (axis,) if isinstance(axis, int) else tuple(axis)
    out = []
    for a in items:
        a = int(a)
        if not -ndim <= a < ndim:
            raise IvyAxisError(f"{what} {a} is out of bounds for {ndim} dimensions")
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise IvyValueError(f"repeated {what} in {items}")
    return tuple(out)


def contracted_shape(
    shape1: tuple[int, ...], shape2: tuple[int, ...], axis: int
) -> tuple[tuple[int, ...], int]:
    """The broadcast shape of ``vecdot``'s operands and its contracted axis, non-negative.

    The contracted axis is not broadcast (the standard: its size must be the same in both),
    which plain broadcasting followed by a sum would silently allow for a size of 1.
    """
    ndim = max(len(shape1), len(shape2))
    (ax,) = normalize_axes(axis, ndim)
    padded1 = (1,) * (ndim - len(shape1)) + tuple(shape1)
    padded2 = (1,) * (ndim - len(shape2)) + tuple(shape2)
    if padded1[ax] != padded2[ax]:
        raise IvyValueError(
            f"vecdot: axis {axis} has size {padded1[ax]} in x1 and {padded2[ax]} in x2"
        )
    shape = tuple(b if a == 1 else a for a, b in zip(padded1, padded2, strict=True))
    for a, b in zip(padded1, padded2, strict=True):
        if a != b and 1 not in (a, b):
            raise IvyValueError(f"vecdot: shapes {shape1} and {shape2} do not broadcast")
    return shape, ax
