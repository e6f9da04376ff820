"""Array instance methods: one deliberate mistake each for IVY007 and IVY012."""

from typing import Optional

import ivy


class _ArrayWithApiMistakes:
    # Clean: the method forwards the caller's `out`.
    def sqrt(self: ivy.Array, *, out: Optional[ivy.Array] = None) -> ivy.Array:
        return ivy.sqrt(self._data, out=out)

    # IVY012: `x.abs()` should return a new array; `out=self` overwrites `x` (and every view
    # of it), and fails where the result does not fit `x`.
    def abs(self: ivy.Array) -> ivy.Array:
        return ivy.abs(self, out=self)

    # IVY007: `self.data` is the native array inside the Array; a native `out` raises.
    # Pass the Array itself (`out=self`... which is IVY012 above) or take an `out`.
    def exp_(self: ivy.Array) -> ivy.Array:
        return ivy.exp(self, out=self.data)
