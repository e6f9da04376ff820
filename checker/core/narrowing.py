"""The part of a file libcst must see: the definitions CPython's tree leaves a finding in.

libcst parses eleven times slower than CPython, and a large module with one finding
costs its whole parse and walk. So before libcst sees a file, each top-level definition
is asked about alone: the rules that may find something in the file
(:meth:`Rule.may_find`) are asked again of a small module made of the file's statements
that name no definition (imports, settings), the definition, the statements that name it
(``fn.support_native_out = True``, ``fn = wrap(fn)``) and, when a rule follows calls
across definitions (``Rule.FOLLOWS_CALLS`` of a rule that is not ``Rule.LOCAL``), the
definitions it names, transitively. A statement
naming definitions is asked the same way, with the definitions it names. A definition
no such module leaves a finding in is replaced by a string statement on exactly its
lines (three quotes, its line endings, three quotes): one token for libcst, and every
other line is the file's own, so findings keep their lines and columns.

Why the findings are the file's:

- ``may_find`` never answers ``False`` for a module holding a finding (its contract). A
  finding that depends on no more than the statements of such a small module is one of
  that module, so its definitions stay.
- Only definitions are replaced; every other statement stays. What a fix copies from
  the file (the comment its siblings' attributes carry, the imports) is still there, and
  a rule reading ``fn.attr = ...`` without ``fn``'s definition knows nothing of ``fn``
  (it may be imported), as for any name defined elsewhere.
- Fix edits are made minimal again against the file's own text (:func:`in_file`): the
  text after an appended line may differ where a definition was replaced.
- ``tests/checker/test_narrowing.py`` compares both ways on every rule's examples.

Files that cannot be cut into top-level statements (:func:`file_chunks` says ``None``),
rules that do not ask CPython's tree, and files where every definition stays are checked
whole, as is the file's first statement (a string there would be its docstring).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ivycheck.checker.base.diagnostics import Diagnostic, Edit
from ivycheck.checker.base.textedit import LineIndex, replacement_edit
from ivycheck.checker.core.chunks import Chunk, file_chunks
from ivycheck.checker.core.rule import FileUnderCheck, Rule

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


@dataclass(frozen=True)
class NarrowedText:
    """The text libcst parses instead of the file's, with its top-level statements' lines."""

    source: str
    statement_lines: tuple[int, ...]
    """The first line (decorators included) of each top-level statement of the text."""
    kept: int
    """Definitions kept (of all the file's), for benchmarks and tests."""


def narrowed(
    file: FileUnderCheck,
    tree: ast.Module,
    rules: Sequence[type[Rule]],
) -> NarrowedText | None:
    """The file's text with each definition no rule may find anything in (nor through it)
    replaced by a placeholder on its lines; ``None`` when every definition stays (then the
    whole file is checked). ``rules`` are those still able to find something in the file,
    each with a ``may_find`` of its own (the engine narrows no other)."""
    if not rules or _lone_carriage_returns(file.source):
        return None
    chunks = file_chunks(file.source, tree, comments_after=True)
    if chunks is None:
        return None
    across = any(not rule.LOCAL and rule.FOLLOWS_CALLS for rule in rules)
    names = [
        _names(chunk.statement) if across or not chunk.definition else set[str]()
        for chunk in chunks
    ]
    defined: dict[str, list[int]] = {}
    for number, chunk in enumerate(chunks):
        if chunk.definition:
            defined.setdefault(getattr(chunk.statement, "name", ""), []).append(number)
    edges = _edges(chunks, names, defined, across)
    units = [n for n, chunk in enumerate(chunks) if chunk.definition or edges[n]]
    if len([n for n in units if chunks[n].definition]) < 2:
        return None
    unit_set = set(units)
    base = [n for n in range(len(chunks)) if n not in unit_set]
    keep: set[int] = set()
    for number in units:
        if number in keep:
            continue
        reached = _closure(number, edges)
        module = _module(chunks, sorted({*base, *reached}))
        if any(rule.may_find(module, file) for rule in rules):
            keep |= reached
    left_out = {n for n in units if chunks[n].definition} - keep - {0}
    if not left_out:  # (the first statement stays: a placeholder would be a docstring)
        return None
    texts = [_blank(chunk) if n in left_out else chunk.text for n, chunk in enumerate(chunks)]
    texts.append(file.source[sum(len(chunk.text) for chunk in chunks) :])  # comments at the end
    lines = tuple(_first_line(chunk) for chunk in chunks)
    kept = sum(1 for n in units if chunks[n].definition and n not in left_out)
    return NarrowedText("".join(texts), lines, kept)


def in_file(diagnostics: list[Diagnostic], part: NarrowedText, source: str) -> bool:
    """Turn the fix edits found on the narrowed text into the file's own minimal edits, in
    place; ``False`` if an edit reaches into text the narrowed one does not share with the
    file (then the file must be checked whole).

    The narrowed text and the file agree on every kept statement, so an edit's range there
    is the same line and column in both. What can differ is how far the minimal edit runs
    into its neighbours (``dstack.support_native_out = True`` appended before ``def
    dsplit`` shares its ``d`` with the file, not with a placeholder): so each edit is made
    minimal again against the file's text, as the whole-file check makes it.
    """
    narrowed_lines, file_lines = LineIndex(part.source), LineIndex(source)
    for number, diagnostic in enumerate(diagnostics):
        fix = diagnostic.fix
        if fix is None:
            continue
        edits: list[Edit] = []
        for edit in fix.edits:
            start = narrowed_lines.offset(edit.line, edit.col)
            end = narrowed_lines.offset(edit.end_line, edit.end_col)
            file_start = file_lines.offset(edit.line, edit.col)
            file_end = file_lines.offset(edit.end_line, edit.end_col)
            if part.source[start:end] != source[file_start:file_end]:
                return False
            made = replacement_edit(source, file_start, file_end, edit.content, file_lines)
            if made is None:
                return False
            edits.append(made)
        diagnostics[number] = replace(diagnostic, fix=replace(fix, edits=tuple(edits)))
    return True


def _lone_carriage_returns(source: str) -> bool:
    """Old Mac line endings: line and column would not be the same in both texts."""
    return "\r" in source and source.count("\r") != source.count("\r\n")


def _names(statement: ast.stmt | None) -> set[str]:
    """The names a statement uses: names, and attributes (``ivy.fn`` may be this module's
    ``fn``); a definition's own name is not one of them. (One loop over the nodes with
    each class's fields looked up once: ``ast.walk`` costs four times as much.)"""
    found: set[str] = set()
    stack: list[ast.AST] = [statement] if statement is not None else []
    while stack:
        node = stack.pop()
        cls = node.__class__
        if cls is ast.Name:
            found.add(node.id)  # type: ignore[attr-defined]
            continue
        if cls is ast.Constant:
            continue
        if cls is ast.Attribute:
            found.add(node.attr)  # type: ignore[attr-defined]
        for name in cls._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(item for item in value if isinstance(item, ast.AST))
    return found


def _edges(
    chunks: Sequence[Chunk], names: Sequence[set[str]], defined: dict[str, list[int]], across: bool
) -> list[set[int]]:
    """What each statement's findings may depend on besides the statements that name no
    definition: a definition, on the statements that name it (``fn.attr = ...``,
    ``fn = wrap(fn)``) and, when a rule looks ``across`` definitions, on the definitions
    it names; a statement naming definitions, on them."""
    edges: list[set[int]] = [set() for _ in chunks]
    for number, chunk in enumerate(chunks):
        named = {d for name in names[number] for d in defined.get(name, ())} - {number}
        if not chunk.definition:
            edges[number] |= named
            for definition in named:
                edges[definition].add(number)
        elif across:
            edges[number] |= named
    return edges


def _blank(chunk: Chunk) -> str:
    """The chunk with its definition (decorators to last line) replaced by a string
    statement on exactly those lines: one token for libcst, where as many empty lines
    would cost a node each (half the parse of the text they replace). The blank lines and
    comments before the definition stay as they are, so an edit next to it (a line
    appended after the definition before) is the same minimal edit as in the file."""
    parts = _LINE.findall(chunk.text)
    leading = _first_line(chunk) - chunk.start_line
    ends: list[str] = [part[len(part.rstrip("\r\n")) :] for part in parts[leading:]]
    body = '""""""' + ends[0] if len(ends) == 1 else '"""' + "".join(ends[:-1]) + '"""' + ends[-1]
    return "".join(parts[:leading]) + body


def _module(chunks: Sequence[Chunk], numbers: Iterable[int]) -> ast.Module:
    body = [statement for n in numbers if (statement := chunks[n].statement) is not None]
    return ast.Module(body=body, type_ignores=[])


def _first_line(chunk: Chunk) -> int:
    statement = chunk.statement
    assert statement is not None
    decorators: list[ast.expr] = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(d.lineno for d in decorators)])


def _closure(start: int, edges: Sequence[set[int]]) -> set[int]:
    reached: set[int] = set()
    pending = [start]
    while pending:
        number = pending.pop()
        if number not in reached:
            reached.add(number)
            pending.extend(edges[number] - reached)
    return reached


__all__ = ["NarrowedText", "in_file", "narrowed"]
