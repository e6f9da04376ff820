"""Fixes rendered as text, without libcst, where the shape leaves no doubt (IVY005, IVY008,
IVY015).

A JSON or SARIF run renders every fix's text, and importing libcst alone cost more than
all the rules' checks of the snapshot; its only fixes reorder decorators (IVY005) and
make ``out`` keyword-only (IVY008). For the shapes those fixes meet almost always, the
edit libcst's rendering gives is a rearrangement of pieces of the source the tokenizer
and CPython's tree delimit:

- Reordering decorators: libcst gives each decorator the comment and blank lines above
  it (the first decorator's belong to the function), and its own line(s) to the line
  break; so each decorator is the whole lines from the line after the previous one's end
  to its own last line, and the fix concatenates those in the new order.
- Moving ``out`` after ``*``: libcst's fix keeps commas by position (the n-th element of
  the new signature takes the n-th separator of the old), a new ``*`` taking the
  separator that preceded ``out``; each element's own text moves whole.
- Writing ``True`` for a falsy ``support_native_out`` value (IVY015): libcst replaces the
  value's node, parentheses included; a value without parentheses around it is one token
  on its line, and ``True`` takes that token's place.

Each function returns ``None`` wherever the shape is not one of those (a decorator
sharing a line with other code or continued by a backslash, a parenthesised decorator,
whitespace before a comma, a comment inside a parameter, lone carriage returns, ...):
the caller then renders with libcst, which stays the reference. The edit is the smallest
one of the changed lines, which is the very edit the libcst path's smallest edit of its
slice gives, since the text around the changed lines is the same in both
(``tests/rules/test_text_fixes.py`` compares the two on many generated shapes).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass

from ivycheck.checker.base.diagnostics import Edit
from ivycheck.checker.core.fix_render import (
    insertion_edit,
    line_text,
    own_first_line,
    slice_edit,
    top_level_index,
)
from ivycheck.rules._ast_source import Lines

Function = ast.FunctionDef | ast.AsyncFunctionDef

_QUIET_LINE = re.compile(r"[ \t]*(#[^\r\n]*)?(\r\n|\n)")
"""A blank or comment-only line (what libcst keeps with the decorator below it)."""

_QUIET_SEPARATOR = re.compile(r",(?:[ \t]+|#[^\r\n]*|\r?\n)*")
"""A comma and what follows it up to the next parameter: blanks, comments, line breaks."""


def function_at(source: str, tree: ast.Module, at: tuple[int, int]) -> Function | None:
    """The function whose ``def`` (or ``async``) is at ``at`` (1-based line, code-point
    column) (:func:`_functions_around`)."""
    lines = Lines(source)
    for node in _functions_around(source, tree, at[0]):
        if node.lineno == at[0] and lines.column(node.lineno, node.col_offset) == at[1]:
            return node
    return None


def parameter_at(
    source: str, tree: ast.Module, at: tuple[int, int]
) -> tuple[Function, ast.arg] | None:
    """The function and its parameter whose name is at ``at`` (1-based line, code-point
    column) (:func:`_functions_around`)."""
    lines = Lines(source)
    for node in _functions_around(source, tree, at[0]):
        arguments = node.args
        for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
            if arg.lineno == at[0] and lines.column(arg.lineno, arg.col_offset) == at[1]:
                return node, arg
    return None


@dataclass(frozen=True)
class _LineBreaks:
    carriage_return: bool
    """Some line ends in ``\\r`` (alone or before ``\\n``)."""
    lone_carriage_return: bool
    """Some line ends in a ``\\r`` not followed by ``\\n``."""


_last_breaks: tuple[str, _LineBreaks] | None = None


def _line_breaks(source: str) -> _LineBreaks:
    """What line breaks ``source`` uses, read once for the fixes of one text (asked per
    fix, a scan of the whole text each time made a file of thousands of fixes quadratic)."""
    global _last_breaks
    if _last_breaks is None or _last_breaks[0] is not source:
        carriage_returns = source.count("\r")
        breaks = _LineBreaks(carriage_returns > 0, carriage_returns != source.count("\r\n"))
        _last_breaks = (source, breaks)
    return _last_breaks[1]


def _functions_around(source: str, tree: ast.Module, line: int) -> list[Function]:
    """The functions in the top-level statement holding ``line``; none when the file's
    line breaks are not all ``\\n`` or ``\\r\\n`` (CPython and the renderer would count
    lines apart)."""
    if _line_breaks(source).lone_carriage_return:
        return []
    top = top_level_index(tree, line)
    if top is None:
        return []
    return [
        node
        for node in ast.walk(tree.body[top])
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def reordered_decorators(
    source: str, function: Function, permutation: Sequence[int]
) -> Edit | None:
    """The edit putting ``function``'s decorators in the order ``permutation`` gives
    (each place's decorator by its index as written), or ``None`` when a decorator does
    not own its lines plainly (see the module's docs) or nothing changes."""
    decorators = function.decorator_list
    if len(decorators) != len(permutation) or not decorators:
        return None
    indentation = function.col_offset  # (the ``def``'s line starts with its indentation)
    chunks: list[str] = []
    start = decorators[0].lineno
    for decorator in decorators:
        end = decorator.end_lineno
        if end is None or decorator.end_col_offset is None:
            return None
        for quiet in range(start, decorator.lineno):
            if not _QUIET_LINE.fullmatch(line_text(source, quiet)):
                return None
        opening = line_text(source, decorator.lineno)
        if not (
            opening[:indentation].strip(" \t") == ""
            and opening[indentation : indentation + 1] == "@"
            and opening[:indentation].isascii()
            and len(opening[:indentation].encode()) == indentation
        ):
            return None
        closing = line_text(source, end).encode("utf-8")[decorator.end_col_offset :]
        if not _QUIET_LINE.fullmatch(closing.decode("utf-8", "replace")):
            return None
        chunks.append("".join(line_text(source, line) for line in range(start, end + 1)))
        start = end + 1
    before = "".join(chunks)
    after = "".join(chunks[index] for index in permutation)
    return slice_edit(before, after, decorators[0].lineno)


def reordered_with_libcst(
    source: str, tree: ast.Module, at: tuple[int, int], permutation: Sequence[int]
) -> Edit | None:
    """:func:`reordered_decorators` rendered by libcst, for any shape (and the reference
    the text is held to): the decorators of the function whose ``def`` is at ``at``."""
    import libcst as cst

    from ivycheck.checker.core.fix_render import replace_node

    def reorder(node: cst.FunctionDef) -> cst.FunctionDef:
        written = node.decorators
        if len(written) != len(permutation):
            return node  # not the function check() read: no fix
        return node.with_changes(decorators=[written[i] for i in permutation])

    return replace_node(source, tree, at, cst.FunctionDef, reorder, header_only=True)


def keyword_only_out(source: str, function: Function, out: ast.arg) -> Edit | None:
    """The edit moving ``out`` (a parameter before any ``*``) to the end of ``function``'s
    keyword-only parameters, a bare ``*`` before them if there is none, as libcst's fix
    does (see the module's docs), or ``None`` when the signature is not plain enough."""
    pieces = _signature_pieces(source, function)
    if pieces is None:
        return None
    first, text, elements, separators, closing = pieces
    words = [text[start:end] for start, end in elements]
    named = [i for i, word in enumerate(words) if _name(word) == out.arg]
    kinds = [_kind(word) for word in words]
    if len(named) != 1 or kinds.count("*") > 1 or kinds.count("**") > 1:
        return None
    moved = named[0]
    star = kinds.index("*") if "*" in kinds else None
    tail = kinds.index("**") if "**" in kinds else len(words)
    if moved == 0 or (star is not None and moved > star):
        return None  # (a first ``out`` gets libcst's default comma: left to libcst)
    boundary = star if star is not None else tail
    order = [i for i in range(boundary) if i != moved]
    order.extend(range(boundary, tail))  # the ``*`` and the keyword-only ones
    order.append(moved)
    order.extend(range(tail, len(words)))
    texts = [words[i] for i in order]
    commas = list(separators)
    if star is None:
        texts.insert(boundary - 1, "*")
        commas.insert(len(commas) - 1, separators[moved - 1])
    if not separators[-1].startswith(",") and separators[-1] and order[-1] != len(words) - 1:
        return None  # (what ends the list may belong to its old last parameter)
    new = "".join(word + comma for word, comma in zip(texts, commas, strict=True))
    fixed = text[: elements[0][0]] + new + text[closing:]
    return slice_edit(text, fixed, first)


def _signature_pieces(
    source: str, function: Function
) -> tuple[int, str, list[tuple[int, int]], list[str], int] | None:
    """The text from ``function``'s ``def`` line through its ``)`` (and its first line),
    each parameter's (start, end) offsets in it, and the separator after each one (the
    comma and what follows it, or the last one's text before ``)``) and where ``)`` is;
    ``None`` unless
    every separator is a comma right after its parameter followed by blanks, comments
    and line breaks only, and no parameter holds a comment or a line break."""
    first = function.lineno
    last = function.body[0].lineno if function.body else first
    text = "".join(line_text(source, line) for line in range(first, last + 1))
    try:
        tokens = list(_until_parameters_end(text))
    except (tokenize.TokenError, SyntaxError):
        return None
    if not tokens:
        return None
    starts = _line_starts(text)
    elements: list[tuple[int, int]] = []
    current: list[int] = []
    commas: list[int] = []
    depth = 0
    for token in tokens[1:-1]:
        where = starts[token.start[0] - 1] + token.start[1]
        ends = starts[token.end[0] - 1] + token.end[1]
        if token.type in (tokenize.COMMENT, tokenize.NL):
            if depth:
                return None
            continue
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        if depth == 0 and token.type == tokenize.OP and token.string == ",":
            if not current:
                return None
            elements.append((current[0], current[1]))
            commas.append(where)
            current = []
            continue
        current = [current[0] if current else where, ends]
    if current:
        elements.append((current[0], current[1]))
        commas.append(-1)
    if not elements:
        return None
    closing = starts[tokens[-1].start[0] - 1] + tokens[-1].start[1]
    separators: list[str] = []
    for index, (_, end) in enumerate(elements):
        stop = elements[index + 1][0] if index + 1 < len(elements) else closing
        between = text[end:stop]
        if "\n" in text[elements[index][0] : end] or "\\" in between:
            return None
        if commas[index] != -1 and (
            commas[index] != end or not _QUIET_SEPARATOR.fullmatch(between)
        ):
            return None
        separators.append(between)
    return first, text, elements, separators, closing


def _until_parameters_end(text: str) -> list[tokenize.TokenInfo]:
    """The tokens from the ``(`` after the function's name through its matching ``)``
    (empty when the name is not followed by ``(``: type parameters, say)."""
    found: list[tokenize.TokenInfo] = []
    depth = 0
    seen_def = False
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if not found:
            if token.type == tokenize.NAME and token.string == "def":
                seen_def = True
            elif seen_def and token.type == tokenize.OP:
                if token.string != "(":
                    return []
                found.append(token)
                depth = 1
            continue
        found.append(token)
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
            if depth == 0:
                return found
    return []


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _name(element: str) -> str:
    """A parameter's name (after any ``*``/``**``)."""
    return re.split(r"[\s:=]", element.lstrip("*").lstrip(), maxsplit=1)[0]


def _kind(element: str) -> str:
    """``"**"``, ``"*"``, ``"/"`` or ``""`` (a plain parameter)."""
    if element.startswith("**"):
        return "**"
    if element.startswith("*"):
        return "*"
    return "/" if element == "/" else ""


_FALSY_VALUE = re.compile(r"(?:False|None|0x0|0b0|0o0|0)(?![\w.])")
"""A falsy value as IVY015 reads one: a name, or zero spelled as its rule accepts."""


def true_in_place(source: str, at: tuple[int, int]) -> Edit | None:
    """``True`` in place of the falsy value starting at ``at`` (1-based line, 0-based
    code-point column), or ``None`` where libcst must render it: the value is in
    parentheses (libcst's node holds them, and its ``True`` replaces them too) or does not
    start at ``at``."""
    line = line_text(source, at[0])
    before = line[: at[1]].rstrip(" \t\f")
    if not before or before.endswith(("(", "\\")):
        return None  # parenthesised, or continued from the line above
    value = _FALSY_VALUE.match(line, at[1])
    if value is None:
        return None
    return slice_edit(line, line[: value.start()] + "True" + line[value.end() :], at[0])


def line_after_function(
    source: str, tree: ast.Module, index: int, slice_lines: tuple[int, int], added: str
) -> Edit | None:
    """``added`` (one line with its break) after the function ``tree.body[index]``, two blank lines
    before it, as libcst's rendering of the slice ``slice_lines`` (the function through
    the next statement, IVY001's) gives it; ``None`` where libcst must render it.

    libcst gives a function's block the comment lines after its body and the next
    statement (or the module) the blank lines before it, so where only empty lines stand
    between the function's last line and the next statement (or the file's end) the new
    line goes right after the function's last line. Any comment there, a line break other
    than ``\\n`` anywhere, or a last line continued by a backslash: libcst renders it."""
    function = tree.body[index]
    if _line_breaks(source).carriage_return or function.end_lineno is None:
        return None
    lines = Lines(source).lines
    first, last = slice_lines
    end = function.end_lineno
    if not lines[end - 1].endswith("\n") or lines[end - 1].endswith("\\\n"):
        return None
    following = index + 1 < len(tree.body)
    next_start = own_first_line(tree.body[index + 1]) if following else len(lines) + 1
    between = lines[end : next_start - 1]
    if between.count("\n") != len(between):
        return None  # a line between them that is not empty
    head, tail = "".join(lines[first - 1 : end]), "".join(lines[end:last])
    return insertion_edit(head, "\n\n" + added, tail, first)


def attribute_with_libcst(
    source: str, span: tuple[int, int], at: tuple[int, int], added: str
) -> Edit | None:
    """``added`` after the function at ``at``, two blank lines before it, rendered by
    libcst over the lines ``span``: the reference
    :func:`line_after_function` matches."""
    import libcst as cst

    from ivycheck.checker.core.fix_render import replace_node

    def add_attribute(node: cst.FunctionDef) -> cst.FlattenSentinel[cst.CSTNode]:
        line = cst.parse_statement(added)
        line = line.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
        return cst.FlattenSentinel([node, line])

    stand_in = ast.Pass(lineno=span[0], col_offset=0, end_lineno=span[1], end_col_offset=0)
    around = ast.Module(body=[stand_in], type_ignores=[])
    return replace_node(source, around, at, cst.FunctionDef, add_attribute)


def statement_through_next(tree: ast.Module, index: int, last_line: int) -> tuple[int, int]:
    """The lines from the start of the top-level statement ``tree.body[index]`` through
    the next statement (or the file's end, ``last_line``): the slice the fix renders.
    libcst gives a function the comments after its body (and the blank lines after them),
    and the attribute goes after those, as in the whole module; only a slice reaching into
    the next statement holds them, and parses them as the whole module does. Read from
    the two statements alone (no layout of the module's statements)."""
    body = tree.body
    following = body[index + 1] if index + 1 < len(body) else None
    end = (following.end_lineno or following.lineno) if following is not None else last_line
    return own_first_line(body[index]), end
