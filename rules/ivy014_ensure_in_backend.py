"""IVY014: ``inplace_update(..., ensure_in_backend=True)`` in JAX or TensorFlow backend code."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker.rule import Example, Rule
from ivycheck.rules._outflow import is_runtime_inplace_update, module_outflow

JAX = "ivy/functional/backends/jax/example.py"
TF = "ivy/functional/backends/tensorflow/example.py"


class EnsureInBackend(Rule):
    """``ensure_in_backend=True`` always raises on JAX and TensorFlow.

    ``inplace_update(x, val, ensure_in_backend=True)`` promises that the *native* buffer is
    updated, so that every other holder of it sees the write. JAX arrays are immutable and
    TensorFlow tensors (other than ``tf.Variable``) too: there the update can only rebind the
    ``Array``, so the call raises every time it runs. In backend code of those two
    frameworks the flag is therefore a guaranteed exception on that path; drop it and rebind
    (``ensure_in_backend=False``, the default) or restructure so that no native update is
    needed.

    NumPy and PyTorch can update natively, so the flag is fine in their backends and in
    backend-independent code.
    """

    CODE = "IVY014"
    NAME = "ensure-in-backend"
    MESSAGE = "`ensure_in_backend=True` always raises on JAX/TensorFlow; drop it (arrays there are immutable)"
    PARTS = frozenset({"backend:jax", "backend:tensorflow"})
    TRIGGERS = ("ensure_in_backend",)
    VALID = (
        Example("import ivy\nivy.inplace_update(x, v)\n", path=JAX),
        Example("import ivy\nivy.inplace_update(x, v, ensure_in_backend=False)\n", path=TF),
        Example(
            "import ivy\nivy.inplace_update(x, v, ensure_in_backend=True)\n",
            path="ivy/functional/backends/numpy/example.py",
        ),
        Example(
            "import ivy\nivy.inplace_update(x, v, ensure_in_backend=True)\n",
            path="ivy/functional/backends/torch/example.py",
        ),
        Example("import ivy\nivy.inplace_update(x, v, ensure_in_backend=True)\n"),
        Example("def f(x, v):\n    return x.assign(v, ensure_in_backend=True)\n", path=TF),
        Example(
            "def inplace_update(x, val, *, ensure_in_backend=False):\n"
            "    if ensure_in_backend:\n        raise ValueError\n",
            path=JAX,
        ),
        Example("import ivy\nivy.inplace_update(x, v, ensure_in_backend=flag)\n", path=JAX),
    )
    INVALID = (
        Example("import ivy\nivy.inplace_update(x, v, ensure_in_backend=True)\n", path=JAX),
        Example("import ivy\nivy.inplace_update(x, v, ensure_in_backend=True)\n", path=TF),
        Example(
            "from ivy import inplace_update\ninplace_update(out, ret, ensure_in_backend=True)\n",
            path=JAX,
        ),
        Example(
            "import ivy\n\n\ndef tan(x, *, out=None):\n    ret = tf.tan(x)\n"
            "    return ivy.inplace_update(out, ret, ensure_in_backend=True)\n",
            path=TF,
        ),
        Example("inplace_update(x, v, keep_input_dtype=True, ensure_in_backend=True)\n", path=TF),
        Example(
            "import ivycheck.runtime as ivy\nivy.inplace_update(x, v, ensure_in_backend=True)\n",
            path=JAX,
        ),
        Example(
            "import ivy\nfor x in xs:\n    ivy.inplace_update(x, v, ensure_in_backend=True)\n",
            path="ivy/functional/backends/jax/experimental/general.py",
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        for arg in node.args:
            if (
                arg.keyword is not None
                and arg.keyword.value == "ensure_in_backend"
                and isinstance(arg.value, cst.Name)
                and arg.value.value == "True"
                and is_runtime_inplace_update(node, module_outflow(self.context))
            ):
                self.report(
                    arg,
                    f"`ensure_in_backend=True` always raises on {self.context.backend}: its "
                    "arrays cannot be updated natively; drop the flag",
                )
