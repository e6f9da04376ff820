"""Where a finding on CPython's tree starts and ends, for nodes whose span CPython and the
user see differently: a decorator (from its ``@``), a parenthesized tuple's elements, a
string literal written as several.

CPython leaves out what does not change the value: the ``@`` before a decorator's
expression, the parentheses around an expression, the number of adjacent string literals
it joined into one constant. Findings have always been placed where the code shows the
construct (the spans libcst gave them, which reports and baselines were made with), so
these functions read the text around the node. They read only blanks, comments, line
continuations and parentheses, which is all that can stand between those bounds and
CPython's: so they hold for any text CPython parses.
"""

from __future__ import annotations

import ast
import io
import tokenize

from ivycheck.rules._ast_source import Lines, node_span

Position = tuple[int, int]
"""(1-based line, 0-based code-point column)."""
Span = tuple[int, int, int, int]
"""(line, column, end line, end column): 1-based lines, 0-based code-point columns."""

_BLANK = " \t\f"


def next_token(lines: Lines, at: Position) -> Position | None:
    """Where the next token starts at or after ``at``, past blanks, comments, line breaks
    and ``\\`` continuations (the text between two tokens inside brackets); ``None`` at
    the end of the text."""
    line, column = at
    while line <= len(lines.lines):
        text = lines.lines[line - 1]
        while column < len(text) and text[column] in _BLANK:
            column += 1
        if column < len(text) and text[column] not in "#\r\n\\":
            return line, column
        line, column = line + 1, 0
    return None


def decorator_span(lines: Lines, decorator: ast.expr) -> Span:
    """A decorator from its ``@`` to the end of its expression, the expression's own
    parentheses included (``@(name)``, ``@ \\`` then the name on the next line).

    The ``@`` starts a logical line, so it is the first character of its physical line
    after indentation; between it and the expression stand only blanks, continuations,
    opening parentheses and comments after them. As many ``)`` close the expression as
    ``(`` opened it there."""
    start = _node_start(lines, decorator)
    line, column = start
    before = lines.lines[line - 1][:column]
    opened = before.count("(")
    while "@" not in before:
        line -= 1
        before = lines.lines[line - 1].split("#", 1)[0]
        opened += before.count("(")
    at = (line, lines.lines[line - 1].index("@"))
    span = node_span(lines, decorator)
    assert span is not None  # a parsed tree places every node
    end = span[2], span[3]
    for _ in range(opened):
        closing = next_token(lines, end)
        assert closing is not None  # CPython parsed the parentheses it balances
        end = closing[0], closing[1] + 1
    return (*at, *end)


def tuple_span(lines: Lines, node: ast.Tuple) -> Span:
    """A parenthesized tuple's span without its parentheses: from its first element to its
    last (that element's own parentheses and the trailing comma included); an empty
    tuple's is empty, before its ``)``. CPython's span of a parenthesized tuple is its
    innermost parentheses'; the user's view of "the tuple" is what they hold."""
    span = node_span(lines, node)
    assert span is not None
    line, column, end_line, end_column = span
    if not lines.lines[line - 1].startswith("(", column):
        return span  # unparenthesized: CPython's span is already its elements'
    closing = (end_line, end_column - 1)
    start = next_token(lines, (line, column + 1))
    assert start is not None
    if not node.elts:
        return (*start, *start)
    last = node_span(lines, node.elts[-1])
    assert last is not None
    end = last[2], last[3]
    while True:
        after = next_token(lines, end)
        assert after is not None
        character = lines.lines[after[0] - 1][after[1]]
        if character == ",":
            return (*start, after[0], after[1] + 1)
        if character != ")" or after == closing:
            return (*start, *end)
        end = after[0], after[1] + 1  # a ``)`` of the last element's own


def value_span(lines: Lines, node: ast.expr) -> Span:
    """Where a value is seen: a parenthesized tuple's elements (:func:`tuple_span`), any
    other value as CPython places it (parentheses around it left out)."""
    if isinstance(node, ast.Tuple):
        return tuple_span(lines, node)
    span = node_span(lines, node)
    assert span is not None  # a parsed tree places every node
    return span


def written(lines: Lines, span: Span) -> str:
    """The text of a span, as written (over several lines where it runs over them)."""
    line, column, end_line, end_column = span
    if line == end_line:
        return lines.lines[line - 1][column:end_column]
    middle = "".join(lines.lines[line : end_line - 1])
    return lines.lines[line - 1][column:] + middle + lines.lines[end_line - 1][:end_column]


def string_literals(lines: Lines, node: ast.expr) -> int:
    """How many string literals a string constant or f-string is written as (``"a" "b"``
    is two, joined into one node by CPython)."""
    span = node_span(lines, node)
    assert span is not None
    text = "(" + written(lines, span) + ")"  # in brackets, line breaks are only blanks
    kinds = {tokenize.STRING, getattr(tokenize, "FSTRING_START", tokenize.STRING)}
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return sum(token.type in kinds for token in tokens)


def _node_start(lines: Lines, node: ast.expr) -> Position:
    return node.lineno, lines.column(node.lineno, node.col_offset)
