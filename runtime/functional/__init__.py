"""The functional API: one public function per operation, decorated with what it needs.

Importing the modules fills ``func_wrapper.REGISTRY``; ``set_backend`` builds the callables.
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
