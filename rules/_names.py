"""Qualified names from imports: ``np.tan``, ``numpy.tan`` and ``tan`` after
``from numpy import tan`` are all ``numpy.tan``.

libcst's ``QualifiedNameProvider`` answers this too, but it needs the full scope analysis
of the file, which costs about four times the parse itself. Rules only need the names
that imports bind, so this resolver reads statements only (never expressions) and follows
Python's scoping just far enough: an import binds a name in its scope (module or
function); a name assigned anywhere in a function (parameter, assignment, loop, ``with``
or ``except`` target, local import) is local to the whole function and hides a
module-level import of the same name; class bodies do not enclose their methods.
``tests/rules/test_names.py`` proves that it agrees with ``QualifiedNameProvider`` on real
code.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import libcst as cst

from ivycheck.checker.rule_api import RuleContext, children
from ivycheck.rules._vocabulary import in_modules


def dotted(expression: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else ``None``."""
    if isinstance(expression, cst.Name):
        return expression.value
    if isinstance(expression, cst.Attribute):
        base = dotted(expression.value)
        return f"{base}.{expression.attr.value}" if base is not None else None
    return None


def _import_bindings(node: cst.Import | cst.ImportFrom) -> Iterator[tuple[str, str]]:
    """(bound name, qualified name) for each name an import statement binds."""
    if isinstance(node, cst.Import):
        for alias in node.names:
            full = dotted(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                yield alias.asname.name.value, full
            else:
                root = full.split(".", 1)[0]
                yield root, root
        return
    if isinstance(node.names, cst.ImportStar):
        return
    module = dotted(node.module) if node.module is not None else ""
    prefix = "." * len(node.relative) + (module or "")
    for alias in node.names:
        name = dotted(alias.name)
        if name is None:
            continue
        bound = name
        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
            bound = alias.asname.name.value
        separator = "" if not prefix or prefix.endswith(".") else "."
        yield bound, f"{prefix}{separator}{name}"


def _target_names(target: cst.BaseExpression) -> Iterator[str]:
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, cst.Tuple | cst.List):
        for element in target.elements:
            yield from _target_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from _target_names(target.value)


def _scan_statements(
    statements: Sequence[cst.BaseStatement] | Sequence[cst.BaseSmallStatement],
    imports: dict[str, str],
    hidden: set[str],
) -> None:
    """Names bound by statements (recursing into blocks, never into expressions)."""
    for statement in statements:
        if isinstance(statement, cst.SimpleStatementLine):
            _scan_statements(statement.body, imports, hidden)
        elif isinstance(statement, cst.Import | cst.ImportFrom):
            imports.update(_import_bindings(statement))
        elif isinstance(statement, cst.Assign):
            for target in statement.targets:
                hidden.update(_target_names(target.target))
        elif isinstance(statement, cst.AnnAssign | cst.AugAssign):
            hidden.update(_target_names(statement.target))
        elif isinstance(statement, cst.FunctionDef | cst.ClassDef):
            hidden.add(statement.name.value)
        elif isinstance(statement, cst.BaseCompoundStatement):
            _scan_compound(statement, imports, hidden)


def _pattern_names(pattern: cst.MatchPattern) -> set[str]:
    """Names a ``case`` pattern binds (``case [x, *rest]``, ``case {**kw}``, ``case y``)."""
    names: set[str] = set()
    todo: list[cst.CSTNode] = [pattern]
    while todo:
        node = todo.pop()
        if isinstance(node, cst.MatchAs | cst.MatchStar) and isinstance(node.name, cst.Name):
            names.add(node.name.value)
        elif isinstance(node, cst.MatchMapping) and isinstance(node.rest, cst.Name):
            names.add(node.rest.value)
        todo.extend(children(node))
    return names


def _scan_compound(
    statement: cst.BaseCompoundStatement, imports: dict[str, str], hidden: set[str]
) -> None:
    if isinstance(statement, cst.For):
        hidden.update(_target_names(statement.target))
    elif isinstance(statement, cst.With):
        for item in statement.items:
            if item.asname is not None and isinstance(item.asname.name, cst.BaseExpression):
                hidden.update(_target_names(item.asname.name))
    blocks: list[cst.BaseSuite]
    if isinstance(statement, cst.Match):  # no ``body``: one block per case
        blocks = [case.body for case in statement.cases]
        for case in statement.cases:
            hidden.update(_pattern_names(case.pattern))
    else:
        blocks = [statement.body]
    if isinstance(statement, cst.Try | cst.TryStar):
        for handler in statement.handlers:
            if handler.name is not None and isinstance(handler.name.name, cst.Name):
                hidden.add(handler.name.name.value)
            blocks.append(handler.body)
        if statement.finalbody is not None:
            blocks.append(statement.finalbody.body)
    orelse = getattr(statement, "orelse", None)
    while orelse is not None:
        blocks.append(orelse.body)
        orelse = getattr(orelse, "orelse", None)
    for block in blocks:
        if isinstance(block, cst.IndentedBlock | cst.SimpleStatementSuite):
            _scan_statements(block.body, imports, hidden)


@dataclass(frozen=True)
class _FunctionScope:
    imports: dict[str, str]
    hidden: frozenset[str]


def _function_scope(function: cst.FunctionDef) -> _FunctionScope:
    imports: dict[str, str] = {}
    hidden: set[str] = set()
    if isinstance(function.body, cst.IndentedBlock | cst.SimpleStatementSuite):
        _scan_statements(function.body.body, imports, hidden)
    params = function.params
    for param in (
        *params.posonly_params,
        *params.params,
        *params.kwonly_params,
        *(p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)),
    ):
        hidden.add(param.name.value)
    return _FunctionScope(imports, frozenset(hidden - set(imports)))


class ImportMap:
    """Resolves the expressions of one file to fully qualified names.

    Built in one cheap pass over the module's statements (no expression is walked). Scope
    comes from the engine's walk: while rules visit a function, ``scope_stack`` holds the
    enclosing ``FunctionDef`` nodes (the engine binds it through ``RuleContext.memo``), and
    each function's own imports and local names are read once, on first use, from its
    statements. A rule that walks a function body itself during ``visit_FunctionDef``
    therefore resolves names in that function's scope.
    """

    def __init__(self, module_imports: dict[str, str] | None = None) -> None:
        self.module_imports: dict[str, str] = dict(module_imports or {})
        self.scope_stack: list[cst.FunctionDef] = []
        self._scopes: dict[cst.FunctionDef, _FunctionScope] = {}

    @classmethod
    def of(cls, module: cst.Module) -> ImportMap:
        imports: dict[str, str] = {}
        _scan_statements(module.body, imports, set())
        return cls(imports)

    def bind_context(self, context: object) -> None:
        """Share the engine's stack of enclosing functions (see ``RuleContext.memo``)."""
        stack = getattr(context, "function_stack", None)
        if isinstance(stack, list):
            self.scope_stack = stack

    def _scope(self, function: cst.FunctionDef) -> _FunctionScope:
        scope = self._scopes.get(function)
        if scope is None:
            scope = self._scopes[function] = _function_scope(function)
        return scope

    def _lookup(self, head: str) -> str | None:
        for function in reversed(self.scope_stack):
            scope = self._scope(function)
            if head in scope.imports:
                return scope.imports[head]
            if head in scope.hidden:
                return None
        return self.module_imports.get(head)

    def qualify(self, expression: cst.BaseExpression) -> str | None:
        """The imported thing an expression names, e.g. ``numpy.linalg.norm``; else ``None``.

        Names that no import binds (locals, builtins, module-level functions) give ``None``.
        """
        chain = dotted(expression)
        if chain is None:
            return None
        head, _, rest = chain.partition(".")
        target = self._lookup(head)
        if target is None:
            return None
        return f"{target}.{rest}" if rest else target


def module_level_statements(module: cst.Module) -> Iterator[cst.BaseSmallStatement]:
    """The small statements (imports, assignments, calls) standing at module level outside
    any block: where Ivy imports names, wraps functions by assignment and sets their
    attributes."""
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from statement.body


def is_inplace_update(func: cst.BaseExpression) -> bool:
    """``inplace_update`` or ``<anything>.inplace_update``, by name alone."""
    if isinstance(func, cst.Attribute):
        return func.attr.value == "inplace_update"
    return isinstance(func, cst.Name) and func.value == "inplace_update"


def is_runtime_inplace_update(call: cst.Call, context: RuleContext) -> bool:
    """``inplace_update(...)`` of the runtime: ``ivy.inplace_update``, a bare
    ``inplace_update`` (imported from a runtime module, or defined in the runtime itself).

    Methods (``x.inplace_update(v)``) and functions imported from elsewhere are not it.
    The runtime's modules are the configuration's ``runtime_modules``.
    """
    if not is_inplace_update(call.func):
        return False
    qualified = context.memo(ImportMap.of).qualify(call.func)
    if qualified is None:
        return isinstance(call.func, cst.Name)
    return in_modules(qualified, context.config.runtime_modules)
