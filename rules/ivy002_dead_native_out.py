"""IVY002: ``support_native_out`` on a function that never forwards ``out`` natively."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker.rule_api import Example, FixSafety, ProjectIndex, Rule, walk
from ivycheck.rules._outflow import FunctionOutFlow, UseKind, module_outflow
from ivycheck.rules._support_native_out import AttributeSite

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"
TF = "ivy/functional/backends/tensorflow/example.py"
API = "ivy/functional/ivy/example.py"


def _fn(name: str, body: str, params: str = "x, /, *, out=None", header: str = "") -> str:
    return f"{header}def {name}({params}):\n    {body}\n"


def _attr(name: str) -> str:
    return f"\n\n{name}.support_native_out = True\n"


class DeadNativeOut(Rule):
    """``support_native_out`` promises that the function writes the native ``out`` buffer.

    Ivy's ``handle_out_argument`` trusts the attribute: it hands the function the native
    buffer as ``out=``, does *not* write the result into it afterwards, and rebinds the
    ``ivy.Array`` to whatever the function returned. If the function ignores the buffer,
    nothing is written into it: the user's ``out`` is rebound to a fresh array, so it
    silently changes dtype (a ``float32`` buffer becomes ``float64``), and every view or
    other reference to the old buffer keeps the stale values.

    Flagged: every JAX or TensorFlow backend function with the attribute (those frameworks
    have no native ``out``), and NumPy/PyTorch functions where ``out`` reaches no native
    function: a native call given ``out=None`` literally, a native call that was commented
    out, ``out`` used only in ``inplace_update`` (write it there, but without the attribute),
    or passed only to functions that reject it. Aliases, chains of locals, ``**kwargs``,
    same-file helpers and calls the checker cannot resolve count as forwarding (quiet).
    Not flagged: functions whose functional-API counterpart has no ``@handle_out_argument``
    (JAX/TF ``scatter_*``, where ``out`` is data, not a destination), and
    ``support_native_out = False`` (IVY015).

    The fix removes the attribute (or the function's entry in a loop over functions); the
    wrapper then writes ``out`` itself, keeping its dtype.
    """

    CODE = "IVY002"
    NAME = "dead-native-out"
    MESSAGE = "`support_native_out` on a function that never forwards `out` natively; `out` silently changes dtype; remove it"
    FIX_SAFETY = FixSafety.SAFE
    PARTS = frozenset({"backend:*"})
    TRIGGERS = ("support_native_out",)
    NEEDS_INDEX = True
    VALID = (
        Example(
            _fn("tan", "return np.tan(x, out=out)", header="import numpy as np\n\n\n")
            + _attr("tan"),
            path=NP,
        ),
        Example(
            _fn(
                "tan",
                "o = out\n    p = o\n    return np.tan(x, out=p)",
                header="import numpy as np\n\n\n",
            )
            + _attr("tan"),
            path=NP,
        ),
        Example(
            _fn(
                "tan",
                "return torch.tan(x, **kwargs)",
                params="x, **kwargs",
                header="import torch\n\n\n",
            )
            + _attr("tan"),
            path=TORCH,
        ),
        Example(
            "import numpy as np\n\n\n"
            + _fn("_tan", "return np.tan(x, out=out)", params="x, out=None")
            + "\n\n"
            + _fn("tan", "return _tan(x, out=out)")
            + _attr("tan"),
            path=NP,
        ),
        Example(
            _fn(
                "tan",
                "return ttan(x, out=out).to(dtype)",
                params="x, *, dtype=None, out=None",
                header="from torch import tan as ttan\n\n\n",
            )
            + '\n\nsetattr(tan, "support_native_out", True)\n',
            path=TORCH,
        ),
        Example(
            _fn(
                "scatter_flat",
                "return jnp.add(x, updates)",
                params="x, updates, *, out=None",
                header="import jax.numpy as jnp\n\n\n",
            )
            + _attr("scatter_flat"),
            path=JAX,
            files={
                API: "@to_native_arrays_and_back\ndef scatter_flat(x, updates, *, out=None):\n    ...\n"
            },
        ),
        Example(
            _fn("tan", "return jnp.tan(x)", header="import jax.numpy as jnp\n\n\n")
            + "\n\ntan.support_native_out = False\n",
            path=JAX,
        ),
        Example(_fn("sum", "return x.sum(out=out)") + _attr("sum"), path=TORCH),
        Example(
            _fn("scatter_nd", "return jnp.add(out, updates)", params="updates, /, *, out=None")
            + _attr("scatter_nd"),
            path=JAX,
            files={
                API: "def scatter_nd(updates, /, *, out=None):\n    ...\n\n\n"
                "scatter_nd = to_native_arrays_and_back(scatter_nd)\n"
            },
        ),
        Example(
            _fn(
                "scatter_nd",
                "return tf.tensor_scatter_nd_add(out, indices, updates)",
                params="indices, updates, /, *, out=None",
                header="import tensorflow as tf\n\n\n",
            )
            + _attr("scatter_nd"),
            path=TF,
        ),
        Example(
            "import numpy as np\n\n\n"
            + _fn("tan", "return np.tan(x, out=out)")
            + "\n\n"
            + _fn("sin", "kw = {'out': out}\n    return np.sin(x, **kw)")
            + "\n\nfor fn in (tan, sin):\n    fn.support_native_out = True\n",
            path=NP,
        ),
        Example(
            _fn("copy_into", "out[...] = x\n    return out", header="import numpy as np\n\n\n")
            + _attr("copy_into"),
            path=NP,
        ),
        Example(
            _fn(
                "cholesky",
                "ret = np.linalg.cholesky(x)\n    if ivy.exists(out):\n        return ivy.inplace_update(out, ret)\n    return ret",
                header="import ivy\nimport numpy as np\n\n\n",
            ),
            path=NP,
        ),
        Example(
            _fn("tan", "return ivy.tan(x, out=out)", header="import ivy\n\n\n") + _attr("tan"),
            path=NP,
        ),
    )
    INVALID = (
        Example(
            _fn("tan", "return jnp.tan(x)", header="import jax.numpy as jnp\n\n\n") + _attr("tan"),
            path=JAX,
            expected=_fn("tan", "return jnp.tan(x)", header="import jax.numpy as jnp\n\n\n"),
        ),
        Example(
            _fn("tan", "return tfm.tan(x)", header="from tensorflow import math as tfm\n\n\n")
            + '\n\nsetattr(tan, "support_native_out", True)\n',
            path=TF,
            expected=_fn(
                "tan", "return tfm.tan(x)", header="from tensorflow import math as tfm\n\n\n"
            ),
        ),
        Example(
            _fn("tan", "return np.tan(x, out=None)", header="import numpy as np\n\n\n")
            + _attr("tan"),
            path=NP,
            expected=_fn("tan", "return np.tan(x, out=None)", header="import numpy as np\n\n\n"),
        ),
        Example(
            _fn(
                "tan",
                "# return np.tan(x, out=out)\n    return np.tan(x)",
                header="import numpy as np\n\n\n",
            )
            + _attr("tan"),
            path=NP,
            expected=_fn(
                "tan",
                "# return np.tan(x, out=out)\n    return np.tan(x)",
                header="import numpy as np\n\n\n",
            ),
        ),
        Example(
            _fn(
                "tan",
                "ret = torch.tan(x)\n    return ivy.inplace_update(out, ret)",
                header="import ivy\nimport torch\n\n\n",
            )
            + _attr("tan"),
            path=TORCH,
        ),
        Example(
            "import numpy as np\n\n\n"
            + _fn("tan", "return np.tan(x, out=out)")
            + "\n\n"
            + _fn("sin", "return np.sin(x)")
            + "\n\nfor fn in (tan, sin):\n    fn.support_native_out = True\n",
            path=NP,
            expected="import numpy as np\n\n\n"
            + _fn("tan", "return np.tan(x, out=out)")
            + "\n\n"
            + _fn("sin", "return np.sin(x)")
            + "\n\nfor fn in (tan,):\n    fn.support_native_out = True\n",
        ),
        Example(
            _fn(
                "permute_dims",
                "return np.transpose(x, axes, out=out)",
                params="x, axes, *, out=None",
                header="import numpy as np\n\n\n",
            )
            + _attr("permute_dims"),
            path=NP,
        ),
        Example(
            "import torch\n\n\n"
            + _fn("_ignore", "return torch.tan(x)", params="x, out=None")
            + "\n\n"
            + _fn("tan", "return _ignore(x, out=out)")
            + _attr("tan"),
            path=TORCH,
        ),
        Example(
            _fn("tan", "return jnp.tan(x)", header="import jax.numpy as jnp\n\n\n") + _attr("tan"),
            path=JAX,
            files={API: "def tan(x, *, out=None):\n    ...\n\n\ntan = handle_out_argument(tan)\n"},
        ),
    )

    def visit_Module(self, node: cst.Module) -> None:
        flow = module_outflow(self.context)
        backend = self.context.backend
        for name, sites in flow.attributes.items():
            function = flow.functions.get(name)
            if function is None:
                continue
            if not _out_is_destination(self.context.index, name):
                continue
            if backend in ("jax", "tensorflow"):
                why = f"{backend} has no native `out`"
            else:
                analysis = flow.analyse(function)
                if analysis.may_forward_natively:
                    continue
                why = _why(analysis)
            for site in sites:
                if not site.is_falsy_literal:
                    self._report(site, why)

    def _report(self, site: AttributeSite, why: str) -> None:
        removal = site.removal()
        target, replacement = removal if removal is not None else (None, None)
        self.report(
            site.element if site.element is not None else site.small,
            f"`{site.function}` has `support_native_out` but {why}: the wrapper hands over the "
            "native buffer, the function ignores it, and `out` silently changes dtype; "
            "remove the attribute",
            replacement=replacement,
            fix_description="Remove the `support_native_out` attribute",
            fix_target=target,
        )


def _out_is_destination(index: ProjectIndex, name: str) -> bool:
    """Whether the wrapper treats ``out`` of ``name`` as a destination (reads the attribute).

    Decided by the functional-API counterpart's ``@handle_out_argument``. When the API is
    not in view (only a backend folder is checked), ``scatter_*`` functions, where ``out``
    is the data scattered into, are given the benefit of the doubt.
    """
    api = index.api_function(name)
    if api is None:
        return not name.startswith("scatter")
    return "handle_out_argument" in api.decorators


def _why(flow: FunctionOutFlow) -> str:
    if flow.root is None:
        return "it takes no `out`"
    if not flow.uses and _has_literal_out_none(flow.function):
        return "its native call is given `out=None`"
    rejected = [use for use in flow.uses if use.kind is UseKind.REJECTED]
    if rejected:
        return f"{rejected[0].describe()} does not accept `out`"
    if any(use.kind is UseKind.INPLACE for use in flow.uses):
        return "it only writes `out` with `inplace_update` (that is the wrapper's job)"
    if any(use.kind is UseKind.DROPPED for use in flow.uses):
        return "the helper it passes `out` to ignores it"
    return "it never passes `out` to a native function"


def _has_literal_out_none(function: cst.FunctionDef) -> bool:
    class Find(cst.CSTVisitor):
        found = False

        def visit_Arg(self, node: cst.Arg) -> None:
            if (
                node.keyword is not None
                and node.keyword.value == "out"
                and isinstance(node.value, cst.Name)
                and node.value.value == "None"
            ):
                Find.found = True

    walk(function.body, Find())
    return Find.found
