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

A top-level class that stays (Ivy's data classes: one class of a hundred methods, a
finding in two) is narrowed the same way inside: each method (a ``def`` directly in its
body) is asked about in the class's small module with the class cut down to its
statements that are not methods and that method, and one no rule may find anything in
becomes a string statement on its lines, indented as the method was (a statement of the
class body like any other). Not when a rule follows calls: it may follow ``self.other()``
into a sibling method, so classes stay whole.

Why the findings are the file's:

- ``may_find`` never answers ``False`` for a module holding a finding (its contract). A
  finding that depends on no more than the statements of such a small module is one of
  that module, so its definitions stay.
- Only definitions are replaced; every other statement stays. What a fix copies from
  the file (the comment its siblings' attributes carry, the imports) is still there, and
  a rule reading ``fn.attr = ...`` without ``fn``'s definition knows nothing of ``fn``
  (it may be imported), as for any name defined elsewhere.
- A finding in a method depends on no other method: no rule that may reach inside a class
  here follows calls, the import maps (``rules/_names.py``, ``rules/_ast_facts.py``) and
  IVY007's scopes skip class bodies (a class scope does not enclose its methods), and
  what the rules read of a class besides the method (IVY012: that it is in a class body)
  is in the cut-down class. The class body's first statement always stays: a string
  there would become the class's docstring (``__doc__``, what a rule reading docstrings
  sees), and a class body keeps at least one statement.
- Fix edits are made minimal again against the file's own text (:func:`in_file`): the
  text after an appended line may differ where a definition was replaced.
- ``tests/checker/test_narrowing.py`` compares both ways on every rule's examples, with
  plain methods put around the methods of every class in them.

Files that cannot be cut into top-level statements (:func:`file_chunks` says ``None``),
rules that do not ask CPython's tree, and files where nothing is replaced are checked
whole, as is the file's first statement (a string there would be its docstring); a file
of one definition is narrowed only inside it, when it is a class.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ivycheck.checker.base.diagnostics import Diagnostic, Edit
from ivycheck.checker.base.textedit import LineIndex, replacement_edit
from ivycheck.checker.core.chunks import Chunk, file_chunks
from ivycheck.checker.core.rule import FileUnderCheck, Rule

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_INDENT = re.compile(r"[ \t\f]*")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class NarrowedText:
    """The text libcst parses instead of the file's, with its top-level statements' lines."""

    source: str
    statement_lines: tuple[int, ...]
    """The first line (decorators included) of each top-level statement of the text."""
    kept: int
    """Definitions kept (of all the file's), for benchmarks and tests."""
    methods_left_out: int = 0
    """Methods replaced inside the classes kept, for benchmarks and tests."""


def narrowed(
    file: FileUnderCheck,
    tree: ast.Module,
    rules: Sequence[type[Rule]],
) -> NarrowedText | None:
    """The file's text with each definition no rule may find anything in (nor through it)
    replaced by a placeholder on its lines, and likewise each such method of a top-level
    class that stays; ``None`` when nothing is replaced (then the whole file is checked).
    ``rules`` are those still able to find something in the file, each with a
    ``may_find`` of its own (the engine narrows no other)."""
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
    definitions = [n for n in units if chunks[n].definition]
    base = sorted(set(range(len(chunks))) - set(units))
    keep = _kept(chunks, units, base, edges, rules, file) if len(definitions) > 1 else set(units)
    left_out = set(definitions) - keep - {0}  # (a placeholder first would be a docstring)
    methods: dict[int, list[ast.stmt]] = {}
    if not across:  # (a rule following calls might follow ``self.other()``: classes stay whole)
        for number in sorted(set(definitions) - left_out):
            found = _methods_left_out(chunks, number, base, edges, rules, file)
            if found:
                methods[number] = found
    if not left_out and not methods:
        return None
    texts = [
        _blank(chunk) if n in left_out else _without(chunk, methods.get(n, ()))
        for n, chunk in enumerate(chunks)
    ]
    texts.append(file.source[sum(len(chunk.text) for chunk in chunks) :])  # comments at the end
    lines = tuple(_first_line(chunk) for chunk in chunks)
    replaced = sum(map(len, methods.values()))
    return NarrowedText("".join(texts), lines, len(definitions) - len(left_out), replaced)


def _kept(
    chunks: Sequence[Chunk],
    units: Sequence[int],
    base: Sequence[int],
    edges: Sequence[set[int]],
    rules: Sequence[type[Rule]],
    file: FileUnderCheck,
) -> set[int]:
    """The units some rule may find something in, asked each with what it depends on
    (:func:`_closure`) and the statements that name no definition."""
    keep: set[int] = set()
    for number in units:
        if number in keep:
            continue
        reached = _closure(number, edges)
        module = _module(chunks, sorted({*base, *reached}))
        if any(rule.may_find(module, file) for rule in rules):
            keep |= reached
    return keep


def _methods_left_out(
    chunks: Sequence[Chunk],
    number: int,
    base: Sequence[int],
    edges: Sequence[set[int]],
    rules: Sequence[type[Rule]],
    file: FileUnderCheck,
) -> list[ast.stmt]:
    """The methods of the class ``chunks[number]`` (if it is one) that no rule may find
    anything in, each asked alone: in the small module the class was asked in, the class
    cut down to its statements that are not methods and that method. Never the class
    body's first statement: a string there would be the class's docstring (``__doc__``,
    and what a rule reading docstrings sees), and a class body keeps one statement."""
    statement = chunks[number].statement
    if not isinstance(statement, ast.ClassDef):
        return []
    candidates = [s for s in statement.body[1:] if isinstance(s, _FUNCTIONS)]
    if not candidates:
        return []
    context = sorted({*base, *_closure(number, edges)})
    left: list[ast.stmt] = []
    for method in candidates:
        cut = copy.copy(statement)  # a new node: the file's tree is never changed
        cut.body = [s for s in statement.body if s is method or not isinstance(s, _FUNCTIONS)]
        body = [cut if n == number else chunks[n].statement for n in context]
        module = ast.Module(body=[s for s in body if s is not None], type_ignores=[])
        if not any(rule.may_find(module, file) for rule in rules):
            left.append(method)
    return left


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
    return "".join(parts[:leading]) + _placeholder(parts[leading:])


def _without(chunk: Chunk, methods: Iterable[ast.stmt]) -> str:
    """The chunk with each of ``methods`` (decorators to last line) replaced by a string
    statement on exactly its lines, indented as the method was: a statement of the class
    body in its place, every other line the file's own."""
    parts = _LINE.findall(chunk.text)
    for method in sorted(methods, key=_statement_first_line, reverse=True):  # lines below first
        start = _statement_first_line(method) - chunk.start_line
        end = (method.end_lineno or method.lineno) - chunk.start_line + 1
        indent = _INDENT.match(parts[start])
        assert indent is not None
        parts[start:end] = [indent.group() + _placeholder(parts[start:end])]
    return "".join(parts)


def _placeholder(lines: Sequence[str]) -> str:
    """A string statement on as many lines as ``lines``, each ending as theirs does."""
    ends: list[str] = [line[len(line.rstrip("\r\n")) :] for line in lines]
    if len(ends) == 1:
        return '""""""' + ends[0]
    return '"""' + "".join(ends[:-1]) + '"""' + ends[-1]


def _module(chunks: Sequence[Chunk], numbers: Iterable[int]) -> ast.Module:
    body = [statement for n in numbers if (statement := chunks[n].statement) is not None]
    return ast.Module(body=body, type_ignores=[])


def _first_line(chunk: Chunk) -> int:
    statement = chunk.statement
    assert statement is not None
    return _statement_first_line(statement)


def _statement_first_line(statement: ast.stmt) -> int:
    """The line of the statement's first decorator, or of the statement."""
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
