"""IVY002: ``support_native_out`` on a function that never forwards ``out`` natively."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING

import libcst as cst

from ivycheck.checker.rule_api import (
    AstFinding,
    Category,
    Example,
    FixSafety,
    ProjectIndex,
    Rule,
    Severity,
    nodes_of,
)
from ivycheck.rules import _fate_examples as shapes
from ivycheck.rules._ast_facts import (
    OutForwarding,
    facts,
    is_false_or_none,
    module_functions,
    nodes_below,
    takes_out,
)
from ivycheck.rules._ast_outflow import PlainOutFlow, PlainUse, followed_outflow, literal_out_none
from ivycheck.rules._ast_sites import sites_by_function
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._out_fate import OutFate, compose, ignored_buffer_fates
from ivycheck.rules._outflow import FunctionOutFlow, OutUse, module_outflow
from ivycheck.rules._several_results import several_results, several_results_on_ast
from ivycheck.rules._support_native_out import ATTRIBUTE, AttributeSite
from ivycheck.rules._vocabulary import UseKind

if TYPE_CHECKING:
    from ivycheck.checker.core.rule import FileUnderCheck

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"
TF = "ivy/functional/backends/tensorflow/example.py"
API = "ivy/functional/ivy/example.py"
WRAPPER = "ivy/func_wrapper.py"
TORCH_GENERAL = "ivy/functional/backends/torch/general.py"
NP_GENERAL = "ivy/functional/backends/numpy/general.py"

# The project's own wrapper and updates (what a finding's consequence is read from).
_WRAPPER_UPDATES_OUT = """
    def handle_out_argument(fn):
        def _wrapped(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            buffer = to_native(out)
            result = fn(*args, out=buffer, **kwargs)
            inplace_update(out, result)
            return out

        return _wrapped
    """
"""Writes the native call's result into ``out`` afterwards (as Ivy's does)."""

_WRAPPER_RETURNS = """
    def handle_out_argument(fn):
        def _wrapped(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            return fn(*args, out=to_native(out), **kwargs)

        return _wrapped
    """
"""Returns the native call's result as it is: ``out`` is written by the function or never."""

_UPDATE_COPIES = """
    def inplace_update(x, val, /, *, ensure_in_backend=False):
        x_native, val_native = to_native(x), to_native(val)
        x_native[...] = val_native
        if ensure_in_backend:
            x.data = val_native
        return x
    """
"""Copies into the existing buffer (the cast is the assignment's): ``out`` keeps its dtype."""

_UPDATE_REBINDS = """
    def inplace_update(x, val, /):
        x_native = to_native(x)
        if x_native.dtype != val.dtype:
            x_native = x_native.astype(val.dtype)
        np.copyto(x_native, to_native(val))
        x.data = x_native
        return x
    """
"""Casts ``out``'s buffer to the value's dtype first: ``out`` changes dtype and buffer."""

JAX_GRADIENTS = "ivy/functional/backends/jax/gradients.py"
JAX_GENERAL = "ivy/functional/backends/jax/general.py"
TF_GRADIENTS = "ivy/functional/backends/tensorflow/gradients.py"
TF_GENERAL = "ivy/functional/backends/tensorflow/general.py"

_WRAPPER_GATED = """
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

_ALWAYS_TRAINABLE = """
    from ivy.functional.backends.jax import NativeArray


    def is_trainable(x, /, *, strict=False):
        if strict:
            return False
        return isinstance(x, NativeArray)
    """
"""True for every native array: the buffer is never handed over on this backend."""

_TRAINABLE_IF_VARIABLE = """
    import tensorflow as tf


    def is_trainable(x, /, *, strict=False):
        return isinstance(x, tf.Variable)
    """
"""True for a ``tf.Variable`` only: a plain tensor ``out`` still takes the native path."""

_TANH_JAX = """
    import jax.numpy as jnp


    def tanh(x, /, *, out=None):
        return jnp.tanh(x)


    tanh.support_native_out = True
    """

_TANH_JAX_FIXED = """
    import jax.numpy as jnp


    def tanh(x, /, *, out=None):
        return jnp.tanh(x)
    """

_TORCH_IGNORES = """
    import torch


    def tan(x, /, *, out=None):
        return torch.tan(x)


    tan.support_native_out = True
    """
"""A PyTorch function that ignores the native buffer it is handed."""

_TORCH_IGNORES_FIXED = """
    import torch


    def tan(x, /, *, out=None):
        return torch.tan(x)
    """


class DeadNativeOut(Rule):
    """``support_native_out`` promises that the function writes the native ``out`` buffer.

    The wrapper (``handle_out_argument``) trusts the attribute: it hands the function the
    native buffer as ``out=`` and skips its own cast of the result to ``out``'s dtype. If the
    function ignores the buffer, what the user's ``out`` becomes is a fact of the checked
    project, read from its own wrapper and backends (see ``rules/_out_fate.py``), and the
    message says which:

    * the wrapper writes the result with the backend's update, which *copies* into the
      existing buffer (Ivy's PyTorch ``inplace_update``): ``out`` keeps its dtype and buffer,
      the cost is an extra allocation and a copy (performance, a warning);
    * that update *rebinds* or casts ``out`` (Ivy's NumPy, JAX, TensorFlow, Paddle): ``out``
      silently changes dtype and buffer when the result's dtype differs, and views of the old
      buffer keep stale values (correctness, an error);
    * the wrapper returns the result without writing ``out``: ``out`` keeps its old values.

    Without a ``handle_out_argument`` in the checked tree (a project importing ``ivy``), the
    default is Ivy's at the ecosystem snapshot's commit: PyTorch copies, the others rebind.

    Flagged: every JAX or TensorFlow backend function with the attribute (those frameworks
    have no native ``out``), and NumPy/PyTorch functions where ``out`` reaches no native
    function: a native call given ``out=None`` literally, a native call that was commented
    out, ``out`` used only in ``inplace_update`` (write it there, but without the attribute),
    or passed only to functions that reject it. Aliases, chains of locals, ``**kwargs``,
    same-file helpers and calls the checker cannot resolve count as forwarding (quiet).
    Not flagged: functions that read ``out``'s values (a scatter or accumulation that starts
    from them, ``out[...]`` on the right-hand side, ``out`` passed by position, a method of
    ``out``): they use the buffer they are handed, and removing the attribute would change
    their results; functions whose functional-API counterpart has no
    ``@handle_out_argument`` (nothing reads the attribute); ``support_native_out = False``
    (IVY015).

    The fix removes the attribute (or the function's entry in a loop over functions); the
    wrapper then writes ``out`` itself, keeping its dtype.
    """

    CODE = "IVY002"
    NAME = "dead-native-out"
    MESSAGE = "`support_native_out` on a function that never forwards `out` natively; remove it"
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
        Example(
            """
            def scatter_sum(indices, updates, /, *, out=None):
                start = jnp.zeros(updates.shape) if out is None else out
                return start.at[indices].add(updates)


            scatter_sum.support_native_out = True
            """,
            path=JAX,
            files={
                API: """
                @handle_out_argument
                def scatter_sum(indices, updates, /, *, out=None):
                    ...
                """,
            },
        ),
        Example(
            """
            import torch


            def accumulate(x, /, *, out=None):
                return torch.add(out, x)


            accumulate.support_native_out = True
            """,
            path=TORCH,
            files={
                API: """
                @handle_out_argument
                def accumulate(x, /, *, out=None):
                    ...
                """,
            },
        ),
        Example(
            """
            import numpy as np


            def shift(x, /, *, out=None):
                previous = out[1:]
                return np.concatenate([previous, x])


            shift.support_native_out = True
            """,
            path=NP,
        ),
        Example(
            """
            import jax.numpy as jnp


            def cumulative(x, /, *, out=None):
                return jnp.cumsum(x)


            cumulative.support_native_out = True
            """,
            path=JAX,
            files={
                "ivy/functional/__init__.py": """
                    from .ivy.experimental import *
                    from .ivy import *
                    """,
                "ivy/functional/ivy/__init__.py": """
                    from .statistical import *
                    """,
                "ivy/functional/ivy/experimental/__init__.py": """
                    from .statistical import *
                    """,
                "ivy/functional/ivy/statistical.py": """
                    @to_native_arrays_and_back
                    def cumulative(x, /, *, out=None):
                        ...
                    """,
                "ivy/functional/ivy/experimental/statistical.py": """
                    @handle_out_argument
                    def cumulative(x, /, *, out=None):
                        ...
                    """,
            },
        ),
    )
    INVALID = (
        Example(
            """
            import numpy as np


            def split_exponent(x, /, *, out: Optional[Tuple[np.ndarray, np.ndarray]] = None):
                return np.frexp(x)


            split_exponent.support_native_out = True
            """,
            path=NP,
            files=shapes.GATED_PROJECT,
            expected="""
            import numpy as np


            def split_exponent(x, /, *, out: Optional[Tuple[np.ndarray, np.ndarray]] = None):
                return np.frexp(x)
            """,
            message=(
                "never passes `out` to a native function, and the wrapper never hands a tuple "
                "`out` over (its `is_frozen(out)` is true for every tuple), so the attribute has "
                "no effect here; remove the attribute"
            ),
            severity=Severity.WARNING,
            category=Category.DEAD_CODE,
        ),
        Example(
            _TANH_JAX,
            path=JAX,
            files={
                WRAPPER: _WRAPPER_GATED,
                JAX_GRADIENTS: _ALWAYS_TRAINABLE,
                JAX_GENERAL: _UPDATE_REBINDS,
            },
            expected=_TANH_JAX_FIXED,
            message=(
                "the wrapper never hands `out`'s buffer to this backend's functions (its "
                "`is_trainable` is true for every array), so the attribute has no effect here"
            ),
            severity=Severity.WARNING,
            category=Category.DEAD_CODE,
        ),
        Example(
            """
            import tensorflow as tf


            def tanh(x, /, *, out=None):
                return tf.tanh(x)


            tanh.support_native_out = True
            """,
            path=TF,
            files={
                WRAPPER: _WRAPPER_GATED,
                TF_GRADIENTS: _TRAINABLE_IF_VARIABLE,
                TF_GENERAL: _UPDATE_REBINDS,
            },
            expected="""
            import tensorflow as tf


            def tanh(x, /, *, out=None):
                return tf.tanh(x)
            """,
            message="`out` silently changes dtype and buffer when the result's dtype differs",
            severity=Severity.ERROR,
            category=Category.CORRECTNESS,
        ),
        Example(
            _TORCH_IGNORES,
            path=TORCH,
            files={WRAPPER: _WRAPPER_UPDATES_OUT, TORCH_GENERAL: _UPDATE_COPIES},
            expected=_TORCH_IGNORES_FIXED,
            message="the wrapper then copies the result into `out` (an extra allocation",
            severity=Severity.WARNING,
            category=Category.PERFORMANCE,
        ),
        Example(
            """
            import numpy as np


            def tan(x, /, *, out=None):
                return np.tan(x)


            tan.support_native_out = True
            """,
            path=NP,
            files={WRAPPER: _WRAPPER_UPDATES_OUT, NP_GENERAL: _UPDATE_REBINDS},
            expected="""
            import numpy as np


            def tan(x, /, *, out=None):
                return np.tan(x)
            """,
            message="`out` silently changes dtype and buffer when the result's dtype differs",
            severity=Severity.ERROR,
            category=Category.CORRECTNESS,
        ),
        Example(
            _TORCH_IGNORES,
            path=TORCH,
            files={WRAPPER: _WRAPPER_RETURNS, TORCH_GENERAL: _UPDATE_COPIES},
            expected=_TORCH_IGNORES_FIXED,
            message="the wrapper returns the result without writing `out`",
            severity=Severity.ERROR,
        ),
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
        Example(
            _TORCH_IGNORES,
            path=TORCH,
            files={**shapes.GATED_PROJECT, WRAPPER: shapes.WRAPPER_REBINDS_DATA},
            expected=_TORCH_IGNORES_FIXED,
            message="`out` silently changes dtype and buffer when the result's dtype differs",
            severity=Severity.ERROR,
            category=Category.CORRECTNESS,
        ),
        Example(
            _TORCH_IGNORES,
            path=TORCH,
            files=shapes.GATED_PROJECT,
            expected=_TORCH_IGNORES_FIXED,
            message="the wrapper then copies the result into `out` (an extra allocation",
            severity=Severity.WARNING,
            category=Category.PERFORMANCE,
        ),
        Example(
            _TORCH_IGNORES,
            path=TORCH,
            files={**shapes.GATED_PROJECT, shapes.TORCH_GENERAL: shapes.UPDATE_UNREAD},
            expected=_TORCH_IGNORES_FIXED,
            message="the wrapper hands over the native buffer, the function ignores it; remove",
            severity=Severity.ERROR,
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """Whether a module-level function with the attribute set (not to ``False`` or
        ``None``), read by the wrapper, is JAX/TensorFlow's or may never forward ``out``:
        the check below, taking every such function to forward natively only when it
        passes its own ``out=out`` to a call that, whatever the call's name resolves to,
        the analysis records as a use that may write ``out``."""
        found = facts(tree)
        sites = found.attribute_sites(ATTRIBUTE)
        if not sites:
            return False
        functions = module_functions(found.body)
        forwarding: OutForwarding | None = None
        for name, values in sites.items():
            function = functions.get(name)
            if function is None or all(map(is_false_or_none, values)):
                continue
            if file.part not in ("backend:jax", "backend:tensorflow") and takes_out(function):
                if forwarding is None:
                    forwarding = OutForwarding(found, file.config.runtime_modules)
                aliases = found.out_aliases(function)
                if any(
                    isinstance(node, ast.Call)
                    and forwarding.forwarding_call(node, aliases, UseKind.UNKNOWN)
                    for statement in function.body
                    for node in nodes_below(statement)
                ):
                    continue
            # Other files last: a file with no candidate is decided before the index exists.
            if _out_is_destination(file.index, name):
                return True
        return False

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below where the flow of every attributed function that may be
        reported is decided on CPython's tree (:func:`ivycheck.rules._ast_outflow.
        followed_outflow`: ``out`` given as ``out=``, tested, read, or handed to a same-file
        helper decided alike) or the function takes no ``out`` and no ``**kwargs``, and the
        sites are read exactly (:mod:`ivycheck.rules._ast_sites`). Such a flow says, as
        libcst's does, whether ``out``'s values are read, whether it may reach a native
        function and, if not, why. ``None`` for any other function."""
        lines = Lines(file.source)
        by_function = sites_by_function(tree, lines, ATTRIBUTE)
        if by_function is None:
            return None
        functions = module_functions(tree.body)
        backend = file.part.removeprefix("backend:")
        found = facts(tree)
        fates = ignored_buffer_fates(file.index, backend)
        findings: list[AstFinding] = []
        for name, named in by_function.items():
            function = functions.get(name)
            reported = [site for site in named if not site.falsy]
            if function is None or not reported:
                continue
            if not _out_is_destination(file.index, name):
                continue
            flow = None
            if takes_out(function):
                flow = followed_outflow(
                    function, found.import_map, file.config.runtime_modules, functions
                )
                if flow is None:
                    return None  # libcst follows `out` further: it may be read or forwarded
                if flow.reads_data:
                    continue  # out is data the function starts from: the attribute is used
            elif function.args.kwarg is not None and backend not in _NO_NATIVE_OUT:
                return None  # `**kwargs` passed on may carry `out`: libcst follows it
            if backend in _NO_NATIVE_OUT:
                why = f"{backend} has no native `out`"  # the flow reads no data (above)
            elif flow is None:
                why = "it takes no `out`"
            elif flow.may_forward_natively:
                continue
            else:
                why = _plain_why(flow)
            several = several_results_on_ast(function, lines, out_only=True)
            if several is None:
                return None  # a tuple word in a comment of the signature: libcst's text decides
            fate = fates(several)
            findings.extend(
                AstFinding(
                    site.line,
                    site.column,
                    site.end_line,
                    site.end_column,
                    _message(name, why, fate),
                    _REMOVE if site.removable else None,
                    severity=fate.severity,
                    category=fate.category,
                )
                for site in reported
            )
        return findings

    def visit_Module(self, node: cst.Module) -> None:
        flow = module_outflow(self.context)
        backend = self.context.backend
        fates = ignored_buffer_fates(self.context.index, backend or "")
        for name, sites in flow.attributes.items():
            function = flow.functions.get(name)
            if function is None:
                continue
            if not _out_is_destination(self.context.index, name):
                continue
            analysis = flow.analyse(function)
            if analysis.reads_data:
                continue  # out is data the function starts from: the attribute is used
            if backend in ("jax", "tensorflow"):
                why = f"{backend} has no native `out`"
            else:
                if analysis.may_forward_natively:
                    continue
                why = _why(analysis)
            fate = fates(several_results(function, out_only=True))
            for site in sites:
                if not site.is_falsy_literal:
                    self._report(site, why, fate)

    def _report(self, site: AttributeSite, why: str, fate: OutFate) -> None:
        removal = site.removal()
        target, replacement = removal if removal is not None else (None, None)
        self.report(
            site.element if site.element is not None else site.small,
            _message(site.function, why, fate),
            replacement=replacement,
            fix_description=_REMOVE,
            fix_target=target,
            category=fate.category,
            severity=fate.severity,
        )


_REMOVE = "Remove the `support_native_out` attribute"

_NO_NATIVE_OUT = ("jax", "tensorflow")


def _message(function: str, why: str, fate: OutFate) -> str:
    head = f"`{function}` has `support_native_out` but {why}"
    if not fate.never_handed:
        head += f": the wrapper hands over the native buffer, {_what_the_function_does(why)}"
    return compose(head, ", and ", fate, "; remove the attribute")


def _plain_why(flow: PlainOutFlow) -> str:
    """:func:`_why` for a flow decided on CPython's tree that may not forward natively:
    its uses are ``inplace_update``, rejecting calls or helpers that drop ``out``."""
    if not flow.uses and literal_out_none(flow.function):
        return "its native call is given `out=None`"
    return _why_of_uses(flow.uses)


def _out_is_destination(index: ProjectIndex, name: str) -> bool:
    """Whether the wrapper treats ``out`` of ``name`` as a destination (reads the attribute).

    Decided by the functional-API counterpart's ``@handle_out_argument``; when the API is
    not in view (only a backend folder is checked), by what the function does with ``out``
    alone (:attr:`FunctionOutFlow.reads_data`, asked by the caller).
    """
    api = index.api_function(name)
    if api is None:
        return True
    return "handle_out_argument" in api.decorators


def _what_the_function_does(why: str) -> str:
    if "inplace_update" in why:
        return "the function writes it by `inplace_update`, not by a native `out=`"
    return "the function ignores it"


def _why(flow: FunctionOutFlow) -> str:
    if flow.root is None:
        return "it takes no `out`"
    if not flow.uses and _has_literal_out_none(flow.function):
        return "its native call is given `out=None`"
    return _why_of_uses(flow.uses)


def _why_of_uses(uses: Sequence[PlainUse | OutUse]) -> str:
    """Why ``out`` reaches no native function, from the calls given it: the same words
    whether the flow was read on CPython's tree (:func:`_plain_why`) or libcst's
    (:func:`_why`), since a file's message must not depend on which tree decided it."""
    rejected = [use for use in uses if use.kind is UseKind.REJECTED]
    if rejected:
        return f"{rejected[0].describe()} does not accept `out`"
    if any(use.kind is UseKind.INPLACE for use in uses):
        return "it only writes `out` with `inplace_update` (that is the wrapper's job)"
    if any(use.kind is UseKind.DROPPED for use in uses):
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
