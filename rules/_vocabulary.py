"""What Ivy's names mean, tree-free: read by the rules' checks and the out-flow analysis.

Nothing here looks at a syntax tree, so every rule and helper can share it whatever tree
it reads: which names are private or versioned helpers, which wrappers make views, what a
library call does with an ``out=`` it is given (by the data of
:mod:`~ivycheck.rules._native_out`), and how messages name such a call.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

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
    it is given, by name alone; the same on libcst's and CPython's trees."""
    if qualified is None:
        return UseKind.UNKNOWN, None
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
