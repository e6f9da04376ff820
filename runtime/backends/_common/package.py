"""What makes a backend package: its public functions re-exported, its dtype answers kept.

The dtype *policy* (the standard's default and accumulation dtypes) is
:mod:`ivycheck.runtime.dtypes`, below every backend; a backend only keeps its native
answers here, per question, because asking the framework costs more than the call asking.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ivycheck.runtime.dtypes import Dtype, accumulation_dtype, as_dtype, default_dtype, remembered


def export(namespace: dict[str, Any], *modules: ModuleType) -> list[str]:
    """Re-export the public functions of a backend's modules from its package; returns names.

    The functional API looks functions up on the package (``current_backend().add``), while
    the code lives in topic modules, as in Ivy's ``backends/<name>/*.py``.
    """
    names = []
    for module in modules:
        for name, value in vars(module).items():
            if callable(value) and not name.startswith("_") and value.__module__ == module.__name__:
                namespace[name] = value
                names.append(name)
    return names


def remembered_defaults(native_dtype: Callable[[Dtype | str], Any]) -> Callable[..., Any]:
    """A backend's ``default_native(*values)``: its native dtype for the standard's default
    dtype of Python values (``dtypes.default_dtype``: ``arange(8)`` is int64,
    ``full(s, 2.0)`` the default float), kept per tuple of the values' types, which is all
    the answer depends on besides the default float dtype (whose change empties it:
    ``dtypes.remembered``); ``arange`` and ``full`` ask on every call."""
    known: dict[tuple[type, ...], Any] = remembered({})

    def default_native(*values: object) -> Any:
        kinds = tuple(map(type, values))
        native = known.get(kinds)
        if native is None:
            native = known[kinds] = native_dtype(default_dtype(*values))
        return native

    return default_native


def remembered_accumulation(
    native_dtype: Callable[[Dtype | str], Any], name_of: Callable[[Any], str]
) -> Callable[[Any], Any]:
    """A backend's ``accumulation(native)``: the native dtype ``sum``/``prod``/``trace`` of a
    ``native``-dtype array return by default (``dtypes.accumulation_dtype``
    of its name, ``name_of(native)``), kept per native dtype, which is all it depends on;
    every ``sum`` and ``trace`` asks, and building a dtype's name costs microseconds."""
    known: dict[Any, Any] = {}

    def accumulation(native: Any) -> Any:
        answer = known.get(native)
        if answer is None:
            answer = known[native] = native_dtype(accumulation_dtype(name_of(native)))
        return answer

    return accumulation


def remembered_dtypes(convert: Callable[[str], Any]) -> Callable[[Dtype | str], Any]:
    """A backend's ``native_dtype``: ``convert`` of a dtype's name, each answer kept.

    Creation functions and promotion ask for a native dtype on every call; the frameworks'
    own lookups (``np.dtype``, ``tf.as_dtype`` ...) cost more than the call being made, and
    their answer for a name never changes.
    """
    known: dict[object, Any] = {}

    def native_dtype(name: Dtype | str) -> Any:
        key = name.name if type(name) is Dtype else name
        native = known.get(key)
        if native is None:
            native = convert(str(name))
            known[key] = native
        return native

    return native_dtype


def remembered_targets(native_dtype: Callable[[Dtype | str], Any]) -> Callable[[Any], Any]:
    """A backend's ``target_dtype(dtype)``: the native dtype of any dtype argument -- a name,
    a ``Dtype``, a native dtype, a Python type -- kept per argument (``astype`` asks on every
    call; ``as_dtype`` and ``native_dtype`` together cost more than a small cast). An
    argument that is not a dtype raises, every time (nothing is kept for it)."""
    known: dict[Any, Any] = {}

    def target_dtype(dtype: Any) -> Any:
        try:
            return known[dtype]
        except (KeyError, TypeError):  # not seen yet, or not hashable
            pass
        native = native_dtype(as_dtype(dtype))
        with contextlib.suppress(TypeError):
            known[dtype] = native
        return native

    target_dtype.known = known  # type: ignore[attr-defined]  # read by the hot path (astype)
    return target_dtype
