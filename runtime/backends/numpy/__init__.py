"""The NumPy backend: the default, and the oracle for every other backend's semantics."""

from ivycheck.runtime.backends import export
from ivycheck.runtime.backends.numpy import (
    creation,
    elementwise,
    linear_algebra,
    manipulation,
    primitives,
    statistical,
)

__all__ = ["primitives"]
__all__ += export(globals(), creation, elementwise, linear_algebra, manipulation, statistical)
