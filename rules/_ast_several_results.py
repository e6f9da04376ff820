"""A function with several results, on CPython's tree: ``out`` or the result annotated as a
tuple.

Its ``out`` is a tuple of arrays, and the wrapper treats a tuple ``out`` apart: it may hand
it over with its items still wrapped, or never hand it over at all (a gate true for every
tuple, see ``rules/_out_fate.py``). The annotation is read as written: its text, with the
parentheses around it and any comment inside them (``out: (  # a Tuple of two\\n
Array)``), so a tuple word anywhere in what the annotation spells counts.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from ivycheck.rules import _ast_layout
from ivycheck.rules._ast_facts import FunctionNode
from ivycheck.rules._ast_source import Lines

TUPLE_WORD = re.compile(r"\b(Tuple|tuple|NamedTuple)\b")
"""In an annotation of ``out`` or of the result: a function with several results."""


def several_results(function: FunctionNode, lines: Lines, *, out_only: bool = False) -> bool:
    """``out`` (a regular or keyword-only parameter) or the result annotated as a tuple
    (``Optional[Tuple[...]]``): a function with several results. ``out_only``: ``out``'s
    annotation alone, what a caller passes (a result annotated ``Tuple[Tensor]`` may be one
    array, as Ivy's PyTorch ``histogram`` returns)."""
    args = function.args
    annotations = [None if out_only else function.returns] + [
        a.annotation for a in (*args.args, *args.kwonlyargs) if a.arg == "out"
    ]
    written = [a for a in annotations if a is not None]
    if not written:
        return False
    if any(TUPLE_WORD.search(_ast_layout.text(lines, a)) for a in written):
        return True
    return any(TUPLE_WORD.search(c) for c in _comments_around(function, lines, written))


def _comments_around(
    function: FunctionNode, lines: Lines, annotations: list[ast.expr]
) -> list[str]:
    """The comments inside the parentheses that enclose each annotation (as many as open
    right before it and close right after it)."""
    header = lines.header(function)
    if "#" not in header:
        return []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(header).readline))
    except (tokenize.TokenError, SyntaxError):
        tokens = []  # an unfinished header cannot be: the file parsed
    skipped = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE)
    found: list[str] = []
    for annotation in annotations:
        start = (
            annotation.lineno - function.lineno + 1,
            lines.column(annotation.lineno, annotation.col_offset),
        )
        end_line = annotation.end_lineno or annotation.lineno
        end = (
            end_line - function.lineno + 1,
            lines.column(end_line, annotation.end_col_offset or 0),
        )
        first_token = next((i for i, t in enumerate(tokens) if t.start >= start), len(tokens))
        after = next((i for i, t in enumerate(tokens) if t.start >= end), len(tokens))
        before: list[int] = []
        i = first_token - 1
        while i >= 0 and (tokens[i].type in skipped or tokens[i].string == "("):
            if tokens[i].string == "(":
                before.append(i)
            i -= 1
        closes: list[int] = []
        j = after
        while j < len(tokens) and (tokens[j].type in skipped or tokens[j].string == ")"):
            if tokens[j].string == ")":
                closes.append(j)
            j += 1
        depth = min(len(before), len(closes))
        if depth == 0:
            continue
        low, high = before[depth - 1], closes[depth - 1]
        found.extend(
            t.string
            for t in (*tokens[low:first_token], *tokens[after:high])
            if t.type == tokenize.COMMENT
        )
    return found
