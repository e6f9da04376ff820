"""IVY015: ``support_native_out = False``, which Ivy's wrapper reads as ``True``."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ivycheck.checker.rule_api import (
    Category,
    Edit,
    Example,
    FileUnderCheck,
    Finding,
    FixSafety,
    Rule,
    Severity,
)
from ivycheck.rules._ast_facts import facts
from ivycheck.rules._ast_native_out_sites import (
    NativeOutSite,
    native_out_sites,
)
from ivycheck.rules._ast_out_analysis import ModuleFlows
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._out_fate import project_wrapper
from ivycheck.rules._quote import quoted
from ivycheck.rules._site_removal import remove, remove_loop, statement_span
from ivycheck.rules._text_fixes import true_in_place
from ivycheck.rules._vocabulary import OutWrapping, out_wrapping

NP = "ivy/functional/backends/numpy/example.py"
JAX = "ivy/functional/backends/jax/example.py"

# Code examples share (``Example(preamble=...)`` puts it before the example's own).
_NUMPY_TAN = """
    def tan(x, *, out=None):
        return np.tan(x, out=out)


    """
"""A NumPy backend function that forwards ``out`` natively."""

_EIG = """
    def eig_pair(x, /, *, out=None):
        return np.linalg.eig(x)
    """

_SCATTER = """
    def scatter_sum(indices, updates, *, out=None):
        start = jnp.zeros(updates.shape) if out is None else out
        return start.at[indices].add(updates)
    """
"""Reads the values of the buffer it is handed: it uses the buffer."""

_OPTIONAL_IMPORT = """
    try:
        import scipy
    except ImportError:
        pass
    else:
        pass
    """
"""Compound statements before the one a fix edits (its text and the fixed text share them)."""


# A name defined twice in the functional API: Python binds the one imported last.
_TWICE_DEFINED_API = {
    "ivy/functional/__init__.py": """
        from .ivy.experimental import *
        from .ivy import *
        """,
    "ivy/functional/ivy/__init__.py": """
        from .linear_algebra import *
        """,
    "ivy/functional/ivy/experimental/__init__.py": """
        from .linear_algebra import *
        """,
    "ivy/functional/ivy/linear_algebra.py": """
        @handle_out_argument
        def eig_pair(x, /, *, out=None):
            return current_backend(x).eig_pair(x, out=out)
        """,
    "ivy/functional/ivy/experimental/linear_algebra.py": """
        def eig_pair(x, /, *, out=None):
            return current_backend(x).eig_pair(x)
        """,
}
"""The main module (with ``@handle_out_argument``) is star-imported last: it wins."""


class NativeOutFalse(Rule):
    """``support_native_out = False`` does not switch the native path off.

    Ivy's ``handle_out_argument`` tests ``hasattr(fn, "support_native_out")``: the attribute's
    presence, not its value. A function marked ``False`` (or ``None``, or ``0``) is therefore
    handed the native ``out`` buffer exactly like one marked ``True``. If the function does
    not forward it, ``out`` meets IVY002's fate (per the project's wrapper and backend:
    copied into, or rebound to the result's dtype). If it does forward it, the ``False``
    lies to every reader. (Our runtime reads the value, so the same code behaves differently
    under ivycheck's runtime and under Ivy.) The premise is read from the project: when its
    own ``handle_out_argument`` reads the attribute's value (``getattr(fn,
    "support_native_out", False)``) and never tests its presence, ``False`` means what it
    says and nothing is reported.

    A function that uses the buffer the attribute makes the wrapper hand over (forwards
    ``out`` to a native function that writes it, or reads its values: a scatter that starts
    from them) must keep the attribute: removing the line would change its results (or
    drop its native path). The fix writes ``True`` instead (the same presence, so the same
    behaviour); a loop over several functions is left to a human.

    The fix removes the statement (its part of a ``;`` line; the whole loop where setting
    the attribute is all a loop over functions does), which is what ``False`` was meant to
    say; an assignment with several targets is left to a human. If the function does
    forward ``out`` natively, IVY001 then asks for ``support_native_out = True``.

    When the functional-API counterpart has no ``handle_out_argument`` (neither decorator
    nor ``mixed_backend_wrappers["to_add"]``), nothing reads the attribute at all: the line
    is dead and misleading rather than harmful: the message says so and the finding's
    category is ``dead-code``, a warning (same fix).
    """

    CODE = "IVY015"
    LOCAL = True
    NAME = "native-out-false"
    MESSAGE = (
        "`support_native_out = False` acts as True (the wrapper tests presence); remove the line"
    )
    FIX_SAFETY = FixSafety.SAFE
    TRIGGERS = ("support_native_out",)
    NEEDS_INDEX = True
    VALID = (
        Example(
            """
            tan.support_native_out = True
            setattr(sin, "support_native_out", True)
            for fn in (tan, sin):
                fn.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            enabled = {}
            enabled.support_native = False
            setattr(tan, "support_native_dtype", False)
            if hasattr(tan, "support_native_out"):
                print(tan)
            """,
            path=NP,
        ),
        Example("tan.support_native_out = 00\nsin.support_native_out: bool = False\n", path=NP),
        Example('setattr(cos, "support_" "native_out", False)\n', path=NP),
        Example("if HAS_OUT: cos.support_native_out = False\n", path=NP),
        Example(
            """
            def mark(fn):
                fn.support_native_out = False
                return fn
            """,
            path=NP,
        ),
        Example(
            preamble=_NUMPY_TAN,
            code="""
            tan.support_native_out = False
            """,
            path=NP,
            files={
                "ivy/func_wrapper.py": """
                def handle_out_argument(fn):
                    native = getattr(fn, "support_native_out", False)

                    def _wrapped(*args, out=None, **kwargs):
                        if native and out is not None:
                            return fn(*args, out=out.data, **kwargs)
                        return fn(*args, **kwargs)

                    return _wrapped
                """,
            },
        ),
    )
    """Not a falsy setting the wrapper reads (``True``; another attribute or object;
    ``00``; an annotation; a name split over literals, which the attribute sites never
    read; a one-line body; a function's own code), and a project whose wrapper reads the
    value."""
    INVALID = (
        Example(
            _EIG + "\n\n    eig_pair.support_native_out = False\n",
            path="ivy/functional/backends/numpy/experimental/linear_algebra.py",
            files=_TWICE_DEFINED_API,
            message="`eig_pair.support_native_out = False` acts as `support_native_out = True`",
            expected=_EIG,
            line=5,
            column=1,
        ),
        Example(
            _SCATTER + "\n\n    scatter_sum.support_native_out = False\n",
            path=JAX,
            message="the function uses the buffer it is handed",
            expected=_SCATTER + "\n\n    scatter_sum.support_native_out = True\n",
            line=6,
            column=1,
        ),
        Example(
            _NUMPY_TAN + "tan.support_native_out = 0x0;  # off\n",
            path=NP,
            preamble="import numpy as np\n\n\n",
            message="`tan.support_native_out = 0x0` acts as",
            expected=_NUMPY_TAN + "tan.support_native_out = True;  # off\n",
            line=8,
            column=1,
        ),
        Example(
            _NUMPY_TAN + "for fn in (tan,):\n        fn.support_native_out = False\n",
            preamble="import numpy as np\n\n\n",
            path=NP,
            message="`fn.support_native_out = False` acts as `support_native_out = True`: Ivy",
            line=9,
            column=5,
        ),
        Example(
            _NUMPY_TAN + "x = tan.support_native_out = False\n",
            path=NP,
            message="`x = tan.support_native_out = False` acts as",
        ),
        Example(
            """
            def tan(x, *, out=None):
                return jnp.tan(x)


            tan.support_native_out = False
            """,
            path=JAX,
            expected="""
            def tan(x, *, out=None):
                return jnp.tan(x)
            """,
            message="remove the attribute",
        ),
        Example(
            """
            def tan(x, *, out=None):
                return np.tan(x)


            setattr(tan, "support_native_out", False)


            def sin(x):
                return x
            """,
            path=NP,
            expected="""
            def tan(x, *, out=None):
                return np.tan(x)


            def sin(x):
                return x
            """,
            message='`setattr(tan, "support_native_out", False)` acts as',
            line=5,
            column=1,
        ),
        Example(
            """
            import numpy as np

            for fn in (tan, sin):
                fn.support_native_out = False
            """,
            path=NP,
            expected="""
            import numpy as np
            """,
            line=4,
            column=5,
        ),
        Example(
            """
            def tan(x):
                return x


            tan.support_native_out = None  # not supported
            """,
            path=NP,
            expected="""
            def tan(x):
                return x
            """,
        ),
        Example(
            """
            x = 1
            tan.support_native_out = \\
                0
            """,
            path="ivy/functional/backends/torch/example.py",
            expected="""
            x = 1
            """,
            message="`tan.support_native_out = \\ 0` acts as",
            line=2,
            column=1,
        ),
        Example(
            """
            tan.support_native_dtype = True; tan.support_native_out = False ; x = 1
            """,
            path=NP,
            expected="""
            tan.support_native_dtype = True; x = 1
            """,
            message="`tan.support_native_out = False ` acts as",
            line=1,
            column=34,
        ),
        Example(
            preamble=_OPTIONAL_IMPORT,
            code="""
            if True:
                tan.support_native_out = False
                sin.x = 1
            """,
            path=NP,
            expected="""
            if True:
                sin.x = 1
            """,
            line=8,
            column=5,
        ),
        Example(
            """
            def cov(x, /, *, out=None):
                return np.cov(x)


            cov.support_native_out = False
            """,
            path=NP,
            files={
                "ivy/functional/ivy/statistical.py": """
                @handle_exceptions
                def cov(x, /, *, out=None):
                    return current_backend(x).cov(x)
                """,
            },
            expected="""
            def cov(x, /, *, out=None):
                return np.cov(x)
            """,
            message="is read by nothing",
            category=Category.DEAD_CODE,
            severity=Severity.WARNING,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Each module-level statement setting a falsy ``support_native_out`` (once, at
        its first function), spanned as the statement, unless the project's wrapper reads
        the attribute's value."""
        wrapper = project_wrapper(file.index)
        if wrapper is not None and wrapper[1].reads_value:
            return  # the project's own wrapper reads the value: False means False
        lines = Lines(file.source)
        flows = ModuleFlows(tree, lines, facts(tree).import_map, file.config.runtime_modules)
        seen: set[int] = set()
        for site in native_out_sites(tree, lines):
            if id(site.small) in seen or not site.falsy:
                continue
            seen.add(id(site.small))
            written = _written(site.small, lines)
            span = statement_span(lines, site.small)
            category = severity = None
            function = flows.functions.get(site.function)
            fix: tuple[str, str, tuple[int, int], int] | None = _removal(site, span)
            if out_wrapping(file.index, site.function) is OutWrapping.NOT_WRAPPED:
                message = _dead_message(written)
                category, severity = Category.DEAD_CODE, Severity.WARNING
            elif function is not None and _uses_the_buffer(flows, function):
                message = _uses_message(written)
                value = (site.value.lineno, lines.column(site.value.lineno, site.value.col_offset))
                fix = None if site.loop is not None else (WRITE_TRUE, "true", value, 0)
            else:
                message = _remove_message(written)
            description = fix[0] if fix is not None else None
            yield Finding(
                *span,
                message,
                description,
                severity=severity,
                category=category,
                fix_data=fix[1:] if fix is not None else None,
            )

    @classmethod
    def fix(cls, finding: Finding, file: FileUnderCheck) -> Edit | None:
        """``True`` in place of the value, or the statement removed (see :func:`_removal`)
        with libcst over it and its neighbours (:mod:`ivycheck.rules._site_removal`: the
        blank and comment lines above it go with it, as in the whole module)."""
        kind, at, index = finding.fix_data
        if kind == "true":
            return true_in_place(file.source, at) or true_with_libcst(file.source, file.tree, at)
        if kind == "loop":
            return remove_loop(file.source, file.tree, at)
        return remove(file.source, file.tree, (*at, index, False))


def true_with_libcst(source: str, tree: ast.Module, at: tuple[int, int]) -> Edit | None:
    """``True`` in place of the value's node (its parentheses with it), rendered by libcst:
    the reference :func:`~ivycheck.rules._text_fixes.true_in_place` matches."""
    import libcst as cst

    from ivycheck.checker.core.fix_render import replace_node

    true = cst.Name("True")  # False and None are names, 0 an integer
    return replace_node(source, tree, at, cst.Name, lambda _: true) or (
        replace_node(source, tree, at, cst.Integer, lambda _: true)
    )


REMOVE = "Remove the `support_native_out` attribute"
WRITE_TRUE = "Write `True`"


def _dead_message(written: str) -> str:
    return (
        f"`{quoted(written)}` is read by nothing (the API function has no "
        "`handle_out_argument`), and would act as `True` if it were: "
        "dead, misleading line; remove the attribute"
    )


def _uses_message(written: str) -> str:
    return (
        f"`{quoted(written)}` acts as `support_native_out = True`: Ivy's wrapper "
        "tests presence, not value, and the function uses the buffer it is "
        "handed (forwards `out` natively or reads its values); write `True`"
    )


def _remove_message(written: str) -> str:
    return (
        f"`{quoted(written)}` acts as `support_native_out = True`: Ivy's wrapper "
        "tests presence, not value; remove the attribute"
    )


_SEMICOLON = re.compile(r"[ \t]*;")


def _written(small: ast.stmt, lines: Lines) -> str:
    """The statement as the message quotes it: its text, and the blanks before a ``;``
    after it (the text of its small statement, stripped of blanks and the ``;``)."""
    end_line = small.end_lineno or small.lineno
    start = lines.column(small.lineno, small.col_offset)
    end = lines.column(end_line, small.end_col_offset or 0)
    text = "".join(lines.lines[small.lineno - 1 : end_line])
    last = lines.lines[end_line - 1]
    written = text[start : len(text) - len(last) + end]
    semicolon = _SEMICOLON.match(last, end)
    return written + semicolon.group()[:-1] if semicolon is not None else written


def _removal(
    site: NativeOutSite, span: tuple[int, int, int, int]
) -> tuple[str, str, tuple[int, int], int] | None:
    """(description, kind, position, index) of the fix removing the setting for every
    function it names: the statement (its part of a ``;`` line), or the whole loop when
    its body is that one statement; none from an assignment with several targets."""
    small = site.small
    if isinstance(small, ast.Assign) and len(small.targets) > 1:
        return None
    at = (span[0], span[1])
    if site.loop is not None and len(site.loop.body) == 1 and len(site.line) == 1:
        return REMOVE, "loop", at, 0
    return REMOVE, "line", at, site.line.index(small)


def _uses_the_buffer(flows: ModuleFlows, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The function forwards ``out`` to a native function that writes it, or reads its
    values: the buffer the attribute makes the wrapper hand over is used, so the
    attribute must stay (``True``: the same presence, the same behaviour)."""
    flow = flows.analyse(function)
    return flow.reads_data or bool(flow.native)
