"""The functional API: one public function per operation, decorated with what it needs.

Importing the modules fills ``func_wrapper.REGISTRY``; ``set_backend`` builds the callables.
"""

from ivycheck.runtime.functional import (
    creation,
    elementwise,
    general,
    linear_algebra,
    losses,
    manipulation,
    statistical,
)

__all__ = [
    "creation",
    "elementwise",
    "general",
    "linear_algebra",
    "losses",
    "manipulation",
    "statistical",
]
