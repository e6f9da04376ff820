"""Facts about CPython's ``ast`` tree of a file that several rules read.

* :func:`dotted` - ``a.b.c`` of a chain of names and attributes,
* :class:`AstImportMap` - names bound by imports, resolved to qualified names, with
  function scopes followed (``np.tan`` -> ``numpy.tan``),
* :func:`facts` - one walk of each tree: its functions with the dotted names of their
  decorators (a call's callee for ``@dec(...)``), its calls, those passing a keyword
  (``out=``), its import map,
* :func:`parameter_names`, :func:`positional_or_keyword`, :func:`child_nodes` and the like.

Where a name could be bound several ways (an import in one branch, another in the other),
the map answers as a reader of the code would for the common case and the rules say in
their docstrings what they assume.
"""

from __future__ import annotations

import ast
import threading
import weakref
from collections.abc import Iterator, Sequence

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def dotted(expression: ast.expr) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else ``None``."""
    parts: list[str] = []
    while isinstance(expression, ast.Attribute):
        parts.append(expression.attr)
        expression = expression.value
    if not isinstance(expression, ast.Name):
        return None
    parts.append(expression.id)
    return ".".join(reversed(parts))


def callee(call: ast.Call) -> str | None:
    """The dotted name of what a call calls (``np.add.reduce``), else ``None``."""
    return dotted(call.func)


def decorator_name(decorator: ast.expr) -> str | None:
    """``handle_out_argument`` for ``@handle_out_argument`` and ``@handle_out_argument()``;
    ``ivy.handle_nestable`` for ``@ivy.handle_nestable``; ``None`` for anything else."""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    return dotted(decorator)


def decorator_names(function: FunctionNode | ast.ClassDef) -> tuple[str | None, ...]:
    """The dotted names of a definition's decorators, top to bottom."""
    return tuple(decorator_name(d) for d in function.decorator_list)


def top_level_functions(tree: ast.Module) -> Iterator[FunctionNode]:
    """The functions defined directly at module level (not in a class or another block)."""
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            yield statement


def functions(node: ast.AST) -> Iterator[FunctionNode]:
    """Every function definition below ``node`` (nested ones and methods included)."""
    for child in ast.walk(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield child


def parameter_names(function: FunctionNode | ast.Lambda) -> list[str]:
    """Every parameter's name, in order (positional-only, regular, ``*args``,
    keyword-only, ``**kwargs``)."""
    args = function.args
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    if args.vararg is not None:
        names.append(args.vararg.arg)
    names.extend(a.arg for a in args.kwonlyargs)
    if args.kwarg is not None:
        names.append(args.kwarg.arg)
    return names


def positional_or_keyword(function: FunctionNode) -> list[str]:
    """The names a call can bind by position or keyword (not ``*args``/``**kwargs``)."""
    args = function.args
    return [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]


def calls(node: ast.AST) -> Iterator[ast.Call]:
    """Every call below ``node`` (``node`` included)."""
    for child in ast.walk(node):
        if isinstance(child, ast.Call):
            yield child


def keyword(call: ast.Call, name: str) -> ast.keyword | None:
    """The keyword argument ``name=`` of a call, else ``None``."""
    return next((k for k in call.keywords if k.arg == name), None)


def keyword_calls(node: ast.AST, name: str = "out") -> Iterator[tuple[ast.Call, ast.expr]]:
    """Every call below ``node`` passing ``name=`` (``out=`` by default), with the value."""
    for call in calls(node):
        for k in call.keywords:
            if k.arg == name:
                yield call, k.value


def module_level_statements(tree: ast.Module) -> Iterator[ast.stmt]:
    """The statements standing at module level outside any block."""
    yield from tree.body


def attribute_targets(tree: ast.AST) -> Iterator[tuple[str, str]]:
    """``(object, attribute)`` of every ``obj.attr = ...`` below ``tree`` whose object is
    a plain name (``tan.support_native_out = True`` gives ``("tan", "support_native_out")``)."""
    for node in ast.walk(tree):
        targets: Sequence[ast.expr] = ()
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = (node.target,)
        for target in targets:
            for element in _flatten(target):
                if isinstance(element, ast.Attribute) and isinstance(element.value, ast.Name):
                    yield element.value.id, element.attr


def _flatten(target: ast.expr) -> Iterator[ast.expr]:
    if isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _flatten(element)
    elif isinstance(target, ast.Starred):
        yield from _flatten(target.value)
    else:
        yield target


# Imports -----------------------------------------------------------------------------


def import_bindings(node: ast.Import | ast.ImportFrom) -> Iterator[tuple[str, str]]:
    """(bound name, qualified name) for each name an import statement binds."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname is not None:
                yield alias.asname, alias.name
            else:
                root = alias.name.split(".", 1)[0]
                yield root, root
        return
    prefix = "." * node.level + (node.module or "")
    separator = "" if not prefix or prefix.endswith(".") else "."
    for alias in node.names:
        if alias.name == "*":
            continue
        yield alias.asname or alias.name, f"{prefix}{separator}{alias.name}"


def _target_names(target: ast.expr) -> Iterator[str]:
    for element in _flatten(target):
        if isinstance(element, ast.Name):
            yield element.id


def _pattern_names(pattern: ast.pattern) -> Iterator[str]:
    for node in ast.walk(pattern):
        if isinstance(node, ast.MatchAs | ast.MatchStar) and node.name is not None:
            yield node.name
        elif isinstance(node, ast.MatchMapping) and node.rest is not None:
            yield node.rest


def scan_statements(
    statements: Sequence[ast.stmt], imports: dict[str, str], hidden: set[str]
) -> None:
    """Names bound by statements (recursing into blocks, never into expressions or nested
    definitions)."""
    for statement in statements:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            imports.update(import_bindings(statement))
        elif isinstance(statement, ast.Assign):
            for target in statement.targets:
                hidden.update(_target_names(target))
        elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
            hidden.update(_target_names(statement.target))
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            hidden.add(statement.name)
        else:
            _scan_compound(statement, imports, hidden)


def _scan_compound(statement: ast.stmt, imports: dict[str, str], hidden: set[str]) -> None:
    blocks: list[Sequence[ast.stmt]] = []
    if isinstance(statement, ast.For | ast.AsyncFor):
        hidden.update(_target_names(statement.target))
    elif isinstance(statement, ast.With | ast.AsyncWith):
        for item in statement.items:
            if item.optional_vars is not None:
                hidden.update(_target_names(item.optional_vars))
    elif isinstance(statement, ast.Match):
        for case in statement.cases:
            hidden.update(_pattern_names(case.pattern))
            blocks.append(case.body)
    elif isinstance(statement, ast.Try | ast.TryStar):
        for handler in statement.handlers:
            if handler.name is not None:
                hidden.add(handler.name)
            blocks.append(handler.body)
        blocks.append(statement.finalbody)
    for attribute in ("body", "orelse"):
        block = getattr(statement, attribute, None)
        if isinstance(block, list):
            blocks.append(block)
    for block in blocks:
        scan_statements(block, imports, hidden)


class AstImportMap:
    """Names bound by imports, resolved to qualified names (``np`` -> ``numpy``).

    :meth:`qualify` resolves in the module's scope, or inside ``scope`` (the enclosing
    functions, outermost first): a function's own imports win, a name the function binds otherwise hides the module's
    import of it.
    """

    def __init__(self, module_imports: dict[str, str]) -> None:
        self.module_imports = module_imports
        self._scopes: dict[FunctionNode, tuple[dict[str, str], frozenset[str]]] = {}

    @classmethod
    def of(cls, tree: ast.Module) -> AstImportMap:
        imports: dict[str, str] = {}
        scan_statements(tree.body, imports, set())
        return cls(imports)

    def _scope(self, function: FunctionNode) -> tuple[dict[str, str], frozenset[str]]:
        scope = self._scopes.get(function)
        if scope is None:
            imports: dict[str, str] = {}
            hidden: set[str] = set(parameter_names(function))
            scan_statements(function.body, imports, hidden)
            scope = self._scopes[function] = (imports, frozenset(hidden - set(imports)))
        return scope

    def lookup(self, head: str, scope: Sequence[FunctionNode] = ()) -> str | None:
        for function in reversed(scope):
            imports, hidden = self._scope(function)
            if head in imports:
                return imports[head]
            if head in hidden:
                return None
        return self.module_imports.get(head)

    def qualify(self, expression: ast.expr, scope: Sequence[FunctionNode] = ()) -> str | None:
        """The imported thing an expression names (``numpy.linalg.norm``), else ``None``."""
        chain = dotted(expression)
        if chain is None:
            return None
        head, _, rest = chain.partition(".")
        target = self.lookup(head, scope)
        if target is None:
            return None
        return f"{target}.{rest}" if rest else target

    def qualified_names(self) -> set[str]:
        """Every qualified name the module's own imports bind."""
        return set(self.module_imports.values())


def scoped_calls(
    node: ast.AST, scope: tuple[FunctionNode, ...] = ()
) -> Iterator[tuple[ast.Call, tuple[FunctionNode, ...]]]:
    """Every call below ``node`` with the functions enclosing it (outermost first, the
    functions ``scope`` holds before), for :meth:`AstImportMap.qualify`."""
    stack: list[tuple[ast.AST, tuple[FunctionNode, ...]]] = [(node, scope)]
    while stack:
        current, enclosing = stack.pop()
        if isinstance(current, ast.Call):
            yield current, enclosing
        inner = (
            (*enclosing, current)
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef)
            else enclosing
        )
        stack.extend((child, inner) for child in ast.iter_child_nodes(current))


class AnyScopeImports:
    """Every qualified name a name may stand for through an import anywhere in the file
    (module level, in any block, function or class): a superset of what
    :class:`AstImportMap` answers in any scope, for a reader that must not miss one."""

    def __init__(self, bindings: dict[str, set[str]]) -> None:
        self.bindings = bindings

    @classmethod
    def of(cls, tree: ast.AST) -> AnyScopeImports:
        bindings: dict[str, set[str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for bound, qualified in import_bindings(node):
                    bindings.setdefault(bound, set()).add(qualified)
        return cls(bindings)

    def qualify(self, expression: ast.expr) -> set[str]:
        """Every imported thing an expression may name (empty: no import binds it)."""
        chain = dotted(expression)
        if chain is None:
            return set()
        head, _, rest = chain.partition(".")
        return {f"{target}.{rest}" if rest else target for target in self.bindings.get(head, ())}


def attribute_target_names(statement: ast.Assign, attribute: str) -> Iterator[str]:
    """``name`` for each target of ``statement`` that is ``name.attribute`` itself, in
    order: a site of an assignment (a tuple or list target is not looked into)."""
    for target in statement.targets:
        if (
            isinstance(target, ast.Attribute)
            and target.attr == attribute
            and isinstance(target.value, ast.Name)
        ):
            yield target.value.id


def wrapper_name(decorator: ast.expr) -> str:
    """``_decorators.decorator_name`` on ``ast``: ``handle_view`` for ``@handle_view``,
    ``@ivy.handle_view``, ``@anything().handle_view`` and ``@handle_view(...)``; ``""``
    for any other expression."""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    if isinstance(decorator, ast.Attribute):
        return decorator.attr
    if isinstance(decorator, ast.Name):
        return decorator.id
    return ""


# One walk per tree ----------------------------------------------------------------------

Scope = tuple[FunctionNode, ...]
"""The functions enclosing a node, outermost first (as :func:`scoped_calls` gives them:
a function's decorators, defaults and annotations count as inside it)."""

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_CALL, _FUNCTION, _CLASS, _IMPORT, _ASSIGNMENT, _RETURN = range(6)
_KINDS: dict[type[ast.AST], int] = {
    ast.Call: _CALL,
    ast.FunctionDef: _FUNCTION,
    ast.AsyncFunctionDef: _FUNCTION,
    ast.ClassDef: _CLASS,
    ast.Import: _IMPORT,
    ast.ImportFrom: _IMPORT,
    ast.Assign: _ASSIGNMENT,
    ast.AnnAssign: _ASSIGNMENT,
    ast.AugAssign: _ASSIGNMENT,
    ast.NamedExpr: _ASSIGNMENT,
    ast.Return: _RETURN,
}
_CHILD_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}
"""Per node type, the fields that may hold nodes that matter (no contexts, operators)."""
_NOT_NODES = frozenset(
    {"ctx", "op", "ops", "id", "attr", "arg", "asname", "module", "level", "kind", "type_comment"}
)
_LEAVES = frozenset({ast.Name, ast.Constant})
"""Never pushed: names and constants hold nothing the facts gather."""


def _child_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(f for f in kind._fields if f not in _NOT_NODES)
    return fields


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """``ast.iter_child_nodes`` without contexts and operators (shared singletons that hold
    nothing), in the same order: a list from the fields known per node type, a third of
    the cost of the generator over every field on a large file's walks."""
    found: list[ast.AST] = []
    for name in _child_fields(node.__class__):
        value = getattr(node, name, None)
        if value.__class__ is list:
            found.extend(item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            found.append(value)
    return found


class TreeFacts:
    """What the rules read from one file's tree, gathered in one walk
    (:func:`facts`): the calls, definitions, imports, assignments and returns, each with the
    functions enclosing it. Derived facts (the import maps, calls by keyword, calls inside a
    function...) are computed on first use and kept.

    Holds no reference to the ``ast.Module`` itself (only to its nodes), so that
    :func:`facts` can forget it when the tree goes.
    """

    def __init__(self, tree: ast.Module) -> None:
        self.body: list[ast.stmt] = tree.body
        self.calls: list[tuple[ast.Call, Scope]] = []
        """Every call, with the functions enclosing it."""
        self.functions: list[tuple[FunctionNode, Scope]] = []
        """Every function definition (nested ones and methods included), with the
        functions enclosing it."""
        self.classes: list[tuple[ast.ClassDef, Scope]] = []
        self.imports: list[tuple[ast.Import | ast.ImportFrom, Scope]] = []
        self.assignments: list[ast.Assign | ast.AnnAssign | ast.AugAssign | ast.NamedExpr] = []
        """Every assignment statement and ``:=``."""
        self.returns: list[tuple[ast.Return, Scope]] = []
        """Every ``return``, with the functions enclosing it (the last is its own)."""
        self._keywords: dict[str | None, list[tuple[ast.Call, ast.keyword, Scope]]] | None = None
        self._within: dict[int, list[ast.Call]] | None = None
        self._import_map: AstImportMap | None = None
        self._any_scope: AnyScopeImports | None = None
        self._assigned: dict[str, list[ast.expr]] | None = None
        self._name_sources: set[str] | None = None
        self._attribute_sites: dict[str, dict[str, list[ast.expr]]] = {}
        self._collect(tree)

    def _collect(self, tree: ast.Module) -> None:
        kinds, fields_of, leaves, node_type = _KINDS, _CHILD_FIELDS, _LEAVES, ast.AST
        calls, returns = self.calls.append, self.returns.append
        segments: list[tuple[ast.AST, Scope]] = [(tree, ())]
        while segments:
            root, scope = segments.pop()
            stack: list[ast.AST] = [root]
            push = stack.append
            while stack:
                node = stack.pop()
                cls = node.__class__
                kind = kinds.get(cls)
                if kind is not None:
                    if kind == _CALL:
                        calls((node, scope))  # type: ignore[arg-type]
                    elif kind == _FUNCTION and node is not root:
                        function: FunctionNode = node  # type: ignore[assignment]
                        self.functions.append((function, scope))
                        segments.append((function, (*scope, function)))
                        continue
                    elif kind == _CLASS:
                        self.classes.append((node, scope))  # type: ignore[arg-type]
                    elif kind == _IMPORT:
                        self.imports.append((node, scope))  # type: ignore[arg-type]
                    elif kind == _ASSIGNMENT:
                        self.assignments.append(node)  # type: ignore[arg-type]
                    elif kind == _RETURN:
                        returns((node, scope))  # type: ignore[arg-type]
                fields = fields_of.get(cls)
                if fields is None:
                    fields = _child_fields(cls)
                for name in fields:
                    value = getattr(node, name, None)
                    if value.__class__ is list:
                        for item in value:
                            if isinstance(item, node_type) and item.__class__ not in leaves:
                                push(item)
                    elif isinstance(value, node_type) and value.__class__ not in leaves:
                        push(value)

    # Derived facts, computed on first use --------------------------------------------

    def top_level_functions(self) -> list[FunctionNode]:
        """The functions defined directly at module level, in source order."""
        return [s for s in self.body if isinstance(s, _DEFINITIONS)]

    def keyword_calls(self, name: str | None = "out") -> list[tuple[ast.Call, ast.keyword, Scope]]:
        """Every call passing ``name=`` (``None``: a ``**mapping``), with the keyword and
        the functions enclosing the call (a call passing two ``**`` once per keyword)."""
        if self._keywords is None:
            by_keyword: dict[str | None, list[tuple[ast.Call, ast.keyword, Scope]]] = {}
            for call, scope in self.calls:
                for k in call.keywords:
                    by_keyword.setdefault(k.arg, []).append((call, k, scope))
            self._keywords = by_keyword
        return self._keywords.get(name, [])

    def calls_within(self, function: FunctionNode) -> list[ast.Call]:
        """Every call inside ``function`` (its decorators, defaults and nested functions
        included, as ``calls(function)`` walks them)."""
        if self._within is None:
            within: dict[int, list[ast.Call]] = {}
            for call, scope in self.calls:
                for enclosing in scope:
                    within.setdefault(id(enclosing), []).append(call)
            self._within = within
        return self._within.get(id(function), [])

    @property
    def import_map(self) -> AstImportMap:
        """``AstImportMap.of(tree)``, shared (with its per-function scopes) by every rule."""
        if self._import_map is None:
            imports: dict[str, str] = {}
            scan_statements(self.body, imports, set())
            self._import_map = AstImportMap(imports)
        return self._import_map

    @property
    def any_scope_imports(self) -> AnyScopeImports:
        """``AnyScopeImports.of(tree)``: every import of the file, in any scope."""
        if self._any_scope is None:
            bindings: dict[str, set[str]] = {}
            for node, _ in self.imports:
                for bound, qualified in import_bindings(node):
                    bindings.setdefault(bound, set()).add(qualified)
            self._any_scope = AnyScopeImports(bindings)
        return self._any_scope

    @property
    def assigned_values(self) -> dict[str, list[ast.expr]]:
        """Every value assigned to a plain name anywhere in the file (``=``, ``: T =``,
        ``:=``)."""
        if self._assigned is None:
            values: dict[str, list[ast.expr]] = {}
            for node in self.assignments:
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            values.setdefault(target.id, []).append(node.value)
                elif (
                    not isinstance(node, ast.AugAssign)
                    and node.value is not None
                    and isinstance(node.target, ast.Name)
                ):
                    values.setdefault(node.target.id, []).append(node.value)
            self._assigned = values
        return self._assigned

    def out_aliases(self, function: FunctionNode, root: str = "out") -> set[str]:
        """:func:`out_aliases`, without walking the function when no statement of the file
        assigns a plain name from ``root`` (a chain of aliases starts with one): most
        files, and every function a big file's rules ask about."""
        if self._name_sources is None:
            self._name_sources = {
                node.value.id
                for node in self.assignments
                if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Name)
            }
        if root not in self._name_sources:
            return {root}
        return out_aliases(function, root)

    def attribute_sites(self, attribute: str) -> dict[str, list[ast.expr]]:
        """:func:`module_attribute_sites` of the module, found once however many rules ask
        (callers must not change it)."""
        sites = self._attribute_sites.get(attribute)
        if sites is None:
            sites = self._attribute_sites[attribute] = module_attribute_sites(self.body, attribute)
        return sites

    def attribute_assignments(self, attribute: str) -> list[tuple[str, ast.expr]]:
        """``(object, value)`` of every ``object.attribute = value`` in the file whose object
        is a plain name (in a tuple target too), and of every
        ``setattr(object, "attribute", value)``."""
        found = [
            site
            for node in self.assignments
            if not isinstance(node, ast.NamedExpr)
            for site in _sets(node, attribute)
        ]
        found.extend(site for call, _ in self.calls if (site := setattr_call(call, attribute)))
        return found


_FACTS: weakref.WeakKeyDictionary[ast.Module, TreeFacts] = weakref.WeakKeyDictionary()
_FACTS_LOCK = threading.Lock()


def facts(tree: ast.Module) -> TreeFacts:
    """The :class:`TreeFacts` of a tree, gathered once however many rules ask (kept as
    long as the tree lives). Callers must not mutate the tree."""
    with _FACTS_LOCK:
        found = _FACTS.get(tree)
    if found is None:
        found = TreeFacts(tree)
        with _FACTS_LOCK:
            _FACTS[tree] = found
    return found


# support_native_out and where ``out`` goes (IVY002, IVY003) -----------------------------


def module_attribute_sites(body: Sequence[ast.stmt], attribute: str) -> dict[str, list[ast.expr]]:
    """Per name, the values a module-level statement may set as its ``attribute``: a
    superset of ``_ast_native_out_sites.native_out_sites`` (``name.attribute = value``,
    ``setattr(name, "attribute", value)``, and a loop over a literal tuple, list or set
    setting it on its variable, which names every element), in any module-level block."""
    sites: dict[str, list[ast.expr]] = {}
    for statement in _module_level(body):
        for name, value in _sets(statement, attribute):
            sites.setdefault(name, []).append(value)
        if (
            isinstance(statement, ast.For | ast.AsyncFor)
            and isinstance(statement.target, ast.Name)
            and isinstance(statement.iter, ast.Tuple | ast.List | ast.Set)
        ):
            variable = statement.target.id
            values = [
                value
                for inner in _module_level(statement.body)
                for name, value in _sets(inner, attribute)
                if name == variable
            ]
            for element in statement.iter.elts:
                if values and isinstance(element, ast.Name):
                    sites.setdefault(element.id, []).extend(values)
    return sites


def _module_level(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements and those in their blocks, recursively (not in definitions)."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            block = getattr(statement, field, None)
            if isinstance(block, list):
                yield from _module_level(block)
        for handler in getattr(statement, "handlers", ()):
            yield from _module_level(handler.body)
        for case in getattr(statement, "cases", ()):
            yield from _module_level(case.body)


def _sets(statement: ast.stmt, attribute: str) -> Iterator[tuple[str, ast.expr]]:
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            for element in _flatten(target):
                if (
                    isinstance(element, ast.Attribute)
                    and element.attr == attribute
                    and isinstance(element.value, ast.Name)
                ):
                    yield element.value.id, statement.value
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
        target = statement.target
        if (
            isinstance(target, ast.Attribute)
            and target.attr == attribute
            and isinstance(target.value, ast.Name)
            and statement.value is not None
        ):
            yield target.value.id, statement.value
    elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        site = setattr_call(statement.value, attribute)
        if site is not None:
            yield site


def setattr_call(call: ast.Call, attribute: str) -> tuple[str, ast.expr] | None:
    """``(object, value)`` of ``setattr(object, "attribute", value)`` on a plain name (the
    other way to write ``object.attribute = value``)."""
    args = call.args
    if (
        isinstance(call.func, ast.Name)
        and call.func.id == "setattr"
        and len(args) == 3
        and isinstance(args[0], ast.Name)
        and isinstance(args[1], ast.Constant)
        and args[1].value == attribute
    ):
        return args[0].id, args[2]
    return None


def module_functions(body: Sequence[ast.stmt]) -> dict[str, FunctionNode]:
    """The module-level functions by name, the last definition of a name winning (as
    ``ModuleOutFlow.functions``)."""
    return {s.name: s for s in body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}


def out_aliases(function: FunctionNode, root: str = "out") -> set[str]:
    """``root`` and every local assigned from it by
    ``=`` or ``: T =``, through chains in any order (nested functions and lambdas left
    out, classes not)."""
    pairs: list[tuple[str, str]] = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            source = node.value.id
            pairs.extend((t.id, source) for t in node.targets if isinstance(t, ast.Name))
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.value, ast.Name)
            and isinstance(node.target, ast.Name)
        ):
            pairs.append((node.target.id, node.value.id))
        stack.extend(ast.iter_child_nodes(node))
    found = {root}
    changed = True
    while changed:
        changed = False
        for target, source in pairs:
            if source in found and target not in found:
                found.add(target)
                changed = True
    return found


def takes_out(function: FunctionNode) -> bool:
    """Whether ``out`` can be passed by position or keyword."""
    args = function.args
    return any(a.arg == "out" for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
