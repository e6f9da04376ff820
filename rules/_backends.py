"""How functional-API code reaches the backends: ``current_backend(x).name(...)`` calls, the
backends in the run, and whether a backend implementation writes ``out``."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker.rule_api import FunctionSummary, ProjectIndex, RuleContext, walk
from ivycheck.rules._names import dotted


def backend_call(node: cst.Call) -> str | None:
    """``name`` for ``current_backend(...).name(...)`` (also ``ivy.current_backend``)."""
    func = node.func
    if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Call):
        return None
    called = dotted(func.value.func)
    if called is None or called.rsplit(".", 1)[-1] != "current_backend":
        return None
    return func.attr.value


class _BackendCalls(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: dict[str, None] = {}

    def visit_Call(self, node: cst.Call) -> None:
        called = backend_call(node)
        if called is not None:
            self.names[called] = None


class _BackendCallsByFunction:
    """Per file (``RuleContext.memo``): several API rules ask for the backend calls of
    every API function's body; one walk per body answers them all."""

    def __init__(self, module: cst.Module) -> None:
        self._found: dict[int, tuple[cst.FunctionDef, tuple[str, ...]]] = {}

    def of(self, function: cst.FunctionDef) -> tuple[str, ...]:
        known = self._found.get(id(function))
        if known is None or known[0] is not function:
            collector = _BackendCalls()
            walk(function.body, collector)
            known = self._found[id(function)] = (function, tuple(collector.names))
        return known[1]


def backend_calls_in(function: cst.FunctionDef, context: RuleContext) -> tuple[str, ...]:
    """The names ``function``'s body calls as ``current_backend(...).name(...)``, in order."""
    return context.memo(_BackendCallsByFunction).of(function)


def backends_seen(index: ProjectIndex) -> list[str]:
    """The backends with at least one file in the run (even a file without functions)."""
    return sorted(
        part.removeprefix("backend:") for part in index.parts() if part.startswith("backend:")
    )


class _OutUses(cst.CSTVisitor):
    """Whether a function body reads ``out`` other than to hand it to the backend."""

    def __init__(self) -> None:
        super().__init__()
        self.forwarded: set[str] = set()
        self.used = False
        self._not_reads: set[cst.Name] = set()

    def visit_Call(self, node: cst.Call) -> None:
        name = backend_call(node)
        for arg in node.args:
            if arg.keyword is not None:
                self._not_reads.add(arg.keyword)
            if (
                name is not None
                and arg.keyword is not None
                and arg.keyword.value == "out"
                and isinstance(arg.value, cst.Name)
                and arg.value.value == "out"
            ):
                self._not_reads.add(arg.value)
                self.forwarded.add(name)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._not_reads.add(node.attr)

    def visit_Param(self, node: cst.Param) -> None:
        self._not_reads.add(node.name)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == "out" and node not in self._not_reads:
            self.used = True


def body_uses_out(node: cst.FunctionDef) -> tuple[bool, set[str]]:
    """(reads ``out`` itself, backend functions it hands ``out=out`` to)."""
    finder = _OutUses()
    walk(node.body, finder)
    return finder.used, finder.forwarded


def implementation_uses_out(function: FunctionSummary) -> bool:
    """A backend function reads ``out``, or may pass it on through ``**kwargs``."""
    return function.uses_out or (function.has_var_kwargs and not function.takes_out)
