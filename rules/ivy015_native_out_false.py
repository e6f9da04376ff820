"""IVY015: ``support_native_out = False``, which Ivy's wrapper reads as ``True``."""

from __future__ import annotations

import ast

import libcst as cst

from ivycheck.checker.rule_api import (
    AstFinding,
    Category,
    Example,
    FileUnderCheck,
    FixSafety,
    Rule,
    Severity,
)
from ivycheck.rules._api_functions import OutWrapping, out_wrapping
from ivycheck.rules._ast_facts import facts, module_functions, takes_out
from ivycheck.rules._ast_outflow import plain_outflow
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._out_fate import project_wrapper
from ivycheck.rules._outflow import ModuleOutFlow, module_outflow
from ivycheck.rules._quote import quoted
from ivycheck.rules._support_native_out import ATTRIBUTE, attribute_sites, statement_removal

NP = "ivy/functional/backends/numpy/example.py"
JAX = "ivy/functional/backends/jax/example.py"

# Code examples share (``Example(preamble=...)`` puts it before the example's own).
_NUMPY_TAN = """
    def tan(x, *, out=None):
        return np.tan(x, out=out)


    """
"""A NumPy backend function that forwards ``out`` natively."""

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

    The fix removes the statement (or the function's entry in a loop over functions), which
    is what ``False`` was meant to say. If the function does forward ``out`` natively,
    IVY001 then asks for ``support_native_out = True``.

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
            preamble=_NUMPY_TAN,
            code="""
            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            def tan(x, *, out=None):
                return jnp.tan(x)
            """,
            path=JAX,
        ),
        Example(
            preamble=_NUMPY_TAN,
            code="""
            setattr(tan, "support_native_out", True)
            """,
            path=NP,
        ),
        Example(
            """
            for fn in (tan, sin):
                fn.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            enabled = {}
            enabled.support_native = False
            """,
            path=NP,
        ),
        Example(
            """
            def f(fn):
                fn.support_native_out = False
                return fn
            """,
            path=NP,
        ),
        Example(
            """
            setattr(tan, "support_native_dtype", False)
            """,
            path=NP,
        ),
        Example(
            """
            if hasattr(tan, 'support_native_out'):
                print(tan)
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
    INVALID = (
        Example(
            """
            def eig_pair(x, /, *, out=None):
                return np.linalg.eig(x)


            eig_pair.support_native_out = False
            """,
            path="ivy/functional/backends/numpy/experimental/linear_algebra.py",
            files=_TWICE_DEFINED_API,
            message="acts as `support_native_out = True`",
            expected="""
            def eig_pair(x, /, *, out=None):
                return np.linalg.eig(x)
            """,
        ),
        Example(
            """
            def scatter_sum(indices, updates, *, out=None):
                start = jnp.zeros(updates.shape) if out is None else out
                return start.at[indices].add(updates)


            scatter_sum.support_native_out = False
            """,
            path=JAX,
            message="the function uses the buffer it is handed",
            expected="""
            def scatter_sum(indices, updates, *, out=None):
                start = jnp.zeros(updates.shape) if out is None else out
                return start.at[indices].add(updates)


            scatter_sum.support_native_out = True
            """,
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
            tan.support_native_out = 0
            """,
            path="ivy/functional/backends/torch/example.py",
            expected="""
            x = 1
            """,
        ),
        Example(
            """
            tan.support_native_dtype = True; tan.support_native_out = False
            """,
            path=NP,
            expected="""
            tan.support_native_dtype = True
            """,
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
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """The check below on CPython's tree, over-approximated: ``False``, ``None`` or ``0``
        set as ``support_native_out`` anywhere in the file (by assignment or ``setattr``),
        unless the project's wrapper reads the attribute's value."""
        if not _falsy_attribute_set(tree):
            return False  # decided without other files (before the index exists)
        wrapper = project_wrapper(file.index)
        return wrapper is None or not wrapper[1].reads_value

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below for files whose falsy settings are all plain: each a module-level
        line of its own, ``name.support_native_out = <value>`` or ``setattr(name,
        "support_native_out", <value>)``, the value spelled as ``AttributeSite``'s falsy
        literals; and whose functions, where it matters (wrapped or maybe wrapped, taking
        ``out``), are plain (:mod:`ivycheck.rules._ast_outflow`), which tells whether they
        use the buffer. Then the statement is the finding's span, its text the message's,
        and a fix is offered. ``None`` when any falsy value is set another way (a loop, a
        block, several targets, ``;``) or a function that matters is not plain."""
        wrapper = project_wrapper(file.index)
        if wrapper is not None and wrapper[1].reads_value:
            return []  # as the check below: False means False
        found = facts(tree)
        # Every falsy value a module-level statement may set (a superset of the sites the
        # check below reports): each must be one of the plain lines read here.
        unread = {
            id(value)
            for values in found.attribute_sites(ATTRIBUTE).values()
            for value in values
            if _ast_falsy(value)
        }
        if not unread:
            return []
        lines = Lines(file.source)
        functions = module_functions(tree.body)
        defined = set(functions)
        findings: list[AstFinding] = []
        for statement in tree.body:
            site = _plain_site(statement)
            if site is None or id(site[1]) not in unread:
                continue
            name, value, attribute = site
            unread.discard(id(value))
            written = lines.alone(statement)
            if written is None or lines.segment(value) not in _FALSY_SPELLINGS:
                return None
            if attribute is not None and lines.segment(attribute) not in _ATTRIBUTE_STRINGS:
                return None
            message, description = _remove_message(written), REMOVE
            category = severity = None
            if out_wrapping(file.index, name) is OutWrapping.NOT_WRAPPED:
                message = _dead_message(written)
                category, severity = Category.DEAD_CODE, Severity.WARNING
            else:
                function = functions.get(name)
                if function is not None and takes_out(function):
                    flow = plain_outflow(
                        function, found.import_map, file.config.runtime_modules, defined
                    )
                    if flow is None:
                        return None
                    if flow.native:  # plain: out's values are never read
                        message, description = _uses_message(written), WRITE_TRUE
            findings.append(
                AstFinding(
                    statement.lineno,
                    0,
                    statement.lineno,
                    len(written),
                    message,
                    description,
                    severity=severity,
                    category=category,
                )
            )
        return None if unread else findings

    def visit_Module(self, node: cst.Module) -> None:
        wrapper = project_wrapper(self.context.index)
        if wrapper is not None and wrapper[1].reads_value:
            return  # the project's own wrapper reads the value: False means False
        flow = module_outflow(self.context)
        seen: set[int] = set()
        for site in attribute_sites(node):
            if not site.is_falsy_literal or id(site.small) in seen:
                continue
            seen.add(id(site.small))
            removal = statement_removal(site)
            target, replacement = removal if removal is not None else (None, None)
            written = self.context.code_for(site.small).strip().rstrip(";")
            category = severity = None
            description = REMOVE
            function = flow.functions.get(site.function)
            if out_wrapping(self.context.index, site.function) is OutWrapping.NOT_WRAPPED:
                message = _dead_message(written)
                category, severity = Category.DEAD_CODE, Severity.WARNING
            elif function is not None and _uses_the_buffer(flow, function):
                message = _uses_message(written)
                target = replacement = None
                description = WRITE_TRUE
                if isinstance(site.statement, cst.SimpleStatementLine):
                    target, replacement = site.value, cst.Name("True")
            else:
                message = _remove_message(written)
            self.report(
                site.small,
                message,
                replacement=replacement,
                fix_description=description,
                fix_target=target,
                category=category,
                severity=severity,
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


_FALSY_SPELLINGS = frozenset({"False", "None", "0", "0x0", "0b0", "0o0"})
"""``AttributeSite.is_falsy_literal``: the texts of the values it reads as falsy."""

_ATTRIBUTE_STRINGS = frozenset({f'"{ATTRIBUTE}"', f"'{ATTRIBUTE}'"})
"""The attribute's name as ``setattr``'s plain string (libcst evaluates any string)."""


def _plain_site(statement: ast.stmt) -> tuple[str, ast.expr, ast.expr | None] | None:
    """(function name, value, ``setattr``'s string or ``None``) of
    ``name.support_native_out = value`` (one target) or of ``setattr(name,
    "support_native_out", value)`` (three plain arguments) as a statement of its own: the
    sites ``attribute_sites`` reads from a module-level line."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if (
            isinstance(target, ast.Attribute)
            and target.attr == ATTRIBUTE
            and isinstance(target.value, ast.Name)
        ):
            return target.value.id, statement.value, None
        return None
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return None
    call = statement.value
    if call.keywords or not (isinstance(call.func, ast.Name) and call.func.id == "setattr"):
        return None
    if len(call.args) != 3:
        return None
    target, attribute, value = call.args
    if not isinstance(target, ast.Name) or isinstance(value, ast.Starred):
        return None
    if not (isinstance(attribute, ast.Constant) and attribute.value == ATTRIBUTE):
        return None
    return target.id, value, attribute


def _uses_the_buffer(flow: ModuleOutFlow, function: cst.FunctionDef) -> bool:
    """The function forwards ``out`` to a native function that writes it, or reads its
    values: the buffer the attribute makes the wrapper hand over is used, so the
    attribute must stay (``True``: the same presence, the same behaviour)."""
    analysis = flow.analyse(function)
    return analysis.reads_data or analysis.forwards_natively


def _falsy_attribute_set(tree: ast.Module) -> bool:
    """``False``, ``None`` or ``0`` set as ``support_native_out`` anywhere in the file, by
    assignment or ``setattr``."""
    found = facts(tree)
    for assignment in found.assignments:
        if (
            isinstance(assignment, ast.Assign)
            and _ast_falsy(assignment.value)
            and any(
                isinstance(t, ast.Attribute) and t.attr == ATTRIBUTE for t in assignment.targets
            )
        ):
            return True
    return any(
        isinstance(call.func, ast.Name)
        and call.func.id == "setattr"
        and len(call.args) == 3
        and isinstance(call.args[1], ast.Constant)
        and call.args[1].value == ATTRIBUTE
        and _ast_falsy(call.args[2])
        for call, _ in found.calls
    )


def _ast_falsy(value: ast.expr) -> bool:
    """``AttributeSite.is_falsy_literal`` on CPython's tree, over-approximated: ``False``,
    ``None`` or an integer zero however written."""
    if not isinstance(value, ast.Constant):
        return False
    constant = value.value
    return constant is None or constant is False or (type(constant) is int and constant == 0)
