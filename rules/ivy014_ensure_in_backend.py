"""IVY014: ``inplace_update(..., ensure_in_backend=True)`` in JAX or TensorFlow backend code."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

from ivycheck.checker.rule_api import AstFinding, Example, FileUnderCheck, Rule
from ivycheck.rules._ast_calls import runtime_inplace_updates
from ivycheck.rules._ast_source import Lines, node_span
from ivycheck.rules._names import is_runtime_inplace_update

JAX = "ivy/functional/backends/jax/example.py"
TF = "ivy/functional/backends/tensorflow/example.py"


class EnsureInBackend(Rule):
    """``ensure_in_backend=True`` raises on JAX, and on TensorFlow for anything but a Variable.

    ``inplace_update(x, val, ensure_in_backend=True)`` promises that the *native* buffer is
    updated, so that every other holder of it sees the write. JAX arrays are immutable: there
    the update can only rebind the ``Array``, so the call raises every time it runs.
    TensorFlow can assign only to a ``tf.Variable``; for the ``tf.Tensor`` that backend
    functions compute and receive (``out`` included) it raises too. In backend code of those
    two frameworks the flag is therefore an exception waiting on that path; drop it and let
    the update rebind (``ensure_in_backend=False``, the default), or restructure so that no
    native update is needed.

    NumPy and PyTorch can update natively, so the flag is fine in their backends and in
    backend-independent code. Only a literal ``True`` is judged (a variable may be
    ``False``), and only calls of the runtime's ``inplace_update`` (config
    ``runtime_modules``), not methods.
    """

    CODE = "IVY014"
    LOCAL = True
    NAME = "ensure-in-backend"
    MESSAGE = (
        "`ensure_in_backend=True` raises on JAX (and TensorFlow, unless a tf.Variable); drop it"
    )
    PARTS = frozenset({"backend:jax", "backend:tensorflow"})
    TRIGGERS = ("ensure_in_backend",)
    VALID = (
        Example(
            """
            import ivy
            ivy.inplace_update(x, v)
            """,
            path=JAX,
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x, v, ensure_in_backend=False)
            """,
            path=TF,
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x, v, ensure_in_backend=True)
            """,
            path="ivy/functional/backends/numpy/example.py",
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x, v, ensure_in_backend=True)
            """,
            path="ivy/functional/backends/torch/example.py",
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x, v, ensure_in_backend=True)
            """,
        ),
        Example(
            """
            def f(x, v):
                return x.assign(v, ensure_in_backend=True)
            """,
            path=TF,
        ),
        Example(
            """
            def inplace_update(x, val, *, ensure_in_backend=False):
                if ensure_in_backend:
                    raise ValueError
            """,
            path=JAX,
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x, v, ensure_in_backend=flag)
            """,
            path=JAX,
        ),
    )
    INVALID = (
        Example(
            """
            import ivy
            ivy.inplace_update(x, v, ensure_in_backend=True)
            """,
            path=JAX,
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x, v, ensure_in_backend=True)
            """,
            path=TF,
        ),
        Example(
            """
            from ivy import inplace_update
            inplace_update(out, ret, ensure_in_backend=True)
            """,
            path=JAX,
        ),
        Example(
            """
            import ivy


            def tan(x, *, out=None):
                ret = tf.tan(x)
                return ivy.inplace_update(out, ret, ensure_in_backend=True)
            """,
            path=TF,
        ),
        Example(
            """
            inplace_update(x, v, keep_input_dtype=True, ensure_in_backend=True)
            """,
            path=TF,
        ),
        Example(
            """
            import ivycheck.runtime as ivy
            ivy.inplace_update(x, v, ensure_in_backend=True)
            """,
            path=JAX,
        ),
        Example(
            """
            import ivy
            for x in xs:
                ivy.inplace_update(x, v, ensure_in_backend=True)
            """,
            path="ivy/functional/backends/jax/experimental/general.py",
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """The check below on CPython's tree, exactly: ``ensure_in_backend=True`` given to
        the runtime's ``inplace_update``."""
        return next(_ast_flags(tree, file), None) is not None

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below on CPython's tree: the finding spans the keyword argument, which
        CPython's ``keyword`` spans as libcst's ``Arg`` (from the name to the value's end,
        parentheses of the value included), in code points."""
        found = list(_ast_flags(tree, file))
        if not found:
            return []
        lines = Lines(file.source)
        message = _message(file.backend)
        findings: list[AstFinding] = []
        for flag in found:
            span = node_span(lines, flag)
            if span is None:
                return None  # (a parsed tree always has one)
            findings.append(AstFinding(*span, message))
        return findings

    def visit_Call(self, node: cst.Call) -> None:
        for arg in node.args:
            if (
                arg.keyword is not None
                and arg.keyword.value == "ensure_in_backend"
                and isinstance(arg.value, cst.Name)
                and arg.value.value == "True"
                and is_runtime_inplace_update(node, self.context)
            ):
                self.report(arg, _message(self.context.backend))


def _message(backend: str | None) -> str:
    """The finding in the files of ``backend`` (the rule looks only at JAX and
    TensorFlow's): why the flag raises there."""
    return (
        f"`ensure_in_backend=True` raises on {backend}: "
        + (
            "its arrays cannot be updated natively"
            if backend == "jax"
            else "only a tf.Variable can be updated natively, a tf.Tensor cannot"
        )
        + "; drop the flag"
    )


def _ast_flags(tree: ast.Module, file: FileUnderCheck) -> Iterator[ast.keyword]:
    """Every ``ensure_in_backend=True`` keyword of a call of the runtime's
    ``inplace_update`` (each one, as the libcst check reports each): ``True`` is a constant
    on CPython's tree, the name ``True`` on libcst's, in or out of parentheses."""
    for call in runtime_inplace_updates(tree, file):
        for k in call.keywords:
            value = k.value
            if (
                k.arg == "ensure_in_backend"
                and isinstance(value, ast.Constant)
                and value.value is True
            ):
                yield k
