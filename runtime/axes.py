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
