"""The C paths of the runtime (``_speedups``), or ``None`` where they are not used.

``runtime/_speedups.c`` answers ``x[key]`` and the public functions of one array argument in
C: a Python wrapper cannot come within 2x of a ~100 ns native call, since one Python frame
and one new ``Array`` already cost about that. Everything it does, the Python paths of
``dispatch/public.py`` do the same way, so the runtime is whole without it: it is not used
when it was not built (no compiler: the build of the extension is optional) or when the
environment variable ``IVYCHECK_PURE_PYTHON`` is set (to compare or debug the two).

``IVYCHECK_SPEEDUPS_BUILD=<file>`` loads the C paths from that file instead of the installed
build: a build of its own, such as ``make test-sanitize``'s (AddressSanitizer), which must not
replace the installed one. A file that cannot be loaded is an error, never a silent fall back
to the Python paths (a sanitizer run that checked no C would pass).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType

NAME = "ivycheck.runtime._speedups"


def _load_file(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(NAME, path)
    if spec is None or spec.loader is None or not os.path.isfile(path):
        raise ImportError(f"IVYCHECK_SPEEDUPS_BUILD={path!r}: no such extension module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[NAME] = module
    spec.loader.exec_module(module)
    return module


def _load() -> ModuleType | None:
    if os.environ.get("IVYCHECK_PURE_PYTHON"):
        return None
    build = os.environ.get("IVYCHECK_SPEEDUPS_BUILD")
    if build:
        return _load_file(build)
    try:
        from ivycheck.runtime import _speedups
    except ImportError:
        return None
    return _speedups


SPEEDUPS: ModuleType | None = _load()
"""``ivycheck.runtime._speedups``, or ``None``: the Python paths only."""
