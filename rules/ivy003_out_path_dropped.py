"""IVY003: a ``support_native_out`` function with a return path that never writes ``out``."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker.rule_api import Example, Rule
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
                self.report(
                    path.node,
                    f"`{name}` has `support_native_out`, but this return never writes `out`: "
                    "the native buffer stays untouched and `out` is rebound to the result "
                    "(dtype changes, views go stale); forward `out` here or end with "
                    "`if ivy.exists(out): return ivy.inplace_update(out, ret)`",
                )
