"""IVY009: ``out`` in the functional API annotated as something other than an optional Array."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from collections.abc import Callable, Iterator

from ivycheck.checker.rule_api import Example, FileUnderCheck, Finding, Rule
from ivycheck.rules import _ast_facts, _ast_layout
from ivycheck.rules._ast_calls import function_wrappers, out_arg, wrapped_by_assignment
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._quote import quoted
from ivycheck.rules._vocabulary import in_modules, is_private_helper


class OutAnnotation(Rule):
    """In the functional API, ``out`` is ``Optional[ivy.Array]``: an Array or nothing.

    ``handle_out_argument`` writes the result into ``out`` through ``ivy.inplace_update``,
    which keeps the ``ivy.Array`` object and replaces or updates its data. A native array
    (``np.ndarray``, ``torch.Tensor``) is rejected with an error, because on JAX and
    TensorFlow it could never be updated and on NumPy and PyTorch Ivy would have to copy
    silently; so an annotation such as ``Optional[Union[ivy.Array, ivy.NativeArray]]``
    advertises calls that fail, and type checkers accept them. An annotation without
    ``Optional`` (``out: ivy.Array = None``) misstates the default.

    Accepted: ``Optional[ivy.Array]``, ``ivy.Array | None``, ``Union[ivy.Array, None]``
    (``Array`` imported from the runtime, or a string annotation of the same), a tuple of
    Arrays for functions with several results (``Optional[Tuple[ivy.Array, ivy.Array]]``,
    as ``qr`` and ``slogdet`` take), and for
    nestable functions (``@handle_nestable``, which maps over containers and writes into a
    ``Container`` passed as ``out``) also ``Optional[Union[ivy.Array, ivy.Container]]``.
    A ``Container`` on a function that is not nestable is reported: nothing writes into it.
    Parameters without an annotation and private helpers (``_helper``) are not checked. A
    string annotation (a forward reference) is read as the expression it holds, its names
    as written, since a string imports nothing; one that holds no expression is not judged.
    """

    CODE = "IVY009"
    NAME = "out-annotation"
    MESSAGE = "Annotate `out` as `Optional[ivy.Array]` (an Array or None, never a native array)"
    PARTS = frozenset({"functional"})
    TRIGGERS = ("out",)
    VALID = (
        Example(
            """
            from typing import Optional
            import ivy

            def tan(x, /, *, out: Optional[ivy.Array] = None):
                ...
            """,
        ),
        Example(
            """
            import ivy

            def tan(x, /, *, out: ivy.Array | None = None):
                ...
            """,
        ),
        Example(
            """
            from typing import Optional, Union
            import ivy

            @handle_nestable
            def tan(x, /, *, out: Optional[Union[ivy.Array, ivy.Container]] = None):
                ...
            """,
        ),
        Example(
            """
            from typing import Optional
            from ivycheck.runtime.array import Array

            def tan(x, /, *, out: Optional[Array] = None):
                ...
            """,
            path="runtime/functional/elementwise.py",
        ),
        Example(
            """
            def tan(x, /, *, out: 'Optional[ivy.Array]' = None):
                ...
            """,
        ),
        Example(
            """
            def tan(x, /, *, out=None):
                ...
            """,
        ),
        Example(
            """
            from typing import Optional
            import numpy as np

            def _helper(x, *, out: Optional[np.ndarray] = None):
                ...
            """,
        ),
        Example(
            """
            import typing
            import ivy

            def f(x, *, out: typing.Union[None, ivy.Array] = None):
                ...
            """,
        ),
        Example(
            """
            from typing import Optional, Tuple
            import ivy

            def qr(x, *, out: Optional[Tuple[ivy.Array, ivy.Array]] = None):
                ...
            """,
        ),
        Example(
            """
            import numpy as np

            def tan(x, *, out: Optional[np.ndarray] = None):
                ...
            """,
            path="ivy/functional/backends/numpy/elementwise.py",
        ),
        Example(
            """
            from typing import Optional, Union
            import ivy

            def f(x, *, out: Optional[Union[ivy.Array, ivy.Container]] = None):
                ...


            f = handle_nestable(f)
            """,
        ),
        Example(
            """
            def tan(x, /, *, out: 'ivy.Array |' = None):
                ...
            """,
        ),
        Example(
            """
            def tan(x, /, *, out: b'Optional[ivy.Array]' = None):
                ...
            """,
        ),
        Example(
            """
            def tan(x, /, *, out: 'Optional[ivy.Array]\\n  ' = None):
                ...
            """,
        ),
        Example(
            """
            def outer():
                import numpy as ivy

                def tan(x, /, *, out: 'Optional[ivy.Array]' = None):
                    ...
            """,
        ),
    )
    INVALID = (
        Example(
            """
            from typing import Optional, Union
            import ivy

            def tan(x, /, *, out: Optional[Union[ivy.Array, ivy.NativeArray]] = None):
                ...
            """,
            line=4,
            column=23,
        ),
        Example(
            """
            import ivy

            def tan(x, /, *, out: ivy.Array = None):
                ...
            """,
            line=3,
            column=23,
        ),
        Example(
            """
            from typing import Optional
            import numpy as np

            def tan(x, /, *, out: Optional[np.ndarray] = None):
                ...
            """,
            line=4,
            column=23,
        ),
        Example(
            """
            from typing import Optional
            from jax import Array

            def tan(x, /, *, out: Optional[Array] = None):
                ...
            """,
            line=4,
            column=23,
        ),
        Example(
            """
            from typing import Optional, Union
            import ivy

            def tan(x, /, *, out: Optional[Union[ivy.Array, ivy.Container]] = None):
                ...
            """,
            line=4,
            column=23,
        ),
        Example(
            """
            import ivy

            def tan(x, *, out: 'ivy.NativeArray | None' = None):
                ...
            """,
            line=3,
            column=20,
        ),
        Example(
            """
            import ivy

            def qr(x, *, out: tuple[ivy.Array, ivy.NativeArray] | None = None):
                ...
            """,
            line=3,
            column=19,
        ),
        Example(
            """
            import torch
            import ivy

            def tan(x, *, out: ivy.Array | torch.Tensor | None = None):
                ...
            """,
            line=4,
            column=20,
        ),
        Example(
            """
            import ivy


            class Ops:
                def tan(
                    self,
                    *,
                    out: (  # either
                        ivy.Array
                        | ivy.NativeArray
                    ) = None,
                ):
                    ...
            """,
            message=(
                "`out` of `tan` is annotated `(  # either ivy.Array | ivy.NativeArray )`; "
                "annotate it `Optional[ivy.Array]`: `out` must be an Array or None"
            ),
            line=8,
            column=14,
        ),
        Example(
            """
            def tan(x, /, *, out: 'ivy.' 'Array | None' = None):
                ...
            """,
            message="is annotated `'ivy.' 'Array | None'`",
            line=1,
            column=23,
        ),
        Example(
            """
            def tan(x, /, *, out: b'ivy.NativeArray | None' = None):
                ...
            """,
            message="is annotated `b'ivy.NativeArray | None'`",
            line=1,
            column=23,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out:
                    np.ndarray | None = None):
                ...
            """,
            message="is annotated `np.ndarray | None`",
            line=5,
            column=9,
        ),
        Example(
            """
            import ivy


            def tan(x, /, *, out: '*ivy.Array' = None):
                ...
            """,
            message="is annotated `'*ivy.Array'`",
            line=4,
            column=23,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Each checked ``out`` annotation that is not an optional Array, reported at the
        annotation (its parentheses included) with its text as written in the message."""
        lines: Lines | None = None
        found = _ast_facts.facts(tree)
        assigned: dict[str, list[str]] | None = None
        runtime = file.config.runtime_modules
        imports = found.import_map
        module_imports: frozenset[tuple[str, str]] | None = None
        for function, enclosing in found.functions:
            out = out_arg(function)
            if out is None or is_private_helper(function.name) or out[0].annotation is None:
                continue
            lines = lines or Lines(file.source)
            if assigned is None:
                assigned = wrapped_by_assignment(tree)
            nestable = "handle_nestable" in function_wrappers(tree, function, assigned)
            judge = functools.partial(_judged, out[0], lines, imports, enclosing, runtime, nestable)
            if enclosing:
                verdict = judge(function)
            else:  # a verdict of the statement and the module's imports: kept with it
                if module_imports is None:
                    module_imports = frozenset(imports.module_imports.items())
                key = ("IVY009", module_imports, runtime, nestable)
                verdict = found.of_statement(function, key, judge)
            if verdict is not False:
                continue  # acceptable, or not judged
            span = _annotation_span(lines, out[0])
            text = _text(lines, span)
            yield Finding(*span, _message(function.name, text, nestable=nestable))


def _judged(
    out: ast.arg,
    lines: Lines,
    imports: _ast_facts.AstImportMap,
    enclosing: _ast_facts.Scope,
    runtime: tuple[str, ...],
    nestable: bool,
    function: ast.stmt,
) -> bool | None:
    """Whether the annotation of ``out`` (of ``function``, inside ``enclosing``) is
    acceptable; ``None``: a string holding no expression, not judged."""
    assert out.annotation is not None and isinstance(
        function, ast.FunctionDef | ast.AsyncFunctionDef
    )
    judged: ast.expr | None = out.annotation
    name = _names(imports, (*enclosing, function))
    if isinstance(judged, ast.Constant) and _forward_reference(lines, judged):
        # a string imports nothing: its names are read as written
        judged, name = _written_in_string(judged), _ast_facts.dotted
    if judged is None:
        return None
    return _acceptable(judged, name, runtime, nestable=nestable)


def _message(function: str, annotation: str, *, nestable: bool) -> str:
    """The finding's message, from the function's name and the annotation as written."""
    return (
        f"`out` of `{function}` is annotated `{quoted(annotation)}`; annotate it "
        f"`Optional[ivy.Array]`{' (or with ivy.Container)' if nestable else ''}: "
        "`out` must be an Array or None"
    )


def _forward_reference(lines: Lines, annotation: ast.Constant) -> bool:
    """Whether ``annotation`` is one string (or bytes) literal: the expression it holds
    is the annotation. Literals side by side (``'ivy.' 'Array'``) are one constant to
    CPython, but no forward reference: they are judged as written (not an Array)."""
    if not isinstance(annotation.value, str | bytes):
        return False
    # Inside parentheses the literals' text tokenizes alone (blanks, comments, line breaks).
    written = "(" + _ast_layout.text(lines, annotation) + ")"
    try:
        tokens = tokenize.generate_tokens(io.StringIO(written).readline)
        return sum(token.type == tokenize.STRING for token in tokens) == 1
    except (tokenize.TokenError, SyntaxError):  # pragma: no cover - the text parsed
        return False


def _written_in_string(annotation: ast.Constant) -> ast.expr | None:
    """The expression a string annotation holds, or ``None`` when it holds none (or bytes
    that are not UTF-8). Blanks after its last line break are no indentation there, and
    a starred expression (``'*Ts'``) or a bare tuple stands for itself (not an Array)."""
    value = annotation.value
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            return None
    assert isinstance(value, str)
    for written in (value, _TRAILING_BLANKS.sub("", value)):
        try:
            return ast.parse(written, mode="eval").body
        except (SyntaxError, ValueError):
            continue
    try:
        (statement,) = ast.parse(_TRAILING_BLANKS.sub("", value)).body
    except (SyntaxError, ValueError):
        return None
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Tuple | ast.Starred):
        return statement.value
    return None


_TRAILING_BLANKS = re.compile(r"(?<=[\r\n])[ \t\f]+\Z")
"""Blanks after a string's last line break, which CPython's ``eval`` mode reads as an
indentation but a forward reference ignores."""


def _annotation_span(lines: Lines, out: ast.arg) -> tuple[int, int, int, int]:
    """Where the annotation of ``out`` stands, its own parentheses included: from the
    first token after ``:`` to the parameter's end (CPython ends ``out`` after the
    annotation's closing parentheses, and places the annotation inside them)."""
    assert out.annotation is not None and out.end_lineno is not None
    line = out.lineno
    column = lines.column(line, out.col_offset) + len(out.arg)
    colon = False
    while True:
        text = lines.lines[line - 1]
        match = _FILLER.match(text, column)
        at = match.end() if match is not None else column
        if at < len(text.rstrip("\r\n")) and text[at] == ":" and not colon:
            colon, column = True, at + 1
            continue
        if at < len(text.rstrip("\r\n")) and colon:
            return (line, at, out.end_lineno, lines.column(out.end_lineno, out.end_col_offset or 0))
        line, column = line + 1, 0


_FILLER = re.compile(r"(?:[ \t\f]+|#[^\r\n]*|\\(?:\r\n|\r|\n))*")
"""What may stand on a line between a parameter's name, ``:`` and its annotation inside
the signature's parentheses: blanks, a comment, a backslash continuation (line breaks
are the loop's)."""


def _text(lines: Lines, span: tuple[int, int, int, int]) -> str:
    """The text of ``span`` (code-point columns)."""
    line, column, end_line, end_column = span
    if line == end_line:
        return lines.lines[line - 1][column:end_column]
    inner = lines.lines[line : end_line - 1]
    return "".join([lines.lines[line - 1][column:], *inner, lines.lines[end_line - 1][:end_column]])


def _names(
    imports: _ast_facts.AstImportMap, scope: tuple[_ast_facts.FunctionNode, ...]
) -> Callable[[ast.expr], str | None]:
    """How a name in an annotation of code resolves: by import in ``scope`` (the
    function's own imports first), else as written (``Array``, ``ivy.Array``)."""

    def name(expression: ast.expr) -> str | None:
        return imports.qualify(expression, scope) or _ast_facts.dotted(expression)

    return name


def _subscript_items(node: ast.Subscript) -> list[ast.expr]:
    """The members of a subscript: a bare tuple is several, a parenthesized one
    (``Union[(A, B)]``, starting before its first element) is one member (a tuple, not an
    Array); slices are left out."""
    inside = node.slice
    items = [inside]
    if isinstance(inside, ast.Tuple) and inside.elts:
        first = inside.elts[0]
        if (first.lineno, first.col_offset) == (inside.lineno, inside.col_offset):
            items = list(inside.elts)
    return [item for item in items if not isinstance(item, ast.Slice)]


def _union_members(
    annotation: ast.expr, name: Callable[[ast.expr], str | None]
) -> Iterator[ast.expr]:
    """The alternatives of ``Optional[...]``, ``Union[...]`` and ``A | B`` (None included)."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        yield from _union_members(annotation.left, name)
        yield from _union_members(annotation.right, name)
        return
    if isinstance(annotation, ast.Subscript):
        generic = (name(annotation.value) or "").rsplit(".", 1)[-1]
        inner = _subscript_items(annotation)
        if generic == "Optional" and len(inner) == 1:
            yield from _union_members(inner[0], name)
            yield ast.Constant(None)
            return
        if generic == "Union":
            for member in inner:
                yield from _union_members(member, name)
            return
    yield annotation


def _kind(
    member: ast.expr, name: Callable[[ast.expr], str | None], runtime: tuple[str, ...]
) -> str:
    """``none``, ``array``, ``container`` or ``other``. A tuple of Arrays is an Array: a
    function with several results (``qr``, ``slogdet``) writes each into its own Array
    (``Optional[Tuple[ivy.Array, ivy.Array]]``)."""
    if isinstance(member, ast.Constant) and member.value is None:
        return "none"
    if isinstance(member, ast.Name) and member.id == "None":
        return "none"
    if isinstance(member, ast.Subscript) and (name(member.value) or "").rsplit(".", 1)[-1] in {
        "Tuple",
        "tuple",
    }:
        elements = _subscript_items(member)
        arrays = [e for e in elements if not (isinstance(e, ast.Constant) and e.value is Ellipsis)]
        if arrays and all(_kind(e, name, runtime) == "array" for e in arrays):
            return "array"
        return "other"
    qualified = name(member)
    if qualified is None:
        return "other"
    head, _, last = qualified.rpartition(".")
    in_runtime = not head or in_modules(head, runtime)
    if in_runtime and last == "Array":
        return "array"
    if in_runtime and last == "Container":
        return "container"
    return "other"


def _acceptable(
    annotation: ast.expr,
    name: Callable[[ast.expr], str | None],
    runtime: tuple[str, ...],
    *,
    nestable: bool,
) -> bool:
    """An Array or None (a Container too when ``nestable``), and nothing else."""
    kinds = {_kind(member, name, runtime) for member in _union_members(annotation, name)}
    if "none" not in kinds or "array" not in kinds:
        return False
    allowed = {"none", "array", "container"} if nestable else {"none", "array"}
    return kinds <= allowed
