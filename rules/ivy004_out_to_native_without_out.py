"""IVY004: ``out=`` passed to a native function that has no such parameter or rejects it."""

from __future__ import annotations

import ast
from collections.abc import Sequence

import libcst as cst

from ivycheck.checker.rule_api import (
    AstFinding,
    Example,
    FileUnderCheck,
    ProjectIndex,
    Rule,
    RuleContext,
    walk,
)
from ivycheck.rules import _native_out
from ivycheck.rules._api_functions import OutWrapping, out_wrapping
from ivycheck.rules._ast_calls import first_keyword_calls, is_inplace_update, rejects_out
from ivycheck.rules._ast_facts import FunctionNode, Scope, facts, set_attribute_names
from ivycheck.rules._ast_source import Lines, node_span
from ivycheck.rules._out_fate import COPIES, REBINDS, UNWRITTEN, path_fate
from ivycheck.rules._outflow import module_outflow
from ivycheck.rules._support_native_out import ATTRIBUTE
from ivycheck.rules._vocabulary import OUT, UseKind, is_versioned_helper

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"
TF = "ivy/functional/backends/tensorflow/example.py"
API = "ivy/functional/ivy/example.py"


_JAX_FLIP_ROWS = """
    import jax.numpy as jnp


    def flip_rows(x, /, *, out=None):
        return jnp.flip(x, 0, out=out)
    """
"""A JAX function handed ``out=``: what to do instead depends on the project's wrapper."""

_WRAPPER_WRITES_ONLY_NATIVELY = """
    def handle_out_argument(fn):
        native = hasattr(fn, "support_native_out")

        def _wrapped(*args, out=None, **kwargs):
            if native:
                return fn(*args, out=to_native(out), **kwargs)
            return fn(*args, **kwargs)

        return _wrapped
    """
"""Without the attribute, returns the result and never writes ``out``."""

_WRAPPER_UPDATES_UNREAD = """
    def handle_out_argument(fn):
        def _wrapped(*args, out=None, **kwargs):
            ret = fn(*args, **kwargs)
            if out is not None:
                out.data = reformat(ret)
            return out

        return _wrapped
    """
"""Gives ``out`` what a function of another module makes of the result: not read."""


class OutToNativeWithoutOut(Rule):
    """``out=`` given to a native function that cannot write into it.

    JAX arrays are immutable and TensorFlow has no ``out`` anywhere: every ``jax.*`` and
    ``tensorflow.*`` function either has no ``out`` parameter (``TypeError``) or declares
    one only to raise when it is given (``jax.numpy.add(x, y, out=o)``: "The 'out' argument
    to jnp.add is not supported"). NumPy and PyTorch accept ``out`` in many functions but not
    all: ``np.transpose``, ``np.reshape``, ``torch.transpose``, ``torch.flip`` take none. A
    function without the parameter raises ``TypeError`` on every call, ``out=None`` included;
    a JAX function that declares it raises as soon as an array is given, which is the ``out``
    path that the usual test (no ``out``) never takes.

    Drop ``out=`` from the call and let the wrapper write the result (``inplace_update``), or
    call a native function that does take ``out``. The advice says the wrapper writes ``out``
    only where the project's own ``handle_out_argument`` and update establish it for the
    function's path (with the attribute: the native path, unless the wrapper never takes it
    on this backend; without: the wrapper's path; see ``docs/out-fate.md``); where that path
    leaves ``out`` unwritten, it says to write ``out`` with ``ivy.inplace_update``; where the
    model cannot read it (or the call is outside a function), it says only "drop ``out=``". Which NumPy/PyTorch functions accept
    ``out`` is data generated from the installed libraries (``scripts/gen_native_out.py``);
    callables it does not know (a new function, a method, ``scipy``), and runtime functions
    (config ``runtime_modules``: ``ivy``, ``ivycheck.runtime``) are never flagged. Names are
    resolved through imports: ``jnp.tan``, ``jax.numpy.tan`` and ``from jax.numpy import tan``
    are one function.

    A function that *declares* ``out`` accepts ``out=None``, so the call is flagged only
    when the value can be an array. It is known to be ``None`` when it is the literal, a
    name last bound to ``None`` before the call (``out = None`` a few lines up), or the
    backend function's own ``out`` parameter when its functional-API counterpart is wrapped
    by ``handle_out_argument`` (decorator or ``mixed_backend_wrappers["to_add"]``) and the
    backend function has no ``support_native_out``: that wrapper then never passes ``out``
    to the backend, so ``jnp.nansum(x, out=out)`` there is only a dead ``out=None``. Such
    dead code is not reported (decided for issue 15: it cannot raise and it changes
    nothing, and the wrapper writes ``out``; an ``out=`` that can reach the call is the
    error this rule is about). A function that has no ``out`` parameter at all raises on
    ``out=None`` too, so it is flagged whatever the value.

    Versioned implementations (``ones_like_v_0p3p0_to_0p3p1``) are written for the library
    release their name gives, not the installed one, so they are not checked against
    today's signatures.
    """

    CODE = "IVY004"
    LOCAL = True
    NAME = "out-to-native-without-out"
    MESSAGE = "`out=` passed to a native function that does not accept it; drop it and let the wrapper write `out`"
    TRIGGERS = ("out=",)  # keyword arguments are written `out=` (formatters remove spaces)
    NEEDS_INDEX = True
    VALID = (
        Example(
            """
            import numpy as np


            def tan(x, *, out=None):
                return np.tan(x, out=out)
            """,
            path=NP,
        ),
        Example(
            """
            from torch import tan as ttan


            def tan(x, *, out=None):
                return ttan(x, out=out).to(x.dtype)
            """,
            path=TORCH,
        ),
        Example(
            """
            import jax.numpy as jnp


            def tan(x, *, out=None):
                return jnp.tan(x)
            """,
            path=JAX,
        ),
        Example(
            """
            from tensorflow import math as tfm


            def tan(x, *, out=None):
                return tfm.tan(x)
            """,
            path=TF,
        ),
        Example(
            """
            import ivy


            def f(x, *, out=None):
                return ivy.tan(x, out=out)
            """,
            path=JAX,
        ),
        Example(
            """
            import jax.numpy as jnp
            jnp.add(x, y, out=None)
            """,
            path=JAX,
        ),
        Example(
            """
            import scipy.special
            scipy.special.expit(x, out=out)
            """,
            path=NP,
        ),
        Example(
            """
            def f(x, *, out=None):
                return x.sum(out=out)
            """,
            path=TORCH,
        ),
        Example(
            """
            def tan(x, *, out=None):
                return x


            def sin(x, *, out=None):
                return tan(x, out=out)
            """,
            path=JAX,
        ),
        Example(
            """
            import numpy as np
            np.sum(x, axis=0, out=out)
            """,
            path=NP,
        ),
        Example(
            """
            import torch
            torch.linalg.solve(a, b, out=out)
            """,
            path=TORCH,
        ),
        Example(
            """
            import numpy as np
            np.transpose(x)
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np
            np.tan(x, out=None)
            """,
            path=NP,
        ),
        Example(
            """
            from jax._src.numpy import reductions
            reductions.sum(a, axis, out=out)
            """,
            path=JAX,
        ),
        Example(
            """
            import jax.numpy as jnp


            def nanmedian(x, /, *, overwrite_input=False, out=None):
                if overwrite_input:
                    x = x.copy()
                    out = None
                    return jnp.nanmedian(x, out=out)
                return jnp.nanmedian(x)
            """,
            path=JAX,
        ),
        Example(
            """
            import jax.numpy as jnp


            def nansum(x, /, *, axis=None, out=None):
                return jnp.nansum(x, axis=axis, out=out)
            """,
            path=JAX,
            files={
                API: """
                @handle_out_argument
                def nansum(x, /, *, axis=None, out=None):
                    return current_backend(x).nansum(x, axis=axis, out=out)
                """,
            },
        ),
        Example(
            """
            import jax.numpy as jnp


            def var(x, /, *, out=None):
                return jnp.var(x, out=out)
            """,
            path=JAX,
            files={
                API: """
                def var(x, /, *, out=None):
                    return current_backend(x).var(x, out=out)


                var.mixed_backend_wrappers = {"to_add": ("handle_out_argument",)}
                """,
            },
        ),
        Example(
            """
            import torch


            def ones_like_v_0p3p0_to_0p3p1(x, /, *, out=None):
                return torch.ones_like(x, out=out)
            """,
            path=TORCH,
        ),
    )
    INVALID = (
        Example(
            _JAX_FLIP_ROWS,
            path=JAX,
            files={"ivy/func_wrapper.py": _WRAPPER_WRITES_ONLY_NATIVELY},
            message=(
                "`jax.numpy.flip` takes no `out` (jax has no working `out` anywhere); drop "
                "`out=` and write `out` with `ivy.inplace_update(out, ret)` (the project's "
                "wrapper returns the result without writing `out`)"
            ),
            line=5,
            column=27,
        ),
        Example(
            _JAX_FLIP_ROWS,
            path=JAX,
            files={"ivy/func_wrapper.py": _WRAPPER_UPDATES_UNREAD},
            message="(jax has no working `out` anywhere); drop `out=`",
            line=5,
            column=27,
        ),
        Example(
            _JAX_FLIP_ROWS,
            path=JAX,
            message="drop `out=` and let the wrapper write `out`",
            line=5,
            column=27,
        ),
        Example(
            """
            import jax.numpy as jnp


            def tan(x, *, out=None):
                return jnp.tan(x, out=out)
            """,
            path=JAX,
        ),
        Example(
            """
            from tensorflow import math as tfm


            def tan(x, *, out=None):
                return tfm.tan(x, out=out)
            """,
            path=TF,
        ),
        Example(
            """
            import numpy as np


            def permute_dims(x, axes, *, out=None):
                return np.transpose(x, axes, out=out)
            """,
            path=NP,
        ),
        Example(
            """
            import torch


            def swapaxes(x, a, b, *, out=None):
                return torch.transpose(x, a, b, out=out)
            """,
            path=TORCH,
        ),
        Example(
            """
            import jax


            def add(x, y, *, out=None):
                return jax.numpy.add(x, y, out=out)
            """,
            path=JAX,
        ),
        Example(
            """
            import tensorflow as tf
            y = tf.experimental.numpy.tan(x, out=o)
            """,
            path=TF,
        ),
        Example(
            """
            from jax.numpy import sin


            def f(x, *, out=None):
                o = out
                return sin(x, out=o)
            """,
            path=JAX,
        ),
        Example(
            """
            import numpy
            numpy.reshape(x, (2, 3), out=buf)
            """,
        ),
        Example(
            """
            import jax.numpy as jnp
            jnp.tan(x, out=None)
            """,
            path=JAX,
        ),
        Example(
            """
            import torch
            torch.flip(x, (0,), out=None)
            """,
            path=TORCH,
        ),
        Example(
            """
            import jax.numpy as jnp


            def nansum(x, /, *, out=None):
                return jnp.nansum(x, out=out)
            """,
            path=JAX,
            files={
                API: """
                def nansum(x, /, *, out=None):
                    return current_backend(x).nansum(x, out=out)
                """,
            },
        ),
        Example(
            """
            import jax.numpy as jnp


            def nansum(x, /, *, out=None):
                return jnp.nansum(x, out=out)


            nansum.support_native_out = True
            """,
            path=JAX,
            files={
                API: """
                @handle_out_argument
                def nansum(x, /, *, out=None):
                    return current_backend(x).nansum(x, out=out)
                """,
            },
        ),
        Example(
            """
            import jax.numpy as jnp


            def nanmedian(x, /, *, out=None):
                if x.ndim:
                    out = None
                return jnp.nanmedian(x, out=out)
            """,
            path=JAX,
        ),
        Example(
            """
            import torch


            def ones_like(x, /, *, out=None):
                return torch.ones_like(x, out=out)
            """,
            path=TORCH,
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """The check below on CPython's tree: an ``out=`` given to a native function that
        rejects it, outside a versioned helper. Over-approximated: a name given ``out=``
        is taken for an array unless it is the literal ``None``."""
        declares = _native_out.load().declares
        runtime = file.config.runtime_modules
        found = facts(tree)
        for call, out, enclosing in first_keyword_calls(tree, OUT):
            if is_inplace_update(call.func):
                continue
            if enclosing and is_versioned_helper(enclosing[0].name):
                continue
            # What the scope resolves to is one of the file's imports, or nothing: when no
            # import of the callee's name rejects `out`, its scope need not be read.
            possible = found.any_scope_imports.qualify(call.func)
            if not any(rejects_out(name, runtime) for name in possible):
                continue
            qualified = found.import_map.qualify(call.func, enclosing)
            if qualified is None or not rejects_out(qualified, runtime):
                continue
            none = isinstance(out.value, ast.Constant) and out.value.value is None
            if not (none and qualified in declares):
                return True
        return False

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below on CPython's tree, which holds all it reads: the calls given
        ``out=`` with the functions around them (the import scope), the callee's qualified
        name, and the statements before the call for whether ``out`` is known to be
        ``None``. ``None`` only where that last question needs what CPython's tree does not
        keep exactly: whether an attribute site libcst reads names the function (set in a
        block or a loop)."""
        runtime = file.config.runtime_modules
        found = facts(tree)
        lines: Lines | None = None
        findings: list[AstFinding] = []
        for call, out, enclosing in first_keyword_calls(tree, OUT):
            if is_inplace_update(call.func):
                continue  # the wrapper's own update: never rejected
            qualified = found.import_map.qualify(call.func, enclosing)
            if qualified is None or not rejects_out(qualified, runtime):
                continue
            if enclosing and is_versioned_helper(enclosing[0].name):
                continue
            lines = lines or Lines(file.source)
            declared = qualified in _native_out.load().declares
            if declared:
                none = _ast_known_none(out.value, call, enclosing, tree, file, lines)
                if none is None:
                    return None
                if none:
                    continue
            span = node_span(lines, out)
            if span is None:
                return None
            literal_none = isinstance(out.value, ast.Constant) and out.value.value is None
            attributed = _ast_attributed(enclosing, tree)
            if isinstance(attributed, _Undecided):
                return None
            in_backend = file.part.startswith("backend:")
            backend = file.part.removeprefix("backend:") if in_backend else ""
            advice = _advice(file.index, backend, attributed)
            findings.append(AstFinding(*span, _message(qualified, declared, literal_none, advice)))
        return findings

    def visit_Call(self, node: cst.Call) -> None:
        out = next(
            (arg for arg in node.args if arg.keyword is not None and arg.keyword.value == "out"),
            None,
        )
        if out is None:
            return
        flow = module_outflow(self.context)
        kind, qualified = flow.classify(node)
        if kind is not UseKind.REJECTED or qualified is None:
            return
        stack = self.context.function_stack
        if stack and is_versioned_helper(stack[0].name.value):
            return
        declared = qualified in _native_out.load().declares
        if declared and _known_none(out.value, node, self.context):
            return  # a declared `out` that is given None is accepted
        literal_none = isinstance(out.value, cst.Name) and out.value.value == "None"
        attributed = stack[0].name.value in flow.attributes if stack else None
        advice = _advice(self.context.index, self.context.backend or "", attributed)
        self.report(out, _message(qualified, declared, literal_none, advice))


_LET_THE_WRAPPER = "drop `out=` and let the wrapper write `out`"


class _Undecided:
    """Whether the function carries the attribute is left to libcst's attribute sites."""


_UNDECIDED = _Undecided()


def _advice(index: ProjectIndex, backend: str, attributed: bool | None) -> str:
    """What to do instead of ``out=``, claiming what the wrapper then does only where the
    project's wrapper establishes it: the function's path (``native`` with the attribute,
    unless the wrapper never takes it on this backend; ``wrapper`` without) writes ``out``
    (copies or rebinds), or leaves it unwritten (then the function must write it itself).
    Unknown, or a call outside a function of a backend: only "drop ``out=``". Without a
    backend (an API file) the rule's words stay."""
    if not backend:
        return _LET_THE_WRAPPER
    if attributed is None:
        return "drop `out=`"
    fate = path_fate(index, backend, "native" if attributed else "wrapper", False, same_dtype=False)
    if fate.never_handed:
        fate = path_fate(index, backend, "wrapper", False, same_dtype=False)
    if fate.kind in (COPIES, REBINDS):
        return _LET_THE_WRAPPER
    if fate.kind == UNWRITTEN:
        return (
            "drop `out=` and write `out` with `ivy.inplace_update(out, ret)` (the project's "
            "wrapper returns the result without writing `out`)"
        )
    return "drop `out=`"


def _ast_attributed(enclosing: Scope, tree: ast.Module) -> bool | _Undecided | None:
    """The libcst check's "the outermost function carries the attribute", or
    :data:`_UNDECIDED` where only libcst's attribute sites tell (a block, a loop)."""
    if not enclosing:
        return None
    name = enclosing[0].name
    if name in set_attribute_names(tree, ATTRIBUTE):
        return True
    if name in facts(tree).attribute_sites(ATTRIBUTE):
        return _UNDECIDED
    return False


def _message(qualified: str, declared: bool, literal_none: bool, advice: str) -> str:
    """Why ``qualified`` refuses the ``out=`` it is given (``literal_none``: ``out=None``)."""
    library = _native_out.native_library(qualified)
    if not declared and literal_none:
        why = "has no `out` parameter (TypeError on every call, even with `out=None`)"
    elif _native_out.jax_declares_out(qualified):
        why = "declares `out` only to raise when it is given (JAX arrays are immutable)"
    elif library in ("jax", "tensorflow"):
        why = f"takes no `out` ({library} has no working `out` anywhere)"
    else:
        why = "takes no `out` (TypeError at run time)"
    return f"`{qualified}` {why}; {advice}"


def _known_none(value: cst.BaseExpression, call: cst.Call, context: RuleContext) -> bool:
    """Whether ``value``, an argument of ``call``, is ``None`` whenever the call runs."""
    if not isinstance(value, cst.Name):
        return False
    if value.value == "None":
        return True
    stack = context.function_stack
    if not stack:
        return False
    bound = _binding_before(stack[-1].body.body, call, value.value, _PARAMETER)
    if bound is _NONE:
        return True
    if bound is not _PARAMETER or value.value != OUT or len(stack) != 1:
        return False
    function = stack[0]
    flow = module_outflow(context)
    return (
        function.name.value not in flow.attributes
        and out_wrapping(context.index, function.name.value) is OutWrapping.WRAPPED
    )


_PARAMETER, _NONE, _OTHER = "parameter", "none", "other"
"""What a name holds before a statement: the value it came in with, ``None``, or unknown."""


def _binding_before(
    statements: Sequence[cst.BaseStatement | cst.BaseSmallStatement],
    call: cst.Call,
    name: str,
    state: str,
) -> str:
    """What ``name`` holds when ``call`` runs, following the straight-line statements of the
    block that leads to it (a branch entered on the way inherits the state before it)."""
    for statement in statements:
        if _contains(statement, call):
            blocks = [child for child in _blocks_of(statement) if _contains(child, call)]
            if not blocks:
                return state
            return _binding_before(blocks[0], call, name, state)
        state = _after(statement, name, state)
    return _OTHER


def _blocks_of(
    statement: cst.CSTNode,
) -> list[Sequence[cst.BaseStatement | cst.BaseSmallStatement]]:
    if isinstance(statement, cst.SimpleStatementLine):
        return [statement.body]
    found: list[Sequence[cst.BaseStatement | cst.BaseSmallStatement]] = []
    for child in statement.children:
        if isinstance(child, cst.IndentedBlock | cst.SimpleStatementSuite):
            found.append(child.body)
        elif isinstance(child, cst.Else | cst.Finally | cst.If | cst.ExceptHandler):
            found.extend(_blocks_of(child))
    return found


def _after(statement: cst.CSTNode, name: str, state: str) -> str:
    """The state of ``name`` after ``statement``: ``None`` only after ``name = None``."""
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if (
            isinstance(small, cst.Assign)
            and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)
            and small.targets[0].target.value == name
        ):
            value = small.value
            return _NONE if isinstance(value, cst.Name) and value.value == "None" else _OTHER
    return _OTHER if _binds(statement, name) else state


def _binds(node: cst.CSTNode, name: str) -> bool:
    """Whether ``node`` may bind ``name`` (any assignment target, loop variable, ``as``...)."""
    found = False

    class Names(cst.CSTVisitor):
        def visit_Name(self, inner: cst.Name) -> None:
            nonlocal found
            found = found or inner.value == name

    class Targets(cst.CSTVisitor):
        def visit_AssignTarget(self, inner: cst.AssignTarget) -> None:
            walk(inner.target, Names())

        def visit_AnnAssign(self, inner: cst.AnnAssign) -> None:
            walk(inner.target, Names())

        def visit_AugAssign(self, inner: cst.AugAssign) -> None:
            walk(inner.target, Names())

        def visit_For(self, inner: cst.For) -> None:
            walk(inner.target, Names())

        def visit_AsName(self, inner: cst.AsName) -> None:
            walk(inner.name, Names())

        def visit_NamedExpr(self, inner: cst.NamedExpr) -> None:
            walk(inner.target, Names())

    walk(node, Targets())
    return found


def _contains(node: cst.CSTNode | Sequence[cst.CSTNode], target: cst.CSTNode) -> bool:
    found = False

    class Find(cst.CSTVisitor):
        def on_visit(self, inner: cst.CSTNode) -> bool:
            nonlocal found
            found = found or inner is target
            return not found

    for part in node if isinstance(node, Sequence) else (node,):
        walk(part, Find())
    return found


# The same on CPython's tree (``find_on_ast``) ------------------------------------------


def _ast_known_none(
    value: ast.expr,
    call: ast.Call,
    enclosing: Scope,
    tree: ast.Module,
    file: FileUnderCheck,
    lines: Lines,
) -> bool | None:
    """:func:`_known_none` on CPython's tree, or ``None`` when it cannot tell: a line
    continuation where libcst's grouping of statements into lines matters, or the function
    may carry the attribute through a site libcst reads and CPython's tree only
    over-approximates (set in a module-level block or loop)."""
    if isinstance(value, ast.Constant) and value.value is None:
        return True  # libcst: the name `None`
    if not isinstance(value, ast.Name) or not enclosing:
        return False  # `True`/`False` are constants here, names there: never bound to None
    bound = _ast_binding_before(enclosing[-1].body, call, value.id, _PARAMETER, lines)
    if bound is None:
        return None
    if bound is _NONE:
        return True
    if bound is not _PARAMETER or value.id != OUT or len(enclosing) != 1:
        return False
    name = enclosing[0].name
    if name in set_attribute_names(tree, ATTRIBUTE):
        return False  # surely one of libcst's attribute sites
    if name in facts(tree).attribute_sites(ATTRIBUTE):
        return None  # maybe one (a block, a loop, another shape): libcst decides
    return out_wrapping(file.index, name) is OutWrapping.WRAPPED


def _ast_binding_before(
    statements: Sequence[ast.stmt], call: ast.Call, name: str, state: str, lines: Lines
) -> str | None:
    """:func:`_binding_before` on CPython's tree. libcst's statement lines group the
    statements a ``;`` joins (and a one-line block's); CPython lists them one by one, and
    each of those is read here as libcst reads a small statement inside a line: only
    whether it binds ``name``. ``None`` when the text leaves that grouping unclear."""
    for statement in statements:
        if _holds(statement, call):
            blocks = [block for block in _ast_blocks(statement) if _holds_any(block, call)]
            if not blocks:
                return state
            return _ast_binding_before(blocks[0], call, name, state, lines)
        after = _ast_after(statement, name, state, lines)
        if after is None:
            return None
        state = after
    return _OTHER


def _ast_blocks(statement: ast.stmt) -> list[list[ast.stmt]]:
    """The blocks :func:`_blocks_of` descends into, in the same order: a compound
    statement's bodies, ``else``/``elif``/``finally`` and ``except`` handlers (not
    ``except*`` handlers, not ``match`` cases, which libcst's search does not enter)."""
    if isinstance(statement, ast.If | ast.For | ast.AsyncFor | ast.While):
        return [statement.body, statement.orelse]
    if isinstance(statement, ast.With | ast.AsyncWith):
        return [statement.body]
    if isinstance(statement, FunctionNode | ast.ClassDef):
        return [statement.body]
    if isinstance(statement, ast.Try):
        handlers = [handler.body for handler in statement.handlers]
        return [statement.body, *handlers, statement.orelse, statement.finalbody]
    if isinstance(statement, ast.TryStar):
        return [statement.body, statement.orelse, statement.finalbody]
    return []


def _ast_after(statement: ast.stmt, name: str, state: str, lines: Lines) -> str | None:
    """:func:`_after` on CPython's tree: ``None`` only after ``name = None`` standing as a
    statement line of its own (libcst's one-statement line); the answer ``None`` when the
    text does not tell whether it does."""
    if (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and statement.targets[0].id == name
    ):
        if not (isinstance(statement.value, ast.Constant) and statement.value.value is None):
            return _OTHER
        own_line = lines.own_line(statement)
        if own_line is None:
            return None
        return _NONE if own_line else _OTHER
    return _OTHER if _ast_binds(statement, name) else state


def _ast_binds(statement: ast.stmt, name: str) -> bool:
    """:func:`_binds` on CPython's tree: ``name`` among the identifiers (names, attribute
    names, keyword names, lambda parameters, as libcst's ``Name`` nodes) of an assignment
    target, a loop's target, a walrus's target, or an ``as`` name (import, ``with``,
    ``except``), anywhere in the statement. A comprehension's ``for`` does not count (libcst
    visits no ``CompFor``), nor a definition's name."""
    for node in ast.walk(statement):
        if isinstance(node, ast.alias | ast.ExceptHandler):
            if (node.asname if isinstance(node, ast.alias) else node.name) == name:
                return True
            continue
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, _TARGETED):
            targets = [node.target]
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets = [node.optional_vars]
        if any(name in _identifiers(target) for target in targets):
            return True
    return False


_TARGETED = (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr)
"""Nodes whose ``target`` binds (libcst: ``AnnAssign``, ``AugAssign``, ``For``,
``NamedExpr``)."""


def _identifiers(expression: ast.expr) -> set[str]:
    """What libcst's ``Name`` nodes within an expression hold."""
    found: set[str] = set()
    for node in ast.walk(expression):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.keyword | ast.arg) and node.arg is not None:
            found.add(node.arg)  # a keyword's name (not `**`), a lambda's parameter
    return found


def _holds(node: ast.AST, target: ast.AST) -> bool:
    return any(inner is target for inner in ast.walk(node))


def _holds_any(block: Sequence[ast.stmt], target: ast.AST) -> bool:
    return any(_holds(statement, target) for statement in block)
