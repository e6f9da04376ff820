"""Every public function of the functional API by name (filled as the decorators run).

The lowest piece of the dispatcher, importing nothing: ``Array``'s operators and methods,
``inplace`` and the dispatcher find the public functions here -- they lie below the
functional API and cannot import it -- and ``set_backend`` builds one dispatcher per entry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

REGISTRY: dict[str, Callable[..., Any]] = {}
"""Functional-API functions by name; ``set_backend`` builds one dispatcher per entry."""
