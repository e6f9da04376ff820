"""The C paths of the runtime (``_speedups``), or ``None`` where they are not used.

``runtime/_speedups.c`` answers ``x[key]`` and the public functions of one array argument in
C: a Python wrapper cannot come within 2x of a ~100 ns native call, since one Python frame
and one new ``Array`` already cost about that. Everything it does, the Python paths of
``dispatch/public.py`` do the same way, so the runtime is whole without it: it is not used
when it was not built (no compiler: the build of the extension is optional) or when the
environment variable ``IVYCHECK_PURE_PYTHON`` is set (to compare or debug the two).
"""

from __future__ import annotations

import os
from types import ModuleType


def _load() -> ModuleType | None:
    if os.environ.get("IVYCHECK_PURE_PYTHON"):
        return None
    try:
        from ivycheck.runtime import _speedups
    except ImportError:
        return None
    return _speedups


SPEEDUPS: ModuleType | None = _load()
"""``ivycheck.runtime._speedups``, or ``None``: the Python paths only."""
