"""libcst as a renderer: a fix parses only the top-level statement it changes.

Rules decide on CPython's tree (:meth:`~ivycheck.checker.core.rule.Rule.check`); a rule
with a fix turns one of its findings into text in :meth:`~ivycheck.checker.core.rule.Rule.fix`
by way of :func:`replace_node`. That slices the file's text to the lines of the top-level
statement holding the position the finding names (a decorated definition from its first
decorator; for a fix of a function below top level, a method say, the lines of that function
alone), parses that slice alone with libcst, lets the rule replace the innermost node of
the wanted type around the position, and renders the smallest edit of the slice.

Invariants, and why:

- A fix costs in proportion to its statement, never to the module: a file with one fixable
  finding per function is linear, and a file without findings is never parsed by libcst.
- Whole lines are sliced from a top-level statement, which starts in column 0, so the
  slice parses as a module of its own and columns are the file's own; a top-level statement
  renders the same alone as inside its module (libcst round-trips text exactly), so
  everything outside the replaced node is left byte for byte.
- Lines of the slice are the file's lines shifted by the statement's first line, columns
  are code points (libcst's and :class:`~ivycheck.checker.core.rule.Finding`'s unit).
- What libcst would only confirm is not asked of it: a top-level ``def`` whose header
  holds the position is the target without resolving positions over it, and whole lines
  a caller knows libcst's removal takes are cut as text (:func:`remove_lines`). Both
  render the edit the parse would, over the same slice.
"""

from __future__ import annotations

import ast
import bisect
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias, TypeVar, cast

from ivycheck.checker.base.diagnostics import Edit
from ivycheck.checker.base.textedit import LineIndex, minimal_edit

if TYPE_CHECKING:  # libcst is imported by the functions that parse: see remove_lines
    import libcst as cst

    Replacement: TypeAlias = cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel[cst.CSTNode]
    """What a fix puts in place of its target: a node, ``cst.RemoveFromParent()``, or a
    ``cst.FlattenSentinel`` of statements (to add a statement after a function, say)."""

N = TypeVar("N", bound="cst.CSTNode")


def statement_lines(tree: ast.Module, line: int) -> tuple[int, int] | None:
    """The first and last line (1-based, inclusive) of the top-level statement holding
    ``line``, whole: from the line after the statement before it (so a decorator whose
    ``@`` stands lines above its expression, and the comments above the statement, are
    inside), and with the statements sharing a line with it (``a = 1; b = 2``), so whole
    lines can be cut and parsed alone."""
    layout = _layout(tree)
    at = bisect.bisect_left(layout.lasts, line)
    if at == len(layout.lasts) or layout.firsts[at] > line:
        return None
    low = high = at
    while low > 0 and layout.lasts[low - 1] >= layout.firsts[low]:
        low -= 1
    while high + 1 < len(layout.firsts) and layout.firsts[high + 1] <= layout.lasts[high]:
        high += 1
    return layout.firsts[low], max(layout.lasts[low : high + 1])


def own_first_line(statement: ast.stmt) -> int:
    """The first line of ``statement``'s own text: its first decorator's, which CPython
    does not count in the statement's ``lineno`` (an ``@`` may also stand lines above its
    expression's line; the expression's line is the one known)."""
    decorators: list[ast.expr] | None = getattr(statement, "decorator_list", None)
    if not decorators:
        return statement.lineno
    return min(statement.lineno, *(d.lineno for d in decorators))


@dataclass(frozen=True)
class _Layout:
    """Each top-level statement's first and last line, in order (``lasts`` ascending);
    a statement's first line takes in the lines between it and the statement before."""

    firsts: list[int]
    lasts: list[int]


_layouts: weakref.WeakKeyDictionary[ast.Module, _Layout] = weakref.WeakKeyDictionary()
"""The layout of each tree fixes are rendered in, computed once per tree (a file with a
fix per function must not rescan its statements per fix) and gone with the tree."""


def _layout(tree: ast.Module) -> _Layout:
    known = _layouts.get(tree)
    if known is None:
        firsts: list[int] = []
        lasts: list[int] = []
        previous_end: int | None = None
        for statement in tree.body:
            first = own_first_line(statement)
            if previous_end is not None:
                # (not before a tree's first statement: a tree cut down to one span of
                # the file, as a fix may hand in, starts where its span starts)
                first = min(first, previous_end + 1)
            previous_end = statement.end_lineno or statement.lineno
            firsts.append(first)
            lasts.append(previous_end)
        known = _layouts[tree] = _Layout(firsts, lasts)
    return known


_last_index: tuple[str, LineIndex] | None = None


def _line_index(source: str) -> LineIndex:
    """The line index of ``source``, kept for the next fix of the same text (the fixes of
    one file are rendered one after the other)."""
    global _last_index
    if _last_index is None or _last_index[0] is not source:
        _last_index = (source, LineIndex(source))
    return _last_index[1]


def replace_node(
    source: str,
    tree: ast.Module,
    at: tuple[int, int],
    node_type: type[N],
    replace: Callable[[N], Replacement],
    *,
    header_only: bool = False,
) -> Edit | None:
    """The edit that puts ``replace(node)`` in place of the innermost ``node_type`` node
    whose range holds ``at`` (1-based line, 0-based code-point column of the file), or
    ``None`` when there is no such node or nothing changes.

    ``header_only`` (a ``FunctionDef`` fix): the replacement changes only the function's
    decorators and signature, and ``at`` is in them, so only they are parsed, with
    ``pass`` for the body (a function's docstring alone is often most of its lines)."""
    import libcst as cst

    sliced = None
    if node_type is cst.FunctionDef:
        if header_only:
            sliced = _definition_slice(source, tree, at, header_only=True)
        sliced = sliced or _definition_slice(source, tree, at)
    if sliced is None:
        sliced = _statement_slice(source, tree, at[0])
    if sliced is None:
        return None
    first, text = sliced
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        return None  # (the rare statement CPython reads and libcst's grammar does not)
    whole = _whole_definition(tree, module, at, node_type)
    target = (
        whole if whole is not None else _innermost(module, (at[0] - first + 1, at[1]), node_type)
    )
    if target is None:
        return None
    new = replace(target)
    fixed: cst.CSTNode | cst.RemovalSentinel
    if target is whole and isinstance(new, cst.CSTNode):
        fixed = module.with_changes(body=[new])
    elif isinstance(new, cst.RemovalSentinel):
        fixed = module.deep_remove(target)
    else:
        # deep_replace is typed for nodes; its transformer takes a FlattenSentinel too.
        fixed = module.deep_replace(target, cast(cst.CSTNode, new))
    assert isinstance(fixed, cst.Module)
    return slice_edit(text, fixed.code, first)


def remove_lines(source: str, tree: ast.Module, lines: tuple[int, int]) -> Edit | None:
    """The edit that removes whole ``lines`` (first and last, 1-based, inclusive) from the
    top-level statement of ``tree`` holding them, rendered as :func:`replace_node` renders
    a removal: the smallest edit over that statement's slice, so that it is the very edit
    libcst's removal gives when that removal takes exactly these lines (a caller's to
    establish), at the cost of slicing text, without a parse (nor an import of libcst:
    a run whose fixes all take this path never loads it)."""
    sliced = _statement_slice(source, tree, lines[0])
    if sliced is None:
        return None
    first, text = sliced
    index = _line_index(source)
    base = index.offset(first, 1)
    start = index.offset(lines[0], 1) - base
    end = index.offset(lines[1] + 1, 1) - base
    return slice_edit(text, text[:start] + text[end:], first)


def top_level_index(tree: ast.Module, line: int) -> int | None:
    """The index in ``tree.body`` of the top-level statement whose lines hold ``line``
    (its own lines: from its first to its last), or ``None``."""
    layout = _layout(tree)
    at = bisect.bisect_left(layout.lasts, line)
    if at == len(layout.lasts) or tree.body[at].lineno > line:
        return None
    return at


def line_text(source: str, line: int) -> str:
    """Physical line ``line`` (1-based) of ``source``, with its line break."""
    index = _line_index(source)
    return source[index.offset(line, 1) : index.offset(line + 1, 1)]


def _statement_slice(source: str, tree: ast.Module, line: int) -> tuple[int, str] | None:
    """The first line and the whole-line text of the top-level statement holding
    ``line`` (:func:`statement_lines`)."""
    lines = statement_lines(tree, line)
    if lines is None:
        return None
    index = _line_index(source)
    return lines[0], source[index.offset(lines[0], 1) : index.offset(lines[1] + 1, 1)]


def _definition_slice(
    source: str, tree: ast.Module, at: tuple[int, int], header_only: bool = False
) -> tuple[int, str] | None:
    """The lines of the innermost function below top level whose lines hold ``at``, as a
    slice that parses alone (``if 1:`` above them, so that their indentation is a
    block's; its first line counts as the line before the function's), or ``None`` when
    the position is in no such function or the function does not start its lines (a
    one-line ``class A: def f(self): ...``, a decorator's ``@`` alone on a line).

    A method's fix parses its method, not its class: a class with a fix per method would
    otherwise be parsed whole once per fix. The innermost function whose lines hold the
    position is the innermost ``def`` whose range holds it (two functions never share a
    line), which is what a fix asking for a ``FunctionDef`` gets; the text around it is
    the file's, byte for byte, so the edit is the one the statement's parse gives.

    With ``header_only``, also a top-level function, and only its lines above its first
    statement (its decorators, its signature, comments after the colon) with ``pass``
    below them at the first statement's indentation, when that statement starts its own
    line (no one-line ``def f(): ...``, no backslash before it) below ``at``."""
    top = top_level_index(tree, at[0])
    if top is None:
        return None
    function: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    statements: list[ast.stmt] = [tree.body[top]] if header_only else _blocks(tree.body[top])
    while statements:
        statement = statements.pop()
        if _first_line(statement) <= at[0] <= (statement.end_lineno or statement.lineno):
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                function = statement
            statements = _blocks(statement)
    if function is None or function.end_lineno is None:
        return None
    first = _first_line(function)
    index = _line_index(source)
    opening = source[index.offset(first, 1) : index.offset(first + 1, 1)]
    indent = len(opening) - len(opening.lstrip(" \t\f"))
    starts = "@" if function.decorator_list else ("async" if _is_async(function) else "def")
    if indent != function.col_offset or not opening.startswith(starts, indent):
        return None
    if header_only:
        text = _header(source, function, at)
        if text is None:
            return None
    else:
        text = source[index.offset(first, 1) : index.offset(function.end_lineno + 1, 1)]
    if function is tree.body[top]:
        return first, text
    return first - 1, "if 1:\n" + text


def _header(
    source: str, function: ast.FunctionDef | ast.AsyncFunctionDef, at: tuple[int, int]
) -> str | None:
    """``function``'s lines above its first statement, ``pass`` below them at that
    statement's indentation (:func:`_definition_slice`), or ``None``."""
    index = _line_index(source)
    body = function.body[0].lineno
    if not _first_line(function) <= at[0] < body:
        return None
    line = source[index.offset(body, 1) : index.offset(body + 1, 1)]
    indentation = line[: len(line) - len(line.lstrip(" \t\f"))]
    if len(indentation) != function.body[0].col_offset:
        return None  # the statement does not start its line: a one-line function
    above = source[index.offset(_first_line(function), 1) : index.offset(body, 1)]
    if above.rstrip("\r\n").endswith("\\"):
        return None  # the statement continues the line above
    return f"{above}{indentation}pass\n"


def _blocks(statement: ast.stmt) -> list[ast.stmt]:
    """The statements directly in ``statement``'s blocks (its ``except`` clauses and
    ``case`` blocks included)."""
    found: list[ast.stmt] = []
    for name in ("body", "orelse", "finalbody"):
        block = getattr(statement, name, None)
        if isinstance(block, list):
            found.extend(block)
    for clause in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
        found.extend(clause.body)
    return found


def _first_line(statement: ast.stmt) -> int:
    """The line a statement starts on: its first decorator's, if it has any."""
    decorators: list[ast.expr] = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(d.lineno for d in decorators)])


def _is_async(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return isinstance(function, ast.AsyncFunctionDef)


def slice_edit(before: str, after: str, first: int) -> Edit | None:
    """The smallest edit of the file that turns ``before``, its whole lines from line
    ``first`` on, into ``after`` (``None`` if they are equal): every renderer, libcst's
    and the text paths, computes its edit over the slice it changed, then places it."""
    edit = minimal_edit(before, after)
    if edit is None:
        return None
    shift = first - 1
    return Edit(edit.line + shift, edit.col, edit.end_line + shift, edit.end_col, edit.content)


def insertion_edit(head: str, inserted: str, tail: str, first: int) -> Edit | None:
    """``slice_edit(head + tail, head + inserted + tail, first)``, made without comparing
    the texts whole: the common ends of a text and itself with ``inserted`` put in at one
    place are ``head`` and ``tail`` extended by what ``inserted`` shares with them, and
    lines and columns are counted in ``head + tail`` directly. One fix per function of a
    large file (IVY001's attribute line) renders this thousands of times."""
    if not inserted:
        return None
    before_length = len(head) + len(tail)
    # The longest common prefix: all of ``head``, and what ``inserted + tail`` and ``tail``
    # share from their starts (never more than ``before``).
    shared, limit, size = 0, len(tail), len(inserted)
    while (
        shared < limit
        and (inserted[shared] if shared < size else tail[shared - size]) == tail[shared]
    ):
        shared += 1
    prefix = len(head) + shared
    # The longest common suffix not overlapping it: all of ``tail``, and what ``head`` and
    # ``head + inserted`` share from their ends.
    suffix = len(tail)
    reach = before_length - prefix
    back = 0
    while (
        suffix + back < reach
        and back < len(head)
        and head[-1 - back] == (inserted[-1 - back] if back < size else head[size - 1 - back])
    ):
        back += 1
    suffix = min(reach, suffix + back)
    after = head + inserted + tail
    line, column = _position(head, tail, prefix)
    end_line, end_column = _position(head, tail, before_length - suffix)
    shift = first - 1
    content = after[prefix : len(after) - suffix]
    return Edit(line + shift, column, end_line + shift, end_column, content)


def _position(head: str, tail: str, offset: int) -> tuple[int, int]:
    """:meth:`LineIndex.position` of ``offset`` in ``head + tail`` (1-based line and column)."""
    if offset <= len(head):
        line = head.count("\n", 0, offset)
        start = head.rfind("\n", 0, offset) + 1
        return line + 1, offset - start + 1
    inner = offset - len(head)
    line = head.count("\n") + tail.count("\n", 0, inner)
    newline = tail.rfind("\n", 0, inner)
    start = len(head) + newline + 1 if newline >= 0 else head.rfind("\n") + 1
    return line + 1, offset - start + 1


def _whole_definition(
    tree: ast.Module, module: cst.Module, at: tuple[int, int], node_type: type[N]
) -> N | None:
    """The slice's one statement, when it is the function :func:`_innermost` would find:
    a top-level ``def`` (not ``async``) with ``at`` in its header, from its ``def`` line
    to the line before its body (no nested function is there). Found without resolving
    positions over the whole function (a walk and a rendering of it), and replaced without
    a walk of it either."""
    import libcst as cst

    if node_type is not cst.FunctionDef or len(module.body) != 1:
        return None
    statement = module.body[0]
    top = top_level_index(tree, at[0])
    if top is None or not isinstance(statement, cst.FunctionDef) or statement.asynchronous:
        return None
    written = tree.body[top]
    if not isinstance(written, ast.FunctionDef) or not (
        written.lineno <= at[0] < written.body[0].lineno and at[1] >= written.col_offset
    ):
        return None
    return cast(N, statement)


def _innermost(module: cst.Module, at: tuple[int, int], node_type: type[N]) -> N | None:
    """The innermost ``node_type`` node of ``module`` whose range holds ``at``."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    best: N | None = None
    best_start = (0, -1)
    for node, where in positions.items():
        if not isinstance(node, node_type):
            continue
        start = (where.start.line, where.start.column)
        end = (where.end.line, where.end.column)
        if start <= at <= end and start >= best_start:
            best, best_start = node, start
    return best
