"""IVY009: ``out`` in the functional API annotated as something other than an optional Array."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

import libcst as cst

from ivycheck.checker.rule_api import AstFinding, Example, FileUnderCheck, Rule
from ivycheck.rules import _ast_facts, _ast_layout
from ivycheck.rules._api_functions import out_param
from ivycheck.rules._ast_calls import function_wrappers, out_arg, wrapped_by_assignment
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._decorators import wrappers_of
from ivycheck.rules._names import ImportMap, dotted
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
    Parameters without an annotation and private helpers (``_helper``) are not checked.
    """

    CODE = "IVY009"
    LOCAL = True
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
    )
    INVALID = (
        Example(
            """
            from typing import Optional, Union
            import ivy

            def tan(x, /, *, out: Optional[Union[ivy.Array, ivy.NativeArray]] = None):
                ...
            """,
        ),
        Example(
            """
            import ivy

            def tan(x, /, *, out: ivy.Array = None):
                ...
            """,
        ),
        Example(
            """
            from typing import Optional
            import numpy as np

            def tan(x, /, *, out: Optional[np.ndarray] = None):
                ...
            """,
        ),
        Example(
            """
            from typing import Optional
            from jax import Array

            def tan(x, /, *, out: Optional[Array] = None):
                ...
            """,
        ),
        Example(
            """
            from typing import Optional, Union
            import ivy

            def tan(x, /, *, out: Optional[Union[ivy.Array, ivy.Container]] = None):
                ...
            """,
        ),
        Example(
            """
            import ivy

            def tan(x, *, out: 'ivy.NativeArray | None' = None):
                ...
            """,
        ),
        Example(
            """
            import ivy

            def qr(x, *, out: tuple[ivy.Array, ivy.NativeArray] | None = None):
                ...
            """,
        ),
        Example(
            """
            import torch
            import ivy

            def tan(x, *, out: ivy.Array | torch.Tensor | None = None):
                ...
            """,
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """The check below on CPython's tree: names resolved through the same scopes, the
        same unions and kinds. A string annotation is taken as a possible finding (libcst
        reads an implicitly concatenated one differently; Ivy writes none for ``out``)."""
        return next(_ast_doubtful(tree, file), None) is not None

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below on CPython's tree, where it reads the annotation as libcst does:
        reported at the annotation's expression with its text as written. ``None`` for a
        string annotation (read by libcst from the string's value) and for an annotation in
        parentheses or across lines of another newline than ``\\n`` (libcst's node and
        text include the parentheses; its text joins lines with the file's first newline)."""
        lines: Lines | None = None
        findings: list[AstFinding] = []
        for function, annotation, nestable in _ast_doubtful(tree, file):
            if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                return None
            lines = lines or Lines(file.source)
            line, end_line = annotation.lineno, annotation.end_lineno or annotation.lineno
            start = lines.column(line, annotation.col_offset)
            end = lines.column(end_line, annotation.end_col_offset or 0)
            text = _ast_layout.text(lines, annotation)
            if "\r" in text or not lines.lines[line - 1][:start].rstrip().endswith(":"):
                return None
            findings.append(
                AstFinding(
                    line, start, end_line, end, _message(function.name, text, nestable=nestable)
                )
            )
        return findings

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        out = out_param(node.params)
        if out is None or out.annotation is None or is_private_helper(node.name.value):
            return
        nestable = "handle_nestable" in wrappers_of(node, self.context)
        annotation = out.annotation.annotation
        if self._acceptable(annotation, nestable=nestable):
            return
        text = self.context.code_for(annotation)
        self.report(out.annotation, _message(node.name.value, text, nestable=nestable))

    def _acceptable(self, annotation: cst.BaseExpression, *, nestable: bool) -> bool:
        resolve = self._resolver(annotation)
        if resolve is None:
            return True  # an annotation we cannot read is not judged
        members = list(_union_members(resolve.root, resolve))
        kinds = {self._kind(member, resolve) for member in members}
        if "none" not in kinds or "array" not in kinds:
            return False
        allowed = {"none", "array", "container"} if nestable else {"none", "array"}
        return kinds <= allowed

    def _resolver(self, annotation: cst.BaseExpression) -> _Resolve | None:
        if isinstance(annotation, cst.SimpleString):
            try:
                parsed = cst.parse_expression(annotation.evaluated_value)  # type: ignore[arg-type]
            except (cst.ParserSyntaxError, TypeError):
                return None
            return _Resolve(None, parsed)
        return _Resolve(self.context.memo(ImportMap.of), annotation)

    def _kind(self, member: cst.BaseExpression, resolve: _Resolve) -> str:
        if isinstance(member, cst.Name) and member.value == "None":
            return "none"
        if isinstance(member, cst.Subscript) and (resolve.name(member.value) or "").rsplit(".", 1)[
            -1
        ] in {"Tuple", "tuple"}:
            # a function with several results (``qr``, ``slogdet``) writes each into its own
            # Array: ``Optional[Tuple[ivy.Array, ivy.Array]]``
            elements = [e.slice.value for e in member.slice if isinstance(e.slice, cst.Index)]
            arrays = [e for e in elements if not isinstance(e, cst.Ellipsis)]
            if arrays and all(self._kind(e, resolve) == "array" for e in arrays):
                return "array"
            return "other"
        name = resolve.name(member)
        if name is None:
            return "other"
        head, _, last = name.rpartition(".")
        runtime = not head or any(
            head == module or head.startswith(module + ".")
            for module in self.context.config.runtime_modules
        )
        if runtime and last == "Array":
            return "array"
        if runtime and last == "Container":
            return "container"
        return "other"


def _message(function: str, annotation: str, *, nestable: bool) -> str:
    """The finding's message, from the function's name and the annotation as written."""
    return (
        f"`out` of `{function}` is annotated `{quoted(annotation)}`; annotate it "
        f"`Optional[ivy.Array]`{' (or with ivy.Container)' if nestable else ''}: "
        "`out` must be an Array or None"
    )


class _Resolve:
    """Names in an annotation: by import where the annotation is code, by text in a string."""

    def __init__(self, imports: ImportMap | None, root: cst.BaseExpression) -> None:
        self.imports = imports
        self.root = root

    def name(self, expression: cst.BaseExpression) -> str | None:
        if self.imports is not None:
            qualified = self.imports.qualify(expression)
            if qualified is not None:
                return qualified
        return dotted(expression)


def _union_members(
    annotation: cst.BaseExpression, resolve: _Resolve
) -> Iterator[cst.BaseExpression]:
    """The alternatives of ``Optional[...]``, ``Union[...]`` and ``A | B`` (None included)."""
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        yield from _union_members(annotation.left, resolve)
        yield from _union_members(annotation.right, resolve)
        return
    if isinstance(annotation, cst.Subscript):
        generic = (resolve.name(annotation.value) or "").rsplit(".", 1)[-1]
        inner = [
            element.slice.value
            for element in annotation.slice
            if isinstance(element.slice, cst.Index)
        ]
        if generic == "Optional" and len(inner) == 1:
            yield from _union_members(inner[0], resolve)
            yield cst.Name("None")
            return
        if generic == "Union":
            for member in inner:
                yield from _union_members(member, resolve)
            return
    yield annotation


# The check on CPython's tree (``OutAnnotation.may_find`` and ``find_on_ast``) ------------


def _ast_doubtful(
    tree: ast.Module, file: FileUnderCheck
) -> Iterator[tuple[_ast_facts.FunctionNode, ast.expr, bool]]:
    """Each checked ``out`` annotation the check below reports, with its function and
    whether the function is nestable, and each string annotation (not judged here)."""
    imports: _ast_facts.AstImportMap | None = None
    assigned: dict[str, list[str]] | None = None
    runtime = file.config.runtime_modules
    for function, enclosing in _ast_facts.facts(tree).functions:
        found = out_arg(function)
        if found is None or found[0].annotation is None or is_private_helper(function.name):
            continue
        annotation = found[0].annotation
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            yield function, annotation, False
            continue
        if imports is None:
            imports = _ast_facts.facts(tree).import_map
            assigned = wrapped_by_assignment(tree)
        nestable = "handle_nestable" in function_wrappers(function, assigned or {})
        name = _ast_names(imports, (*enclosing, function))
        if not _ast_acceptable(annotation, name, runtime, nestable=nestable):
            yield function, annotation, nestable


def _ast_names(
    imports: _ast_facts.AstImportMap, scope: tuple[_ast_facts.FunctionNode, ...]
) -> Callable[[ast.expr], str | None]:
    """``_Resolve.name`` on CPython's tree: by import in ``scope``, else as written."""

    def name(expression: ast.expr) -> str | None:
        return imports.qualify(expression, scope) or _ast_facts.dotted(expression)

    return name


def _ast_subscript_items(node: ast.Subscript) -> list[ast.expr]:
    """The ``Index`` elements libcst sees: a bare tuple is several, a parenthesized one
    (``Union[(A, B)]``, starting before its first element) is one; slices are left out."""
    inside = node.slice
    items = [inside]
    if isinstance(inside, ast.Tuple) and inside.elts:
        first = inside.elts[0]
        if (first.lineno, first.col_offset) == (inside.lineno, inside.col_offset):
            items = list(inside.elts)
    return [item for item in items if not isinstance(item, ast.Slice)]


def _ast_union_members(
    annotation: ast.expr, name: Callable[[ast.expr], str | None]
) -> Iterator[ast.expr]:
    """:func:`_union_members` on CPython's tree."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        yield from _ast_union_members(annotation.left, name)
        yield from _ast_union_members(annotation.right, name)
        return
    if isinstance(annotation, ast.Subscript):
        generic = (name(annotation.value) or "").rsplit(".", 1)[-1]
        inner = _ast_subscript_items(annotation)
        if generic == "Optional" and len(inner) == 1:
            yield from _ast_union_members(inner[0], name)
            yield ast.Constant(None)
            return
        if generic == "Union":
            for member in inner:
                yield from _ast_union_members(member, name)
            return
    yield annotation


def _ast_kind(
    member: ast.expr, name: Callable[[ast.expr], str | None], runtime: tuple[str, ...]
) -> str:
    """``OutAnnotation._kind`` on CPython's tree (``None`` is a constant there)."""
    if isinstance(member, ast.Constant) and member.value is None:
        return "none"
    if isinstance(member, ast.Name) and member.id == "None":
        return "none"
    if isinstance(member, ast.Subscript) and (name(member.value) or "").rsplit(".", 1)[-1] in {
        "Tuple",
        "tuple",
    }:
        elements = _ast_subscript_items(member)
        arrays = [e for e in elements if not (isinstance(e, ast.Constant) and e.value is Ellipsis)]
        if arrays and all(_ast_kind(e, name, runtime) == "array" for e in arrays):
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


def _ast_acceptable(
    annotation: ast.expr,
    name: Callable[[ast.expr], str | None],
    runtime: tuple[str, ...],
    *,
    nestable: bool,
) -> bool:
    """``OutAnnotation._acceptable`` on CPython's tree, for an annotation that is code."""
    kinds = {_ast_kind(member, name, runtime) for member in _ast_union_members(annotation, name)}
    if "none" not in kinds or "array" not in kinds:
        return False
    allowed = {"none", "array", "container"} if nestable else {"none", "array"}
    return kinds <= allowed
