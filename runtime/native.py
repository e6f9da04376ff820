"""Static name for "a native array of some backend".

At run time ``ivy.NativeArray`` is the class of the backend in use (rebound by
``set_backend``); for the type checker it is ``Any``, because which backend is active is not
known statically.
"""

from __future__ import annotations

from typing import Any, TypeAlias

NativeArray: TypeAlias = Any
