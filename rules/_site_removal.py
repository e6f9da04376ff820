"""Where a ``support_native_out`` site is shown, and how a fix removes it (IVY002).

A block's body written on its header's logical line (``if c: \\`` then the setting on the
next physical line) is a one-line body, which never held a site (as one on the header's
own physical line does not): :func:`on_header_line` tells it.

A site (:func:`~ivycheck.rules._ast_native_out_sites.native_out_sites`) is shown at the
loop's element naming the function (``for fn in (sin, tan)``: ``tan``, with parentheses
of its own), else at the assignment or ``setattr`` call (without a ``;`` after it): the
spans findings have always had, which reports and baselines were made with.

Removing it takes the statement away (only its part of a ``;`` line), or the loop's
element (the whole loop when it names no other). It is offered only where that removes
this one setting and nothing else: not from an assignment with several targets
(``tan.support_native_out = sin.other = True``), a set (no order to keep), or a loop
whose body does more than one line. The text is rendered with libcst over the
statement and its neighbours only (:func:`~ivycheck.checker.core.fix_render.replace_node`),
or, for a setting alone on its lines after another top-level statement (Ivy's usual
``tan.support_native_out = True`` after ``def tan``), cut as the whole lines libcst's
removal takes (:func:`_taken_lines`), without a parse.
"""

from __future__ import annotations

import ast
import io
import itertools
import re
import tokenize
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ivycheck.rules._ast_logical_lines import continued
from ivycheck.rules._ast_native_out_sites import NativeOutSite
from ivycheck.rules._ast_source import Lines, node_span
from ivycheck.rules._ast_spans import written

if TYPE_CHECKING:
    import libcst as cst

    from ivycheck.checker.rule_api import Edit

Span = tuple[int, int, int, int]
"""(line, 0-based code-point column, end line, end column), as ``Finding`` takes them."""

FixData = tuple[int, int, int | str, bool]
"""What a removal needs: the site's position; its index among the loop's elements, or its
statement's text (or index) among those of its line, which libcst reads as the logical
line (a backslash carries it over physical lines); and whether it is in a loop."""


def on_header_line(tree: ast.Module, lines: Lines, site: NativeOutSite) -> bool:
    """Whether the site's line is a module-level block's body continued from its header
    (``if c: \\``, ``for fn in (a, b): \\``): the first line of the block, after a line
    ending with a continuation."""
    first = site.line[0]
    if not continued(lines, tree, first.lineno - 1):
        return False
    blocks: list[ast.stmt] = list(tree.body)
    while blocks:
        block = blocks.pop()
        for body in _bodies(block):
            if body and body[0] is first:
                return True
            blocks.extend(body)
    return False


def _bodies(statement: ast.stmt) -> list[list[ast.stmt]]:
    """The blocks of a compound statement the sites are read in (loops', too)."""
    if isinstance(statement, ast.If):
        return [statement.body, statement.orelse]
    if isinstance(statement, ast.Try):
        return [statement.body, *(handler.body for handler in statement.handlers)]
    if isinstance(statement, ast.For):
        return [statement.body]
    return []


def with_elements(sites: Sequence[NativeOutSite]) -> Iterator[tuple[NativeOutSite, int]]:
    """Each site with the index, among its loop's elements, of the one naming its function
    (``-1`` outside a loop): a loop gives one site per plain name it lists, in order, for
    each statement of its body setting the attribute."""
    seen: dict[tuple[int, int], int] = {}
    for site in sites:
        if site.loop is None:
            yield site, -1
            continue
        named = [i for i, e in enumerate(_container(site.loop).elts) if isinstance(e, ast.Name)]
        key = (id(site.loop), id(site.small))
        seen[key] = seen.get(key, -1) + 1
        yield site, named[seen[key]]


def placed(
    tree: ast.Module, site: NativeOutSite, element: int, lines: Lines
) -> tuple[Span, FixData | None]:
    """Where the site (``element``: :func:`with_elements`) is shown, and what its removal
    needs, or ``None`` where none is offered (see the module)."""
    if site.loop is None:
        line_span = _statement_span(lines, site.small)
        removable = not (isinstance(site.small, ast.Assign) and len(site.small.targets) > 1)
        span: Span | None = line_span
        key: int | str = written(lines, line_span)
    else:
        container = _container(site.loop)
        span = _element_span(lines, site.loop, container.elts[element])
        removable = not isinstance(container, ast.Set) and (
            len(container.elts) == 1 or _one_line(tree, lines, site.loop.body)
        )
        key = element
    assert span is not None  # a parsed tree places every node
    return span, ((span[0], span[1], key, site.loop is not None) if removable else None)


def _one_line(tree: ast.Module, lines: Lines, body: list[ast.stmt]) -> bool:
    """Whether a block's statements are one logical line (``;`` between them, a backslash
    carrying it over physical lines): one line of statements to libcst."""
    return all(
        after.lineno == (before.end_lineno or before.lineno)
        or (
            after.lineno == (before.end_lineno or before.lineno) + 1
            and continued(lines, tree, after.lineno - 1)
        )
        for before, after in itertools.pairwise(body)
    )


def remove(source: str, tree: ast.Module, data: FixData) -> Edit | None:
    """The edit removing the site that :func:`placed` gave ``data`` for."""
    from ivycheck.checker.core.fix_render import remove_lines, replace_node

    line, column, key, in_loop = data
    around = _with_neighbours(tree, line)
    taken = None if in_loop else _taken_lines(source, tree, line, key)
    if taken is not None:
        return remove_lines(source, around, taken)
    import libcst as cst  # (only where libcst renders the removal)

    if in_loop:
        return replace_node(
            source, around, (line, column), cst.For, lambda f: _without(f, int(key))
        )
    return replace_node(
        source, around, (line, column), cst.SimpleStatementLine, lambda s: _dropped(s, key)
    )


_SIMPLE = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)
_LINE_BREAKS = ("\n", "\r\n", "\r")
_REST_OF_LINE = re.compile(r"[ \t\f]*(?:#[^\r\n]*)?(?:\r\n|\n|\r)\Z")
"""What may follow a statement removed as whole lines on its last line: a comment, no
``;`` (another statement, or libcst's semicolon) and no continuation."""


def _taken_lines(
    source: str, tree: ast.Module, line: int, key: int | str
) -> tuple[int, int] | None:
    """The whole lines libcst's removal of the statement at ``line`` takes away, where
    they are known from the text alone; ``None`` leaves it to libcst.

    They are known for a top-level statement after another one (the module's header,
    which libcst takes from the first statement's leading lines, plays no part), alone on
    its lines (no ``;``, no backslash joining it to a line before it), and written as
    ``key`` names it. libcst's statement line owns its own lines, the comment after it and
    the blank and comment lines above it (its ``leading_lines``) but for those the block
    of a compound statement before it keeps (its ``footer``: every line up to the last
    one starting with the block's indentation); when no line between the two starts with
    whitespace, the block keeps none, so the removal takes every line from the one after
    the statement before it."""
    from ivycheck.checker.core.fix_render import line_text, statement_lines, top_level_index

    at = top_level_index(tree, line)
    if at is None or at == 0 or source.startswith("\ufeff"):
        return None
    statement = tree.body[at]
    end = statement.end_lineno or statement.lineno
    after = tree.body[at + 1] if at + 1 < len(tree.body) else None
    if (
        statement.lineno != line
        or not isinstance(statement, _SIMPLE)
        or statement_lines(tree, line) != ((tree.body[at - 1].end_lineno or 0) + 1, end)
        or (after is not None and after.lineno <= end)
    ):
        return None
    first = (tree.body[at - 1].end_lineno or 0) + 1
    above = [line_text(source, number) for number in range(first - 1, line)]
    if above[0].rstrip("\r\n").endswith("\\") or not all(
        text in _LINE_BREAKS or text.startswith("#") for text in above[1:]
    ):
        return None
    own = [line_text(source, number) for number in range(line, end + 1)]
    last = own[-1].encode("utf-8")
    cut = len(own[-1]) - len(last[statement.end_col_offset or 0 :].decode("utf-8", "replace"))
    if _REST_OF_LINE.match(own[-1], cut) is None:
        return None
    text = "".join(own[:-1]) + own[-1][:cut]
    if key != 0 and (text != key or "\r" in text):  # (libcst compares with "\n" in)
        return None
    return first, end


def remove_loop(source: str, tree: ast.Module, at: tuple[int, int]) -> Edit | None:
    """The edit removing the whole loop holding ``at`` (a loop whose body is only the
    setting, IVY015's removal for every function it names), with the lines libcst gives
    it, as :func:`remove` takes a statement's."""
    import libcst as cst

    from ivycheck.checker.core.fix_render import replace_node

    around = _with_neighbours(tree, at[0])
    return replace_node(source, around, at, cst.For, lambda _: cst.RemoveFromParent())


def statement_span(lines: Lines, statement: ast.stmt) -> Span:
    """Where a statement is shown: its own span, without a ``;`` after it."""
    return _statement_span(lines, statement)


def _statement_span(lines: Lines, statement: ast.stmt) -> Span:
    end_line = statement.end_lineno or statement.lineno
    return (
        statement.lineno,
        lines.column(statement.lineno, statement.col_offset),
        end_line,
        lines.column(end_line, statement.end_col_offset or 0),
    )


def _container(loop: ast.For) -> ast.Tuple | ast.List | ast.Set:
    container = loop.iter
    assert isinstance(container, ast.Tuple | ast.List | ast.Set)  # as native_out_sites reads
    return container


def _element_span(lines: Lines, loop: ast.For, element: ast.expr) -> Span | None:
    """Where a loop's element is shown: with parentheses of its own (``(sin, (tan))``),
    which CPython's span leaves out; as many as open right before it and close right after
    it (comments and line breaks between). The container's own brackets are never both:
    a tuple of one element has a comma."""
    span = node_span(lines, element)
    if span is None:
        return None
    line, column, end_line, end_column = span
    before = lines.lines[line - 1][:column].rstrip(" \t\f")
    if before and not before.endswith("("):
        return span  # a comma, a bracket or `in` right before it: no parentheses of its own
    header = "".join(lines.lines[loop.lineno - 1 : loop.body[0].lineno - 1])
    tokens = list(tokenize.generate_tokens(io.StringIO(header).readline))
    row = loop.lineno - 1
    first = next(i for i, t in enumerate(tokens) if t.start == (line - row, column))
    end = (end_line - row, end_column)
    after = next(i for i, t in enumerate(tokens) if t.start >= end)
    opening = list(_brackets(reversed(tokens[:first]), "("))
    closing = list(_brackets(iter(tokens[after:]), ")"))
    depth = min(len(opening), len(closing))
    if depth == 0:
        return span
    start, stop = opening[depth - 1].start, closing[depth - 1].end
    return start[0] + row, start[1], stop[0] + row, stop[1]


def _brackets(tokens: Iterator[tokenize.TokenInfo], bracket: str) -> Iterator[tokenize.TokenInfo]:
    """The ``bracket`` tokens at the head of ``tokens``, comments and line breaks between."""
    for token in tokens:
        if token.string == bracket:
            yield token
        elif token.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE):
            return


def _with_neighbours(tree: ast.Module, line: int) -> ast.Module:
    """A stand-in for ``tree`` whose one statement spans the top-level statement holding
    ``line`` and those on either side of it, for :func:`replace_node` to parse together.

    A statement removed takes the blank and comment lines above it along (libcst's
    ``leading_lines``), and a module left without statements renders a line of its own:
    with its neighbours in the slice (or the file's first line, when none is before it),
    libcst gives every line the owner it gives it in the whole module, so the removal
    leaves what removing it from the whole module leaves."""
    from ivycheck.checker.core.fix_render import statement_lines

    holding = statement_lines(tree, line)
    if holding is None:
        return tree
    first, last = 1, holding[1]
    for statement in tree.body:
        if (statement.end_lineno or statement.lineno) < holding[0]:
            first = statement.lineno
        elif statement.lineno > holding[1]:
            last = statement.end_lineno or statement.lineno
            break
    start = statement_lines(tree, first)
    first = start[0] if start is not None and first > 1 else 1
    span = ast.Pass(lineno=first, col_offset=0, end_lineno=last, end_col_offset=0)
    return ast.Module(body=[span], type_ignores=[])


def _without(loop: cst.For, index: int) -> cst.For | cst.RemovalSentinel:
    """The loop without its ``index``-th element (a one-element tuple keeps its comma),
    or removed when that was its only one."""
    import libcst as cst

    assert isinstance(loop.iter, cst.Tuple | cst.List)
    kept = [e for i, e in enumerate(loop.iter.elements) if i != index]
    if not kept:
        return cst.RemoveFromParent()
    cleaned = [
        e.with_changes(comma=cst.MaybeSentinel.DEFAULT) if i == len(kept) - 1 else e
        for i, e in enumerate(kept)
    ]
    if isinstance(loop.iter, cst.Tuple) and len(cleaned) == 1:
        cleaned = [cleaned[0].with_changes(comma=cst.Comma())]
    return loop.with_changes(iter=loop.iter.with_changes(elements=cleaned))


def _dropped(
    line: cst.SimpleStatementLine, key: int | str
) -> cst.SimpleStatementLine | cst.RemovalSentinel:
    """The line without one of its statements (no dangling ``;``), or removed when that
    was its only one: the ``key``-th, or the first written as ``key`` (two written alike
    leave the same line whichever goes); unchanged when there is none (no edit then)."""
    import libcst as cst

    if isinstance(key, str):
        code = cst.Module(body=[]).code_for_node
        plain = [code(s.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)) for s in line.body]
        key = plain.index(key) if key in plain else len(plain)
    if key >= len(line.body):
        return line
    kept = [s for i, s in enumerate(line.body) if i != key]
    if not kept:
        return cst.RemoveFromParent()
    last = kept[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
    return line.with_changes(body=[*kept[:-1], last])
