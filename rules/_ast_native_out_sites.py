"""Where a file sets ``support_native_out`` on its functions, on CPython's tree.

Ivy's wrapper (``handle_out_argument``) hands a backend function the native ``out`` buffer
only when the function carries this attribute, and tests its presence, not its value. The
attribute is set at module level: ``fn.support_native_out = True``, ``setattr(fn,
"support_native_out", True)``, or a loop over a literal tuple, list or set of functions
setting it on the loop's variable; such a line may stand in a module-level ``if`` (any
branch) or ``try`` (its body and handlers). :func:`native_out_sites` finds exactly those
(IVY001: the attribute is there; IVY015: it is set falsy).

A site counts only as a line of its own in a block: a one-line body (``if c: fn.attr =
False``, ``for f in fs: f.attr = True``) is not read, as the attribute sites never were.
"""

from __future__ import annotations

import ast
import re
import weakref
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from ivycheck.rules._ast_out_analysis import plain_string
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._vocabulary import ATTRIBUTE

_FALSY_INTEGERS = frozenset({"0", "0x0", "0b0", "0o0"})
"""The spellings of zero read as a falsy literal (Ivy's test still reads them as set)."""

_AFTER_LINE = re.compile(r"[ \t]*;?[ \t]*(#[^\r\n]*)?")
"""What may follow the last statement of a line: a ``;``, blanks, a comment."""


class NativeOutSite(NamedTuple):
    """One place that sets ``support_native_out`` on a module-level function (a named
    tuple: made for every setting of a module of thousands, where a frozen dataclass's
    construction was a sixth of the reading)."""

    function: str
    value: ast.expr
    small: ast.Assign | ast.Expr
    """The assignment or ``setattr`` statement."""
    line: tuple[ast.stmt, ...]
    """The statements sharing ``small``'s line (``a = 1; fn.attr = x``), in order."""
    loop: ast.For | None = None
    """The loop setting the attribute on its variable (the loop form only)."""
    falsy: bool = False
    """:func:`is_falsy_literal` of ``value``: read with the site, where IVY002, IVY003 and
    IVY015 each asked it of every site."""


_SITES: weakref.WeakKeyDictionary[ast.Module, tuple[NativeOutSite, ...]] = (
    weakref.WeakKeyDictionary()
)
"""A tree's sites, read once: IVY001, IVY002 and IVY015 each ask, and IVY001's fix asks
again for every function it fixes (a file of thousands of findings read its module once
per fix, quadratic in the file). A tree is its file's text parsed and never changed."""


def native_out_sites(tree: ast.Module, lines: Lines) -> tuple[NativeOutSite, ...]:
    """Every ``support_native_out`` setting at module level, in source order (a loop
    gives one site per function it names); ``lines`` must be ``tree``'s text."""
    known = _SITES.get(tree)
    if known is None:
        known = _SITES[tree] = tuple(_read_sites(tree, lines))
    return known


def _read_sites(tree: ast.Module, lines: Lines) -> list[NativeOutSite]:
    found: list[NativeOutSite] = []
    _block_sites(tree.body, lines, found)
    return found


def _block_sites(body: Sequence[ast.stmt], lines: Lines, found: list[NativeOutSite]) -> None:
    """The sites of a module-level block (its statements that are lines of their own),
    then those of its ``if`` and ``try`` blocks, each after its statement, into ``found``.
    A statement's neighbours on its line are gathered only for a statement that sets the
    attribute (a module of thousands of statements has as many lines, and few sites)."""
    if not body or _after_colon(body[0], lines):
        return
    for position, statement in enumerate(body):
        if isinstance(statement, ast.Assign | ast.Expr):  # what :func:`_sets` reads
            for name, value, small in _sets(statement, lines):
                line = _line_at(body, position)
                falsy = is_falsy_literal(value, lines)
                found.append(NativeOutSite(name, value, small, line, None, falsy))
        elif isinstance(statement, ast.For):
            found.extend(_loop_sites(statement, lines))
        elif isinstance(statement, ast.If):
            _block_sites(statement.body, lines, found)
            _block_sites(statement.orelse, lines, found)
        elif isinstance(statement, ast.Try):
            _block_sites(statement.body, lines, found)
            for handler in statement.handlers:
                _block_sites(handler.body, lines, found)


def _line_at(body: Sequence[ast.stmt], position: int) -> tuple[ast.stmt, ...]:
    """The statements of ``body`` sharing ``body[position]``'s line (``a = 1; b = 2``),
    in order."""
    first = last = position
    while first and body[first - 1].end_lineno == body[first].lineno:  # ``before; this``
        first -= 1
    while last + 1 < len(body) and body[last].end_lineno == body[last + 1].lineno:
        last += 1
    return tuple(body[first : last + 1])


def is_falsy_literal(value: ast.expr, lines: Lines) -> bool:
    """``False``, ``None`` or ``0`` spelled plainly (``0``, ``0x0``, ``0b0``, ``0o0``)."""
    if not isinstance(value, ast.Constant):
        return False
    if value.value is None or value.value is False:
        return True
    return type(value.value) is int and lines.segment(value) in _FALSY_INTEGERS


def trailing_comment(site: NativeOutSite, lines: Lines) -> str | None:
    """The comment ending the line of a site's statement (``# type: ignore``), if any."""
    last = site.line[-1]
    if last.end_lineno is None or last.end_col_offset is None:
        return None
    text = lines.lines[last.end_lineno - 1]
    rest = text[lines.column(last.end_lineno, last.end_col_offset) :]
    found = _AFTER_LINE.match(rest)
    return found.group(1) if found is not None else None


_COMMENTS: weakref.WeakKeyDictionary[ast.Module, str] = weakref.WeakKeyDictionary()


_IGNORE = "type: ignore"


def type_ignore_comment(tree: ast.Module, lines: Lines) -> str:
    """The trailing comment the file already puts on its attribute lines (``# type:
    ignore``), as the first function's first such line has it; read once per tree (IVY001's
    fix asks for every function it fixes), and not at all in a text without the words (no
    comment of it can hold them)."""
    known = _COMMENTS.get(tree)
    if known is None:
        sites = native_out_sites(tree, lines) if _IGNORE in lines.source else ()
        known = _COMMENTS[tree] = _type_ignore_comment(sites, lines)
    return known


def _type_ignore_comment(sites: Sequence[NativeOutSite], lines: Lines) -> str:
    by_function: dict[str, list[NativeOutSite]] = {}
    for site in sites:
        by_function.setdefault(site.function, []).append(site)
    for each in by_function.values():
        for site in each:
            comment = trailing_comment(site, lines) if site.loop is None else None
            if comment is not None and _IGNORE in comment:
                return f"  {comment}"
    return ""


def _after_colon(statement: ast.stmt, lines: Lines) -> bool:
    """Whether code stands before ``statement`` on its line (a one-line body)."""
    text = lines.lines[statement.lineno - 1]
    return bool(text[: lines.column(statement.lineno, statement.col_offset)].strip(" \t\f"))


def _sets(
    statement: ast.stmt, lines: Lines
) -> Iterator[tuple[str, ast.expr, ast.Assign | ast.Expr]]:
    """(function, value, statement) for each ``support_native_out`` a statement sets."""
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            if (
                isinstance(target, ast.Attribute)
                and target.attr == ATTRIBUTE
                and isinstance(target.value, ast.Name)
            ):
                yield target.value.id, statement.value, statement
    elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        if not (isinstance(call.func, ast.Name) and call.func.id == "setattr"):
            return
        if call.keywords or len(call.args) != 3:
            return
        target, attribute, value = call.args
        if not isinstance(target, ast.Name) or isinstance(value, ast.Starred):
            return
        if plain_string(attribute, lines) == ATTRIBUTE:
            yield target.id, value, statement


def _loop_sites(loop: ast.For, lines: Lines) -> Iterator[NativeOutSite]:
    """``for fn in (a, b): fn.support_native_out = v`` (the setting a line of the loop's
    block): one site per name of the literal tuple, list or set."""
    if not (
        isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Tuple | ast.List | ast.Set)
    ):
        return
    variable = loop.target.id
    names = [e.id for e in loop.iter.elts if isinstance(e, ast.Name)]
    body = loop.body
    if _after_colon(body[0], lines):
        return  # a one-line body: not read
    for position, statement in enumerate(body):
        for name, value, small in _sets(statement, lines):
            if name == variable:
                line = _line_at(body, position)
                falsy = is_falsy_literal(value, lines)
                yield from (NativeOutSite(n, value, small, line, loop, falsy) for n in names)
