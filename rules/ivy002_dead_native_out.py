"""IVY002: ``support_native_out`` on a function that never forwards ``out`` natively."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker.rule_api import Example, FixSafety, ProjectIndex, Rule, nodes_of
from ivycheck.rules._outflow import FunctionOutFlow, UseKind, module_outflow
from ivycheck.rules._support_native_out import AttributeSite

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"
TF = "ivy/functional/backends/tensorflow/example.py"
API = "ivy/functional/ivy/example.py"


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
            """
            import numpy as np


            def tan(x, /, *, out=None):
                return np.tan(x, out=out)


            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                o = out
                p = o
                return np.tan(x, out=p)


            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import torch


            def tan(x, **kwargs):
                return torch.tan(x, **kwargs)


            tan.support_native_out = True
            """,
            path=TORCH,
        ),
        Example(
            """
            import numpy as np


            def _tan(x, out=None):
                return np.tan(x, out=out)


            def tan(x, /, *, out=None):
                return _tan(x, out=out)


            tan.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            from torch import tan as ttan


            def tan(x, *, dtype=None, out=None):
                return ttan(x, out=out).to(dtype)


            setattr(tan, "support_native_out", True)
            """,
            path=TORCH,
        ),
        Example(
            """
            import jax.numpy as jnp


            def scatter_flat(x, updates, *, out=None):
                return jnp.add(x, updates)


            scatter_flat.support_native_out = True
            """,
            path=JAX,
            files={
                API: """
                @to_native_arrays_and_back
                def scatter_flat(x, updates, *, out=None):
                    ...
                """,
            },
        ),
        Example(
            """
            import jax.numpy as jnp


            def tan(x, /, *, out=None):
                return jnp.tan(x)


            tan.support_native_out = False
            """,
            path=JAX,
        ),
        Example(
            """
            def sum(x, /, *, out=None):
                return x.sum(out=out)


            sum.support_native_out = True
            """,
            path=TORCH,
        ),
        Example(
            """
            def scatter_nd(updates, /, *, out=None):
                return jnp.add(out, updates)


            scatter_nd.support_native_out = True
            """,
            path=JAX,
            files={
                API: """
                def scatter_nd(updates, /, *, out=None):
                    ...


                scatter_nd = to_native_arrays_and_back(scatter_nd)
                """,
            },
        ),
        Example(
            """
            import tensorflow as tf


            def scatter_nd(indices, updates, /, *, out=None):
                return tf.tensor_scatter_nd_add(out, indices, updates)


            scatter_nd.support_native_out = True
            """,
            path=TF,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                return np.tan(x, out=out)


            def sin(x, /, *, out=None):
                kw = {'out': out}
                return np.sin(x, **kw)


            for fn in (tan, sin):
                fn.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import numpy as np


            def copy_into(x, /, *, out=None):
                out[...] = x
                return out


            copy_into.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import ivy
            import numpy as np


            def cholesky(x, /, *, out=None):
                ret = np.linalg.cholesky(x)
                if ivy.exists(out):
                    return ivy.inplace_update(out, ret)
                return ret
            """,
            path=NP,
        ),
        Example(
            """
            import ivy


            def tan(x, /, *, out=None):
                return ivy.tan(x, out=out)


            tan.support_native_out = True
            """,
            path=NP,
        ),
    )
    INVALID = (
        Example(
            """
            import jax.numpy as jnp


            def tan(x, /, *, out=None):
                return jnp.tan(x)


            tan.support_native_out = True
            """,
            path=JAX,
            expected="""
            import jax.numpy as jnp


            def tan(x, /, *, out=None):
                return jnp.tan(x)
            """,
        ),
        Example(
            """
            from tensorflow import math as tfm


            def tan(x, /, *, out=None):
                return tfm.tan(x)


            setattr(tan, "support_native_out", True)
            """,
            path=TF,
            expected="""
            from tensorflow import math as tfm


            def tan(x, /, *, out=None):
                return tfm.tan(x)
            """,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                return np.tan(x, out=None)


            tan.support_native_out = True
            """,
            path=NP,
            expected="""
            import numpy as np


            def tan(x, /, *, out=None):
                return np.tan(x, out=None)
            """,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                # return np.tan(x, out=out)
                return np.tan(x)


            tan.support_native_out = True
            """,
            path=NP,
            expected="""
            import numpy as np


            def tan(x, /, *, out=None):
                # return np.tan(x, out=out)
                return np.tan(x)
            """,
        ),
        Example(
            """
            import ivy
            import torch


            def tan(x, /, *, out=None):
                ret = torch.tan(x)
                return ivy.inplace_update(out, ret)


            tan.support_native_out = True
            """,
            path=TORCH,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                return np.tan(x, out=out)


            def sin(x, /, *, out=None):
                return np.sin(x)


            for fn in (tan, sin):
                fn.support_native_out = True
            """,
            path=NP,
            expected="""
            import numpy as np


            def tan(x, /, *, out=None):
                return np.tan(x, out=out)


            def sin(x, /, *, out=None):
                return np.sin(x)


            for fn in (tan,):
                fn.support_native_out = True
            """,
        ),
        Example(
            """
            import numpy as np


            def permute_dims(x, axes, *, out=None):
                return np.transpose(x, axes, out=out)


            permute_dims.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import torch


            def _ignore(x, out=None):
                return torch.tan(x)


            def tan(x, /, *, out=None):
                return _ignore(x, out=out)


            tan.support_native_out = True
            """,
            path=TORCH,
        ),
        Example(
            """
            import jax.numpy as jnp


            def tan(x, /, *, out=None):
                return jnp.tan(x)


            tan.support_native_out = True
            """,
            path=JAX,
            files={
                API: """
                def tan(x, *, out=None):
                    ...


                tan = handle_out_argument(tan)
                """,
            },
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
    return any(
        arg.keyword is not None
        and arg.keyword.value == "out"
        and isinstance(arg.value, cst.Name)
        and arg.value.value == "None"
        for arg in nodes_of(function.body, cst.Arg)
    )
