"""Where ``out`` goes inside one backend function: the analysis behind IVY001-IVY003.

Ivy's wrapper (``handle_out_argument``) decides by one attribute, ``support_native_out``,
whether a backend function writes ``out`` itself. Whether it really does is a question of
data flow inside the function, asked in three ways:

* IVY001: does ``out`` reach a native function that accepts it (so the attribute is missing)?
* IVY002: could ``out`` reach one at all (so an attribute that is set is dead)?
* IVY003: does every ``return`` come after (or with) a write of ``out``? (the nodes that
  write it are :attr:`FunctionOutFlow.writes`; :mod:`ivycheck.rules._return_paths` walks
  the returns)

:class:`FunctionOutFlow` answers these for one ``FunctionDef``. It follows ``out``

* through local aliases and chains of them (``o = out; p = o``, in any order),
* through dictionaries that carry it (``kw = {"out": out}``, ``kw = dict(out=out)``,
  ``kw["out"] = out``) into ``f(**kw)``,
* into module-level helpers of the same file, by keyword or position, recursively
  (``return _tan_helper(x, out=out)`` forwards natively if ``_tan_helper`` does),

and classifies every call that receives it (:class:`UseKind`): native and accepting
(``numpy.tan``), native and rejecting (any ``jax``/``tensorflow`` function, ``numpy.transpose``),
``inplace_update``, or unknown (a method, a runtime function, an unresolvable name). Unknown
uses and anything the analysis cannot follow (``out`` returned, stored, captured by a
closure, written with ``out[...] = ...``, the signature's own ``**kwargs`` forwarded) make the
rules *quiet*, never loud: a checker that cries wolf gets switched off.

Names are resolved with :class:`ivycheck.rules._names.ImportMap` (``np.tan``, ``numpy.tan`` and
``from numpy import tan as t; t(...)`` are all ``numpy.tan``); which native functions accept
``out`` is the generated data of :mod:`ivycheck.rules._native_out`.

:class:`ModuleOutFlow` holds the per-file facts: the module-level functions (helpers) and every
``support_native_out`` assignment (:mod:`ivycheck.rules._support_native_out`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from ivycheck.checker.rule_api import RuleContext, walk
from ivycheck.rules._api_functions import parameter_names
from ivycheck.rules._names import ImportMap, is_inplace_update
from ivycheck.rules._support_native_out import AttributeSite, attribute_sites
from ivycheck.rules._vocabulary import (
    CHECK_CALLS,
    OUT,
    UseKind,
    classify_callee,
    describe_use,
    in_modules,
)


@dataclass(frozen=True)
class OutUse:
    """One call that receives ``out`` (or an alias of it)."""

    call: cst.Call
    kind: UseKind
    callee: str | None
    """Qualified name (``numpy.tan``) or the helper's name; ``None`` when unresolvable."""
    via: str | None = None
    """The same-file helper the value went through, if any."""

    def describe(self) -> str:
        return describe_use(self.callee, self.via)


@dataclass
class FunctionOutFlow:
    """The fate of one parameter (normally ``out``) inside one function."""

    function: cst.FunctionDef
    root: str | None
    aliases: frozenset[str] = frozenset()
    carriers: frozenset[str] = frozenset()
    uses: list[OutUse] = field(default_factory=list)
    escapes: bool = False
    """``out`` goes somewhere the analysis does not follow (returned, stored, a closure...)."""
    forwards_var_kwargs: bool = False
    """The signature's ``**kwargs`` is passed on, so ``out`` may travel inside it."""
    reads_data: bool = False
    """``out``'s values are read: passed by position (``jnp.add(out, updates)``, a scatter
    that starts from it), indexed, an operand, a method's receiver (``out.at[i]``). Then
    the function uses the buffer it is handed, whatever reaches a native ``out=``."""
    writes: frozenset[int] = frozenset()
    """ids of the nodes whose evaluation writes (or may write) ``out``: the calls that receive
    it natively or through ``inplace_update``, and the uses the analysis cannot follow."""

    @property
    def native_uses(self) -> list[OutUse]:
        return [use for use in self.uses if use.kind is UseKind.NATIVE]

    @property
    def forwards_natively(self) -> bool:
        """``out`` certainly reaches a native function that writes into it (on some path)."""
        return bool(self.native_uses)

    @property
    def may_forward_natively(self) -> bool:
        """``out`` might reach a native buffer-writing function (the quiet side of IVY002)."""
        return (
            self.escapes
            or self.forwards_var_kwargs
            or any(use.kind >= UseKind.UNKNOWN for use in self.uses)
        )

    @property
    def best_kind(self) -> UseKind | None:
        """The most useful thing any call does with ``out`` (``None``: no call receives it)."""
        if self.escapes or self.forwards_var_kwargs:
            return max((UseKind.UNKNOWN, *(u.kind for u in self.uses)))
        return max((u.kind for u in self.uses), default=None)


def takes_param(function: cst.FunctionDef, name: str = OUT) -> bool:
    return name in parameter_names(function.params)


def _var_kwargs(function: cst.FunctionDef) -> str | None:
    star = function.params.star_kwarg
    return star.name.value if isinstance(star, cst.Param) else None


def _last_name(func: cst.BaseExpression) -> str | None:
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Name):
        return func.value
    return None


def _string_key(expression: cst.BaseExpression | None) -> str | None:
    if isinstance(expression, cst.SimpleString):
        value = expression.evaluated_value
        return value if isinstance(value, str) else None
    return None


# --------------------------------------------------------------------------- per module


class ModuleOutFlow:
    """Per-file facts and a memo of function analyses (helpers are analysed once).

    Built from the module alone (so that :meth:`RuleContext.memo` can share it between
    rules); :func:`module_outflow` binds the file's import map and configuration.
    """

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self.imports = ImportMap({})
        self.runtime_modules: tuple[str, ...] = ()
        self.functions: dict[str, cst.FunctionDef] = {
            s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)
        }
        self.attributes: dict[str, list[AttributeSite]] = {}
        for site in attribute_sites(module):
            self.attributes.setdefault(site.function, []).append(site)
        self._memo: dict[tuple[str, str | None], FunctionOutFlow] = {}
        self._running: set[tuple[str, str | None]] = set()
        self._bound = False

    def bind(self, imports: ImportMap, runtime_modules: Sequence[str]) -> None:
        if not self._bound:
            self.imports = imports
            self.runtime_modules = tuple(runtime_modules)
            self._bound = True

    def analyse(self, function: cst.FunctionDef, root: str | None = OUT) -> FunctionOutFlow:
        """The out-flow of ``root`` (a parameter name) in ``function``."""
        key = (function.name.value, root)
        if self.functions.get(function.name.value) is not function:
            return _Analysis(self, function, root).run()  # a nested or method def: no memo
        if key not in self._memo:
            self._running.add(key)
            try:
                self._memo[key] = _Analysis(self, function, root).run()
            finally:
                self._running.discard(key)
        return self._memo[key]

    def helper_kind(self, helper: cst.FunctionDef, root: str | None) -> UseKind:
        """What a same-file helper does with the value it receives as parameter ``root``."""
        if root is None:
            return UseKind.UNKNOWN
        if (helper.name.value, root) in self._running:
            return UseKind.UNKNOWN  # recursion: do not guess
        kind = self.analyse(helper, root).best_kind
        return UseKind.DROPPED if kind is None else kind

    def classify(self, call: cst.Call) -> tuple[UseKind, str | None]:
        """What a call does with an ``out=`` it is given (helpers excluded)."""
        if is_inplace_update(call.func):
            return UseKind.INPLACE, _last_name(call.func)
        return classify_callee(self.imports.qualify(call.func), self.runtime_modules)

    def is_runtime(self, qualified: str) -> bool:
        """Whether a name belongs to the runtime (config ``runtime_modules``), not a library."""
        return in_modules(qualified, self.runtime_modules)

    def helper_of(self, call: cst.Call) -> cst.FunctionDef | None:
        """The module-level function a plain-name call refers to (not an import)."""
        if isinstance(call.func, cst.Name) and self.imports.qualify(call.func) is None:
            return self.functions.get(call.func.value)
        return None


def module_outflow(context: RuleContext) -> ModuleOutFlow:
    """The file's :class:`ModuleOutFlow`, built once and shared by every rule of the run."""
    flow = context.memo(ModuleOutFlow)
    flow.bind(context.memo(ImportMap.of), context.config.runtime_modules)
    return flow


# --------------------------------------------------------------------------- one function


def _aliases(body: cst.CSTNode, root: str) -> set[str]:
    """``root`` and every local assigned from it, directly or through a chain, any order."""
    pairs: list[tuple[str, str]] = []

    class Collect(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_Assign(self, node: cst.Assign) -> None:
            if isinstance(node.value, cst.Name):
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        pairs.append((target.target.value, node.value.value))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if isinstance(node.value, cst.Name) and isinstance(node.target, cst.Name):
                pairs.append((node.target.value, node.value.value))

    walk(body, Collect())
    found = {root}
    changed = True
    while changed:
        changed = False
        for target, source in pairs:
            if source in found and target not in found:
                found.add(target)
                changed = True
    return found


NEW_SCOPES = frozenset({cst.FunctionDef, cst.Lambda, cst.ClassDef})
"""Nodes that open a scope: what happens to ``out`` inside them is not followed."""


@functools.cache
def _hook(
    visitor_class: type[cst.CSTVisitor], prefix: str, node_class: type[cst.CSTNode]
) -> Callable[[Any, Any], bool | None] | None:
    """``visitor_class.<prefix>_<node type>`` (``visit``/``leave``), or ``None``: what
    libcst's ``on_visit``/``on_leave`` look up by name for every node."""
    found: Callable[[Any, Any], bool | None] | None = getattr(
        visitor_class, f"{prefix}_{node_class.__name__}", None
    )
    return found


class _Analysis(cst.CSTVisitor):
    """One walk over a function body that classifies every occurrence of an alias of ``out``."""

    def __init__(self, module: ModuleOutFlow, function: cst.FunctionDef, root: str | None) -> None:
        super().__init__()
        self.module = module
        self.function = function
        self.root = root if root is not None and takes_param(function, root) else None
        self.var_kwargs = _var_kwargs(function)
        self.aliases: set[str] = (
            _aliases(function.body, self.root) if self.root is not None else set()
        )
        self.carriers: set[str] = set()
        self.stack: list[cst.CSTNode] = []
        self.nested = 0
        self.flow = FunctionOutFlow(function, self.root)
        self.covering: set[int] = set()
        """ids of nodes whose evaluation writes (or may write) ``out``."""
        self.star_calls: list[tuple[cst.Call, str]] = []
        self.handled_calls: set[int] = set()

    # -- walk bookkeeping -------------------------------------------------------------

    needs_tokens = False  # walk.visit: whitespace and operators are never an ancestor here

    # The walk calls these for every node of every analysed function: type tests on a
    # set of (final) classes and visit methods looked up once per node type, not
    # libcst's abstract-class checks and by-name lookups per node.

    def on_visit(self, node: cst.CSTNode) -> bool:
        kind = type(node)
        if kind in NEW_SCOPES and self.stack:
            self.nested += 1
        self.stack.append(node)
        visit = _hook(type(self), "visit", kind)
        return visit is None or visit(self, node) is not False

    def on_leave(self, original_node: cst.CSTNode) -> None:
        leave = _hook(type(self), "leave", type(original_node))
        if leave is not None:
            leave(self, original_node)
        self.stack.pop()
        if type(original_node) in NEW_SCOPES and self.stack:
            self.nested -= 1

    def run(self) -> FunctionOutFlow:
        if self.root is not None or self.var_kwargs is not None:
            walk(self.function.body, self)
            for call, name in self.star_calls:
                if name in self.carriers:
                    self._use(call, OUT)
                elif name == self.var_kwargs:
                    kind, _ = self.module.classify(call)
                    if kind is not UseKind.REJECTED:
                        self.flow.forwards_var_kwargs = True
                        self.covering.add(id(call))
        self.flow.reads_data = self.flow.reads_data or self.flow.escapes
        self.flow.aliases = frozenset(self.aliases)
        self.flow.carriers = frozenset(self.carriers)
        self.flow.writes = frozenset(self.covering)
        return self.flow

    # -- occurrences --------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        for arg in node.args:
            if arg.star == "**" and isinstance(arg.value, cst.Name) and not self.nested:
                self.star_calls.append((node, arg.value.value))

    def visit_Name(self, node: cst.Name) -> None:
        if node.value not in self.aliases:
            return
        if self.nested:
            self.flow.escapes = True  # captured by a closure: not followed
            return
        parent = self.stack[-2] if len(self.stack) > 1 else None
        grandparent = self.stack[-3] if len(self.stack) > 2 else None
        if self._is_store(node, parent) or _is_label(node, parent):
            return
        if isinstance(parent, cst.Arg) and isinstance(grandparent, cst.Call):
            self._argument(node, parent, grandparent)
        elif isinstance(parent, cst.Assign) and parent.value is node:
            self._assigned(parent)
        elif isinstance(parent, cst.DictElement) and parent.value is node:
            self._dict_element(parent)
        elif isinstance(parent, cst.Return):
            self.flow.escapes = True
            self.covering.add(id(node))
        elif isinstance(parent, cst.Attribute) and parent.value is node:
            self.flow.reads_data = True  # out.at[i], out.shape, out.copy_(...)
            if isinstance(grandparent, cst.Call) and grandparent.func is parent:
                self.flow.escapes = True  # out.copy_(...), out.fill(...): writes we cannot judge
                self.covering.add(id(grandparent))
        elif isinstance(parent, cst.Subscript) and parent.value is node:
            if any(isinstance(a, cst.AssignTarget | cst.AugAssign) for a in self.stack[-4:-2]):
                self.flow.escapes = True  # out[...] = value writes the buffer directly
                self.covering.add(id(node))
            else:
                self.flow.reads_data = True  # out[1:] read: its values are data
        elif not self._in_test():
            self.flow.escapes = True
            self.covering.add(id(node))

    def _is_store(self, node: cst.Name, parent: cst.CSTNode | None) -> bool:
        if isinstance(parent, cst.AssignTarget) and parent.target is node:
            return True
        if isinstance(parent, cst.AnnAssign | cst.AugAssign) and parent.target is node:
            return True
        return isinstance(parent, cst.For) and parent.target is node

    def _in_test(self) -> bool:
        """Whether the current name only takes part in a test (``out is None``, ``if out:``)."""
        for i in range(len(self.stack) - 2, -1, -1):
            ancestor, child = self.stack[i], self.stack[i + 1]
            if isinstance(ancestor, cst.Comparison | cst.BooleanOperation | cst.UnaryOperation):
                return True
            if isinstance(ancestor, cst.If | cst.While | cst.IfExp | cst.Assert):
                return getattr(ancestor, "test", None) is child
            if isinstance(ancestor, cst.BaseStatement | cst.BaseSmallStatement):
                return False
        return False

    def _argument(self, node: cst.Name, arg: cst.Arg, call: cst.Call) -> None:
        func_name = _last_name(call.func)
        if func_name in CHECK_CALLS and not is_inplace_update(call.func):
            return
        keyword = arg.keyword.value if arg.keyword is not None else None
        if arg.star:
            self.flow.escapes = True
            self.covering.add(id(call))
            return
        if keyword == OUT and isinstance(call.func, cst.Name) and call.func.value == "dict":
            self._dict_call(call)
            return
        if keyword == OUT:
            self._use(call, OUT)
            return
        positional = [a for a in call.args if a.keyword is None and not a.star]
        position = next((i for i, a in enumerate(positional) if a is arg), -1)
        if is_inplace_update(call.func) and (keyword == "x" or position == 0):
            self._record(call, UseKind.INPLACE, _last_name(call.func))
            return
        self.flow.reads_data = True
        helper = self.module.helper_of(call)
        if helper is not None:
            target = keyword if keyword is not None else _positional_param(helper, position)
            if target is not None and not takes_param(helper, target):
                target = None
            self._record(call, self.module.helper_kind(helper, target), helper.name.value)
            return
        self._record(call, UseKind.UNKNOWN, self.module.imports.qualify(call.func))

    def _use(self, call: cst.Call, keyword: str) -> None:
        """``call`` receives ``out`` as keyword ``keyword`` (directly or inside ``**kw``)."""
        if id(call) in self.handled_calls:
            return
        helper = self.module.helper_of(call)
        if helper is not None:
            target = keyword if takes_param(helper, keyword) else None
            kind = self.module.helper_kind(helper, target)
            via = helper.name.value
            callee: str | None = via
            if kind is UseKind.NATIVE and target is not None:
                inner = self.module.analyse(helper, target).native_uses
                callee = inner[0].callee if inner else via
            self._record(call, kind, callee, via)
            return
        kind, qualified = self.module.classify(call)
        self._record(call, kind, qualified)

    def _record(
        self, call: cst.Call, kind: UseKind, callee: str | None, via: str | None = None
    ) -> None:
        self.handled_calls.add(id(call))
        self.flow.uses.append(OutUse(call, kind, callee, via))
        if kind >= UseKind.INPLACE:
            self.covering.add(id(call))

    def _assigned(self, assign: cst.Assign) -> None:
        """``x = out`` (an alias, collected beforehand) or ``kw["out"] = out`` (a carrier)."""
        for target in assign.targets:
            t = target.target
            if isinstance(t, cst.Name):
                continue
            if (
                isinstance(t, cst.Subscript)
                and isinstance(t.value, cst.Name)
                and len(t.slice) == 1
                and isinstance(t.slice[0].slice, cst.Index)
                and _string_key(t.slice[0].slice.value) == OUT
            ):
                self.carriers.add(t.value.value)
            else:
                self.flow.escapes = True

    def _dict_call(self, call: cst.Call) -> None:
        """``kw = dict(out=out)``: ``kw`` carries ``out`` into ``f(**kw)``."""
        statement = self.stack[-4] if len(self.stack) > 3 else None
        if (
            isinstance(statement, cst.Assign)
            and statement.value is call
            and len(statement.targets) == 1
            and isinstance(statement.targets[0].target, cst.Name)
        ):
            self.carriers.add(statement.targets[0].target.value)
        else:
            self.flow.escapes = True

    def _dict_element(self, element: cst.DictElement) -> None:
        """``kw = {"out": out}``: ``kw`` carries ``out`` into ``f(**kw)``."""
        owner = self.stack[-3] if len(self.stack) > 2 else None
        statement = self.stack[-4] if len(self.stack) > 3 else None
        if (
            _string_key(element.key) == OUT
            and isinstance(owner, cst.Dict)
            and isinstance(statement, cst.Assign)
            and statement.value is owner
            and len(statement.targets) == 1
            and isinstance(statement.targets[0].target, cst.Name)
        ):
            self.carriers.add(statement.targets[0].target.value)
        else:
            self.flow.escapes = True


CONVERSIONS = frozenset({"astype", "to", "type"})
"""NumPy/PyTorch methods that convert an array's dtype: a new array when it differs."""


def method_of_native_result(value: cst.BaseExpression | None) -> str | None:
    """``astype`` for ``np.divide(x, y, out=out).astype(x.dtype)``: the method called on
    the result of a call given ``out=`` (what is returned is then not the buffer written)."""
    if (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and isinstance(value.func.value, cst.Call)
        and any(a.keyword is not None and a.keyword.value == OUT for a in value.func.value.args)
    ):
        return value.func.attr.value
    return None


def _positional_param(function: cst.FunctionDef, position: int) -> str | None:
    positional = [*function.params.posonly_params, *function.params.params]
    return positional[position].name.value if 0 <= position < len(positional) else None


def _is_label(node: cst.Name, parent: cst.CSTNode | None) -> bool:
    """A name that is not a variable: ``out`` in ``f(out=...)``, ``x.out``, a parameter."""
    if isinstance(parent, cst.Arg) and parent.keyword is node:
        return True
    if isinstance(parent, cst.Attribute) and parent.attr is node:
        return True
    return isinstance(parent, cst.Param | cst.ImportAlias | cst.AsName)
