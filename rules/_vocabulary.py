"""What Ivy's names mean, tree-free: read by the rules' checks and the out-flow analysis.

Nothing here looks at a syntax tree, so every rule and helper can share it whatever tree
it reads: which names are private or versioned helpers, which wrappers make views, what a
library call does with an ``out=`` it is given (by the data of
:mod:`~ivycheck.rules._native_out`), how messages name such a call, whether
``handle_out_argument`` wraps an API function's backends (:func:`out_wrapping`, from the
project index), and which order a project's wrappers go in and which of them exist
(:func:`wrapper_list`, :func:`defined`).
"""

from __future__ import annotations

import ast
import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ivycheck.checker.project.config import Config
from ivycheck.checker.project.conventions import DECORATOR_ALIASES
from ivycheck.rules import _native_out

if TYPE_CHECKING:
    from ivycheck.checker.project.index import ProjectIndex
    from ivycheck.checker.project.summary import FunctionSummary

VERSIONED = re.compile(r"_v_\d+p\d+p\d+_")
"""Ivy's versioned implementations, the range form and the open-ended one alike:
``cumsum_v_0p3p0_to_0p3p1``, ``fn_v_1p2p0_and_above``, ``fn_v_2p0p0_and_below``."""


def is_versioned_helper(name: str) -> bool:
    """An implementation for a range of library releases (``ones_like_v_0p3p0_to_0p3p1``).

    It is written against the library release its range names, not the one installed here,
    so what today's library accepts (``out`` of ``torch.ones_like``) says nothing about it.
    """
    return VERSIONED.search(name) is not None


def is_private_helper(name: str) -> bool:
    """``_helper``, dunders and versioned helpers (``fn_v_0p3p0_to_0p3p1``,
    ``fn_v_1p2p0_and_above``) are not API.

    Ivy's API conventions (keyword-only ``out``, the ``support_native_out`` attribute, the
    wrappers) bind the public functions only: a helper is called by them, never by users,
    and a versioned helper is what ``with_supported_*``/``versioned`` dispatch picks for a
    public function that carries the conventions itself.
    """
    return name.startswith("_") or is_versioned_helper(name)


VIEW_DECORATORS = frozenset({"handle_view", "handle_view_indexing"})
"""The wrappers that make a function's result a view of its input (IVY006, IVY011)."""


ATTRIBUTE = "support_native_out"
OUT = "out"

CHECK_CALLS = frozenset(
    {
        "exists",
        "isinstance",
        "is_array",
        "is_native_array",
        "is_ivy_array",
        "is_ivy_container",
        "hasattr",
        "type",
        "len",
        "id",
        "callable",
    }
)
"""Calls that only look at ``out`` (``ivy.exists(out)``): not a use of the buffer."""

CONVERSIONS = frozenset({"astype", "to", "type"})
"""NumPy/PyTorch methods that convert an array's dtype: a new array when it differs (so a
result converted after a native call wrote ``out`` is not the buffer written)."""


class UseKind(enum.IntEnum):
    """What a call does with the ``out`` it receives, from most to least useful."""

    NATIVE = 4
    """A NumPy/PyTorch function that writes into ``out`` (or a helper that forwards to one)."""
    UNKNOWN = 3
    """Anything the analysis cannot judge: a method, a runtime function, an unknown import."""
    INPLACE = 2
    """``inplace_update(out, value)``: the wrapper's own fallback, written by hand."""
    REJECTED = 1
    """A native function with no working ``out`` (every JAX/TF function, ``np.transpose``)."""
    DROPPED = 0
    """A same-file helper that receives ``out`` and does nothing with it."""


def describe_use(callee: str | None, via: str | None) -> str:
    """How a message names a call given ``out``: ```helper` -> `numpy.quantile``` or
    ```numpy.tan```. One text for both trees' analyses (``PlainUse.describe``)."""
    name = callee or "a call"
    return f"`{via}` -> `{name}`" if via and via != name else f"`{name}`"


def in_modules(qualified: str, modules: Sequence[str]) -> bool:
    """Whether a qualified name belongs to one of ``modules`` (``ivy.add`` to ``ivy``)."""
    return any(qualified == m or qualified.startswith(m + ".") for m in modules)


def classify_callee(
    qualified: str | None, runtime_modules: Sequence[str]
) -> tuple[UseKind, str | None]:
    """What a call of ``qualified`` (``None``: no import names it) does with an ``out=``
    it is given, by name alone; the same on libcst's and CPython's trees. Answered once
    per name and runtime modules: a function of the names and of the installed
    libraries' data, asked for nearly every call of a backend (thousands of ``np.tan``
    in one file)."""
    if qualified is None:
        return UseKind.UNKNOWN, None
    key = (qualified, runtime_modules if type(runtime_modules) is tuple else tuple(runtime_modules))
    found = _CLASSIFIED.get(key)
    if found is None:
        if len(_CLASSIFIED) >= _CLASSIFIED_AT_MOST:
            _CLASSIFIED.clear()  # a long-lived server meeting ever new names: start again
        found = _CLASSIFIED[key] = _classify_callee(qualified, key[1])
    return found


_CLASSIFIED: dict[tuple[str, tuple[str, ...]], tuple[UseKind, str | None]] = {}
_CLASSIFIED_AT_MOST = 50_000


def _classify_callee(qualified: str, runtime_modules: Sequence[str]) -> tuple[UseKind, str | None]:
    if in_modules(qualified, runtime_modules):
        return UseKind.UNKNOWN, qualified
    library = _native_out.native_library(qualified)
    if library in ("jax", "tensorflow"):
        if any(part.startswith("_") for part in qualified.split(".")):
            return UseKind.UNKNOWN, qualified  # internals (jax._src...): not the public API
        if _native_out.is_missing(qualified):
            return UseKind.UNKNOWN, qualified  # not in the installed release: not judged
        return UseKind.REJECTED, qualified
    if library is None or not _native_out.is_known_native(qualified):
        return UseKind.UNKNOWN, qualified
    if _native_out.accepts_native_out(qualified):
        return UseKind.NATIVE, qualified
    return UseKind.REJECTED, qualified


def implementations(index: ProjectIndex, names: Iterable[str]) -> dict[str, FunctionSummary]:
    """Per backend, its implementation of the first of ``names`` (sorted) it defines: what
    the project index knows of the backends an API function dispatches to, whatever tree
    the API function was read on."""
    found: dict[str, FunctionSummary] = {}
    for called in sorted(set(names)):
        for backend, function in index.implementations(called).items():
            found.setdefault(backend, function)
    return found


def implementation_uses_out(function: FunctionSummary) -> bool:
    """A backend function reads ``out``, or may pass it on through ``**kwargs`` (it takes no
    ``out`` of its own, so ``out=`` given to it lands there)."""
    return function.uses_out or (function.has_var_kwargs and not function.takes_out)


OUT_WRAPPER = "handle_out_argument"


def wrappers_added_at_run_time(attributes: Mapping[str, str]) -> set[str]:
    """The wrappers in ``mixed_backend_wrappers["to_add"]`` (dict display or ``dict(...)``),
    read from the attribute's source text as the project index keeps it.

    For a mixed function Ivy wraps the backend implementation with these at run time, so a
    wrapper listed there reads a backend's attributes as a decorator would.
    """
    source = attributes.get("mixed_backend_wrappers")
    if source is None:
        return set()
    try:
        value = ast.parse(source, mode="eval").body
    except SyntaxError:
        return set()
    added: ast.expr | None = None
    if isinstance(value, ast.Dict):
        for key, item in zip(value.keys, value.values, strict=True):
            if isinstance(key, ast.Constant) and key.value == "to_add":
                added = item
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        added = next((k.value for k in value.keywords if k.arg == "to_add"), None)
    if not isinstance(added, ast.Tuple | ast.List | ast.Set):
        return set()
    return {e.value for e in added.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}


class OutWrapping(enum.Enum):
    """Whether Ivy's ``handle_out_argument`` wraps the backends of an API function.

    Under that wrapper a backend function is handed ``out`` only if it carries
    ``support_native_out``; without the wrapper ``out`` is passed through as it is (data,
    for ``scatter_*``), and the attribute is read by nobody.
    """

    WRAPPED = "wrapped"
    """As the API function's decorator or through ``mixed_backend_wrappers["to_add"]``."""
    NOT_WRAPPED = "not wrapped"
    """The functional API defines the function without the wrapper."""
    UNKNOWN = "unknown"
    """The functional API does not define the function (or is not in the index)."""


def out_wrapping(index: ProjectIndex, name: str) -> OutWrapping:
    """Whether ``handle_out_argument`` wraps the backends of API function ``name``, by what
    the project index knows of it (whatever tree the API file was read on)."""
    api = index.api_function(name)
    if api is None:
        return OutWrapping.UNKNOWN
    if OUT_WRAPPER in api.decorators or OUT_WRAPPER in wrappers_added_at_run_time(api.attributes):
        return OutWrapping.WRAPPED
    return OutWrapping.NOT_WRAPPED


_DEFAULT_ORDER: tuple[str, ...] = Config(Path()).decorator_order
"""``decorator-order`` when the configuration does not set it."""


@dataclass(frozen=True)
class WrapperList:
    """The decorator order IVY005 holds functions to, and where it comes from."""

    source_order: tuple[str, ...]
    """Top to bottom as written (the first applied sits closest to ``def``)."""
    origin: str
    """For messages: ``the project's FN_DECORATORS order, ivy/func_wrapper.py:15``."""
    rewraps: bool = False
    """The project re-wraps a backend's function in this order when a backend is set
    (Ivy's ``_wrap_function``): the order written on such a function has no effect then."""


def wrapper_list(config: Config, index: ProjectIndex) -> WrapperList:
    """The order of a ``decorator-order`` the configuration sets; else the project's own
    wrapper list (``FN_DECORATORS``, read by :func:`~ivycheck.checker.project.layout.
    wrapper_order`); else Ivy's order as of 975c8fc (the default ``decorator-order``).

    No origin says "documented": the checker reads code, not a project's docs."""
    if config.decorator_order != _DEFAULT_ORDER:
        return WrapperList(config.decorator_order, "the configured decorator-order")
    found = index.wrapper_order()
    if found is None:
        return WrapperList(config.decorator_order, "Ivy's decorator order")
    path, order = found
    return WrapperList(
        tuple(name for name in order.source_order if _wraps(name, index)),
        f"the project's {order.variable} order, {path}:{order.line}",
        rewraps=order.rewraps,
    )


def _wraps(name: str, index: ProjectIndex) -> bool:
    """Whether a name of the project's list is a wrapper whose place can matter: one the
    project defines as ``def name(fn)`` returning a function (:class:`DecoratorSummary`),
    or one of Ivy's. A name the loop cannot apply as a wrapper (2023-03 Ivy lists
    ``with_unsupported_dtypes``, a class taking dtypes that only sets attributes) has
    no place to keep."""
    return name in _DEFAULT_ORDER or name in DECORATOR_ALIASES or index.decorator(name) is not None


def defines_wrappers(index: ProjectIndex) -> bool:
    """Whether the project defines its own function wrappers (it is Ivy, or a fork): then
    only the wrappers it defines exist, and advice may name no other. A project that
    defines none uses Ivy's (``import ivy``), all of which exist."""
    return bool(index.wrapper_paths()) or index.wrapper_order() is not None


def defined(name: str, index: ProjectIndex) -> bool:
    """Whether wrapper ``name`` exists for the project: it defines it, or it defines no
    wrappers of its own (:func:`defines_wrappers`)."""
    return index.decorator(name) is not None or not defines_wrappers(index)


EXAMPLE_WRAPPER_LIST = """
import functools

FN_DECORATORS = [
    "integer_arrays_to_float",
    "outputs_to_ivy_arrays",
    "inputs_to_native_arrays",
    "handle_out_argument",
    "handle_nestable",
    "handle_array_like_without_promotion",
]


def integer_arrays_to_float(fn):
    @functools.wraps(fn)
    def _integer_arrays_to_float(*args, **kwargs):
        return fn(*args, **kwargs)

    return _integer_arrays_to_float


def _wrap_function(key, to_wrap, original):
    for attr in FN_DECORATORS:
        if hasattr(original, attr) and not hasattr(to_wrap, attr):
            to_wrap = getattr(ivy, attr)(to_wrap)
    return to_wrap
"""
"""For the rules' examples: a project's own wrapper module whose list differs from today's
Ivy (an older era's names and places) and re-wraps with it, and which defines no view
wrapper."""
