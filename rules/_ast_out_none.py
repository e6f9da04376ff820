"""IVY004's two facts about a backend function: whether ``out`` is known to be ``None``
where a native call is given it, and whether the function carries ``support_native_out``.

A native function that declares ``out`` accepts ``out=None``, so IVY004 reports the call
only when the value can be an array. It is known to be ``None`` when it is the literal,
a name last bound to ``None`` on the straight-line path before the call, or the function's
own ``out`` when its API function is wrapped by ``handle_out_argument`` and the function
does not carry the attribute (that wrapper then never passes ``out`` on). The reading is
deliberately narrow and stays as reviewed on the corpora: ``name = None`` counts only on
a line of its own, a statement sharing its line (``a; out = None``) only for whether it
binds the name, a comprehension's variable and a definition's name bind nothing, and the
blocks of ``match`` cases and ``except*`` handlers are not entered.
"""

from __future__ import annotations

import ast
import bisect
import io
import threading
import tokenize
import weakref
from collections.abc import Iterator, Sequence

from ivycheck.checker.rule_api import FileUnderCheck
from ivycheck.rules._ast_facts import FunctionNode, Scope, attribute_target_names
from ivycheck.rules._ast_layout import text
from ivycheck.rules._ast_logical_lines import alone_on_its_line, indented
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._vocabulary import ATTRIBUTE, OUT, OutWrapping, out_wrapping

PARAMETER, NONE, OTHER = "parameter", "none", "other"
"""What a name holds before a statement: the value it came in with, ``None``, or unknown."""


def known_none(
    value: ast.expr,
    call: ast.Call,
    enclosing: Scope,
    file: FileUnderCheck,
    lines: Lines,
    tree: ast.Module,
    attributed: frozenset[str],
) -> bool:
    """Whether ``value``, an argument of ``call``, is ``None`` whenever the call runs
    (``attributed``: the functions carrying ``support_native_out``)."""
    if isinstance(value, ast.Constant) and value.value is None:
        return True
    if not isinstance(value, ast.Name) or not enclosing:
        return False
    bound = _binding_before(enclosing[-1].body, call, value.id, PARAMETER, lines, tree)
    if bound == NONE:
        return True
    if bound != PARAMETER or value.id != OUT or len(enclosing) != 1:
        return False
    name = enclosing[0].name
    return name not in attributed and out_wrapping(file.index, name) is OutWrapping.WRAPPED


def attributed_functions(tree: ast.Module, lines: Lines) -> frozenset[str]:
    """The functions a module-level statement gives ``support_native_out``: by
    ``fn.support_native_out = value`` (not in a tuple target), by ``setattr(fn,
    "support_native_out", value)`` (three positional arguments, the name one string
    literal, not a concatenation) or by a loop over a literal tuple, list or set of names
    setting it on its variable; in module-level ``if`` blocks (every branch) and ``try``
    blocks (the body and handlers) too, where the block is indented (a block on its
    header's line is not read)."""
    found: set[str] = set()
    for statement in _module_statements(tree.body, lines, tree):
        if (
            isinstance(statement, ast.For)
            and isinstance(statement.target, ast.Name)
            and isinstance(statement.iter, ast.Tuple | ast.List | ast.Set)
        ):
            if not indented(lines, tree, statement.body):
                continue
            variable = statement.target.id
            names = [e.id for e in statement.iter.elts if isinstance(e, ast.Name)]
            for inner in statement.body:
                if any(name == variable for name in _sets(inner, lines)):
                    found.update(names)
        else:
            found.update(_sets(statement, lines))
    return frozenset(found)


def _module_statements(
    body: Sequence[ast.stmt], lines: Lines, tree: ast.Module
) -> Iterator[ast.stmt]:
    for statement in body:
        yield statement
        if isinstance(statement, ast.If):
            blocks = [statement.body, statement.orelse]
        elif isinstance(statement, ast.Try):
            blocks = [statement.body, *(handler.body for handler in statement.handlers)]
        else:
            continue
        for block in blocks:
            if block and indented(lines, tree, block):
                yield from _module_statements(block, lines, tree)


def _sets(statement: ast.stmt, lines: Lines) -> Iterator[str]:
    """The function each ``support_native_out`` a simple statement sets names."""
    if isinstance(statement, ast.Assign):
        yield from attribute_target_names(statement, ATTRIBUTE)
    elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        if not (isinstance(call.func, ast.Name) and call.func.id == "setattr"):
            return
        if len(call.args) != 3 or call.keywords:
            return
        target, name, _ = call.args
        if any(isinstance(a, ast.Starred) for a in call.args) or not isinstance(target, ast.Name):
            return
        if isinstance(name, ast.Constant) and name.value == ATTRIBUTE and _one_literal(name, lines):
            yield target.id


def _one_literal(constant: ast.Constant, lines: Lines) -> bool:
    """Whether the string ``constant`` is written as one literal (prefixes and escapes
    allowed), not as adjacent literals joined by the parser."""
    written = text(lines, constant)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(f"({written})").readline))
    except (tokenize.TokenError, SyntaxError):
        return False
    return sum(token.type == tokenize.STRING for token in tokens) == 1


def _binding_before(
    statements: Sequence[ast.stmt],
    call: ast.Call,
    name: str,
    state: str,
    lines: Lines,
    tree: ast.Module,
) -> str:
    """What ``name`` holds when ``call`` runs, following the straight-line statements of the
    block that leads to it (a branch entered on the way inherits the state before it)."""
    with _LOCK:
        memo = _STATES.setdefault(tree, {})
    starts, states = memo.setdefault((id(statements), name, state), ([], [state]))
    if not starts:
        starts.extend(_first(statement) for statement in statements)
    index = bisect.bisect_right(starts, (call.lineno, call.col_offset)) - 1
    if index < 0 or not _holds(statements[index], call):
        return OTHER  # the call is in no statement of the block (a header, a default)
    while len(states) <= index:
        at = len(states) - 1
        previous = statements[at - 1] if at else None
        states.append(_after(statements[at], previous, name, states[at], lines, tree))
    blocks = [block for block in _blocks(statements[index]) if _holds_any(block, call)]
    if not blocks:
        return states[index]
    return _binding_before(blocks[0], call, name, states[index], lines, tree)


_STATES: weakref.WeakKeyDictionary[
    ast.Module, dict[tuple[int, str, str], tuple[list[tuple[int, int]], list[str]]]
] = weakref.WeakKeyDictionary()
"""Per tree, per block (its statement list), name and state on entry: where each statement
starts, and the state before each statement as far as a call has needed it. Every call in
a block reads the same prefix, so a function with many calls is read once, not once per
call."""
_LOCK = threading.Lock()


def _blocks(statement: ast.stmt) -> list[list[ast.stmt]]:
    """The blocks a search for the call enters, in order: a compound statement's bodies,
    ``else``/``elif``/``finally`` and ``except`` handlers."""
    if isinstance(statement, ast.If | ast.For | ast.AsyncFor | ast.While):
        return [statement.body, statement.orelse]
    if isinstance(statement, ast.With | ast.AsyncWith):
        return [statement.body]
    if isinstance(statement, FunctionNode | ast.ClassDef):
        return [statement.body]
    if isinstance(statement, ast.Try):
        handlers = [handler.body for handler in statement.handlers]
        return [statement.body, *handlers, statement.orelse, statement.finalbody]
    if isinstance(statement, ast.TryStar):
        return [statement.body, statement.orelse, statement.finalbody]
    return []


def _after(
    statement: ast.stmt,
    previous: ast.stmt | None,
    name: str,
    state: str,
    lines: Lines,
    tree: ast.Module,
) -> str:
    """The state of ``name`` after ``statement``: ``None`` only after ``name = None`` on a
    line of its own."""
    if (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and statement.targets[0].id == name
    ):
        if not (isinstance(statement.value, ast.Constant) and statement.value.value is None):
            return OTHER
        return NONE if alone_on_its_line(lines, tree, statement, previous) else OTHER
    return OTHER if _binds(statement, name) else state


def _binds(statement: ast.stmt, name: str) -> bool:
    """Whether ``statement`` may bind ``name``: ``name`` among the identifiers (names,
    attribute names, keyword names, lambda parameters) of an assignment target, a loop's
    target, a walrus's target, or an ``as`` name (import, ``with``, ``except``), anywhere
    in the statement."""
    for node in ast.walk(statement):
        if isinstance(node, ast.alias | ast.ExceptHandler):
            if (node.asname if isinstance(node, ast.alias) else node.name) == name:
                return True
            continue
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, _TARGETED):
            targets = [node.target]
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets = [node.optional_vars]
        if any(name in _identifiers(target) for target in targets):
            return True
    return False


_TARGETED = (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr)
"""Nodes whose ``target`` binds."""


def _identifiers(expression: ast.expr) -> set[str]:
    """The identifiers written within an expression (names, attribute names, keyword
    names, a lambda's parameters)."""
    found: set[str] = set()
    for node in ast.walk(expression):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.keyword | ast.arg) and node.arg is not None:
            found.add(node.arg)
    return found


def _first(statement: ast.stmt) -> tuple[int, int]:
    """Where ``statement``'s text starts: a definition's decorators come before its ``def``."""
    decorators = getattr(statement, "decorator_list", ())
    return min([(statement.lineno, statement.col_offset), *((d.lineno, 0) for d in decorators)])


def _holds(statement: ast.stmt, call: ast.Call) -> bool:
    """Whether ``call`` is within ``statement``, by position: a node's text lies within its
    parent's."""
    last = (statement.end_lineno or statement.lineno, statement.end_col_offset or 0)
    end = (call.end_lineno or call.lineno, call.end_col_offset or 0)
    return _first(statement) <= (call.lineno, call.col_offset) and end <= last


def _holds_any(block: Sequence[ast.stmt], call: ast.Call) -> bool:
    return any(_holds(statement, call) for statement in block)
