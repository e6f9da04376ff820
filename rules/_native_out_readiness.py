"""Whether ``support_native_out`` alone makes a backend function's native path work.

IVY001 asks for the attribute on a function that forwards ``out`` natively. With it,
Ivy's wrapper hands the native buffer over and stops writing ``out`` itself, so the
attribute is only advice where the function then still fills the caller's buffer, and a
working call cannot start to raise. :meth:`AttributeReadiness.blocker` names the first
reason it would not (the end of the finding's message; no fix is offered), in this order:
a ``return`` that never writes ``out``; a return of a method of the native call's result
where the backend's update rebinds ``out``; a tuple ``out`` the wrapper cannot hand over;
a wrapper that casts the result into ``out``'s dtype on its path without the attribute.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from ivycheck.rules._ast_out_analysis import ModuleFlows, OutFlow, return_paths
from ivycheck.rules._ast_outflow import first_method_of_call_return
from ivycheck.rules._ast_several_results import several_results
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._out_fate import (
    COPIES,
    WOULD,
    OutFate,
    compose,
    converts_tuple_items,
    ignored_buffer_fate,
    path_fate,
    project_wrapper,
)

if TYPE_CHECKING:
    from ivycheck.checker.rule_api import FileUnderCheck, ProjectIndex


class AttributeReadiness:
    """Why adding the attribute alone would break a function of one file
    (:meth:`blocker`). What the project decides (the fate of an ignored buffer on the
    file's backend, whether the wrapper casts into ``out``'s dtype) is the same for every
    function of the file: read once, when a function first needs it (a file of thousands
    of findings asked the index per function)."""

    def __init__(self, flows: ModuleFlows, file: FileUnderCheck, lines: Lines) -> None:
        self.flows = flows
        self.index = file.index
        self.backend = file.backend or ""
        self.lines = lines

    @cached_property
    def _ignored_fate(self) -> OutFate:
        return ignored_buffer_fate(self.index, self.backend)

    @cached_property
    def _casts(self) -> bool:
        return wrapper_casts_to_out(self.index, self.backend)

    def blocker(self, flow: OutFlow) -> str | None:
        """Why adding the attribute alone would break the function (the end of the
        message, no fix offered), or ``None`` when the fix is safe to offer: a return that
        does not write ``out``, a return of a method of the native call's result where the
        backend's update rebinds ``out``, a tuple ``out`` the wrapper cannot hand over, a
        wrapper that casts into ``out``'s dtype (``flow``: one with a native use)."""
        function = flow.function
        native = flow.native
        name = function.name
        dropping = next((path for path in return_paths(flow) if not path.covered), None)
        if dropping is not None:
            return _dropping_blocker(name, dropping.node.lineno)
        helpers = [self.flows.functions.get(use.via or "") for use in native]
        chained = next(
            (
                found
                for candidate in (function, *helpers)
                if candidate is not None
                for found in [first_method_of_call_return(candidate)]
                if found is not None
            ),
            None,
        )
        if chained is not None and self._ignored_fate.kind != COPIES:
            return _chained_blocker(chained.lineno, self._ignored_fate)
        if several_results(function, self.lines):
            tuple_out = several_results(function, self.lines, out_only=True)
            return _several_blocker(self.index, self.backend, tuple_out)
        return _cast_blocker(name, native[0].describe()) if self._casts else None


def _dropping_blocker(name: str, line_number: int) -> str:
    return (
        f"the return on line {line_number} never writes `out`, so make every return "
        "write it (forward `out` or `inplace_update`) before adding "
        f"`{name}.support_native_out = True`"
    )


def _chained_blocker(line_number: int, fate: OutFate) -> str:
    return compose(
        f"but the return on line {line_number} hands back a method of the native "
        "call's result (a new array)",
        ", and with the attribute ",
        fate,
        ": return what the native call wrote before adding the attribute",
        WOULD,
    )


_SEVERAL_BLOCKER = (
    "`out` holds several results here, and the wrapper hands a tuple `out` over "
    "without converting its items (`to_native` without `nested`), so the "
    "attribute alone does not make this native path work: convert the items (or "
    "write each with `inplace_update`) first"
)


def _several_blocker(index: ProjectIndex, backend: str, tuple_out: bool | None) -> str | None:
    """Why the attribute alone would not make a tuple ``out``'s native path work, if it
    would not: the wrapper never hands a tuple over (its gate is true for every tuple; said
    where ``out`` itself is annotated as a tuple, ``tuple_out``), or hands it over with its
    items still wrapped."""
    fate = ignored_buffer_fate(index, backend, several=True)
    if fate.never_handed and tuple_out:
        return f"`out` holds several results here, and {fate.clause()}"
    return None if converts_tuple_items(index) else _SEVERAL_BLOCKER


def wrapper_casts_to_out(index: ProjectIndex, backend: str) -> bool:
    """Whether the project's ``handle_out_argument``, on its path without the attribute,
    casts the result into ``out``'s dtype (``inplace_update(out, astype(ret, dtype(out)))``,
    or a backend update that copies into ``out``'s buffer).

    There a call with an ``out`` of any dtype works without the attribute, while with it
    ``out``'s buffer goes to the native function as it is, and a native ``out=`` refuses
    dtypes the cast accepts (``torch.fft.ifft`` any but the result's; a NumPy ufunc another
    kind): the attribute can make a working call raise (``make verify-fixes --unsafe``,
    PyTorch ``ifft`` on ivy-975c8fc). Read only from a wrapper of the project: without one
    the documented default is not taken as a reason to withhold the fix."""
    found = project_wrapper(index)
    if found is None:
        return False
    outcome = found[1].fates.get("wrapper single other", "")
    if outcome.startswith("update:") and outcome.endswith(":out"):
        return True
    return path_fate(index, backend, "wrapper", False, same_dtype=False).kind == COPIES


def _cast_blocker(name: str, described: str) -> str:
    """Why the unsafe fix is withheld where the wrapper casts (:func:`wrapper_casts_to_out`)."""
    return (
        f"adding `{name}.support_native_out = True` would hand `out`'s buffer to {described} "
        "uncast, where the project's `handle_out_argument` now casts the result into `out`'s "
        "dtype, and a native `out=` refuses some dtypes that cast accepts: a call that works now could "
        f"raise, so no fix is offered (add it where callers pass only `out` dtypes "
        f"{described} takes)"
    )


def forwards(name: str, described: str) -> str:
    return (
        f"`{name}` forwards `out` natively to {described} but lacks `support_native_out`, "
        "so the wrapper never passes `out` (dead native path, extra allocation)"
    )


def with_advice(found: str, name: str) -> str:
    return f"{found}; add `{name}.support_native_out = True`"
