"""Qualified names from imports: ``np.tan``, ``numpy.tan`` and ``tan`` after
``from numpy import tan`` are all ``numpy.tan``.

libcst's ``QualifiedNameProvider`` answers this too, but it needs the full scope analysis
of the file, which costs about four times the parse itself. Rules only need the names
that imports bind, so this resolver makes one walk that follows Python's scoping just
far enough: an import binds a name in its scope (module or function); a name assigned
anywhere in a function (parameter, assignment, loop or ``with`` target, local import) is
local to the whole function and hides a module-level import of the same name; class
bodies do not enclose their methods. ``tests/rules/test_names.py`` proves that it agrees
with ``QualifiedNameProvider`` on real code.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst


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


class _LocalNames(cst.CSTVisitor):
    """Names a function binds (not descending into nested functions or classes)."""

    def __init__(self) -> None:
        super().__init__()
        self.locals: set[str] = set()
        self.imports: dict[str, str] = {}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.locals.add(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.locals.add(node.name.value)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Import(self, node: cst.Import) -> None:
        self.imports.update(_import_bindings(node))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.imports.update(_import_bindings(node))

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.locals.update(_target_names(node.target))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self.locals.update(_target_names(node.target))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.locals.update(_target_names(node.target))

    def visit_For(self, node: cst.For) -> None:
        self.locals.update(_target_names(node.target))

    def visit_AsName(self, node: cst.AsName) -> None:
        if isinstance(node.name, cst.BaseExpression):
            self.locals.update(_target_names(node.name))

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.locals.update(_target_names(node.target))


class _Scope:
    def __init__(self, imports: dict[str, str], hidden: set[str]) -> None:
        self.imports = imports
        self.hidden = hidden


class _Resolver(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.scopes: list[_Scope] = []
        self.resolved: dict[cst.CSTNode, str] = {}

    def visit_Module(self, node: cst.Module) -> None:
        collector = _ModuleImports()
        node.visit(collector)
        self.scopes.append(_Scope(collector.imports, set()))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        names = _LocalNames()
        node.body.visit(names)
        params = node.params
        for param in (
            *params.posonly_params,
            *params.params,
            *params.kwonly_params,
            *(p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)),
        ):
            names.locals.add(param.name.value)
        hidden = names.locals - set(names.imports)
        self.scopes.append(_Scope(names.imports, hidden))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scopes.pop()

    def _lookup(self, head: str) -> str | None:
        for scope in reversed(self.scopes):
            if head in scope.imports:
                return scope.imports[head]
            if head in scope.hidden:
                return None
        return None

    def _record(self, node: cst.Name | cst.Attribute) -> None:
        chain = dotted(node)
        if chain is None:
            return
        head, _, rest = chain.partition(".")
        target = self._lookup(head)
        if target is not None:
            self.resolved[node] = f"{target}.{rest}" if rest else target

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._record(node)

    def visit_Name(self, node: cst.Name) -> None:
        self._record(node)


class _ModuleImports(cst.CSTVisitor):
    """Imports bound at module level (including inside ``if``/``try`` blocks)."""

    def __init__(self) -> None:
        super().__init__()
        self.imports: dict[str, str] = {}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Import(self, node: cst.Import) -> None:
        self.imports.update(_import_bindings(node))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.imports.update(_import_bindings(node))


class ImportMap:
    """Resolves the expressions of one file to fully qualified names."""

    def __init__(self, resolved: dict[cst.CSTNode, str]) -> None:
        self._resolved = resolved

    @classmethod
    def of(cls, module: cst.Module) -> ImportMap:
        resolver = _Resolver()
        module.visit(resolver)
        return cls(resolver.resolved)

    def qualify(self, expression: cst.BaseExpression) -> str | None:
        """The imported thing an expression names, e.g. ``numpy.linalg.norm``; else ``None``.

        Names that no import binds (locals, builtins, module-level functions) give ``None``.
        """
        return self._resolved.get(expression)

    def qualify_call(self, call: cst.Call) -> str | None:
        return self.qualify(call.func)
