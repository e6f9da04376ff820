"""A file as a sequence of top-level statements ("chunks"), each with its own lines.

Both the editor's incremental checker and the engine's narrowed check analyse a file by
its top-level definitions: a chunk is one top-level statement together with the blank
lines and comments before it, so the chunks' texts joined are exactly the file's text
and each chunk's lines are the file's lines from ``start_line``. Files whose statements
cannot be cut that way (two statements on one line, no final newline, comments after the
last statement) have no chunks (``None``): their callers check them whole.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ivycheck.checker.base import trees

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


@dataclass(frozen=True)
class Chunk:
    text: str
    start_line: int
    line_count: int
    definition: bool
    """A ``def``, ``async def`` or ``class`` (the rest of the file is the context)."""
    statement: ast.stmt | None = None
    """CPython's node of the statement, when the chunks were cut from a given tree."""


def file_chunks(
    source: str, tree: ast.Module | None = None, *, comments_after: bool = False
) -> list[Chunk] | None:
    """Top-level statements with the blank lines and comments before them; ``None`` if the
    text does not parse or two statements share a line. ``tree`` is CPython's tree of
    ``source`` when the caller has it (then each chunk keeps its statement). Comments
    after the last statement belong to no chunk: ``None`` unless ``comments_after``
    (then the caller keeps the text after the chunks as it is)."""
    keep = tree is not None
    if tree is None:
        try:
            tree = trees.parse(source)
        except (SyntaxError, ValueError):
            return None
    lines = _LINE.findall(source)
    if lines and not lines[-1].endswith(("\n", "\r")):
        return None  # no final newline: the last chunk would not render alone
    chunks: list[Chunk] = []
    previous_end = 0
    for statement in tree.body:
        decorators = getattr(statement, "decorator_list", [])
        first = min([statement.lineno, *(d.lineno for d in decorators)])
        end = statement.end_lineno or statement.lineno
        if first <= previous_end:
            return None
        text = "".join(lines[previous_end:end])
        chunks.append(
            Chunk(
                text=text,
                start_line=previous_end + 1,
                line_count=end - previous_end,
                definition=isinstance(
                    statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                ),
                statement=statement if keep else None,
            )
        )
        previous_end = end
    if not comments_after and "".join(lines[previous_end:]).strip():
        return None  # comments after the last statement: leave those files to the full path
    return chunks


__all__ = ["Chunk", "file_chunks"]
