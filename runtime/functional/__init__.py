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
from ivycheck.runtime.functional import indexing, searching, sorting, utility
from ivycheck.runtime.functional import set as set_functions
from ivycheck.runtime.functional import data_type

__all__ = [
    "data_type",
    "creation",
    "elementwise",
    "general",
    "linear_algebra",
    "losses",
    "manipulation",
    "statistical",
    "indexing",
    "searching",
    "set_functions",
    "sorting",
    "utility",
]
