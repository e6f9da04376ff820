"""IVY004: ``out=`` passed to a native function that has no such parameter or rejects it."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ivycheck.checker.rule_api import Example, FileUnderCheck, Finding, ProjectIndex, Rule
from ivycheck.rules import _native_out
from ivycheck.rules._ast_calls import is_inplace_update, qualified_out_calls, rejects_out
from ivycheck.rules._ast_out_keyword import keyword_span
from ivycheck.rules._ast_out_none import attributed_functions, known_none
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._out_fate import COPIES, REBINDS, UNWRITTEN, path_fate
from ivycheck.rules._vocabulary import is_versioned_helper

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

_JNP = "import jax.numpy as jnp\n\n\n"

_NANSUM = """
    import jax.numpy as jnp


    def nansum(x, /, *, out=None):
        return jnp.nansum(x, out=out)
    """
"""A JAX function handing its ``out`` to a function that declares it only to raise."""

_NANSUM_API = "def nansum(x, /, *, out=None):\n    return current_backend(x).nansum(x, out=out)\n"
"""Its API function, without wrappers (an example adds ``handle_out_argument``)."""

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
        Example(
            """
            def nanmedian(x, /, *, out=None):
                # a comment's backslash continues nothing \\
                out = None;
                return jnp.nanmedian(x, out=out)
            """,
            path=JAX,
            preamble=_JNP,
        ),
        Example(
            """


            if c: nansum.support_native_out = True
            setattr(nansum, "support_native" "_out", True)
            """,
            path=JAX,
            preamble=_NANSUM,
            files={API: "@handle_out_argument\n" + _NANSUM_API},
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
            def tan(x, *, out=None):
                return jnp.tan(x, "é€", out=out)
            """,
            path=JAX,
            preamble=_JNP,
            message="`jax.numpy.tan` takes no `out` (jax has no working `out` anywhere)",
            line=5,
            column=29,
        ),
        Example(
            """
            from tensorflow import math as tfm


            def tan(x, *, out=None):
                return tfm.tan(x, out=out)
            """,
            path=TF,
            message="`tensorflow.math.tan` takes no `out` (tensorflow has no working `out`",
            line=5,
            column=23,
        ),
        Example(
            """
            import numpy as np


            def permute_dims(x, axes, *, out=None):
                return np.transpose(x, axes, out=out)
            """,
            path=NP,
            message="`numpy.transpose` takes no `out` (TypeError at run time)",
            line=5,
            column=34,
        ),
        Example(
            """
            import torch


            def swapaxes(x, a, b, *, out=None):
                return torch.transpose(x, a, b, out=out)
            """,
            path=TORCH,
            message="`torch.transpose` takes no `out` (TypeError at run time)",
            line=5,
            column=37,
        ),
        Example(
            """
            import jax


            def add(x, y, *, out=None):
                return jax.numpy.add(x, y, out=out)
            """,
            path=JAX,
            message="`jax.numpy.add` declares `out` only to raise when it is given",
            line=5,
            column=32,
        ),
        Example(
            """
            import tensorflow as tf
            y = tf.experimental.numpy.tan(x, out=o)
            """,
            path=TF,
            message="`tensorflow.experimental.numpy.tan` takes no `out`",
            line=2,
            column=34,
        ),
        Example(
            """
            from jax.numpy import sin


            def f(x, *, out=None):
                o = out
                return sin(x, out=o)
            """,
            path=JAX,
            message="`jax.numpy.sin` takes no `out`",
            line=6,
            column=19,
        ),
        Example(
            """
            import numpy
            numpy.reshape(x, (2, 3), out=buf)
            """,
            message="`numpy.reshape` takes no `out` (TypeError at run time)",
            line=2,
            column=26,
        ),
        Example(
            """
            import jax.numpy as jnp
            jnp.tan(x, out=None)
            """,
            path=JAX,
            message="`jax.numpy.tan` has no `out` parameter (TypeError on every call, even with",
            line=2,
            column=12,
        ),
        Example(
            """
            import torch
            torch.flip(x, (0,), out=None)
            """,
            path=TORCH,
            message="`torch.flip` has no `out` parameter",
            line=2,
            column=21,
        ),
        Example(
            _NANSUM,
            path=JAX,
            files={API: _NANSUM_API},
            message="`jax.numpy.nansum` declares `out` only to raise when it is given",
            line=5,
            column=26,
        ),
        Example(
            "\n\nnansum.support_native_out = True\n",
            preamble=_NANSUM,
            path=JAX,
            files={API: "@handle_out_argument\n" + _NANSUM_API},
            line=5,
            column=26,
        ),
        Example(
            "\n\nif c:  # comment \\\n    setattr(nansum, r'support_native_out', True)\n",
            preamble=_NANSUM,
            path=JAX,
            files={API: "@handle_out_argument\n" + _NANSUM_API},
            line=5,
            column=26,
        ),
        Example(
            """
            def nanmedian(x, /, *, out=None):
                if x.ndim:
                    out = None
                return jnp.nanmedian(x, out=out)
            """,
            path=JAX,
            preamble=_JNP,
            message="`jax.numpy.nanmedian` declares `out` only to raise when it is given",
            line=7,
            column=29,
        ),
        Example(
            """
            def nanmedian(x, /, *, out=None):
                y = 1; out = None
                return jnp.nanmedian(x, out=out)
            """,
            path=JAX,
            preamble=_JNP,
            line=6,
            column=29,
        ),
        Example(
            """
            import torch


            def ones_like(x, /, *, out=None):
                return torch.ones_like(x, out=out)
            """,
            path=TORCH,
            message="`torch.ones_like` takes no `out` (TypeError at run time)",
            line=5,
            column=31,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Each call's first ``out=``, given to a native function that rejects it (outside
        a versioned helper and unless a declared ``out`` is known to be ``None``), reported
        at the keyword (from ``out`` to the value's end, in code points)."""
        runtime = file.config.runtime_modules
        lines: Lines | None = None
        attributed: frozenset[str] = frozenset()
        backend = file.part.removeprefix("backend:") if file.part.startswith("backend:") else ""
        refused: dict[str, bool] = {}  # per callee (a file calls a few callees many times)
        for call, out, enclosing, qualified in qualified_out_calls(tree):
            if qualified is None:
                continue
            refuses = refused.get(qualified)
            if refuses is None:
                refuses = refused[qualified] = rejects_out(qualified, runtime)
            if not refuses or is_inplace_update(call.func):
                continue  # (an `inplace_update` is the wrapper's own update: never rejected)
            if enclosing and is_versioned_helper(enclosing[0].name):
                continue
            if lines is None:
                lines = Lines(file.source)
                attributed = attributed_functions(tree, lines)
            declared = qualified in _native_out.load().declares
            if declared and known_none(out.value, call, enclosing, file, lines, tree, attributed):
                continue  # a declared `out` that is given None is accepted
            literal_none = isinstance(out.value, ast.Constant) and out.value.value is None
            advice = _advice(
                file.index, backend, enclosing[0].name in attributed if enclosing else None
            )
            yield Finding(
                *keyword_span(lines, out), _message(qualified, declared, literal_none, advice)
            )


_LET_THE_WRAPPER = "drop `out=` and let the wrapper write `out`"


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
