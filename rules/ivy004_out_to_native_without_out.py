"""IVY004: ``out=`` passed to a native function that has no such parameter or rejects it."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker.rule_api import Example, Rule
from ivycheck.rules import _native_out
from ivycheck.rules._outflow import UseKind, module_outflow

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"
TF = "ivy/functional/backends/tensorflow/example.py"


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
    call a native function that does take ``out``. Which NumPy/PyTorch functions accept
    ``out`` is data generated from the installed libraries (``scripts/gen_native_out.py``);
    callables it does not know (a new function, a method, ``scipy``), and runtime functions
    (config ``runtime_modules``: ``ivy``, ``ivycheck.runtime``) are never flagged. Names are
    resolved through imports: ``jnp.tan``, ``jax.numpy.tan`` and ``from jax.numpy import tan``
    are one function.
    """

    CODE = "IVY004"
    LOCAL = True
    NAME = "out-to-native-without-out"
    MESSAGE = "`out=` passed to a native function that does not accept it; drop it and let the wrapper write `out`"
    TRIGGERS = ("out=",)  # keyword arguments are written `out=` (formatters remove spaces)
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
    )
    INVALID = (
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
    )

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
        declared = qualified in _native_out.load().declares
        if declared and isinstance(out.value, cst.Name) and out.value.value == "None":
            return  # a declared `out` that is given None is accepted
        library = _native_out.native_library(qualified)
        if not declared and isinstance(out.value, cst.Name) and out.value.value == "None":
            why = "has no `out` parameter (TypeError on every call, even with `out=None`)"
        elif _native_out.jax_declares_out(qualified):
            why = "declares `out` only to raise when it is given (JAX arrays are immutable)"
        elif library in ("jax", "tensorflow"):
            why = f"takes no `out` ({library} has no working `out` anywhere)"
        else:
            why = "takes no `out` (TypeError at run time)"
        self.report(
            out,
            f"`{qualified}` {why}; drop `out=` and let the wrapper write `out`",
        )
