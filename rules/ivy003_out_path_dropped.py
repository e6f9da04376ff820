"""IVY003: a ``support_native_out`` function with a return path that never writes ``out``."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import libcst as cst

from ivycheck.checker.rule_api import (
    AstFinding,
    Category,
    Example,
    Rule,
    Severity,
    nodes_of,
)
from ivycheck.rules import _fate_examples as shapes
from ivycheck.rules._ast_facts import (
    FunctionNode,
    OutForwarding,
    child_nodes,
    facts,
    module_functions,
    surely_no_out_flow,
    takes_out,
)
from ivycheck.rules._ast_layout import indented, test_parenthesized, text
from ivycheck.rules._ast_outflow import followed_outflow
from ivycheck.rules._ast_return_paths import SCOPES, ReturnWalk, plain_return_paths
from ivycheck.rules._ast_sites import sites_by_function
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._out_fate import (
    COPIES,
    RETURNED,
    OutFate,
    compose,
    ignored_buffer_fate,
    ignored_buffer_fates,
    project_wrapper,
)
from ivycheck.rules._outflow import CONVERSIONS, method_of_native_result, module_outflow
from ivycheck.rules._return_paths import return_paths
from ivycheck.rules._several_results import several_results, several_results_on_ast
from ivycheck.rules._support_native_out import ATTRIBUTE
from ivycheck.rules._vocabulary import UseKind

if TYPE_CHECKING:
    from ivycheck.checker.core.rule import FileUnderCheck


class OutPathDropped(Rule):
    """Every return of a ``support_native_out`` function must have written ``out``.

    With ``support_native_out`` the wrapper hands the function the native ``out`` buffer and
    trusts it to write the result there. A return path that neither forwards ``out`` to a
    native function nor reaches ``inplace_update(out, ...)`` leaves the buffer untouched;
    what ``out`` then becomes is read from the project's own wrapper and backend update, as
    for IVY002: copied into (PyTorch under Ivy's wrapper: an extra allocation and a copy, a
    performance warning), rebound (NumPy, JAX...: ``out`` changes dtype and buffer when the
    result's dtype differs, an error), or never written. The classic case is an early
    return for a special argument (``exclusive=True`` in ``cumsum``, a ``dtype`` cast) added
    after the native call was written.

    Guard-aware: a path is fine after ``if ivy.exists(out): return ivy.inplace_update(out,
    ret)`` (the documented cholesky shape: the return that follows runs with ``out=None``),
    and inside any branch whose test mentions ``out``. A native call with ``out`` followed by
    a method (``return torch.tan(x, out=out).to(dtype)``) counts as forwarding, as do aliases,
    chains, ``**kwargs`` and same-file helpers (see IVY001). But a dtype conversion of the
    native result (``.astype``, ``.to``, ``.type``) hands back a new array, which the wrapper
    then writes into ``out``: where the backend's update rebinds ``out`` (NumPy under Ivy's
    wrapper) that return is reported too, since ``out`` ends with the converted dtype; where
    the update copies (PyTorch), only work is wasted and nothing is reported. Functions that never forward
    ``out`` natively are IVY002's, JAX/TensorFlow ones too. ``support_native_out = False``
    counts as the attribute when the project's wrapper tests its presence (Ivy's does; see
    IVY015), and not when it reads the value.

    Fix by passing ``out=out`` on that path too, or by ending it with
    ``if ivy.exists(out): return ivy.inplace_update(out, ret)``.

    A return reached both by a path that writes ``out`` and by one that does not (``if
    x.ndim < 2: ret = torch.zeros(()) else: ret = torch.sum(x, out=out)`` then ``return
    ret``) is reported as "reached on some paths without writing ``out``": the buffer stays
    untouched only on those paths, and the message claims no more.

    Two shapes drop ``out`` only on degenerate input, and the message says which: a return
    directly under a test for empty or 0-d input (``if x.size == 0:``, ``if len(x.shape)
    == 0:``, ``x.ndim == 0``), and a return of a name that a loop above rebinds to a
    result written into ``out`` (``for a in axis: x = torch.all(x, dim=a, out=out)`` then
    ``return x``), which misses ``out`` only when the loop runs zero times. The mistake is
    the same (the buffer stays untouched there), the inputs that reach it are rare: those
    findings are warnings, not errors.
    """

    CODE = "IVY003"
    NAME = "out-path-dropped"
    MESSAGE = "Return path of a `support_native_out` function never writes `out`; forward it or `inplace_update(out, ret)`"
    PARTS = frozenset({"backend:numpy", "backend:torch"})
    TRIGGERS = ("support_native_out",)
    NEEDS_INDEX = True
    # VALID and INVALID: the examples at the end of this module.

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """Whether a module-level function with the attribute set may have a ``return``
        that is not covered, or covered but handing back a dtype conversion of the native
        result where the backend's update does not copy: the return walk below on
        CPython's tree, with a statement taken to write ``out`` only when it holds a call
        given the function's own ``out=out`` that the analysis records as a write whatever
        the call's name resolves to (no other argument an alias of ``out``)."""
        found = facts(tree)
        sites = found.attribute_sites(ATTRIBUTE)
        functions = module_functions(found.body)
        names = [
            name
            for name in sites
            if name in functions and not surely_no_out_flow(functions[name])  # IVY002's
        ]
        if not names:
            return False
        forwarding = OutForwarding(found, file.config.runtime_modules)
        backend = file.part.removeprefix("backend:")
        copies: list[bool] = []

        def conversions_harmless() -> bool:
            if not copies:
                copies.append(ignored_buffer_fate(file.index, backend).kind == COPIES)
            return copies[0]

        return not all(
            _AstReturns(functions[name], forwarding, conversions_harmless).all_covered()
            for name in names
        )

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below where the flow of every attributed function is decided on
        CPython's tree (:func:`ivycheck.rules._ast_outflow.followed_outflow`: ``out`` given
        as ``out=``, tested, read, or handed to a same-file helper decided alike; what it
        writes, escapes included) or it takes no ``out`` and no ``**kwargs``, the
        sites are read exactly (:mod:`ivycheck.rules._ast_sites`), the returns are walked
        on CPython's tree (:mod:`ivycheck.rules._ast_return_paths`) and the text says
        whether a dropping return is degenerate. ``None`` for anything else."""
        lines = Lines(file.source)
        by_function = sites_by_function(tree, lines, ATTRIBUTE)
        if by_function is None:
            return None
        if not by_function:
            return []
        wrapper = project_wrapper(file.index)
        reads_value = wrapper is not None and wrapper[1].reads_value
        functions = module_functions(tree.body)
        found = facts(tree)
        fates = ignored_buffer_fates(file.index, file.part.removeprefix("backend:"))
        findings: list[AstFinding] = []
        for name, named in by_function.items():
            function = functions.get(name)
            if function is None:
                continue
            if reads_value and all(site.falsy for site in named):
                continue
            if not takes_out(function):
                if function.args.kwarg is not None:
                    return None  # `**kwargs` passed on may carry `out`: libcst follows it
                continue  # nothing may write `out`: IVY002's
            flow = followed_outflow(
                function, found.import_map, file.config.runtime_modules, functions
            )
            if flow is None:
                return None
            if not flow.may_forward_natively:
                continue
            paths = plain_return_paths(flow)
            reached = plain_return_paths(flow, some=True)
            if paths is None or reached is None:
                return None
            partly = {id(p.node) for p in reached if p.covered}
            several = several_results_on_ast(function, lines, out_only=True)
            if several is None:
                return None  # a tuple word in a comment of the signature: libcst's text decides
            for path in paths:
                fate = fates(several)
                if fate.never_handed:
                    break  # the wrapper never hands this function the buffer: no path matters
                returned = path.node
                end_line = returned.end_lineno or returned.lineno
                span = (
                    returned.lineno,
                    lines.column(returned.lineno, returned.col_offset),
                    end_line,
                    lines.column(end_line, returned.end_col_offset or 0),
                )
                if path.covered:
                    method = _method_of_native_result(returned.value)
                    if method in CONVERSIONS and fate.kind != COPIES:
                        findings.append(
                            AstFinding(
                                *span,
                                _converted_message(name, method or "", fate),
                                severity=fate.severity,
                                category=fate.category,
                            )
                        )
                    continue
                when = _degenerate_on_ast(function, returned, lines)
                if when is None:
                    return None
                findings.append(
                    AstFinding(
                        *span,
                        _dropped_message(name, when, fate, id(returned) in partly),
                        severity=Severity.WARNING if when else fate.severity,
                        category=fate.category,
                    )
                )
        return findings

    def visit_Module(self, node: cst.Module) -> None:
        flow = module_outflow(self.context)
        wrapper = project_wrapper(self.context.index) if flow.attributes else None
        reads_value = wrapper is not None and wrapper[1].reads_value
        fates = ignored_buffer_fates(self.context.index, self.context.backend or "")
        for name, sites in flow.attributes.items():
            function = flow.functions.get(name)
            if function is None:
                continue
            if reads_value and all(site.is_falsy_literal for site in sites):
                continue  # the project's wrapper reads the value: False means False
            analysis = flow.analyse(function)
            if not analysis.may_forward_natively:
                continue  # IVY002: the attribute itself is wrong
            several = several_results(function, out_only=True)
            partly = {id(p.node) for p in return_paths(analysis, some=True) if p.covered}
            for path in return_paths(analysis):
                fate = fates(several)
                if fate.never_handed:
                    break  # the wrapper never hands this function the buffer: no path matters
                if path.covered:
                    self._converted(name, path.node, fate)
                    continue
                when = _degenerate(function, path.node)
                self.report(
                    path.node,
                    _dropped_message(name, when, fate, id(path.node) in partly),
                    category=fate.category,
                    severity=Severity.WARNING if when else fate.severity,
                )

    def _converted(self, name: str, returned: cst.Return, fate: OutFate) -> None:
        """A return that writes ``out`` natively but hands back a dtype conversion of the
        result (``np.divide(x, y, out=out).astype(x.dtype)``): a new array, which the
        wrapper then writes into ``out``. Reported where that changes ``out`` (the
        backend's update rebinds it); where the update copies, only work is wasted."""
        method = method_of_native_result(returned.value)
        if method not in CONVERSIONS or fate.kind == COPIES:
            return
        self.report(
            returned,
            _converted_message(name, method, fate),
            category=fate.category,
            severity=fate.severity,
        )


def _dropped_message(name: str, when: str, fate: OutFate, partly: bool = False) -> str:
    """The finding on a return that is reached without writing ``out``. ``partly``: another
    path to the same return writes ``out`` (``if ...: ret = f(x) else: ret = g(x,
    out=out)``), so "never writes" and "the buffer stays untouched" would be false for it:
    the message says the buffer stays untouched only on the paths that do not write. The
    loop's words already name the path that misses ``out`` (zero iterations)."""
    if partly and when != _AFTER_LOOP:
        head = (
            f"`{name}` has `support_native_out`, but this return{when} is reached on some "
            "paths without writing `out` (another path to it writes `out`): on those paths "
            "the native buffer stays untouched"
        )
    else:
        head = (
            f"`{name}` has `support_native_out`, but this return{when} never writes "
            "`out`: the native buffer stays untouched"
        )
    return compose(
        head,
        " and ",
        fate,
        "; forward `out` here or end with "
        "`if ivy.exists(out): return ivy.inplace_update(out, ret)`",
    )


def _converted_message(name: str, method: str, fate: OutFate) -> str:
    return compose(
        f"`{name}` has `support_native_out`, and this return writes `out` natively but "
        f"hands back `.{method}(...)` of the result, a new array",
        " ",
        fate,
        "; return the native result itself",
        RETURNED,
    )


def _method_of_native_result(value: ast.expr | None) -> str | None:
    """``_outflow.method_of_native_result`` on CPython's tree."""
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Call)
        and any(k.arg == "out" for k in value.func.value.keywords)
    ):
        return value.func.attr
    return None


def _surely_writes(
    returned: ast.Return, function: FunctionNode, aliases: set[str], forwarding: OutForwarding
) -> bool:
    """Whether ``return f(..., out=out)`` writes ``out`` for the analysis and hands back
    no method of a native call's result (``method_of_native_result``)."""
    value = returned.value
    if not isinstance(value, ast.Call) or not takes_out(function):
        return False
    func = value.func
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Call)
        and any(k.arg == "out" for k in func.value.keywords)
    ):
        return False
    return forwarding.forwarding_call(value, aliases, UseKind.INPLACE)


class _AstReturns(ReturnWalk):
    """The shared return walk (:class:`ReturnWalk`) asking whether every return is
    covered and hands back no conversion that matters: writes are under-approximated
    (calls proven to write ``out``, see :class:`OutForwarding`), tests mentioning ``out``
    are read as libcst reads them (names only: libcst counts more), so a return judged
    covered here is covered there. A ``match``'s returns are judged with what was written
    before it, as libcst's walk judges them (it does not walk the cases)."""

    def __init__(
        self,
        function: FunctionNode,
        forwarding: OutForwarding,
        conversions_harmless: Callable[[], bool],
    ) -> None:
        self.function = function
        self.forwarding = forwarding
        self.conversions_harmless = conversions_harmless
        self.aliases = forwarding.found.out_aliases(function) if takes_out(function) else set()
        self.fine = True

    def all_covered(self) -> bool:
        if not self.aliases:
            # no `out` parameter: no write is proven, any return may be reported
            return not any(_own_returns(self.function.body))
        self.block(self.function.body, False)
        return self.fine

    def writes(self, node: ast.AST) -> bool:
        return any(
            isinstance(inner, ast.Call)
            and self.forwarding.forwarding_call(inner, self.aliases, UseKind.INPLACE)
            for inner in _own_nodes(node)
        )

    def guards(self, test: ast.expr) -> bool:
        return any(
            isinstance(inner, ast.Name) and inner.id in self.aliases for inner in ast.walk(test)
        )

    def judge(self, returned: ast.Return, covered: bool) -> None:
        if not covered:
            self.fine = False
            return
        value = returned.value
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Call)
            and any(k.arg == "out" for k in value.func.value.keywords)
            and value.func.attr in CONVERSIONS
            and not self.conversions_harmless()
        ):
            self.fine = False

    def match(self, statement: ast.Match, written: bool) -> None:
        for inner in _own_returns([statement]):
            self.judge(inner, written or self.writes(inner))

    def stopped(self) -> bool:
        return not self.fine


def _own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and the nodes below it outside nested functions, lambdas and classes."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(c for c in child_nodes(current) if not isinstance(c, SCOPES))


def _own_returns(body: Sequence[ast.stmt]) -> Iterator[ast.Return]:
    """The returns of a function body (not of the functions nested in it)."""
    for statement in body:
        for node in _own_nodes(statement):
            if isinstance(node, ast.Return):
                yield node


_AFTER_LOOP = " (after the loop above, when it runs zero times)"
"""The words for a return of a name a loop above writes ``out`` into (zero iterations)."""

_EMPTY_TEST = re.compile(
    r"(\.size|\.ndim|len\([^()]*\.shape\))\s*(==|<=|<)\s*[01]\b"
    r"|\.shape\s*==\s*\(\s*\)|^not\s+[\w.]+\.(size|ndim|shape)$"
)
"""Tests for empty or 0-d input: ``x.size == 0``, ``len(x.shape) == 0``, ``not x.ndim``."""

_EMPTY_TEST_INSIDE = re.compile(
    r"(\.size|\.ndim|len\([^()]*\.shape\))\s*(==|<=|<)\s*[01]\b|\.shape\s*==\s*\(\s*\)"
)
""":data:`_EMPTY_TEST` without its anchored alternative: what it finds in the code of a
test in parentheses of its own (which starts with ``(`` and ends with ``)``)."""


def _only_parentheses_around(lines: Lines, owner: ast.If) -> bool:
    """Whether libcst's code of an ``if``/``elif`` test in parentheses of its own is
    CPython's text of it with only parentheses, blanks and line breaks around: from the
    keyword to the test nothing but them (at least one ``(``), and from the test's end to
    the header's ``:`` nothing but closing parentheses and them (no comment, no
    backslash). Then the patterns above find in both texts alike (none can reach into a
    parenthesis or a blank around the test)."""
    test = owner.test
    start = lines.column(owner.lineno, owner.col_offset)
    head = lines.lines[owner.lineno - 1 : test.lineno]
    before = "".join(head)[start:]
    before = before[: len(before) - len(head[-1]) + lines.column(test.lineno, test.col_offset)]
    if not _OPENING.fullmatch(before):
        return False
    end_line = test.end_lineno or test.lineno
    rest = lines.lines[end_line - 1][lines.column(end_line, test.end_col_offset or 0) :]
    for following in lines.lines[end_line:]:
        if ":" in rest:
            break
        rest += following
    after, colon, _ = rest.partition(":")
    return bool(colon) and _CLOSING.fullmatch(after) is not None


_OPENING = re.compile(r"(?:el)?if[ \t\f]*\([ \t\f\r\n(]*")
_CLOSING = re.compile(r"[ \t\f\r\n]*\)[ \t\f\r\n)]*")


def _degenerate(function: cst.FunctionDef, returned: cst.Return) -> str:
    """When ``returned`` drops ``out`` only on degenerate input, the words for it."""
    code = cst.Module(body=[]).code_for_node
    if any(
        _position(test.body.body, returned) is not None and _EMPTY_TEST.search(code(test.test))
        for test in nodes_of(function.body, cst.If)
    ):
        return " (reached only on empty or 0-d input)"
    if any(_loop_then_return(b.body, returned) for b in nodes_of(function.body, cst.IndentedBlock)):
        return _AFTER_LOOP
    return ""


def _degenerate_on_ast(function: FunctionNode, returned: ast.Return, lines: Lines) -> str | None:
    """:func:`_degenerate` on CPython's tree, or ``None`` where the text leaves a doubt (a
    test in parentheses of its own with anything but blanks and parentheses around it, a
    continuation). libcst's ``_position`` finds the
    return only in an indented block, as a statement line of its own or with others."""
    owner, block, position = _place(function, returned)
    if isinstance(owner, ast.If) and block is owner.body:
        shape = indented(lines, block)
        parenthesized = test_parenthesized(lines, owner.test) if shape else False
        if shape is None:
            return None
        empty = _EMPTY_TEST
        if parenthesized is not False:
            if not _only_parentheses_around(lines, owner):
                return None
            empty = _EMPTY_TEST_INSIDE  # libcst's code starts with "(": `^not` never matches
        if shape and empty.search(text(lines, owner.test)):
            return " (reached only on empty or 0-d input)"
    value = returned.value
    if isinstance(value, ast.Name) and any(
        isinstance(loop, ast.For | ast.AsyncFor | ast.While)
        and _assigns_written_on_ast(loop, value.id)
        for loop in block[:position]
    ):
        return _AFTER_LOOP
    return ""


def _place(function: FunctionNode, returned: ast.Return) -> tuple[ast.AST, list[ast.stmt], int]:
    """The node whose statement list holds ``returned``, the list, and its index there."""
    for node in ast.walk(function):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                for index, statement in enumerate(block):
                    if statement is returned:
                        return node, block, index
    raise AssertionError("a return of the function is in one of its statement lists")


def _assigns_written_on_ast(loop: ast.For | ast.AsyncFor | ast.While, name: str) -> bool:
    """:func:`_assigns_written` on CPython's tree."""
    return any(
        isinstance(assign, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in assign.targets)
        and any(isinstance(k, ast.keyword) and k.arg == "out" for k in ast.walk(assign.value))
        for statement in loop.body
        for assign in ast.walk(statement)
    )


def _position(statements: Sequence[cst.CSTNode], returned: cst.Return) -> int | None:
    """Where ``returned`` stands among ``statements`` as a statement line of its own."""
    return next(
        (
            i
            for i, statement in enumerate(statements)
            if isinstance(statement, cst.SimpleStatementLine) and returned in statement.body
        ),
        None,
    )


def _loop_then_return(statements: Sequence[cst.BaseStatement], returned: cst.Return) -> bool:
    """``for ...: name = <call with out=...>`` followed in the same block by ``return name``."""
    position = _position(statements, returned)
    if position is None or not isinstance(returned.value, cst.Name):
        return False
    name = returned.value.value
    return any(
        isinstance(loop, cst.For | cst.While) and _assigns_written(loop, name)
        for loop in statements[:position]
    )


def _assigns_written(loop: cst.For | cst.While, name: str) -> bool:
    """Whether ``loop`` assigns ``name`` a value whose calls pass ``out=``."""
    return any(
        any(isinstance(t.target, cst.Name) and t.target.value == name for t in assign.targets)
        and any(
            arg.keyword is not None and arg.keyword.value == "out"
            for arg in nodes_of(assign.value, cst.Arg)
        )
        for assign in nodes_of(loop.body, cst.Assign)
    )


# Examples: each is a test (tests/rules/test_examples.py) and is shown by --explain.

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"
WRAPPER = "ivy/func_wrapper.py"
TORCH_GENERAL = "ivy/functional/backends/torch/general.py"

_WRAPPER_UPDATES_OUT = """
    def handle_out_argument(fn):
        def _wrapped(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            ret = fn(*args, out=to_native(out), **kwargs)
            inplace_update(out, ret)
            return out

        return _wrapped
    """
"""The project's wrapper: writes the native call's result into ``out`` afterwards."""

_UPDATE_COPIES = """
    def inplace_update(x, val, /):
        x_native = to_native(x)
        x_native[()] = to_native(val)
        return x
    """
"""The backend's update copies into ``out``'s buffer (keeping its dtype)."""

_UPDATE_REBINDS = """
    def inplace_update(x, val, /):
        x.data = to_native(val)
        return x
    """
"""The backend's update rebinds ``out`` to the value (its dtype and buffer)."""

_TORCH_EARLY_RETURN = """
    import torch


    def tan(x, *, dtype=None, out=None):
        if dtype is not None:
            return torch.tan(x).to(dtype)
        return torch.tan(x, out=out)


    tan.support_native_out = True
    """
"""A return path that drops ``out`` (the buffer is untouched there)."""


_TORCH_SOFTSIGN = """
    import torch


    def softsign(x, /, *, out=None):
        return torch.divide(x, 1 + torch.abs(x), out=out).to(x.dtype)


    softsign.support_native_out = True
    """
"""Writes ``out`` natively, then returns a conversion of the result."""

_SPLIT_EXPONENT = """
    import numpy as np


    def split_exponent(x, /, *, dtype=None, out: Optional[Tuple[np.ndarray, np.ndarray]] = None):
        if dtype is not None:
            return np.frexp(x.astype(dtype))
        return np.frexp(x, out=out)


    split_exponent.support_native_out = True
    """
"""A function with two results whose first return drops ``out``."""


OutPathDropped.VALID = (
    Example(
        _TORCH_SOFTSIGN,
        path=TORCH,
        files={WRAPPER: _WRAPPER_UPDATES_OUT, TORCH_GENERAL: _UPDATE_COPIES},
    ),
    Example(
        """
        import ivy
        import torch


        def cholesky(x, /, *, upper=False, out=None):
            if not upper:
                return torch.linalg.cholesky(x, out=out)
            ret = torch.transpose(torch.linalg.cholesky(torch.transpose(x, -1, -2)), -1, -2)
            if ivy.exists(out):
                return ivy.inplace_update(out, ret)
            return ret


        cholesky.support_native_out = True
        """,
        path=TORCH,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            if out is None:
                return np.tan(x)
            return np.tan(x, out=out)


        tan.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        from torch import tan as ttan


        def tan(x, *, dtype=None, out=None):
            return ttan(x, out=out).to(dtype)


        tan.support_native_out = True
        """,
        path=TORCH,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            ret = np.tan(x, out=out)
            return ret


        tan.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            if x.ndim > 3:
                raise ValueError(x.ndim)
            o = out
            p = o
            return np.tan(x, out=p)


        tan.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def _helper(x, out=None):
            return np.tan(x, out=out)


        def tan(x, /, *, out=None):
            if x.size == 0:
                return _helper(x, out=out)
            return _helper(x, out=out)


        tan.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def tan(x, *, dtype=None, out=None):
            if dtype is not None:
                return np.tan(x).astype(dtype)
            return np.tan(x, out=out)
        """,
        path=NP,
    ),
    Example(
        """
        import jax.numpy as jnp


        def tan(x, /, *, out=None):
            if x.size == 0:
                return x
            return jnp.tan(x)


        tan.support_native_out = True
        """,
        path=JAX,
    ),
    Example(
        """
        import numpy as np


        def clip(x, x_min=None, x_max=None, *, out=None):
            if x_min is None:
                ret = np.minimum(x, x_max, out=out)
            else:
                ret = np.clip(x, x_min, x_max, out=out)
            return ret


        clip.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def apply(x, /, *, out=None):
            def inner(y):
                return y + 1
            return np.tan(inner(x), out=out)


        apply.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            kw = {"out": out}
            if x.ndim == 0:
                return np.tan(x, **kw)
            return np.tan(x, **kw)


        tan.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        _TORCH_SOFTSIGN,
        path=TORCH,
        files=shapes.GATED_PROJECT,
    ),
    Example(
        _SPLIT_EXPONENT,
        path=NP,
        files=shapes.GATED_PROJECT,
    ),
)
_TORCH_ONE_BRANCH_WRITES = """
    import torch


    def diagonal_total(x, /, *, offset=0, out=None):
        if x.ndim < 2:
            total = torch.zeros(())
        else:
            total = torch.sum(torch.diagonal(x, offset), dim=-1, out=out)
        return total.to(dtype=x.dtype)


    diagonal_total.support_native_out = True
    """
"""One branch writes ``out`` natively, the other makes a new tensor; both reach the return."""


OutPathDropped.INVALID = (
    Example(
        _TORCH_ONE_BRANCH_WRITES,
        path=TORCH,
        files={shapes.WRAPPER: shapes.WRAPPER_REBINDS_DATA},
        message=(
            "`diagonal_total` has `support_native_out`, but this return is reached on some "
            "paths without writing `out` (another path to it writes `out`): on those paths "
            "the native buffer stays untouched and `out` silently changes dtype and buffer "
            "when the result's dtype differs; forward `out` here or end with "
            "`if ivy.exists(out): return ivy.inplace_update(out, ret)`"
        ),
        severity=Severity.ERROR,
        line=9,
        column=5,
    ),
    Example(
        _SPLIT_EXPONENT,
        path=NP,
        files={shapes.WRAPPER: shapes.WRAPPER_REBINDS_DATA},
        message="the native buffer stays untouched and `out` silently changes dtype and buffer",
        line=6,
        column=9,
    ),
    Example(
        """
        import numpy as np


        def softsign(x, /, *, out=None):
            return np.divide(x, 1 + np.abs(x), out=out).astype(x.dtype)


        softsign.support_native_out = True
        """,
        path=NP,
        message="hands back `.astype(...)` of the result, a new array",
        severity=Severity.ERROR,
        line=5,
        column=5,
    ),
    Example(
        """
        import numpy as np


        def tan(x, *, dtype=None, out=None):
            if dtype is not None:
                return np.tan(x).astype(dtype)
            return np.tan(x, out=out)


        tan.support_native_out = False
        """,
        path=NP,
        message="this return never writes `out`",
        line=6,
        column=9,
    ),
    Example(
        _TORCH_EARLY_RETURN,
        path=TORCH,
        files={WRAPPER: _WRAPPER_UPDATES_OUT, TORCH_GENERAL: _UPDATE_COPIES},
        message="the wrapper then copies the result into `out` (an extra allocation",
        severity=Severity.WARNING,
        category=Category.PERFORMANCE,
        line=6,
        column=9,
    ),
    Example(
        _TORCH_EARLY_RETURN,
        path=TORCH,
        files={WRAPPER: _WRAPPER_UPDATES_OUT, TORCH_GENERAL: _UPDATE_REBINDS},
        message="`out` silently changes dtype and buffer when the result's dtype differs",
        severity=Severity.ERROR,
        category=Category.CORRECTNESS,
        line=6,
        column=9,
    ),
    Example(
        """
        import numpy as np


        def var(x, /, *, axis=None, out=None):
            if x.size == 0:
                return np.var(x, axis=axis)
            return np.var(x, axis=axis, out=out)


        var.support_native_out = True
        """,
        path=NP,
        message="(reached only on empty or 0-d input)",
        severity=Severity.WARNING,
        line=6,
        column=9,
    ),
    Example(
        """
        import ivy
        import torch


        def cumsum(x, axis=0, exclusive=False, reverse=False, *, dtype=None, out=None):
            if exclusive or reverse:
                res = torch.cumsum(torch.flip(x, (axis,)), axis)
                return torch.flip(res, (axis,))
            return torch.cumsum(x, axis, dtype=dtype, out=out)


        cumsum.support_native_out = True
        """,
        path=TORCH,
        message="the wrapper then copies the result into `out`",
        line=8,
        column=9,
    ),
    Example(
        """
        import numpy as np


        def tan(x, *, dtype=None, out=None):
            if dtype is not None:
                return np.tan(x).astype(dtype)
            return np.tan(x, out=out)


        tan.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            try:
                return np.tan(x, out=out)
            except TypeError:
                return np.tan(x)


        tan.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            if x.ndim:
                ret = np.tan(x, out=out)
            else:
                ret = np.tan(x)
            return ret


        tan.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import ivy
        import torch


        def sum(x, axes, *, out=None):
            for axis in axes:
                if x.shape[axis] == 0:
                    return x
            return torch.sum(x, dim=axes, out=out)


        sum.support_native_out = True
        """,
        path=TORCH,
        message="`sum` has `support_native_out`, but this return never writes `out`",
        line=8,
        column=13,
    ),
    Example(
        """
        from torch import tan as ttan


        def tan(x, *, out=None):
            o = out
            if x.numel() == 0:
                return x
            return ttan(x, out=o)


        setattr(tan, "support_native_out", True)
        """,
        path=TORCH,
    ),
    Example(
        """
        import numpy as np


        def tan(x, *, out=None):
            return np.tan(x, out=out)


        def sin(x, *, out=None):
            if x.size == 0:
                return np.sin(x)
            return np.sin(x, out=out)


        for fn in (tan, sin):
            fn.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def var(x, /, *, axis=None, out=None):
            if x.size == 0:
                return np.asarray(float("nan"))
            return np.var(x, axis=axis, out=out)


        var.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import torch


        def all(x, /, *, axis=(), out=None):
            for a in axis:
                x = torch.all(x, dim=a, out=out)
            return x


        all.support_native_out = True
        """,
        path=TORCH,
        message="(after the loop above, when it runs zero times)",
        line=7,
        column=5,
    ),
    Example(
        _TORCH_SOFTSIGN,
        path=TORCH,
        files={**shapes.GATED_PROJECT, WRAPPER: shapes.WRAPPER_REBINDS_DATA},
        message=(
            "a new array that the wrapper then writes into `out`: `out` silently changes dtype "
            "and buffer when the result's dtype differs"
        ),
        severity=Severity.ERROR,
    ),
    Example(
        _TORCH_SOFTSIGN,
        path=TORCH,
        files={**shapes.GATED_PROJECT, shapes.TORCH_GENERAL: shapes.UPDATE_UNREAD},
        message="hands back `.to(...)` of the result, a new array; return the native result",
    ),
)
