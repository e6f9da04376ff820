"""Where ``out`` goes in any backend function, decided whole on CPython's tree.

:mod:`ivycheck.rules._ast_outflow` reads the *plain* shapes (``out=out``, tests, reads,
same-file helpers) and leaves the rest undecided. This module answers for every function,
as the out-flow analysis of IVY001 and IVY015 always did: ``out`` followed

* through local aliases and chains of them (``o = out; p = o``, in any order),
* through dictionaries that carry it (``kw = {"out": out}``, ``kw = dict(out=out)``,
  ``kw["out"] = out``) into ``f(**kw)``,
* into module-level helpers of the same file, by keyword or position, recursively (a
  helper met again while its own flow is being decided does "something unknown"),

and every call that receives it classified (:class:`~ivycheck.rules._vocabulary.UseKind`).
Anything not followed (``out`` returned, stored, captured by a closure, written with
``out[...] = ...``, the signature's own ``**kwargs`` passed on) is an *escape*: the rules
stay quiet there, never loud.

Why every shape below reads a name where it does: the analysis judges each occurrence of
a name spelled as ``out`` or an alias, including the places CPython's tree keeps as plain
strings (a keyword's name, an attribute's name, an imported module's name, ``global``):
inside a nested function, lambda or class any such spelling is an escape; outside, a
keyword's or attribute's name is a label, the head of a dotted import is read, and
``global``/``from out import``/a ``match`` capture is an escape.

:func:`return_paths` then judges every ``return`` against the nodes that write ``out``
(IVY003's question, which IVY001 asks before it offers the attribute).
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ivycheck.rules._ast_calls import is_inplace_update
from ivycheck.rules._ast_facts import (
    AstImportMap,
    FunctionNode,
    child_fields,
    facts,
    positional_or_keyword,
)
from ivycheck.rules._ast_outflow import PlainUse
from ivycheck.rules._ast_return_paths import AstReturnPath, ReturnWalk
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._vocabulary import CHECK_CALLS, OUT, UseKind, classify_callee

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
"""Nodes that open a scope: what happens to ``out`` inside them is not followed
(comprehensions are not among them: their names are the function's)."""

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
"""Nested scopes whose assignments make no alias (a class body's do)."""

_READ_OR_ESCAPING = (
    ast.alias,
    ast.ImportFrom,
    ast.Global,
    ast.Nonlocal,
    ast.MatchAs,
    ast.MatchStar,
    ast.MatchMapping,
    ast.MatchClass,
)
"""The spellings whose names may be read or escape (:func:`_string_names`): outside a
nested scope, the others hold only labels, which :meth:`_Walk._spelled` never judges
there, so the walk does not keep them."""

_SPELLING = (
    ast.keyword,
    ast.Attribute,
    ast.ExceptHandler,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.arg,
    *_READ_OR_ESCAPING,
)
"""Nodes holding a name as a string (see :func:`_string_names`)."""

_TESTS = (ast.Compare, ast.BoolOp, ast.UnaryOp)
_TESTED = (ast.If, ast.While, ast.IfExp, ast.Assert)


@dataclass
class OutFlow:
    """The fate of one parameter (normally ``out``) inside one function."""

    function: FunctionNode
    root: str | None
    aliases: frozenset[str] = frozenset()
    uses: list[PlainUse] = field(default_factory=list)
    """In source order: each call given ``out`` (or an alias), with what it does with it."""
    escapes: bool = False
    """``out`` goes somewhere the analysis does not follow (returned, stored, a closure...)."""
    forwards_var_kwargs: bool = False
    """The signature's ``**kwargs`` is passed on, so ``out`` may travel inside it."""
    reads_data: bool = False
    """``out``'s values are read (an argument, an operand, indexed, a method's receiver):
    the function uses the buffer it is handed, whatever reaches a native ``out=``."""
    holders: frozenset[int] = frozenset()
    """ids of the nodes whose evaluation writes (or may write) ``out``, and of the nodes
    holding one, in the function outside nested scopes: what :func:`return_paths` asks of
    a statement."""

    @property
    def native(self) -> list[PlainUse]:
        return [use for use in self.uses if use.kind is UseKind.NATIVE]

    @property
    def best_kind(self) -> UseKind | None:
        """The most useful thing any call does with ``out`` (``None``: no call receives it)."""
        if self.escapes or self.forwards_var_kwargs:
            return max((UseKind.UNKNOWN, *(u.kind for u in self.uses)))
        return max((u.kind for u in self.uses), default=None)


def may_forward_natively(flow: OutFlow) -> bool:
    """``out`` might reach a native buffer-writing function: it escapes the analysis, the
    signature's ``**kwargs`` is passed on, or a call given it may write it natively (the
    rules stay quiet then: they report only what they can show)."""
    return (
        flow.escapes
        or flow.forwards_var_kwargs
        or any(use.kind >= UseKind.UNKNOWN for use in flow.uses)
    )


class ModuleFlows:
    """The out-flows of one file's functions, each helper analysed once per parameter.

    A flow found while a recursive helper's own flow was being decided holds "something
    unknown" for it, so what such a flow says depends on the order the flows are asked in:
    those stay in this instance (one rule's order, as each rule always had). A flow whose
    walk met no helper in progress, and used no flow that did, says the same in any order
    (no helper it reaches, however deep, reaches back to it): those are kept on the
    tree's facts and shared by every rule that asks (IVY002 and IVY003 ask the same
    functions the same question)."""

    def __init__(
        self,
        tree: ast.Module,
        lines: Lines,
        imports: AstImportMap,
        runtime_modules: Sequence[str],
    ) -> None:
        self.lines = lines
        self.imports = imports
        self.runtime_modules = tuple(runtime_modules)
        found = facts(tree)
        self.functions = found.module_functions
        self._bodies: dict[int, _Body] = found.kept("out-analysis bodies", dict)
        self._memo: dict[tuple[str, str | None], OutFlow] = {}
        self._running: set[tuple[str, str | None]] = set()
        self._order_bound: set[tuple[str, str | None]] = set()
        """Keys of ``_memo`` whose flow met a helper in progress (or used such a flow)."""
        self._walks: list[list[bool]] = []
        """One flag per walk in progress, outermost first: set when the walk meets a helper
        in progress or uses a flow of :attr:`_order_bound`."""
        shared: dict[tuple[str, ...], dict[tuple[str, str | None], OutFlow]] = found.kept(
            "order-free out-flows", dict
        )
        self._shared: dict[tuple[str, str | None], OutFlow] | None = (
            shared.setdefault(self.runtime_modules, {}) if imports is found.import_map else None
        )

    def analyse(self, function: FunctionNode, root: str | None = OUT) -> OutFlow:
        """The out-flow of ``root`` (a parameter name) in ``function``."""
        key = (function.name, root)
        if self.functions.get(function.name) is not function:
            return self._walk(function, root)[0]  # a nested or shadowed def: no memo
        found = self._memo.get(key)
        if found is not None:
            if key in self._order_bound:
                self._bind_to_order()
            return found
        shared = self._shared
        found = shared.get(key) if shared is not None else None
        if found is not None:
            return found
        self._running.add(key)
        try:
            found, order_free = self._walk(function, root)
        finally:
            self._running.discard(key)
        self._memo[key] = found
        if not order_free:
            self._order_bound.add(key)
        elif shared is not None:
            shared[key] = found
        return found

    def _walk(self, function: FunctionNode, root: str | None) -> tuple[OutFlow, bool]:
        """The flow, and whether it is the same in any order (see the class)."""
        flag = [False]
        self._walks.append(flag)
        try:
            return _Walk(self, function, root).run(), not flag[0]
        finally:
            self._walks.pop()

    def _bind_to_order(self) -> None:
        """Every walk in progress depends on the order of the questions."""
        for flag in self._walks:
            flag[0] = True

    def body(self, function: FunctionNode) -> _Body:
        """The walk of ``function``'s body (:class:`_Body`), the same whoever asks; kept on
        the tree only where it may be asked again: for a helper (asked while another
        function's walk is in progress, once per parameter it is handed), and for a
        nested or shadowed definition (whose flows are not memoized). The rules ask each
        module function's ``out`` once, and its flow is memoized (:meth:`analyse`), so no
        body is kept for it: one kept per function held every node of a big file in
        dictionaries until the file's check ended. Only a flow that depends on the order
        of the questions is not shared between rules: its body is walked again."""
        found = self._bodies.get(id(function))
        if found is None:
            found = _walk_body(function)
            if len(self._walks) > 1 or self.functions.get(function.name) is not function:
                self._bodies[id(function)] = found  # (a nested def's flow is not memoized)
        return found

    def helper_kind(self, helper: FunctionNode, root: str | None) -> UseKind:
        """What a same-file helper does with the value it receives as parameter ``root``."""
        if root is None:
            return UseKind.UNKNOWN  # no such parameter: do not guess
        if (helper.name, root) in self._running:
            self._bind_to_order()
            return UseKind.UNKNOWN  # recursion: do not guess
        kind = self.analyse(helper, root).best_kind
        return UseKind.DROPPED if kind is None else kind

    def classify(self, call: ast.Call) -> tuple[UseKind, str | None]:
        """What a call does with an ``out=`` it is given (helpers excluded)."""
        if is_inplace_update(call.func):
            return UseKind.INPLACE, _last_name(call.func)
        return classify_callee(self.imports.qualify(call.func), self.runtime_modules)

    def helper_of(self, call: ast.Call) -> FunctionNode | None:
        """The module-level function a plain-name call refers to (not an import)."""
        if isinstance(call.func, ast.Name) and self.imports.lookup(call.func.id) is None:
            return self.functions.get(call.func.id)
        return None


class _Walk:
    """One function's flow of one parameter: every occurrence of an alias judged."""

    def __init__(self, flows: ModuleFlows, function: FunctionNode, root: str | None) -> None:
        self.flows = flows
        self.function = function
        self.root = root if root is not None and _binds(function, root) else None
        kwarg = function.args.kwarg
        self.var_kwargs = kwarg.arg if kwarg is not None else None
        self.aliases: set[str] = set()
        self.flow = OutFlow(function, self.root)
        self.parents: dict[int, ast.AST] = {}
        self.name_parents: dict[int, ast.AST] = {}
        """The parent of each name in :attr:`covering` (:attr:`_Body.parents` holds no
        name)."""
        self.covering: dict[int, ast.AST] = {}
        """The nodes whose evaluation writes (or may write) ``out``, by id."""
        self.carriers: set[str] = set()
        self.handled: set[int] = set()

    def run(self) -> OutFlow:
        if self.root is not None or self.var_kwargs is not None:
            names, star_calls = self._occurrences()
            if len(names) > 1:
                names.sort(key=_position)
            for node, parent in names:
                self._name(node, parent)
            if len(star_calls) > 1:  # (the body's list is shared: sorted as a copy)
                star_calls = sorted(star_calls, key=lambda s: (s[0].lineno, s[0].col_offset))
            for call, name in star_calls:
                if name in self.carriers:
                    self._use(call, OUT)
                elif (
                    name == self.var_kwargs and self.flows.classify(call)[0] is not UseKind.REJECTED
                ):
                    self.flow.forwards_var_kwargs = True
                    self.covering[id(call)] = call
        flow = self.flow
        flow.reads_data = flow.reads_data or flow.escapes
        if self.covering:  # (else the default: nothing writes)
            flow.holders = frozenset(self._holders())
        return flow

    def _occurrences(
        self,
    ) -> tuple[list[tuple[ast.Name, ast.AST]], list[tuple[ast.Call, str]]]:
        """The function's variables spelled as an alias (outside nested scopes, with their
        parents), and its calls unpacking ``**name`` outside nested scopes; spellings
        that CPython keeps as strings are judged on the way. From the one walk of the body
        (:func:`_walk_body`): the aliases are known only at its end (``b = a`` may come
        before ``a = out``)."""
        body = self.flows.body(self.function)
        self.parents = body.parents
        aliases = self.aliases = _closure(self.root, body.pairs) if self.root is not None else set()
        self.flow.aliases = frozenset(aliases)
        names: list[tuple[ast.Name, ast.AST]] = []
        for name, parent, nested in body.names:
            if name.id not in aliases:
                continue
            if nested:
                self.flow.escapes = True  # captured by a closure: not followed
            else:
                names.append((name, parent))
        if aliases:
            for node, nested in body.spelled:
                self._spelled(node, nested)
        return names, body.star_calls

    def _holders(self) -> set[int]:
        """ids of the nodes holding a writing node: the writing nodes and their ancestors
        below the function (none is in a nested scope), so that "does this statement
        write ``out``?" is a set lookup."""
        holders: set[int] = set()
        parents = self.parents
        for node in self.covering.values():
            if node.__class__ is ast.Name:  # (names are not in the body's parents)
                holders.add(id(node))
                node = self.name_parents[id(node)]
            while node is not self.function and id(node) not in holders:
                holders.add(id(node))
                node = parents[id(node)]
        return holders

    def _spelled(self, node: ast.AST, nested: bool) -> None:
        """An alias spelled where CPython's tree holds a string (see the module)."""
        labels, read, escaped = _string_names(node)
        aliases = self.aliases
        if nested:
            if any(name in aliases for name in (*labels, *read, *escaped)):
                self.flow.escapes = True
            return
        if any(name in aliases for name in read):
            self.flow.reads_data = True
        if any(name in aliases for name in escaped):
            self.flow.escapes = True
            self.covering[id(node)] = node

    def _name(self, node: ast.Name, parent: ast.AST) -> None:
        if parent.__class__ is ast.keyword:  # ``f(out=out)``, the use met most: asked first
            call = self.parents.get(id(parent))
            if call.__class__ is ast.Call:
                self._argument(node, parent, call)
                return
        if not isinstance(node.ctx, ast.Load) and _stores(node, parent):
            return
        argument = self._given_to(node, parent)
        if argument is not None:
            self._argument(node, *argument)
        elif isinstance(parent, ast.Assign) and parent.value is node:
            self._assigned(parent)
        elif isinstance(parent, ast.Dict) and any(
            v is node and k is not None for k, v in zip(parent.keys, parent.values, strict=True)
        ):
            self._dict_element(node, parent)
        elif isinstance(parent, ast.Return):
            self._escape_name(node, parent)
        elif isinstance(parent, ast.Attribute):
            self.flow.reads_data = True  # out.at[i], out.shape, out.copy_(...)
            called = self.parents.get(id(parent))
            if isinstance(called, ast.Call) and called.func is parent:
                self._escape(called)  # out.copy_(...), out.fill(...): writes not judged
        elif isinstance(parent, ast.Subscript) and parent.value is node:
            if self._subscript_written(parent):
                self._escape_name(node, parent)  # out[...] = value writes the buffer directly
            else:
                self.flow.reads_data = True  # out[1:] read: its values are data
        elif not _in_test(node, parent, self.parents):
            self._escape_name(node, parent)

    def _given_to(self, node: ast.Name, parent: ast.AST) -> tuple[ast.AST, ast.Call] | None:
        """(the argument, the call) where ``node`` is a call's argument: by keyword, as
        ``*node`` or ``**node``, or by position."""
        if isinstance(parent, ast.Call):
            return (node, parent) if any(a is node for a in parent.args) else None
        if not isinstance(parent, ast.keyword | ast.Starred):
            return None
        call = self.parents.get(id(parent))
        if not isinstance(call, ast.Call):
            return None
        if isinstance(parent, ast.Starred) and not any(a is parent for a in call.args):
            return None
        return parent, call

    def _escape(self, node: ast.AST) -> None:
        self.flow.escapes = True
        self.covering[id(node)] = node

    def _escape_name(self, node: ast.Name, parent: ast.AST) -> None:
        self._escape(node)
        self.name_parents[id(node)] = parent

    def _subscript_written(self, subscript: ast.Subscript) -> bool:
        """``out[...] = v``, ``out[...] += v`` and one level deeper (``out[i][j] = v``,
        ``out[i].x = v``): an assignment target or an augmented assignment within the
        libcst nodes two and three above the name."""
        above = self.parents[id(subscript)]
        if _assigns(subscript, above):
            return True
        if not _direct(subscript, above):
            return False
        return _assigns(above, self.parents.get(id(above)))

    def _argument(self, node: ast.Name, arg: ast.AST, call: ast.Call) -> None:
        """``node`` given to ``call`` as ``arg`` (a keyword, ``*node`` or itself)."""
        if _last_name(call.func) in CHECK_CALLS and not is_inplace_update(call.func):
            return
        keyword = arg.arg if isinstance(arg, ast.keyword) else None
        if isinstance(arg, ast.Starred) or (isinstance(arg, ast.keyword) and keyword is None):
            self._escape(call)
            return
        if keyword == OUT and isinstance(call.func, ast.Name) and call.func.id == "dict":
            self._dict_call(call)
            return
        if keyword == OUT:
            self._use(call, OUT)
            return
        positional = [a for a in call.args if not isinstance(a, ast.Starred)]
        position = next((i for i, a in enumerate(positional) if a is node), -1)
        if is_inplace_update(call.func) and (keyword == "x" or position == 0):
            self._record(call, UseKind.INPLACE, _last_name(call.func))
            return
        self.flow.reads_data = True
        helper = self.flows.helper_of(call)
        if helper is not None:
            target = keyword if keyword is not None else _positional_param(helper, position)
            if target is not None and target not in positional_or_keyword(helper):
                target = None
            self._record(call, self.flows.helper_kind(helper, target), helper.name)
            return
        self._record(call, UseKind.UNKNOWN, self.flows.imports.qualify(call.func))

    def _use(self, call: ast.Call, keyword: str) -> None:
        """``call`` receives ``out`` as keyword ``keyword`` (directly or inside ``**kw``)."""
        if id(call) in self.handled:
            return
        flows = self.flows
        helper = flows.helper_of(call)
        if helper is not None:
            target = keyword if keyword in positional_or_keyword(helper) else None
            kind = flows.helper_kind(helper, target)
            callee: str | None = helper.name
            if kind is UseKind.NATIVE and target is not None:
                inner = flows.analyse(helper, target).native
                callee = inner[0].callee if inner else helper.name
            self._record(call, kind, callee, helper.name)
            return
        kind, qualified = flows.classify(call)
        self._record(call, kind, qualified)

    def _record(
        self, call: ast.Call, kind: UseKind, callee: str | None, via: str | None = None
    ) -> None:
        self.handled.add(id(call))
        self.flow.uses.append(PlainUse(call, kind, callee, via))
        if kind >= UseKind.INPLACE:
            self.covering[id(call)] = call

    def _assigned(self, assign: ast.Assign) -> None:
        """``x = out`` (an alias, collected beforehand) or ``kw["out"] = out`` (a carrier)."""
        for target in assign.targets:
            if isinstance(target, ast.Name):
                continue
            if (
                isinstance(target, ast.Subscript)
                and isinstance(target.value, ast.Name)
                and self._out_key(target.slice)
            ):
                self.carriers.add(target.value.id)
            else:
                self.flow.escapes = True

    def _out_key(self, key: ast.expr) -> bool:
        """A subscript's one index, the plain string ``"out"`` (``kw["out"]``, ``kw["out",]``)."""
        if isinstance(key, ast.Tuple) and len(key.elts) == 1:
            element = key.elts[0]
            if (key.lineno, key.col_offset) != (element.lineno, element.col_offset):
                return False  # kw[("out",)]: a tuple, not a string
            key = element
        return plain_string(key, self.flows.lines) == OUT

    def _dict_call(self, call: ast.Call) -> None:
        """``kw = dict(out=out)``: ``kw`` carries ``out`` into ``f(**kw)``."""
        name = _sole_name_target(self.parents.get(id(call)), call)
        if name is not None:
            self.carriers.add(name)
        else:
            self.flow.escapes = True

    def _dict_element(self, node: ast.Name, display: ast.Dict) -> None:
        """``kw = {"out": out}``: ``kw`` carries ``out`` into ``f(**kw)``."""
        key = display.keys[next(i for i, v in enumerate(display.values) if v is node)]
        name = _sole_name_target(self.parents.get(id(display)), display)
        if key is not None and plain_string(key, self.flows.lines) == OUT and name is not None:
            self.carriers.add(name)
        else:
            self.flow.escapes = True


class _Body(NamedTuple):
    """What one walk of a function's body finds, whichever parameter is followed: shared
    by every rule and every parameter that asks (:meth:`ModuleFlows.body`). A tuple: made
    per function, where a frozen dataclass's fields are set one call each."""

    parents: dict[int, ast.AST]
    """The parent of each node below the function but names (its statements': the
    function)."""
    names: list[tuple[ast.Name, ast.AST, bool]]
    """Every name, its parent, and whether it is in a nested scope."""
    spelled: list[tuple[ast.AST, bool]]
    """Every node holding a name as a string (:data:`_SPELLING`) in a nested scope, and
    those outside that may read or escape one (:data:`_READ_OR_ESCAPED`); whether nested."""
    star_calls: list[tuple[ast.Call, str]]
    """``(call, name)`` of each ``**name`` a call outside nested scopes unpacks."""
    pairs: list[tuple[str, str]]
    """``(target, source)`` of each ``target = source`` outside nested functions."""


_SCOPE_TYPES = frozenset(_SCOPES)
_FUNCTION_TYPES = frozenset(_FUNCTIONS)
_SPELLING_TYPES = frozenset(_SPELLING)
_READ_OR_ESCAPED = frozenset(_READ_OR_ESCAPING)
_ALIASING = frozenset({ast.Assign, ast.AnnAssign})


def _walk_body(function: FunctionNode) -> _Body:
    """The one walk of ``function``'s statements (:class:`_Body`), in source order. The
    children of a node are gathered here (the fields :func:`child_fields` names), and constants are
    left out (nothing is asked of them, nor of their parent): the walk is most of the
    out-flow's cost."""
    parents: dict[int, ast.AST] = dict.fromkeys(map(id, function.body), function)
    found = _Body(parents, [], [], [], [])
    _walk_nodes(list(reversed(function.body)), found, False, False)
    return found


def _walk_nodes(stack: list[ast.AST], found: _Body, nested: bool, in_function: bool) -> None:
    """:func:`_walk_body` from the nodes on ``stack`` (the next on top), all under the same
    scope flags: pre-order, left to right. A node opening a scope that changes the flags is
    walked with its subtree by a call of its own, at once: the order stays that of one
    walk, and the stack holds bare nodes (no flags per node). A name is taken with its
    parent as the parent's children are gathered (it has no child): a third of a body's
    nodes, never pushed, never in :attr:`_Body.parents`."""
    parents, names, spelled = found.parents, found.names, found.spelled
    star_calls, pairs = found.star_calls, found.pairs
    name_type, call_type, constant_type, node_type = ast.Name, ast.Call, ast.Constant, ast.AST
    pop, push, named = stack.pop, stack.append, names.append
    while stack:
        node = pop()
        cls = node.__class__
        if cls in _SCOPE_TYPES and not (nested and (in_function or cls not in _FUNCTION_TYPES)):
            _walk_nodes([node], found, True, in_function or cls in _FUNCTION_TYPES)
            continue
        if cls in _SPELLING_TYPES:
            if nested or cls in _READ_OR_ESCAPED:
                spelled.append((node, nested))
        elif cls is call_type and not nested:
            for k in node.keywords:  # type: ignore[attr-defined]
                if k.arg is None and k.value.__class__ is name_type:
                    star_calls.append((node, k.value.id))  # type: ignore[arg-type]
        elif cls in _ALIASING and not in_function:
            pairs.extend(_alias_pairs(node))
        for attribute in _LAST_FIELD_FIRST.get(cls) or _last_field_first(cls):
            value = getattr(node, attribute, None)
            if value.__class__ is list:
                for item in reversed(value):
                    kind = item.__class__
                    if kind is name_type:
                        named((item, node, nested))
                    elif kind is not constant_type and isinstance(item, node_type):
                        parents[id(item)] = node
                        push(item)
            else:
                kind = value.__class__
                if kind is name_type:
                    named((value, node, nested))  # type: ignore[arg-type]
                elif kind is not constant_type and isinstance(value, node_type):
                    parents[id(value)] = node
                    push(value)


_LAST_FIELD_FIRST: dict[type[ast.AST], tuple[str, ...]] = {}
"""Per node type, :func:`child_fields` from the last: a node's children are pushed last
first, so that they come off the stack in order."""


def _last_field_first(kind: type[ast.AST]) -> tuple[str, ...]:
    fields = _LAST_FIELD_FIRST[kind] = child_fields(kind)[::-1]
    return fields


def _position(found: tuple[ast.Name, ast.AST]) -> tuple[int, int]:
    return found[0].lineno, found[0].col_offset


def _alias_pairs(node: ast.AST) -> list[tuple[str, str]]:
    """(target, source) of ``target = source`` and ``target: T = source`` (names only)."""
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
        return [(t.id, node.value.id) for t in node.targets if isinstance(t, ast.Name)]
    if (
        isinstance(node, ast.AnnAssign)
        and isinstance(node.value, ast.Name)
        and isinstance(node.target, ast.Name)
    ):
        return [(node.target.id, node.value.id)]
    return []


def _closure(root: str, pairs: list[tuple[str, str]]) -> set[str]:
    """``root`` and every name assigned from it, directly or through a chain, any order."""
    found = {root}
    changed = bool(pairs)
    while changed:
        changed = False
        for target, source in pairs:
            if source in found and target not in found:
                found.add(target)
                changed = True
    return found


def _sole_name_target(statement: ast.AST | None, value: ast.expr) -> str | None:
    """``name`` of ``name = value`` (one target), else ``None``."""
    if (
        isinstance(statement, ast.Assign)
        and statement.value is value
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
    ):
        return statement.targets[0].id
    return None


def _stores(node: ast.Name, parent: ast.AST) -> bool:
    """A plain store (``out = ...``, ``out += ...``, ``for out in ...``, ``with f() as
    out``): not a use."""
    if isinstance(parent, ast.Assign):
        return any(t is node for t in parent.targets)
    if isinstance(parent, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
        return parent.target is node
    return isinstance(parent, ast.withitem) and parent.optional_vars is node


def _assigns(child: ast.AST, parent: ast.AST | None) -> bool:
    """``child`` is an assignment's target, or any part of an augmented assignment."""
    if isinstance(parent, ast.Assign):
        return any(t is child for t in parent.targets)
    return isinstance(parent, ast.AugAssign)


def _direct(child: ast.AST, parent: ast.AST) -> bool:
    """``child`` sits right below ``parent`` in libcst's tree too (no argument, element or
    index node between them)."""
    if isinstance(parent, ast.Attribute | ast.Subscript | ast.Starred | ast.Await):
        return parent.value is child
    if isinstance(parent, ast.Call):
        return parent.func is child
    if isinstance(parent, ast.BinOp | ast.UnaryOp | ast.IfExp | ast.NamedExpr):
        return True
    if isinstance(parent, ast.Compare):
        return parent.left is child
    if isinstance(parent, ast.BoolOp):
        return len(parent.values) == 2 or parent.values[-1] is child
    return False


def _string_names(node: ast.AST) -> tuple[list[str], list[str], list[str]]:
    """The names libcst's tree has where CPython's keeps strings, as (labels, names whose
    values are read, escapes) outside a nested scope."""
    if isinstance(node, ast.keyword):
        return ([node.arg] if node.arg else []), [], []
    if isinstance(node, ast.Attribute):
        return [node.attr], [], []
    if isinstance(node, ast.alias):
        parts = node.name.split(".")
        head = parts[:1] if len(parts) > 1 else []
        rest = parts[1:] if len(parts) > 1 else parts
        return [*rest, *([node.asname] if node.asname else [])], head, []
    if isinstance(node, ast.ImportFrom) and node.module:
        parts = node.module.split(".")
        if len(parts) == 1:
            return [], [], parts
        return parts[1:], parts[:1], []
    if isinstance(node, ast.ExceptHandler):
        return ([node.name] if node.name else []), [], []
    if isinstance(node, ast.Global | ast.Nonlocal):
        return [], [], list(node.names)
    if isinstance(node, ast.MatchAs | ast.MatchStar):
        return [], [], ([node.name] if node.name else [])
    if isinstance(node, ast.MatchMapping):
        return [], [], ([node.rest] if node.rest else [])
    if isinstance(node, ast.MatchClass):
        return [], [], list(node.kwd_attrs)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name], [], []  # always a nested scope: an escape
    if isinstance(node, ast.arg):
        return [node.arg], [], []  # a parameter: only in a nested scope
    return [], [], []


def _in_test(name: ast.Name, parent: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether the name (below ``parent``) only takes part in a test (``out is None``,
    ``if out:``)."""
    child: ast.AST = name
    ancestor: ast.AST | None = parent
    while True:
        if ancestor is None:
            return False
        if isinstance(ancestor, _TESTS):
            return True
        if isinstance(ancestor, _TESTED):
            return ancestor.test is child
        if isinstance(ancestor, ast.stmt):
            return False
        child, ancestor = ancestor, parents.get(id(ancestor))


def plain_string(node: ast.expr, lines: Lines) -> str | None:
    """The value of a string literal written as one token (``"out"``, ``r'out'``; not
    ``"o" "ut"``, which libcst keeps as a concatenation), else ``None``."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    written = lines.segment(node)
    if written is None:
        return None
    try:
        tokens = [
            t
            for t in tokenize.generate_tokens(io.StringIO(written).readline)
            if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER)
        ]
    except (tokenize.TokenError, SyntaxError):
        return None
    return node.value if len(tokens) == 1 else None


def _binds(function: FunctionNode, name: str) -> bool:
    """``name in positional_or_keyword(function)``, without the list (asked per flow)."""
    args = function.args
    for group in (args.kwonlyargs, args.args, args.posonlyargs):
        for parameter in group:
            if parameter.arg == name:
                return True
    return False


def _positional_param(function: FunctionNode, position: int) -> str | None:
    """The parameter a positional argument binds."""
    positional = [*function.args.posonlyargs, *function.args.args]
    return positional[position].arg if 0 <= position < len(positional) else None


def _last_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


# Return paths ------------------------------------------------------------------------


def return_paths(flow: OutFlow, *, some: bool = False) -> list[AstReturnPath]:
    """Every ``return`` of ``flow.function`` (not of nested functions), in source order,
    with whether every path to it writes ``out``. A test naming ``out`` or an alias
    (``if ivy.exists(out):``) counts both its branches and what follows as written: Ivy's
    documented ``if ivy.exists(out): return ivy.inplace_update(out, ret)`` shape.
    ``some``: whether *some* path to it writes ``out`` (branches merged with "any", a
    loop's body taken as run), so that a message says "never writes" only where no path
    does."""
    walk = _Paths(flow)
    walk.some = some
    walk.block(flow.function.body, False)
    return walk.found


class _Paths(ReturnWalk):
    def __init__(self, flow: OutFlow) -> None:
        self.found: list[AstReturnPath] = []
        self.aliases = flow.aliases
        self.holders = flow.holders

    def writes(self, node: ast.AST) -> bool:
        return id(node) in self.holders

    def guards(self, test: ast.expr) -> bool:
        return any(name in self.aliases for name in _spellings(test))

    def judge(self, returned: ast.Return, covered: bool) -> None:
        self.found.append(AstReturnPath(returned, covered))

    def match(self, statement: ast.Match, written: bool) -> None:
        """The returns inside a ``match``, judged with the state before it."""
        inner = sorted(_returns_below(statement), key=lambda r: (r.lineno, r.col_offset))
        self.found.extend(AstReturnPath(r, written or self.writes(r)) for r in inner)


def _spellings(node: ast.AST) -> Iterator[str]:
    """Every name spelled in an expression, strings of CPython's tree included."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name):
            yield inner.id
        else:
            labels, read, escaped = _string_names(inner)
            yield from (*labels, *read, *escaped)


def _returns_below(node: ast.AST) -> Iterator[ast.Return]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Return):
            yield child
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _returns_below(child)
