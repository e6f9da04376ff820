"""IVY003: a ``support_native_out`` function with a return path that never writes ``out``."""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

from ivycheck.checker.rule_api import Example, Rule, nodes_of
from ivycheck.rules._outflow import module_outflow
from ivycheck.rules._return_paths import return_paths

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"


class OutPathDropped(Rule):
    """Every return of a ``support_native_out`` function must have written ``out``.

    With ``support_native_out`` the wrapper hands the function the native ``out`` buffer and
    trusts it to write the result there; it does not copy the result in afterwards but
    rebinds the ``ivy.Array`` to whatever was returned. A return path that neither forwards
    ``out`` to a native function nor reaches ``inplace_update(out, ...)`` leaves the buffer
    untouched: ``out`` silently changes dtype and every view of it keeps the old values. The
    classic case is an early return for a special argument (``exclusive=True`` in
    ``cumsum``, a ``dtype`` cast) added after the native call was written.

    Guard-aware: a path is fine after ``if ivy.exists(out): return ivy.inplace_update(out,
    ret)`` (the documented cholesky shape: the return that follows runs with ``out=None``),
    and inside any branch whose test mentions ``out``. A native call with ``out`` followed by
    a method (``return torch.tan(x, out=out).to(dtype)``) counts as forwarding, as do aliases,
    chains, ``**kwargs`` and same-file helpers (see IVY001). Functions that never forward
    ``out`` natively are IVY002's, JAX/TensorFlow ones too.

    Fix by passing ``out=out`` on that path too, or by ending it with
    ``if ivy.exists(out): return ivy.inplace_update(out, ret)``.

    Two shapes drop ``out`` only on degenerate input, and the message says which: a return
    directly under a test for empty or 0-d input (``if x.size == 0:``, ``if len(x.shape)
    == 0:``, ``x.ndim == 0``), and a return of a name that a loop above rebinds to a
    result written into ``out`` (``for a in axis: x = torch.all(x, dim=a, out=out)`` then
    ``return x``), which misses ``out`` only when the loop runs zero times. The mistake is
    the same (the buffer stays untouched there), the inputs that reach it are rare.
    """

    CODE = "IVY003"
    NAME = "out-path-dropped"
    MESSAGE = "Return path of a `support_native_out` function never writes `out`; forward it or `inplace_update(out, ret)`"
    PARTS = frozenset({"backend:numpy", "backend:torch"})
    TRIGGERS = ("support_native_out",)
    VALID = (
        Example(
            """
            import ivy
            import torch


            def cholesky(x, /, *, upper=False, out=None):
                if not upper:
                    return torch.linalg.cholesky(x, out=out)
                ret = torch.transpose(torch.linalg.cholesky(torch.transpose(x, -1, -2)), -1, -2)
                if ivy.exists(out):
                    return ivy.inplace_update(out, ret)
                return ret


            cholesky.support_native_out = True
            """,
            path=TORCH,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                if out is None:
                    return np.tan(x)
                return np.tan(x, out=out)


            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            from torch import tan as ttan


            def tan(x, *, dtype=None, out=None):
                return ttan(x, out=out).to(dtype)


            tan.support_native_out = True
            """,
            path=TORCH,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                ret = np.tan(x, out=out)
                return ret


            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                if x.ndim > 3:
                    raise ValueError(x.ndim)
                o = out
                p = o
                return np.tan(x, out=p)


            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np


            def _helper(x, out=None):
                return np.tan(x, out=out)


            def tan(x, /, *, out=None):
                if x.size == 0:
                    return _helper(x, out=out)
                return _helper(x, out=out)


            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np


            def tan(x, *, dtype=None, out=None):
                if dtype is not None:
                    return np.tan(x).astype(dtype)
                return np.tan(x, out=out)
            """,
            path=NP,
        ),
        Example(
            """
            import jax.numpy as jnp


            def tan(x, /, *, out=None):
                if x.size == 0:
                    return x
                return jnp.tan(x)


            tan.support_native_out = True
            """,
            path=JAX,
        ),
        Example(
            """
            import numpy as np


            def clip(x, x_min=None, x_max=None, *, out=None):
                if x_min is None:
                    ret = np.minimum(x, x_max, out=out)
                else:
                    ret = np.clip(x, x_min, x_max, out=out)
                return ret


            clip.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np


            def apply(x, /, *, out=None):
                def inner(y):
                    return y + 1
                return np.tan(inner(x), out=out)


            apply.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                kw = {"out": out}
                if x.ndim == 0:
                    return np.tan(x, **kw)
                return np.tan(x, **kw)


            tan.support_native_out = True
            """,
            path=NP,
        ),
    )
    INVALID = (
        Example(
            """
            import ivy
            import torch


            def cumsum(x, axis=0, exclusive=False, reverse=False, *, dtype=None, out=None):
                if exclusive or reverse:
                    res = torch.cumsum(torch.flip(x, (axis,)), axis)
                    return torch.flip(res, (axis,))
                return torch.cumsum(x, axis, dtype=dtype, out=out)


            cumsum.support_native_out = True
            """,
            path=TORCH,
        ),
        Example(
            """
            import numpy as np


            def tan(x, *, dtype=None, out=None):
                if dtype is not None:
                    return np.tan(x).astype(dtype)
                return np.tan(x, out=out)


            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                try:
                    return np.tan(x, out=out)
                except TypeError:
                    return np.tan(x)


            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                if x.ndim:
                    ret = np.tan(x, out=out)
                else:
                    ret = np.tan(x)
                return ret


            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import ivy
            import torch


            def sum(x, axes, *, out=None):
                for axis in axes:
                    if x.shape[axis] == 0:
                        return x
                return torch.sum(x, dim=axes, out=out)


            sum.support_native_out = True
            """,
            path=TORCH,
        ),
        Example(
            """
            from torch import tan as ttan


            def tan(x, *, out=None):
                o = out
                if x.numel() == 0:
                    return x
                return ttan(x, out=o)


            setattr(tan, "support_native_out", True)
            """,
            path=TORCH,
        ),
        Example(
            """
            import numpy as np


            def tan(x, *, out=None):
                return np.tan(x, out=out)


            def sin(x, *, out=None):
                if x.size == 0:
                    return np.sin(x)
                return np.sin(x, out=out)


            for fn in (tan, sin):
                fn.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np


            def var(x, /, *, axis=None, out=None):
                if x.size == 0:
                    return np.asarray(float("nan"))
                return np.var(x, axis=axis, out=out)


            var.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import torch


            def all(x, /, *, axis=(), out=None):
                for a in axis:
                    x = torch.all(x, dim=a, out=out)
                return x


            all.support_native_out = True
            """,
            path=TORCH,
        ),
    )

    def visit_Module(self, node: cst.Module) -> None:
        flow = module_outflow(self.context)
        for name, sites in flow.attributes.items():
            function = flow.functions.get(name)
            if function is None or all(site.is_falsy_literal for site in sites):
                continue
            analysis = flow.analyse(function)
            if not analysis.may_forward_natively:
                continue  # IVY002: the attribute itself is wrong
            for path in return_paths(analysis):
                if path.covered:
                    continue
                when = _degenerate(function, path.node)
                self.report(
                    path.node,
                    f"`{name}` has `support_native_out`, but this return{when} never writes "
                    "`out`: "
                    "the native buffer stays untouched and `out` is rebound to the result "
                    "(dtype changes, views go stale); forward `out` here or end with "
                    "`if ivy.exists(out): return ivy.inplace_update(out, ret)`",
                )


_EMPTY_TEST = re.compile(
    r"(\.size|\.ndim|len\([^()]*\.shape\))\s*(==|<=|<)\s*[01]\b"
    r"|\.shape\s*==\s*\(\s*\)|^not\s+[\w.]+\.(size|ndim|shape)$"
)
"""Tests for empty or 0-d input: ``x.size == 0``, ``len(x.shape) == 0``, ``not x.ndim``."""


def _degenerate(function: cst.FunctionDef, returned: cst.Return) -> str:
    """When ``returned`` drops ``out`` only on degenerate input, the words for it."""
    code = cst.Module(body=[]).code_for_node
    if any(
        _position(test.body.body, returned) is not None and _EMPTY_TEST.search(code(test.test))
        for test in nodes_of(function.body, cst.If)
    ):
        return " (reached only on empty or 0-d input)"
    if any(_loop_then_return(b.body, returned) for b in nodes_of(function.body, cst.IndentedBlock)):
        return " (after the loop above, when it runs zero times)"
    return ""


def _position(statements: Sequence[cst.CSTNode], returned: cst.Return) -> int | None:
    """Where ``returned`` stands among ``statements`` as a statement line of its own."""
    return next(
        (
            i
            for i, statement in enumerate(statements)
            if isinstance(statement, cst.SimpleStatementLine) and returned in statement.body
        ),
        None,
    )


def _loop_then_return(statements: Sequence[cst.BaseStatement], returned: cst.Return) -> bool:
    """``for ...: name = <call with out=...>`` followed in the same block by ``return name``."""
    position = _position(statements, returned)
    if position is None or not isinstance(returned.value, cst.Name):
        return False
    name = returned.value.value
    return any(
        isinstance(loop, cst.For | cst.While) and _assigns_written(loop, name)
        for loop in statements[:position]
    )


def _assigns_written(loop: cst.For | cst.While, name: str) -> bool:
    """Whether ``loop`` assigns ``name`` a value whose calls pass ``out=``."""
    return any(
        any(isinstance(t.target, cst.Name) and t.target.value == name for t in assign.targets)
        and any(
            arg.keyword is not None and arg.keyword.value == "out"
            for arg in nodes_of(assign.value, cst.Arg)
        )
        for assign in nodes_of(loop.body, cst.Assign)
    )
