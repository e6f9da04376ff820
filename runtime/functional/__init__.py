"""The functional API: one public function per operation, decorated with what it needs.

Importing the modules fills ``dispatch.registry.REGISTRY``, which ``set_backend`` walks to bind
each function to the backend's built wrapper. Which namespace exports a function is decided by
that namespace's imports (``ivycheck.runtime``, ``ivycheck.runtime.linalg``), not by the
registry: registering a function does not publish it.
"""

from ivycheck.runtime.functional import (
    creation,
    data_type,
    elementwise,
    general,
    indexing,
    linear_algebra,
    losses,
    manipulation,
    searching,
    sorting,
    statistical,
    utility,
)
from ivycheck.runtime.functional import set as set_functions

__all__ = [
    "creation",
    "data_type",
    "elementwise",
    "general",
    "indexing",
    "linear_algebra",
    "losses",
    "manipulation",
    "searching",
    "set_functions",
    "sorting",
    "statistical",
    "utility",
]
