"""The functions of Ivy's API as the API rules (IVY008-IVY016) see them.

Which module-level functions count (not private, not versioned helpers), their ``out``
parameter, their wrappers and what the project index knows of them: read here once, so
that every API rule starts from the same facts.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

import libcst as cst

from ivycheck.checker.rule_api import FunctionSummary, ProjectIndex, RuleContext
from ivycheck.rules._decorators import wrappers_of
from ivycheck.rules._vocabulary import is_private_helper


def parameter_names(params: cst.Parameters) -> list[str]:
    """The names a call can bind by position or keyword (not ``*args``/``**kwargs``)."""
    return [p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)]


def out_param(params: cst.Parameters) -> cst.Param | None:
    """The ``out`` parameter of a signature, wherever it sits."""
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == "out":
            return param
    return None


@dataclass(frozen=True)
class ApiFunction:
    """A public module-level function of the file being checked."""

    node: cst.FunctionDef
    out: cst.Param | None
    wrappers: set[str]
    """Decorators and ``f = wrapper(f)`` assignments (:func:`wrappers_of`)."""
    attributes: Mapping[str, str]
    """Attributes the file sets on it (``f.mixed_backend_wrappers = ...``), per the index."""

    @property
    def name(self) -> str:
        return self.node.name.value


def api_functions(context: RuleContext) -> Iterator[ApiFunction]:
    """The file's public module-level functions, in source order."""
    summary = context.index.files.get(context.relative_path)
    for statement in context.module.body:
        if not isinstance(statement, cst.FunctionDef):
            continue
        name = statement.name.value
        if is_private_helper(name):
            continue
        own = summary.functions.get(name) if summary is not None else None
        yield ApiFunction(
            statement,
            out_param(statement.params),
            wrappers_of(statement, context),
            own.attributes if own is not None else {},
        )


def implementations(index: ProjectIndex, names: Iterable[str]) -> dict[str, FunctionSummary]:
    """Per backend, its implementation of the first of ``names`` (sorted) it defines."""
    found: dict[str, FunctionSummary] = {}
    for called in sorted(set(names)):
        for backend, function in index.implementations(called).items():
            found.setdefault(backend, function)
    return found


OUT_WRAPPER = "handle_out_argument"


def wrappers_added_at_run_time(attributes: Mapping[str, str]) -> set[str]:
    """The wrappers in ``mixed_backend_wrappers["to_add"]`` (dict display or ``dict(...)``).

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
    """Whether ``handle_out_argument`` wraps the backends of API function ``name``."""
    api = index.api_function(name)
    if api is None:
        return OutWrapping.UNKNOWN
    if OUT_WRAPPER in api.decorators or OUT_WRAPPER in wrappers_added_at_run_time(api.attributes):
        return OutWrapping.WRAPPED
    return OutWrapping.NOT_WRAPPED
