"""IVY002: ``support_native_out`` on a function that never forwards ``out`` natively."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ivycheck.checker.rule_api import (
    Category,
    Edit,
    Example,
    FileUnderCheck,
    Finding,
    FixSafety,
    ProjectIndex,
    Rule,
    Severity,
)
from ivycheck.rules import _fate_examples as shapes
from ivycheck.rules import _native_out_projects as projects
from ivycheck.rules._ast_facts import facts
from ivycheck.rules._ast_native_out_sites import NativeOutSite, native_out_sites
from ivycheck.rules._ast_out_analysis import ModuleFlows, may_forward_natively
from ivycheck.rules._ast_several_results import several_results
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._dead_out_words import dead_message, reason
from ivycheck.rules._native_out_projects import TAN_JAX, TAN_NP, TAN_TORCH, attributed, removed
from ivycheck.rules._out_fate import ignored_buffer_fates
from ivycheck.rules._site_removal import on_header_line, placed, remove, with_elements

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"
TF = "ivy/functional/backends/tensorflow/example.py"
API = "ivy/functional/ivy/example.py"
WRAPPER = shapes.WRAPPER
_WRAPPER_GATED = projects.WRAPPER_GATED
_ALWAYS_TRAINABLE = projects.ALWAYS_TRAINABLE
"""(Also the IVY003 tests' project: a wrapper that never hands JAX or PyTorch the buffer.)"""

_SIN = "\n\ndef sin(x, /, *, out=None):\n    return np.sin(x)\n"
_SIN_DEAD = TAN_NP.replace("np.tan(x)", "np.tan(x, out=out)") + _SIN
"""``tan`` forwards ``out``, ``sin`` ignores it."""
_TAN_DEAD = TAN_NP + _SIN.replace("np.sin(x)", "np.sin(x, out=out)")
"""``sin`` forwards ``out``, ``tan`` ignores it."""

_NEVER = "never passes `out` to a native function"
_REBINDS = "`out` silently changes dtype and buffer when the result's dtype differs"
_COPIES = "the wrapper then copies the result into `out` (an extra allocation"


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
            attributed(
                """
                import numpy as np


                def _tan(x, out=None):
                    return np.tan(x, out=out)


                def tan(x, /, *, out=None):
                    return np.tan(x, out=out)


                def tan_alias(x, /, *, out=None):
                    o = out
                    p = o
                    return np.tan(x, out=p)


                def tan_helper(x, /, *, out=None):
                    return _tan(x, out=out)


                def sin(x, /, *, out=None):
                    kw = {"out": out}
                    return np.sin(x, **kw)


                def cos(x, /, *, out=None):
                    kw = {}
                    kw["out"] = out
                    return np.cos(x, **kw)
                """,
                "for fn in (tan, tan_alias, tan_helper, sin, cos):\n    fn.support_native_out = True",
            ),
            path=NP,
        ),
        Example(
            attributed(
                """
                import torch


                def tan(x, **kwargs):
                    return torch.tan(x, **kwargs)
                """
            ),
            path=TORCH,
        ),
        Example(
            attributed(
                """
                from torch import tan as ttan


                def tan(x, *, dtype=None, out=None):
                    return ttan(x, out=out).to(dtype)
                """,
                'setattr({}, "support_native_out", True)',
            ),
            path=TORCH,
        ),
        Example(
            attributed("""
                import jax.numpy as jnp


                def scatter_flat(x, updates, *, out=None):
                    return jnp.add(x, updates)
                """),
            path=JAX,
            files={
                API: "@to_native_arrays_and_back\ndef scatter_flat(x, updates, *, out=None):\n    ...\n"
            },
        ),
        Example(attributed(TAN_JAX, "{}.support_native_out = False"), path=JAX),
        Example(attributed(TAN_NP.replace("np.tan(x)", "np.tan(x).reshape(out.shape)")), path=NP),
        Example(
            attributed("""
            def sum(x, /, *, out=None):
                return x.sum(out=out)
            """),
            path=TORCH,
        ),
        Example(
            attributed("""
                def scatter_nd(updates, /, *, out=None):
                    return jnp.add(out, updates)
                """),
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
            attributed("""
            import tensorflow as tf


            def scatter_nd(indices, updates, /, *, out=None):
                return tf.tensor_scatter_nd_add(out, indices, updates)
            """),
            path=TF,
        ),
        Example(
            attributed("""
            import numpy as np


            def copy_into(x, /, *, out=None):
                out[...] = x
                return out
            """),
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
            attributed("""
            import ivy


            def tan(x, /, *, out=None):
                return ivy.tan(x, out=out)
            """),
            path=NP,
        ),
        Example(
            attributed("""
                def scatter_sum(indices, updates, /, *, out=None):
                    start = jnp.zeros(updates.shape) if out is None else out
                    return start.at[indices].add(updates)
                """),
            path=JAX,
            files={
                API: "@handle_out_argument\ndef scatter_sum(indices, updates, /, *, out=None):\n    ...\n"
            },
        ),
        Example(
            attributed("""
                import torch


                def accumulate(x, /, *, out=None):
                    return torch.add(out, x)
                """),
            path=TORCH,
            files={API: "@handle_out_argument\ndef accumulate(x, /, *, out=None):\n    ...\n"},
        ),
        Example(
            attributed("""
            import numpy as np


            def shift(x, /, *, out=None):
                previous = out[1:]
                return np.concatenate([previous, x])
            """),
            path=NP,
        ),
        Example(
            attributed(
                TAN_JAX.replace("tan", "cumulative").replace("jnp.cumulative", "jnp.cumsum")
            ),
            path=JAX,
            files={
                "ivy/functional/__init__.py": "from .ivy.experimental import *\nfrom .ivy import *\n",
                "ivy/functional/ivy/__init__.py": "from .statistical import *\n",
                "ivy/functional/ivy/experimental/__init__.py": "from .statistical import *\n",
                "ivy/functional/ivy/statistical.py": (
                    "@to_native_arrays_and_back\ndef cumulative(x, /, *, out=None):\n    ...\n"
                ),
                "ivy/functional/ivy/experimental/statistical.py": (
                    "@handle_out_argument\ndef cumulative(x, /, *, out=None):\n    ...\n"
                ),
            },
        ),
        Example(
            attributed("""
            import numpy as np


            def cos(x, *, out=None):
                later = lambda: out
                return np.cos(x)
            """),
            path=NP,
        ),
    )
    INVALID = (
        removed(
            """
            import numpy as np


            def split_exponent(x, /, *, out: Optional[Tuple[np.ndarray, np.ndarray]] = None):
                return np.frexp(x)
            """,
            path=NP,
            files=shapes.GATED_PROJECT,
            message=(
                "never passes `out` to a native function, and the wrapper never hands a tuple "
                "`out` over (its `is_frozen(out)` is true for every tuple), so the attribute has "
                "no effect here; remove the attribute"
            ),
            severity=Severity.WARNING,
            category=Category.DEAD_CODE,
        ),
        removed(
            TAN_JAX.replace("tan", "tanh"),
            path=JAX,
            files={
                WRAPPER: _WRAPPER_GATED,
                projects.JAX_GRADIENTS: _ALWAYS_TRAINABLE,
                projects.JAX_GENERAL: shapes.UPDATE_REBINDS,
            },
            message=(
                "the wrapper never hands `out`'s buffer to this backend's functions (its "
                "`is_trainable` is true for every array), so the attribute has no effect here"
            ),
            severity=Severity.WARNING,
            category=Category.DEAD_CODE,
        ),
        removed(
            TAN_JAX.replace("jax.numpy as jnp", "tensorflow as tf").replace("jnp.tan", "tf.tanh"),
            path=TF,
            files={
                WRAPPER: _WRAPPER_GATED,
                projects.TF_GRADIENTS: projects.TRAINABLE_IF_VARIABLE,
                projects.TF_GENERAL: shapes.UPDATE_REBINDS,
            },
            message=_REBINDS,
            severity=Severity.ERROR,
            category=Category.CORRECTNESS,
        ),
        removed(
            TAN_TORCH,
            path=TORCH,
            files={
                WRAPPER: shapes.WRAPPER_UPDATES_OUT,
                shapes.TORCH_GENERAL: shapes.UPDATE_COPIES,
            },
            message=_COPIES,
            severity=Severity.WARNING,
            category=Category.PERFORMANCE,
        ),
        removed(
            TAN_NP,
            path=NP,
            files={
                WRAPPER: shapes.WRAPPER_UPDATES_OUT,
                shapes.NP_GENERAL: shapes.UPDATE_REBINDS,
            },
            message=f"`tan` has `support_native_out` but it {_NEVER}: the wrapper hands over "
            f"the native buffer, the function ignores it, and {_REBINDS}; remove the attribute",
            severity=Severity.ERROR,
            category=Category.CORRECTNESS,
        ),
        removed(
            TAN_TORCH,
            path=TORCH,
            files={
                WRAPPER: projects.WRAPPER_RETURNS,
                shapes.TORCH_GENERAL: shapes.UPDATE_COPIES,
            },
            message="the wrapper returns the result without writing `out`",
            severity=Severity.ERROR,
        ),
        removed(TAN_JAX, path=JAX, message="but jax has no native `out`"),
        removed(
            TAN_JAX.replace("jax.numpy as jnp", "tensorflow import math as tfm")
            .replace("import tensorflow", "from tensorflow")
            .replace("jnp.tan", "tfm.tan"),
            'setattr({}, "support_native_out", True)',
            path=TF,
            message="but tensorflow has no native `out`",
        ),
        removed(
            TAN_NP.replace("np.tan(x)", "np.tan(x, out=None)"),
            path=NP,
            message="but its native call is given `out=None`",
        ),
        removed(
            TAN_NP.replace("    return", "    # return np.tan(x, out=out)\n        return"),
            path=NP,
            message=_NEVER,
        ),
        removed(
            """
            import ivy
            import torch


            def tan(x, /, *, out=None):
                ret = torch.tan(x)
                return ivy.inplace_update(out, ret)
            """,
            path=TORCH,
            message="it only writes `out` with `inplace_update` (that is the wrapper's job): "
            "the wrapper hands over the native buffer, the function writes it by "
            "`inplace_update`, not by a native `out=`",
        ),
        Example(
            attributed(_SIN_DEAD, "for fn in (tan, sin):\n    fn.support_native_out = True"),
            path=NP,
            expected=attributed(_SIN_DEAD, "for fn in (tan,):\n    fn.support_native_out = True"),
            line=12,
            column=17,
            message="`sin` has `support_native_out`",
        ),
        removed(
            TAN_NP.replace("return np.tan(x)", "return np.tan(x) if out is None else x"),
            path=NP,
            message=_NEVER,
        ),
        removed(
            TAN_NP.replace(
                "def tan",
                "def _tan(x, out=None):\n    return np.transpose(x, out=out)\n\n\ndef tan",
            ).replace("np.tan(x)", "_tan(x, out=out)"),
            path=NP,
            message="but `_tan` does not accept `out`",
        ),
        removed(
            TAN_NP.replace("np.tan(x)", "np.transpose(x, out=out)"),
            path=NP,
            message="but `numpy.transpose` does not accept `out`",
        ),
        removed(
            """
            import torch


            def _ignore(x, out=None):
                return torch.tan(x)


            def tan(x, /, *, out=None):
                return _ignore(x, out=out)
            """,
            path=TORCH,
            message="but the helper it passes `out` to ignores it",
        ),
        removed(
            TAN_JAX,
            path=JAX,
            files={API: "def tan(x, *, out=None):\n    ...\n\n\ntan = handle_out_argument(tan)\n"},
        ),
        removed(
            TAN_TORCH,
            path=TORCH,
            files={**shapes.GATED_PROJECT, WRAPPER: shapes.WRAPPER_REBINDS_DATA},
            message=_REBINDS,
            severity=Severity.ERROR,
            category=Category.CORRECTNESS,
        ),
        removed(
            TAN_TORCH,
            path=TORCH,
            files=shapes.GATED_PROJECT,
            message=_COPIES,
            severity=Severity.WARNING,
            category=Category.PERFORMANCE,
        ),
        removed(
            TAN_TORCH,
            path=TORCH,
            files={**shapes.GATED_PROJECT, shapes.TORCH_GENERAL: shapes.UPDATE_UNREAD},
            message="the wrapper hands over the native buffer, the function ignores it; remove",
            severity=Severity.ERROR,
        ),
        removed(
            TAN_NP.replace("x, /, *, out=None", "x, **kwargs"),
            path=NP,
            message="but it takes no `out`",
        ),
        removed(
            TAN_NP.replace(
                "return np.tan(x)", 'o = out\n    kw = {"out": o}\n    return np.tan(x, **kw)'
            ).replace("np.tan(x, **kw)", "np.transpose(x, **kw)"),
            path=NP,
            message="but `numpy.transpose` does not accept `out`",
        ),
        removed(
            """
            import numpy as np


            def cos(x, *, out: (  # a Tuple of two
                np.ndarray
            ) = None):
                return np.cos(x)
            """,
            path=NP,
            files=shapes.GATED_PROJECT,
            message="the wrapper never hands a tuple `out` over",
            severity=Severity.WARNING,
        ),
        Example(
            attributed(
                _TAN_DEAD,
                "for fn in (\n    sin,\n    (  # the dead one\n        tan\n    ),\n):\n"
                "    fn.support_native_out = True",
            ),
            path=NP,
            expected=attributed(
                _TAN_DEAD, "for fn in (\n    sin,\n):\n    fn.support_native_out = True"
            ),
            line=14,
            column=5,
            message="`tan` has `support_native_out`",
        ),
        Example(
            attributed(TAN_NP, "if HAS_OUT:\n    {}.support_native_out = True; CHECKED = True"),
            path=NP,
            expected=attributed(TAN_NP, "if HAS_OUT:\n    CHECKED = True"),
            line=9,
            column=5,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Each non-falsy setting on a module-level function the wrapper reads it of, whose
        ``out`` flow (:class:`~ivycheck.rules._ast_out_analysis.ModuleFlows`) reads no data
        and, outside JAX/TensorFlow, may reach no native function (see the docs above)."""
        lines = Lines(file.source)
        by_function: dict[str, list[tuple[NativeOutSite, int]]] = {}
        for site, element in with_elements(native_out_sites(tree, lines)):
            if not site.falsy and not on_header_line(tree, lines, site):
                by_function.setdefault(site.function, []).append((site, element))
        functions = facts(tree).module_functions
        backend = file.part.removeprefix("backend:")
        flows: ModuleFlows | None = None
        fates = ignored_buffer_fates(file.index, backend)
        for name, reported in by_function.items():
            function = functions.get(name)
            if function is None or not _out_is_destination(file.index, name):
                continue
            if flows is None:
                imports = facts(tree).import_map
                flows = ModuleFlows(tree, lines, imports, file.config.runtime_modules)
            flow = flows.analyse(function)
            if flow.reads_data:
                continue  # out is data the function starts from: the attribute is used
            if backend in _NO_NATIVE_OUT:
                why = f"{backend} has no native `out`"
            elif may_forward_natively(flow):
                continue
            else:
                why = reason(flow)
            fate = fates(several_results(function, lines, out_only=True))
            message = dead_message(name, why, fate)
            for site, element in reported:
                span, removal = placed(tree, site, element, lines)
                yield Finding(
                    *span,
                    message,
                    _REMOVE if removal is not None else None,
                    severity=fate.severity,
                    category=fate.category,
                    fix_data=removal,
                )

    @classmethod
    def fix(cls, finding: Finding, file: FileUnderCheck) -> Edit | None:
        """The setting removed (:func:`~ivycheck.rules._site_removal.remove`)."""
        return remove(file.source, file.tree, finding.fix_data)


_REMOVE = "Remove the `support_native_out` attribute"

_NO_NATIVE_OUT = ("jax", "tensorflow")


def _out_is_destination(index: ProjectIndex, name: str) -> bool:
    """Whether the wrapper treats ``out`` of ``name`` as a destination (reads the attribute):
    the functional-API counterpart has ``@handle_out_argument``. When the API is not in view
    (a backend folder checked alone), what the function does with ``out`` decides."""
    api = index.api_function(name)
    if api is None:
        return True
    return "handle_out_argument" in api.decorators
