"""Where a file sets ``support_native_out``, on CPython's tree, exactly as libcst finds it.

:func:`ivycheck.rules._support_native_out.attribute_sites` reads libcst's tree: a
module-level ``fn.support_native_out = value``, ``setattr(fn, "support_native_out",
value)`` or loop over a literal tuple, list or set of functions setting it on its
variable, also inside module-level ``if``/``try`` blocks written as indented blocks. A
rule deciding on CPython's tree (IVY002, IVY003) must find the same sites, report them
where libcst would and offer a fix where :meth:`AttributeSite.removal` would:
:func:`sites_on_ast` gives them, or ``None`` where the text leaves a doubt CPython's tree
cannot settle (a string literal spelled unusually, a loop element in a comment's reach,
a backslash continuation), so that the rule leaves the file to libcst.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ivycheck.rules._ast_facts import attribute_target_names
from ivycheck.rules._ast_layout import element_unparenthesized, indented, statement_lines, text
from ivycheck.rules._ast_source import Lines

_ZEROS = frozenset({"0", "0x0", "0b0", "0o0"})
"""The integer spellings ``AttributeSite.is_falsy_literal`` reads as zero."""


class _Undecided(Exception):
    """The text leaves a doubt about a site: the caller answers ``None``."""


@dataclass(frozen=True)
class AstSite:
    """One ``AttributeSite``: the function it names, the value set, where libcst reports
    it (the loop's element, else the assignment or ``setattr`` call) and whether
    :meth:`AttributeSite.removal` can remove it (a fix is offered)."""

    function: str
    value: ast.expr
    line: int
    column: int
    end_line: int
    end_column: int
    falsy: bool
    """``AttributeSite.is_falsy_literal``: ``False``, ``None`` or an integer zero."""
    removable: bool


def sites_on_ast(tree: ast.Module, lines: Lines, attribute: str) -> list[AstSite] | None:
    """Every site setting ``attribute`` at module level, in source order (libcst's), or
    ``None`` where the text leaves a doubt."""
    found: list[AstSite] = []
    try:
        for statement in _module_statements(tree.body, lines):
            if (
                isinstance(statement, ast.For)
                and isinstance(statement.target, ast.Name)
                and isinstance(statement.iter, ast.Tuple | ast.List | ast.Set)
            ):
                found.extend(_loop_sites(statement, lines, attribute))
            else:
                for name, value in _sets(statement, lines, attribute):
                    removable = not (
                        isinstance(statement, ast.Assign) and len(statement.targets) > 1
                    )
                    found.append(_site(name, value, statement, lines, removable))
    except _Undecided:
        return None
    return found


def sites_by_function(
    tree: ast.Module, lines: Lines, attribute: str
) -> dict[str, list[AstSite]] | None:
    """:func:`sites_on_ast` by the function each names, the functions in the order of
    their first site and each one's sites in source order (libcst's, so that findings come
    in its order), or ``None`` where the text leaves a doubt."""
    found = sites_on_ast(tree, lines, attribute)
    if found is None:
        return None
    by_function: dict[str, list[AstSite]] = {}
    for site in found:
        by_function.setdefault(site.function, []).append(site)
    return by_function


def _module_statements(body: Sequence[ast.stmt], lines: Lines) -> Iterator[ast.stmt]:
    """``_support_native_out._module_statements``: the statements of ``body`` and of the
    indented blocks of its ``if`` (every branch) and ``try`` (the body and handlers)."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.If):
            blocks = [statement.body, statement.orelse]
        elif isinstance(statement, ast.Try):
            blocks = [statement.body, *(handler.body for handler in statement.handlers)]
        else:
            continue
        for block in blocks:
            if block and _indented(lines, block):
                yield from _module_statements(block, lines)


def _indented(lines: Lines, block: Sequence[ast.stmt]) -> bool:
    shape = indented(lines, block)
    if shape is None:
        raise _Undecided
    return shape


def _sets(statement: ast.stmt, lines: Lines, attribute: str) -> Iterator[tuple[str, ast.expr]]:
    """``_support_native_out._small_sets``: (function, value) for each ``attribute`` a
    simple statement sets."""
    if isinstance(statement, ast.Assign):
        for function in attribute_target_names(statement, attribute):
            yield function, statement.value
    elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        if not (isinstance(call.func, ast.Name) and call.func.id == "setattr"):
            return
        if (
            len(call.args) != 3
            or call.keywords
            or any(isinstance(a, ast.Starred) for a in call.args)
        ):
            return
        target, name, value = call.args
        if not isinstance(target, ast.Name) or not isinstance(name, ast.Constant):
            return
        if name.value != attribute:
            return  # libcst's evaluated value differs too (a concatenation of other text)
        if text(lines, name) not in (f'"{attribute}"', f"'{attribute}'"):
            raise _Undecided  # concatenated, prefixed, escaped: libcst's string kind differs
        yield target.id, value


def _loop_sites(loop: ast.For, lines: Lines, attribute: str) -> Iterator[AstSite]:
    """The sites of ``for fn in (a, b): fn.attribute = value``: one per plain name in the
    container, for each statement of the (indented) body setting it on ``fn``."""
    if not _indented(lines, loop.body):
        return  # `for fn in (a, b): ...` on one line: libcst's suite holds no statement line
    container = loop.iter
    assert isinstance(container, ast.Tuple | ast.List | ast.Set)
    variable = loop.target.id if isinstance(loop.target, ast.Name) else None
    for inner in loop.body:
        if not isinstance(inner, ast.Assign | ast.Expr):
            continue
        for name, value in _sets(inner, lines, attribute):
            if name != variable:
                continue
            for element in container.elts:
                if isinstance(element, ast.Name):
                    if not element_unparenthesized(lines, container, element):
                        raise _Undecided
                    removable = _element_removable(loop, container, lines)
                    yield _site(element.id, value, element, lines, removable)


def _element_removable(
    loop: ast.For, container: ast.Tuple | ast.List | ast.Set, lines: Lines
) -> bool:
    """``AttributeSite.removal`` for a loop's element: not from a set; the whole loop when
    the element is the only one; else only when the body is one statement line."""
    if isinstance(container, ast.Set):
        return False
    if len(container.elts) == 1:
        return True
    count = statement_lines(lines, loop.body)
    if count is None:
        raise _Undecided
    return count == 1


def _site(
    name: str, value: ast.expr, reported: ast.expr | ast.stmt, lines: Lines, removable: bool
) -> AstSite:
    end_line = reported.end_lineno or reported.lineno
    return AstSite(
        name,
        value,
        reported.lineno,
        lines.column(reported.lineno, reported.col_offset),
        end_line,
        lines.column(end_line, reported.end_col_offset or 0),
        _falsy(value, lines),
        removable,
    )


def _falsy(value: ast.expr, lines: Lines) -> bool:
    """``AttributeSite.is_falsy_literal``: libcst reads ``False``/``None`` as names and an
    integer by its spelling."""
    if not isinstance(value, ast.Constant):
        return False
    if value.value is False or value.value is None:
        return True
    if isinstance(value.value, int) and not isinstance(value.value, bool) and value.value == 0:
        return text(lines, value) in _ZEROS
    return False
