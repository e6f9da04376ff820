"""Where the functional-API rules (IVY006, IVY010, IVY011, IVY016) report, and what they ask
of a body, on CPython's tree.

* a function's name (:func:`name_span`) and a parameter's name (:func:`arg_span`): CPython
  has no node for the first (it is read from the text after ``def``), and its ``arg``
  starts with the name;
* whether a body reads ``out`` (:func:`reads_out`): every name ``out`` that is not a
  keyword, an attribute, a parameter or the value of a backend call's ``out=out``, and the
  names CPython keeps as plain strings that bind ``out`` in the body (``global out``,
  ``import out``, ``except E as out``, ``def out``...), which findings have always counted
  as reads.

A decorator's span (from its ``@``) is :func:`ivycheck.rules._ast_spans.decorator_span`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ivycheck.rules._ast_calls import backend_call
from ivycheck.rules._ast_facts import FunctionNode, facts
from ivycheck.rules._ast_source import Lines

Span = tuple[int, int, int, int]
"""(line, 0-based code-point column, end line, end column), as ``Finding`` takes them."""

OUT = "out"

_BLANK = " \t\f"


def name_span(lines: Lines, function: FunctionNode) -> Span:
    """The span of a function's name, which CPython's tree does not place: after ``def``
    (and ``async``), past the blanks and line continuations that follow each keyword (no
    comment can stand there)."""
    line, column = function.lineno, lines.column(function.lineno, function.col_offset)
    if isinstance(function, ast.AsyncFunctionDef):
        line, column = _past_blanks(lines, line, column + len("async"))
    line, column = _past_blanks(lines, line, column + len("def"))
    return line, column, line, column + len(function.name)


def _past_blanks(lines: Lines, line: int, column: int) -> tuple[int, int]:
    """The first position from (``line``, ``column``) that is neither a blank nor a line
    continuation."""
    while True:
        text = lines.lines[line - 1]
        while column < len(text) and text[column] in _BLANK:
            column += 1
        if not text.startswith("\\", column) or text[column + 1 :].strip("\r\n"):
            return line, column
        line, column = line + 1, 0


def arg_span(lines: Lines, arg: ast.arg) -> Span:
    """The span of a parameter's name: CPython's ``arg`` starts with it."""
    start = lines.column(arg.lineno, arg.col_offset)
    return arg.lineno, start, arg.lineno, start + len(arg.arg)


def reads_out_of(tree: ast.Module, function: FunctionNode) -> tuple[bool, frozenset[str]]:
    """:func:`reads_out` of a top-level function of ``tree``, kept with its statement
    (``TreeFacts.of_statement``): IVY010 and IVY016 ask it of every API function with
    ``out``, on every keystroke."""
    return facts(tree).of_statement(function, "reads out", _reads_out_kept)


def _reads_out_kept(function: ast.stmt) -> tuple[bool, frozenset[str]]:
    assert isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
    used, forwarded = reads_out(function)
    return used, frozenset(forwarded)


def reads_out(function: FunctionNode) -> tuple[bool, set[str]]:
    """(the body reads ``out``, backend functions it hands ``out=out`` to).

    A read is an ``ast.Name`` ``out`` other than the value of a backend call's
    ``out=out``, or ``out`` where CPython keeps a string (:func:`_string_names`): such a
    name binds ``out`` in the body, which the rules have always taken as the body using
    it. Keywords, attributes and parameters are no reads."""
    forwarded: set[str] = set()
    not_reads: set[int] = set()
    used = False
    strings = False
    for statement in function.body:
        for node in ast.walk(statement):  # a call comes before its arguments
            if isinstance(node, ast.Call):
                name = backend_call(node)
                if name is None:
                    continue
                for k in node.keywords:
                    if k.arg == OUT and isinstance(k.value, ast.Name) and k.value.id == OUT:
                        not_reads.add(id(k.value))
                        forwarded.add(name)
            elif isinstance(node, ast.Name):
                if node.id == OUT and id(node) not in not_reads:
                    used = True
            elif not strings and OUT in _string_names(node):
                strings = True
    return used or strings, forwarded


def _string_names(node: ast.AST) -> Iterator[str]:
    """The names CPython's tree keeps as strings that :func:`reads_out` counts as reads
    (not a keyword of a call, an attribute or a parameter): ``global``/``nonlocal``
    names, the first part of an imported module's dotted name (``import out.x``, ``from
    out import x``; ``import x.out`` names an attribute), imported names and ``as`` names,
    ``except ... as`` names, the name of a nested ``def`` or ``class``, a class's
    keywords, and the names a ``match`` pattern binds or matches as keywords."""
    if isinstance(node, ast.Global | ast.Nonlocal):
        yield from node.names
    elif isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name.split(".", 1)[0]
            if alias.asname is not None:
                yield alias.asname
    elif isinstance(node, ast.ImportFrom):
        if node.module is not None:
            yield node.module.split(".", 1)[0]
        for alias in node.names:
            yield alias.name
            if alias.asname is not None:
                yield alias.asname
    elif isinstance(node, ast.ExceptHandler):
        if node.name is not None:
            yield node.name
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        yield node.name
    elif isinstance(node, ast.ClassDef):
        yield node.name
        yield from (k.arg for k in node.keywords if k.arg is not None)
    elif isinstance(node, ast.MatchAs | ast.MatchStar):
        if node.name is not None:
            yield node.name
    elif isinstance(node, ast.MatchMapping):
        if node.rest is not None:
            yield node.rest
    elif isinstance(node, ast.MatchClass):
        yield from node.kwd_attrs
