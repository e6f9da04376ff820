"""Facts about CPython's ``ast`` tree of a file that several rules read.

* :func:`dotted` - ``a.b.c`` of a chain of names and attributes,
* :class:`AstImportMap` - names bound by imports, resolved to qualified names, with
  function scopes followed (``np.tan`` -> ``numpy.tan``),
* :func:`facts` - what the rules read of each tree, gathered once on first use: its
  functions, its calls, those passing a keyword (``out=``), its import map, and what
  helper modules derive from it (:meth:`TreeFacts.kept`),
* :func:`parameter_names`, :func:`positional_or_keyword`, :func:`child_nodes` and the like.

Where a name could be bound several ways (an import in one branch, another in the other),
the map answers as a reader of the code would for the common case and the rules say in
their docstrings what they assume.
"""

from __future__ import annotations

import ast
import threading
import weakref
from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import partial
from typing import TypeVar

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


def parameter_names(function: FunctionNode | ast.Lambda) -> list[str]:
    """Every parameter's name, in order (positional-only, regular, ``*args``,
    keyword-only, ``**kwargs``)."""
    args = function.args
    names: list[str] = []
    append = names.append  # (plain loops: asked of every function, a list each)
    for parameter in args.posonlyargs:
        append(parameter.arg)
    for parameter in args.args:
        append(parameter.arg)
    if args.vararg is not None:
        append(args.vararg.arg)
    for parameter in args.kwonlyargs:
        append(parameter.arg)
    if args.kwarg is not None:
        append(args.kwarg.arg)
    return names


def positional_or_keyword(function: FunctionNode) -> list[str]:
    """The names a call can bind by position or keyword (not ``*args``/``**kwargs``)."""
    args = function.args
    return [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]


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


_BINDS_NOTHING = frozenset(
    {
        ast.Return,
        ast.Expr,
        ast.Pass,
        ast.Break,
        ast.Continue,
        ast.Raise,
        ast.Assert,
        ast.Delete,
        ast.Global,
        ast.Nonlocal,
    }
)
"""Statements that bind no name and hold no block (asked first: most are these)."""

_HOLD_NO_IMPORT = _BINDS_NOTHING | {
    ast.Assign,
    ast.AnnAssign,
    ast.AugAssign,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
}
"""Statements that hold no import the scan reaches (it never enters a definition): where
only the imports are asked (a module's, whose other names are not kept), they are passed
over, not read for the names they bind (a big module's attribute assignments were most of
its scan)."""


def scan_statements(
    statements: Sequence[ast.stmt],
    imports: dict[str, str],
    hidden: set[str],
    passed_over: frozenset[type[ast.AST]] = _BINDS_NOTHING,
) -> None:
    """Names bound by statements (recursing into blocks, never into expressions or nested
    definitions); ``passed_over``: the statements not read (:data:`_HOLD_NO_IMPORT` where
    only ``imports`` is asked: ``hidden`` then lacks the names they bind)."""
    for statement in statements:
        if statement.__class__ in passed_over:
            continue
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
            _scan_compound(statement, imports, hidden, passed_over)


def _scan_compound(
    statement: ast.stmt,
    imports: dict[str, str],
    hidden: set[str],
    passed_over: frozenset[type[ast.AST]],
) -> None:
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
        scan_statements(block, imports, hidden, passed_over)


def _module_imports(body: Sequence[ast.stmt]) -> dict[str, str]:
    """The imports of a module's statements (:func:`scan_statements`; the other names they
    bind are not kept at module level: an import map's module scope is its imports)."""
    imports: dict[str, str] = {}
    scan_statements(body, imports, set(), _HOLD_NO_IMPORT)
    return imports


FunctionScope = tuple[dict[str, str], frozenset[str]]
"""A function's own imports (name -> qualified name) and the other names it binds."""


def function_scope(function: FunctionNode) -> FunctionScope:
    """What ``function`` binds itself (parameters, imports, assignments...; callers must not
    change it). A tree's import map keeps it per function (:meth:`TreeFacts.scope_of`)."""
    imports: dict[str, str] = {}
    hidden: set[str] = set(parameter_names(function))
    scan_statements(function.body, imports, hidden)
    if imports:
        hidden.difference_update(imports)
    return imports, frozenset(hidden)


class AstImportMap:
    """Names bound by imports, resolved to qualified names (``np`` -> ``numpy``).

    :meth:`qualify` resolves in the module's scope, or inside ``scope`` (the enclosing
    functions, outermost first): a function's own imports win, a name the function binds otherwise hides the module's
    import of it.
    """

    def __init__(
        self,
        module_imports: dict[str, str],
        scope_of: Callable[[FunctionNode], FunctionScope] = function_scope,
    ) -> None:
        self.module_imports = module_imports
        self._scope_of = scope_of

    @classmethod
    def of(cls, tree: ast.Module) -> AstImportMap:
        return cls(_module_imports(tree.body))

    def lookup(self, head: str, scope: Sequence[FunctionNode] = ()) -> str | None:
        for function in reversed(scope):
            imports, hidden = self._scope_of(function)
            if head in imports:
                return imports[head]
            if head in hidden:
                return None
        return self.module_imports.get(head)

    def qualify(self, expression: ast.expr, scope: Sequence[FunctionNode] = ()) -> str | None:
        """The imported thing an expression names (``numpy.linalg.norm``), else ``None``:
        :func:`dotted`'s chain with its head resolved, the chain joined only once the head
        is known to be imported (every rule qualifies every call of a backend)."""
        attributes: list[str] = []
        while isinstance(expression, ast.Attribute):
            attributes.append(expression.attr)
            expression = expression.value
        if not isinstance(expression, ast.Name):
            return None
        target = (
            self.lookup(expression.id, scope) if scope else self.module_imports.get(expression.id)
        )
        if target is None or not attributes:
            return target
        attributes.append(target)
        attributes.reverse()
        return ".".join(attributes)

    def qualified_names(self) -> set[str]:
        """Every qualified name the module's own imports bind."""
        return set(self.module_imports.values())


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


def decorator_names(found: TreeFacts, function: FunctionNode) -> tuple[str, ...]:
    """:func:`wrapper_name` of each of ``function``'s decorators, in order, kept with its
    statement (:meth:`TreeFacts.of_statement`): six rules ask it of every function of an
    API file, on every keystroke."""
    return found.of_statement(function, "decorator names", _decorator_names)


def _decorator_names(function: ast.stmt) -> tuple[str, ...]:
    return tuple(wrapper_name(d) for d in function.decorator_list)  # type: ignore[attr-defined]


# One walk per tree ----------------------------------------------------------------------

Scope = tuple[FunctionNode, ...]
"""The functions enclosing a node, outermost first (a function's decorators, defaults and
annotations count as inside it)."""

CHILD_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}
"""Per node type, the fields that may hold nodes that matter (no contexts, operators)."""
_NOT_NODES = frozenset(
    {"ctx", "op", "ops", "id", "attr", "arg", "asname", "module", "level", "kind", "type_comment"}
)
_CALL_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}
"""Per node type, the fields that may hold a call: nodes, lists of nodes (or of ``None``:
a dictionary's ``**`` key, a keyword-only parameter without default), or ``None``; never
a name, a number or a string, so that a walk needs no ``isinstance`` per value."""
_NO_CALLS = _NOT_NODES | {
    "name",
    "names",
    "conversion",
    "is_async",
    "kwd_attrs",
    "rest",
    "simple",
    "tag",
    "type_ignores",
    "pattern",
}
"""Fields without a call: strings and numbers, imports' names, and patterns."""
_SKIPPED = frozenset({ast.Name, ast.Constant, type(None)})
"""Never pushed: names and constants hold no call; ``None`` is no node."""
_VALUE_ONLY = frozenset({ast.Attribute, ast.keyword, ast.Starred})
"""Nodes whose one child node is their ``value`` (``np.tan``, ``out=out``, ``*args``): one
holding a name or a constant holds no call and no definition, and is never pushed (the
most met nodes of a call after names)."""
_BLOCK_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}
"""Per node type, the fields that may hold statements (directly, or in an ``except``
clause or a ``case``), in the order of ``_fields``."""
_BLOCKS = frozenset({"body", "handlers", "orelse", "finalbody", "cases"})


def child_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    """The fields of a node type that may hold nodes (:func:`child_nodes`), in order."""
    fields = CHILD_FIELDS.get(kind)
    if fields is None:
        fields = CHILD_FIELDS[kind] = tuple(f for f in kind._fields if f not in _NOT_NODES)
    return fields


def _call_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    fields = _CALL_FIELDS.get(kind)
    if fields is None:
        fields = _CALL_FIELDS[kind] = tuple(f for f in kind._fields if f not in _NO_CALLS)
    return fields


def _block_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    fields = _BLOCK_FIELDS.get(kind)
    if fields is None:
        fields = _BLOCK_FIELDS[kind] = tuple(f for f in kind._fields if f in _BLOCKS)
    return fields


def statements_below(statements: Sequence[ast.stmt]) -> Iterator[ast.AST]:
    """Every statement below ``statements`` (themselves included), nested functions' and
    classes' too, with the ``except`` clauses and ``case`` blocks holding some: all of
    ``ast.walk``'s statements without entering an expression (which holds none), in no
    particular order."""
    stack: list[ast.AST] = list(statements)
    while stack:
        node = stack.pop()
        yield node
        for name in _BLOCK_FIELDS.get(node.__class__) or _block_fields(node.__class__):
            stack.extend(getattr(node, name))


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """``ast.iter_child_nodes`` without contexts and operators (shared singletons that hold
    nothing), in the same order: a list from the fields known per node type, a third of
    the cost of the generator over every field on a large file's walks."""
    found: list[ast.AST] = []
    for name in child_fields(node.__class__):
        value = getattr(node, name, None)
        if value.__class__ is list:
            found.extend(item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            found.append(value)
    return found


_Found = TypeVar("_Found")
_Picked = TypeVar("_Picked")
_Part = TypeVar("_Part")


class _StatementFacts:
    """Per top-level statement (by id, with the statement, which keeps the id its own),
    facts of its nodes alone (:meth:`TreeFacts.of_statement`). ``kept`` is ``None`` where
    the tree follows no earlier version: they are not kept then.

    Each entry is ``(statement, asked, carried)``: the facts this tree was asked, and
    those the version it follows holds for the statement (:func:`follow_statements`),
    taken over as asked. Only what one version was asked goes over to the next: a key
    holding the module's imports (IVY009's verdict) is a new key after an edit of an
    import, and kept in one table for the statement's life, every such edit added one
    more fact to every statement, without bound."""

    __slots__ = ("kept",)

    def __init__(self) -> None:
        self.kept: dict[int, _KeptFacts] | None = None

    def of(self, statement: ast.stmt, key: Hashable, make: Callable[[ast.stmt], _Found]) -> _Found:
        kept = self.kept
        if kept is None:
            return make(statement)
        entry = kept.get(id(statement))
        if entry is None:
            entry = kept[id(statement)] = (statement, {}, _NOTHING_CARRIED)
        asked = entry[1]
        found = asked.get(key, entry)
        if found is entry:
            found = entry[2].get(key, entry)
            if found is entry:
                found = make(statement)
            asked[key] = found
        return found  # type: ignore[return-value]

    def handed_over(self, statement: ast.stmt) -> _KeptFacts | None:
        """The statement's entry for the next version's tree, if this tree keeps one:
        what this version was asked (what the one before it held, if it was asked
        nothing: a version the server skipped)."""
        entry = self.kept.get(id(statement)) if self.kept is not None else None
        if entry is None or entry[0] is not statement:
            return None
        return (statement, {}, entry[1] or entry[2])


_KeptFacts = tuple[ast.stmt, dict[Hashable, object], dict[Hashable, object]]
_NOTHING_CARRIED: dict[Hashable, object] = {}
"""The facts carried to a statement that no earlier version had (never written)."""


class _FunctionScopes:
    """:func:`function_scope` of each function of one tree, made once: kept per tree (by
    id, with the node, which the tree keeps alive), and with its statement where the tree
    follows an earlier version's (a keystroke read the scope of every function of the
    document again: IVY009 qualifies each ``out`` annotation in its function's scope). A
    table keyed weakly by node cost a large file's check more than the scans (an entry
    made, and dropped, per function). Held by the tree's import map: it refers to no
    :class:`TreeFacts` (a cycle would keep the whole tree until a collection)."""

    __slots__ = ("by_id", "statements")

    def __init__(self, statements: _StatementFacts) -> None:
        self.by_id: dict[int, tuple[FunctionNode, FunctionScope]] = {}
        self.statements = statements

    def scope_of(self, function: FunctionNode) -> FunctionScope:
        if self.statements.kept is not None:
            return self.statements.of(function, "scope", _statement_scope)
        entry = self.by_id.get(id(function))
        if entry is None or entry[0] is not function:
            entry = self.by_id[id(function)] = (function, function_scope(function))
        return entry[1]


class TreeFacts:
    """What the rules read from one file's tree, each gathered once, on first use: its
    functions and its calls, each with the functions enclosing it, the calls by keyword,
    the import map, and what helper modules keep per tree (:meth:`kept`).

    Functions are found by a walk of the statements alone (a definition is never inside an
    expression); only the calls need the walk of every node, and only the rules that read
    calls pay for it. Holds no reference to the ``ast.Module`` itself (only to its nodes),
    so that :func:`facts` can forget it when the tree goes.
    """

    def __init__(self, tree: ast.Module) -> None:
        self.body: list[ast.stmt] = tree.body
        self._calls: list[tuple[ast.Call, Scope]] | None = None
        self._functions: list[tuple[FunctionNode, Scope]] | None = None
        self._keywords: dict[str | None, list[tuple[ast.Call, ast.keyword, Scope]]] | None = None
        self._import_map: AstImportMap | None = None
        self._module_functions: dict[str, FunctionNode] | None = None
        self._kept: dict[Hashable, object] = {}
        self._statements = _StatementFacts()
        self._scopes = _FunctionScopes(self._statements)

    @property
    def module_functions(self) -> dict[str, FunctionNode]:
        """:func:`module_functions` of the module's body, made once (callers must not
        change it): every out-flow and several rules ask, and a big module's statements
        were listed anew each time."""
        if self._module_functions is None:
            self._module_functions = module_functions(self.body)
        return self._module_functions

    @property
    def calls(self) -> list[tuple[ast.Call, Scope]]:
        """Every call, with the functions enclosing it."""
        if self._calls is None:
            self._calls, self._functions = self._walk(every_node=True)
        return self._calls

    @property
    def functions(self) -> list[tuple[FunctionNode, Scope]]:
        """Every function definition (nested ones and methods included), with the
        functions enclosing it; the same list, in the same order, whichever walk found it."""
        if self._functions is None:
            self._functions = self._walk(every_node=False)[1]
        return self._functions

    def _walk(
        self, every_node: bool
    ) -> tuple[list[tuple[ast.Call, Scope]], list[tuple[FunctionNode, Scope]]]:
        """The calls (with ``every_node``) and the functions, each with its scope: one walk
        of the whole tree, or, where the tree follows an earlier version's
        (:func:`follow_statements`), the walks of its top-level statements joined, each
        kept with its statement (the same lists, see :func:`_statement_walk`)."""
        if self._statements.kept is None:
            calls: list[tuple[ast.Call, Scope]] = []
            functions: list[tuple[FunctionNode, Scope]] = []
            root = ast.Module(body=self.body, type_ignores=[])
            segments = _walk_segment([root], root, (), every_node, calls, functions)
            _walk_segments(segments, every_node, calls, functions)
            return calls, functions
        key = "calls walk" if every_node else "functions walk"
        walks = [self.of_statement(s, key, partial(_statement_walk, every_node)) for s in self.body]
        return (
            _in_walk_order(walks, lambda walk: walk[0], lambda walk: walk[2]),
            _in_walk_order(walks, lambda walk: walk[1], lambda walk: walk[3]),
        )

    def of_statement(
        self, statement: ast.stmt, key: Hashable, make: Callable[[ast.stmt], _Found]
    ) -> _Found:
        """``make(statement)`` for a top-level statement of this tree, a fact of that
        statement's nodes alone: kept with the statement where the tree follows an earlier
        version's (:func:`follow_statements`), so that the next version sharing the
        statement's nodes does not make it again; made anew otherwise."""
        return self._statements.of(statement, key, make)

    def picked_calls(
        self, key: str, pick: Callable[[ast.Call], _Picked | None]
    ) -> list[tuple[ast.Call, Scope, _Picked]]:
        """``(call, scope, pick(call))`` for each of :attr:`calls` for which ``pick``
        (a question about the call's own nodes) answers, in their order (see
        :meth:`from_calls`)."""
        return self.from_calls(
            key, lambda calls: [(c, s, p) for c, s in calls if (p := pick(c)) is not None]
        )

    def from_calls(
        self, key: Hashable, make: Callable[[list[tuple[ast.Call, Scope]]], list[_Picked]]
    ) -> list[_Picked]:
        """``make(calls)`` of :attr:`calls`, ``make`` a question about each call in turn
        (the answers of a part of the calls, in their order, must be that part's of the
        whole's): made once per tree under ``key``, and per top-level statement where the
        tree follows an earlier version's (:func:`follow_statements`), as the walks are,
        then joined in the whole walk's order (``key`` then holds what else ``make`` reads:
        the module's imports, say)."""
        if self._statements.kept is None:
            return self.kept(key, lambda: make(self.calls))

        def of(statement: ast.stmt) -> tuple[list[_Picked], list[_Picked]]:
            walk = self.of_statement(statement, "calls walk", partial(_statement_walk, True))
            return make(walk[0]), make(walk[2])

        def joined() -> list[_Picked]:
            parts = [self.of_statement(s, key, of) for s in self.body]
            return _in_walk_order(parts, lambda part: part[0], lambda part: part[1])

        return self.kept(key, joined)

    def keyword_calls(self, name: str | None = "out") -> list[tuple[ast.Call, ast.keyword, Scope]]:
        """Every call passing ``name=`` (``None``: a ``**mapping``), with the keyword and
        the functions enclosing the call (a call passing two ``**`` once per keyword)."""
        if self._keywords is None:
            by_keyword: dict[str | None, list[tuple[ast.Call, ast.keyword, Scope]]] = {}
            if self._statements.kept is None:
                for call, scope in self.calls:
                    for k in call.keywords:
                        by_keyword.setdefault(k.arg, []).append((call, k, scope))
            else:
                for call, k, scope in self.from_calls("keywords", _keywords_of):
                    by_keyword.setdefault(k.arg, []).append((call, k, scope))
            self._keywords = by_keyword
        return self._keywords.get(name, [])

    @property
    def import_map(self) -> AstImportMap:
        """``AstImportMap.of(tree)``, shared (with its per-function scopes) by every rule."""
        if self._import_map is None:
            self._import_map = AstImportMap(_module_imports(self.body), self._scopes.scope_of)
        return self._import_map

    def kept(self, key: Hashable, make: Callable[[], _Found]) -> _Found:
        """What a helper module derives from this tree, made once under ``key`` however
        many rules ask (it must hold no reference to the ``ast.Module``, and callers must
        not change it)."""
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = make()
        return found  # type: ignore[return-value]


_Segments = list[tuple[ast.AST, Scope]]
_StatementWalk = tuple[
    list[tuple[ast.Call, Scope]],
    list[tuple[FunctionNode, Scope]],
    list[tuple[ast.Call, Scope]],
    list[tuple[FunctionNode, Scope]],
]


def _walk_segment(
    stack: list[ast.AST],
    root: ast.AST,
    scope: Scope,
    every_node: bool,
    calls: list[tuple[ast.Call, Scope]],
    functions: list[tuple[FunctionNode, Scope]],
    segments: _Segments | None = None,
    follow: bool = False,
) -> _Segments:
    """Walk the nodes on ``stack`` (the last first) in ``scope``, appending the calls
    (with ``every_node``) and the functions met, each with its scope; a function's own
    nodes (other than ``root``'s) are not entered but left on the segments returned (the
    given ``segments``, or a new list), each with the scope inside it. A node's children
    are pushed in field order, so pruning the expressions (which hold no definition)
    leaves the functions in the same order. ``follow``: then walk each segment left (the
    last first) the same way, until none is left (:func:`_walk_segments`), in this one
    call: a big module has a segment per function, and the setup of a call each was a
    tenth of the walk."""
    fields_of = _CALL_FIELDS if every_node else _BLOCK_FIELDS
    more_fields = _call_fields if every_node else _block_fields
    skipped, call_type, parameter_type, signature_type = _SKIPPED, ast.Call, ast.arg, ast.arguments
    valued = _VALUE_ONLY
    definitions = (ast.FunctionDef, ast.AsyncFunctionDef)
    found_segments: _Segments = [] if segments is None else segments
    push = stack.append
    while True:
        if not stack:
            if not (follow and found_segments):
                return found_segments
            root, scope = found_segments.pop()
            stack.append(root)
        node = stack.pop()
        cls = node.__class__
        if cls is call_type:
            calls.append((node, scope))  # type: ignore[arg-type]
        elif cls in definitions and node is not root:
            function: FunctionNode = node  # type: ignore[assignment]
            functions.append((function, scope))
            found_segments.append((function, (*scope, function)))
            continue
        fields = fields_of.get(cls)
        if fields is None:
            fields = more_fields(cls)
        if cls is signature_type:
            # A parameter holds no call, its annotation may: pushed in its place, the
            # order is the same, and a signature's parameters are never visited.
            for name in fields:
                value = getattr(node, name)
                for item in value if value.__class__ is list else (value,):
                    if item.__class__ is parameter_type:
                        item = item.annotation
                    if item.__class__ not in skipped:
                        push(item)
            continue
        for name in fields:
            value = getattr(node, name)
            if value.__class__ is list:
                for item in value:
                    kind = item.__class__
                    if kind not in skipped and (
                        kind not in valued or item.value.__class__ not in skipped
                    ):
                        push(item)
            elif (kind := value.__class__) not in skipped and (
                kind not in valued or value.value.__class__ not in skipped
            ):
                push(value)


def _walk_segments(
    segments: _Segments,
    every_node: bool,
    calls: list[tuple[ast.Call, Scope]],
    functions: list[tuple[FunctionNode, Scope]],
) -> None:
    """Each function left on ``segments`` walked (the last first), with the functions
    it holds, which go on the same stack: one stack per function, its scope known on the
    way in."""
    if segments:
        root, scope = segments.pop()
        _walk_segment([root], root, scope, every_node, calls, functions, segments, True)


def _statement_walk(every_node: bool, statement: ast.stmt) -> _StatementWalk:
    """One top-level statement's part of the whole tree's walk (``TreeFacts._walk``): the
    calls and the functions met while the module's own nodes are walked, then those met
    in the statement's functions. The whole walk takes the module's statements from the
    last (its stack) and leaves their functions on one stack of segments, the last
    statement's at the bottom; so its calls are the first parts of the statements, last
    statement first, then the second parts, first statement first; and so for the
    functions (``TreeFacts._walk`` joins them so)."""
    calls: list[tuple[ast.Call, Scope]] = []
    functions: list[tuple[FunctionNode, Scope]] = []
    segments = _walk_segment([statement], _NO_ROOT, (), every_node, calls, functions)
    inner_calls: list[tuple[ast.Call, Scope]] = []
    inner_functions: list[tuple[FunctionNode, Scope]] = []
    _walk_segments(segments, every_node, inner_calls, inner_functions)
    return calls, functions, inner_calls, inner_functions


def _in_walk_order(
    parts: Sequence[_Part],
    first: Callable[[_Part], list[_Found]],
    second: Callable[[_Part], list[_Found]],
) -> list[_Found]:
    """The whole tree's walk's list from its statements' parts (see :func:`_statement_walk`):
    each statement's ``first`` part, last statement first, then each one's ``second``
    part, first statement first."""
    found = [item for part in reversed(parts) for item in first(part)]
    found.extend(item for part in parts for item in second(part))
    return found


def _statement_scope(function: ast.stmt) -> FunctionScope:
    assert isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
    return function_scope(function)


def _keywords_of(calls: list[tuple[ast.Call, Scope]]) -> list[tuple[ast.Call, ast.keyword, Scope]]:
    """Each keyword of each call, in order, with its call and the call's scope."""
    return [(call, k, scope) for call, scope in calls for k in call.keywords]


_NO_ROOT = ast.AST()
"""A root no statement is: a top-level definition is a function met, as in the module's walk."""


_FACTS: weakref.WeakKeyDictionary[ast.Module, TreeFacts] = weakref.WeakKeyDictionary()
_FACTS_LOCK = threading.Lock()


_last_asked: tuple[weakref.ref[ast.Module], weakref.ref[TreeFacts]] | None = None
"""The tree asked about last and its facts, both weakly: the rules of a file ask in turn
(the language server's rules asked 800 times a keystroke, through the lock and the table)."""


def facts(tree: ast.Module) -> TreeFacts:
    """The :class:`TreeFacts` of a tree, kept as long as the tree lives, however many rules
    ask. Callers must not mutate the tree."""
    global _last_asked
    last = _last_asked
    if last is not None and last[0]() is tree:
        known = last[1]()
        if known is not None:
            return known
    with _FACTS_LOCK:
        found = _FACTS.get(tree)
        if found is None:
            found = _FACTS[tree] = TreeFacts(tree)
    _last_asked = (weakref.ref(tree), weakref.ref(found))
    return found


def follow_statements(tree: ast.Module, previous: ast.Module | None) -> None:
    """Keep the facts of ``tree``'s top-level statements with each statement
    (:meth:`TreeFacts.of_statement`), taking over those ``previous`` kept of the statements
    ``tree`` shares with it (the same nodes): those ``previous`` was asked (see
    :class:`_StatementFacts`).

    For the language server: the tree of a new buffer version reuses the nodes of the
    statements an edit did not touch (``lsp/reparse.py``), and a keystroke walked every
    node of the document again for its calls. Handed over explicitly from one version's
    facts to the next, never through a table keyed weakly by node: a fact holds its
    statement's nodes (a call's scope holds the function itself), and a weak key its
    value refers to is never freed. The facts of statements ``tree`` does not share stay
    with ``previous``'s and go with it."""
    with _FACTS_LOCK:
        earlier = _FACTS.get(previous) if previous is not None else None
        found = _FACTS.get(tree)
        if found is None:
            found = _FACTS[tree] = TreeFacts(tree)
    if found._statements.kept is not None:
        return  # (the same text again: the same tree)
    kept: dict[int, _KeptFacts] = {}
    if earlier is not None and earlier._statements.kept:
        for statement in tree.body:
            entry = earlier._statements.handed_over(statement)
            if entry is not None:
                kept[id(statement)] = entry
    found._statements.kept = kept


def module_functions(body: Sequence[ast.stmt]) -> dict[str, FunctionNode]:
    """The module-level functions by name, the last definition of a name winning (as
    ``ModuleOutFlow.functions``)."""
    return {s.name: s for s in body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
