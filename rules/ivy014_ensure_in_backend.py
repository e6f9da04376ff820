"""IVY014: ``inplace_update(..., ensure_in_backend=True)`` in JAX or TensorFlow backend code."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ivycheck.checker.rule_api import Example, FileUnderCheck, Finding, Rule
from ivycheck.rules._ast_calls import runtime_inplace_updates
from ivycheck.rules._ast_source import Lines, node_span

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
        Example(
            """
            import ivy
            ivy.inplace_update(x, v, ensure_in_backend=1)
            """,
            path=JAX,
        ),
        Example(
            """
            from ivy import inplace_update as iu
            iu(x, v, ensure_in_backend=True)
            """,
            path=TF,
        ),
        Example(
            """
            from mylib import inplace_update
            inplace_update(x, v, ensure_in_backend=True)
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
            line=2,
            column=26,
            message="raises on jax: its arrays cannot be updated natively; drop the flag",
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x, v, ensure_in_backend=True)
            """,
            path=TF,
            line=2,
            column=26,
            message="raises on tensorflow: only a tf.Variable can be updated natively, a tf.Tensor",
        ),
        Example(
            """
            from ivy import inplace_update
            inplace_update(out, ret, ensure_in_backend=True)
            """,
            path=JAX,
            line=2,
            column=26,
            message="raises on jax: its arrays cannot be updated natively; drop the flag",
        ),
        Example(
            """
            import ivy


            def tan(x, *, out=None):
                ret = tf.tan(x)
                return ivy.inplace_update(out, ret, ensure_in_backend=True)
            """,
            path=TF,
            line=6,
            column=41,
            message="raises on tensorflow: only a tf.Variable can be updated natively, a tf.Tensor",
        ),
        Example(
            """
            inplace_update(x, v, keep_input_dtype=True, ensure_in_backend=True)
            """,
            path=TF,
            line=1,
            column=45,
            message="raises on tensorflow: only a tf.Variable can be updated natively, a tf.Tensor",
        ),
        Example(
            """
            import ivycheck.runtime as ivy
            ivy.inplace_update(x, v, ensure_in_backend=True)
            """,
            path=JAX,
            line=2,
            column=26,
            message="raises on jax: its arrays cannot be updated natively; drop the flag",
        ),
        Example(
            """
            import ivy
            for x in xs:
                ivy.inplace_update(x, v, ensure_in_backend=True)
            """,
            path="ivy/functional/backends/jax/experimental/general.py",
            line=3,
            column=30,
            message="raises on jax: its arrays cannot be updated natively; drop the flag",
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x, "ü", v, ensure_in_backend=(True), **kw)
            """,
            path=JAX,
            line=2,
            column=31,
            message="raises on jax: its arrays cannot be updated natively; drop the flag",
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(
                x,
                v,
                ensure_in_backend  # é
                =
                True,
            )
            """,
            path=TF,
            line=5,
            column=5,
            message="raises on tensorflow: only a tf.Variable can be updated natively, a tf.Tensor",
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Each ``ensure_in_backend=True`` given to the runtime's ``inplace_update``,
        reported at the keyword argument (from its name to the value's end, parentheses of
        the value included), in code points."""
        lines: Lines | None = None
        for flag in _flags(tree, file):
            lines = lines or Lines(file.source)
            yield Finding(*_span(lines, flag), _message(file.backend))


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


def _flags(tree: ast.Module, file: FileUnderCheck) -> Iterator[ast.keyword]:
    """Every ``ensure_in_backend=True`` keyword of a call of the runtime's
    ``inplace_update``, each one (two in one call are two findings): only the literal
    ``True``, in or out of parentheses, since a variable may be ``False``."""
    for call in runtime_inplace_updates(tree, file):
        for k in call.keywords:
            value = k.value
            if (
                k.arg == "ensure_in_backend"
                and isinstance(value, ast.Constant)
                and value.value is True
            ):
                yield k


def _span(lines: Lines, flag: ast.keyword) -> tuple[int, int, int, int]:
    """Where ``flag`` stands; a parsed keyword always has an end."""
    span = node_span(lines, flag)
    assert span is not None, "a keyword of a parsed tree has an end"
    return span
