"""What IVY002's examples are made of: the files they check and the project beside them.

Written for ivycheck (never copied from a checked tree): the project's own wrapper,
backend updates and trainability tests, from which ``rules/_out_fate.py`` reads what the
user's ``out`` becomes when a function with ``support_native_out`` ignores the buffer it
is handed (copied into, rebound, never written, never handed over). An example's message,
severity and category follow them, so each is one shape the model must read right.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from ivycheck.checker.rule_api import Example

WRAPPER_RETURNS = """
    def handle_out_argument(fn):
        def _wrapped(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            return fn(*args, out=to_native(out), **kwargs)

        return _wrapped
    """
"""Returns the native call's result as it is: ``out`` is written by the function or never."""

JAX_GRADIENTS = "ivy/functional/backends/jax/gradients.py"
JAX_GENERAL = "ivy/functional/backends/jax/general.py"
TF_GRADIENTS = "ivy/functional/backends/tensorflow/gradients.py"
TF_GENERAL = "ivy/functional/backends/tensorflow/general.py"

WRAPPER_GATED = """
    def _trainable(x):
        return current_backend(x).is_trainable(x)


    def handle_out_argument(fn):
        native = hasattr(fn, "support_native_out")

        def _wrapped(*args, out=None, **kwargs):
            nonlocal native
            if out is None:
                return fn(*args, **kwargs)
            if _trainable(out):
                native = False
            if native:
                result = fn(*args, out=to_native(out), **kwargs)
                inplace_update(out, result)
                return out
            return inplace_update(out, fn(*args, **kwargs))

        return _wrapped
    """
"""Hands the native buffer over only while ``out`` is not trainable (Ivy's
``_is_variable(out)`` test): what ``is_trainable`` answers per backend decides."""

ALWAYS_TRAINABLE = """
    from ivy.functional.backends.jax import NativeArray


    def is_trainable(x, /, *, strict=False):
        if strict:
            return False
        return isinstance(x, NativeArray)
    """
"""True for every native array: the buffer is never handed over on this backend."""

TRAINABLE_IF_VARIABLE = """
    import tensorflow as tf


    def is_trainable(x, /, *, strict=False):
        return isinstance(x, tf.Variable)
    """
"""True for a ``tf.Variable`` only: a plain tensor ``out`` still takes the native path."""


_DEF = re.compile(r"^(?:async )?def (\w+)", re.MULTILINE)


def attributed(code: str, setting: str = "{}.support_native_out = True") -> str:
    """``code`` (an indented block) and, two blank lines below, ``setting`` naming its last
    function: the file an example checks."""
    block = textwrap.dedent(code.removeprefix("\n"))
    return f"{block}\n\n{setting.format(_DEF.findall(block)[-1])}\n"


def removed(code: str, setting: str = "{}.support_native_out = True", **pins: Any) -> Example:
    """An INVALID example: :func:`attributed`'s file, reported at the setting (its last line,
    column 1), which the fix removes to leave ``code``."""
    checked = attributed(code, setting)
    fixed = textwrap.dedent(code.removeprefix("\n"))
    return Example(checked, expected=fixed, line=checked.count("\n"), column=1, **pins)


TAN_NP = "import numpy as np\n\n\ndef tan(x, /, *, out=None):\n    return np.tan(x)\n"

TAN_JAX = TAN_NP.replace("numpy as np", "jax.numpy as jnp").replace("np.tan", "jnp.tan")

TAN_TORCH = TAN_NP.replace("numpy as np", "torch").replace("np.tan", "torch.tan")
"""A PyTorch function that ignores the native buffer it is handed."""
