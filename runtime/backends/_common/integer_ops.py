"""Integer arithmetic the standard leaves undefined, given one answer on every backend.

The standard leaves integer division by zero and integer powers with a negative exponent
undefined; the backends disagreed (``floor_divide(5, 0)``: NumPy 0, PyTorch and TensorFlow
raise, JAX -2; ``2 ** -1``: NumPy and TensorFlow raise, PyTorch 0, JAX int64's minimum).
The runtime answers as NumPy does: a quotient or remainder by zero is 0, and a negative
integer exponent raises ``ValueError`` -- before anything is computed, so an ``out`` stays
untouched (NumPy wrote the elements before the failing one, then raised).
"""

from __future__ import annotations

NEGATIVE_POWER = "Integers to negative integer powers are not allowed"
"""NumPy's message, raised as ``ValueError`` by every backend."""


def refuse_negative_power(negative: bool) -> None:
    """Raise ``ValueError`` when an integer ``pow`` has a negative exponent (``negative``)."""
    if negative:
        raise ValueError(NEGATIVE_POWER)
