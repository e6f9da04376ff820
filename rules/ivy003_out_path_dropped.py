"""IVY003: a ``support_native_out`` function with a return path that never writes ``out``."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker.rule_api import Example, Rule
from ivycheck.rules._outflow import module_outflow
from ivycheck.rules._return_paths import return_paths

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"


def _fn(name: str, body: str, params: str = "x, /, *, out=None", header: str = "") -> str:
    lines = "\n".join(f"    {line}" if line else "" for line in body.splitlines())
    return f"{header}def {name}({params}):\n{lines}\n\n\n{name}.support_native_out = True\n"


NUMPY = "import numpy as np\n\n\n"
TORCH_H = "import ivy\nimport torch\n\n\n"


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
            _fn(
                "cholesky",
                "if not upper:\n    return torch.linalg.cholesky(x, out=out)\n"
                "ret = torch.transpose(torch.linalg.cholesky(torch.transpose(x, -1, -2)), -1, -2)\n"
                "if ivy.exists(out):\n    return ivy.inplace_update(out, ret)\nreturn ret",
                params="x, /, *, upper=False, out=None",
                header=TORCH_H,
            ),
            path=TORCH,
        ),
        Example(
            _fn(
                "tan",
                "if out is None:\n    return np.tan(x)\nreturn np.tan(x, out=out)",
                header=NUMPY,
            ),
            path=NP,
        ),
        Example(
            _fn(
                "tan",
                "return ttan(x, out=out).to(dtype)",
                params="x, *, dtype=None, out=None",
                header="from torch import tan as ttan\n\n\n",
            ),
            path=TORCH,
        ),
        Example(_fn("tan", "ret = np.tan(x, out=out)\nreturn ret", header=NUMPY), path=NP),
        Example(
            _fn(
                "tan",
                "if x.ndim > 3:\n    raise ValueError(x.ndim)\no = out\np = o\nreturn np.tan(x, out=p)",
                header=NUMPY,
            ),
            path=NP,
        ),
        Example(
            "import numpy as np\n\n\n"
            "def _helper(x, out=None):\n    return np.tan(x, out=out)\n\n\n"
            + _fn(
                "tan", "if x.size == 0:\n    return _helper(x, out=out)\nreturn _helper(x, out=out)"
            ),
            path=NP,
        ),
        Example(
            "import numpy as np\n\n\ndef tan(x, *, dtype=None, out=None):\n"
            "    if dtype is not None:\n        return np.tan(x).astype(dtype)\n"
            "    return np.tan(x, out=out)\n",
            path=NP,
        ),
        Example(
            "import jax.numpy as jnp\n\n\n"
            + _fn("tan", "if x.size == 0:\n    return x\nreturn jnp.tan(x)"),
            path=JAX,
        ),
        Example(
            _fn(
                "clip",
                "if x_min is None:\n    ret = np.minimum(x, x_max, out=out)\nelse:\n"
                "    ret = np.clip(x, x_min, x_max, out=out)\nreturn ret",
                params="x, x_min=None, x_max=None, *, out=None",
                header=NUMPY,
            ),
            path=NP,
        ),
        Example(
            _fn(
                "apply",
                "def inner(y):\n    return y + 1\nreturn np.tan(inner(x), out=out)",
                header=NUMPY,
            ),
            path=NP,
        ),
        Example(
            _fn(
                "tan",
                'kw = {"out": out}\nif x.ndim == 0:\n    return np.tan(x, **kw)\nreturn np.tan(x, **kw)',
                header=NUMPY,
            ),
            path=NP,
        ),
    )
    INVALID = (
        Example(
            _fn(
                "cumsum",
                "if exclusive or reverse:\n    res = torch.cumsum(torch.flip(x, (axis,)), axis)\n"
                "    return torch.flip(res, (axis,))\n"
                "return torch.cumsum(x, axis, dtype=dtype, out=out)",
                params="x, axis=0, exclusive=False, reverse=False, *, dtype=None, out=None",
                header=TORCH_H,
            ),
            path=TORCH,
        ),
        Example(
            _fn(
                "tan",
                "if dtype is not None:\n    return np.tan(x).astype(dtype)\nreturn np.tan(x, out=out)",
                params="x, *, dtype=None, out=None",
                header=NUMPY,
            ),
            path=NP,
        ),
        Example(
            _fn(
                "tan",
                "try:\n    return np.tan(x, out=out)\nexcept TypeError:\n    return np.tan(x)",
                header=NUMPY,
            ),
            path=NP,
        ),
        Example(
            _fn(
                "tan",
                "if x.ndim:\n    ret = np.tan(x, out=out)\nelse:\n    ret = np.tan(x)\nreturn ret",
                header=NUMPY,
            ),
            path=NP,
        ),
        Example(
            _fn(
                "sum",
                "for axis in axes:\n    if x.shape[axis] == 0:\n        return x\n"
                "return torch.sum(x, dim=axes, out=out)",
                params="x, axes, *, out=None",
                header=TORCH_H,
            ),
            path=TORCH,
        ),
        Example(
            "from torch import tan as ttan\n\n\ndef tan(x, *, out=None):\n"
            "    o = out\n    if x.numel() == 0:\n        return x\n    return ttan(x, out=o)\n\n\n"
            'setattr(tan, "support_native_out", True)\n',
            path=TORCH,
        ),
        Example(
            "import numpy as np\n\n\ndef tan(x, *, out=None):\n    return np.tan(x, out=out)\n\n\n"
            "def sin(x, *, out=None):\n    if x.size == 0:\n        return np.sin(x)\n"
            "    return np.sin(x, out=out)\n\n\nfor fn in (tan, sin):\n    fn.support_native_out = True\n",
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
